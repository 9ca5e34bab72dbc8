#!/usr/bin/env python3
"""auto_delta.py - is an app's default (no --wl, no --delta) within reach of the best
OBIM bucket shift a sweep finds? For each graph: every shift of a range and the default,
at each thread count, as cells of one `ordo-bench run` (interleaved rounds, every trial
verified); prints per graph and thread count the best shift, its median, the shift the
default chose (its record's scheduler), the default's median over the best's, and the
sweep's own cell of the chosen shift over the best (the same configuration as the
default, in other processes: the gap between the two is this machine's noise).

  bench/auto_delta.py [--app sssp] [--graphs NAME,...] [--threads 1,2] [--rounds 2]
                      [--trials 3] [--shifts 0..15] [--also WL,...] [--out DIR]
                      [--bin build/algorithms]

--also adds other schedulers to the sweep (`;`-separated, since a spec has commas),
so that "the best" is the best of every configuration tried, not only of OBIM's
shifts. `astar` needs coordinates: it runs on road2k and luxembourg only (the other
graphs are skipped with a line saying so).

Graphs: road2k and rmat20 (the yardsticks of ../shared/BENCHMARKS.md, made by
bench/yardsticks.sh) and the real graphs of ../shared/inputs (ORDO_INPUTS to point
elsewhere): rome99, luxembourg (weights from its coordinates), and the social graphs
with weights drawn uniform in [1,255] (the weights tests/apps_inputs.c gives them).
A graph whose files are missing is skipped with a line saying so. Results are kept in
DIR (default build/bench-results/auto-delta), one file per graph: a rerun reuses what
is there (ordo-bench's --out), so delete the folder to measure again.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
INPUTS = os.environ.get("ORDO_INPUTS", os.path.join(ROOT, "..", "shared", "inputs"))
SOCIAL = ["ca-AstroPh.txt.zst", "ca-CondMat.txt.zst", "facebook_combined.txt.zst",
          "musae_facebook_edges.txt.zst", "soc-Slashdot0902.txt.zst", "wiki-Vote.txt"]


def graphs():
    """name -> (ordo-bench input, extra options, files that must exist)"""
    g = {"road2k": ("road2k", "", []), "rmat20": ("rmat20", "", [])}
    g["rome99"] = (os.path.join(INPUTS, "road", "rome99.gr"), "",
                   [os.path.join(INPUTS, "road", "rome99.gr")])
    lux = os.path.join(INPUTS, "road", "luxembourg.osm.graph.zst")
    xyz = os.path.join(INPUTS, "road", "luxembourg.osm.xyz.zst")
    g["luxembourg"] = (lux, "--coords %s --weights-from-coords" % xyz, [lux, xyz])
    for f in SOCIAL:
        p = os.path.join(INPUTS, "social", f)
        g[f.split(".")[0]] = (p, "--random-weights 1:255", [p])
    return g


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--app", default="sssp")
    ap.add_argument("--graphs", help="comma list (default: every one found)")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--trials", type=int, default=3)
    ap.add_argument("--shifts", default="0..15", help="LO..HI")
    ap.add_argument("--also", default="", help="more schedulers, ';'-separated")
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "bench-results", "auto-delta"))
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "algorithms"))
    a = ap.parse_args()
    lo, _, hi = a.shifts.partition("..")
    known = graphs()
    names = a.graphs.split(",") if a.graphs else list(known)
    for n in names:
        if n not in known:
            sys.exit("auto_delta.py: no graph %r (known: %s)" % (n, ", ".join(known)))
    os.makedirs(a.out, exist_ok=True)
    rows = []
    for n in names:
        inp, extra, need = known[n]
        if a.app == "astar" and n not in ("road2k", "luxembourg"):
            print("auto_delta.py: skips %s: astar needs coordinates" % n, file=sys.stderr)
            continue
        missing = [f for f in need if not os.path.exists(f)]
        if missing:
            print("auto_delta.py: skips %s: %s not found" % (n, missing[0]), file=sys.stderr)
            continue
        out = os.path.join(a.out, "%s-%s.jsonl" % (a.app, n))
        cmd = [os.path.join(HERE, "ordo-bench"), "run", "--apps", a.app, "--inputs", inp,
               "--threads", a.threads, "--wl", "obim:delta={%s..%s}" % (lo, hi), "--wl",
               "default"]
        for w in filter(None, a.also.split(";")):
            cmd += ["--wl", w]
        cmd += ["--trials", str(a.trials), "--rounds", str(a.rounds), "-q",
               "--bin", a.bin, "--out", out]
        if extra:
            cmd += ["--extra", extra]
        print("auto_delta.py: %s" % n, file=sys.stderr)
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL)
        if p.returncode:
            sys.exit("auto_delta.py: %s failed (rc %d)" % (" ".join(cmd), p.returncode))
        times, chosen = {}, {}
        with open(out) as f:
            for line in f:
                j = json.loads(line)
                c, r = j["cell"], j["record"]
                if r.get("verify") != "PASS":
                    sys.exit("auto_delta.py: %s: a trial did not verify" % n)
                times.setdefault((c["threads"], c["wl"]), []).append(r["time_s"])
                if c["wl"] == "default":
                    chosen[c["threads"]] = r["scheduler"]
        for t in sorted({k[0] for k in times}):
            sweep = {w: statistics.median(v) for (tt, w), v in times.items()
                     if tt == t and w != "default"}
            best = min(sweep, key=sweep.get)
            d = statistics.median(times[(t, "default")])
            wl = chosen.get(t, "?")
            same = sweep.get(wl.split(",")[0])  # the sweep's own cell of the chosen shift
            rows.append((n, t, best, sweep[best], wl, d, same))
    print("| graph | threads | best of the sweep | ms | default's choice | ms (default) | "
          "default / best | the sweep's cell of that shift / best |")
    print("|---|---|---|---|---|---|---|---|")
    for n, t, best, bt, wl, dt, same in rows:
        print("| %s | %d | `%s` | %.2f | `%s` | %.2f | %.2f | %s |" % (
            n, t, best, 1000 * bt, wl.split(",")[0], 1000 * dt, dt / bt,
            "%.2f" % (same / bt) if same else "-"))


if __name__ == "__main__":
    main()
