// Runs against the freshly built library: GRAPPI_LIB_DIR (link) and LD_LIBRARY_PATH (run),
// and the bundled data in GRAPPI_DATA.
use std::path::PathBuf;

fn data(name: &str) -> PathBuf {
    let dir = std::env::var("GRAPPI_DATA").unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/../../../data").into());
    PathBuf::from(dir).join(name)
}

#[test]
fn bel_validate() {
    let (json, errors) = grappi::bel_validate("p(HGNC:AKT1) -> p(HGNC:EGFR)\na(HGNC:AKT1) -- p(HGNC:X)\n", false, false).unwrap();
    assert_eq!(errors, 1);
    assert!(json.contains("\"canonical\":\"p(HGNC:AKT1) increases p(HGNC:EGFR)\""));
    assert!(json.contains("\"namespace_kind\""));
    let (long, errors) = grappi::bel_validate("p(X:A) -> p(HGNC:B)", true, true).unwrap();
    assert_eq!(errors, 0);
    assert!(long.contains("proteinAbundance(X:A) increases proteinAbundance(HGNC:B)"));
}

#[test]
fn interactions_and_ontologies() {
    let dir = std::env::temp_dir().join(format!("grappi-rust-mitab-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let g = grappi::Graph::open(dir.join("kb.db")).unwrap();
    g.import(data("4932.protein.info.v12.0.txt.gz"), None).unwrap();
    g.import(data("4932.protein.aliases.v12.0.txt.gz"), None).unwrap();
    g.import(data("intact/intact_sample.mitab27.tsv.gz"), Some("mitab")).unwrap();
    g.import(data("ontology/psi-mi.obo"), None).unwrap();
    let ndc80 = g.resolve("uniprotkb:P40460").unwrap();
    let edges = g.edges_json(ndc80, ndc80).unwrap();
    assert!(edges.contains("\"relation\":\"mitab.physical_association\"") && edges.contains("intact:EBI-599804"));
    let sub = g.ontology_json("subtree", Some("MI:0190"), None, &[]).unwrap();
    assert_eq!(sub.matches("\"distance\"").count(), 145);
    let lca = g.ontology_json("lca", Some("MI:0407"), Some("MI:0403"), &["obo.is_a"]).unwrap();
    assert!(lca.contains("\"distance\":5"));
    assert_eq!(g.ontology_json("siblings", Some("MI:0407"), None, &[]).unwrap_err().status, grappi_sys::GRAPPI_EINVAL);
    // Grounding a pair in a text with the offline model: the phosphorylation it states.
    let o = grappi::GroundOptions { strategy: "stuff".into(), ..Default::default() };
    let grounded = g.ground("TESK2 phosphorylated cofilin specifically at Ser-3.", "TESK2", "cofilin", &o).unwrap();
    assert!(grounded.contains("\"term\":{\"id\":\"MI:0217\""), "{grounded}");
    let bad = grappi::GroundOptions { root: "MI:9999".into(), ..Default::default() };
    assert_eq!(g.ground("x y", "A", "B", &bad).unwrap_err().status, grappi_sys::GRAPPI_ENOTFOUND);
    let other = grappi::GroundOptions { ontology: Some("go".into()), ..Default::default() };
    assert_eq!(g.ground("x y", "A", "B", &other).unwrap_err().status, grappi_sys::GRAPPI_EINVAL);
    // BEL with the graph's identifiers: GO terms by name and by id have one canonical form.
    g.import(data("ontology/goslim_generic.obo"), None).unwrap();
    let (bel, errors) = g.bel_validate("p(HGNC:AKT1) -> bp(GO:autophagy)\np(HGNC:AKT1) -> bp(GO:0006914)\n", false, false).unwrap();
    assert_eq!(errors, 0);
    assert_eq!(bel.matches("\"canonical\":\"p(HGNC:AKT1) increases bp(GO:0006914 ! autophagy)\"").count(), 2);
    let (nodes, edges_out) = g.export(dir.join("kb.jsonl"), "jsonl").unwrap();
    let (n, e) = g.counts().unwrap();
    assert_eq!((nodes as i64, edges_out as i64), (n, e));
    let copy = grappi::Graph::open(dir.join("copy.db")).unwrap();
    copy.import(dir.join("kb.jsonl"), None).unwrap();
    assert_eq!(copy.counts().unwrap(), (n, e));
    assert_eq!(g.export(dir.join("x"), "cx3").unwrap_err().status, grappi_sys::GRAPPI_EINVAL);
    // The same through CX2 (Cytoscape, NDEx).
    assert_eq!(g.export(dir.join("kb.cx2"), "cx2").unwrap(), (n as u64, e as u64));
    let via_cx2 = grappi::Graph::open(dir.join("cx2.db")).unwrap();
    via_cx2.import(dir.join("kb.cx2"), Some("cx2")).unwrap();
    assert_eq!(via_cx2.counts().unwrap(), (n, e));
    drop(via_cx2);
    // A selection: the IntAct edges only, then two proteins.
    let only = grappi::ExportSelection { relations: vec!["mitab.physical_association".into()], ..Default::default() };
    let (_, part, skipped) = g.export_selection(dir.join("part.tsv"), "tsv", &only).unwrap();
    assert!(part > 0 && (part as i64) < e && skipped == 0);
    let two = grappi::ExportSelection { nodes: vec!["CDC28".into(), "CLN2".into()], ..Default::default() };
    assert_eq!(g.export_selection(dir.join("two.jsonl"), "jsonl", &two).unwrap().0, 2);
    let bad = grappi::ExportSelection { relations: vec!["no.such".into()], ..Default::default() };
    assert_eq!(g.export_selection(dir.join("x"), "jsonl", &bad).unwrap_err().status, grappi_sys::GRAPPI_EINVAL);
    // BEL from a paper with the offline rule table, imported as a dataset.
    let paper = "We show that Cdc28 phosphorylates Sic1 in vitro. Sic1 binds Cdc28 directly.\n";
    let xo = grappi::ExtractOptions { bel_path: Some(dir.join("x.bel")), import: true, ..Default::default() };
    let x = g.extract(paper, &xo).unwrap();
    assert!(x.contains("\"canonical\":\"complex(p(SGD:CDC28), p(SGD:SIC1))\""), "{x}");
    assert!(x.contains("\"import\":{\"already_imported\":false"), "{x}");
    // A co-occurrence graph of two abstracts, stored; then a hypothesis through it.
    let corpus = "101|t|Cdc28 and Sic1\n101|a|x\n101\t0\t5\tCdc28\tGene\tGENE:CDC28\n101\t10\t14\tSic1\tGene\tGENE:SIC1\n\n\
                  102|t|Sic1 and Cln2\n102|a|y\n102\t0\t4\tSic1\tGene\tGENE:SIC1\n102\t9\t13\tCln2\tGene\tGENE:CLN2\n";
    let co = grappi::CoocOptions { path: Some(dir.join("cooc.jsonl")), ..Default::default() };
    let built = g.cooc_build(corpus, &co).unwrap();
    assert!(built.contains("\"edges_created\":2"), "{built}");
    let h = g.hypothesize("GENE:CDC28", "GENE:CLN2", Some(corpus), &grappi::HypothesisOptions::default()).unwrap();
    assert!(h.contains("\"stop_reason\":\"converged\""), "{h}");
    // HGCR's rounds of every shortest path: the one path; none within one edge.
    let rounds = grappi::HypothesisOptions { shortest_rounds: 2, ..Default::default() };
    let h = g.hypothesize("GENE:CDC28", "GENE:CLN2", Some(corpus), &rounds).unwrap();
    assert!(h.contains("\"names\":[\"Cdc28\",\"Sic1\",\"Cln2\"]"), "{h}");
    let short = grappi::HypothesisOptions { shortest_rounds: 2, max_length: 1, ..Default::default() };
    assert!(g.hypothesize("GENE:CDC28", "GENE:CLN2", Some(corpus), &short).unwrap().contains("\"stop_reason\":\"no_paths\""));
    let bad = grappi::HypothesisOptions { rounds: 0, ..Default::default() };
    assert_eq!(g.hypothesize("GENE:CDC28", "GENE:CLN2", None, &bad).unwrap_err().status, grappi_sys::GRAPPI_EINVAL);
    let no_file = grappi::ExtractOptions { import: true, ..Default::default() };
    assert_eq!(g.extract(paper, &no_file).unwrap_err().status, grappi_sys::GRAPPI_EINVAL);
    drop(copy);
    drop(g);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn import_review_of_a_curator() {
    let dir = std::env::temp_dir().join(format!("grappi-rust-review-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let g = grappi::Graph::open(dir.join("r.db")).unwrap();
    let review = dir.join("review.tsv");
    let header = "decision\tstatus\tstatement\tevidence\tcitation\tparagraph\tflags\tchecks\n";
    std::fs::write(&review, format!("{header}accept\tvalid\tcomplex(p(SGD:CDC28), p(SGD:SIC1))\tSic1 binds Cdc28 directly.\tPMID:101\tinput#0\t\t\n")).unwrap();
    let report = g.import_review(&review, dir.join("review.bel")).unwrap();
    assert!(report.contains("\"already_imported\":false") && report.contains("review.bel"), "{report}");
    assert!(std::fs::read_to_string(dir.join("review.bel")).unwrap().contains("complex(p(SGD:CDC28), p(SGD:SIC1))"));
    // A decision that is none of accept, reject, undecided: refused naming the line, nothing imported.
    let (nodes, edges) = g.counts().unwrap();
    std::fs::write(&review, format!("{header}maybe\tvalid\tp(SGD:SIC1)\te\tPMID:1\td#0\t\t\n")).unwrap();
    let err = g.import_review(&review, dir.join("review2.bel")).unwrap_err();
    assert_eq!(err.status, grappi_sys::GRAPPI_EPARSE);
    assert!(err.message.contains(":2:"), "{}", err.message);
    assert_eq!(g.counts().unwrap(), (nodes, edges));
}

#[test]
fn enrichment() {
    let dir = std::env::temp_dir().join(format!("grappi-rust-enrich-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let g = grappi::Graph::open(dir.join("e.db")).unwrap();
    g.import(data("4932.protein.info.v12.0.txt.gz"), None).unwrap();
    g.import(data("ontology/goslim_generic.obo"), None).unwrap();
    let genes = dir.join("genes.tsv");
    std::fs::write(&genes, "symbol\tgo_cc\nCLB2\tGO:0005694:IDA\nCDC5\tGO:0005694:IEA\nCDC28\tGO:0005634:IDA\n").unwrap();
    g.import(&genes, Some("mapping")).unwrap();
    let r = g.enrich_json(&["CLB2", "CDC5", "NOSUCH"], &["Component"], &[], 1.0).unwrap();
    assert!(r.contains("\"term\":\"GO:0005694\"") && r.contains("\"universe\":3"), "{}", r);
    assert!(r.contains("\"name\":\"NOSUCH\""));
    assert!(g.enrich_json(&["CLB2"], &[], &["IEA"], 1.0).unwrap().contains("\"universe\":2"));
    assert_eq!(g.enrich_json(&["CLB2"], &["KEGG"], &[], 1.0).unwrap_err().status, grappi_sys::GRAPPI_EINVAL);
    g.import(data("4932.protein.physical.links.v12.0.txt.gz"), None).unwrap();
    let ppi = g.ppi_enrichment_json(&["CDC28", "CLN1", "CLN2", "CLB2", "CLB5"], 0.7).unwrap();
    assert!(ppi.contains("\"nodes\":5"), "{}", ppi);
    assert_eq!(g.ppi_enrichment_json(&["CDC28"], 2.0).unwrap_err().status, grappi_sys::GRAPPI_EINVAL);
    // Clusters of the cyclin set's network, and of the whole network by Leiden.
    let c = g.cluster_json(&["CDC28", "CLN1", "CLN2", "CLB2", "CLB5"], "mcl", 0.7, 2.0, 1.0, 0).unwrap();
    assert!(c.contains("\"method\":\"mcl\"") && c.contains("4932.YBR160W"), "{}", c);
    let whole = g.cluster_json(&[], "leiden", 0.9, 2.0, 1.0, 10).unwrap();
    assert!(whole.contains("\"modularity\":0."), "{}", &whole[..200.min(whole.len())]);
    assert_eq!(g.cluster_json(&["CDC28"], "mcl", 0.7, 1.0, 1.0, 0).unwrap_err().status, grappi_sys::GRAPPI_EINVAL);
    assert_eq!(g.cluster_json(&[], "kmeans", 0.7, 2.0, 1.0, 0).unwrap_err().status, grappi_sys::GRAPPI_EINVAL);
    // Community reports: built with extractive summaries, stored, read back.
    assert_eq!(g.communities_json("default").unwrap_err().status, grappi_sys::GRAPPI_ENOTFOUND);
    let built = g.build_communities_json("default", 0.9, None).unwrap();
    assert!(built.contains("\"summary_status\":\"extractive\"") && built.contains("\"id\":\"C1\""), "{}", &built[..200.min(built.len())]);
    let back = g.communities_json("default").unwrap();
    assert!(back.contains("\"stale\":false"), "{}", &back[..200.min(back.len())]);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn import_with_options() {
    let dir = std::env::temp_dir().join(format!("grappi-rust-import-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let g = grappi::Graph::open(dir.join("e.db")).unwrap();
    let csv = dir.join("edges.csv");
    std::fs::write(&csv, "gene_a;gene_b;weight\nCDK1;CCNB1;800\nCDK1;CDKN1A;x\nCDK1;CDK2;50\n").unwrap();
    let mut o = grappi::ImportOptions {
        source_column: Some("gene_a".into()),
        target_column: Some("gene_b".into()),
        score_column: Some("weight".into()),
        score_scale: 1000.0,
        header: Some(true),
        separator: Some(';'),
        ..Default::default()
    };
    // ';' is not a separator the edge-list reader knows: refused, nothing read.
    let err = g.import_with(&csv, Some("edges"), &o).unwrap_err();
    assert_eq!(err.status, grappi_sys::GRAPPI_EINVAL);
    std::fs::write(&csv, "gene_a,gene_b,weight\nCDK1,CCNB1,800\nCDK1,CDKN1A,x\nCDK1,CDK2,50\n").unwrap();
    o.separator = Some(',');
    // The bad score on line 3 fails the import; skipped, it is counted and quoted.
    let err = g.import_with(&csv, Some("edges"), &o).unwrap_err();
    assert_eq!(err.status, grappi_sys::GRAPPI_EPARSE);
    assert!(err.message.contains(":3:"), "{}", err.message);
    assert_eq!(g.counts().unwrap(), (0, 0));
    o.skip_bad_lines = true;
    let report = g.import_with(&csv, Some("edges"), &o).unwrap();
    assert!(report.contains("\"rows_skipped\":1") && report.contains("\"edges_created\":2"), "{report}");
    assert_eq!(g.counts().unwrap(), (3, 2));
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
    let named = g.neighbors_json("cdc28", 0.0, 2).unwrap();
    assert!(named.contains("\"degree\":416") && named.contains("\"external_id\":\"4932.YBR160W\""), "{}", named);
    assert_eq!(g.neighbors_json("NO_SUCH_PROTEIN", 0.0, 0).unwrap_err().status, grappi_sys::GRAPPI_ENOTFOUND);
    // Every method taking a node takes a name, alias or external id as well as an id.
    assert_eq!(g.name("4932.YBR160W").unwrap(), "CDC28");
    assert_eq!(g.neighbors("cdc28", 0.9).unwrap().count(), g.neighbors(cdc28, 0.9).unwrap().count());
    let cln2 = g.resolve("CLN2").unwrap();
    assert_eq!(g.paths_json("CDC28", String::from("CLN2"), 3, 2).unwrap(), g.paths_json(cdc28, cln2, 3, 2).unwrap());
    assert_eq!(g.edges_json("CDC28", "CLN2").unwrap(), g.edges_json(cdc28, cln2).unwrap());
    assert_eq!(g.name("NO_SUCH_PROTEIN").unwrap_err().status, grappi_sys::GRAPPI_ENOTFOUND);
    let err = g.resolve("NO_SUCH_PROTEIN_XYZ").unwrap_err();
    assert_eq!(err.status, grappi_sys::GRAPPI_ENOTFOUND);
    assert!(err.message.contains("NO_SUCH_PROTEIN_XYZ"));
    assert!(g.import("/nonexistent/file.txt", None).is_err());
    assert_eq!(g.embed().unwrap(), 6600);
    let hits = g.search("cyclin-dependent kinase master regulator of mitotic and meiotic cell cycles", 3).unwrap();
    assert_eq!(hits[0].0, cdc28);
    let clb2 = g.resolve("CLB2").unwrap();
    assert!(g.paths_json(cdc28, clb2, 2, 3).unwrap().contains("\"proteins\""));
    let every = g.all_shortest_paths_json(cdc28, clb2, 2, 100, true).unwrap();
    assert!(every.contains("\"length\":2") && !every.contains("\"length\":1"), "{every}");
    assert_eq!(g.pagerank(&[cdc28], 3).unwrap()[0].0, cdc28);
    let opts = grappi::ExploreOptions { k: vec![5, 2], max_length: 3, top: 3, ..Default::default() };
    let ex = g.explore(cdc28, "cell cycle kinase", &opts).unwrap();
    assert!(ex.contains("\"rank\":3") && ex.contains("Extractive summary (not generated)"));
    let reference = grappi::ExploreOptions { diversity: 0.0, max_paths: 50, ..opts.clone() };
    let ex = g.explore(cdc28, "cell cycle kinase", &reference).unwrap();
    assert!(ex.contains("\"diversity\":0.0") && ex.contains("\"candidate_paths\":50,"));
    let bad = grappi::ExploreOptions { diversity: 1.5, ..Default::default() };
    assert_eq!(g.explore(cdc28, "q", &bad).unwrap_err().status, grappi_sys::GRAPPI_EINVAL);
    assert_eq!(g.explore(-1, "q", &opts).unwrap_err().status, grappi_sys::GRAPPI_ENOTFOUND);
    let (json, html) = g.explore_report(cdc28, "cell cycle kinase", &opts).unwrap();
    assert!(json.contains("\"rank\":3") && html.starts_with("<!DOCTYPE html>") && html.contains("id=\"grappi-view\""));
    assert!(g.complete("cdc28", 3).unwrap().contains("\"name\":\"CDC28\""));
    assert_eq!(g.complete("cdc28", 1000).unwrap_err().status, grappi_sys::GRAPPI_EINVAL);
    let sub = g.retrieve_json("cyclin-dependent kinase of the cell cycle", "gretriever", grappi::EventOrder::Reference).unwrap();
    assert!(sub.contains("\"objective\"") && sub.contains("\"seeds\""));
    assert!(g.retrieve_csv("kinase", "prize", grappi::EventOrder::Default).unwrap().starts_with("node_id,node_attr\n"));
    assert!(g.khop_json("cyclin-dependent kinase", 2, 1, 5).unwrap().contains("\"seeds\""));
    let analysis = g.analyze_question("Which kinases interact with Swi6p?").unwrap();
    assert!(analysis.contains("\"intent\":\"class\"") && analysis.contains("\"name\":\"SWI6\"") && analysis.contains("\"text\":\"Swi6p\""));
    assert_eq!(g.analyze_question(" ").unwrap_err().status, grappi_sys::GRAPPI_EINVAL);
    let ask = g.ask("Which proteins interact with CDC28?", &grappi::AskOptions::default()).unwrap();
    assert!(ask.contains("\"answer_entities\"") && ask.contains("\"status\":\"extractive\"") && ask.contains("\"question_entities\""));
    // The answer in the question's form; an open question no rule reads, said so.
    assert!(ask.contains("\"answer\":{") && ask.contains("\"form\":\"list\""));
    let yes = g.ask("Does CDC28 interact with CLN2?", &grappi::AskOptions::default()).unwrap();
    assert!(yes.contains("\"form\":\"yes_no\"") && yes.contains("\"value\":true"));
    let open = g.ask("Which cyclin-dependent kinases drive the cell cycle?", &grappi::AskOptions::default()).unwrap();
    assert!(open.contains("\"form\":\"unsupported\"") && open.contains("\"reason\""));
    let (summary, rows) =
        g.eval_qa("{\"question\": \"Which kinase drives the cell cycle?\", \"answers\": [\"CDC28\"]}\n", 5, &Default::default()).unwrap();
    assert!(summary.contains("\"mrr\"") && rows.lines().count() == 1);
    let bad_ask = grappi::AskOptions { context: "xml".into(), ..Default::default() };
    assert_eq!(g.ask("kinase", &bad_ask).unwrap_err().status, grappi_sys::GRAPPI_EINVAL);
    let train = "{\"question\": \"Which proteins bind the cyclin-dependent kinase CDC28?\", \"answers\": [\"CKS1\", \"CLN2\", \"SIC1\"]}\n\
                 {\"question\": \"Which proteins bind the kinase PHO85?\", \"answers\": [\"PHO80\", \"PCL1\", \"PCL2\"]}\n";
    let ro = grappi::ReaderOptions { scope: "base".into(), name: "rs-reader".into(), epochs: 2, hidden: 8, heads: 2,
                                     ..Default::default() };
    let report = g.train_reader(train, None, &ro).unwrap();
    assert!(report.contains("\"best_epoch\"") && report.contains("\"scope\":\"base\""));
    // Cancelled: nothing stored, the report says so.
    let mut cancelled = grappi::ReaderOptions { name: "rs-cancelled".into(), epochs: 2, hidden: 8, heads: 2,
                                                ..Default::default() };
    cancelled.run.cancel = Some(std::sync::Arc::new(|| true));
    let report = g.train_reader(train, None, &cancelled).unwrap();
    assert!(report.contains("\"cancelled\":true"), "{}", report);
    assert!(g.reader_scores("Which proteins bind the kinase CDC28?", "gretriever", "rs-cancelled").is_err());
    let scores = g.reader_scores("Which proteins bind the kinase CDC28?", "gretriever", "rs-reader").unwrap();
    assert!(scores.contains("\"reader\":\"rs-reader\"") && scores.contains("\"score\""));
    let with_gat = grappi::AskOptions { reader: "gat".into(), reader_name: "rs-reader".into(), ..Default::default() };
    assert!(g.ask("Which proteins bind the kinase CDC28?", &with_gat).unwrap().contains("\"reader_score\""));
    assert_eq!(g.reader_scores("CDC28?", "gretriever", "missing").unwrap_err().status, grappi_sys::GRAPPI_ENOTFOUND);
    assert_eq!(g.embed_openai("http://127.0.0.1:9/v1", "", 0).unwrap_err().status, grappi_sys::GRAPPI_EINVAL);
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
    assert!(!grappi::version().is_empty());
}

#[test]
fn pcst_solver_reused() {
    let mut solver = grappi::PcstSolver::new().unwrap();
    let o = grappi::PcstOptions { pruning: "strong".into(), improve: true, event_order: grappi::EventOrder::Reference,
                                  ..Default::default() };
    let s = solver.solve(&[0.0, 5.0, 6.0], &[(0, 1), (1, 2)], &[3.0, 4.0], &o).unwrap();
    assert_eq!((s.nodes, s.edges), (vec![1, 2], vec![1]));
    assert!((s.objective - 4.0).abs() < 1e-9 && (s.net_worth - 7.0).abs() < 1e-9);
    // The same solver, a rooted path: pruning none keeps it whole, gw the root alone.
    let path = ([10.0, 0.0, 1.0, 10.0], [(0, 1), (1, 2), (2, 3)], [10.0, 4.0, 3.0]);
    let none = grappi::PcstOptions { root: 0, pruning: "none".into(), ..Default::default() };
    assert_eq!(solver.solve(&path.0, &path.1, &path.2, &none).unwrap().edges, vec![1, 2]);
    let gw = grappi::PcstOptions { root: 0, ..Default::default() };
    assert_eq!(solver.solve(&path.0, &path.1, &path.2, &gw).unwrap().nodes, vec![0]);
    let bad = grappi::PcstOptions { pruning: "fastest".into(), ..Default::default() };
    assert_eq!(solver.solve(&path.0, &path.1, &path.2, &bad).unwrap_err().status, grappi_sys::GRAPPI_EINVAL);
}

/// Every struct grappi-sys mirrors has the C compiler's size, field order and offsets
/// (GRAPPI_ABI_LAYOUT: the abi_layout program, which prints them as JSON).
#[test]
fn mirrored_structs_match_the_c_layout() {
    let Ok(program) = std::env::var("GRAPPI_ABI_LAYOUT") else {
        eprintln!("GRAPPI_ABI_LAYOUT not set: layout not checked");
        return;
    };
    let out = std::process::Command::new(program).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    // The program's output: one struct per line, `"name": {"size": n, "fields": {"f": [offset, size], ...}}`.
    let mut checked = 0;
    for line in text.lines().filter(|l| l.contains("\"size\"")) {
        let name = line.split('"').nth(1).unwrap();
        let number = |s: &str| s.trim().trim_matches(|c: char| !c.is_ascii_digit()).parse::<usize>().unwrap();
        let size = number(line.split("\"size\":").nth(1).unwrap().split(',').next().unwrap());
        let fields_text = line.split("\"fields\": {").nth(1).unwrap();
        let c_fields: Vec<(String, usize, usize)> = fields_text
            .split(']')
            .filter(|f| f.contains('['))
            .map(|f| {
                let fname = f.split('"').nth(1).unwrap().to_string();
                let nums: Vec<usize> = f.split('[').nth(1).unwrap().split(',').map(number).collect();
                (fname, nums[0], nums[1])
            })
            .collect();
        let (rust_size, rust_fields) = grappi_sys::layout_of(name).unwrap_or_else(|| panic!("grappi-sys does not mirror {name}"));
        assert_eq!(rust_size, size, "{name}: size");
        let rust: Vec<(String, usize, usize)> = rust_fields.into_iter().map(|(f, o, s)| (f.to_string(), o, s)).collect();
        assert_eq!(rust, c_fields, "{name}: fields (name, offset, size)");
        checked += 1;
    }
    assert!(checked >= 7, "only {checked} structs in the layout output");
}

#[test]
fn model_handle_cancel_and_progress() {
    // A Model (every setting of grappi_model_new) and cancel and progress functions through
    // each agent's options' `run`: extract reports its paragraphs and, cancelled, skips them.
    use std::sync::{Arc, Mutex};
    let dir = std::env::temp_dir().join(format!("grappi-rust-run-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let g = grappi::Graph::open(dir.join("kb.db")).unwrap();
    g.import(data("4932.protein.info.v12.0.txt.gz"), None).unwrap();
    let model = Arc::new(grappi::Model::new(&grappi::ModelOptions { temperature: 0.2, ..Default::default() }).unwrap());
    assert!(model.describe().unwrap().contains("\"kind\":\"extractive\""));
    let paper = "Sic1 binds Cdc28 directly.\n\nCdc28 phosphorylates Sic1 in the G1 phase.\n";
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    let mut xo = grappi::ExtractOptions::default();
    xo.run = grappi::Run {
        model: Some(model.clone()),
        cancel: None,
        progress: Some(Arc::new(move |stage: &str, done: usize, total: usize| log.lock().unwrap().push((stage.to_string(), done, total)))),
    };
    let x = g.extract(paper, &xo).unwrap();
    assert!(x.contains("\"valid\":2"), "{}", x);
    assert_eq!(seen.lock().unwrap().last().cloned(), Some(("paragraphs".to_string(), 2, 2)));
    xo.run.cancel = Some(Arc::new(|| true));
    let x = g.extract(paper, &xo).unwrap();
    assert_eq!(x.matches("\"status\":\"skipped\"").count(), 2, "{}", x);
    assert!(x.contains("\"budget\":\"cancelled by the caller\""), "{}", x);
    // A panicking cancel function stops the run instead of crossing into C.
    xo.run.cancel = Some(Arc::new(|| panic!("no")));
    assert!(g.extract(paper, &xo).unwrap().contains("cancelled by the caller"));
    // The budget: a dry run plans and sends nothing.
    xo.run.cancel = None;
    xo.budget = grappi::Budget { dry_run: true, ..Default::default() };
    let x = g.extract(paper, &xo).unwrap();
    assert!(x.contains("\"dry_run\":true"), "{}", x);
    let bad = grappi::ModelOptions { llm: "openai".into(), ..Default::default() };
    assert_eq!(grappi::Model::new(&bad).err().unwrap().status, grappi_sys::GRAPPI_EINVAL);
    drop(g);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn eval_hypotheses_with_intervals() {
    // Ten dated abstracts: KRAS and MYC first named together in 2011, with BRAF.
    let rows = [(1, 2001, "KRAS BRAF"), (2, 2002, "BRAF MYC"), (3, 2003, "KRAS EGFR"), (4, 2004, "EGFR MYC"),
                (5, 2005, "KRAS RAF1"), (6, 2006, "RAF1 MAPK1"), (7, 2007, "MAPK1 MYC"), (8, 2008, "BRAF EGFR"),
                (9, 2011, "KRAS BRAF MYC"), (10, 2012, "EGFR RAF1")];
    let mut corpus = String::new();
    for (pmid, year, names) in rows {
        let concepts: Vec<String> =
            names.split(' ').map(|n| format!("{{\"id\": \"GENE:{n}\", \"type\": \"Gene\", \"text\": \"{n}\"}}")).collect();
        corpus += &format!("{{\"pmid\": {pmid}, \"year\": {year}, \"title\": \"\", \"text\": \"{} interact.\", \"concepts\": [{}]}}\n",
                           names.replace(' ', " and "), concepts.join(", "));
    }
    let o = grappi::EvalHypothesesOptions { as_of: 2010, explain: 0, bootstrap: 50, ..Default::default() };
    let (summary, pairs) = grappi::eval_hypotheses(&corpus, &o).unwrap();
    assert!(summary.contains("\"kind\":\"year\"") && summary.contains("\"resamples\":50"), "{summary}");
    assert!(summary.contains("\"unit\":\"pair\""), "{summary}");
    let pairs = pairs.unwrap();
    assert_eq!(pairs.lines().count(), 2);
    assert!(pairs.contains("\"names\":[\"KRAS\",\"BRAF\",\"MYC\"],\"positive\":true"), "{pairs}");
    let several = grappi::EvalHypothesesOptions { splits: vec![0.6, 0.8], explain: 0, ..Default::default() };
    let (summary, pairs) = grappi::eval_hypotheses(&corpus, &several).unwrap();
    assert!(summary.contains("\"means\":{") && pairs.is_none(), "{summary}");
    let bad = grappi::EvalHypothesesOptions { splits: vec![1.5], ..Default::default() };
    assert!(grappi::eval_hypotheses(&corpus, &bad).is_err());
}
