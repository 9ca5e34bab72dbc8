#!/usr/bin/env python3
"""peers.py - ordo beside GAPBS (sbeamer/gapbs), built by the user outside this tree, on
the yardsticks: BFS and SSSP from node 0 (DIMACS node 1), and connected components
(components: GAPBS's cc, Afforest, beside ordo's default, Afforest too) and PageRank
(pagerank: GAPBS's pr, Gauss-Seidel pull, beside ordo's default pull sweeps, both
stopping at the same L1 step), interleaved rounds, each process timed by its own kernel
clock; prints the medians and ordo's time over GAPBS's.

  bench/peers.py GAPBS_DIR [--apps bfs,sssp] [--graphs road2k,rmat20] [--threads 1,2]
                 [--rounds 3] [--trials 5] [--ordo-wl bfs=direction:auto ...]
                 [--gapbs-delta sssp/road2k=DELTA ...] [--bin build/algorithms]
                 [--ordo-reorder ORDER|GRAPH=ORDER,... [--gapbs-reorder]] [--ordo-dedup]
                 [--pr-step EPS]

GAPBS_DIR holds GAPBS's `bfs`, `sssp`, `cc`, `pr` and `converter` (`make` there). Its
serialized graphs (.sg for BFS, components and PageRank, .wsg for SSSP) are made once from the yardsticks' DIMACS files by
its converter, into GAPBS_DIR/ordo-yardsticks/. The yardsticks come from
bench/yardsticks.sh (ORDO_BENCH_DATA to reuse a directory; it needs ../shared/tools).
Every ordo trial is verified; a GAPBS run counts only if it says it verified (-v).
ordo's BFS runs its frontier mode by default (`--ordo-wl bfs=direction:auto`; any
`direction:D` is passed as `--direction D`); a scheduler spec runs the scheduled form.
ordo's SSSP runs at its own default (`--ordo-wl sssp=default`: no --wl, the delta from
the graph).
Both take the thread count from the same number (OMP_NUM_THREADS for GAPBS). Run it on
a quiet machine: GAPBS's level-synchronous loops suffer badly from oversubscription.

PageRank: GAPBS's pr stops when a sweep changes the scores by less than --pr-step (default
1e-4) in L1 (`-i 1000 -t EPS`); ordo's pagerank runs with --tolerance EPS 2d / (1 - d)^2,
the tolerance whose worst-case bound (every node dangling; ordo_pagerank.h) asks for that
step. That was the same stopping point while both swept plain Gauss-Seidel; ordo's sweeps
are now over-relaxed and its rule counts the ranks' sum, so it stops earlier there, a
little further from the exact ranks: bench/gapbs_pagerank.py compares the two at
measured accuracy. Use --ordo-dedup there: PageRank of a graph with duplicate arcs is
another vector, and GAPBS's builder drops them.

--ordo-dedup runs ordo on the yardsticks loaded with --dedup (made once, GRAPH-dedup.ordo):
GAPBS's builder drops duplicate arcs and self-loops, so this is the same graph it runs.

--ordo-reorder runs ordo on the yardsticks renumbered in an order (rcm, bfs, degree or
hilbert), one for every graph or per graph (road2k=hilbert,rmat20=rcm). The renumbered
copies are made once with `ordo-convert --reorder`, beside the yardsticks (the one-time
renumbering is printed); ordo still starts from input node 0. --gapbs-reorder gives
GAPBS the same renumbered graphs (through a DIMACS file, from the same node), so the
order's own share of a difference shows.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ORDO_WL = {"bfs": "direction:auto", "sssp": "default", "components": "default",
           "pagerank": "default"}
GAPBS_NAME = {"components": "cc", "pagerank": "pr"}  # GAPBS's binary, where its own name
WHOLE_GRAPH = ("components", "pagerank")  # apps without a source
DAMPING = 0.85  # GAPBS's kDamp, and ordo's default
GAPBS_DELTA = {("sssp", "road2k"): 4096, ("sssp", "rmat20"): 32}


def die(msg):
    sys.exit("peers.py: " + msg)


def reordered(bin_dir, data, graph, order, ext):
    """data/GRAPH-ORDER.EXT (ordo or gr), made once from the yardstick's .ordo."""
    path = os.path.join(data, "%s-%s.%s" % (graph, order, ext))
    if not os.path.exists(path):
        convert = os.path.join(bin_dir, "ordo-convert")
        if ext == "ordo":  # keeps the coordinates (hilbert needs them) and the input ids
            cmd = [convert, os.path.join(data, graph + ".ordo"), "--reorder", order]
        else:  # GAPBS reads DIMACS; no .co beside it; the id map says where node 0 went
            cmd = [convert, reordered(bin_dir, data, graph, order, "ordo"), "--no-coords",
                   "--id-map", path[:-3] + ".map"]
        cmd += ["-o", path + ".part", "--to", "native" if ext == "ordo" else "dimacs"]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode:
            die("%s failed: %s" % (" ".join(cmd), p.stderr[-300:]))
        if ext == "ordo":
            m = re.search(r"renumbered in \S+ order in ([0-9.]+) s", p.stderr)
            print("peers.py: %s renumbered (%s) in %s s, once" % (graph, order,
                  m.group(1) if m else "?"), file=sys.stderr)
        os.replace(path + ".part", path)
    return path


def yardsticks():
    """The folder of the yardsticks, made by bench/yardsticks.sh when missing."""
    y = subprocess.run(["sh", os.path.join(HERE, "yardsticks.sh")], capture_output=True,
                       text=True)
    if y.returncode:
        die("cannot make the yardsticks: " + y.stderr.strip()[-300:])
    return y.stdout.strip()


def deduplicated(bin_dir, data, graph):
    """data/GRAPH-dedup.ordo: one arc per node pair, no self-loops, as GAPBS's builder
    keeps; made once from the yardstick's DIMACS file."""
    path = os.path.join(data, graph + "-dedup.ordo")
    if not os.path.exists(path):
        cmd = [os.path.join(bin_dir, "ordo-convert"), os.path.join(data, graph + ".gr"),
               "--dedup", "-o", path + ".part", "--to", "native"]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode:
            die("%s failed: %s" % (" ".join(cmd), p.stderr[-300:]))
        os.replace(path + ".part", path)
    return path


def new_id_of_zero(data, graph, order):
    """The node of data/GRAPH-ORDER.gr that is the yardstick's node 0."""
    with open(os.path.join(data, "%s-%s.map" % (graph, order))) as f:
        for line in f:
            if not line.startswith("#") and line.split()[1] == "0":
                return int(line.split()[0])
    die("no node 0 in the id map of %s-%s" % (graph, order))


def gapbs_graph(gdir, data, graph, weighted, src=None, tag=""):
    out_dir = os.path.join(gdir, "ordo-yardsticks")
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, graph + tag + (".wsg" if weighted else ".sg"))
    if not os.path.exists(path):
        src = src or os.path.join(data, graph + ".gr")
        if not os.path.exists(src):
            die("%s is missing (bench/yardsticks.sh makes it)" % src)
        flag = "-wb" if weighted else "-b"
        p = subprocess.run([os.path.join(gdir, "converter"), "-f", src, flag, path + ".part"],
                           capture_output=True, text=True)
        if p.returncode:
            die("GAPBS converter failed: " + p.stderr[-300:])
        os.replace(path + ".part", path)
    return path


def run_gapbs(gdir, app, path, threads, trials, delta, source=0, extra=()):
    cmd = [os.path.join(gdir, GAPBS_NAME.get(app, app)), "-f", path, "-n", str(trials), "-v"]
    if app not in WHOLE_GRAPH:
        cmd += ["-r", str(source)]
    cmd += list(extra)
    if app == "sssp":
        cmd += ["-d", str(delta)]
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    times = [float(x) * 1e3 for x in re.findall(r"^Trial Time:\s+([0-9.]+)", p.stdout, re.M)]
    ok = len(re.findall(r"^Verification:\s+PASS", p.stdout, re.M))
    if p.returncode or len(times) != trials or ok != trials:
        die("%s failed or did not verify:\n%s" % (" ".join(cmd), (p.stdout + p.stderr)[-500:]))
    return times


def run_ordo(bin_dir, app, path, threads, trials, wl, source=0, extra=()):
    """ordo's per-trial kernel ms (every trial verified) and the scheduler it ran; source
    None for an app without one (mst). Also used by galois_peer.py."""
    # "direction:D" runs bfs's frontier mode (--direction D) instead of a scheduler
    how = (["--direction", wl.split(":", 1)[1]] if wl.startswith("direction:") else
           [] if wl == "default" else ["--wl", wl])  # default: the app's own choice
    where = [] if source is None else ["-r", str(source)]
    cmd = [os.path.join(bin_dir, app), path, "-t", str(threads)] + where + [
        "-n", str(trials), "--format", "json", "-q"] + how + list(extra)
    p = subprocess.run(cmd, capture_output=True, text=True)
    recs = [json.loads(line) for line in p.stdout.splitlines() if line.startswith("{")]
    if p.returncode or len(recs) != trials or any(r["verify"] != "PASS" for r in recs):
        die("%s failed or did not verify:\n%s" % (" ".join(cmd), p.stderr[-500:]))
    return [r["time_s"] * 1e3 for r in recs], wl if wl.startswith("direction:") else \
        recs[0]["scheduler"]


def print_table(a, apps, graphs, threads, wl, names, times, orders, ordo_extra):
    med = statistics.median
    print("| app | graph | threads | GAPBS ms | ordo ms | ordo scheduler | ordo / GAPBS |")
    print("|---|---|---|---|---|---|---|")
    for app in apps:
        for g in graphs:
            for t in threads:
                ga, ob = med(times[(app, g, t, "gapbs")]), med(times[(app, g, t, "ordo")])
                how = "Afforest (no scheduler)" if app == "components" and wl[app] == "default" \
                    else "pull sweeps (no scheduler)" if app == "pagerank" and \
                    wl[app] == "default" else "`%s`" % names[(app, g)]
                print("| %s | %s | %d | %.1f | %.1f | %s | %.2f |" % (
                    app, g, t, ga, ob, how, ob / ga))
    print("(medians of %d trials per side: %d interleaved rounds x %d, alternating which "
          "side goes first)" % (a.rounds * a.trials, a.rounds, a.trials))
    if "pagerank" in apps:
        print("(PageRank: GAPBS `-t %g`, ordo `--tolerance %s`, the tolerance whose worst-case "
              "bound asks for that step; gapbs_pagerank.py compares accuracy)"
              % (a.pr_step, ordo_extra["pagerank"][1]))
    if a.ordo_dedup:
        print("(ordo on the yardsticks loaded with --dedup, as GAPBS's builder drops "
              "duplicate arcs and self-loops)")
    if orders:
        print("(ordo on the yardsticks renumbered with --reorder: %s; GAPBS on %s)" % (
            ", ".join("%s %s" % kv for kv in sorted(orders.items())),
            "the same renumbered graphs" if a.gapbs_reorder else "the input order"))


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("gapbs_dir")
    ap.add_argument("--apps", default="bfs,sssp")
    ap.add_argument("--graphs", default="road2k,rmat20")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--trials", type=int, default=5)
    ap.add_argument("--ordo-wl", action="append", default=[], metavar="APP=SPEC")
    ap.add_argument("--gapbs-delta", action="append", default=[], metavar="APP/GRAPH=D")
    ap.add_argument("--ordo-reorder", metavar="ORDER|GRAPH=ORDER,...")
    ap.add_argument("--gapbs-reorder", action="store_true")
    ap.add_argument("--ordo-dedup", action="store_true")
    ap.add_argument("--pr-step", type=float, default=1e-4, metavar="EPS")
    ap.add_argument("--bin", default=os.environ.get("ORDO_BIN",
                                                    os.path.join(HERE, "..", "build", "algorithms")))
    a = ap.parse_args()
    wl = dict(ORDO_WL)
    for kv in a.ordo_wl:
        k, _, v = kv.partition("=")
        wl[k] = v
    delta = dict(GAPBS_DELTA)
    for kv in a.gapbs_delta:
        k, _, v = kv.partition("=")
        app, _, graph = k.partition("/")
        delta[(app, graph)] = int(v)
    for tool in [GAPBS_NAME.get(x, x) for x in a.apps.split(",")] + ["converter"]:
        if not os.access(os.path.join(a.gapbs_dir, tool), os.X_OK):
            die("no %s in %s (run make there)" % (tool, a.gapbs_dir))
    data = yardsticks()
    apps, graphs = a.apps.split(","), a.graphs.split(",")
    orders = {}
    for item in (a.ordo_reorder or "").split(","):
        if item:
            graph, eq, order = item.rpartition("=")
            for gr in ([graph] if eq else graphs):
                orders[gr] = order
    if any(o not in ("rcm", "bfs", "degree", "hilbert") for o in orders.values()):
        die("--ordo-reorder: an order is rcm, bfs, degree or hilbert")
    threads = [int(t) for t in a.threads.split(",")]
    gapbs_extra = {"pagerank": ["-i", "1000", "-t", repr(a.pr_step)]}
    ordo_extra = {"pagerank": ["--tolerance",
                               repr(a.pr_step * 2 * DAMPING / (1 - DAMPING) ** 2)]}
    times, names = {}, {}
    for rnd in range(a.rounds):
        for app in apps:
            for g in graphs:
                o, gsrc = orders.get(g), 0
                if a.gapbs_reorder and o:
                    gpath = gapbs_graph(a.gapbs_dir, data, g, app == "sssp",
                                        reordered(a.bin, data, g, o, "gr"), "-" + o)
                    gsrc = new_id_of_zero(data, g, o)  # the same node as ordo's -r 0
                else:
                    gpath = gapbs_graph(a.gapbs_dir, data, g, app == "sssp")
                opath = reordered(a.bin, data, g, o, "ordo") if o else \
                    deduplicated(a.bin, data, g) if a.ordo_dedup else \
                    os.path.join(data, g + ".ordo")
                for t in threads:
                    sides = ["gapbs", "ordo"]
                    if rnd % 2:
                        sides.reverse()
                    for side in sides:
                        if side == "gapbs":
                            v = run_gapbs(a.gapbs_dir, app, gpath, t, a.trials,
                                          delta.get((app, g), 1), gsrc,
                                          gapbs_extra.get(app, ()))
                        else:
                            v, names[(app, g)] = run_ordo(
                                a.bin, app, opath, t, a.trials, wl[app],
                                None if app in WHOLE_GRAPH else 0, ordo_extra.get(app, ()))
                        times.setdefault((app, g, t, side), []).extend(v)
        print("peers.py: round %d of %d done" % (rnd + 1, a.rounds), file=sys.stderr)
    print_table(a, apps, graphs, threads, wl, names, times, orders, ordo_extra)

if __name__ == "__main__":
    main()
