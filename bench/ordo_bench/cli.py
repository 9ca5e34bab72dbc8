"""ordo-bench - one driver for comparisons and parameter sweeps of ordo's apps.

  ordo-bench run     --apps sssp --inputs road2k,FILE,gen:SPEC --wl SPEC... [options]
  ordo-bench compare --apps sssp --inputs yardsticks [options]   (every scheduler)
  ordo-bench run     ... --variant old=DIR --variant new=DIR   (an A/B of two builds;
                     NAME=DIR::OPTIONS or NAME=::OPTIONS: of an app's options)
  ordo-bench report  RESULTS.jsonl... [--csv FILE]
  ordo-bench plot    RESULTS.jsonl... --out DIR   (heatmaps, speedup vs threads, tasks
                                                   per thread, rank error)
  ordo-bench jobs    (the options of run) --dir DIR   (one shell command per cell)
  ordo-bench merge   FILE... -o MERGED.jsonl
  ordo-bench bundle  (the options of run) --dir DIR   (binaries, libraries, graphs and
                                                       a run.sh for another machine)
  ordo-bench rank    [--wl SPEC]... [--threads 1,2] [--ops N]   (scheduler quality)
  ordo-bench mono    [--wl SPEC]... [--threads 1,2] [--seconds S]   (throughput)
  ordo-bench load    --inputs FILE... [--threads 1,2]   (load time, peak memory)
  ordo-bench page    [PAGE.md...] [--check]   (regenerate the marked sections of
                     bench/RESULTS.md and bench/LOG.md)

A *cell* is one app on one input with one scheduler spec, thread count and seed; it runs
as its own process of the real binary, `--trials` trials each, once per round. Cells run
in rounds (every cell once before any runs twice, the order rotated each round), so
machine drift spreads over all of them. Results are JSON lines: the app's own record of
each trial plus the cell, the round and the environment (host, CPU, cores, NUMA nodes,
git revision, the command). Without --out a run writes a new file under the build
folder (BUILD/bench-results/, never the source tree) and says where; given --out FILE it
appends to FILE and reuses the cells and rounds already in it, so an interrupted sweep
resumes where it stopped (it says how many it measured and how many it reused), and its
table shows only the cells it was asked for. A cell that exits non-zero or fails
verification is recorded with status "fail" and reported.

Inputs (--inputs, repeatable): a graph file in any format ordo reads; `gen:SPEC` (an
ordo-gen spec, generated once and cached under the build folder; one per --inputs, since
its commas are its own); or a suite name: `yardsticks` = road2k and
rmat20 of ../shared/BENCHMARKS.md (made by bench/yardsticks.sh from ../shared when it is
there, otherwise by ordo's own generators with the same shape and size), or either
name alone.

`rank` measures the schedulers alone (build/bench/monotonic --rank): every thread logs its
first N operations of the monotonic workload with timestamps, and the merged log is
replayed against an exact order-statistics structure: the mean and maximum rank error
(keys present that are smaller than the one popped) and delay (pops of larger keys while
a key waited). `strict` is exact, so its figure at more than one thread is the noise
floor of the timestamps. Oversubscribed runs (threads > cores) are labelled so.

`page` rewrites every block of a Markdown page between `<!-- ordo-bench VIEW FILE... -->`
and `<!-- ordo-bench end -->` from the result files it names (relative to the page):
views env, apps, cells, heatmap, ab, rank, mono, load. `--check` changes nothing and
fails with a diff when a block is stale or was edited by hand.

Scheduler specs take grids: `smq:steal_prob={1,2,4,8},steal_size={1,2,4}` is 12 specs,
`obim:delta={0..14:2}` is 8 (lo..hi:step); --threads takes `1,2,4` or `{1..16}`."""
import argparse
import os

from .bundle import cmd_bundle
from .cells import parse_noises, parse_variants, registered_schedulers
from .common import APPS, OUT_HELP, ROOT, die, fresh_out
from .micro import cmd_load, cmd_micro
from .page import cmd_page
from .plot import cmd_plot
from .report import cmd_report
from .run import cmd_cell, cmd_jobs, cmd_merge, cmd_run


# ---- command line ------------------------------------------------------------------

class _Defaults(argparse.HelpFormatter):
    """Each option's help ends with its default, where it has one worth saying (not
    None, False or a help text that names it already)."""

    def _get_help_string(self, action):
        h = action.help or ""
        d = action.default
        if (d in (None, False, argparse.SUPPRESS) or "default" in h or not action.option_strings
                or isinstance(d, list)):
            return h
        return h + " (default: %(default)s)"


def _micro_and_tools(sub, paths):
    """The subcommands that measure the schedulers alone or loading, and the page and
    merge tools."""
    def micro(name, help, prefill, rounds):
        """rank and mono: the schedulers alone (bench/monotonic)"""
        p = sub.add_parser(name, help=help)
        p.add_argument("--wl", action="append", help="specs (grids allowed); default: every one")
        p.add_argument("--threads", default="1,2")
        p.add_argument("--prefill", type=int, default=prefill, help="log2 of the keys per thread")
        p.add_argument("--rounds", type=int, default=rounds)
        p.add_argument("--out", help=OUT_HELP)
        p.add_argument("-q", "--quiet", action="store_true")
        paths(p)
        return p

    p = micro("rank", "rank error and delay of the schedulers alone", prefill=10, rounds=3)
    p.add_argument("--ops", type=int, default=200000, help="operations logged per thread")
    p = micro("mono", "throughput of the schedulers alone (pop+push pairs/s)", prefill=20,
              rounds=5)
    p.add_argument("--seconds", type=float, default=1.0, help="per process")
    p = sub.add_parser("load", help="graph loading time and peak memory (ordo-convert --info)")
    p.add_argument("--inputs", action="append", help="as for run; default yardsticks")
    p.add_argument("--threads", default="1,2")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--extra", help="more ordo-convert options, e.g. --compress")
    p.add_argument("--out", help=OUT_HELP)
    p.add_argument("-q", "--quiet", action="store_true")
    paths(p)
    p = sub.add_parser("page", help="regenerate the marked sections of a results page")
    p.add_argument("file", nargs="*",
                   help="pages to regenerate (default: bench/RESULTS.md and bench/LOG.md)")
    p.add_argument("--check", action="store_true",
                   help="change nothing; exit 1 with a diff when a section is stale")
    p = sub.add_parser("merge", help="combine result files (duplicates dropped)")
    p.add_argument("files", nargs="+")
    p.add_argument("-o", required=True)


def parser():
    """The command line: one subcommand per step, their shared option groups."""
    ap = argparse.ArgumentParser(prog="ordo-bench", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True, metavar="COMMAND")
    add_parser = sub.add_parser
    sub.add_parser = lambda *a, **k: add_parser(*a, formatter_class=_Defaults, **k)

    def common(p, need_out=True):
        p.add_argument("--apps", default="sssp", help="comma list: %s, or an app of your own in --bin" % ", ".join(APPS))
        p.add_argument("--inputs", action="append",
                       help="repeatable: a gen:SPEC, or a comma list of files and suites "
                            "(yardsticks, road2k, rmat20); default yardsticks")
        p.add_argument("--threads", default="1,2", help="list or grid, e.g. 1,2,4 or {1..16}")
        p.add_argument("--seeds", default="1", help="list or grid of seeds (sources are drawn from it)")
        p.add_argument("--trials", type=int, default=3, help="trials per cell process")
        p.add_argument("--rounds", type=int, default=3, help="interleaved rounds")
        p.add_argument("--extra", help="more options for every app, one string")
        p.add_argument("--sim", nargs="?", const="", metavar="DIST",
                       help="the thread counts are simulated workers: each cell runs "
                            "--sim T[:DIST] (the linearized executor, runtime/README.md; "
                            "give it an --out file of its own)")
        p.add_argument("--timeout", type=float, default=0,
                       help="seconds a cell process may run before it is killed and "
                            "recorded as failed (default: no limit)")
        if need_out:
            p.add_argument("--out", help=OUT_HELP)
        p.add_argument("-q", "--quiet", action="store_true", help="no progress line")

    def paths(p):
        p.add_argument("--bin", default=os.environ.get("ORDO_BIN", os.path.join(ROOT, "build", "algorithms")),
                       help="folder of the ordo binaries (default: $ORDO_BIN, else "
                            "build/algorithms of this source tree)")
        p.add_argument("--build", default=os.path.join(ROOT, "build"),
                       help="build folder (generated inputs are cached in BUILD/bench-cache)")

    def variants(p):
        p.add_argument("--variant", action="append", metavar="NAME=BIN_DIR[::OPTIONS]",
                       help="repeatable: run every cell with each build's binaries, or with "
                            "more options for the app (`w64=::--labels 64`: the --bin "
                            "binaries with --labels 64); an A/B: the report gives each "
                            "variant's time over the first's")
        p.add_argument("--noise", action="append", metavar="KIND",
                       help="repeatable: run every cell beside interference: none (quiet), "
                            "spin:N or alloc:N (N busy or allocating threads), proc:APP (a "
                            "second ordo process running APP), oversub:K (K workers per "
                            "core); the report compares each with the first")

    p = sub.add_parser("run", help="run cells (alias: sweep)", aliases=["sweep"])
    common(p)
    paths(p)
    variants(p)
    p.add_argument("--wl", action="append",
                   help="scheduler spec, grids allowed (repeatable); `default`: the app's own "
                        "choice (no --wl given to it); without --wl: smq (as the recorded "
                        "commands of bench/LOG.md assume)")
    p = sub.add_parser("compare", help="every registered scheduler at its defaults")
    common(p)
    paths(p)
    variants(p)
    p = sub.add_parser("report", help="medians per cell as Markdown (and CSV)")
    p.add_argument("files", nargs="+")
    p.add_argument("--csv")
    p = sub.add_parser("plot", help="heatmaps and thread plots (PNG and SVG)")
    p.add_argument("files", nargs="+")
    p.add_argument("--out", help="folder for the figures (default: BUILD/bench-results/plots)")
    p.add_argument("--build", default=os.path.join(ROOT, "build"), help=argparse.SUPPRESS)
    p = sub.add_parser("jobs", help="one shell command per cell and round (GNU parallel, Slurm)")
    common(p, need_out=False)
    paths(p)
    variants(p)
    p.add_argument("--wl", action="append")
    p.add_argument("--dir", required=True, help="where each job writes its result file")
    p = sub.add_parser("bundle", help="a folder that runs the sweep on another machine "
                                      "with /bin/sh alone (binaries, libraries, graphs)")
    common(p, need_out=False)
    paths(p)
    p.add_argument("--wl", action="append")
    p.add_argument("--dir", required=True, help="the bundle's folder")
    p.add_argument("--force", action="store_true", help="replace the run.sh of an existing bundle")
    p = sub.add_parser("cell")  # internal: one job of `jobs`; no help, so not listed
    p.add_argument("--cell", required=True)
    p.add_argument("--round", type=int, required=True)
    p.add_argument("--trials", type=int, default=3)
    p.add_argument("--extra")
    p.add_argument("--sim", nargs="?", const="")
    p.add_argument("--timeout", type=float, default=0)
    p.add_argument("--out", required=True)
    paths(p)
    _micro_and_tools(sub, paths)
    return ap


def main():
    args = parser().parse_args()
    if hasattr(args, "bin") and not os.path.exists(os.path.join(args.bin, "sssp")):
        die("no ordo binaries in %s: build ordo first (or pass --bin)" % args.bin)
    args.variants = parse_variants(args)
    args.noises = parse_noises(args)
    if args.cmd == "plot" and not args.out:
        args.out = os.path.join(os.path.abspath(args.build), "bench-results", "plots")
    elif hasattr(args, "out") and args.out is None:
        args.out = fresh_out(args, "run" if args.cmd == "sweep" else args.cmd)
    if args.cmd in ("run", "sweep"):
        return cmd_run(args)
    if args.cmd == "compare":
        return cmd_run(args, registered_schedulers(args))
    if args.cmd in ("rank", "mono"):
        return cmd_micro(args, args.cmd)
    return {"report": cmd_report, "plot": cmd_plot, "jobs": cmd_jobs, "cell": cmd_cell,
            "merge": cmd_merge, "load": cmd_load, "bundle": cmd_bundle,
            "page": cmd_page}[args.cmd](args)
