"""grappi.distributed: literature-scale builds on a Dask cluster (docs/distributed.md).

The C++ engines stay the workers: each Dask task runs grappi's own build over one partition of
a corpus (a list of document files) through the C API and writes its result to a file with its
provenance; the client merges the files, in partition order, and imports the result into one
database, the same dataset the single-machine command makes from the same files.

    from dask.distributed import Client
    from grappi.distributed import cooc_build
    with Client("tcp://scheduler:8786") as client:
        report = cooc_build(client, "pubtator/*.gz", "kb.db", work_dir="/shared/grappi-parts")

The database and the work directory must be reachable under the same paths from the client and
every worker (a shared file system), as Dask's own file-based collections assume. The command
line: python3 -m grappi.distributed cooc-build --scheduler ADDRESS --corpus 'dir/*.gz' --db kb.db
"""
import glob
import hashlib
import json
import os
import socket
import sys
import threading
import time

import grappi

__all__ = ["PartitionFailed", "expand_corpus", "partition_files", "cooc_build", "extract", "embed", "install_wheel"]


class PartitionFailed(grappi.Error):
    """Partitions failed on every try: .failures lists them (index, files, error); nothing was merged."""

    def __init__(self, failures, finished=()):
        lines = ["partition %d (%s): %s" % (f["partition"], ", ".join(f["files"]), f["error"]) for f in failures]
        super().__init__(-1, "%d partition(s) failed after their retries; nothing was imported:\n  %s"
                         % (len(failures), "\n  ".join(lines)))
        self.failures = failures
        self.finished = list(finished)  # (the other partitions' results)


def expand_corpus(corpus):
    """The document files of a corpus: a path, a glob ('dir/*.gz'), or a list of them, each glob
    sorted; a pattern that matches nothing is an error (never an empty build)."""
    items = [corpus] if isinstance(corpus, (str, os.PathLike)) else list(corpus)
    files = []
    for item in items:
        item = os.fspath(item)
        if glob.has_magic(item):
            found = sorted(glob.glob(item))
            if not found:
                raise grappi.Error(-1, "the corpus pattern %r matches no file" % item)
            files.extend(found)
        else:
            if not os.path.isfile(item):
                raise grappi.Error(-1, "cannot read the corpus file %r" % item)
            files.append(item)
    if not files:
        raise grappi.Error(-1, "no corpus file given")
    return [os.path.abspath(f) for f in files]


def partition_files(files, partitions=None, files_per_partition=None):
    """Consecutive runs of files, one per partition, in order: `files_per_partition` each, or at
    most `partitions` runs of equal length but the last (default: one file per partition)."""
    files = list(files)
    if files_per_partition:
        n = int(files_per_partition)
    elif partitions:
        n = max(1, -(-len(files) // int(partitions)))
    else:
        n = 1
    return [files[i:i + n] for i in range(0, len(files), n)]


def _partitions_of(client, corpus, partitions, files_per_partition):
    try:
        import dask.bag as db
    except ImportError:  # (a client without dask.bag still takes paths and globs)
        db = None
    if db is not None and isinstance(corpus, db.Bag):
        # A bag of file paths: each of its partitions is one of ours.
        parts = client.compute(corpus.map_partitions(lambda paths: [list(paths)])).result()
        parts = [[os.path.abspath(os.fspath(p)) for p in part] for part in parts if part]
        if not parts:
            raise grappi.Error(-1, "the bag of corpus files is empty")
        return parts
    return partition_files(expand_corpus(corpus), partitions, files_per_partition)


# ---- on the workers ------------------------------------------------------------------------------

# One read-only handle per database file and worker thread: the dictionary tagger a handle builds
# is kept with it, so a worker builds it once for all its partitions.
_graphs = {}
_graphs_lock = threading.Lock()


def _graph(db):
    stat = os.stat(db)
    key = (db, stat.st_mtime_ns, stat.st_size, threading.get_ident())
    with _graphs_lock:
        g = _graphs.get(key)
        if g is None:
            # (the file changed since this thread opened it: the old handle goes)
            for old in [k for k in _graphs if k[0] == db and k[3] == key[3]]:
                _graphs.pop(old).close()
            g = grappi.Graph(db, read_only=True)
            _graphs[key] = g
        return g


def _reset_peak_rss():
    """Starts a task's peak-memory count afresh (Linux: the process's high-water mark reset), so
    that a worker's figure is its task's, not what the process held before (a forked worker
    inherits its parent's)."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass


def _peak_rss_mib():
    """The process's peak resident memory since _reset_peak_rss (else since it started), MiB."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024.0
    except (OSError, ValueError):
        pass
    try:
        import resource
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    except (ImportError, OSError):
        return None


def _on_worker(method, db, *args, **kwargs):
    """A Dask task: one partition's step, a method of the worker's read-only handle on db, with the
    worker's figures (host, process, seconds, peak memory) added to its result ("seconds" is the
    task's own time unless the step reports it; "wall_seconds" always is)."""
    _reset_peak_rss()
    start = time.monotonic()
    result = getattr(_graph(db), method)(*args, **kwargs)
    elapsed = time.monotonic() - start
    result.setdefault("seconds", elapsed)
    result.update({"host": socket.gethostname(), "pid": os.getpid(), "wall_seconds": elapsed,
                   "peak_rss_mib": _peak_rss_mib()})
    return result


# ---- on the client -------------------------------------------------------------------------------

def _run_partitions(client, jobs, retries, progress):
    """Submits jobs (partition index, files, args...) as tasks with retries; results in partition
    order. A partition failing on every try is named in PartitionFailed, after every other
    partition has finished."""
    from dask.distributed import as_completed

    futures = {}
    for job in jobs:
        f = client.submit(_on_worker, job["method"], *job["args"],
                          key="grappi-%s-%d-%s" % (job["method"], job["partition"], job["token"]), retries=retries,
                          pure=False, **job.get("kwargs", {}))
        futures[f] = job
    results, failures, done = {}, [], 0
    for f in as_completed(list(futures)):
        job = futures[f]
        done += 1
        if f.status == "finished":
            results[job["partition"]] = f.result()
            if progress:
                progress(done, len(futures), job["partition"], results[job["partition"]])
        else:
            error = f.exception()
            failures.append({"partition": job["partition"], "files": job["files"],
                             "error": "%s: %s" % (type(error).__name__, error)})
            if progress:
                progress(done, len(futures), job["partition"], {"error": failures[-1]["error"]})
    if failures:
        raise PartitionFailed(sorted(failures, key=lambda x: x["partition"]), [results[i] for i in sorted(results)])
    return [results[i] for i in sorted(results)]


def _map(client, method, jobs, retries, keep_partials, progress, also_remove=()):
    """Runs the jobs ({"partition", "files", "token", "args": (db, ...)}) as `method` tasks:
    (their results in partition order, seconds). On PartitionFailed the finished partitions'
    files (and also_remove) are removed unless keep_partials, and it is raised again."""
    for job in jobs:
        job["method"] = method
    started = time.monotonic()
    try:
        results = _run_partitions(client, jobs, retries, progress)
    except PartitionFailed as failed:
        if not keep_partials:  # (the finished partitions' files are of no use without the others)
            _remove_files([r["path"] for r in failed.finished] + list(also_remove))
        raise
    return results, time.monotonic() - started


def _store_papers(g, parts, format):
    """The corpus's files stored as papers, one dataset each, as the commands store them."""
    kind = "corpus" if format == "detect" else "corpus:" + format
    return [g.import_with(f, kind=kind)["files"][0] for files in parts for f in files]


def _remove_files(paths):
    for path in paths:
        try:
            os.remove(path)
        except OSError:
            pass


def _token(*parts):
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()[:12]


def cooc_build(client, corpus, db, work_dir=None, partitions=None, files_per_partition=None, scope="document",
               titles="include", types=None, min_count=1, as_of=0, dictionary=False, format="detect", papers=True,
               path=None, retries=2, keep_partials=False, progress=None):
    """`grappi cooc build` over a Dask cluster: each partition of the corpus's files is counted by a
    worker (grappi's streaming builder, through the C API) into a partial-count file in
    work_dir (default: "<db>.parts"), the files are merged in partition order and imported as one
    dataset: the graph `grappi cooc build --corpus F1 --corpus F2 ...` makes from the same files.
    papers: also store the papers themselves (on the client, as the command does, before the
    graph, once every partition is counted). A partition is retried `retries` times, then named in PartitionFailed (nothing is
    imported). progress(done, total, partition, result) is called as partitions finish.
    Returns the merge's report with "partitions" (each worker's figures: host, seconds, peak
    memory) and "papers"."""
    parts = _partitions_of(client, corpus, partitions, files_per_partition)
    db = os.path.abspath(db)
    work_dir = os.path.abspath(work_dir or db + ".parts")
    os.makedirs(work_dir, exist_ok=True)
    options = {"scope": scope, "titles": titles, "types": list(types) if types else None, "min_count": min_count,
               "as_of": as_of, "dictionary": dictionary, "format": format}
    token = _token(db, parts, options)
    with grappi.Graph(db, create=True):  # (created when missing, as the command does: the workers read it)
        pass
    jobs = []
    for i, files in enumerate(parts):
        out = os.path.join(work_dir, "cooc-%s-%05d.part" % (token, i))
        provenance = {"partition": i, "partitions": len(parts), "files": files, "database": db, "options": options,
                      "build": token}
        jobs.append({"partition": i, "files": files, "token": token, "args": (db, files, out, provenance),
                     "kwargs": options})
    results, mapped = _map(client, "cooc_partial", jobs, retries, keep_partials, progress)
    started = time.monotonic()
    with grappi.Graph(db) as g:
        # (the papers once every partition is counted: a failed build stores nothing; before the
        # graph, as the command stores them)
        paper_reports = _store_papers(g, parts, format) if papers else []
        report = g.cooc_merge([r["path"] for r in results], path=path)
    merged = time.monotonic() - started
    if not keep_partials:
        _remove_files(r["path"] for r in results)
    report["partitions"] = results
    report["papers"] = paper_reports
    report["seconds"] = {"map": mapped, "merge": merged}
    return report


def extract(client, corpus, db, work_dir=None, partitions=None, files_per_partition=None, format="detect",
            repair=True, annotations_only=False, taxon=0, max_calls=0, max_tokens=0, llm="extractive", base_url=None,
            model=None, api_key_env=None, concurrency=4, include_flagged=False, bel_path=None, cx2_path=None,
            papers=True, retries=2, keep_partials=False, progress=None):
    """`grappi extract --import` over a Dask cluster: each partition of the corpus's files is
    extracted by a worker (the database read-only: the response cache is read, not written;
    budgets apply per partition) into a part file in work_dir; the parts are merged in partition
    order (duplicates found across partitions) and the statements imported as one BEL dataset,
    the dataset `grappi extract --corpus F1 ... --import` makes from the same files; papers: the
    papers stored too, as the command stores them. A language model's API key variable must be
    set on every worker. Returns the extraction JSON with "import", "parts" and "partitions"."""
    parts = _partitions_of(client, corpus, partitions, files_per_partition)
    db = os.path.abspath(db)
    work_dir = os.path.abspath(work_dir or db + ".parts")
    os.makedirs(work_dir, exist_ok=True)
    options = {"format": format, "repair": repair, "annotations_only": annotations_only, "taxon": taxon,
               "max_calls": max_calls, "max_tokens": max_tokens, "llm": llm, "base_url": base_url, "model": model,
               "api_key_env": api_key_env, "concurrency": concurrency}
    token = _token(db, parts, options)
    jobs = []
    for i, files in enumerate(parts):
        out = os.path.join(work_dir, "extract-%s-%05d.part" % (token, i))
        provenance = {"partition": i, "partitions": len(parts), "files": files, "database": db, "build": token}
        jobs.append({"partition": i, "files": files, "token": token, "args": (db, files, out, provenance),
                     "kwargs": options})
    results, mapped = _map(client, "extract_part", jobs, retries, keep_partials, progress)
    started = time.monotonic()
    with grappi.Graph(db) as g:
        report = g.extract_merge([r["path"] for r in results], import_statements=True, bel_path=bel_path,
                                 cx2_path=cx2_path, include_flagged=include_flagged)
        # (after the statements, as the command stores them)
        paper_reports = _store_papers(g, parts, format) if papers else []
    merged = time.monotonic() - started
    if not keep_partials:
        _remove_files(r["path"] for r in results)
    report["partitions"] = results
    report["papers"] = paper_reports
    report["seconds"] = {"map": mapped, "merge": merged}
    return report


def embed(client, db, embedder="lsa", dimension=0, base_url=None, model=None, api_key_env=None, partitions=None,
          work_dir=None, retries=2, keep_partials=False, progress=None):
    """`grappi embed` over a Dask cluster: the embedder is made once on the client (the stored
    model, else fitted on every node's text, as the command does) and written to work_dir; the
    texts the model lacks are split into `partitions` parts (default: one per worker thread),
    each embedded by a worker into a vectors file; the client stores them as one `grappi embed`
    stores its vectors (the same model, vectors and neighbor ranking). An openai embedder's API
    key variable must be set on every worker. Returns the merge's report with "partitions"."""
    db = os.path.abspath(db)
    work_dir = os.path.abspath(work_dir or db + ".parts")
    os.makedirs(work_dir, exist_ok=True)
    if not partitions:
        partitions = max(1, sum(client.nthreads().values()))
    embedder_path = os.path.join(work_dir, "embedder-%s" % _token(db, embedder, dimension, base_url, model, time.time()))
    with grappi.Graph(db) as g:
        plan = g.embed_plan(embedder_path, embedder=embedder, dimension=dimension, base_url=base_url, model=model,
                            api_key_env=api_key_env)
    token = _token(db, plan["model"], partitions, embedder_path)
    jobs = []
    for i in range(partitions):
        out = os.path.join(work_dir, "vectors-%s-%05d.part" % (token, i))
        provenance = {"partition": i, "partitions": partitions, "database": db, "model": plan["model"], "build": token}
        jobs.append({"partition": i, "files": [out], "token": token,
                     "args": (db, embedder_path, i, partitions, out, provenance)})
    results, mapped = _map(client, "embed_part", jobs, retries, keep_partials, progress, also_remove=[embedder_path])
    started = time.monotonic()
    with grappi.Graph(db) as g:
        report = g.embed_merge(embedder_path, [r["path"] for r in results])
    merged = time.monotonic() - started
    if not keep_partials:
        _remove_files([r["path"] for r in results] + [embedder_path])
    report["plan"] = plan
    report["partitions"] = results
    report["seconds"] = {"map": mapped, "merge": merged}
    return report


# ---- the wheel on the workers -------------------------------------------------------------------

def install_wheel(client, wheel):
    """Makes `import grappi` work on every worker from a grappi wheel file (its library
    included): the wheel is sent to each worker (now and to workers that join later), unpacked
    into the worker's local directory and put first on its module path; no pip, no network.
    Returns {worker address: grappi version}."""
    from grappi import _wheel_plugin

    with open(wheel, "rb") as f:
        data = f.read()
    plugin = _wheel_plugin.GrappiWheel(os.path.basename(wheel), data)
    try:
        import cloudpickle
        cloudpickle.register_pickle_by_value(_wheel_plugin)  # (the workers may not have grappi yet)
    except (ImportError, AttributeError, ValueError):
        pass
    client.register_worker_plugin(plugin, name="grappi-wheel")
    return client.run(_wheel_plugin.grappi_version)


# ---- the command line ---------------------------------------------------------------------------

def _client(args):
    from dask.distributed import Client, LocalCluster

    if args.scheduler:
        return Client(args.scheduler), None
    cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=None)
    return Client(cluster), cluster


def _print_progress(done, total, partition, result):
    if "error" in result:
        print("partition %d failed: %s" % (partition, result["error"]), file=sys.stderr, flush=True)
    else:
        what = ("%d document(s)" % result["documents"]) if "documents" in result else (
            "%d text(s)" % result.get("embedded", 0))
        print("partition %d done (%d/%d): %s in %.1f s on %s" % (
            partition, done, total, what, result.get("seconds", 0.0), result.get("host", "?")), file=sys.stderr, flush=True)


def main(argv=None):
    import argparse

    parser = argparse.ArgumentParser(prog="python3 -m grappi.distributed",
                                     description="grappi's literature builds on a Dask cluster (docs/distributed.md)")
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("cooc-build", help="a co-occurrence graph of a corpus, counted by the workers, merged into --db")
    c.add_argument("--corpus", action="append", required=True, help="document files or globs (repeatable; quote globs)")
    c.add_argument("--db", required=True, help="the database (created when missing)")
    x = sub.add_parser("extract", help="grappi extract --import with the papers extracted by the workers")
    x.add_argument("--corpus", action="append", required=True, help="papers: files or globs (repeatable; quote globs)")
    x.add_argument("--db", required=True, help="the database (its names ground the entities)")
    x.add_argument("--format", default="detect")
    x.add_argument("--llm", default="extractive", choices=["extractive", "openai"])
    x.add_argument("--base-url")
    x.add_argument("--model")
    x.add_argument("--api-key-env")
    x.add_argument("--taxon", type=int, default=0)
    x.add_argument("--annotations-only", action="store_true")
    x.add_argument("--include-flagged", action="store_true")
    x.add_argument("--max-calls", type=int, default=0, help="model-call budget of each partition")
    x.add_argument("--bel", help="the dataset's BEL script (default: next to the database)")
    x.add_argument("--cx2", help="also write the statements as CX2 here")
    x.add_argument("--files-per-partition", type=int, help="files per partition")
    x.add_argument("--no-papers", action="store_true", help="do not store the papers themselves")
    e = sub.add_parser("embed", help="grappi embed with the texts embedded by the workers, stored into --db")
    e.add_argument("--db", required=True, help="the database")
    e.add_argument("--embedder", default="lsa", choices=["lsa", "hashing", "openai"])
    e.add_argument("--dim", type=int, default=0, help="as grappi embed takes it")
    e.add_argument("--base-url", help="openai: the server's base URL")
    e.add_argument("--model", help="openai: the model")
    e.add_argument("--api-key-env", help="openai: the variable holding the key (set on every worker)")
    for p in (c, x, e):
        p.add_argument("--scheduler", help="the Dask scheduler's address (default: a local cluster of --workers)")
        p.add_argument("--workers", type=int, default=2, help="workers of the local cluster (without --scheduler)")
        p.add_argument("--work-dir", help="where partitions' files go; shared by every worker (default: <db>.parts)")
        p.add_argument("--partitions", type=int,
                       help="how many partitions (cooc-build: of the files, default one per file; embed: of the "
                            "pending texts, default one per worker thread)")
        p.add_argument("--keep-partials", action="store_true", help="keep the partitions' files")
        p.add_argument("--retries", type=int, default=2, help="tries of a failing partition beyond the first")
        p.add_argument("--wheel", help="send this grappi wheel to the workers first (install_wheel)")
        p.add_argument("--json", help="write the report as JSON to this file ('-': standard output)")
    c.add_argument("--format", default="detect", help="force the corpus format (pubtator, bioc-xml, bioc-json, jsonl)")
    c.add_argument("--scope", default="document", choices=["document", "sentence"])
    c.add_argument("--titles", default="include", choices=["include", "only", "exclude"])
    c.add_argument("--types", help="concept types kept, comma-separated")
    c.add_argument("--min-count", type=int, default=1)
    c.add_argument("--as-of", type=int, default=0)
    c.add_argument("--dictionary", action="store_true")
    c.add_argument("--out", help="also write the dataset's JSON lines file here (default: the database alone holds the graph)")
    c.add_argument("--no-papers", action="store_true", help="do not store the papers themselves")
    c.add_argument("--files-per-partition", type=int, help="files per partition")
    args = parser.parse_args(argv)
    client, cluster = _client(args)
    try:
        if args.wheel:
            install_wheel(client, args.wheel)
        if args.command == "extract":
            report = extract(client, args.corpus, args.db, work_dir=args.work_dir, partitions=args.partitions,
                             files_per_partition=args.files_per_partition, format=args.format, taxon=args.taxon,
                             annotations_only=args.annotations_only, max_calls=args.max_calls, llm=args.llm,
                             base_url=args.base_url, model=args.model, api_key_env=args.api_key_env,
                             include_flagged=args.include_flagged, bel_path=args.bel, cx2_path=args.cx2,
                             papers=not args.no_papers, retries=args.retries, keep_partials=args.keep_partials,
                             progress=_print_progress)
        elif args.command == "embed":
            report = embed(client, args.db, embedder=args.embedder, dimension=args.dim, base_url=args.base_url,
                           model=args.model, api_key_env=args.api_key_env, partitions=args.partitions,
                           work_dir=args.work_dir, retries=args.retries, keep_partials=args.keep_partials,
                           progress=_print_progress)
        else:
            report = cooc_build(client, args.corpus, args.db, work_dir=args.work_dir, partitions=args.partitions,
                                files_per_partition=args.files_per_partition, scope=args.scope, titles=args.titles,
                                types=args.types.split(",") if args.types else None, min_count=args.min_count,
                                as_of=args.as_of, dictionary=args.dictionary, format=args.format,
                                papers=not args.no_papers, path=args.out, retries=args.retries,
                                keep_partials=args.keep_partials, progress=_print_progress)
    except grappi.Error as error:
        print("python3 -m grappi.distributed: %s" % error, file=sys.stderr)
        return 1
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    if args.json:
        text = json.dumps(report, indent=2) + "\n"
        if args.json == "-":
            sys.stdout.write(text)
        else:
            with open(args.json, "w") as f:
                f.write(text)
    if args.json != "-" and args.command == "extract":
        c = report["counts"]
        print("%d partition(s): %d document(s), %d paragraph(s), %d statement(s): %d valid, %d flagged, %d rejected, "
              "%d duplicate(s); map %.1f s, merge %.1f s" % (
                  len(report["partitions"]), report["documents"], c["paragraphs"], c["statements"], c["valid"],
                  c["flagged"], c["rejected"], c["duplicates"], report["seconds"]["map"], report["seconds"]["merge"]))
        if report.get("import"):
            print("imported as dataset %d%s from %s" % (report["import"]["dataset_id"],
                                                         " (already imported)" if report["import"]["already_imported"]
                                                         else "", report["import"]["path"]))
    elif args.json != "-" and args.command == "embed":
        print("%d partition(s): model %s (dimension %d): embedded %d (%d by the workers, %d here), unchanged %d; "
              "map %.1f s, merge %.1f s" % (len(report["partitions"]), report["model"], report["dimension"],
                                            report["embedded"], report["from_parts"], report["embedded_here"],
                                            report["unchanged"], report["seconds"]["map"], report["seconds"]["merge"]))
    elif args.json != "-":
        imported = report.get("import")
        print("%d partition(s): %d document(s), %d concept(s), %d edge(s) (%s); map %.1f s, merge %.1f s" % (
            len(report["partitions"]), report["documents"], report["concepts"], report["edges"], report["relation"],
            report["seconds"]["map"], report["seconds"]["merge"]))
        if imported:
            print("imported as dataset %d%s (%s)" % (imported["dataset_id"],
                                                      " (already imported)" if imported["already_imported"] else "",
                                                      imported["path"]))
    return 0


if __name__ == "__main__":
    # Run as python3 -m grappi.distributed: the functions the workers run are taken from the module
    # grappi.distributed, not from this __main__ copy of it, so that Dask pickles them by reference (a
    # function of __main__ is pickled by value, with the lock it refers to, which cannot be).
    from grappi import distributed as _module

    sys.exit(_module.main())
