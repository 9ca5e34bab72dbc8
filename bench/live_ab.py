#!/usr/bin/python3
"""live_ab.py - one queued task per node (ordo_live.h) against a task per update.

Part 1, SSSP at its default scheduler: `sssp --live auto` (the default) beside
`--live off`, interleaved rounds of in-process trials, every trial verified; prints
the median kernel time, tasks and empty tasks of each side and the ratios.
Part 2, PageRank's residual push on a generated R-MAT: the tasks of each scheduler over
the sequential push's (the work ratio) and its time.

    bench/live_ab.py [--bin build/algorithms] [--data bench/data] [--graphs road2k,rmat20]
                     [--threads 1,2] [--rounds 3] [--trials 5] [--pr-gen rmat:scale=16,ef=8]

The graphs are DATA/NAME.ordo (bench/yardsticks.sh makes them).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys


def run(cmd):
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    if out.returncode:
        sys.exit("live_ab.py: %s failed (%d): %s" % (" ".join(cmd), out.returncode,
                                                     out.stderr.strip()[-400:]))
    recs = [json.loads(l) for l in out.stdout.splitlines() if l.startswith("{")]
    for r in recs:
        if r["verify"] != "PASS":
            sys.exit("live_ab.py: %s did not verify" % " ".join(cmd))
    return recs


def med(xs):
    return statistics.median(xs)


def sssp_part(a):
    rows = {}
    for rnd in range(a.rounds):
        for g in a.graphs.split(","):
            path = os.path.join(a.data, g + ".ordo")
            if not os.path.exists(path):
                sys.exit("live_ab.py: %s missing (bench/yardsticks.sh makes it)" % path)
            for t in a.threads.split(","):
                for mode in ("off", "auto"):
                    recs = run([os.path.join(a.bin, "sssp"), path, "-t", t, "-n",
                                str(a.trials), "--live", mode, "--format", "json", "-q"])
                    rows.setdefault((g, t, mode), []).extend(recs)
    print("| graph | threads | off ms | live ms | live / off | off tasks (empty) "
          "| live tasks (empty) | empty live / off |")
    print("|---|---|---|---|---|---|---|---|")
    for g in a.graphs.split(","):
        for t in a.threads.split(","):
            o, l = rows[(g, t, "off")], rows[(g, t, "auto")]
            to, tl = med([r["time_s"] for r in o]) * 1e3, med([r["time_s"] for r in l]) * 1e3
            eo, el = med([r["empty_tasks"] for r in o]), med([r["empty_tasks"] for r in l])
            ko, kl = med([r["tasks"] for r in o]), med([r["tasks"] for r in l])
            print("| %s | %s | %.1f | %.1f | %.3f | %d (%d) | %d (%d) | %.3f |" %
                  (g, t, to, tl, tl / to, ko, eo, kl, el, el / eo if eo else 0))
    print("scheduler: %s" % rows[(g, t, "auto")][0]["scheduler"])


def pagerank_part(a):
    print()
    print("| scheduler | threads | ms | tasks | empty | work (tasks / sequential push's) "
          "| useful |")
    print("|---|---|---|---|---|---|---|")
    for wl in a.pr_wl.split(","):
        for t in a.threads.split(","):
            recs = run([os.path.join(a.bin, "pagerank"), "--gen", a.pr_gen, "--wl", wl, "-t",
                        t, "-n", "3", "--format", "json", "-q"])
            print("| `%s` | %s | %.1f | %d | %d | %.3f | %.3f |" %
                  (wl, t, med([r["time_s"] for r in recs]) * 1e3,
                   med([r["tasks"] for r in recs]), med([r["empty_tasks"] for r in recs]),
                   med([r["work_ratio"] for r in recs]), med([r["useful_ratio"] for r in recs])))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    here = os.path.dirname(os.path.abspath(__file__))
    p.add_argument("--bin", default=os.path.join(here, "..", "build", "algorithms"))
    p.add_argument("--data", default=os.environ.get("ORDO_BENCH_DATA",
                                                    os.path.join(here, "data")))
    p.add_argument("--graphs", default="road2k,rmat20")
    p.add_argument("--threads", default="1,2")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--trials", type=int, default=5)
    p.add_argument("--pr-gen", default="rmat:scale=16,ef=8")
    p.add_argument("--pr-wl", default="fifo,obim:delta=56,pmod,smq,mq")
    p.add_argument("--skip-sssp", action="store_true")
    p.add_argument("--skip-pagerank", action="store_true")
    a = p.parse_args()
    if not a.skip_sssp:
        sssp_part(a)
    if not a.skip_pagerank:
        pagerank_part(a)


if __name__ == "__main__":
    main()
