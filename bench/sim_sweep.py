#!/usr/bin/env python3
"""sim_sweep.py - what P workers would do: an app under the linearized executor
(`--sim P`, runtime/README.md) for every scheduler at its defaults over P, beside real
runs at the thread counts this machine has, so the simulation's figures can be read
against the real ones.

  bench/sim_sweep.py [--app sssp] [--graphs gen:road:W=200,H=200,gen:rmat:scale=14]
                     [--workers 1,2,4,16,64,256] [--wl SPEC ...] [--dist DIST]
                     [--real 1,2] [--trials 5] [--jobs 1] [--bin build/algorithms]

Every run is verified (a wrong answer stops the sweep). A simulated run is a function of
its seed, so one trial per cell; the real runs take --trials trials each (their work
ratio varies with the interleaving: median [min-max]). --dist appends a distribution to
every P (gamma=0.5, slow=1,f=0.1, cores=2,slice=1000). Prints two Markdown tables per
graph: the work ratio (tasks over the sequential baseline's) and the mean rank error of
the pops, schedulers by P. --jobs N runs N simulations at once (each is one thread),
after every real run, so that no simulation shares the cores with a real one.
"""
import argparse
import concurrent.futures
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def schedulers(binary):
    out = subprocess.run([binary, "--wl", "help"], capture_output=True, text=True).stdout
    return [ln.split()[0] for ln in out.splitlines() if ln.startswith("  ") and
            not ln.startswith("   ") and ln.split()]


def records(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    recs = [json.loads(x) for x in p.stdout.splitlines() if x.startswith("{")]
    if p.returncode or not recs or any(r["verify"] != "PASS" for r in recs):
        sys.exit("sim_sweep.py: %s failed or did not verify:\n%s" % (" ".join(cmd),
                                                                     p.stderr[-400:]))
    return recs


def graph_args(g):
    return ["--gen", g[4:]] if g.startswith("gen:") else [g]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--app", default="sssp")
    ap.add_argument("--graphs", default="gen:road:W=200,H=200,gen:rmat:scale=14")
    ap.add_argument("--workers", default="1,2,4,16,64,256")
    ap.add_argument("--wl", action="append", default=[])
    ap.add_argument("--dist", default="")
    ap.add_argument("--real", default="1,2")
    ap.add_argument("--trials", type=int, default=5)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--bin", default=os.environ.get(
        "ORDO_BIN", os.path.join(HERE, "..", "build", "algorithms")))
    a = ap.parse_args()
    binary = os.path.join(a.bin, a.app)
    wls = a.wl or schedulers(binary)
    # the graphs: a comma inside a generator's spec belongs to it ("gen:" starts one)
    graphs, cur = [], None
    for part in a.graphs.split(","):
        if part.startswith("gen:") or cur is None or not cur.startswith("gen:") or \
                "=" not in part:
            if cur:
                graphs.append(cur)
            cur = part
        else:
            cur += "," + part
    graphs.append(cur)
    Ps = [int(x) for x in a.workers.split(",")]
    reals = [int(x) for x in a.real.split(",") if x]
    base = [binary, "-r", "0", "--format", "json", "-q", "--seed", "1"]
    work, rank, real = {}, {}, {}
    for g in graphs:  # the real runs first, one at a time: they own the cores
        for wl in wls:
            for T in reals:
                rs = records(base + graph_args(g) + ["-n", str(a.trials), "-t", str(T),
                                                     "--lookahead", "0", "--wl", wl])
                real[(g, wl, T)] = [x["work_ratio"] for x in rs]
        print("sim_sweep.py: %s real runs done" % g, file=sys.stderr)

    def simulate(cell):
        g, wl, P = cell
        spec = str(P) + (":" + a.dist if a.dist else "")
        return records(base + graph_args(g) + ["-n", "1", "--sim", spec, "--wl", wl])[0]

    cells = [(g, wl, P) for g in graphs for wl in wls for P in Ps]
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
        for cell, r in zip(cells, pool.map(simulate, cells)):
            work[cell], rank[cell] = r["work_ratio"], r["rank_mean"]
            if cell[2] == Ps[-1]:
                print("sim_sweep.py: %s %s simulated" % cell[:2], file=sys.stderr)
    for g in graphs:
        head = "| scheduler | " + " | ".join("P=%d" % P for P in Ps)
        print("\n%s on %s%s: work ratio (simulated P workers; real T threads, median "
              "[min-max] of %d)\n" % (a.app, g, ", " + a.dist if a.dist else "", a.trials))
        print(head + "".join(" | real T=%d" % T for T in reals) + " |")
        print("|---" * (1 + len(Ps) + len(reals)) + "|")
        for wl in wls:
            cells = ["%.3f" % work[(g, wl, P)] for P in Ps]
            for T in reals:
                v = real[(g, wl, T)]
                cells.append("%.3f [%.3f-%.3f]" % (statistics.median(v), min(v), max(v)))
            print("| `%s` | %s |" % (wl, " | ".join(cells)))
        print("\n%s on %s%s: mean rank error of the pops (simulated)\n" % (
            a.app, g, ", " + a.dist if a.dist else ""))
        print(head + " |")
        print("|---" * (1 + len(Ps)) + "|")
        for wl in wls:
            print("| `%s` | %s |" % (wl, " | ".join(
                "-" if rank[(g, wl, P)] is None else "%.1f" % rank[(g, wl, P)] for P in Ps)))


if __name__ == "__main__":
    main()
