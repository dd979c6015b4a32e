// Runs against the freshly built library: GRAPPI_LIB_DIR (link) and LD_LIBRARY_PATH (run),
// and the bundled data in GRAPPI_DATA.
use std::path::PathBuf;

fn data(name: &str) -> PathBuf {
    let dir = std::env::var("GRAPPI_DATA").unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/../../../data").into());
    PathBuf::from(dir).join(name)
}

#[test]
fn import_resolve_neighbors_retrieval() {
    let dir = std::env::temp_dir().join(format!("grappi-rust-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let g = grappi::Graph::open(dir.join("y.db")).unwrap();
    g.import(data("4932.protein.info.v12.0.txt.gz"), Some("info")).unwrap();
    g.import(data("4932.protein.physical.links.v12.0.txt.gz"), Some("physical")).unwrap();
    assert_eq!(g.counts().unwrap(), (6600, 176303));
    let cdc28 = g.resolve("cdc28").unwrap();
    assert_eq!(g.name(cdc28).unwrap(), "CDC28");
    assert_eq!(g.neighbors(cdc28, 0.0).unwrap().count(), 416);
    assert!(g.neighbors(cdc28, 0.9).unwrap().all(|(_, s)| s >= 0.9));
    let err = g.resolve("NO_SUCH_PROTEIN_XYZ").unwrap_err();
    assert_eq!(err.status, grappi_sys::GRAPPI_ENOTFOUND);
    assert!(err.message.contains("NO_SUCH_PROTEIN_XYZ"));
    assert!(g.import("/nonexistent/file.txt", None).is_err());
    assert_eq!(g.embed().unwrap(), 6600);
    let hits = g.search("cyclin-dependent kinase master regulator of mitotic and meiotic cell cycles", 3).unwrap();
    assert_eq!(hits[0].0, cdc28);
    let clb2 = g.resolve("CLB2").unwrap();
    assert!(g.paths_json(cdc28, clb2, 2, 3).unwrap().contains("\"proteins\""));
    assert_eq!(g.pagerank(&[cdc28], 3).unwrap()[0].0, cdc28);
    let opts = grappi::ExploreOptions { k: vec![5, 2], max_length: 3, top: 3, ..Default::default() };
    let ex = g.explore("CDC28", "cell cycle kinase", &opts).unwrap();
    assert!(ex.contains("\"rank\":3") && ex.contains("Extractive summary (not generated)"));
    let bad = grappi::ExploreOptions { llm: "gpt".into(), ..Default::default() };
    assert_eq!(g.explore("CDC28", "q", &bad).unwrap_err().status, grappi_sys::GRAPPI_EINVAL);
    let sub = g.retrieve("cyclin-dependent kinase of the cell cycle", "gretriever", false).unwrap();
    assert!(sub.contains("\"objective\"") && sub.contains("\"seeds\""));
    assert!(g.retrieve("kinase", "prize", true).unwrap().starts_with("node_id,node_attr\n"));
    drop(g);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn pcst_golden_and_errors() {
    let (nodes, edges, obj) = grappi::pcst_solve(&[0.0, 5.0, 6.0], &[(0, 1), (1, 2)], &[3.0, 4.0], -1, 1, "gw").unwrap();
    assert_eq!((nodes, edges), (vec![1, 2], vec![1]));
    assert!((obj - 4.0).abs() < 1e-9);
    let e = grappi::pcst_solve(&[0.0, 5.0, 6.0], &[(0, 1), (1, 2)], &[3.0, -4.0], -1, 1, "gw").unwrap_err();
    assert_eq!(e.status, grappi_sys::GRAPPI_EINVAL);
    let (nodes, edges, obj) =
        grappi::pcst_solve_with(&[0.0, 5.0, 6.0], &[(0, 1), (1, 2)], &[3.0, 4.0], -1, 1, "strong", true, true).unwrap();
    assert_eq!((nodes, edges), (vec![1, 2], vec![1]));
    assert!((obj - 4.0).abs() < 1e-9);
    assert!(!grappi::version().is_empty());
}
