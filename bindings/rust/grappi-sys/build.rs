// Links libgrappi_c. Set GRAPPI_LIB_DIR to the directory holding it (a build or install tree);
// otherwise the system linker paths are searched.
fn main() {
    println!("cargo:rerun-if-env-changed=GRAPPI_LIB_DIR");
    if let Ok(dir) = std::env::var("GRAPPI_LIB_DIR") {
        println!("cargo:rustc-link-search=native={dir}");
    }
    println!("cargo:rustc-link-lib=dylib=grappi_c");
}
