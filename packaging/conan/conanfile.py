"""Conan 2 recipe for grappi: conan create packaging/conan --build=missing (from the repository root)."""
import os

from conan import ConanFile
from conan.tools.cmake import CMake, CMakeDeps, CMakeToolchain, cmake_layout
from conan.errors import ConanInvalidConfiguration
from conan.tools.files import copy, get


class GrappiConan(ConanFile):
    name = "grappi"
    version = "0.1.0"
    license = "MIT"
    url = "https://github.com/grappi/grappi"
    description = ("Knowledge-graph retrieval-augmented generation over biomedical networks (STRING PPI): "
                   "C++17 library with a stable C API")
    topics = ("bioinformatics", "protein-interaction", "knowledge-graph", "rag", "steiner-tree")
    package_type = "library"
    settings = "os", "arch", "compiler", "build_type"
    options = {"shared": [True, False], "fPIC": [True, False], "tools": [True, False]}
    default_options = {"shared": True, "fPIC": True, "tools": False}
    exports_sources = ("CMakeLists.txt", "LICENSE", "cmake/*", "include/*", "src/*", "capi/*", "tools/*", "web/*.js",
                       "web/*.css", "web/*.html", "web/*.json")
    # cytoscape.js, which the HTML reports embed: the version web/package-lock.json pins.
    cytoscape_url = "https://registry.npmjs.org/cytoscape/-/cytoscape-3.34.4.tgz"
    cytoscape_sha256 = "0d02363d99d805ce8d91fdecab7b2a8cb91ee280d67f309ce44c161d117b4679"

    def export_sources(self):
        # The recipe lives in packaging/conan; the sources are the repository root.
        root = os.path.join(self.recipe_folder, "..", "..")
        for pattern in self.exports_sources:
            copy(self, pattern, root, self.export_sources_folder)

    def validate(self):
        # Built and tested on Linux only (POSIX file and memory calls, GNU linker version
        # scripts); other platforms are not claimed.
        if self.settings.os != "Linux":
            raise ConanInvalidConfiguration("grappi is built and tested on Linux only")

    def config_options(self):
        if self.settings.os == "Windows":
            del self.options.fPIC

    def configure(self):
        if self.options.shared:
            self.options.rm_safe("fPIC")

    def layout(self):
        cmake_layout(self)

    def requirements(self):
        self.requires("sqlite3/3.45.0")
        self.requires("zlib/1.3.1")
        self.requires("openssl/3.2.1")
        self.requires("libcurl/8.6.0")
        self.requires("libxml2/2.12.5")
        self.requires("nlohmann_json/3.11.3", transitive_headers=True)
        self.requires("eigen/3.4.0")
        self.requires("hnswlib/0.8.0")
        if self.options.tools:
            self.requires("cli11/2.4.1")
            self.requires("cpp-httplib/0.15.3")

    def generate(self):
        tc = CMakeToolchain(self)
        tc.variables["GRAPPI_BUILD_TESTS"] = False
        tc.variables["GRAPPI_BUILD_EXAMPLES"] = False
        tc.variables["GRAPPI_BUILD_BENCHMARKS"] = False
        tc.variables["GRAPPI_BUILD_TOOLS"] = bool(self.options.tools)
        tc.variables["GRAPPI_WERROR"] = False
        cytoscape = os.path.join(self.build_folder, "cytoscape")
        get(self, self.cytoscape_url, sha256=self.cytoscape_sha256, destination=cytoscape)
        tc.variables["GRAPPI_CYTOSCAPE_JS"] = os.path.join(cytoscape, "package", "dist", "cytoscape.min.js").replace("\\", "/")
        tc.generate()
        CMakeDeps(self).generate()

    def build(self):
        cmake = CMake(self)
        cmake.configure()
        cmake.build()

    def package(self):
        copy(self, "LICENSE", self.source_folder, os.path.join(self.package_folder, "licenses"))
        CMake(self).install()

    def package_info(self):
        self.cpp_info.set_property("cmake_file_name", "grappi")
        self.cpp_info.set_property("pkg_config_name", "grappi")
        cpp = self.cpp_info.components["grappi"]
        cpp.set_property("cmake_target_name", "grappi::grappi")
        cpp.libs = ["grappi"]
        cpp.requires = ["sqlite3::sqlite3", "zlib::zlib", "openssl::crypto", "libcurl::libcurl",
                        "libxml2::libxml2", "nlohmann_json::nlohmann_json", "eigen::eigen", "hnswlib::hnswlib"]
        c = self.cpp_info.components["grappi_c"]
        c.set_property("cmake_target_name", "grappi::grappi_c")
        c.set_property("pkg_config_name", "grappi")
        c.libs = ["grappi_c"]
        c.requires = ["grappi"]
        if self.settings.os in ("Linux", "FreeBSD"):
            cpp.system_libs = ["pthread", "m"]
