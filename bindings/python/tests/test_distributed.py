"""grappi.distributed on a LocalCluster of two worker processes: the distributed co-occurrence
build gives the dataset of the single-machine build (the same file, byte for byte: it imports
as "already imported"), the same papers and edges; a partition that fails on every try is named
and nothing is imported; a dask.bag of files is taken as partitions; the wheel reaches workers.
Run by tests/check_wheel.sh against the installed wheel (no GRAPPI_LIB), with Debian's
python3-dask and python3-distributed."""
import glob
import gzip
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

if os.environ.get("GRAPPI_DISTRIBUTED_TESTS"):  # (else the ctypes tests' discovery passes over this file)
    import grappi
    import grappi.distributed as gd

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "bench"))
import gen_pubtator  # noqa: E402

DATA = os.environ.get("GRAPPI_DATA", os.path.join(HERE, "..", "..", "..", "data"))

try:
    from dask.distributed import Client, LocalCluster
except ImportError:  # pragma: no cover - the CI machine has python3-distributed
    Client = None


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


@unittest.skipUnless(os.environ.get("GRAPPI_DISTRIBUTED_TESTS"), "run by tests/check_wheel.sh (GRAPPI_DISTRIBUTED_TESTS=1)")
@unittest.skipIf(Client is None, "dask.distributed is not installed (Debian: python3-distributed)")
class DistributedBuilds(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="grappi_distributed_")
        cls.cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                   local_directory=os.path.join(cls.tmp, "dask"))
        cls.client = Client(cls.cluster)
        # Six files of 150 abstracts (one gzipped), and a database of human proteins.
        cls.files = gen_pubtator.write_corpus(os.path.join(cls.tmp, "corpus"), 900, 150, concepts=2000, seed=7)
        with open(cls.files[-1], "rb") as f, gzip.open(cls.files[-1] + ".gz", "wb") as g:
            g.write(f.read())
        os.remove(cls.files[-1])
        cls.files[-1] += ".gz"
        cls.base = os.path.join(cls.tmp, "base.db")
        with grappi.Graph(cls.base, create=True) as g:
            g.import_file(os.path.join(DATA, "9606.protein.info.v12.0.txt.gz"), kind="info")

    @classmethod
    def tearDownClass(cls):
        cls.client.close()
        cls.cluster.close()
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def fresh_db(self, name):
        path = os.path.join(self.tmp, name)
        shutil.copy(self.base, path)
        return path

    def test_cooc_build_equals_the_single_machine_build(self):
        single = self.fresh_db("single.db")
        with grappi.Graph(single) as g:
            content = ""
            for f in self.files:
                opener = gzip.open if f.endswith(".gz") else open
                with opener(f, "rt") as fh:
                    content += fh.read()
            one = g.cooc_build(content, path=single + ".cooc.jsonl")
        seen = []
        dist = self.fresh_db("dist.db")
        report = gd.cooc_build(self.client, os.path.join(self.tmp, "corpus", "corpus-*"), dist, partitions=3,
                               path=dist + ".cooc.jsonl",
                               progress=lambda done, total, part, r: seen.append((done, total, part)))
        self.assertEqual(len(report["partitions"]), 3)
        self.assertEqual(sorted(p for _, _, p in seen), [0, 1, 2])
        self.assertEqual(seen[-1][:2], (3, 3))
        for key in ("documents", "units", "concepts", "edges", "mentions", "unidentified_annotations",
                    "composite_annotations", "top_edges"):
            self.assertEqual(report[key], one[key], key)
        self.assertEqual(report["documents"], 900)
        self.assertGreater(report["edges"], 1000)
        # The dataset's file is the single build's, byte for byte, and so is what the database holds.
        self.assertEqual(sha256(report["import"]["path"]), sha256(single + ".cooc.jsonl"))
        for db in (single, dist):
            with grappi.Graph(db) as g:
                g.export(db + ".export.jsonl")
        self.assertEqual(sha256(single + ".export.jsonl"), sha256(dist + ".export.jsonl"))
        # Every partition says who counted it and from which files.
        provenance = [p["provenance"] for p in report["partials"]]
        self.assertEqual([p["partition"] for p in provenance], [0, 1, 2])
        self.assertEqual(sum((p["files"] for p in provenance), []), self.files)
        self.assertTrue(all(p["grappi"] == grappi.version() for p in provenance))
        self.assertTrue(all(r["host"] and r["seconds"] >= 0 for r in report["partitions"]))
        # The papers were stored too, as the command stores them: searchable.
        self.assertEqual(sum(p["lines"] for p in report["papers"]), 900)
        with grappi.Graph(dist) as g:
            self.assertEqual(len(g.search_papers("gene*", limit=5)), 5)
        # The partial files are gone; a second run imports nothing new.
        self.assertEqual(glob.glob(dist + ".parts/*.part"), [])
        again = gd.cooc_build(self.client, self.files, dist, files_per_partition=2, papers=False)
        self.assertTrue(again["import"]["already_imported"])

    @unittest.skipUnless(os.environ.get("GRAPPI_CLI"), "GRAPPI_CLI names no grappi program")
    def test_extract_equals_the_single_machine_command(self):
        lit = os.path.join(HERE, "..", "..", "..", "tests", "data", "literature")
        files = [os.path.abspath(os.path.join(lit, f)) for f in
                 ("BioRED.Test.first3.BioC.xml", "PTC.PMC4272812.BioC.xml", "BioRED.Test.first3.PubTator")]
        single, dist = self.fresh_db("extract-single.db"), self.fresh_db("extract-dist.db")
        out = os.path.join(self.tmp, "extract-single.json")
        command = [os.environ["GRAPPI_CLI"], "extract", "--db", single, "--import", "--include-flagged", "--json", out,
                   "--quiet"]
        for f in files:
            command += ["--corpus", f]
        subprocess.run(command, check=True)
        with open(out) as f:
            one = json.load(f)
        report = gd.extract(self.client, files, dist, include_flagged=True)
        self.assertEqual(len(report["partitions"]), 3)
        for key in ("documents", "skipped_passages", "counts", "paragraphs", "model", "offline"):
            self.assertEqual(report[key], one[key], key)
        self.assertGreater(report["counts"]["statements"], 10)
        self.assertGreater(report["counts"]["duplicates"], 0)
        # The same BEL dataset, byte for byte, and the same papers.
        single_bel = glob.glob(single + ".extract-*.bel")
        self.assertEqual(len(single_bel), 1)
        self.assertEqual(os.path.basename(single_bel[0]).replace("extract-single", "extract-dist"),
                         os.path.basename(report["import"]["path"]))
        self.assertEqual(sha256(single_bel[0]), sha256(report["import"]["path"]))
        self.assertEqual([p["lines"] for p in report["papers"]], [3, 1, 3])
        self.assertEqual([p["partition"] for p in report["parts"]], [0, 1, 2])

    def test_embed_equals_the_single_machine_embed(self):
        single, dist = self.fresh_db("embed-single.db"), self.fresh_db("embed-dist.db")
        with grappi.Graph(single) as g:
            self.assertEqual(g.embed("lsa"), 19699)
        report = gd.embed(self.client, dist, "lsa", partitions=3)
        self.assertEqual((report["embedded"], report["from_parts"], report["embedded_here"]), (19699, 19699, 0))
        self.assertEqual([p["embedded"] for p in report["partitions"]], [6567, 6566, 6566])
        self.assertEqual([p["part"] for p in report["provenance"]], [0, 1, 2])
        # The same vectors: the same neighbor ranking file, byte for byte, and the same answers.
        self.assertEqual(sha256(dist + ".knn"), sha256(single + ".knn"))
        with grappi.Graph(single) as a, grappi.Graph(dist) as b:
            for q in ("tumor suppressor", "cyclin-dependent kinase", "epidermal growth factor receptor"):
                self.assertEqual(a.search(q, 10), b.search(q, 10))
        self.assertEqual(os.listdir(dist + ".parts"), [])
        # Nothing pending: nothing embedded again.
        again = gd.embed(self.client, dist, "lsa", partitions=2)
        self.assertEqual((again["embedded"], again["unchanged"]), (0, 19699))
        self.assertEqual(gd.main(["embed", "--scheduler", self.cluster.scheduler_address, "--db", dist, "--embedder",
                                  "hashing", "--partitions", "2"]), 0)

    def test_a_partition_failing_on_every_try_is_named_and_nothing_is_imported(self):
        db = self.fresh_db("failing.db")
        bad = os.path.join(self.tmp, "broken.pubtator")
        with open(bad, "w") as f:
            f.write("30000001|t|A title\n30000001\t0\t99\tnothing\tGene\t1\n")  # (a mention past the text)
        with grappi.Graph(db) as g:
            before = g.counts()
        with self.assertRaises(gd.PartitionFailed) as caught:
            gd.cooc_build(self.client, [self.files[0], bad], db, retries=1)  # (papers too: none stored)
        failures = caught.exception.failures
        self.assertEqual([f["partition"] for f in failures], [1])
        self.assertEqual(failures[0]["files"], [bad])
        self.assertIn("broken.pubtator", str(caught.exception))
        self.assertIn("lies outside", str(caught.exception))
        self.assertEqual(glob.glob(db + ".parts/*.part"), [])  # (the finished partition's file removed)
        with grappi.Graph(db) as g:
            self.assertEqual(g.counts(), before)
            self.assertEqual(g.search_papers("gene*", limit=5), [])
        with self.assertRaises(grappi.Error):
            gd.cooc_build(self.client, os.path.join(self.tmp, "no-such-*.pubtator"), db)

    def test_a_bag_of_files_gives_the_partitions(self):
        import dask.bag as db

        bag = db.from_sequence(self.files[:4], npartitions=2)
        parts = gd._partitions_of(self.client, bag, None, None)
        self.assertEqual(parts, [self.files[:2], self.files[2:4]])
        self.assertEqual(gd.partition_files(self.files, partitions=4), [self.files[i:i + 2] for i in range(0, 6, 2)])

    def test_the_command_line(self):
        db = self.fresh_db("cli.db")
        out = os.path.join(self.tmp, "cli.json")
        status = gd.main(["cooc-build", "--scheduler", self.cluster.scheduler_address, "--corpus",
                          os.path.join(self.tmp, "corpus", "corpus-0000[01]*"), "--db", db, "--types", "Gene,Disease",
                          "--no-papers", "--json", out])
        self.assertEqual(status, 0)
        with open(out) as f:
            report = json.load(f)
        self.assertEqual(report["documents"], 300)
        self.assertEqual(report["types"], ["Gene", "Disease"])
        self.assertEqual(report["papers"], [])
        self.assertFalse(report["import"]["already_imported"])
        self.assertEqual(gd.main(["cooc-build", "--scheduler", self.cluster.scheduler_address, "--corpus",
                                  os.path.join(self.tmp, "none-*"), "--db", db]), 1)

    def test_python_m_grappi_distributed(self):
        # The documented command line itself, in a process of its own (run as __main__).
        import subprocess

        db = self.fresh_db("python-m.db")
        out = os.path.join(self.tmp, "python-m.json")
        p = subprocess.run([sys.executable, "-m", "grappi.distributed", "cooc-build", "--scheduler",
                            self.cluster.scheduler_address, "--corpus", os.path.join(self.tmp, "corpus", "corpus-00000*"),
                            "--db", db, "--no-papers", "--json", out], capture_output=True, text=True, timeout=600)
        self.assertEqual(p.returncode, 0, p.stderr[-2000:])
        with open(out) as f:
            self.assertEqual(json.load(f)["documents"], 150)

    @unittest.skipUnless(os.environ.get("GRAPPI_WHEEL"), "GRAPPI_WHEEL names no wheel")
    def test_the_wheel_reaches_the_workers(self):
        versions = gd.install_wheel(self.client, os.environ["GRAPPI_WHEEL"])
        self.assertEqual(len(versions), 2)
        for v in versions.values():
            self.assertEqual(v["version"], grappi.version())
            self.assertIn("grappi-wheel-", v["module"])


if __name__ == "__main__":
    unittest.main()
