"""A folder that runs a sweep on another machine with /bin/sh alone."""
import hashlib
import json
import os
import re
import shutil
import shlex
import subprocess
import sys

from .cells import cell_key, enumerate_cells, resolve_input, schedule
from .common import die
from .run import cell_command, environment


# ---- a bundle for a borrowed machine ---------------------------------------------

BUNDLE_RUN = r"""#!/bin/sh
# run.sh - made by `ordo-bench bundle`: every cell of the sweep below, round by round, on
# this machine, with the binaries, libraries and graphs of this folder; no compiler,
# Python or package is needed. Records go to results.jsonl (the driver's format); a cell
# already done (done.txt) is skipped, so an interrupted run resumes. Bring results.jsonl
# home and run `bench/ordo-bench report results.jsonl` (or `plot`, or `merge`).
#
# Made by: @ARGV@
set -u
here=$(cd "$(dirname "$0")" && pwd)
cd "$here" || exit 2
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
clean() { tr -d '"\\' | tr '\t\n' '  ' | sed 's/ *$//'; }
cpu=$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1 | clean)
cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 0)
nodes=$(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | wc -l)
[ "$nodes" -gt 0 ] || nodes=1
version=$(bin/sssp --version 2>/dev/null | head -n 1 | clean)
build=$(bin/sssp --version 2>/dev/null | sed -n 's/^build: //p' | clean)
[ -x bin/sssp ] || version=$(ls bin | head -n 1)
env=$(printf '{"argv": "%s", "build": "%s", "cores": %s, "cpu": "%s", "date": "%s", "git": "%s", "host": "%s", "numa_nodes": %s, "ordo_version": "%s"}' \
	"bundle run.sh (@ARGV_CLEAN@)" "$build" "$cores" "$cpu" "$(date -u +%Y-%m-%d)" "@GIT@" \
	"$(uname -n | clean)" "$nodes" "$version")
touch done.txt results.jsonl
mkdir -p log
total=@TOTAL@
limit=@TIMEOUT@ # seconds a cell may run (0: no limit; needs coreutils' timeout)
k=0
failed=0
cell() { # ID ROUND CELL_JSON COMMAND...
	id=$1 rnd=$2 cj=$3
	shift 3
	k=$((k + 1))
	if grep -qx "$id" done.txt; then return 0; fi
	echo "[$k/$total] round $rnd: $*" >&2
	if [ "$limit" != 0 ] && command -v timeout >/dev/null 2>&1; then
		timeout "$limit" "$@" >"log/$id.out" 2>"log/$id.err"
	else
		"$@" >"log/$id.out" 2>"log/$id.err"
	fi
	rc=$?
	cmd=$(printf '%s ' "$@" | clean)
	n=0
	while IFS= read -r line; do
		case $line in
		'{'*) ;;
		*) continue ;;
		esac
		n=$((n + 1))
		case $line in
		*'"verify":"PASS"'*) st='"status": "ok"' ;;
		*) st='"status": "fail", "error": "verification failed"' ;;
		esac
		printf '{"cell": %s, "command": "%s", "env": %s, "record": %s, "round": %s, %s}\n' \
			"$cj" "$cmd" "$env" "$line" "$rnd" "$st" >>results.jsonl
	done <"log/$id.out"
	if [ "$n" -eq 0 ] || [ "$rc" -gt 1 ]; then
		printf '{"cell": %s, "command": "%s", "env": %s, "error": "exit %s: see log/%s.err", "exit": %s, "round": %s, "status": "fail"}\n' \
			"$cj" "$cmd" "$env" "$rc" "$id" "$rc" "$rnd" >>results.jsonl
		failed=$((failed + 1))
		echo "run.sh: FAIL (exit $rc): $* (log/$id.err)" >&2
	fi
	echo "$id" >>done.txt
}
"""


def cmd_bundle(args):
    """A folder that runs the sweep on another machine with nothing but /bin/sh."""
    cells = enumerate_cells(args)
    if not cells:
        die("no cells")
    d = os.path.abspath(args.dir)
    if os.path.exists(os.path.join(d, "run.sh")) and not args.force:
        die("%s already holds a bundle (--force to replace its run.sh; results stay)" % d)
    for sub in ("bin", "lib", "data"):
        os.makedirs(os.path.join(d, sub), exist_ok=True)
    apps = sorted({c["app"] for c in cells})
    for a in apps + ["sssp"]:
        shutil.copy2(os.path.join(args.bin, a), os.path.join(d, "bin", a))
    libs = set()
    for a in apps + ["sssp"]:
        p = subprocess.run(["ldd", os.path.join(args.bin, a)], capture_output=True, text=True)
        for m in re.finditer(r"=> (/\S+)", p.stdout):
            if not re.search(r"/(libc|libm|libpthread|libdl|librt|ld-linux[^/]*)\.so", m.group(1)):
                libs.add(m.group(1))
    for lib in sorted(libs):
        shutil.copy(lib, os.path.join(d, "lib", os.path.basename(lib)))
    names = {}
    for c in cells:
        if c["input"] in names:
            continue
        src = resolve_input(c["input"], args)[1]
        base = os.path.basename(src)
        dst = os.path.join(d, "data", base)
        if not os.path.exists(dst) or os.path.getsize(dst) != os.path.getsize(src):
            try:
                if os.path.exists(dst):
                    os.remove(dst)
                os.link(src, dst)
            except OSError:
                shutil.copy2(src, dst)
        names[c["input"]] = "data/" + base
        if base.endswith(".gr") and os.path.exists(src[:-3] + ".co"):
            shutil.copy2(src[:-3] + ".co", dst[:-3] + ".co")
    argv = " ".join(shlex.quote(a) for a in sys.argv)
    git = environment(args)["git"]
    order = schedule(cells, args.rounds)
    text = BUNDLE_RUN.replace("@ARGV@", argv).replace(
        "@ARGV_CLEAN@", argv.replace('"', "").replace("\\", "")).replace(
        "@GIT@", git).replace("@TOTAL@", str(len(order))).replace(
        "@TIMEOUT@", "%g" % args.timeout)
    lines = [text]
    for rnd, c in order:
        cmd = cell_command(c, names[c["input"]], args)
        cmd[0] = "bin/" + c["app"]
        cid = hashlib.sha1(cell_key(c).encode()).hexdigest()[:12] + "-r%d" % rnd
        lines.append("cell %s %d %s %s" % (cid, rnd, shlex.quote(json.dumps(c, sort_keys=True)),
                                           " ".join(shlex.quote(x) for x in cmd)))
    lines.append('echo "run.sh: $total cell runs, $failed failed now; records in '
                 '$here/results.jsonl" >&2\n[ "$failed" -eq 0 ]\n')
    tmp = os.path.join(d, "run.sh.part")
    with open(tmp, "w") as f:
        f.write("\n".join(lines))
    os.chmod(tmp, 0o755)
    os.replace(tmp, os.path.join(d, "run.sh"))
    size = sum(os.path.getsize(os.path.join(r, x)) for r, _, fs in os.walk(d) for x in fs)
    print("ordo-bench: bundle in %s (%.1f MiB, %d cell runs, libraries: %s); on the other "
          "machine: sh run.sh" % (d, size / 2**20, len(order),
                                  ", ".join(os.path.basename(x) for x in sorted(libs)) or "none"),
          file=sys.stderr)
    return 0
