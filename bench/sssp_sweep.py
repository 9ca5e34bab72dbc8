#!/usr/bin/env python3
"""sssp_sweep.py - SSSP on the yardstick graphs for a list of schedulers and thread
counts, side by side in one session; prints markdown tables of medians.

  bench/sssp_sweep.py [--graphs road2k,rmat20] [--threads 1,2] [--runs 5]
                      [--rounds 1] [--wl SPEC]... [--raw FILE]

Each (graph, threads, scheduler) is one `sssp` process per round running RUNS trials from the
yardstick source (DIMACS node 1 = ordo node 0); its Dijkstra baseline runs in the same
process. Reported: median kernel time, median work ratio (tasks / Dijkstra's settled
nodes), the scheduler's counters, the median Dijkstra time of that process, and the
speedup over it; medians are over all trials of all rounds. Rounds are interleaved (every
row runs once before any runs twice), so a noisy stretch of the machine spreads over all
rows. Graphs are made by bench/yardsticks.sh (set ORDO_BENCH_DATA to reuse a directory).
Machines are noisy: compare within one table.
"""
import argparse, json, os, statistics, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_WL = {
    "road2k": ["strict", "fifo", "obim:delta=8", "obim:delta=10", "obim:delta=12", "obim:delta=14",
               "smq", "smq:steal_size=1", "smq:steal_size=2", "smq:steal_prob=4",
               "smq:steal_prob=4,steal_size=1", "smq:steal_prob=4,steal_size=2", "smq:pq=radix",
               "smq:pq=radix,steal_size=2", "smq-sl", "mq", "mq-opt", "reld"],
    "rmat20": ["strict", "fifo", "obim:delta=0", "obim:delta=2", "obim:delta=4", "obim:delta=6",
               "smq", "smq:steal_size=1", "smq:steal_size=2", "smq:steal_prob=4",
               "smq:steal_prob=4,steal_size=1", "smq:steal_prob=4,steal_size=2", "smq:pq=radix",
               "smq-sl", "mq", "mq-opt", "reld"],
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--graphs", default="road2k,rmat20")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--wl", action="append")
    ap.add_argument("--raw", help="append every JSON record here")
    ap.add_argument("--bin", default=os.environ.get("ORDO_BIN", os.path.join(HERE, "..", "build", "algorithms")))
    a = ap.parse_args()
    data = subprocess.run(["sh", os.path.join(HERE, "yardsticks.sh")], check=True,
                          capture_output=True, text=True).stdout.strip()
    raw = open(a.raw, "a") if a.raw else None
    for g in a.graphs.split(","):
        path = os.path.join(data, g + ".ordo")
        rows = [(t, wl) for t in a.threads.split(",") for wl in (a.wl or DEFAULT_WL.get(g, ["smq"]))]
        recs = {row: [] for row in rows}
        failed = {}
        # rounds are interleaved (every row once, then again), so that a noisy stretch
        # of the machine spreads over all rows instead of spoiling one
        for rnd in range(a.rounds):
            for t, wl in rows:
                if (t, wl) in failed:
                    continue
                cmd = [os.path.join(a.bin, "sssp"), path, "-r", "0", "-t", t, "--wl", wl,
                       "-n", str(a.runs), "--format", "json", "-q"]
                p = subprocess.run(cmd, capture_output=True, text=True)
                if p.returncode != 0:
                    failed[(t, wl)] = p.stderr.strip()[:80]
                    continue
                got = [json.loads(l) for l in p.stdout.splitlines() if l.startswith("{")]
                recs[(t, wl)] += got
                if raw:
                    for r in got:
                        raw.write(json.dumps(r) + "\n")
                        raw.flush()
            if a.rounds > 1:
                print(f"{g}: round {rnd + 1}/{a.rounds} done", file=sys.stderr)
        print(f"\n### {g} ({path}), {a.runs} trials per row x {a.rounds} round(s)\n")
        print("| threads | scheduler | time ms | work ratio | Dijkstra ms | speedup vs Dijkstra | counters |")
        print("|---|---|---|---|---|---|---|")
        for t, wl in rows:
            if (t, wl) in failed:
                print(f"| {t} | {wl} | failed: {failed[(t, wl)]} | | | | |")
                continue
            rs = recs[(t, wl)]
            tm = statistics.median(r["time_s"] for r in rs)
            wr = statistics.median(r["work_ratio"] for r in rs)
            base = statistics.median(r["baseline_time_s"] for r in rs)
            stats = rs[0]["sched_stats"]
            ctr = ", ".join(f"{k} {int(statistics.median(r['sched_stats'][k] for r in rs))}"
                            for k in stats)
            ok = all(r["verify"] == "PASS" for r in rs)
            print(f"| {t} | `{rs[0]['scheduler']}` | {tm*1e3:.0f} | {wr:.3f} | {base*1e3:.0f} | "
                  f"{base/tm:.2f}x | {ctr}{'' if ok else ' VERIFY FAILED'} |")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
