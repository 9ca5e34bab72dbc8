#!/usr/bin/python3
"""galois_ops.py - ordo's pagerank and components beside Galois 6's pagerank-push and
connected-components (issue 46), on road2k, rmat20 and soc-Slashdot0902 at 1 and 2 threads.

  ORDO_GALOIS=GALOIS_BUILD /usr/bin/python3 bench/galois_ops.py [--apps pagerank,cc]
      [--graphs G,...] [--threads 1,2] [--rounds 3] [--trials 5] [--cc-algos A,...]
      [--bin build/algorithms]

GALOIS_BUILD is the CMake build folder of IntelligentSoftwareSystems/Galois (b67f94206
works), built outside this tree with Debian's Boost and LLVM 14:
  cmake -S GALOIS -B GALOIS_BUILD -DCMAKE_BUILD_TYPE=Release \\
        -DLLVM_DIR=/usr/lib/llvm-14/lib/cmake/llvm
  make -C GALOIS_BUILD pagerank-push-cpu connected-components-cpu
PageRank: Galois' app prints only its top 20 ranks, so this script compiles
bench/peer_drivers/galois_prpush.cc (the app unmodified, its ranks measured) with the flags
and link line Galois' build used for pagerank-push-cpu. Galois runs at its defaults (Async,
tolerance 1e-3 on unscaled residuals); a first run per graph measures the L1 error it
reaches against reference ranks (those of bench/ligra_pagerank.py), and ordo's pagerank runs
at --tolerance that error, so its ranks are at least as close. Components: Galois' default
(EdgetiledAsync) and every algorithm of --cc-algos; a Galois run counts only when it
verified itself and found the component count ordo's verified run finds.

Inputs: one arc per node pair, no self-loops (ordo-convert --dedup), symmetrised for cc,
written once beside the yardsticks (ORDO_BENCH_DATA) in ordo's format and Galois' .gr.
soc-Slashdot0902 comes from ../shared/inputs (ORDO_INPUTS) and is skipped, said on stderr,
when missing. Kernel times (ordo's time_s, Galois' Timer_0), interleaved rounds with the
sides' order reversed every other round, medians.
"""
import argparse
import json
import os
import re
import shlex
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import peers  # noqa: E402  (die)
import ligra_pagerank as lp  # noqa: E402  (graphs_of, prepare, run: graphs, reference ranks)
from ligra_pagerank import run  # noqa: E402  (a command, or die saying what failed)

CC_DEFAULT = "EdgetiledAsync"


def galois_source(build):
    with open(os.path.join(build, "CMakeCache.txt")) as f:
        m = re.search(r"^CMAKE_HOME_DIRECTORY:INTERNAL=(.*)$", f.read(), re.M)
    if not m:
        peers.die("%s/CMakeCache.txt names no source folder" % build)
    return m.group(1)


def driver(build):
    """GALOIS_BUILD/ordo-galois-prpush, compiled with pagerank-push-cpu's own flags."""
    src = os.path.join(HERE, "peer_drivers", "galois_prpush.cc")
    out = os.path.join(build, "ordo-galois-prpush")
    if lp.driver_built(out, src):
        return out
    app = os.path.join(build, "lonestar", "analytics", "cpu", "pagerank")
    tdir = os.path.join(app, "CMakeFiles", "pagerank-push-cpu.dir")
    try:
        with open(os.path.join(tdir, "flags.make")) as f:
            flags = dict(re.findall(r"^(CXX_\w+) = (.*)$", f.read(), re.M))
        with open(os.path.join(tdir, "link.txt")) as f:
            link = shlex.split(f.read())
    except OSError as e:
        peers.die("build pagerank-push-cpu in %s first (%s)" % (build, e))
    pr_src = os.path.join(galois_source(build), "lonestar", "analytics", "cpu", "pagerank")
    obj = out + ".o"
    cxx = link[0]
    cmd = ([cxx] + shlex.split(flags.get("CXX_DEFINES", "")) +
           shlex.split(flags.get("CXX_INCLUDES", "")) + ["-I" + pr_src] +
           shlex.split(flags.get("CXX_FLAGS", "")) + ["-c", src, "-o", obj])
    print("galois_ops.py: compiling %s into %s" % (src, out), file=sys.stderr)
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode:
        peers.die("cannot compile %s:\n%s" % (src, p.stderr[-1500:]))
    # Galois' link line, its object and output swapped for the driver's
    objs = [i for i, w in enumerate(link) if w.endswith("PageRank-push.cpp.o")]
    outs = [i + 1 for i, w in enumerate(link) if w == "-o"]
    if len(objs) != 1 or len(outs) != 1:
        peers.die("unexpected link line in %s/link.txt" % tdir)
    link[objs[0]], link[outs[0]] = obj, out + ".part"
    p = subprocess.run(link, capture_output=True, text=True, cwd=app)
    if p.returncode:
        peers.die("cannot link %s:\n%s" % (out, p.stderr[-1500:]))
    os.remove(obj)
    os.replace(out + ".part", out)
    return out


def as_galois(bin_dir, ordo, gr):
    if not os.path.exists(gr):
        run([os.path.join(bin_dir, "ordo-convert"), ordo, "-o", gr + ".part", "--to", "galois"],
            "ordo-convert")
        os.replace(gr + ".part", gr)
    return gr


def symmetric(bin_dir, data, name, source):
    """NAME-sym.ordo (symmetrised, deduplicated) and NAME-sym.sgr, made once."""
    base = os.path.join(data, name + "-sym")
    if not os.path.exists(base + ".ordo"):
        src = source or os.path.join(data, name + ".ordo")
        run([os.path.join(bin_dir, "ordo-convert"), src, "--symmetrize", "--dedup", "-o",
             base + ".ordo.part", "--to", "native"], "ordo-convert")
        os.replace(base + ".ordo.part", base + ".ordo")
    return base + ".ordo", as_galois(bin_dir, base + ".ordo", base + ".sgr")


def timer0(out, cmd):
    m = re.search(r"^STAT, [^,]*, Timer_0, [A-Z]+, (\d+)", out, re.M)
    if not m:
        peers.die("%s printed no Timer_0:\n%s" % (" ".join(cmd), out[-500:]))
    return float(m.group(1))


def galois_pr(binary, gr, ref, threads):
    cmd = [binary, gr, "-t=%d" % threads]
    out = run(cmd, "Galois' pagerank-push", dict(os.environ, ORDO_REF_RANKS=ref))
    m = re.search(r"^L1: (\S+)", out, re.M)
    if not m:
        peers.die("%s printed no L1 line:\n%s" % (" ".join(cmd), out[-500:]))
    return timer0(out, cmd), float(m.group(1))


def galois_cc(build, sgr, threads, algo, want):
    exe = os.path.join(build, "lonestar", "analytics", "cpu", "connected-components",
                       "connected-components-cpu")
    cmd = [exe, sgr, "-t=%d" % threads, "-symmetricGraph", "-algo=" + algo]
    out = run(cmd, "Galois' connected-components")
    m = re.search(r"^Total components: (\d+)", out, re.M)
    if not m or int(m.group(1)) != want or "Verification failed" in out:
        peers.die("%s: %s components, ordo's verified run found %d" % (
            " ".join(cmd), m.group(1) if m else "no count of", want))
    return timer0(out, cmd)


def ordo_runs(bin_dir, app, path, threads, trials, extra=()):
    out = run([os.path.join(bin_dir, app), path, "-t", str(threads), "-n", str(trials),
               "--format", "json", "-q"] + list(extra), "ordo's " + app)
    recs = [json.loads(x) for x in out.splitlines() if x.startswith("{")]
    if len(recs) != trials or any(r["verify"] != "PASS" for r in recs):
        peers.die("ordo's %s on %s did not verify every trial" % (app, path))
    return recs


def print_tables(apps, graphs, threads, cc_algos, times, errs, tol, a):
    med = statistics.median
    if "pagerank" in apps:
        print("| graph | threads | Galois pagerank-push ms | its L1 error | ordo ms | ordo's L1 "
              "error (--tolerance) | ordo / Galois |")
        print("|---|---|---|---|---|---|---|")
        for g in graphs:
            for t in threads:
                gk, ok = ("pagerank", "Galois", g, t), ("pagerank", "ordo", g, t)
                gt, ot = med(times[gk]), med(times[ok])
                print("| %s | %d | %.0f | %.2e | %.1f | %.2e (%g) | %.2f |" % (
                    g, t, gt, max(errs[gk]), ot, max(errs[ok]), tol[g], ot / gt))
    if "cc" in apps:
        print("\n| graph | threads | ordo components ms | %s | ordo / fastest Galois |" %
              " | ".join("Galois %s ms" % x for x in cc_algos))
        print("|---|---|---|%s---|" % ("---|" * len(cc_algos)))
        for g in graphs:
            for t in threads:
                ot = med(times[("cc", "ordo", g, t)])
                gts = [med(times[("cc", x, g, t)]) for x in cc_algos]
                print("| %s | %d | %.1f | %s | %.2f |" % (
                    g, t, ot, " | ".join("%.0f" % x for x in gts), ot / min(gts)))
    print("(medians of %d trials per side: %d interleaved rounds x %d; kernel times, Galois' "
          "Timer_0 in whole ms; errors: the largest of any trial)" % (
              a.rounds * a.trials, a.rounds, a.trials))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--apps", default="pagerank,cc")
    ap.add_argument("--graphs", default="road2k,rmat20,soc-Slashdot0902")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--trials", type=int, default=5)
    ap.add_argument("--cc-algos", default="Afforest,EdgetiledAfforest",
                    help="Galois cc algorithms run beside its default (%s)" % CC_DEFAULT)
    ap.add_argument("--bin", default=os.environ.get(
        "ORDO_BIN", os.path.join(HERE, "..", "build", "algorithms")))
    a = ap.parse_args()
    build = os.environ.get("ORDO_GALOIS")
    if not build or not os.path.exists(os.path.join(build, "CMakeCache.txt")):
        peers.die("set ORDO_GALOIS to a Galois 6 build folder (got %s)" % build)
    apps = a.apps.split(",")
    for app in apps:
        if app not in ("pagerank", "cc"):
            peers.die("--apps: pagerank or cc, not %r" % app)
    data = peers.yardsticks()
    graphs, sources = lp.graphs_of(a.graphs, "galois_ops.py")
    threads = [int(t) for t in a.threads.split(",")]
    cc_algos = [CC_DEFAULT] + [x for x in a.cc_algos.split(",") if x and x != CC_DEFAULT]
    pr_files, tol, cc_files, ncomp = {}, {}, {}, {}
    binary = driver(build) if "pagerank" in apps else None
    for g in graphs:
        if "pagerank" in apps:
            ordo, _, ref = lp.prepare(a.bin, data, g, sources[g])
            gr = as_galois(a.bin, ordo, os.path.join(data, g + "-dedup.ggr"))
            pr_files[g] = (ordo, gr, ref)
            _, l1 = galois_pr(binary, gr, ref, 1)
            tol[g] = float("%.3g" % (l1 * 0.999))  # ordo's bound: at most Galois' error
            print("galois_ops.py: %s: Galois' pagerank-push reaches L1 %.3e; ordo runs with "
                  "--tolerance %g" % (g, l1, tol[g]), file=sys.stderr)
        if "cc" in apps:
            cc_files[g] = symmetric(a.bin, data, g, sources[g])
            ncomp[g] = ordo_runs(a.bin, "components", cc_files[g][0], 1, 1)[0]["components"]
    times, errs = {}, {}

    def add(key, t, e=None):
        times.setdefault(key, []).append(t)
        if e is not None:
            errs.setdefault(key, []).append(e)

    for rnd in range(a.rounds):
        for g in graphs:
            for t in threads:
                for side in ["galois", "ordo"][::1 if rnd % 2 == 0 else -1]:
                    if "pagerank" in apps and side == "galois":
                        for _ in range(a.trials):
                            add(("pagerank", "Galois", g, t),
                                *galois_pr(binary, pr_files[g][1], pr_files[g][2], t))
                    elif "pagerank" in apps:
                        for r in ordo_runs(a.bin, "pagerank", pr_files[g][0], t, a.trials,
                                           ["--tolerance", repr(tol[g])]):
                            add(("pagerank", "ordo", g, t), r["time_s"] * 1e3, r["l1_error"])
                    if "cc" in apps and side == "galois":
                        for algo in cc_algos:
                            for _ in range(a.trials):
                                add(("cc", algo, g, t),
                                    galois_cc(build, cc_files[g][1], t, algo, ncomp[g]))
                    elif "cc" in apps:
                        for r in ordo_runs(a.bin, "components", cc_files[g][0], t, a.trials):
                            add(("cc", "ordo", g, t), r["time_s"] * 1e3)
        print("galois_ops.py: round %d of %d done" % (rnd + 1, a.rounds), file=sys.stderr)
    print_tables(apps, graphs, threads, cc_algos, times, errs, tol, a)

if __name__ == "__main__":
    main()
