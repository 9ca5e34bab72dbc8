#!/usr/bin/env python3
"""Two ordo processes on one machine: one after the other, both at once, and both at once
with --coop (issue 32's third target).

Each process runs APP on INPUT with THREADS workers, a fixed source (so its sequential
baseline runs once) and TRIALS trials. Per round and mode it reports the wall time until
both processes are done and the sum of their kernel times (time_s of every trial), and
at the end the medians over the rounds, each mode over "one after the other". Rounds
interleave the modes so that drift on a shared machine hits them alike.

  bench/coop_pair.py --input bench/data/road2k.ordo --wl smq:pq=bucket --rounds 3
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def start(cmd):
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finish(p, cmd):
    out, err = p.communicate()
    if p.returncode != 0:
        sys.exit("failed (%d): %s\n%s" % (p.returncode, " ".join(cmd), err))
    recs = [json.loads(l) for l in out.splitlines() if l.startswith("{")]
    if not recs or any(r["verify"] != "PASS" for r in recs):
        sys.exit("not verified: %s" % " ".join(cmd))
    return recs


def run_mode(mode, cmds):
    t0 = time.monotonic()
    recs = []
    if mode == "sequential":
        for c in cmds:
            recs += finish(start(c), c)
    else:
        ps = [start(c) for c in cmds]
        for p, c in zip(ps, cmds):
            recs += finish(p, c)
    return time.monotonic() - t0, sum(r["time_s"] for r in recs), recs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", default=os.path.join(HERE, "..", "build", "algorithms"))
    ap.add_argument("--app", default="sssp")
    ap.add_argument("--input", required=True)
    ap.add_argument("--wl", default="smq:pq=bucket")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--trials", type=int, default=8)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--out", help="append the rounds as JSON lines")
    a = ap.parse_args()
    name = "ordo-bench-coop-%d" % os.getpid()
    base = [os.path.join(a.bin, a.app), a.input, "--wl", a.wl, "-t", str(a.threads),
            "-n", str(a.trials), "--source", "0", "--format", "json", "-q"]
    modes = {"sequential": [], "together": [], "together --coop": ["--coop-name", name]}
    res = {m: [] for m in modes}
    out = open(a.out, "a") if a.out else None
    for rnd in range(a.rounds):
        for m, extra in modes.items():
            wall, kern, recs = run_mode(m, [base + extra, base + extra])
            res[m].append((wall, kern))
            parks = sum(r.get("parks") or 0 for r in recs)
            print("round %d  %-16s both done %.2f s  kernels %.2f s  parks %d" %
                  (rnd + 1, m, wall, kern, parks), flush=True)
            if out:
                out.write(json.dumps({"round": rnd + 1, "mode": m, "wall_s": wall,
                                      "kernel_s": kern, "parks": parks, "app": a.app,
                                      "input": a.input, "wl": a.wl, "threads": a.threads,
                                      "trials": a.trials}) + "\n")
    subprocess.run(["rm", "-f", "/dev/shm/" + name])
    seq_w = statistics.median(w for w, _ in res["sequential"])
    seq_k = statistics.median(k for _, k in res["sequential"])
    print("\n| mode | both done, s (median) | / one after the other | kernels, s | / one after "
          "the other |\n|---|---|---|---|---|")
    for m in modes:
        w = statistics.median(x for x, _ in res[m])
        k = statistics.median(y for _, y in res[m])
        print("| %s | %.2f | %.2f | %.2f | %.2f |" % (m, w, w / seq_w, k, k / seq_k))


if __name__ == "__main__":
    main()
