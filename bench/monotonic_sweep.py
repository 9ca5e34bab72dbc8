#!/usr/bin/env python3
"""monotonic_sweep.py - the scheduler micro-benchmark (bench/monotonic.c) repeated and
summarised: median pop+push pairs per second with the min-max range, as a markdown table.

  bench/monotonic_sweep.py [--threads 1,2] [--runs 5] [--seconds 1] [--wl SPEC]...

Without --wl every registered scheduler runs at its defaults. Rounds are interleaved
(run 1 of every row, then run 2, ...), so a noisy stretch of the machine spreads over all
rows instead of spoiling one. Each run is one `monotonic` process per thread count.
"""
import argparse, csv, io, os, statistics, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--seconds", default="1")
    ap.add_argument("--wl", action="append")
    ap.add_argument("--bin", default=os.environ.get("ORDO_BENCH_BIN",
                                                     os.path.join(HERE, "..", "build", "bench")))
    a = ap.parse_args()
    exe = os.path.join(a.bin, "monotonic")
    if not os.access(exe, os.X_OK):
        sys.exit(f"monotonic_sweep.py: {exe} is missing: build the project first (or pass --bin)")
    rates = {}  # (threads, scheduler) -> [pairs/s]
    for run in range(a.runs):
        for t in a.threads.split(","):
            cmd = [exe, "-t", t, "-s", a.seconds, "--format", "csv"]
            for w in a.wl or []:
                cmd += ["--wl", w]
            p = subprocess.run(cmd, capture_output=True, text=True)
            if p.returncode != 0:
                sys.exit(f"monotonic_sweep.py: {' '.join(cmd)} failed: {p.stderr.strip()}")
            for r in csv.DictReader(io.StringIO(p.stdout)):
                rates.setdefault((int(r["threads"]), r["scheduler"]), []).append(
                    float(r["pairs_per_s"]))
        print(f"round {run + 1}/{a.runs} done", file=sys.stderr)
    print("| threads | scheduler | M pairs/s, median (min-max) |")
    print("|---|---|---|")
    for (t, s), v in sorted(rates.items()):
        print(f"| {t} | `{s}` | {statistics.median(v) / 1e6:.2f} "
              f"({min(v) / 1e6:.2f}-{max(v) / 1e6:.2f}) |")


if __name__ == "__main__":
    main()
