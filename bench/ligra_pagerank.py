#!/usr/bin/python3
"""ligra_pagerank.py - ordo's pagerank (its default, pull sweeps) beside Ligra's
PageRankDelta at the same accuracy (issue 46): the L1 distance of the ranks, scaled to
sum 1, from reference ranks.

  ORDO_LIGRA=LIGRA_DIR /usr/bin/python3 bench/ligra_pagerank.py [--graphs G,...]
      [--threads 1,2] [--rounds 3] [--trials 5] [--bin build/algorithms]

LIGRA_DIR is a clone of jshun/ligra (8763202 works); nothing in it needs building; this
script compiles bench/peer_drivers/ligra_prdelta.cc (Ligra's PageRankDelta.C unmodified,
its ranks kept and measured) into LIGRA_DIR/apps/ordo-ligra-prdelta, once or when the
driver is newer. Graphs: road2k and rmat20 (bench/yardsticks.sh) and soc-Slashdot0902 of
../shared/inputs (ORDO_INPUTS; skipped, said on stderr, when missing), each with one arc
per node pair and no self-loops (`ordo-convert --dedup`: Ligra's reader keeps duplicates,
which change PageRank), written once beside the yardsticks in ordo's format and as Ligra's
AdjacencyGraph, with reference ranks from `pagerank --tolerance 1e-10` (its check holds
them to that against a power iteration 100 times finer).

Ligra's PageRankDelta has no accuracy option (its epsilon2 = 0.01 leaves a node's change
unpropagated below 1% of its rank); a first Ligra run per graph measures the L1 error it
reaches, and ordo then runs with --tolerance that error (its rule guarantees the error
is at most that). Both sides' errors are printed; ordo's trials are verified. Interleaved
rounds, the order of the sides reversed every other round, kernel medians; Ligra's first,
untimed run of each process (its main's warm-up) is not counted.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import peers  # noqa: E402  (die, deduplicated)


def driver_built(out, src):
    """Whether OUT, built from the peer driver SRC, is newer than SRC and the header the
    drivers share (ref_ranks.hpp)."""
    deps = [src, os.path.join(HERE, "peer_drivers", "ref_ranks.hpp")]
    return os.path.exists(out) and all(os.path.getmtime(out) >= os.path.getmtime(d)
                                       for d in deps)


def compile_driver(name, out, flags, who):
    """bench/peer_drivers/NAME compiled with g++ FLAGS into OUT, once or when it or the
    header it shares (ref_ranks.hpp) is newer than OUT."""
    src = os.path.join(HERE, "peer_drivers", name)
    if driver_built(out, src):
        return out
    print("%s: compiling %s into %s" % (who, src, out), file=sys.stderr)
    p = subprocess.run(["g++"] + flags + [src, "-o", out + ".part"], capture_output=True,
                       text=True)
    if p.returncode:
        peers.die("cannot compile %s:\n%s" % (src, p.stderr[-800:]))
    os.replace(out + ".part", out)
    return out


def driver(ligra):
    return compile_driver("ligra_prdelta.cc", os.path.join(ligra, "apps", "ordo-ligra-prdelta"),
                          ["-std=c++14", "-fopenmp", "-march=native", "-O3", "-DOPENMP",
                           "-DBYTERLE", "-I" + os.path.join(ligra, "ligra"),
                           "-I" + os.path.join(ligra, "apps")], "ligra_pagerank.py")


def run(cmd, what, env=None):
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if p.returncode:
        peers.die("%s failed (%s):\n%s" % (what, " ".join(cmd), (p.stdout + p.stderr)[-500:]))
    return p.stdout


def prepare(bin_dir, data, name, source, ligra=True):
    """NAME-dedup.ordo, .adj (Ligra's; None without `ligra`) and .ref.f64 (reference
    ranks) in data, made once."""
    base = os.path.join(data, name + "-dedup")
    ordo = base + ".ordo"
    if source is None:  # a yardstick
        ordo = peers.deduplicated(bin_dir, data, name)
    elif not os.path.exists(ordo):
        run([os.path.join(bin_dir, "ordo-convert"), source, "--dedup", "-o", ordo + ".part",
             "--to", "native"], "ordo-convert")
        os.replace(ordo + ".part", ordo)
    adj = base + ".adj" if ligra else None
    if ligra and not os.path.exists(adj):  # Ligra's weighted text, its weights cut off
        w = base + ".w.adj"
        run([os.path.join(bin_dir, "ordo-convert"), ordo, "-o", w, "--to", "ligra"],
            "ordo-convert")
        with open(w) as f, open(adj + ".part", "w") as o:
            head = f.readline().strip()  # an unweighted graph's is AdjacencyGraph already
            if head not in ("WeightedAdjacencyGraph", "AdjacencyGraph"):
                peers.die("%s: not a Ligra adjacency graph (%s)" % (w, head))
            n, m = int(f.readline()), int(f.readline())
            o.write("AdjacencyGraph\n%d\n%d\n" % (n, m))
            for _ in range(n + m):
                o.write(f.readline())
        os.remove(w)
        os.replace(adj + ".part", adj)
    ref = base + ".ref.f64"
    if not os.path.exists(ref):
        import numpy  # Debian's python3-numpy
        npy = base + ".ref.npy"
        run([os.path.join(bin_dir, "pagerank"), ordo, "--tolerance", "1e-10", "-n", "1", "-q",
             "--output", npy], "the reference pagerank")
        numpy.load(npy).astype("<f8").tofile(ref + ".part")
        os.remove(npy)
        os.replace(ref + ".part", ref)
    return ordo, adj, ref


def trials_of(out, runs, who):
    """The "Trial Time" (as ms) and "L1" lines of a peer driver's output, `runs` of each."""
    times = [float(x) * 1e3 for x in re.findall(r"^Trial Time:\s+([0-9.]+)", out, re.M)]
    l1 = [float(x) for x in re.findall(r"^L1:\s+(\S+)", out, re.M)]
    if len(times) != runs or len(l1) != runs:
        peers.die("%s printed %d times for %d runs" % (who, len(times), runs))
    return times, l1


def common_args(ap):
    """The options every PageRank peer script takes."""
    ap.add_argument("--graphs", default="road2k,rmat20,soc-Slashdot0902")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--trials", type=int, default=5)
    ap.add_argument("--bin", default=os.environ.get(
        "ORDO_BIN", os.path.join(HERE, "..", "build", "algorithms")))


def ligra_run(binary, adj, ref, threads, trials):
    env = dict(os.environ, OMP_NUM_THREADS=str(threads), ORDO_REF_RANKS=ref)
    out = run([binary, "-rounds", str(trials), adj], "Ligra's PageRankDelta", env)
    times, l1 = trials_of(out, trials + 1, "Ligra's PageRankDelta")
    return times[1:], l1[1:]


def ordo_run(bin_dir, path, threads, trials, tol):
    import json
    out = run([os.path.join(bin_dir, "pagerank"), path, "-t", str(threads), "-n", str(trials),
               "--tolerance", repr(tol), "--format", "json", "-q"], "ordo's pagerank")
    recs = [json.loads(x) for x in out.splitlines() if x.startswith("{")]
    if len(recs) != trials or any(r["verify"] != "PASS" for r in recs):
        peers.die("ordo's pagerank on %s did not verify every trial" % path)
    return [r["time_s"] * 1e3 for r in recs], [r["l1_error"] for r in recs]


def graphs_of(names, who):
    """The graphs of --graphs (issue 46's three) whose input is here, the others said on
    stderr, and where each comes from (None: a yardstick of bench/yardsticks.sh)."""
    inputs = os.environ.get("ORDO_INPUTS", os.path.join(HERE, "..", "..", "shared", "inputs"))
    sources = {"road2k": None, "rmat20": None,
               "soc-Slashdot0902": os.path.join(inputs, "social", "soc-Slashdot0902.txt.zst")}
    graphs = []
    for g in names.split(","):
        if g not in sources:
            peers.die("--graphs: one of %s, got %s" % (", ".join(sources), g))
        if sources[g] is not None and not os.path.exists(sources[g]):
            print("%s: skipping %s: %s is missing" % (who, g, sources[g]), file=sys.stderr)
            continue
        graphs.append(g)
    if not graphs:
        peers.die("no graph to run")
    return graphs, sources


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    common_args(ap)
    a = ap.parse_args()
    ligra = os.environ.get("ORDO_LIGRA")
    if not ligra or not os.path.exists(os.path.join(ligra, "apps", "PageRankDelta.C")):
        peers.die("set ORDO_LIGRA to a jshun/ligra clone (got %s)" % ligra)
    binary = driver(ligra)
    data = peers.yardsticks()
    graphs, sources = graphs_of(a.graphs, "ligra_pagerank.py")
    threads = [int(t) for t in a.threads.split(",")]
    files, tol = {}, {}
    for g in graphs:
        files[g] = prepare(a.bin, data, g, sources[g])
        _, l1 = ligra_run(binary, files[g][1], files[g][2], 1, 1)
        tol[g] = float("%.3g" % (l1[0] * 0.999))  # ordo's bound: at most Ligra's error
        print("ligra_pagerank.py: %s: Ligra's PageRankDelta reaches L1 %.3e; ordo runs "
              "with --tolerance %g" % (g, l1[0], tol[g]), file=sys.stderr)
    times, errs = {}, {}
    for rnd in range(a.rounds):
        for g in graphs:
            for t in threads:
                sides = ["Ligra", "ordo"][::1 if rnd % 2 == 0 else -1]
                for side in sides:
                    if side == "Ligra":
                        v, e = ligra_run(binary, files[g][1], files[g][2], t, a.trials)
                    else:
                        v, e = ordo_run(a.bin, files[g][0], t, a.trials, tol[g])
                    times.setdefault((side, g, t), []).extend(v)
                    errs.setdefault((side, g, t), []).extend(e)
        print("ligra_pagerank.py: round %d of %d done" % (rnd + 1, a.rounds), file=sys.stderr)
    med = statistics.median
    print("| graph | threads | Ligra PageRankDelta ms | its L1 error | ordo ms | ordo's L1 "
          "error (--tolerance) | ordo / Ligra |")
    print("|---|---|---|---|---|---|---|")
    for g in graphs:
        for t in threads:
            lt, ot = med(times[("Ligra", g, t)]), med(times[("ordo", g, t)])
            print("| %s | %d | %.1f | %.2e | %.1f | %.2e (%g) | %.2f |" % (
                g, t, lt, max(errs[("Ligra", g, t)]), ot, max(errs[("ordo", g, t)]), tol[g],
                ot / lt))
    print("(medians of %d trials per side: %d interleaved rounds x %d; errors: the largest "
          "of any trial)" % (a.rounds * a.trials, a.rounds, a.trials))


if __name__ == "__main__":
    main()
