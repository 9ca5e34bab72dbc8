"""The house's rules that a reader can check by machine (issue 45's "done when"), over the
source tree outside tests/:
  - no C or Python function is over 100 lines (signature to closing brace or last line);
  - every C11 atomic operation in runtime/ names its memory order (the _explicit forms);
  - runtime/executor.c is under 350 lines;
  - no project header includes itself again through others (no include circle);
  - a scheduler (worklists/*.c) that reads a clock says so (.reads_clock), so that the
    linearized executor can tell its users (runtime/README.md).
Usage: house_rules.py SOURCE_DIR; exit 1 listing each breach. --self-test runs the
checks on a small tree made to break each rule once and fails unless each is caught."""
import os
import re
import sys
import tempfile

MAX_FUNC = 100
ROOMS = ("algorithms", "runtime", "worklists", "graph", "io", "bench", "inputs")
CLOCK = re.compile(r"\b(ordo_now|ordo_thread_cpu|clock_gettime|gettimeofday)\s*\(")
ATOMIC = re.compile(r"\batomic_(load|store|exchange|fetch_add|fetch_sub|fetch_or|fetch_and|"
                    r"fetch_xor|compare_exchange_strong|compare_exchange_weak)\s*\(")


def sources(root):
    for room in ROOMS:
        for dp, dn, fn in os.walk(os.path.join(root, room)):
            dn[:] = [d for d in dn if d not in ("build", "__pycache__", "data", "results")]
            for f in sorted(fn):
                if f.endswith((".c", ".h", ".py")) or f == "ordo-bench":
                    yield os.path.join(dp, f)


def c_functions(lines):
    """(first line, length) of each function in clang-format's layout: the signature at
    column 0, '{' alone on a line, '}' alone at column 0 closing it."""
    i = 0
    while i < len(lines):
        if lines[i] == "{" and i > 0:
            j = i - 1
            while j > 0 and lines[j - 1].strip() and not lines[j - 1].startswith(
                    ("}", "#", "/*", " *", "//")) and not lines[j - 1].rstrip().endswith(";"):
                j -= 1
            k = i + 1
            while k < len(lines) and lines[k] != "}":
                k += 1
            yield j + 1, k - j + 1
            i = k
        i += 1


def py_functions(lines):
    for i, line in enumerate(lines):
        m = re.match(r"^(\s*)(async\s+)?def \w+", line)
        if not m:
            continue
        ind, last, k = len(m.group(1)), i, i + 1
        while k < len(lines):
            s = lines[k]
            if s.strip() and len(s) - len(s.lstrip()) <= ind and not s.lstrip().startswith(")"):
                break
            if s.strip():
                last = k
            k += 1
        yield i + 1, last - i + 1


def check(root):
    bad = []
    includes = {}
    for path in sources(root):
        rel = os.path.relpath(path, root)
        with open(path, errors="replace") as f:
            text = f.read()
        lines = text.split("\n")
        is_c = path.endswith((".c", ".h"))
        for at, n in (c_functions if is_c else py_functions)(lines):
            if n > MAX_FUNC:
                bad.append("%s:%d: a function of %d lines (at most %d)" % (rel, at, n, MAX_FUNC))
        if is_c and rel.startswith("runtime" + os.sep):
            for no, line in enumerate(lines, 1):
                if ATOMIC.search(line):
                    bad.append("%s:%d: an atomic operation without its memory order: %s" %
                               (rel, no, line.strip()))
        if is_c and rel.startswith("worklists" + os.sep) and rel.endswith(".c") and \
                CLOCK.search(text) and ".reads_clock" not in text:
            bad.append("%s: reads a clock without saying so (.reads_clock)" % rel)
        if rel == os.path.join("runtime", "executor.c") and len(lines) - 1 >= 350:
            bad.append("%s: %d lines (under 350)" % (rel, len(lines) - 1))
        if path.endswith(".h"):
            includes[os.path.basename(path)] = re.findall(r'^#include "([^"]+)"', text, re.M)
    # an include circle among the project's headers
    state = {}

    def visit(h, trail):
        state[h] = 1
        for d in includes.get(h, ()):
            if d not in includes:
                continue
            if state.get(d) == 1:
                bad.append("include circle: %s" % " -> ".join(trail[trail.index(d):] + [d]))
            elif not state.get(d):
                visit(d, trail + [d])
        state[h] = 2
    for h in sorted(includes):
        if not state.get(h):
            visit(h, [h])
    return bad


def self_test():
    with tempfile.TemporaryDirectory() as d:
        os.makedirs(os.path.join(d, "runtime"))
        os.makedirs(os.path.join(d, "bench"))
        os.makedirs(os.path.join(d, "worklists"))
        with open(os.path.join(d, "worklists", "w.c"), "w") as f:
            f.write("static double g(void)\n{\n\treturn ordo_now();\n}\n")
        long_c = "static int f(void)\n{\n" + "\tx++;\n" * 120 + "}\n"
        with open(os.path.join(d, "runtime", "a.c"), "w") as f:
            f.write(long_c + "void g(void)\n{\n\tatomic_load(&x);\n}\n")
        with open(os.path.join(d, "bench", "b.py"), "w") as f:
            f.write("def f():\n" + "    x = 1\n" * 120 + "\n\ndef g():\n    pass\n")
        with open(os.path.join(d, "runtime", "p.h"), "w") as f:
            f.write('#include "q.h"\n')
        with open(os.path.join(d, "runtime", "q.h"), "w") as f:
            f.write('#include "p.h"\n')
        with open(os.path.join(d, "runtime", "executor.c"), "w") as f:
            f.write("\n" * 400)
        bad = check(d)
        want = ["runtime/a.c:1: a function of 123", "bench/b.py:1: a function of 121",
                "without its memory order", "include circle: p.h -> q.h -> p.h",
                "executor.c: 400 lines", "worklists/w.c: reads a clock"]
        missed = [w for w in want if not any(w in b for b in bad)]
        if missed or len(bad) != len(want):
            print("house rules self-test FAILED: missed %s; found %s" % (missed, bad))
            return 1
    return 0


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: house_rules.py SOURCE_DIR | --self-test")
    if sys.argv[1] == "--self-test":
        sys.exit(self_test())
    if self_test():
        sys.exit(1)
    bad = check(sys.argv[1])
    for b in bad:
        print("house rules: " + b)
    if bad:
        sys.exit(1)
    print("house rules hold (functions <= %d lines, explicit atomics in runtime/, "
          "executor.c < 350 lines, no include circle)" % MAX_FUNC)


if __name__ == "__main__":
    main()
