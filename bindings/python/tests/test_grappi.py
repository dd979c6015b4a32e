"""Tests of the ctypes bindings against the freshly built library (GRAPPI_LIB, GRAPPI_DATA)."""
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import grappi  # noqa: E402
import ctypes  # noqa: E402

DATA = os.environ.get("GRAPPI_DATA", os.path.join(os.path.dirname(__file__), "..", "..", "..", "data"))


class GraphTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        cls.g = grappi.Graph(os.path.join(cls.dir.name, "y.db"), create=True)
        cls.g.import_file(os.path.join(DATA, "4932.protein.info.v12.0.txt.gz"), kind="info")
        cls.g.import_file(os.path.join(DATA, "4932.protein.physical.links.v12.0.txt.gz"), kind="physical")

    @classmethod
    def tearDownClass(cls):
        cls.g.close()
        cls.dir.cleanup()

    def test_version(self):
        self.assertRegex(grappi.version(), r"^\d+\.\d+\.\d+$")

    def test_counts_resolve_neighbors(self):
        self.assertEqual(self.g.counts(), (6600, 176303))
        cdc28 = self.g.resolve("cdc28")
        self.assertEqual(self.g.name(cdc28), "CDC28")
        nb = self.g.neighbors(cdc28)
        self.assertEqual(len(nb), 416)
        strong = self.g.neighbors("CDC28", min_score=0.9)
        self.assertTrue(0 < len(strong) < 416 and all(n["score"] >= 0.9 for n in strong))
        # Named, strongest first (ties by id), as the CLI lists them; by name, alias, external id or id.
        scores = [n["score"] for n in nb]
        self.assertEqual(scores, sorted(scores, reverse=True))
        self.assertTrue(all(n["external_id"].startswith("4932.") and n["name"] for n in nb))
        self.assertEqual(self.g.neighbors("4932.YBR160W", limit=5), nb[:5])
        self.assertEqual(len(self.g.neighbors("cdc28", limit=3)), 3)
        with self.assertRaises(grappi.Error) as e:
            self.g.neighbors("NO_SUCH_PROTEIN_XYZ")
        self.assertEqual(e.exception.status, -2)
        # The module shows its public API only.
        self.assertNotIn("ctypes", dir(grappi))
        self.assertNotIn("os", dir(grappi))
        self.assertIn("Graph", dir(grappi))

    def test_notebook_use(self):
        # A missing file is refused unless create=True (no empty database made by a typo).
        missing = os.path.join(self.dir.name, "typo.db")
        with self.assertRaises(grappi.Error) as e:
            grappi.Graph(missing)
        self.assertEqual(e.exception.status, -2)
        self.assertIn("create=True", str(e.exception))
        self.assertFalse(os.path.exists(missing))
        with self.assertRaises(ValueError):
            grappi.Graph(missing, read_only=True, create=True)
        # Every method taking a node takes a name, alias, external id or id.
        cdc28 = self.g.resolve("CDC28")
        self.assertEqual(self.g.name("4932.YBR160W"), "CDC28")
        self.assertEqual(self.g.paths("cdc28", "CLN2", k=2), self.g.paths(cdc28, self.g.resolve("CLN2"), k=2))
        self.assertEqual(self.g.edges("CDC28", "CLN2"), self.g.edges(cdc28, self.g.resolve("CLN2")))
        self.assertEqual(self.g.pagerank(seeds=["CDC28"], top=3), self.g.pagerank(seeds=[cdc28], top=3))
        with self.assertRaises(TypeError):
            self.g.name(3.5)
        # (the methods that read names take ids too: their external ids)
        self.assertEqual(self.g.cluster([cdc28, "CLN1", "CLN2"], min_score=0.7, terms=0)["clusters"],
                         self.g.cluster(["CDC28", "CLN1", "CLN2"], min_score=0.7, terms=0)["clusters"])
        # Results are dicts and lists that also make tables and networks (pandas / networkx when
        # importable, else an ImportError saying how to get them).
        nb = self.g.neighbors("CDC28", limit=5)
        self.assertIsInstance(nb, list)
        paths = self.g.paths("CDC28", "CLN2", k=3)
        for module, call in (("pandas", nb.to_pandas), ("networkx", nb.to_networkx)):
            saved = sys.modules.get(module)
            sys.modules[module] = None  # (as if not installed)
            try:
                with self.assertRaises(ImportError) as e:
                    call()
                self.assertIn("python3-" + module, str(e.exception))
            finally:
                if saved is None:
                    del sys.modules[module]
                else:
                    sys.modules[module] = saved
        try:
            import pandas  # noqa: F401
            import networkx  # noqa: F401
        except ImportError:
            self.skipTest("pandas or networkx is not installed (the wheel test checks them in a venv)")
        table = nb.to_pandas()
        self.assertEqual(list(table["name"]), [n["name"] for n in nb])
        self.assertIn("score", table.columns)
        star = nb.to_networkx()
        self.assertEqual(star.number_of_nodes(), 6)
        self.assertEqual(star.nodes["4932.YBR160W"]["name"], "CDC28")
        net = paths.to_networkx()
        self.assertIn("4932.YBR160W", net)
        window = self.g.window("CDC28", k=(5, 2))
        self.assertIsInstance(window, dict)
        w = window.to_networkx()
        self.assertEqual(w.number_of_nodes(), len(window["nodes"]))
        self.assertEqual(w.number_of_edges(), len(window["edges"]))
        self.assertEqual(len(window.to_pandas()), len(window["edges"]))
        self.assertEqual(len(window.to_pandas("nodes")), len(window["nodes"]))
        with self.assertRaises(ValueError):
            grappi.Result({"status": "ok"}).to_pandas()

    def test_errors(self):
        with self.assertRaises(grappi.Error) as e:
            self.g.resolve("NO_SUCH_PROTEIN_XYZ")
        self.assertEqual(e.exception.status, -2)
        self.assertIn("NO_SUCH_PROTEIN_XYZ", str(e.exception))
        with self.assertRaises(grappi.Error):
            self.g.import_file("/nonexistent/file.txt")

    def test_import_with_options(self):
        with tempfile.TemporaryDirectory() as d:
            csv = os.path.join(d, "edges.tsv")
            with open(csv, "w") as f:
                f.write("CDK1\tCCNB1\t0.8\tbinds\nCDK1\tCDK2\tnot-a-score\tbinds\nCDK2\tCCNA2\t0.3\tbinds\n")
            with grappi.Graph(os.path.join(d, "e.db"), create=True) as g:
                opts = dict(kind="edges", score_column="3", relation_column="4", header=False, separator="\t",
                            directed=True)
                with self.assertRaises(grappi.Error) as e:
                    g.import_with(csv, **opts)
                self.assertIn(":2:", str(e.exception))
                with self.assertRaises(grappi.Error) as e:
                    g.import_with(csv, skip_bad_lines=True, max_rows=2, **opts)
                self.assertIn("more than 2 lines", str(e.exception))
                self.assertEqual(g.counts(), (0, 0))
                report = g.import_with(csv, skip_bad_lines=True, **opts)
                f = report["files"][0]
                self.assertEqual((f["format"], f["rows_skipped"], f["edges_created"]), ("edges", 1, 2))
                self.assertIn("not-a-score", f["bad_line_examples"][0])
                self.assertEqual(g.counts(), (4, 2))

    def test_bel_validate(self):
        r = grappi.bel_validate("kin(p(HGNC:AKT1)) -> p(HGNC:EGFR)\na(HGNC:AKT1) -- p(HGNC:X)\n")
        self.assertEqual(r["statements"], 2)
        self.assertEqual(r["valid_statements"], 1)
        self.assertEqual(r["results"][0]["canonical"], "act(p(HGNC:AKT1), ma(kin)) increases p(HGNC:EGFR)")
        self.assertEqual([p["code"] for p in r["problems"]], ["bel1", "namespace_kind"])
        self.assertEqual(r["problems"][1]["line"], 2)
        long = grappi.bel_validate("p(X:A) -> p(HGNC:B)", long_form=True, allow_unknown_namespaces=True)
        self.assertEqual(long["results"][0]["canonical"], "proteinAbundance(X:A) increases proteinAbundance(HGNC:B)")

    def test_enrichment(self):
        with tempfile.TemporaryDirectory() as d:
            g = grappi.Graph(os.path.join(d, "kb.db"), create=True)
            g.import_file(os.path.join(DATA, "4932.protein.info.v12.0.txt.gz"))
            g.import_file(os.path.join(DATA, "ontology", "goslim_generic.obo"))
            genes = os.path.join(d, "genes.tsv")
            with open(genes, "w") as f:
                f.write("symbol\tgo_cc\nCLB2\tGO:0005694:IDA\nCDC5\tGO:0005694:IEA\nCDC28\tGO:0005634:IDA\n"
                        "CLN2\tGO:0005634:IDA\n")
            g.import_file(genes, kind="mapping")
            r = g.enrich(["CLB2", "CDC5", "NOSUCH"], categories=["Component"])
            terms = {t["term"]: t for t in r["terms"]}
            self.assertEqual((terms["GO:0005694"]["observed"], terms["GO:0005694"]["background"]), (2, 2))
            self.assertAlmostEqual(terms["GO:0005694"]["p_value"], 1 / 6)  # C(2,2) C(2,0) / C(4,2)
            self.assertEqual(r["categories"][0]["universe"], 4)
            self.assertEqual([u["name"] for u in r["unmatched"]], ["NOSUCH"])
            try:
                self.assertEqual(list(r.to_pandas()["term"]), [t["term"] for t in r["terms"]])
            except ImportError:
                pass  # (pandas missing: test_notebook_use checks the error)
            self.assertEqual(g.enrich(["CLB2"], exclude_evidence=["IEA"])["categories"][0]["universe"], 3)
            self.assertEqual(g.enrich(["CLB2"], background_proteins=["CLB2", "CDC28"])["categories"][0]["universe"], 2)
            with self.assertRaises(grappi.Error):
                g.enrich(["CLB2"], max_fdr=2)
            g.import_file(os.path.join(DATA, "4932.protein.physical.links.v12.0.txt.gz"))
            ppi = g.ppi_enrichment(["CDC28", "CLN1", "CLN2", "CLB2", "CLB5"], min_score=0.7)
            self.assertEqual(ppi["nodes"], 5)
            self.assertGreater(ppi["edges"], ppi["expected_edges"])
            self.assertLess(ppi["p_value"], 1e-6)
            # Clusters of the cyclin set's network: CDC28 with its cyclins, by external id; the
            # whole network by Leiden; bad options refused.
            c = g.cluster(["CDC28", "CLN1", "CLN2", "CLB2", "CLB5", "NOSUCH"], min_score=0.7)
            self.assertEqual(c["method"], "mcl")
            self.assertEqual(sum(k["size"] for k in c["clusters"]), 5)
            self.assertIn("4932.YBR160W", c["clusters"][0]["members"])  # CDC28
            self.assertEqual([u["name"] for u in c["unmatched"]], ["NOSUCH"])
            whole = g.cluster(method="leiden", min_score=0.9, terms=0)
            self.assertGreater(whole["modularity"], 0.5)
            self.assertEqual(whole["nodes"], sum(k["size"] for k in whole["clusters"]))
            with self.assertRaises(grappi.Error):
                g.cluster(["CDC28"], inflation=1.0)
            with self.assertRaises(grappi.Error):
                g.cluster(method="kmeans")
            # Community reports: built with extractive summaries, stored, read back.
            with self.assertRaises(grappi.Error):
                g.communities()
            built = g.build_communities(min_score=0.9, runs=2)
            self.assertEqual(built["name"], "default")
            self.assertGreater(len(built["reports"]), 0)
            first = built["reports"][0]
            self.assertEqual(first["id"], "C1")
            self.assertTrue(first["members"][0].startswith("4932."))
            self.assertEqual(first["summary_status"], "extractive")
            self.assertTrue(first["summary"].startswith("Extractive summary (not a language model)"))
            back = g.communities()
            self.assertFalse(back["stale"])
            self.assertEqual(back["reports"], built["reports"])
            with self.assertRaises(TypeError):
                g.build_communities(llm="openai")

    def test_interactions_and_ontologies(self):
        with tempfile.TemporaryDirectory() as d:
            g = grappi.Graph(os.path.join(d, "kb.db"), create=True)
            g.import_file(os.path.join(DATA, "4932.protein.info.v12.0.txt.gz"))
            g.import_file(os.path.join(DATA, "4932.protein.aliases.v12.0.txt.gz"))
            g.import_file(os.path.join(DATA, "intact", "intact_sample.mitab27.tsv.gz"), kind="mitab")
            g.import_file(os.path.join(DATA, "ontology", "psi-mi.obo"))
            ndc80 = g.resolve("uniprotkb:P40460")
            (edge,) = g.edges(ndc80, ndc80)
            self.assertEqual(edge["relation"], "mitab.physical_association")
            self.assertEqual(len(edge["records"]), 4)
            self.assertEqual(edge["pmids"], [11087867])
            types = {r["record"]["interaction_types"][0]["id"] for r in edge["records"]}
            self.assertEqual(types, {"MI:0915"})
            sub = g.ontology("subtree", "MI:0190")
            self.assertEqual(len(sub["descendants"]), 145)
            lca = g.ontology("lca", "MI:0407", other="MI:0403")
            self.assertEqual([t["external_id"] for t in lca["lowest_common_ancestors"]], ["MI:0190"])
            anc = g.ontology("ancestors", "direct interaction", relations=["obo.is_a"])
            self.assertEqual(anc["ancestors"][0]["external_id"], "MI:0915")
            with self.assertRaises(grappi.Error):
                g.ontology("siblings", "MI:0407")
            # Grounding: the offline model, and a Python model that prefers direct interaction.
            text = "TESK2 phosphorylated cofilin specifically at Ser-3."
            r = g.ground(text, "TESK2", "cofilin", strategy="stuff")
            self.assertEqual(r["term"]["id"], "MI:0217")
            self.assertTrue(r["offline"])

            def chat(request):
                task = request["task"]
                if task["kind"] == "ground.summary":
                    return json.dumps({"summary": "TESK2 binds cofilin.", "quotes": [text]})
                if task["kind"] == "ground.pick":
                    return json.dumps({"term": task["terms"][0]["id"], "confidence": 5})
                return json.dumps({"scores": {t["id"]: 5 if t["id"] == "MI:0407" else 1 for t in task["terms"]}})
            r = g.ground(text, "TESK2", "cofilin", strategy="stuff", llm="callback", chat=chat, use_cache=False)
            self.assertEqual((r["term"]["id"], r["confidence"]), ("MI:0407", 5))
            self.assertTrue(r["quotes"][0]["in_text"])
            with self.assertRaises(grappi.Error):
                g.ground(text, "TESK2", "cofilin", root="MI:9999")
            self.assertEqual(g.ground(text, "TESK2", "cofilin", strategy="stuff", ontology="mi")["term"]["id"], "MI:0217")
            # Extraction: the offline rule table, then a Python model whose statement is repaired.
            paper = "We show that Cdc28 phosphorylates Sic1 in vitro. Sic1 binds Cdc28 directly.\n"
            x = g.extract(paper)
            self.assertTrue(x["offline"])
            found = {s["canonical"] for p in x["paragraphs"] for s in p["statements"]}
            self.assertIn("act(p(SGD:CDC28), ma(kin)) increases p(SGD:SIC1, pmod(Ph))", found)

            def bel_model(request):
                if request["task"]["kind"] == "extract.repair":
                    return json.dumps({"statements": [{"index": 1, "bel": "complex(p(SGD:SIC1), p(SGD:CDC28))",
                                                       "evidence": "Sic1 binds Cdc28 directly."}]})
                return json.dumps({"statements": [{"bel": "p(SGD:SIC1) binds_to p(SGD:CDC28)",
                                                   "evidence": "Sic1 binds Cdc28 directly."}]})
            x = g.extract(paper, llm="callback", chat=bel_model, use_cache=False)
            (s,) = x["paragraphs"][0]["statements"]
            self.assertEqual((s["status"], s["origin"], s["canonical"]), ("valid", "repaired", "complex(p(SGD:CDC28), p(SGD:SIC1))"))
            # The budget: a dry run sends nothing; one call at most leaves the repair turn unsent.
            asked = []
            x = g.extract(paper, llm="callback", chat=lambda r: asked.append(r) or bel_model(r), use_cache=False,
                          dry_run=True)
            self.assertTrue(x["dry_run"])
            self.assertEqual(asked, [])
            x = g.extract(paper, llm="callback", chat=lambda r: asked.append(r) or bel_model(r), use_cache=False,
                          max_calls=1)
            self.assertEqual([r["task"]["kind"] for r in asked], ["extract.statements"])
            with self.assertRaises(grappi.Error):
                g.extract(paper, import_statements=True)  # (no bel_path)
            # A curator's review file: the accepted statement imported, a bad decision refused.
            review = os.path.join(d, "review.tsv")
            with open(review, "w", encoding="utf-8") as f:
                f.write("decision\tstatus\tstatement\tevidence\tcitation\tparagraph\tflags\tchecks\n"
                        "accept\tvalid\tcomplex(p(SGD:CDC28), p(SGD:SIC1))\tSic1 binds Cdc28 directly.\tPMID:101\tinput#0\t\t\n")
            imported = g.import_review(review, os.path.join(d, "review.bel"))
            self.assertFalse(imported["already_imported"])
            self.assertTrue(imported["path"].endswith("review.bel"))
            with open(review, "w", encoding="utf-8") as f:
                f.write("decision\tstatus\tstatement\tevidence\tcitation\tparagraph\tflags\tchecks\n"
                        "maybe\tvalid\tp(SGD:SIC1)\te\tPMID:1\td#0\t\t\n")
            with self.assertRaises(grappi.Error):
                g.import_review(review, os.path.join(d, "review2.bel"))
            # A co-occurrence graph of two abstracts, then a hypothesis through it.
            corpus = ("101|t|Cdc28 and Sic1\n101|a|x\n101\t0\t5\tCdc28\tGene\tGENE:CDC28\n101\t10\t14\tSic1\tGene\tGENE:SIC1\n\n"
                      "102|t|Sic1 and Cln2\n102|a|y\n102\t0\t4\tSic1\tGene\tGENE:SIC1\n102\t9\t13\tCln2\tGene\tGENE:CLN2\n")
            lit = grappi.Graph(os.path.join(d, "lit.db"), create=True)
            built = lit.cooc_build(corpus, path=os.path.join(d, "cooc.jsonl"))
            self.assertEqual((built["edges"], built["import"]["edges_created"]), (2, 2))
            h = lit.hypothesize("GENE:CDC28", "GENE:CLN2", corpus)
            self.assertEqual(h["stop_reason"], "converged")
            self.assertEqual([p["names"] for p in h["paths"]], [["Cdc28", "Sic1", "Cln2"]])
            self.assertEqual(h["paths"][0]["with_target"], [0, 1, 1])
            # HGCR's rounds of every shortest path: the same one; none within one edge.
            h = lit.hypothesize("GENE:CDC28", "GENE:CLN2", corpus, shortest_rounds=2)
            self.assertEqual([p["names"] for p in h["paths"]], [["Cdc28", "Sic1", "Cln2"]])
            self.assertEqual(lit.hypothesize("GENE:CDC28", "GENE:CLN2", corpus, shortest_rounds=2,
                                             max_length=1)["stop_reason"], "no_paths")
            lit.close()
            # BEL with the graph's identifiers: a GO term by name or by id, one canonical form.
            g.import_file(os.path.join(DATA, "ontology", "goslim_generic.obo"))
            r = g.bel_validate("p(HGNC:AKT1) -> bp(GO:autophagy)\np(HGNC:AKT1) -> bp(GO:0006914)\n")
            self.assertEqual({x["canonical"] for x in r["results"]}, {"p(HGNC:AKT1) increases bp(GO:0006914 ! autophagy)"})
            nodes, edges = g.export(os.path.join(d, "kb.jsonl"))
            self.assertEqual((nodes, edges), g.counts())
            copy = grappi.Graph(os.path.join(d, "copy.db"), create=True)
            copy.import_file(os.path.join(d, "kb.jsonl"))
            self.assertEqual(copy.counts(), g.counts())
            c = copy.resolve("uniprotkb:P40460")
            (copied,) = copy.edges(c, c)
            self.assertEqual([r["raw"] for r in copied["records"]], [r["raw"] for r in edge["records"]])
            self.assertEqual(copied["pmids"], edge["pmids"])
            copy.close()
            # The same through CX2, read back with its kind named.
            self.assertEqual(g.export(os.path.join(d, "kb.cx2"), format="cx2"), g.counts())
            via_cx2 = grappi.Graph(os.path.join(d, "cx2.db"), create=True)
            via_cx2.import_file(os.path.join(d, "kb.cx2"), kind="cx2")
            self.assertEqual(via_cx2.counts(), g.counts())
            via_cx2.close()
            # A selection: the edges of one relation.
            n_sel, e_sel = g.export(os.path.join(d, "part.tsv"), format="tsv", relations=["mitab.physical_association"])
            self.assertTrue(0 < e_sel < g.counts()[1])
            n_sel, e_sel = g.export(os.path.join(d, "part.jsonl"), nodes=["CDC28", "CLN2"])
            self.assertEqual(n_sel, 2)
            with self.assertRaises(grappi.Error):
                g.export(os.path.join(d, "part.jsonl"), relations=["no.such.relation"])
            g.close()

    def test_retrieval(self):
        self.assertEqual(self.g.embed() + self.g.embed(), 6600)  # the second run embeds nothing
        hits = self.g.search("cyclin-dependent kinase master regulator of mitotic and meiotic cell cycles", k=3)
        self.assertEqual(self.g.name(hits[0][0]), "CDC28")
        w = self.g.window(self.g.resolve("CDC28"), k=(5, 2), max_path_length=2)
        self.assertEqual(w["root"], "CDC28")
        self.assertIsNone(w["nodes"][0]["parent"])
        self.assertTrue(all(p["proteins"][0] == "CDC28" for p in w["paths"]))
        paths = self.g.paths(self.g.resolve("CDC28"), self.g.resolve("CLB2"), max_length=2, k=3)
        self.assertTrue(paths and paths[0]["proteins"][-1] == "CLB2")
        every = self.g.paths(self.g.resolve("CDC28"), self.g.resolve("CLB2"), max_length=2, k=100, all_shortest=True,
                             skip_direct=True)
        self.assertTrue(every and all(len(p["proteins"]) == 3 for p in every))
        self.assertEqual(len({tuple(p["proteins"]) for p in every}), len(every))
        top = self.g.pagerank(seeds=[self.g.resolve("CDC28")], top=3)
        self.assertEqual(top[0][0], self.g.resolve("CDC28"))
        sub = self.g.khop("cyclin-dependent kinase", seeds=2, hops=1, degree_cap=5)
        self.assertEqual(len(sub["seeds"]), 2)
        self.assertTrue(len(sub["nodes"]) > 2)
        r = self.g.retrieve("cyclin-dependent kinase of the cell cycle", event_order="reference")
        self.assertTrue(r["nodes"] and r["objective"] >= 0)
        csv = self.g.retrieve("cyclin-dependent kinase of the cell cycle", csv=True, mode="prize")
        self.assertTrue(csv.startswith("node_id,node_attr\n") and "\nsrc,edge_attr,dst\n" in csv)
        physical = self.g.retrieve("cyclin-dependent kinase of the cell cycle", relations=["string.physical"])
        self.assertTrue(physical["edges"])  # (the filter is read: an unknown relation is refused below)
        with self.assertRaises(grappi.Error):
            self.g.retrieve("kinase", relations=["string.nothing"])
        with self.assertRaises(grappi.Error):
            self.g.retrieve("kinase", pruning="fastest")
        with self.assertRaises(grappi.Error):
            self.g.embed(embedder="nonsense")
        # What a question asks: its entities in any case and spelling, its intent.
        q = self.g.analyze_question("Which kinases interact with Swi6p?")
        self.assertEqual((q["intent"], q["topic"]), ("class", "kinases"))
        self.assertEqual([(e["name"], e["text"], e["offset"]) for e in q["entities"]], [("SWI6", "Swi6p", 28)])
        self.assertEqual(self.g.analyze_question("What connects cdc28 and CLN2?")["intent"], "connects")
        with self.assertRaises(grappi.Error):
            self.g.analyze_question(" ")
        a = self.g.ask("Which proteins interact with cdc28?")
        self.assertIsNotNone(self.g.ask("Which proteins interact with cdc28?", report=True)._repr_html_())
        try:
            self.assertEqual(list(a.to_pandas()["name"]), [e["name"] for e in a["answer_entities"]])
        except ImportError:
            pass  # (pandas missing: test_notebook_use checks the error)
        self.assertEqual(a["intent"]["intent"], "partners")
        self.assertEqual([e["name"] for e in a["question_entities"]], ["CDC28"])
        self.assertTrue(all(e["name"] != "CDC28" for e in a["answer_entities"]))
        # The answer in the question's form: a list of external ids, CDC28's partners best first.
        self.assertEqual(a["answer"]["form"], "list")
        self.assertEqual(a["answer"]["value"][0], a["answer_entities"][0]["id"])
        self.assertTrue(a["offline"] and a["sentences"] and all(s["status"] == "extractive" for s in a["sentences"]))
        yes = self.g.ask("Does CDC28 interact with CLN2?")["answer"]
        self.assertEqual((yes["form"], yes["value"]), ("yes_no", True))
        self.assertTrue(yes["text"].startswith("Yes: CDC28 - CLN2, string.physical"))
        count = self.g.ask("How many proteins interact with CDC28 with high confidence?")["answer"]
        self.assertEqual(count["form"], "count")
        self.assertTrue(isinstance(count["value"], int) and count["value"] > 0)
        # An open question: no rule reads it, and the offline model says so instead of listing other proteins.
        a = self.g.ask("Which cyclin-dependent kinases drive the cell cycle?")
        self.assertEqual(a["answer"]["form"], "unsupported")
        self.assertTrue(a["offline"] and a["answer"]["reason"] and not a["sentences"])
        self.assertEqual(a["context"]["papers"], [])  # (the database holds no papers)
        self.assertEqual(self.g.ask("Which cyclin-dependent kinases drive the cell cycle?", papers=0)["context"]["papers"], [])

        def chat(request):
            return json.dumps({"sentences": [{"text": "Something [PMID:1].", "citations": []}]})
        a = self.g.ask("Which cyclin-dependent kinases drive the cell cycle?", llm="callback", chat=chat, repair=False,
                       use_cache=False)
        self.assertEqual(a["sentences"][0]["status"], "not_in_context")
        summary, rows = self.g.eval_qa('{"question": "Which kinase drives the cell cycle?", "answers": ["CDC28"]}\n', k=5)
        self.assertEqual((summary["questions"], summary["k"], len(rows)), (1, 5, 1))
        self.assertIn("hits_at_1", summary)
        with self.assertRaises(grappi.Error):
            self.g.eval_qa("not questions")
        with self.assertRaises(grappi.Error):
            self.g.ask("kinase", context="xml")

    def test_trained_reader(self):
        # (after test_retrieval, which embeds: the tests run in name order)
        self.g.embed()
        train = ('{"question": "Which proteins bind the cyclin-dependent kinase CDC28?", "answers": ["CKS1", "CLN2", "SIC1"]}\n'
                 '{"question": "Which proteins bind the kinase PHO85?", "answers": ["PHO80", "PCL1", "PCL2"]}\n')
        report = self.g.train_reader(train, scope="base", name="py-reader", epochs=2, hidden=8, heads=2)
        self.assertEqual(report["reader"]["scope"], "base")
        self.assertEqual(len(report["epochs"]), 2)
        scores = self.g.reader_scores("Which proteins bind the kinase CDC28?", reader_name="py-reader")
        self.assertEqual(scores["reader"], "py-reader")
        values = [n["score"] for n in scores["nodes"]]
        self.assertEqual(values, sorted(values, reverse=True))
        a = self.g.ask("Which proteins bind the kinase CDC28?", reader="gat", reader_name="py-reader")
        self.assertEqual(a["reader"], "gat")
        self.assertIn("reader_score", a["answer_entities"][0])
        with self.assertRaises(grappi.Error):
            self.g.reader_scores("CDC28?", reader_name="missing")
        with self.assertRaises(grappi.Error):
            self.g.train_reader(train, hidden=6, heads=4)
        # Cancelled during the training (after the first epoch's report): nothing stored; the
        # progress names the examples and the epochs.
        stages = []
        report = self.g.train_reader(train, scope="base", name="py-cancelled", epochs=5, hidden=8, heads=2,
                                     cancel=lambda: any(s == "epochs" for s, _, _ in stages),
                                     progress=lambda stage, done, total: stages.append((stage, done, total)))
        self.assertTrue(report["cancelled"])
        self.assertEqual(len(report["epochs"]), 1)
        self.assertEqual(stages[0], ("examples", 1, 2))
        self.assertIn(("epochs", 1, 5), stages)
        with self.assertRaises(grappi.Error):
            self.g.reader_scores("Which proteins bind the kinase CDC28?", reader_name="py-cancelled")

    def test_explore(self):
        r = self.g.explore("CDC28", "cell cycle kinase", k=(5, 2), max_length=3, top=5)
        # In Jupyter the result shows its report; outside IPython no report is made unless asked.
        self.assertIsNone(r._repr_html_())
        shown = self.g.explore("CDC28", "cell cycle kinase", k=(5, 2), max_length=3, top=5, report=True)
        self.assertTrue(shown._repr_html_().startswith("<iframe srcdoc=") and "&lt;html" in shown._repr_html_().lower())
        self.assertEqual(dict(shown)["paths"], r["paths"])
        self.assertEqual(r["root"]["name"], "CDC28")
        self.assertEqual(len(r["paths"]), 5)
        self.assertTrue(all(p["proteins"][0] == "CDC28" for p in r["paths"]))
        self.assertTrue(r["paths"][0]["explanation"].startswith("Extractive summary"))
        self.assertEqual(r["parameters"]["diversity"], 0.1)
        ref = self.g.explore("CDC28", "cell cycle kinase", k=(5, 2), max_length=3, top=5, diversity=0, max_paths=50)
        self.assertEqual(ref["parameters"]["diversity"], 0)
        self.assertEqual(ref["usage"]["orderings_folded"], 0)
        self.assertEqual(ref["usage"]["candidate_paths"], 50)
        self.assertTrue(ref["candidates_truncated"])
        calls = []

        def chat(request):
            calls.append(request["task"]["kind"])
            if request["task"]["kind"] == "path":
                return '{"explanation": "py", "relevance_score": 61}', 10, 2
            if request["task"]["source"]["name"] == "CDC28":
                raise RuntimeError("no CDC28 today")
            return "edge from python"

        r = self.g.explore("CDC28", "cell cycle kinase", k=(5, 2), max_length=2, llm="callback", chat=chat,
                           model="py-test", concurrency=4, use_cache=False)
        self.assertEqual(r["usage"]["model_calls"], len(calls))
        self.assertEqual(calls.count("edge"), r["usage"]["distinct_edges"])
        self.assertTrue(all(p["relevance_score"] == 61 for p in r["paths"]))
        errors = [e["error"] for p in r["paths"] for e in p["edges"] if e["status"] == "failed"]
        self.assertEqual(len(errors), sum(1 for p in r["paths"] for e in p["edges"] if e["source"] == "CDC28"))
        self.assertTrue(errors and all("RuntimeError: no CDC28 today" in e for e in errors))
        with self.assertRaises(grappi.Error):
            self.g.explore("CDC28", "q", llm="nonsense")
        # cancel stops the running explore after its second model call; progress reports stages.
        calls.clear()
        stages = []
        r = self.g.explore("CDC28", "cell cycle kinase", k=(5, 2), max_length=2, llm="callback", chat=chat,
                           model="py-test", concurrency=1, use_cache=False, cancel=lambda: len(calls) >= 2,
                           progress=lambda stage, done, total: stages.append(stage))
        self.assertEqual(len(calls), 2)
        self.assertTrue(r["partial"])
        self.assertIn("cancelled by the caller", json.dumps(r))
        self.assertTrue(stages and set(stages) <= {"candidates", "retrieve", "edges", "paths"}, stages)

    def test_model_handle_cancel_and_progress_for_every_agent(self):
        # A Model carries settings the llm arguments do not (temperature, timeouts, concurrency)
        # and is given as llm= to any agent; cancel and progress reach extract, ground, hypothesize
        # and ask as they reach explore.
        asked = []

        def bel_model(request):
            asked.append(request["task"]["kind"])
            return json.dumps({"statements": [{"bel": "complex(p(SGD:SIC1), p(SGD:CDC28))",
                                               "evidence": "Sic1 binds Cdc28 directly."}]})

        with grappi.Model("callback", model="py-handle", temperature=0.3, timeout=5, concurrency=1,
                          chat=bel_model) as m:
            self.assertEqual(m.describe()["identity"], "callback:py-handle")
            paper = "Sic1 binds Cdc28 directly.\n\nCdc28 phosphorylates Sic1 in the G1 phase of the cycle.\n"
            seen = []
            x = self.g.extract(paper, llm=m, use_cache=False, progress=lambda stage, done, total: seen.append((stage, done, total)))
            self.assertEqual(x["model"]["identity"], "callback:py-handle")
            self.assertEqual(len(asked), 2)
            self.assertEqual(seen[-1], ("paragraphs", 2, 2))
            # Cancelled before its first request: every paragraph skipped, nothing asked.
            asked.clear()
            x = self.g.extract(paper, llm=m, use_cache=False, cancel=lambda: True)
            self.assertEqual(asked, [])
            self.assertTrue(all(p["status"] == "skipped" and "cancelled" in p["error"] for p in x["paragraphs"]))
            with tempfile.TemporaryDirectory() as d:
                small = grappi.Graph(os.path.join(d, "s.db"), create=True)
                small.import_file(os.path.join(DATA, "4932.protein.info.v12.0.txt.gz"), kind="info")
                small.import_file(os.path.join(DATA, "4932.protein.physical.links.v12.0.txt.gz"), kind="physical")
                small.embed("hashing")
                stages = []
                a = small.ask("Which proteins interact with cdc28?", llm=m, cancel=lambda: True, use_cache=False,
                              progress=lambda stage, done, total: stages.append(stage))
                self.assertEqual((a["status"], asked, stages), ("skipped", [], []))  # (stopped before the retrieval)
                with grappi.Model() as offline:
                    a = small.ask("Which proteins interact with cdc28?", llm=offline,
                                  progress=lambda stage, done, total: stages.append(stage))
                    self.assertTrue(a["answer_entities"])
                    self.assertEqual(stages, ["retrieve", "context", "answer"])
                # hypothesize: cancelled before its explanation round asks the model.
                corpus = ("101|t|Cdc28 and Sic1\n101|a|x\n101\t0\t5\tCdc28\tGene\tGENE:CDC28\n101\t10\t14\tSic1\tGene\tGENE:SIC1\n\n"
                          "102|t|Sic1 and Cln2\n102|a|y\n102\t0\t4\tSic1\tGene\tGENE:SIC1\n102\t9\t13\tCln2\tGene\tGENE:CLN2\n")
                small.cooc_build(corpus, path=os.path.join(d, "cooc.jsonl"))
                stages.clear()
                h = small.hypothesize("GENE:CDC28", "GENE:CLN2", corpus, llm=m, cancel=lambda: True, use_cache=False,
                                      progress=lambda stage, done, total: stages.append((stage, done, total)))
                self.assertEqual(asked, [])
                self.assertEqual(stages, [("paths", 1, 1)])  # (cancelled before the first round)
                self.assertEqual([p["names"] for p in h["paths"]], [["Cdc28", "Sic1", "Cln2"]])
                # train_ranker: progress over the pairs labelled; cancelled, nothing is stored.
                def doc(pmid, a, b):
                    return ("%d|t|%s and %s\n%d|a|x\n%d\t0\t%d\t%s\tGene\tGENE:%s\n%d\t%d\t%d\t%s\tGene\tGENE:%s\n\n"
                            % (pmid, a, b, pmid, pmid, len(a), a, a.upper(), pmid, len(a) + 5, len(a) + 5 + len(b), b,
                               b.upper()))
                chain = doc(201, "Abc1", "Bcd1") + doc(202, "Bcd1", "Cde1") + doc(203, "Cde1", "Def1") + \
                    doc(204, "Abc1", "Cde1") + doc(205, "Bcd1", "Def1")
                stages.clear()
                with self.assertRaises(grappi.Error):  # (its one pair has no positive path to learn from)
                    small.train_ranker(chain, name="chain", progress=lambda stage, done, total: stages.append((stage, done, total)))
                self.assertEqual(stages, [("pairs", 1, 1)])
                r = small.train_ranker(chain, name="chain", cancel=lambda: True)
                self.assertEqual(r, {"name": "chain", "cancelled": True})
                small.close()
        with self.assertRaises(grappi.Error):
            m.describe()  # (closed)
        with self.assertRaises(grappi.Error):
            grappi.Model("openai")  # (no model name)
        with grappi.Model("openai", model="m", temperature=0.3) as remote:  # (no request until a run uses it)
            self.assertEqual((remote.describe()["temperature"], remote.describe()["model"]), (0.3, "m"))

    def test_eval_hypotheses(self):
        # Ten dated abstracts (the command-line test's): KRAS and MYC first named together in
        # 2011 with BRAF, so the path through BRAF is the positive one.
        ids = {"KRAS": "3845", "BRAF": "673", "MYC": "4609", "EGFR": "1956", "RAF1": "5894", "MAPK1": "5594"}
        rows = [(1, 2001, "KRAS BRAF"), (2, 2002, "BRAF MYC"), (3, 2003, "KRAS EGFR"), (4, 2004, "EGFR MYC"),
                (5, 2005, "KRAS RAF1"), (6, 2006, "RAF1 MAPK1"), (7, 2007, "MAPK1 MYC"), (8, 2008, "BRAF EGFR"),
                (9, 2011, "KRAS BRAF MYC"), (10, 2012, "EGFR RAF1")]
        corpus = "".join(json.dumps({"pmid": pmid, "year": year, "title": "", "text": " and ".join(names.split()) + " interact.",
                                     "concepts": [{"id": ids[n], "type": "Gene", "text": n} for n in names.split()]}) + "\n"
                         for pmid, year, names in rows)
        summary, pairs = grappi.eval_hypotheses(corpus, as_of=2010, explain=0, bootstrap=200)
        self.assertEqual((summary["split"]["kind"], summary["paths"]["positive"], len(pairs)), ("year", 1, 2))
        km = [p for p in pairs if {p["source"]["name"], p["target"]["name"]} == {"KRAS", "MYC"}][0]
        self.assertEqual([p["names"] for p in km["top_paths"] if p["positive"]], [["KRAS", "BRAF", "MYC"]])
        d = summary["differences"]
        self.assertEqual((d["resamples"], d["unit"]), (200, "pair"))
        for name, b in summary["baselines"].items():
            m = d["versus"][name]["auc_micro"]
            self.assertAlmostEqual(m["difference"], summary["auc_micro"] - b["auc_micro"], places=12)
            self.assertTrue(m["low"] <= m["difference"] + 1e-12 <= m["high"] + 2e-12, (name, m))
        # The corpus's own split: the first eight build the graph, the last two label the pairs.
        lines = corpus.splitlines(keepends=True)
        given, given_pairs = grappi.eval_hypotheses("".join(lines[:8]), after="".join(lines[8:]), explain=0, bootstrap=0)
        self.assertEqual((given["split"]["kind"], given["split"]["before"], given["paths"]["positive"], len(given_pairs)),
                         ("given", 8, 1, 2))
        # Several splits: each split's summary and the means, no pairs.
        several, none = grappi.eval_hypotheses(corpus, splits=[0.6, 0.8], explain=0)
        self.assertEqual(([r["split_share"] for r in several["splits"]], none), ([0.6, 0.8], []))
        self.assertIn("grappi", several["means"])
        with self.assertRaises(grappi.Error):  # (a ranker lives in a graph)
            grappi.eval_hypotheses(corpus, as_of=2010, ranker="paths")
        with self.assertRaises(grappi.Error):
            grappi.eval_hypotheses(corpus, split=1.5)
        with self.assertRaises(grappi.Error):  # (nothing before the split)
            grappi.eval_hypotheses(corpus, as_of=1990)

    def test_html_report_and_completion(self):
        path = os.path.join(self.dir.name, "explore.html")
        r = self.g.explore("CDC28", "cell cycle kinase", k=(5, 2), max_length=3, top=5, html=path)
        self.assertEqual(len(r["paths"]), 5)
        with open(path, encoding="utf-8") as f:
            page = f.read()
        self.assertTrue(page.startswith("<!DOCTYPE html>"))
        view = json.loads(re.search(r'<script type="application/json" id="grappi-view">(.*?)</script>', page, re.S).group(1))
        self.assertEqual([i["rank"] for i in view["items"]], [1, 2, 3, 4, 5])
        self.assertEqual(view["items"][0]["text"], r["paths"][0]["explanation"])
        page = grappi.report_html({"nodes": [], "edges": [], "items": [], "title": "<empty>"})
        self.assertIn("&lt;empty&gt;", page)
        with self.assertRaises(grappi.Error):
            grappi.report_html({"nodes": []})
        c = self.g.complete("cdc28", limit=3)
        # (the name as typed links to CDC28: first, as "linked"; then names beginning with it)
        self.assertTrue(0 < len(c) <= 3 and c[0]["name"] == "CDC28" and c[0]["matched_by"] == "linked")

    def test_closed_graph(self):
        g = grappi.Graph(os.path.join(self.dir.name, "other.db"), create=True)
        g.close()
        g.close()  # closing twice is fine
        with self.assertRaises(grappi.Error):
            g.counts()


def c_struct_fields(header):
    """{struct name: [field names in order]} of every typedef struct in grappi.h."""
    with open(header, encoding="utf-8") as f:
        text = re.sub(r"/\*.*?\*/", "", f.read(), flags=re.S)
    out = {}
    for name, body in re.findall(r"typedef struct (\w+) \{(.*?)\} \1;", text, flags=re.S):
        fields = []
        for decl in filter(None, (d.strip() for d in body.split(";"))):
            parts = decl.split(",")  # "double alpha, beta" declares two fields
            fields += [re.findall(r"\w+", p)[-1] for p in parts]
        out[name] = fields
    return out


@unittest.skipUnless(os.environ.get("GRAPPI_ABI_LAYOUT") and os.environ.get("GRAPPI_HEADER"),
                     "GRAPPI_ABI_LAYOUT (the abi_layout program) and GRAPPI_HEADER (grappi.h) not set")
class LayoutTest(unittest.TestCase):
    """The ctypes mirrors of grappi.h's structs have the C compiler's sizes and offsets."""

    @classmethod
    def setUpClass(cls):
        cls.layout = json.loads(subprocess.check_output([os.environ["GRAPPI_ABI_LAYOUT"]]))
        cls.header = c_struct_fields(os.environ["GRAPPI_HEADER"])

    def test_the_layout_program_covers_the_header(self):
        self.assertEqual(sorted(self.layout), sorted(self.header))
        for name, fields in self.header.items():
            self.assertEqual(list(self.layout[name]["fields"]), fields, name)

    def test_mirrors_are_at_the_header_versions(self):
        # A mirror behind its struct's _VERSION would make the library ignore the later fields.
        with open(os.environ["GRAPPI_HEADER"]) as f:
            text = f.read()
        macros = {m.group(1).lower(): int(m.group(2))
                  for m in re.finditer(r"#define GRAPPI_(\w+)_VERSION (\d+)", text)}
        # (a struct without a version field, grappi_budget_options, is embedded in versioned ones)
        versioned = [n for n, m in grappi._MIRRORS.items() if "version" in dict(m._fields_)]
        self.assertEqual(sorted(grappi._VERSIONS), sorted(versioned))
        self.assertIn("grappi_budget_options", grappi._MIRRORS)
        for name, version in grappi._VERSIONS.items():
            self.assertEqual(version, macros[name[len("grappi_"):]], name)

    def test_mirrors_match_the_c_layout(self):
        for name, cls in grappi._MIRRORS.items():
            c = self.layout[name]
            self.assertEqual([f[0] for f in cls._fields_], list(c["fields"]), name)
            self.assertEqual(ctypes.sizeof(cls), c["size"], name)
            for field, (offset, size) in c["fields"].items():
                self.assertEqual(getattr(cls, field).offset, offset, "%s.%s" % (name, field))
                self.assertEqual(getattr(cls, field).size, size, "%s.%s" % (name, field))


class PcstTest(unittest.TestCase):
    def test_solver(self):
        solver = grappi.PcstSolver()
        r = solver.solve([0, 5, 6], [(0, 1), (1, 2)], [3, 4])
        self.assertEqual((r["nodes"], r["edges"]), ([1, 2], [1]))
        self.assertAlmostEqual(r["objective"], 4.0)
        self.assertAlmostEqual(r["net_worth"], 7.0)
        # The same solver again, rooted: pruning none keeps the whole path, gw the root alone.
        path = ([10, 0, 1, 10], [(0, 1), (1, 2), (2, 3)], [10, 4, 3])
        self.assertEqual(solver.solve(*path, root=0, pruning="none")["edges"], [1, 2])
        r = solver.solve(*path, root=0, pruning="gw", improve=True, event_order="reference")
        self.assertEqual((r["nodes"], r["edges"]), ([0], []))
        with self.assertRaises(grappi.Error):
            solver.solve(*path, event_order="fastest")
        solver.close()
        with self.assertRaises(grappi.Error):
            solver.solve(*path)

    def test_golden(self):
        nodes, edges, obj = grappi.pcst_solve([0, 5, 6], [(0, 1), (1, 2)], [3, 4], pruning="GW")
        self.assertEqual((nodes, edges), ([1, 2], [1]))
        self.assertAlmostEqual(obj, 4.0)
        self.assertEqual(grappi.pcst_solve([0, 5, 6], [(0, 1), (1, 2)], [3, 4], pruning="strong",
                                           improve=True, event_order="fast")[:2], ([1, 2], [1]))
        with self.assertRaises(grappi.Error) as e:
            grappi.pcst_solve([0, 5, 6], [(0, 1), (1, 2)], [3, -4])
        self.assertEqual(e.exception.status, -1)


if __name__ == "__main__":
    unittest.main()
