#!/usr/bin/env python3
"""Runs `grappi pcst` on every instance of ../shared/pcst/instances for the prunings in the
reference file and prints objective and median solve time next to pcst_fast's figures.
Usage: bench/pcst_compare.py BUILD_DIR PCST_DIR [RUNS] [--markdown] [--instances DIR] [--only NAME,NAME]
                              [--fast-order]
(--instances: where the instance files are, .txt.gz or .txt, default PCST_DIR/instances; the
generated *_m3e6_* and ba_string_full_* files live elsewhere; the default is pcst_fast's own
event order, --fast-order grappi's faster one; both with and without --improve)"""
import json, statistics, subprocess, sys, os

build, pdir = sys.argv[1], sys.argv[2]
runs = int(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[3].isdigit() else 5
md = "--markdown" in sys.argv
def opt(name):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else None
idir = opt("--instances") or os.path.join(pdir, "instances")
only = set(opt("--only").split(",")) if opt("--only") else None
extra = ["--fast-order"] if "--fast-order" in sys.argv else []
ref = {}
with open(os.path.join(pdir, "reference_pcst_fast.jsonl")) as f:
    for line in f:
        j = json.loads(line)
        ref[(j["instance"], j["pruning"])] = j
if md:
    print("| instance | edges | pruning | grappi objective | reference objective | objective ratio | grappi median ms | reference ms | time ratio | --improve objective | improve / reference | --improve ms | best known |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for (inst, pruning), r in sorted(ref.items(), key=lambda kv: (kv[1]["m"], kv[0][0], kv[0][1])):
    if only and inst not in only:
        continue
    path = next((p for p in (os.path.join(idir, inst + ".txt.gz"), os.path.join(idir, inst + ".txt")) if os.path.exists(p)), None)
    if not path:
        continue
    times, obj = [], None
    for _ in range(runs):
        out = subprocess.run([os.path.join(build, "grappi"), "pcst", "--instance", path, "--pruning", pruning, "--json"] + extra,
                             check=True, capture_output=True, text=True).stdout
        j = json.loads(out)
        times.append(j["solve_seconds"])
        obj = j["objective"]
    t = statistics.median(times)
    itimes, iobj = [], None
    for _ in range(max(1, runs // 2)):
        out = subprocess.run([os.path.join(build, "grappi"), "pcst", "--instance", path, "--pruning", pruning, "--improve", "--json"] + extra,
                             check=True, capture_output=True, text=True).stdout
        j = json.loads(out)
        itimes.append(j["solve_seconds"])
        iobj = j["objective"]
    it = statistics.median(itimes)
    oratio = obj / r["objective"] if r["objective"] else 1.0
    iratio = iobj / r["objective"] if r["objective"] else 1.0
    tratio = t / r["time_s_median"]
    best = r.get("best_known_objective")
    best_s = f"{best:.6g}" if best is not None else ""
    if md:
        print(f"| {inst} | {r['m']:,} | {pruning} | {obj:.6g} | {r['objective']:.6g} | {oratio:.4f} | {t*1000:.2f} | {r['time_s_median']*1000:.2f} | {tratio:.2f} | {iobj:.6g} | {iratio:.4f} | {it*1000:.1f} | {best_s} |", flush=True)
    else:
        print(f"{inst:22s} m={r['m']:>8} {pruning:6s} obj {obj:14.6g} ref {r['objective']:14.6g} ratio {oratio:.4f}  time {t*1000:9.2f} ms ref {r['time_s_median']*1000:9.2f} ms ratio {tratio:.2f}  improve {iobj:14.6g} ratio {iratio:.4f} {it*1000:9.1f} ms {best_s}", flush=True)
