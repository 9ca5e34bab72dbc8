"""Cells: inputs (files, gen: specs, the yardsticks), scheduler grids, variants and noises,
and the order of a sweep."""
import hashlib
import itertools
import json
import os
import shlex
import re
import subprocess
import sys

from .common import APPS, HERE, NO_COORDS, ROOT, YARDSTICKS, die, expand_list, expand_spec, split_top


# ---- inputs ------------------------------------------------------------------------

def cache_dir(args):
    d = os.path.join(args.build, "bench-cache")
    os.makedirs(d, exist_ok=True)
    return d


def resolve_input(name, args):
    """An input's display name and path (generating and caching what needs it)."""
    if name.startswith("gen:"):
        spec = name[4:]
        safe = re.sub(r"[^A-Za-z0-9=,._-]", "_", spec)
        path = os.path.join(cache_dir(args), "gen-%s-%s.ordo" % (
            safe[:60], hashlib.sha1(spec.encode()).hexdigest()[:8]))
        if not os.path.exists(path):
            # a name of this process's own: cells run in parallel (`jobs`) may make the
            # same input at once, and each then renames a whole file into place
            tmp = "%s.%d.part.ordo" % (path, os.getpid())
            p = subprocess.run([os.path.join(args.bin, "ordo-gen"), spec, "-o", tmp],
                               capture_output=True, text=True)
            if p.returncode:
                die("ordo-gen %s failed: %s" % (spec, p.stderr.strip()[-300:]))
            os.replace(tmp, path)
        return name, path
    if name in YARDSTICKS:
        return name, yardstick(name, args)
    if os.path.isfile(name):
        return os.path.basename(name), name
    die("input %r is not a file, a gen:SPEC or a suite (%s)" % (
        name, ", ".join(["yardsticks"] + sorted(YARDSTICKS))))


def yardstick(name, args):
    data = os.environ.get("ORDO_BENCH_DATA", os.path.join(HERE, "data"))
    made = os.path.join(data, YARDSTICKS[name][0])
    if os.path.exists(made):
        return made
    shared = os.environ.get("ORDO_SHARED", os.path.join(ROOT, "..", "shared"))
    if os.path.exists(os.path.join(shared, "tools", "gengraph.c")):
        p = subprocess.run(["sh", os.path.join(HERE, "yardsticks.sh")], capture_output=True,
                           text=True)
        if p.returncode == 0 and os.path.exists(made):
            return made
        print("ordo-bench: yardsticks.sh failed (%s); using ordo's generators" %
              p.stderr.strip()[-200:], file=sys.stderr)
    print("ordo-bench: %s from ordo's own generator (../shared is not here)" % name,
          file=sys.stderr)
    return resolve_input("gen:" + YARDSTICKS[name][1], args)[1]


def expand_inputs(values):
    """--inputs may repeat; a value is a comma list of files, suite names and gen:SPECs.
    A gen:SPEC's own commas stay with it: after `gen:rmat:scale=16`, items of the form
    KEY=VALUE (that are not files) are more of its parameters, so
    `my.gr,gen:rmat:scale=16,ef=8,road2k` is three inputs."""
    out = []
    for text in values or ["yardsticks"]:
        items = []
        for item in split_top(text):
            if (items and items[-1].startswith("gen:") and GEN_PARAM.match(item) and
                    not os.path.exists(item)):
                items[-1] += "," + item
            else:
                items.append(item)
        for item in items:
            out += sorted(YARDSTICKS) if item == "yardsticks" else [item]
    return out


GEN_PARAM = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")


# ---- cells -------------------------------------------------------------------------

def cell_key(c):
    k = [c["app"], c["input"], c["wl"], c["threads"], c["seed"]]
    if c.get("variant"):
        k.append(c["variant"])
    if c.get("noise"):
        k.append("noise=" + c["noise"])
    return json.dumps(k)


def row_variant(c):
    """What a report's rows and A/B columns tell apart beyond the cell's spec: the
    build (--variant) and the interference (--noise; "quiet" for none)."""
    parts = [c.get("variant") or ""]
    if c.get("noise"):
        parts.append("quiet" if c["noise"] == "none" else "noise " + c["noise"])
    return " ".join(p for p in parts if p)


NOISE_RE = re.compile(r"^(none|spin:[1-9][0-9]*|alloc:[1-9][0-9]*|oversub:[1-9][0-9]*|"
                      r"proc:[A-Za-z0-9_.-]+)$")


def parse_noises(args):
    """--noise KIND (repeatable): none, spin:N, alloc:N, proc:APP, oversub:K. Parsed
    once, by main, into args.noises (command-line order)."""
    out = []
    for v in getattr(args, "noise", None) or []:
        for kind in split_top(v):
            if not NOISE_RE.match(kind):
                die("--noise %s: expected none, spin:N, alloc:N (N threads), proc:APP (a "
                    "second ordo process running APP) or oversub:K (K workers per core)"
                    % kind)
            if kind.startswith("proc:") and not os.access(
                    os.path.join(args.bin, kind[5:]), os.X_OK):
                die("--noise %s: no app %s in %s" % (kind, kind[5:], args.bin))
            if kind not in out:
                out.append(kind)
    return out


def parse_variants(args):
    """--variant NAME=BIN_DIR[::OPTIONS] (repeatable): the same cells on several builds, or
    on one build with different options (an A/B): `new=build/algorithms::--labels 64`.
    BIN_DIR may be empty (`w64=::--labels 64`: the --bin binaries). Parsed once, by main,
    into args.variants {name: (bin_dir, [options])} (command-line order)."""
    out = {}
    for v in getattr(args, "variant", None) or []:
        name, eq, rest = v.partition("=")
        d, _, opts = rest.partition("::")
        if not eq or not name or not (d or opts):
            die("--variant takes NAME=BIN_DIR or NAME=BIN_DIR::OPTIONS, not %r" % v)
        if name in out:
            die("--variant %s given twice" % name)
        d = d or args.bin
        if not any(os.access(os.path.join(d, a), os.X_OK) for a in APPS):
            die("--variant %s: no ordo binaries in %s" % (name, d))
        out[name] = (os.path.abspath(d), shlex.split(opts))
    return out


def enumerate_cells(args, schedulers=None):
    apps = [a for a in split_top(args.apps)]
    for a in apps:
        if not os.access(os.path.join(args.bin, a), os.X_OK):
            die("no app %r in %s (ordo's: %s; an app of your own: its binary there, or "
                "--bin)" % (a, args.bin, ", ".join(APPS)))
    specs = []
    for s in schedulers or args.wl or ["smq"]:
        try:
            specs += expand_spec(s)
        except ValueError as e:
            die(str(e))
    try:
        threads = [int(t) for t in expand_list(args.threads)]
        seeds = [int(s) for s in expand_list(args.seeds)]
    except ValueError as e:
        die("--threads/--seeds: %s" % e)
    variants = list(args.variants) or [None]
    noises = args.noises or [None]
    cores = os.cpu_count() or 1
    cells = []
    for a in apps:
        for i in expand_inputs(args.inputs):
            if a == "astar" and i in NO_COORDS:
                print("ordo-bench: astar skips %s (it has no coordinates)" % i, file=sys.stderr)
                continue
            for w, t, s, v, z in itertools.product(specs, threads, seeds, variants, noises):
                if z and z.startswith("oversub:"):
                    t = int(z[8:]) * cores  # K workers per core, whatever --threads says
                c = dict(app=a, input=i, wl=w, threads=t, seed=s)
                if v:
                    c["variant"] = v
                if z:
                    c["noise"] = z
                if c not in cells:
                    cells.append(c)
    return cells


def schedule(cells, rounds):
    """(round, cell) in run order: every cell once per round, each round rotated."""
    n = len(cells)
    order = []
    for r in range(rounds):
        shift = (r * max(1, n // rounds)) % n if n else 0
        order += [(r + 1, cells[(i + shift) % n]) for i in range(n)]
    return order


def registered_schedulers(args):
    p = subprocess.run([os.path.join(args.bin, "sssp"), "--wl", "help"], capture_output=True,
                       text=True)
    names = re.findall(r"^  (\S+)\s", p.stdout + p.stderr, re.M)
    if not names:
        die("cannot list the schedulers (%s --wl help)" % os.path.join(args.bin, "sssp"))
    return names
