#!/usr/bin/python3
"""per_query.py - configurations compared query by query, for apps whose trials are
different queries (astar's source-target pairs): a cell's median over all its trials
mixes short and long queries, and its spread is the queries', not the machine's.

  /usr/bin/python3 bench/per_query.py RESULTS.jsonl[.gz] ...

RESULTS are `ordo-bench run --out` files. Every process of a cell draws the same
queries in the same order (trial i: the i-th pair of the run's seed), so trial i of
every configuration is one query: its time is the median over the cell's rounds, and a
configuration's figure is the sum of those over its trials (the time of the whole set
of queries, long ones weighing as they take). Prints, per app, input and thread count,
each configuration's sum over the best one's, and the best's sum in ms. A trial that
failed verification makes the script stop (a wrong answer has no time); unverified
ones (--no-verify) count.
"""
import collections
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ordo_bench.results import load_results  # noqa: E402  (gzip members, bad lines named)


def main():
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(sys.argv) == 2 else 2
    times = collections.defaultdict(list)
    for path in sys.argv[1:]:
        for r in load_results([path]):
            cell, rec = r["cell"], r.get("record")
            if not rec:
                continue
            if rec.get("time_s") is None:
                continue
            if rec.get("verify") == "FAIL":  # SKIP (--no-verify) is no failure
                sys.exit("per_query.py: %s: a trial of %s failed verification" % (path, cell))
            key = (cell["app"], cell["input"], cell["threads"])
            times[key + (cell["wl"], rec["trial"])].append(rec["time_s"] * 1e3)
    groups = sorted({k[:3] for k in times}, key=str)
    if not groups:
        sys.exit("per_query.py: no timed trials in %s" % " ".join(sys.argv[1:]))
    print("| app | input | threads | each configuration's time for all queries / the best's | best, ms |")
    print("|---|---|---|---|---|")
    for g in groups:
        wls = sorted({k[3] for k in times if k[:3] == g}, key=lambda w: (len(w), w))
        trials = sorted({k[4] for k in times if k[:3] == g})
        tot = {}
        for w in wls:
            if any(g + (w, i) not in times for i in trials):
                sys.exit("per_query.py: %s has not every query of %s" % (w, g))
            tot[w] = sum(statistics.median(times[g + (w, i)]) for i in trials)
        best = min(tot.values())
        row = ", ".join("`%s` %.2f" % (w, tot[w] / best) for w in wls)
        print("| %s | %s | %d | %s | %.1f |" % (g[0], g[1].split("/")[-1], g[2], row, best))
    return 0


if __name__ == "__main__":
    sys.exit(main())
