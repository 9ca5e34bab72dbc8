#!/usr/bin/env python3
"""galois_peer.py - ordo beside Galois 6 (IntelligentSoftwareSystems/Galois), built by the
user outside this tree, on the yardsticks: MST (Galois' Boruvka, `minimum-spanningtree-cpu`)
and BFS from node 0 (Galois' `bfs-cpu`, SyncTile), interleaved rounds, each process timed
by its own kernel clock (ordo's `time_s`, Galois' `Timer_0`); prints the medians and
ordo's time over Galois'.

  bench/galois_peer.py GALOIS_BUILD [--apps mst,bfs] [--graphs road2k,rmat20]
                       [--threads 1,2] [--rounds 3] [--trials 5]
                       [--ordo-wl mst=obim:delta=0 ...] [--bin build/algorithms]

GALOIS_BUILD is Galois' CMake build folder, with the targets `graph-convert`,
`minimum-spanningtree-cpu` and `bfs-cpu` made (`make graph-convert
minimum-spanningtree-cpu bfs-cpu`; it needs Boost's serialization and iostreams and
LLVM's development package). Its binary graphs are made once from the yardsticks'
DIMACS files by its converter (`-dimacs2gr`, 32-bit weights; its BFS ignores them)
into GALOIS_BUILD/ordo-yardsticks/. The yardsticks come from bench/yardsticks.sh
(ORDO_BENCH_DATA to reuse a directory; it needs ../shared/tools). Galois' MST makes
its input symmetric before its timer starts, as ordo symmetrises at load. Every ordo
trial is verified, and Galois verifies its own answers (a run that fails does not
count). Run it on a quiet machine.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from peers import run_ordo  # noqa: E402 (beside this script)
ORDO_WL = {"mst": "obim:delta=0", "bfs": "direction:auto"}


def die(msg):
    sys.exit("galois_peer.py: " + msg)


def galois_graph(build, data, graph):
    """GALOIS_BUILD/ordo-yardsticks/GRAPH.gr, made once by Galois' converter (its BFS
    reads the same file and ignores the weights)."""
    out_dir = os.path.join(build, "ordo-yardsticks")
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, graph + ".gr")
    if not os.path.exists(path):
        conv = os.path.join(build, "tools", "graph-convert", "graph-convert")
        cmd = [conv, "-dimacs2gr", "-edgeType=int32",
               os.path.join(data, graph + ".gr"), path + ".part"]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode:
            die("%s failed: %s" % (" ".join(cmd), (p.stderr or p.stdout)[-300:]))
        os.replace(path + ".part", path)
    return path


def galois_once(build, app, gr, threads):
    """One Galois run: its Timer_0 in ms, or None when it failed."""
    if app == "mst":
        exe = os.path.join(build, "lonestar", "analytics", "cpu", "spanningtree",
                           "minimum-spanningtree-cpu")
        cmd = [exe, gr, "-t=%d" % threads]
    else:
        exe = os.path.join(build, "lonestar", "analytics", "cpu", "bfs", "bfs-cpu")
        cmd = [exe, gr, "-t=%d" % threads, "-startNode=0", "-algo=SyncTile"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    m = re.search(r"^STAT, [^,]*, Timer_0, [A-Z]+, (\d+)", p.stdout, re.M)
    if p.returncode or not m:
        print("galois_peer.py: %s failed: %s" % (" ".join(cmd), (p.stderr or p.stdout)[-300:]),
              file=sys.stderr)
        return None
    return float(m.group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("galois_build")
    ap.add_argument("--apps", default="mst,bfs")
    ap.add_argument("--graphs", default="road2k,rmat20")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--trials", type=int, default=5)
    ap.add_argument("--ordo-wl", action="append", default=[],
                    help="APP=SPEC (a scheduler, or direction:D for bfs)")
    ap.add_argument("--bin", default=os.path.join(HERE, "..", "build", "algorithms"))
    a = ap.parse_args()
    wl = dict(ORDO_WL)
    for kv in a.ordo_wl:
        k, _, v = kv.partition("=")
        wl[k] = v
    apps = a.apps.split(",")
    for app in apps:
        if app not in ("mst", "bfs"):
            die("--apps: mst or bfs, not %r" % app)
    threads = [int(t) for t in a.threads.split(",")]
    data = os.environ.get("ORDO_BENCH_DATA") or os.path.join(HERE, "data")
    graphs = a.graphs.split(",")
    for g in graphs:
        for ext in (".gr", ".ordo"):
            if not os.path.exists(os.path.join(data, g + ext)):
                die("%s%s missing in %s (bench/yardsticks.sh makes it)" % (g, ext, data))
    gr = {g: galois_graph(a.galois_build, data, g) for g in graphs}
    ordo_ms, galois_ms = {}, {}
    for rnd in range(a.rounds):
        for app in apps:
            for g in graphs:
                for t in threads:
                    key = (app, g, t)
                    o, _ = run_ordo(a.bin, app, os.path.join(data, g + ".ordo"), t,
                                    a.trials, wl[app], source=0 if app == "bfs" else None)
                    ordo_ms.setdefault(key, []).append(statistics.median(o))
                    runs = [galois_once(a.galois_build, app, gr[g], t)
                            for _ in range(a.trials)]
                    runs = [r for r in runs if r is not None]
                    if runs:
                        galois_ms.setdefault(key, []).append(statistics.median(runs))
                    print("round %d: %s %s %dt: ordo %.1f ms, Galois %s ms" %
                          (rnd + 1, app, g, t, ordo_ms[key][-1],
                           "%.0f" % galois_ms[key][-1] if runs else "failed"),
                          file=sys.stderr)
    print("| app | graph | threads | ordo (spec) ms | Galois 6 ms | ordo / Galois |")
    print("|---|---|---|---|---|---|")
    for app in apps:
        for g in graphs:
            for t in threads:
                key = (app, g, t)
                o = statistics.median(ordo_ms[key])
                gm = statistics.median(galois_ms[key]) if key in galois_ms else None
                print("| %s | %s | %d | %.1f (`%s`) | %s | %s |" %
                      (app, g, t, o, wl[app], "%.0f" % gm if gm else "failed",
                       "%.2f" % (o / gm) if gm else "-"))
    print("\nMedians over %d interleaved rounds of per-round medians of %d trials; kernel "
          "time only (ordo: time_s, Galois: Timer_0)." % (a.rounds, a.trials))


if __name__ == "__main__":
    main()
