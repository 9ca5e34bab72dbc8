#!/usr/bin/env python3
"""sssp_peers.py - ordo's SSSP beside the peers of issue 48, each built by the user outside
this tree and found through an environment variable; interleaved rounds on the
yardsticks, every side verified, kernel medians, ordo's time over the fastest peer's.

  bench/sssp_peers.py [--graphs road2k,rmat20] [--threads 1,2] [--rounds 3] [--trials 5]
                      [--ordo SPEC ...] [--bin build/algorithms] [--raw FILE]

Peers (a missing one is named and skipped; none found is an error):
  ORDO_GAPBS  GAPBS's folder (sbeamer/gapbs; `make`): its sssp and converter. Its
              serialized .wsg files, made once into ORDO_GAPBS/ordo-yardsticks/, feed
              Wasp too. Delta-stepping with bucket fusion, -d 4096 (road2k) / 2 (rmat20).
  ORDO_WASP   Wasp's sssp binary (DIPSA-QUB/wasp; `cmake` + `make sssp` in build/: the
              binary is build/src/sssp-int32), -d 2048 (road2k) / 1 (rmat20), as the
              issue measured; it reads GAPBS's .wsg (so ORDO_GAPBS is needed too).
  ORDO_RHO, ORDO_GBBS, ORDO_MBQ  not driven yet: named as missing with what to build.

ordo runs its default (no --wl: the scheduler and delta its graph choose) and each
--ordo SPEC (a --wl spec, e.g. wasp or obim:delta=11). Each trial is verified; a peer's
run counts only if it printed its own verification PASS. The ratio column is ordo's
median over the fastest peer's median in the same run. --raw FILE appends every
measurement as a JSON line when it is made (a run cut short keeps what it measured).
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import peers  # noqa: E402  (bench/peers.py: the yardsticks, GAPBS's graphs, ordo's runs)

GAPBS_D = {"road2k": 4096, "rmat20": 2}
WASP_D = {"road2k": 2048, "rmat20": 1}
NOT_DRIVEN = {
    "ORDO_RHO": "rho-stepping (ucrparlay/Parallel-SSSP with ParlayLib; a node-0 driver "
                "around its solver header)",
    "ORDO_GBBS": "GBBS delta-stepping (the copy vendored in ucrparlay/Parallel-KCore)",
    "ORDO_MBQ": "MBQ (mcj-group/mbq: LLVM 14, fmt and Boost)",
}


def run_wasp(binary, path, threads, trials, delta):
    cmd = [binary, "-f", path, "-n", str(trials), "-r", "0", "-d", str(delta), "-v"]
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    times = [float(x) * 1e3 for x in
             re.findall(r"^External Trial Time:\s+([0-9.]+)", p.stdout, re.M)]
    ok = len(re.findall(r"^Verification:\s+PASS", p.stdout, re.M))
    if p.returncode or len(times) != trials or ok != trials:
        peers.die("%s failed or did not verify:\n%s" % (" ".join(cmd),
                                                         (p.stdout + p.stderr)[-500:]))
    return times


def find_peers():
    found, missing = {}, []
    g = os.environ.get("ORDO_GAPBS")
    if g and all(os.access(os.path.join(g, x), os.X_OK) for x in ("sssp", "converter")):
        found["GAPBS"] = g
    else:
        missing.append("GAPBS (ORDO_GAPBS: a built sbeamer/gapbs folder%s)" %
                       (", got %s" % g if g else ""))
    w = os.environ.get("ORDO_WASP")
    if w and os.access(w, os.X_OK) and "GAPBS" in found:
        found["Wasp"] = w
    else:
        missing.append("Wasp (ORDO_WASP: the sssp-int32 binary of a DIPSA-QUB/wasp build, "
                       "with ORDO_GAPBS for its input files%s)" % (", got %s" % w if w else ""))
    for var, what in NOT_DRIVEN.items():
        missing.append("%s (%s: not driven by this script yet)" % (what, var))
    return found, missing


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--graphs", default="road2k,rmat20")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--trials", type=int, default=5)
    ap.add_argument("--ordo", action="append", default=[], metavar="SPEC",
                    help="a --wl spec to run beside ordo's default")
    ap.add_argument("--raw", help="append each measurement to this file (JSON lines)")
    ap.add_argument("--bin", default=os.environ.get(
        "ORDO_BIN", os.path.join(HERE, "..", "build", "algorithms")))
    a = ap.parse_args()
    found, missing = find_peers()
    for m in missing:
        print("sssp_peers.py: not found, skipped: " + m, file=sys.stderr)
    if not found:
        peers.die("no peer found: set ORDO_GAPBS (and ORDO_WASP); see --help")
    y = subprocess.run(["sh", os.path.join(HERE, "yardsticks.sh")], capture_output=True,
                       text=True)
    if y.returncode:
        peers.die("cannot make the yardsticks: " + y.stderr.strip()[-300:])
    data = y.stdout.strip()
    graphs, threads = a.graphs.split(","), [int(t) for t in a.threads.split(",")]
    sides = list(found) + ["ordo"] + ["ordo " + s for s in a.ordo]
    times, used = {}, {}
    for rnd in range(a.rounds):
        for g in graphs:
            wsg = peers.gapbs_graph(found["GAPBS"], data, g, True) if "GAPBS" in found \
                else None
            opath = os.path.join(data, g + ".ordo")
            for t in threads:
                order = sides if rnd % 2 == 0 else list(reversed(sides))
                for side in order:
                    if side == "GAPBS":
                        v = peers.run_gapbs(found["GAPBS"], "sssp", wsg, t, a.trials,
                                            GAPBS_D.get(g, 1))
                    elif side == "Wasp":
                        v = run_wasp(found["Wasp"], wsg, t, a.trials, WASP_D.get(g, 1))
                    else:
                        spec = side[5:] or "default"
                        v, used[(side, g)] = peers.run_ordo(a.bin, "sssp", opath, t,
                                                            a.trials, spec)
                    times.setdefault((side, g, t), []).extend(v)
                    if a.raw:
                        with open(a.raw, "a") as f:
                            f.write(json.dumps({"side": side, "graph": g, "threads": t,
                                                "round": rnd, "ms": v}) + "\n")
        print("sssp_peers.py: round %d of %d done" % (rnd + 1, a.rounds), file=sys.stderr)
    med = statistics.median
    peer_names = list(found)
    cols = ["%s t%d" % (g, t) for g in graphs for t in threads]
    print("| SSSP, ms (median) | " + " | ".join(cols) + " |")
    print("|---" * (len(cols) + 1) + "|")
    for side in sides:
        label = side if side in found else "ordo `%s`" % (
            used[(side, graphs[0])] if side == "ordo" else side[5:])
        if side == "ordo":
            label = "ordo default (" + ", ".join(
                "%s `%s`" % (g, used[(side, g)]) for g in graphs) + ")"
        print("| %s | " % label + " | ".join(
            "%.0f" % med(times[(side, g, t)]) for g in graphs for t in threads) + " |")
    for side in [s for s in sides if s not in found]:
        print("| %s / fastest peer | " % ("default" if side == "ordo" else side[5:]) +
              " | ".join("%.2f" % (med(times[(side, g, t)]) / min(
                  med(times[(p, g, t)]) for p in peer_names)) for g in graphs
                  for t in threads) + " |")
    print("(medians of %d trials per side: %d interleaved rounds x %d, the order of the "
          "sides reversed every other round; peers: %s; deltas GAPBS %s, Wasp %s)" % (
              a.rounds * a.trials, a.rounds, a.trials, ", ".join(peer_names),
              GAPBS_D, WASP_D))


if __name__ == "__main__":
    main()
