"""The schedulers alone (rank error, throughput: build/bench/monotonic) and graph loading
(ordo-convert --info)."""
import json
import os
import re
import shlex
import subprocess
import sys

from .cells import cell_key, expand_inputs, registered_schedulers, resolve_input, schedule
from .common import Appender, check_out_file, die, expand_list, expand_spec
from .report import md_load_table, md_mono_table, md_rank_table, micro_rows
from .results import asked_results
from .run import done_rounds, environment


# ---- scheduler quality ---------------------------------------------------------------

def measure_rounds(args, kind, cells, measure, label):
    """The rounds of a measurement other than an app run (rank, mono, load): every (cell,
    round) not yet in args.out runs measure(cell) -> (command, exit status, figures or
    None, error) and is appended as one record. Returns how many failed."""
    env = environment(args)
    seen = done_rounds(args.out)
    failed = measured = reused = 0
    check_out_file(args.out)
    with Appender(args.out) as f:
        for rnd, c in schedule(cells, args.rounds):
            if (cell_key(c), rnd) in seen:
                reused += 1
                continue
            measured += 1
            cmd, code, q, error = measure(c)
            base = dict(kind=kind, cell=c, round=rnd, env=env, command=" ".join(cmd),
                        oversubscribed=c["threads"] > (os.cpu_count() or 1))
            if q is None:
                failed += 1
                rec = dict(base, status="fail", exit=code, error=error)
                print("ordo-bench: FAIL %s %s t=%d: %s" % (kind, label(c), c["threads"], error),
                      file=sys.stderr)
            else:
                rec = dict(base, status="ok", quality=q)
            f.write(json.dumps(rec, sort_keys=True) + "\n")
            f.flush()
            if not args.quiet:
                print("ordo-bench: %s %s t=%d round %d %s" % (
                    kind, label(c), c["threads"], rnd, rec["status"]), file=sys.stderr)
    print("ordo-bench: %d runs measured, %d reused (already in the file), %d failed; "
          "results in %s" % (measured, reused, failed, args.out), file=sys.stderr)
    return failed


def cmd_micro(args, kind):
    """`rank` (rank error and delay, logged) or `mono` (throughput, not logged): the
    monotonic micro-benchmark, one process per scheduler spec, thread count and round."""
    mono = os.path.join(args.build, "bench", "monotonic")
    if not os.path.exists(mono):
        die("%s not found: build ordo first" % mono)
    specs = []
    for sp in args.wl or registered_schedulers(args):
        try:
            specs += expand_spec(sp)
        except ValueError as e:
            die(str(e))
    threads = [int(t) for t in expand_list(args.threads)]
    cells = [dict(app="monotonic", input="prefill 2^%d" % args.prefill, wl=w, threads=t,
                  seed=1) for w in specs for t in threads]

    def measure(c):
        cmd = [mono, "-t", str(c["threads"]), "-k", str(args.prefill), "--wl", c["wl"],
               "--format", "csv"]
        cmd += ["-s", "30", "--rank", str(args.ops)] if kind == "rank" else \
            ["-s", str(args.seconds)]
        p = subprocess.run(cmd, capture_output=True, text=True)
        lines = [l for l in p.stdout.splitlines() if l and not l.startswith("scheduler")]
        if p.returncode or not lines:
            return cmd, p.returncode, None, p.stderr.strip()[-300:]
        # the scheduler name is quoted and has commas: count from the end
        fields = lines[-1].split(",")
        if kind == "rank":
            q = dict(pairs_per_s=float(fields[-7]), pops=int(fields[-5]),
                     rank_mean=float(fields[-4]), rank_max=int(fields[-3]),
                     delay_mean=float(fields[-2]), delay_max=int(fields[-1]))
        else:
            q = dict(pairs_per_s=float(fields[-2]), failed_pops=int(fields[-1]))
        return cmd, 0, q, ""

    if kind == "mono" and not getattr(args, "quiet", False):
        # a timed run per cell and round: say how long before it starts
        total = len(cells) * args.rounds * args.seconds
        print("ordo-bench mono: %d cells (schedulers x thread counts) x %d rounds x %g s: "
              "at least %.0f s (--wl, --threads, --rounds and --seconds cut it)" % (
                  len(cells), args.rounds, args.seconds, total), file=sys.stderr)
    failed = measure_rounds(args, kind, cells, measure, lambda c: c["wl"])
    rows = micro_rows(asked_results(args.out, cells, kind), kind)
    print(md_rank_table(rows) if kind == "rank" else md_mono_table(rows))
    return 1 if failed else 0


# ---- loading -----------------------------------------------------------------------

LOAD_RE = re.compile(r"(?:un)?weighted in ([0-9.]+) s(?: \(parse ([0-9.]+) s = ([0-9]+) MB/s, "
                     r"build ([0-9.]+) s\))?")


def cmd_load(args):
    """Graph loading: `ordo-convert FILE --info` per input and thread count, its times as
    it reports them and its peak resident memory (from wait4, no other tool needed)."""
    conv = os.path.join(args.bin, "ordo-convert")
    inputs = expand_inputs(args.inputs)
    threads = [int(t) for t in expand_list(args.threads)]
    paths = {i: resolve_input(i, args)[1] for i in inputs}
    cells = [dict(app="load", input=i, wl="-", threads=t, seed=1) for i in inputs
             for t in threads]

    def measure(c):
        cmd = [conv, paths[c["input"]], "-t", str(c["threads"]), "--info"] + \
            shlex.split(args.extra or "")
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        text = p.stdout.read()
        _, status, ru = os.wait4(p.pid, 0)
        code = os.waitstatus_to_exitcode(status)
        m = LOAD_RE.search(text)
        g = re.search(r"^  (?:CSR|compressed CSR) ([0-9.]+) MiB", text, re.M)
        if code or not m:
            return cmd, code, None, text.strip()[-300:]
        q = dict(load_s=float(m.group(1)), peak_rss_mib=ru.ru_maxrss / 1024.0,
                 graph_mib=float(g.group(1)) if g else None,
                 input_bytes=os.path.getsize(paths[c["input"]]))
        if m.group(2):
            q.update(parse_s=float(m.group(2)), mb_per_s=float(m.group(3)),
                     build_s=float(m.group(4)))
        return cmd, 0, q, ""

    failed = measure_rounds(args, "load", cells, measure, lambda c: c["input"])
    print(md_load_table(asked_results(args.out, cells, "load")))
    return 1 if failed else 0
