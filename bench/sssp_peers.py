#!/usr/bin/env python3
"""sssp_peers.py - ordo's SSSP beside the peers of issue 48, each built by the user outside
this tree and found through an environment variable; interleaved rounds on the
yardsticks, every side verified, kernel medians, ordo's time over the fastest peer's.

  bench/sssp_peers.py [--graphs road2k,rmat20] [--threads 1,2] [--rounds 3] [--trials 5]
                      [--ordo SPEC ...] [--ordo-reorder GRAPH=ORDER,...]
                      [--bin build/algorithms] [--raw FILE]

Peers (a missing one is named and skipped; none found is an error):
  ORDO_GAPBS  GAPBS's folder (sbeamer/gapbs; `make`): its sssp and converter. Its
              serialized .wsg files, made once into ORDO_GAPBS/ordo-yardsticks/, feed
              Wasp too. Delta-stepping with bucket fusion, -d 4096 (road2k) / 2 (rmat20).
  ORDO_WASP   Wasp's sssp binary (DIPSA-QUB/wasp; `cmake` + `make sssp` in build/: the
              binary is build/src/sssp-int32), -d 2048 (road2k) / 1 (rmat20), as the
              issue measured; it reads GAPBS's .wsg (so ORDO_GAPBS is needed too).
  ORDO_RHO    a Parallel-SSSP folder (ucrparlay/Parallel-SSSP, with cmuparlay/parlaylib
              checked out in its parlaylib/; 9e60787 works). Its own main times ten hashed
              sources, so this script compiles bench/peer_drivers/rho_sssp.cc around its
              unmodified solver header into ORDO_RHO/ordo-rho-sssp (once, or when the
              driver is newer) and runs rho-stepping from node 0 at its default rho (2^20),
              on GAPBS's .wsg (so ORDO_GAPBS is needed too), pulling on the symmetric graphs.
  ORDO_GBBS   a GBBS folder whose libraries are built: the copy vendored in
              ucrparlay/Parallel-KCore (baselines/gbbs; `make ROOTDIR=../../../` in
              benchmarks/PositiveWeightSSSP/DeltaStepping). GBBS's main prints no answer,
              so bench/peer_drivers/gbbs_sssp.cc, compiled into ORDO_GBBS/ordo-gbbs-sssp,
              runs its DeltaStepping unmodified and checks it; -delta 2048 (road2k) / 8
              (rmat20), the best of a one-thread sweep (RESULTS), on WeightedAdjacencyGraph
              files that ordo-convert writes once into ORDO_GBBS/ordo-yardsticks/.
  ORDO_MBQ    MBQ's sssp-cpu (mcj-group/mbq 25d3583 with its galois submodule fa1415c and
              cps 29eb151; Debian's llvm-14-dev, libfmt-dev, libboost-serialization-dev and
              libboost-iostreams-dev; in galois/libsupport/CMakeLists.txt the FetchContent of
              fmt replaced by find_package(fmt REQUIRED); cmake -DLLVM_DIR=/usr/lib/llvm-14/
              lib/cmake/llvm and make sssp-cpu): -algo=MQBucket with MBQ_ARGS below, on a
              Galois .gr that ordo-convert writes once beside the yardsticks (GRAPH.ggr); a
              process per trial, its runtime_ms, its own verification.

ordo runs its default (no --wl: the scheduler and delta its graph choose) and each
--ordo SPEC (a --wl spec, e.g. wasp or obim:delta=11); --ordo-reorder road2k=hilbert,
rmat20=rcm adds its default on copies renumbered in those orders (made once with
ordo-convert --reorder; still from the input's node 0), the issue's 0.85x target.
Each trial is verified; a peer's trial counts only if it printed its own verification
PASS. A trial of a driven peer (rho-stepping, GBBS) whose answer its driver finds wrong
is left out of that peer's times and counted under the table; any other failure, and
any wrong answer of ordo, GAPBS, Wasp or MBQ, stops the sitting. The ratio column is
ordo's median over the fastest peer's median in the same run. --raw FILE appends every
measurement as a JSON line when it is made (a run cut short keeps what it measured).
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import peers  # noqa: E402  (bench/peers.py: the yardsticks, GAPBS's graphs, ordo's runs)

GAPBS_D = {"road2k": 4096, "rmat20": 2}
WASP_D = {"road2k": 2048, "rmat20": 1}
GBBS_D = {"road2k": 2048, "rmat20": 8}
# MBQ (its MQBucket SSSP): delta, pop batch, push batch, stickiness; queues 4 per thread
# at one thread and 2 at more, as its authors' scripts (runssspmq.sh: USAr's values for
# the road graph, LJ's batches for the social one); the deltas from a one-thread sweep
MBQ_ARGS = {"road2k": (10, 64, 8, 64), "rmat20": (2, 128, 128, 1)}
NOT_DRIVEN = {}
DRIVERS = os.path.join(HERE, "peer_drivers")


def built_driver(name, out, cmd, link=()):
    """Compile bench/peer_drivers/NAME.cc into OUT with CMD (a list; LINK after the
    source), unless OUT is newer than the source and the header the drivers share; a
    failed build is an error that shows the compiler's last words."""
    src = os.path.join(DRIVERS, name + ".cc")
    newest = max(os.path.getmtime(src), os.path.getmtime(os.path.join(DRIVERS, "verdict.hpp")))
    if os.path.exists(out) and os.path.getmtime(out) >= newest:
        return out
    print("sssp_peers.py: compiling %s into %s" % (src, out), file=sys.stderr)
    p = subprocess.run(cmd + [src, "-o", out + ".part"] + list(link), capture_output=True,
                       text=True)
    if p.returncode:
        peers.die("cannot compile %s:\n%s" % (src, p.stderr[-800:]))
    os.replace(out + ".part", out)
    return out


def rho_driver(folder):
    return built_driver("rho_sssp", os.path.join(folder, "ordo-rho-sssp"), [
        "g++", "-std=c++17", "-O3", "-mcx16", "-march=native", "-pthread", "-I" + folder,
        "-I" + os.path.join(folder, "parlaylib", "include")])


def gbbs_driver(folder):
    libs = [os.path.join(folder, "bin", "gbbs", x) for x in
            ("graph_io.a", "io.a", "encodings/byte.a", "encodings/byte_pd.a",
             "encodings/byte_pd_amortized.a")]
    missing = [x for x in libs if not os.path.exists(x)]
    if missing:
        peers.die("ORDO_GBBS: %s is not built (run `make ROOTDIR=../../../` in "
                  "benchmarks/PositiveWeightSSSP/DeltaStepping)" % missing[0])
    return built_driver("gbbs_sssp", os.path.join(folder, "ordo-gbbs-sssp"), [
        "g++", "-std=c++17", "-O3", "-DNDEBUG", "-DGBBSLONG", "-DAMORTIZEDPD", "-DUSEMALLOC",
        "-mcx16", "-march=native", "-pthread", "-I" + folder,
        "-I" + os.path.join(folder, "external", "parlaylib", "include"),
        "-I" + os.path.join(folder, "benchmarks", "PositiveWeightSSSP", "DeltaStepping")],
        ["-Wl,--start-group"] + libs + ["-Wl,--end-group"])


def converted(bin_dir, data, graph, path, fmt):
    """PATH, the yardstick GRAPH in format FMT, made once by ordo-convert."""
    if not os.path.exists(path):
        cmd = [os.path.join(bin_dir, "ordo-convert"), os.path.join(data, graph + ".ordo"),
               "-o", path + ".part", "--to", fmt]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode:
            peers.die("%s failed: %s" % (" ".join(cmd), p.stderr[-300:]))
        os.replace(path + ".part", path)
    return path


def gbbs_graph(bin_dir, folder, data, graph):
    """FOLDER/ordo-yardsticks/GRAPH.adj, the yardstick as a WeightedAdjacencyGraph."""
    d = os.path.join(folder, "ordo-yardsticks")
    os.makedirs(d, exist_ok=True)
    return converted(bin_dir, data, graph, os.path.join(d, graph + ".adj"), "ligra")


def run_driver(cmd, threads):
    """A peer driver's ms for each trial whose answer its check passed, and how many
    trials it found wrong: a wrong answer is the peer's result, kept out of its times
    and counted (print_table names it), not a reason to stop the sitting. A driver that
    fails otherwise (no verdict for each trial, a crash) stops it."""
    env = dict(os.environ, PARLAY_NUM_THREADS=str(threads), OMP_NUM_THREADS=str(threads))
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    times = [float(x) * 1e3 for x in re.findall(r"^Trial Time:\s+([0-9.]+)", p.stdout, re.M)]
    verdicts = re.findall(r"^Verification:\s+(PASS|FAIL)", p.stdout, re.M)
    wrong = verdicts.count("FAIL")
    if not times or len(verdicts) != len(times) or (p.returncode != 0) != (wrong > 0):
        peers.die("%s failed or did not verify:\n%s" % (" ".join(cmd),
                                                         (p.stdout + p.stderr)[-500:]))
    for line in re.findall(r"^Verification:\s+FAIL.*$", p.stdout, re.M):
        print("sssp_peers.py: %s (threads %d): %s; that trial is not counted" % (
            " ".join(cmd), threads, line), file=sys.stderr)
    return [x for x, v in zip(times, verdicts) if v == "PASS"], wrong


def mbq_graph(bin_dir, data, graph):
    """data/GRAPH.ggr, the yardstick in Galois' binary format."""
    return converted(bin_dir, data, graph, os.path.join(data, graph + ".ggr"), "galois")


def run_mbq(binary, path, threads, trials, graph):
    """MBQ's runtime_ms (its kernel) of one process per trial, each verified by its own
    check ("Verification successful")."""
    d, b1, b2, stick = MBQ_ARGS.get(graph, (1, 128, 128, 1))
    cmd = [binary, "-startNode", "0", "-delta", str(d), "-threads", str(threads),
           "-t", str(threads), "-queues", str(4 if threads == 1 else 2 * threads),
           "-buckets", "64", "-batch1", str(b1), "-batch2", str(b2), "-prefetch", "1",
           "-stick", str(stick if threads > 1 else 1), "-algo=MQBucket", path]
    times = []
    for _ in range(trials):
        p = subprocess.run(cmd, capture_output=True, text=True)
        t = re.findall(r"^runtime_ms\s+([0-9.]+)", p.stdout, re.M)
        if p.returncode or len(t) != 1 or "Verification successful" not in p.stdout:
            peers.die("%s failed or did not verify:\n%s" % (" ".join(cmd),
                                                            (p.stdout + p.stderr)[-500:]))
        times.append(float(t[0]))
    return times


def run_wasp(binary, path, threads, trials, delta):
    cmd = [binary, "-f", path, "-n", str(trials), "-r", "0", "-d", str(delta), "-v"]
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    times = [float(x) * 1e3 for x in
             re.findall(r"^External Trial Time:\s+([0-9.]+)", p.stdout, re.M)]
    ok = len(re.findall(r"^Verification:\s+PASS", p.stdout, re.M))
    if p.returncode or len(times) != trials or ok != trials:
        peers.die("%s failed or did not verify:\n%s" % (" ".join(cmd),
                                                         (p.stdout + p.stderr)[-500:]))
    return times


def find_peers():
    """The peers found ({name: binary or folder}) and a line for each one missing."""
    def gapbs_ok(x):
        return all(os.access(os.path.join(x, b), os.X_OK) for b in ("sssp", "converter"))

    def rho_ok(x):
        return os.path.exists(os.path.join(x, "sssp.h")) and os.path.isdir(
            os.path.join(x, "parlaylib", "include"))

    def gbbs_ok(x):
        return os.path.exists(os.path.join(x, "benchmarks", "PositiveWeightSSSP",
                                           "DeltaStepping", "DeltaStepping.h"))

    def runnable(x):
        return os.access(x, os.X_OK)

    # name, variable, found when, what it then runs, needs GAPBS's files, what to give
    table = [
        ("GAPBS", "ORDO_GAPBS", gapbs_ok, None, False, "a built sbeamer/gapbs folder"),
        ("Wasp", "ORDO_WASP", runnable, None, True,
         "the sssp-int32 binary of a DIPSA-QUB/wasp build"),
        ("rho-stepping", "ORDO_RHO", rho_ok, rho_driver, True,
         "a ucrparlay/Parallel-SSSP folder with parlaylib/ checked out"),
        ("GBBS", "ORDO_GBBS", gbbs_ok, gbbs_driver, False,
         "the gbbs folder vendored in ucrparlay/Parallel-KCore, its libraries built"),
        ("MBQ", "ORDO_MBQ", runnable, None, False,
         "the sssp-cpu binary of mcj-group/mbq's galois, built with `make sssp-cpu`"),
    ]
    found, missing = {}, []
    for name, var, ok, make, needs_gapbs, what in table:
        x = os.environ.get(var)
        if x and ok(x) and (not needs_gapbs or "GAPBS" in found):
            found[name] = make(x) if make else x
        else:
            missing.append("%s (%s: %s%s%s)" % (
                name, var, what, ", and ORDO_GAPBS for its input files" if needs_gapbs
                else "", ", got %s" % x if x else ""))
    for var, what in NOT_DRIVEN.items():
        missing.append("%s (%s: not driven by this script yet)" % (what, var))
    return found, missing


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--graphs", default="road2k,rmat20")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--trials", type=int, default=5)
    ap.add_argument("--ordo", action="append", default=[], metavar="SPEC",
                    help="a --wl spec to run beside ordo's default")
    ap.add_argument("--ordo-reorder", metavar="GRAPH=ORDER,...",
                    help="also ordo's default on copies renumbered in ORDER")
    ap.add_argument("--raw", help="append each measurement to this file (JSON lines)")
    ap.add_argument("--bin", default=os.environ.get(
        "ORDO_BIN", os.path.join(HERE, "..", "build", "algorithms")))
    a = ap.parse_args()
    found, missing = find_peers()
    for m in missing:
        print("sssp_peers.py: not found, skipped: " + m, file=sys.stderr)
    if not found:
        peers.die("no peer found: set ORDO_GAPBS (and ORDO_WASP); see --help")
    data = peers.yardsticks()
    graphs, threads = a.graphs.split(","), [int(t) for t in a.threads.split(",")]
    reorder = {}
    for item in filter(None, (a.ordo_reorder or "").split(",")):
        g, _, o = item.partition("=")
        if g not in graphs or o not in ("rcm", "bfs", "degree", "hilbert"):
            peers.die("--ordo-reorder: GRAPH=ORDER with a graph of --graphs and an order "
                      "of rcm, bfs, degree or hilbert, got %s" % item)
        reorder[g] = o
    sides = list(found) + ["ordo"] + (["ordo renumbered"] if reorder else []) + \
        ["ordo " + s for s in a.ordo]
    times, used, wrong = {}, {}, {}
    for rnd in range(a.rounds):
        for g in graphs:
            wsg = peers.gapbs_graph(found["GAPBS"], data, g, True) if "GAPBS" in found \
                else None
            opath = os.path.join(data, g + ".ordo")
            for t in threads:
                order = sides if rnd % 2 == 0 else list(reversed(sides))
                for side in order:
                    bad = 0
                    if side == "GAPBS":
                        v = peers.run_gapbs(found["GAPBS"], "sssp", wsg, t, a.trials,
                                            GAPBS_D.get(g, 1))
                    elif side == "Wasp":
                        v = run_wasp(found["Wasp"], wsg, t, a.trials, WASP_D.get(g, 1))
                    elif side == "rho-stepping":
                        v, bad = run_driver([found[side], wsg, "-r", "0", "-n",
                                             str(a.trials), "-s"], t)
                    elif side == "MBQ":
                        v = run_mbq(found[side], mbq_graph(a.bin, data, g), t, a.trials, g)
                    elif side == "GBBS":
                        adj = gbbs_graph(a.bin, os.environ["ORDO_GBBS"], data, g)
                        v, bad = run_driver([found[side], adj, "-r", "0", "-n",
                                             str(a.trials), "-d", str(GBBS_D.get(g, 1))], t)
                    elif side == "ordo renumbered":
                        if g not in reorder:
                            continue
                        v, used[(side, g)] = peers.run_ordo(
                            a.bin, "sssp", peers.reordered(a.bin, data, g, reorder[g],
                                                           "ordo"), t, a.trials, "default")
                    else:
                        spec = side[5:] or "default"
                        v, used[(side, g)] = peers.run_ordo(a.bin, "sssp", opath, t,
                                                            a.trials, spec)
                    times.setdefault((side, g, t), []).extend(v)
                    if bad:
                        wrong[(side, g, t)] = wrong.get((side, g, t), 0) + bad
                    if a.raw:
                        with open(a.raw, "a") as f:
                            f.write(json.dumps({"side": side, "graph": g, "threads": t,
                                                "round": rnd, "ms": v, "wrong": bad}) + "\n")
        print("sssp_peers.py: round %d of %d done" % (rnd + 1, a.rounds), file=sys.stderr)
    print_table(a, found, sides, graphs, threads, times, used, reorder, wrong)


def print_table(a, found, sides, graphs, threads, times, used, reorder, wrong):
    """The issue's table: each side's medians, then ordo's rows over the fastest peer
    and each scheduler over its authors' code."""
    med = statistics.median
    peer_names = list(found)
    cols = [(g, t) for g in graphs for t in threads]

    def median_of(side, g, t):  # None: no trial of that side passed its check
        v = times.get((side, g, t))
        return med(v) if v else None

    def cell(side, g, t, fmt, scale=1.0):  # scale None: nothing to divide by
        v = median_of(side, g, t)
        return fmt % (v / scale) if v is not None and scale is not None else "-"

    print("| SSSP, ms (median) | " + " | ".join("%s t%d" % c for c in cols) + " |")
    print("|---" * (len(cols) + 1) + "|")
    for side in sides:
        label = side if side in found else "ordo `%s`" % side[5:]
        if side in ("ordo", "ordo renumbered"):
            label = "ordo default%s (" % (" renumbered" if side != "ordo" else "") + \
                ", ".join("%s `%s`%s" % (g, used[(side, g)], ", " + reorder[g]
                                         if side != "ordo" else "")
                          for g in graphs if (side, g) in used) + ")"
        print("| %s | " % label + " | ".join(cell(side, g, t, "%.0f") for g, t in cols) +
              " |")
    for side in [s for s in sides if s not in found]:
        name = {"ordo": "default", "ordo renumbered": "renumbered"}.get(side, side[5:])
        print("| %s / fastest peer | " % name + " | ".join(
            cell(side, g, t, "%.2f", min((x for x in (median_of(p, g, t) for p in peer_names)
                                          if x is not None), default=None))
            for g, t in cols) + " |")
    for side in sides:  # a scheduler beside its authors' code: `wasp` / Wasp, `mbq` / MBQ
        peer = {p.lower(): p for p in peer_names}.get(side[5:])
        if side.startswith("ordo ") and peer:
            print("| `%s` / %s | " % (side[5:], peer) + " | ".join(
                cell(side, g, t, "%.2f", median_of(peer, g, t)) for g, t in cols) + " |")
    for (side, g, t), k in sorted(wrong.items()):
        print("(%s, %s, %d threads: %d of %d trials gave a wrong answer and are not in its "
              "median%s)" % (side, g, t, k, a.rounds * a.trials,
                             "; no trial passed" if not times.get((side, g, t)) else ""))
    print("(medians of %d trials per side: %d interleaved rounds x %d, the order of the "
          "sides reversed every other round; peers: %s; deltas GAPBS %s, Wasp %s, GBBS %s; "
          "rho-stepping's rho 2^20; MBQ's delta, batches and stickiness %s)" % (
              a.rounds * a.trials, a.rounds, a.trials, ", ".join(peer_names), GAPBS_D, WASP_D,
              GBBS_D, MBQ_ARGS))

if __name__ == "__main__":
    main()
