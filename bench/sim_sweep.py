#!/usr/bin/env python3
"""sim_sweep.py - what P workers would do: an app under the linearized executor
(`--sim P`, runtime/README.md) for every scheduler at its defaults over P, beside real
runs at the thread counts this machine has, so the simulation's figures can be read
against the real ones.

  bench/sim_sweep.py [--app sssp] [--graphs gen:road:W=200,H=200,gen:rmat:scale=14]
                     [--workers 1,2,4,16,64,256] [--wl SPEC ...] [--dist DIST]
                     [--real 1,2] [--trials 5] [--jobs 1] [--bin build/algorithms]
                     [--timeout S] [--json FILE] [--plot FILE.png]
  bench/sim_sweep.py --replot FILE.json --plot FILE.png

Every run is verified (a wrong answer stops the sweep). A simulated run is a function of
its seed, so one trial per cell; the real runs take --trials trials each (their work
ratio varies with the interleaving: median [min-max]). --dist appends a distribution to
every P (gamma=0.5, slow=1,f=0.1, cores=2,slice=1000). Prints two Markdown tables per
graph: the work ratio (tasks over the sequential baseline's) and the mean rank error of
the pops, schedulers by P. --jobs N runs N simulations at once (each is one thread),
after every real run, so that no simulation shares the cores with a real one.
--timeout S gives up a simulation after S seconds (its cells print "-", named on
stderr); --json writes every cell's record (simulated and real) as JSON lines; --plot
draws work ratio and mean rank error against P, one line per scheduler, one row of two
panels per graph (matplotlib).
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


def records(cmd, timeout=None):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        print("sim_sweep.py: gave up after %s s: %s" % (timeout, " ".join(cmd)),
              file=sys.stderr)
        return None
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
    ap.add_argument("--timeout", type=float, default=None)
    ap.add_argument("--json", help="every record, as JSON lines")
    ap.add_argument("--plot", help="a PNG of work ratio and rank error against P")
    ap.add_argument("--replot", metavar="JSON",
                    help="no runs: draw --plot from a --json file of an earlier sweep")
    ap.add_argument("--bin", default=os.environ.get(
        "ORDO_BIN", os.path.join(HERE, "..", "build", "algorithms")))
    a = ap.parse_args()
    if a.replot:
        return replot(a)
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
    # the query: node 0 for the single-source apps, the app's own (a seeded random pair
    # for astar; none for mst) otherwise
    query = ["-r", "0"] if a.app in ("sssp", "bfs") else []
    base = [binary] + query + ["--format", "json", "-q", "--seed", "1"]
    work, rank, real, sims, reals_recs = {}, {}, {}, {}, []
    for g in graphs:  # the real runs first, one at a time: they own the cores
        for wl in wls:
            for T in reals:
                rs = records(base + graph_args(g) + ["-n", str(a.trials), "-t", str(T),
                                                     "--lookahead", "0", "--wl", wl])
                real[(g, wl, T)] = [x["work_ratio"] for x in rs]
                reals_recs += rs
        print("sim_sweep.py: %s real runs done" % g, file=sys.stderr)

    def simulate(cell):
        g, wl, P = cell
        spec = str(P) + (":" + a.dist if a.dist else "")
        rs = records(base + graph_args(g) + ["-n", "1", "--sim", spec, "--wl", wl],
                     a.timeout)
        return rs[0] if rs else None

    cells = [(g, wl, P) for g in graphs for wl in wls for P in Ps]
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
        for cell, r in zip(cells, pool.map(simulate, cells)):
            sims[cell] = r
            work[cell], rank[cell] = (r["work_ratio"], r["rank_mean"]) if r else (None, None)
            if cell[2] == Ps[-1]:
                print("sim_sweep.py: %s %s simulated" % cell[:2], file=sys.stderr)
    for g in graphs:
        head = "| scheduler | " + " | ".join("P=%d" % P for P in Ps)
        print("\n%s on %s%s: work ratio (simulated P workers; real T threads, median "
              "[min-max] of %d)\n" % (a.app, g, ", " + a.dist if a.dist else "", a.trials))
        print(head + "".join(" | real T=%d" % T for T in reals) + " |")
        print("|---" * (1 + len(Ps) + len(reals)) + "|")
        for wl in wls:
            cells = ["-" if work[(g, wl, P)] is None else "%.3f" % work[(g, wl, P)]
                     for P in Ps]
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

    if a.json:
        with open(a.json, "w") as f:
            for r in [r for r in sims.values() if r] + reals_recs:
                f.write(json.dumps(r) + "\n")
    if a.plot:
        plot(a.plot, a.app, graphs, wls, Ps, work, rank, a.dist)


def replot(a):
    """--plot from the simulated records of an earlier --json."""
    import gzip
    with (gzip.open if a.replot.endswith(".gz") else open)(a.replot, "rt") as f:
        recs = [json.loads(x) for x in f if x.startswith("{")]
    recs = [r for r in recs if r.get("sim")]
    if not recs or not a.plot:
        sys.exit("sim_sweep.py: --replot needs --plot and a --json file with simulated "
                 "records")
    graphs, wls, Ps, work, rank = [], [], set(), {}, {}
    for r in recs:
        g, wl = r["input"], r["scheduler"].split(":")[0]
        P = int(r["sim"].split(":")[0])
        graphs += [g] if g not in graphs else []
        wls += [wl] if wl not in wls else []
        Ps.add(P)
        work[(g, wl, P)], rank[(g, wl, P)] = r["work_ratio"], r["rank_mean"]
    dist = recs[0]["sim"].partition(":")[2]
    plot(a.plot, recs[0]["algorithm"], graphs, wls, sorted(Ps), work, rank, dist)


def plot(path, app, graphs, wls, Ps, work, rank, dist):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter, NullFormatter
    cmap = plt.get_cmap("tab20")
    style = {wl: (cmap(i % 20), "os^vD<>ph*"[i % 10]) for i, wl in enumerate(wls)}
    fig, axes = plt.subplots(len(graphs), 2, figsize=(12, 4.2 * len(graphs)), squeeze=False)
    for row, g in enumerate(graphs):
        for col, (what, label) in enumerate(((work, "work ratio (tasks / baseline's)"),
                                             (rank, "mean rank error of the pops"))):
            ax = axes[row][col]
            for wl in wls:
                pts = [(P, what[(g, wl, P)]) for P in Ps if what.get((g, wl, P)) is not None
                       and (col == 0 or what[(g, wl, P)] > 0)]
                if pts:
                    ax.plot([p for p, _ in pts], [v for _, v in pts], "-",
                            marker=style[wl][1], color=style[wl][0], label=wl, ms=4)
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            if col == 0:  # work ratios: readable numbers on the log axis
                lo, hi = ax.get_ylim()
                ticks = [t for t in (1, 1.25, 1.5, 2, 2.5, 3, 4, 5, 7, 10, 15, 20, 30, 50,
                                     100) if lo <= t <= hi]
                ax.set_yticks(ticks)
                ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: "%g" % v))
                ax.yaxis.set_minor_formatter(NullFormatter())
            ax.set_xticks(Ps, [str(P) for P in Ps])
            ax.minorticks_off()
            ax.set_xlabel("simulated workers P" + (" (%s)" % dist if dist else ""))
            ax.set_ylabel(label)
            ax.set_title("%s on %s" % (app, os.path.basename(g)), fontsize=10)
            ax.grid(True, alpha=0.3)
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=min(6, len(labels)), frameon=False)
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    fig.savefig(path, dpi=64)
    print("sim_sweep.py: wrote " + path, file=sys.stderr)


if __name__ == "__main__":
    main()
