#!/usr/bin/env python3
"""apps_bench.py - every app (sssp, bfs, astar, mst, kcore) on the yardstick graphs (or
graph files given by path, in any format ordo reads) for a few
schedulers and thread counts, side by side in one session; prints a markdown table of
medians.

  bench/apps_bench.py [--apps sssp,bfs,astar,mst] [--graphs road2k,rmat20,PATH]
                      [--threads 1,2] [--wl obim,smq,mq-opt] [--runs 5] [--rounds 1]
                      [--raw FILE] [--bin DIR]
  bench/apps_bench.py --summarise RAW   (the table of records kept with --raw)

Each (app, graph, threads, scheduler) is one process per round running RUNS trials:
sssp and bfs from the yardstick source (DIMACS node 1 = ordo node 0), astar from node 1
to the far corner (road2k only: rmat20 has no coordinates), mst on the whole graph
(rmat20 is symmetrised at load, outside the timed kernel), kcore likewise. The sequential baseline runs
in the same process. A bare `obim` gets the bucket shift that suits the app and graph
(DELTA below; pass obim:delta=D to choose). Reported: median kernel time with its range,
median work ratio, median baseline time and the speedup over it. Rounds are
interleaved, so a noisy stretch of the machine spreads over all rows. A row whose
process fails or whose verification fails says so. Graphs are made by
bench/yardsticks.sh (set ORDO_BENCH_DATA to reuse a directory).
"""
import argparse, json, os, statistics, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
DELTA = {("sssp", "road2k"): 12, ("sssp", "rmat20"): 2, ("bfs", "road2k"): 0,
         ("bfs", "rmat20"): 0, ("astar", "road2k"): 12, ("mst", "road2k"): 4,
         ("mst", "rmat20"): 4, ("kcore", "road2k"): 0, ("kcore", "rmat20"): 0}
CORNER = {"road2k": "4194303"}


def command(binary, app, graph, path, t, wl, runs):
    if wl == "obim" and (app, graph) in DELTA:
        wl = "obim:delta=%d" % DELTA[(app, graph)]
    cmd = [os.path.join(binary, app), path, "-t", t, "--wl", wl, "-n", str(runs),
           "--format", "json", "-q"]
    if app in ("sssp", "bfs"):
        cmd += ["-r", "0"]
    if app == "astar":
        cmd += ["-r", "0", "--target", CORNER[graph]]
    return cmd, wl


def med(v):
    return statistics.median(v) if v else float("nan")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--apps", default="sssp,bfs,astar,mst")
    ap.add_argument("--graphs", default="road2k,rmat20")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--wl", default="obim,smq,mq-opt")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--raw", help="append every JSON record here")
    ap.add_argument("--bin", default=os.environ.get("ORDO_BIN", os.path.join(HERE, "..", "build", "algorithms")))
    ap.add_argument("--summarise", metavar="RAW", help="only print the table of a --raw file")
    a = ap.parse_args()
    if a.summarise:
        return summarise(a.summarise)
    data = ""
    if any(not os.path.isfile(g) for g in a.graphs.split(",")):
        y = subprocess.run(["sh", os.path.join(HERE, "yardsticks.sh")], capture_output=True, text=True)
        if y.returncode != 0:
            sys.exit("apps_bench: cannot make the yardstick graphs (bench/yardsticks.sh needs "
                     "../shared/tools/gengraph.c or ORDO_BENCH_DATA with road2k.ordo and "
                     "rmat20.ordo):\n" + y.stderr.strip())
        data = y.stdout.strip()
    raw = open(a.raw, "a") if a.raw else None
    rows = [(app, g, t, wl) for app in a.apps.split(",") for g in a.graphs.split(",")
            for t in a.threads.split(",") for wl in a.wl.split(",")
            if not (app == "astar" and g not in CORNER)]
    recs = {r: [] for r in rows}
    specs, failed = {}, {}
    for rnd in range(a.rounds):
        for row in rows:
            if row in failed:
                continue
            app, g, t, wl = row
            path = g if os.path.isfile(g) else os.path.join(data, g + ".ordo")
            cmd, specs[row] = command(a.bin, app, g, path, t, wl, a.runs)
            p = subprocess.run(cmd, capture_output=True, text=True)
            out = [json.loads(l) for l in p.stdout.splitlines() if l.startswith("{")]
            if p.returncode != 0 or not out:
                failed[row] = "exit %d: %s" % (p.returncode, p.stderr.strip()[-120:])
            recs[row] += out
            if raw:
                for r in out:
                    raw.write(json.dumps(r) + "\n")
            print("round %d/%d %s %s t=%s %s done" % (rnd + 1, a.rounds, app, g, t, specs[row]),
                  file=sys.stderr)
    table(rows, recs, specs, failed)


def table(rows, recs, specs, failed):
    print("| app | graph | threads | scheduler | time ms (min-max) | work ratio | baseline ms | speedup | verified |")
    print("|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        app, g, t, wl = row
        rs = recs[row]
        times = [r["time_s"] * 1e3 for r in rs]
        ok = all(r["verify"] == "PASS" for r in rs) and rs and row not in failed
        tm, bm = med(times), med([r["baseline_time_s"] * 1e3 for r in rs])
        print("| %s | %s | %s | %s | %.0f (%.0f-%.0f) | %.3f | %.0f | %.2fx | %s |" % (
            app, g, t, specs.get(row, wl), tm, min(times or [0]), max(times or [0]),
            med([r["work_ratio"] for r in rs]), bm, bm / tm if tm else 0,
            "PASS (%d)" % len(rs) if ok else "FAIL " + failed.get(row, "verification")))


def summarise(path):
    """The table from records kept with --raw (say, of a run stopped early)."""
    rows, recs, specs = [], {}, {}
    for line in open(path):
        r = json.loads(line)
        g = os.path.basename(r["input"]).rsplit(".", 1)[0]
        row = (r["algorithm"], g, str(r["threads"]), r["scheduler"])
        if row not in recs:
            rows.append(row)
            recs[row] = []
            specs[row] = r["scheduler"]
        recs[row].append(r)
    table(rows, recs, specs, {})


if __name__ == "__main__":
    main()
