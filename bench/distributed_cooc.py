#!/usr/bin/env python3
"""The distributed co-occurrence build on a generated PubTator-like corpus (BENCHMARKS.md
"Distributed builds"): the single-machine command, then grappi.distributed.cooc_build on a
LocalCluster of 1 and 2 worker processes; wall time, the map (workers) and merge (client)
stages, each worker's peak memory, the per-partition cost, and an extrapolation to N workers.

    /usr/bin/python3 bench/distributed_cooc.py --build build --abstracts 1000000 --per-file 50000 --work /tmp/dc

Needs the wheel's package importable (PYTHONPATH=bindings/python GRAPPI_LIB=build/libgrappi_c.so,
or the installed wheel) and Debian's python3-dask and python3-distributed. Prints a JSON report.
"""
import argparse
import json
import math
import os
import resource
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_pubtator  # noqa: E402


def timed(command):
    """Runs a command under /usr/bin/time -v: (seconds, peak RSS in MiB)."""
    start = time.monotonic()
    out = subprocess.run(["/usr/bin/time", "-v"] + command, check=True, capture_output=True, text=True)
    seconds = time.monotonic() - start
    rss = next(int(line.split(":")[1]) for line in out.stderr.splitlines() if "Maximum resident set size" in line)
    return seconds, rss / 1024.0


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--build", required=True)
    p.add_argument("--abstracts", type=int, default=1000000)
    p.add_argument("--per-file", type=int, default=50000)
    p.add_argument("--work", required=True)
    p.add_argument("--data", default=os.path.join(HERE, "..", "data"))
    a = p.parse_args()
    import grappi
    import grappi.distributed as gd
    from dask.distributed import Client, LocalCluster

    cli = os.path.abspath(os.path.join(a.build, "grappi"))
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    t0 = time.monotonic()
    files = gen_pubtator.write_corpus(os.path.join(a.work, "corpus"), a.abstracts, a.per_file, seed=1)
    report = {"abstracts": a.abstracts, "files": len(files), "per_file": a.per_file,
              "corpus_bytes": sum(os.path.getsize(f) for f in files), "generate_seconds": time.monotonic() - t0,
              "machine": {"cores": os.cpu_count(), "python": sys.version.split()[0], "grappi": grappi.version()}}
    base = os.path.join(a.work, "base.db")
    subprocess.run([cli, "import", "--db", base, os.path.join(a.data, "9606.protein.info.v12.0.txt.gz")], check=True,
                   capture_output=True)

    def fresh(name):
        path = os.path.join(a.work, name)
        shutil.copy(base, path)
        return path

    # The single-machine command (papers not stored: the same work as the workers' and the merge).
    single = fresh("single.db")
    command = [cli, "cooc", "build", "--db", single, "--no-papers", "--json", os.path.join(a.work, "single.json"), "--quiet"]
    for f in files:
        command += ["--corpus", f]
    seconds, rss = timed(command)
    with open(os.path.join(a.work, "single.json")) as f:
        one = json.load(f)
    report["single"] = {"seconds": seconds, "peak_rss_mib": rss, "edges": one["edges"], "concepts": one["concepts"],
                        "documents": one["documents"],
                        # (the database's growth per edge: the graph's nodes, edges, evidence and documents)
                        "database_bytes_per_edge": (os.path.getsize(single) - os.path.getsize(base)) / one["edges"]}
    # Storing the papers (one SQLite writer: the part that does not spread), on one file.
    papers = fresh("papers.db")
    seconds, rss = timed([cli, "import", "--db", papers, "--corpus", files[0]])
    report["papers_one_file"] = {"abstracts": min(a.per_file, a.abstracts), "seconds": seconds, "peak_rss_mib": rss}

    for workers in (1, 2):
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                          local_directory=os.path.join(a.work, "dask")) as cluster, Client(cluster) as client:
            db = fresh("dist%d.db" % workers)
            start = time.monotonic()
            r = gd.cooc_build(client, files, db, papers=False)
            wall = time.monotonic() - start
            peaks = {}
            for part in r["partitions"]:
                peaks[part["pid"]] = max(peaks.get(part["pid"], 0), part["peak_rss_mib"] or 0)
            per_part = [part["seconds"] for part in r["partitions"]]
            # (the same graph: its identity, the SHA-256 of what it holds, names the dataset)
            same = r["edges"] == one["edges"] and r["top_edges"] == one["top_edges"] and \
                r["import"]["path"] == one["import"]["path"]
            report["workers_%d" % workers] = {
                "wall_seconds": wall, "map_seconds": r["seconds"]["map"], "merge_seconds": r["seconds"]["merge"],
                "partition_seconds_mean": sum(per_part) / len(per_part), "partition_seconds_max": max(per_part),
                "worker_peak_rss_mib": sorted(peaks.values()), "edges": r["edges"], "same_as_single": bool(same)}
    # Extrapolation: the map stage as ceil(P / N) rounds of the mean partition cost measured with
    # one worker (workers as fast as this machine's cores, the shared file system not the limit),
    # the merge measured (it runs on the client alone and grows with the pairs, not with N).
    w1 = report["workers_1"]
    table = []
    for n in (1, 2, 4, 8, 16, 32, 64):
        for abstracts in (a.abstracts, 36000000):
            parts = math.ceil(abstracts / a.per_file)
            scale = abstracts / a.abstracts
            map_s = math.ceil(parts / n) * w1["partition_seconds_mean"]
            merge_s = w1["merge_seconds"] * scale
            table.append({"workers": n, "abstracts": abstracts, "partitions": parts, "map_seconds": map_s,
                          "merge_seconds": merge_s, "total_seconds": map_s + merge_s})
    report["extrapolation"] = table
    report["client_peak_rss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
