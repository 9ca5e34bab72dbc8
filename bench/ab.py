#!/usr/bin/env python3
"""ab.py - A/B of two builds of one app, interleaved in one session: each round runs A
then B (alternating which goes first) for every scheduler, one process of RUNS trials
each; prints the median kernel time of each side and B/A.

  bench/ab.py A_BIN_DIR B_BIN_DIR [--app sssp] [--graph road2k] [--threads 2]
              [--wl SPEC]... [--runs 5] [--rounds 5] [-- EXTRA APP ARGS]

A_BIN_DIR and B_BIN_DIR hold the app binaries (e.g. a worktree of the old commit built
into build/algorithms). Sources as the yardsticks: node 0 (DIMACS node 1). Graphs from
bench/yardsticks.sh (ORDO_BENCH_DATA to reuse a directory).
"""
import argparse, json, os, statistics, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))


def run(bin_dir, a, wl, path, extra):
    cmd = [os.path.join(bin_dir, a.app), path, "-t", a.threads, "--wl", wl, "-n",
           str(a.runs), "--format", "json", "-q"] + (["-r", "0"] if a.app in ("sssp", "bfs") else []) + extra
    p = subprocess.run(cmd, capture_output=True, text=True)
    recs = [json.loads(l) for l in p.stdout.splitlines() if l.startswith("{")]
    if p.returncode or not recs or any(r["verify"] != "PASS" for r in recs):
        sys.exit("ab: %s failed: %s" % (" ".join(cmd), p.stderr.strip()[-200:]))
    return [r["time_s"] * 1e3 for r in recs]


def main():
    argv = sys.argv[1:]
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    argv = argv[:argv.index("--")] if "--" in argv else argv
    ap = argparse.ArgumentParser()
    ap.add_argument("a_bin")
    ap.add_argument("b_bin")
    ap.add_argument("--app", default="sssp")
    ap.add_argument("--graph", default="road2k")
    ap.add_argument("--threads", default="2")
    ap.add_argument("--wl", action="append", help="scheduler spec (repeatable)")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args(argv)
    y = subprocess.run(["sh", os.path.join(HERE, "yardsticks.sh")], capture_output=True, text=True)
    if y.returncode != 0:
        sys.exit("ab: cannot make the yardstick graphs (bench/yardsticks.sh needs "
                 "../shared/tools/gengraph.c, or ORDO_BENCH_DATA with road2k.ordo and "
                 "rmat20.ordo):\n" + y.stderr.strip())
    data = y.stdout.strip()
    path = os.path.join(data, a.graph + ".ordo")
    wls = a.wl or ["obim:delta=12", "smq"]
    times = {(s, w): [] for s in "AB" for w in wls}
    for rnd in range(a.rounds):
        for w in wls:
            order = [("A", a.a_bin), ("B", a.b_bin)]
            if rnd % 2:
                order.reverse()
            for side, b in order:
                times[(side, w)] += run(b, a, w, path, extra)
    print("| %s %s, %s threads | A ms | B ms | B/A |" % (a.app, a.graph, a.threads))
    print("|---|---|---|---|")
    for w in wls:
        ma, mb = statistics.median(times[("A", w)]), statistics.median(times[("B", w)])
        print("| %s | %.1f | %.1f | %.3f |" % (w, ma, mb, mb / ma))
    print("(medians of %d trials each: %d rounds x %d, interleaved, alternating order)" %
          (a.rounds * a.runs, a.rounds, a.runs))


if __name__ == "__main__":
    main()
