#!/usr/bin/env python3
"""Issue 32's targets, read from an `ordo-bench run` results file that holds, per app,
input and scheduler, the cells 1 and 2 workers quiet (`--noise none`), 2 workers beside
a spinning thread (`--noise spin:1`) and 16 workers on 2 cores (`--noise oversub:8`):

  spin:1     time <= 1 quiet worker's, work ratio <= 1.1x the quiet 2 workers'
  oversub:8  time <= 1.2x the quiet 2 workers', work ratio <= 1.1x theirs

Each cell's figure is the median over rounds of the round's median trial (a round's
trials draw different sources, so a median over rounds compares like with like).

  bench/ordo-bench run --apps sssp,bfs --inputs yardsticks --wl smq:pq=bucket --wl obim \\
      --wl mq-opt --threads 1,2 --trials 3 --rounds 3 --noise none --noise spin:1 \\
      --noise oversub:8 --out seats.jsonl
  bench/seats_targets.py seats.jsonl
"""
import collections
import gzip
import json
import statistics
import sys


def load(path):
    op = gzip.open if path.endswith(".gz") else open
    rounds = collections.defaultdict(lambda: collections.defaultdict(list))
    with op(path, "rt") as f:
        for line in f:
            r = json.loads(line)
            c, rec = r["cell"], r.get("record")
            if not rec:
                continue
            key = (c["app"], c["input"], c["wl"], c["threads"], c.get("noise", "none"))
            rounds[key][r.get("round", 0)].append((rec["time_s"] * 1000, rec["work_ratio"]))
    cells = {}
    for key, by_round in rounds.items():
        t = statistics.median(statistics.median(x for x, _ in v) for v in by_round.values())
        w = statistics.median(statistics.median(y for _, y in v) for v in by_round.values())
        cells[key] = (t, w)
    return cells


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    cells = load(sys.argv[1])
    met = total = 0
    print("| app, input, scheduler | 1 quiet | 2 quiet (work) | spin:1 (work) | target | "
          "oversub:8 (work) | target |")
    print("|---|---|---|---|---|---|---|")
    for app, inp, wl in sorted({k[:3] for k in cells}):
        q1, q2 = cells.get((app, inp, wl, 1, "none")), cells.get((app, inp, wl, 2, "none"))
        sp, ov = cells.get((app, inp, wl, 2, "spin:1")), cells.get((app, inp, wl, 16, "oversub:8"))
        if not (q1 and q2 and sp and ov):
            continue
        s_ok = sp[0] <= q1[0] and sp[1] <= 1.1 * q2[1]
        o_ok = ov[0] <= 1.2 * q2[0] and ov[1] <= 1.1 * q2[1]
        met += s_ok + o_ok
        total += 2
        print("| %s %s `%s` | %.0f ms | %.0f ms (%.3f) | %.0f ms = %.2fx of 1 quiet (%.3f = "
              "%.2fx) | %s | %.0f ms = %.2fx of 2 quiet (%.3f = %.2fx) | %s |" %
              (app, inp, wl, q1[0], q2[0], q2[1], sp[0], sp[0] / q1[0], sp[1], sp[1] / q2[1],
               "met" if s_ok else "**missed**", ov[0], ov[0] / q2[0], ov[1], ov[1] / q2[1],
               "met" if o_ok else "**missed**"))
    print("\n%d of %d targets met" % (met, total))


if __name__ == "__main__":
    main()
