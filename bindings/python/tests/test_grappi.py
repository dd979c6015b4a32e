"""Tests of the ctypes bindings against the freshly built library (GRAPPI_LIB, GRAPPI_DATA)."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import grappi  # noqa: E402

DATA = os.environ.get("GRAPPI_DATA", os.path.join(os.path.dirname(__file__), "..", "..", "..", "data"))


class GraphTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        cls.g = grappi.Graph(os.path.join(cls.dir.name, "y.db"))
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
        nb = list(self.g.neighbors(cdc28))
        self.assertEqual(len(nb), 416)
        strong = list(self.g.neighbors(cdc28, min_score=0.9))
        self.assertTrue(0 < len(strong) < 416 and all(s >= 0.9 for _, s in strong))

    def test_errors(self):
        with self.assertRaises(grappi.Error) as e:
            self.g.resolve("NO_SUCH_PROTEIN_XYZ")
        self.assertEqual(e.exception.status, -2)
        self.assertIn("NO_SUCH_PROTEIN_XYZ", str(e.exception))
        with self.assertRaises(grappi.Error):
            self.g.import_file("/nonexistent/file.txt")

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
        top = self.g.pagerank(seeds=[self.g.resolve("CDC28")], top=3)
        self.assertEqual(top[0][0], self.g.resolve("CDC28"))

    def test_explore(self):
        r = self.g.explore("CDC28", "cell cycle kinase", k=(5, 2), max_length=3, top=5)
        self.assertEqual(r["root"]["name"], "CDC28")
        self.assertEqual(len(r["paths"]), 5)
        self.assertTrue(all(p["proteins"][0] == "CDC28" for p in r["paths"]))
        self.assertTrue(r["paths"][0]["explanation"].startswith("Extractive summary"))
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

    def test_closed_graph(self):
        g = grappi.Graph(os.path.join(self.dir.name, "other.db"))
        g.close()
        g.close()  # closing twice is fine
        with self.assertRaises(grappi.Error):
            g.counts()


class PcstTest(unittest.TestCase):
    def test_golden(self):
        nodes, edges, obj = grappi.pcst_solve([0, 5, 6], [(0, 1), (1, 2)], [3, 4], pruning="GW")
        self.assertEqual((nodes, edges), ([1, 2], [1]))
        self.assertAlmostEqual(obj, 4.0)
        self.assertEqual(grappi.pcst_solve([0, 5, 6], [(0, 1), (1, 2)], [3, 4], pruning="strong",
                                           improve=True, reference_order=True)[:2], ([1, 2], [1]))
        with self.assertRaises(grappi.Error) as e:
            grappi.pcst_solve([0, 5, 6], [(0, 1), (1, 2)], [3, -4])
        self.assertEqual(e.exception.status, -1)


if __name__ == "__main__":
    unittest.main()
