"""Shared by every command: result files (gzip-aware), spec grids, paths and constants."""
import gzip
import itertools
import os
import re
import statistics
import sys
import time
import zlib



HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # bench/
DRIVER = os.path.join(HERE, "ordo-bench")  # the command that runs this package
OUT_HELP = ("result file, appended: the cells and rounds already in it are reused, not "
            "measured again (default: a new BUILD/bench-results/COMMAND-DATE-TIME.jsonl)")
ROOT = os.path.dirname(HERE)


def _apps():
    """The apps of algorithms/ordo_app_table.h, in its order (one ORDO_APP line each)."""
    import re
    with open(os.path.join(ROOT, "algorithms", "ordo_app_table.h")) as f:
        return tuple(re.findall(r"^ORDO_APP\(([a-z0-9_]+)\)$", f.read(), re.M))


APPS = _apps()
YARDSTICKS = {  # name: (file made by yardsticks.sh, ordo-gen spec of the same shape)
    "road2k": ("road2k.ordo", "road:W=2048,H=2048,seed=7"),
    "rmat20": ("rmat20.ordo", "rmat:scale=20,ef=16,seed=7"),
}
NO_COORDS = {"rmat20"}  # suite inputs without coordinates: astar skips them


def ropen(path, mode="r"):
    """A result file written whole: JSON lines, gzip-compressed when its name ends in
    .gz."""
    if path.endswith(".gz"):
        return gzip.open(path, mode + "t")
    return open(path, mode)


def gz_members(path):
    """(text of the complete gzip members, byte length they span): a .gz result file is
    a series of members, one per append; a last one cut short by a killed run is left
    out (its cell runs again on resume)."""
    with open(path, "rb") as f:
        data = f.read()
    text, pos = b"", 0
    while pos < len(data):
        d = zlib.decompressobj(wbits=31)
        try:
            chunk = d.decompress(data[pos:])
        except zlib.error:
            chunk = None
        if chunk is None or not d.eof:
            print("ordo-bench: %s: the last %d bytes are a cut-short append (a killed "
                  "run); left out" % (path, len(data) - pos), file=sys.stderr)
            break
        text += chunk
        pos = len(data) - len(d.unused_data)
    return text.decode(), pos


def read_lines(path):
    if path.endswith(".gz"):
        return gz_members(path)[0].splitlines()
    with open(path) as f:
        return f.read().splitlines()


class Appender:
    """Appends records to a result file a cell at a time: each flush() adds what was
    written since as one complete unit (a gzip member for .gz), so a run killed between
    cells leaves a readable file; a cut-short member left by an earlier kill is cut off
    first."""

    def __init__(self, path):
        self.path, self.buf = path, []
        if path.endswith(".gz") and os.path.exists(path):
            _, good = gz_members(path)
            if good < os.path.getsize(path):
                with open(path, "r+b") as f:
                    f.truncate(good)

    def write(self, text):
        self.buf.append(text)

    def flush(self):
        if not self.buf:
            return
        text, self.buf = "".join(self.buf), []
        if self.path.endswith(".gz"):
            with open(self.path, "ab") as f:
                f.write(gzip.compress(text.encode()))
        else:
            with open(self.path, "a") as f:
                f.write(text)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.flush()


def die(msg, code=2):
    print("ordo-bench: " + msg, file=sys.stderr)
    sys.exit(code)


def check_out_file(path, opt="--out"):
    """The binaries' rule for a file to write (ordo_cli_check_output_path), before any work:
    not a directory, and its folder exists (nothing is created) and is writable."""
    if os.path.isdir(path):
        die("%s %s: a directory, not a file; give a file name" % (opt, path))
    d = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(d):
        die("%s %s: the folder %s does not exist (ordo creates no folders)" % (opt, path, d))
    if not os.access(d, os.W_OK):
        die("%s %s: cannot write in %s" % (opt, path, d), 3)


# ---- grids -------------------------------------------------------------------------

def split_top(text, sep=","):
    """Splits at `sep` outside braces."""
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth < 0:
                raise ValueError("unbalanced '}' in %r" % text)
        if ch == sep and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    if depth:
        raise ValueError("unbalanced '{' in %r" % text)
    out.append(cur)
    return out


def expand_values(text):
    """'{1,2,4}' -> ['1','2','4']; '{0..14:2}' -> ['0','2',...,'14']; 'x' -> ['x']."""
    if not (text.startswith("{") and text.endswith("}")):
        if "{" in text or "}" in text:
            raise ValueError("a grid is a whole value in braces: %r" % text)
        return [text]
    body = text[1:-1]
    m = re.fullmatch(r"\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*(?::\s*(\d+))?\s*", body)
    if m:
        lo, hi, step = int(m.group(1)), int(m.group(2)), int(m.group(3) or 1)
        if step <= 0 or hi < lo:
            raise ValueError("empty range %r" % text)
        return [str(v) for v in range(lo, hi + 1, step)]
    vals = [v.strip() for v in body.split(",")]
    if not all(vals):
        raise ValueError("empty value in %r" % text)
    return vals


def expand_spec(spec):
    """'smq:a={1,2},b=3' -> ['smq:a=1,b=3', 'smq:a=2,b=3']."""
    name, _, params = spec.partition(":")
    if not name or "{" in name:
        raise ValueError("a spec starts with a scheduler name: %r" % spec)
    if not params:
        return [name]
    keys, choices = [], []
    for kv in split_top(params):
        k, eq, v = kv.partition("=")
        if not eq or not k:
            raise ValueError("expected key=value in %r" % spec)
        keys.append(k.strip())
        choices.append(expand_values(v.strip()))
    return [name + ":" + ",".join("%s=%s" % kv for kv in zip(keys, combo))
            for combo in itertools.product(*choices)]


def expand_list(text):
    """A comma list whose items may be grids: '1,{2..4}' -> ['1','2','3','4']."""
    out = []
    for item in split_top(text):
        out += expand_values(item.strip())
    return out


def fresh_out(args, name):
    """The default result file: a new one under the build folder per command, so a run
    never reuses another run's cells unless --out names that file."""
    d = os.path.join(os.path.abspath(args.build), "bench-results")
    # ordo-bench's own folder under the build folder: made here (a path the user names
    # must already have its folder, as for every tool: check_out_file)
    os.makedirs(d, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for k in itertools.count():
        path = os.path.join(d, "%s-%s%s.jsonl" % (name, stamp, "-%d" % k if k else ""))
        if not os.path.exists(path):
            return path


def med(v):
    return statistics.median(v) if v else float("nan")
