"""Running cells: one process of the real binary per cell and round, beside optional noise;
the run/compare command, and jobs/cell/merge for running them elsewhere."""
import hashlib
import json
import os
import platform
import re
import shlex
import subprocess
import sys
import time

from .cells import cell_key, enumerate_cells, resolve_input, schedule
from .common import Appender, DRIVER, ROOT, check_out_file, die, read_lines, ropen
from .report import TERMS, md_ab_table, md_cells_table
from .results import asked_results, load_results, summarise, variant_order


def environment(args):
    def first(cmd):
        try:
            return subprocess.run(cmd, capture_output=True, text=True).stdout.strip()
        except OSError:
            return ""
    cpu = ""
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    nodes = len([d for d in os.listdir("/sys/devices/system/node") if re.fullmatch(r"node\d+", d)]) \
        if os.path.isdir("/sys/devices/system/node") else 1
    version = first([os.path.join(args.bin, "sssp"), "--version"]).splitlines()
    return {"host": platform.node(), "cpu": cpu, "cores": os.cpu_count(), "numa_nodes": nodes,
            "date": time.strftime("%Y-%m-%d", time.gmtime()),
            "ordo_version": version[0] if version else "",
            "build": version[1][len("build: "):] if len(version) > 1 else "",
            "git": first(["git", "-C", ROOT, "describe", "--always", "--dirty"]),
            "argv": " ".join(shlex.quote(a) for a in sys.argv)}


def cell_command(c, path, args):
    bindir, vopts = args.variants.get(c.get("variant"), (args.bin, []))
    wl = [] if c["wl"] == "default" else ["--wl", c["wl"]]  # default: the app's own choice
    # --sim: the threads are simulated workers (the linearized executor)
    sim = getattr(args, "sim", None)
    workers = ["-t", str(c["threads"])] if sim is None else \
        ["--sim", str(c["threads"]) + (":" + sim if sim else "")]
    cmd = [os.path.join(bindir, c["app"]), path] + workers + wl + [
        "-n", str(args.trials), "--seed", str(c["seed"]), "--format", "json", "-q"]
    return cmd + shlex.split(args.extra or "") + vopts


class Noise:
    """The interference of a cell (--noise), started before its process and stopped
    after it: spin:N and alloc:N run build/bench/noise; proc:APP runs a second ordo
    process, APP on the same input with the cell's threads, started once it has loaded
    and finished a first trial; none and oversub:K (the cell's threads) start nothing."""

    def __init__(self, kind, c, path, args):
        self.kind, self.p = kind or "none", None
        if self.kind.startswith(("spin:", "alloc:")):
            what, n = self.kind.split(":")
            exe = os.path.join(args.build, "bench", "noise")
            if not os.access(exe, os.X_OK):
                die("--noise %s needs %s: build ordo first" % (self.kind, exe))
            self.p = subprocess.Popen([exe, what, n], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, text=True)
            self.p.stdout.readline()  # "ready"
        elif self.kind.startswith("proc:"):
            app = self.kind[5:]
            self.p = subprocess.Popen(
                [os.path.join(args.bin, app), path, "-t", str(c["threads"]), "-n",
                 "1000000", "--no-verify", "--format", "json", "-q"]
                + shlex.split(args.extra or ""),
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL, text=True)
            self.p.stdout.readline()  # its first record: loaded and running

    def stop(self):
        if self.p:
            self.p.terminate()
            try:
                self.p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.p.kill()
                self.p.wait()


def run_cell(c, rnd, path, args, env):
    cmd = cell_command(c, path, args)
    noise = Noise(c.get("noise"), c, path, args)
    t0 = time.time()
    limit = getattr(args, "timeout", None) or None
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=limit)
    except subprocess.TimeoutExpired:
        p = None
    finally:
        noise.stop()
    base = dict(cell=c, round=rnd, env=env, command=" ".join(shlex.quote(x) for x in cmd),
                wall_s=round(time.time() - t0, 3))
    if p is None:
        return [dict(base, status="fail", exit=None,
                     error="timeout: killed after %g s (--timeout)" % limit)]
    recs = []
    for line in p.stdout.splitlines():
        if line.startswith("{"):
            try:
                recs.append(json.loads(line))
            except ValueError:
                pass
    if p.returncode not in (0, 1) or not recs:
        return [dict(base, status="fail", exit=p.returncode,
                     error=(p.stderr.strip() or "no records")[-400:])]
    out = []
    for r in recs:
        ok = r.get("verify") == "PASS"
        out.append(dict(base, status="ok" if ok else "fail", record=r,
                        **({} if ok else {"error": "verification " + str(r.get("verify"))})))
    return out


def done_rounds(path):
    """(cell key, round) already in a result file."""
    seen = set()
    if path and os.path.exists(path):
        for line in read_lines(path):
            if line.strip():
                try:
                    r = json.loads(line)
                    seen.add((cell_key(r["cell"]), r["round"]))
                except (ValueError, KeyError):
                    pass
    return seen


def cmd_run(args, schedulers=None):
    check_out_file(args.out)  # before any cell, as the binaries check theirs
    cells = enumerate_cells(args, schedulers)
    if not cells:
        die("no cells")
    paths = {}
    for c in cells:
        if c["input"] not in paths:
            paths[c["input"]] = resolve_input(c["input"], args)[1]
    order = schedule(cells, args.rounds)
    seen = done_rounds(args.out)
    todo = [(r, c) for r, c in order if (cell_key(c), r) not in seen]
    timed_out = set()
    if os.path.exists(args.out):
        timed_out = {cell_key(r["cell"]) for r in load_results([args.out])
                     if r.get("error", "").startswith("timeout")}
    env = environment(args)
    if args.variants:
        env["variants"] = [[k, d + ("::" + shlex.join(o) if o else "")]
                           for k, (d, o) in args.variants.items()]
    if args.noises:
        env["noises"] = args.noises
    t0 = time.time()
    tty = sys.stderr.isatty()
    skipped = len(order) - len(todo)
    if skipped:
        print("ordo-bench: %d of %d cell runs already in %s: reused, not measured again" % (
            skipped, len(order), args.out), file=sys.stderr)
    try:
        failed = _run_todo(todo, order, skipped, timed_out, paths, args, env, t0, tty)
    except KeyboardInterrupt:
        now = done_rounds(args.out)
        kept = sum(1 for r, c in order if (cell_key(c), r) in now)
        print("\nordo-bench: interrupted: %d of %d cell runs are kept in %s; the same command "
              "resumes there (it reuses them)" % (kept, len(order), args.out), file=sys.stderr)
        return 130
    done = len(todo)
    if not args.quiet and tty:
        print(file=sys.stderr)
    asked = asked_results(args.out, cells)
    rows = summarise(asked)
    if rows:
        print(md_cells_table(rows) + "\n\n" + TERMS)
        ab = md_ab_table(rows, variant_order(asked))
        if ab:
            print("\n" + ab)
    print("ordo-bench: %d cell runs measured, %d reused, %d failed; results in %s" % (
        done, skipped, failed, args.out), file=sys.stderr)
    return 1 if failed else 0


def _run_todo(todo, order, skipped, timed_out, paths, args, env, t0, tty):
    """Runs the cells left, appending each one's records as it ends; the failures."""
    failed = 0
    with Appender(args.out) as f:
        for k, (rnd, c) in enumerate(todo):
            if cell_key(c) in timed_out:
                # it ran past --timeout in an earlier round: a known result, not rerun
                recs = [dict(cell=c, round=rnd, env=env, status="fail", exit=None,
                             error="timeout in an earlier round: not rerun")]
            else:
                recs = run_cell(c, rnd, paths[c["input"]], args, env)
            if any(r.get("error", "").startswith("timeout") for r in recs):
                timed_out.add(cell_key(c))
            for r in recs:
                f.write(json.dumps(r, sort_keys=True) + "\n")
            f.flush()
            bad = [r for r in recs if r["status"] != "ok"]
            if bad:
                failed += 1
                print("\nordo-bench: FAIL %s %s %s t=%d: %s" % (
                    c["app"], c["input"], c["wl"], c["threads"], bad[0].get("error", "")),
                    file=sys.stderr)
            el = time.time() - t0
            left = el / (k + 1) * (len(todo) - k - 1)
            if not args.quiet:
                line = "[%d/%d] %.0f s, about %.0f s left: %s %s %s t=%d round %d" % (
                    k + 1 + skipped, len(order), el, left, c["app"], c["input"], c["wl"],
                    c["threads"], rnd)
                if tty:
                    print("\r" + line + "   ", end="", file=sys.stderr)
                else:
                    print(line, file=sys.stderr)
    return failed


# ---- jobs and merge ----------------------------------------------------------------

def cmd_jobs(args):
    """One shell line per (cell, round): each runs `ordo-bench cell` into its own file."""
    cells = enumerate_cells(args)
    me = DRIVER
    os.makedirs(args.dir, exist_ok=True)
    for rnd, c in schedule(cells, args.rounds):
        name = hashlib.sha1(cell_key(c).encode()).hexdigest()[:12]
        out = os.path.join(os.path.abspath(args.dir), "cell-%s-r%d.jsonl" % (name, rnd))
        bindir, vopts = args.variants.get(c.get("variant"), (args.bin, []))
        extra = " ".join(x for x in [args.extra or "", shlex.join(vopts)] if x)
        # the script itself (its shebang finds python3 on PATH): a job file that also
        # runs on a cluster node, where this machine's Python path means nothing
        argv = [me, "cell", "--cell", json.dumps(c), "--round", str(rnd),
                "--trials", str(args.trials), "--bin", os.path.abspath(bindir),
                "--build", os.path.abspath(args.build), "--out", out]
        if extra:
            argv += ["--extra", extra]
        if getattr(args, "sim", None) is not None:
            argv += ["--sim=" + args.sim]
        if args.timeout:
            argv += ["--timeout", "%g" % args.timeout]
        print(" ".join(shlex.quote(a) for a in argv))
    print("ordo-bench: one line per cell and round; run them one at a time per machine, "
          "e.g. `parallel -j1 --joblog LOG --resume < FILE` (cells side by side share the "
          "cores and spoil each other's timings), then `ordo-bench merge %s/*.jsonl -o "
          "ALL.jsonl`" % args.dir, file=sys.stderr)
    return 0


def cmd_cell(args):
    c = json.loads(args.cell)
    if done_rounds(args.out) >= {(cell_key(c), args.round)}:
        return 0  # already there (a resumed job)
    path = resolve_input(c["input"], args)[1]
    env = environment(args)
    recs = run_cell(c, args.round, path, args, env)
    tmp = args.out + ".part" + (".gz" if args.out.endswith(".gz") else "")
    with ropen(tmp, "w") as f:
        for r in recs:
            f.write(json.dumps(r, sort_keys=True) + "\n")
    os.replace(tmp, args.out)
    return 0 if all(r["status"] == "ok" for r in recs) else 1


def cmd_merge(args):
    seen, out, dups = set(), [], 0
    for r in load_results(args.files):
        trial = r.get("record", {}).get("trial")
        k = (cell_key(r["cell"]), r["round"], trial)
        if k in seen:
            dups += 1
            continue
        seen.add(k)
        out.append(r)
    with ropen(args.o, "w") as f:
        for r in out:
            f.write(json.dumps(r, sort_keys=True) + "\n")
    print("ordo-bench: merged %d records from %d files into %s (%d duplicates dropped)" % (
        len(out), len(args.files), args.o, dups), file=sys.stderr)
    return 0
