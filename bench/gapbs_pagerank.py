#!/usr/bin/python3
"""gapbs_pagerank.py - ordo's pagerank (its default, over-relaxed pull sweeps) beside GAPBS's
pr (Gauss-Seidel pull sweeps) at measured accuracy (issue 46): the L1 distance of each
side's ranks, scaled to sum 1, from reference ranks.

  ORDO_GAPBS=GAPBS_DIR /usr/bin/python3 bench/gapbs_pagerank.py [--graphs G,...]
      [--threads 1,2] [--rounds 3] [--trials 5] [--step 1e-4] [--bin build/algorithms]

GAPBS_DIR is a built clone of sbeamer/gapbs (`make` there; b5e3e19 works). This script
compiles bench/peer_drivers/gapbs_pr.cc (GAPBS's src/pr.cc unmodified: its PageRankPullGS
run as its main runs it, the scores kept and measured) into GAPBS_DIR/ordo-gapbs-pr, once or
when the driver is newer. Graphs: road2k and rmat20 (bench/yardsticks.sh) and
soc-Slashdot0902 of ../shared/inputs (ORDO_INPUTS; skipped, said on stderr, when missing),
each with one arc per node pair and no self-loops (`ordo-convert --dedup`, as GAPBS's
builder keeps), written once in ordo's format, as DIMACS for GAPBS's converter (`-b`,
GAPBS_DIR/ordo-yardsticks/G-dedup.sg), and with reference ranks (bench/ligra_pagerank.py's).

GAPBS's pr stops when a sweep changes the scores by less than --step in L1 (`-t`, its
default 1e-4); a first GAPBS run per graph measures the error that leaves. ordo runs twice
beside it in every round:
- "held to GAPBS's error": --tolerance that error, so ordo's rule guarantees it is no
  further from the exact ranks than GAPBS got (as bench/ligra_pagerank.py holds it to
  Ligra's); its error is usually far smaller, since the rule bounds the worst case;
- "matched to GAPBS's error": at each thread count, the largest --tolerance of GAPBS's
  error times 1, 2, 4, ... 128 whose ranks, in 3 trials at that thread count, are no
  further from the exact ones than GAPBS's closest of 3 trials there: the same accuracy,
  measured, not guaranteed. Its largest error over every trial is printed beside
  GAPBS's, and a cell where it is further off than GAPBS's largest is flagged.
Every ordo trial is verified. Interleaved rounds, the order of the sides reversed every
other round, kernel medians; errors are the largest of any trial.
"""
import argparse
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import ligra_pagerank as lp  # noqa: E402  (graphs_of, prepare, ordo_run, run)
import peers  # noqa: E402  (die, yardsticks)

WHO = "gapbs_pagerank.py"


def driver(gapbs):
    return lp.compile_driver("gapbs_pr.cc", os.path.join(gapbs, "ordo-gapbs-pr"),
                             ["-std=c++11", "-O3", "-Wall", "-fopenmp",
                              "-I" + os.path.join(gapbs, "src")], WHO)


def gapbs_graph(bin_dir, gapbs, data, ordo):
    """GAPBS_DIR/ordo-yardsticks/NAME-dedup.sg from NAME-dedup.ordo (through DIMACS, whose
    header keeps the node count), made once."""
    name = os.path.basename(ordo)[:-len(".ordo")]
    out_dir = os.path.join(gapbs, "ordo-yardsticks")
    os.makedirs(out_dir, exist_ok=True)
    sg = os.path.join(out_dir, name + ".sg")
    if not os.path.exists(sg):
        gr = os.path.join(data, name + ".gr")
        if not os.path.exists(gr):
            lp.run([os.path.join(bin_dir, "ordo-convert"), ordo, "--no-coords", "-o",
                    gr + ".part", "--to", "dimacs"], "ordo-convert")
            os.replace(gr + ".part", gr)
        lp.run([os.path.join(gapbs, "converter"), "-f", gr, "-b", sg + ".part"],
               "GAPBS's converter")
        os.replace(sg + ".part", sg)
    return sg


def gapbs_run(binary, sg, ref, threads, trials, step):
    env = dict(os.environ, OMP_NUM_THREADS=str(threads), ORDO_REF_RANKS=ref)
    out = lp.run([binary, "-f", sg, "-n", str(trials), "-i", "1000", "-t", repr(step)],
                 "GAPBS's pr", env)
    return lp.trials_of(out, trials, "GAPBS's pr")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    lp.common_args(ap)
    ap.add_argument("--step", type=float, default=1e-4, help="GAPBS's -t (1e-4)")
    a = ap.parse_args()
    gapbs = os.environ.get("ORDO_GAPBS")
    if not gapbs or not os.path.exists(os.path.join(gapbs, "src", "pr.cc")) or \
            not os.path.exists(os.path.join(gapbs, "converter")):
        peers.die("set ORDO_GAPBS to a built sbeamer/gapbs clone (got %s)" % gapbs)
    binary = driver(gapbs)
    data = peers.yardsticks()
    graphs, sources = lp.graphs_of(a.graphs, WHO)
    threads = [int(t) for t in a.threads.split(",")]
    files, tol, matched = {}, {}, {}
    for g in graphs:
        ordo, _, ref = lp.prepare(a.bin, data, g, sources[g], ligra=False)
        files[g] = (ordo, gapbs_graph(a.bin, gapbs, data, ordo), ref)
        _, l1 = gapbs_run(binary, files[g][1], ref, 1, 1, a.step)
        tol[g] = float("%.3g" % (l1[0] * 0.999))  # ordo's bound: at most GAPBS's error
        for t in threads:  # the loosest tolerance whose ranks are as close as GAPBS's
            _, ge = gapbs_run(binary, files[g][1], ref, t, 3, a.step)
            matched[(g, t)] = tol[g]
            for k in range(1, 8):
                _, e = lp.ordo_run(a.bin, files[g][0], t, 3, tol[g] * 2 ** k)
                if max(e) > min(ge):
                    break
                matched[(g, t)] = tol[g] * 2 ** k
        print("%s: %s: GAPBS's pr reaches L1 %.3e at step %g; ordo runs with --tolerance "
              "%g (held to it) and %s (matched to it at %s threads)"
              % (WHO, g, l1[0], a.step, tol[g], ", ".join("%g" % matched[(g, t)] for t in threads),
                 a.threads), file=sys.stderr)
    times, errs = {}, {}
    for rnd in range(a.rounds):
        for g in graphs:
            for t in threads:
                sides = ["GAPBS", "held", "matched"][::1 if rnd % 2 == 0 else -1]
                for side in sides:
                    if side == "GAPBS":
                        v, e = gapbs_run(binary, files[g][1], files[g][2], t, a.trials, a.step)
                    else:
                        v, e = lp.ordo_run(a.bin, files[g][0], t, a.trials,
                                           tol[g] if side == "held" else matched[(g, t)])
                    times.setdefault((side, g, t), []).extend(v)
                    errs.setdefault((side, g, t), []).extend(e)
        print("%s: round %d of %d done" % (WHO, rnd + 1, a.rounds), file=sys.stderr)
    med = statistics.median
    print("| graph | threads | GAPBS pr ms | its L1 error | ordo held to it: ms | its L1 error "
          "(--tolerance) | / GAPBS | ordo matched to it: ms | its L1 error (--tolerance) "
          "| / GAPBS |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for g in graphs:
        for t in threads:
            gt = med(times[("GAPBS", g, t)])
            row = "| %s | %d | %.1f | %.2e " % (g, t, gt, max(errs[("GAPBS", g, t)]))
            for side, tl in (("held", tol[g]), ("matched", matched[(g, t)])):
                ot, oe = med(times[(side, g, t)]), max(errs[(side, g, t)])
                flag = " (further off than GAPBS)" if oe > max(errs[("GAPBS", g, t)]) else ""
                row += "| %.1f | %.2e%s (%g) | %.2f " % (ot, oe, flag, tl, ot / gt)
            print(row + "|")
    print("(medians of %d trials per side: %d interleaved rounds x %d; errors: the largest "
          "of any trial; GAPBS's step %g)" % (a.rounds * a.trials, a.rounds, a.trials, a.step))


if __name__ == "__main__":
    main()
