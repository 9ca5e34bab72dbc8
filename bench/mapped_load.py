#!/usr/bin/env python3
"""Several ordo processes on one graph file: today's native file (zstd frames, each
process decompresses its own copy) against the same graph written mappable
(ordo-convert --mappable: each process maps the file, one copy in the page cache).

Per round and layout it starts PROCS processes of APP at once (THREADS workers each, a
fixed source, TRIALS trials), samples /proc/PID/smaps_rollup of each every few
milliseconds, and reports the peak of the processes' summed proportional set size (Pss:
a page shared by k processes counts 1/k in each, so the sum is the memory they hold
together, the mapped file once) and of their summed Rss, with each process's load time
(load_s of its record) and kernel time (median of its trials). The file is read once
before each run, so every layout loads from a warm page cache. Rounds interleave the
layouts.

  bench/mapped_load.py --input bench/data/rmat20.ordo --procs 4 --rounds 3
  bench/mapped_load.py --procs 1 --threads 2 --trials 5 --huge-dir /mnt/hg
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def smaps(pid):
    """(Rss, Pss, file pages mapped in 2 MiB pages) of a live process in KiB; None once
    it is gone."""
    try:
        with open("/proc/%d/smaps_rollup" % pid) as f:
            kv = {}
            for line in f:
                parts = line.split()
                if len(parts) >= 2 and parts[0].endswith(":"):
                    kv[parts[0]] = int(parts[1]) if parts[1].isdigit() else 0
            return (kv.get("Rss:", 0), kv.get("Pss:", 0),
                    kv.get("FilePmdMapped:", 0) + kv.get("ShmemPmdMapped:", 0))
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return None


def warm(path):
    with open(path, "rb") as f:
        while f.read(1 << 24):
            pass


def run(cmds, period):
    t0 = time.monotonic()
    ps = [subprocess.Popen(c, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
          for c in cmds]
    peak_pss = peak_rss = peak_pmd = 0
    while any(p.poll() is None for p in ps):
        rss = pss = pmd = 0
        for p in ps:
            s = smaps(p.pid) if p.poll() is None else None
            if s:
                rss += s[0]
                pss += s[1]
                pmd = max(pmd, s[2])
        peak_pss = max(peak_pss, pss)
        peak_rss = max(peak_rss, rss)
        peak_pmd = max(peak_pmd, pmd)
        time.sleep(period)
    wall = time.monotonic() - t0
    recs = []
    for p, c in zip(ps, cmds):
        out, err = p.communicate()
        if p.returncode != 0:
            sys.exit("failed (%d): %s\n%s" % (p.returncode, " ".join(c), err))
        rs = [json.loads(l) for l in out.splitlines() if l.startswith("{")]
        if not rs or any(r["verify"] != "PASS" for r in rs):
            sys.exit("not verified: %s" % " ".join(c))
        recs.append(rs)
    return wall, peak_pss / 1024, peak_rss / 1024, peak_pmd / 1024, recs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", default=os.path.join(HERE, "..", "build", "algorithms"))
    ap.add_argument("--app", default="sssp")
    ap.add_argument("--input", default=os.path.join(HERE, "data", "rmat20.ordo"),
                    help="a native file in today's (zstd) layout")
    ap.add_argument("--mapped", help="its mappable copy (default: made beside --work)")
    ap.add_argument("--work", default="/tmp", help="where the mappable copy is written")
    ap.add_argument("--huge-dir", help="also map a copy from this directory (a tmpfs "
                    "mounted with huge=always: the page cache in 2 MiB pages)")
    ap.add_argument("--procs", type=int, default=4)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--trials", type=int, default=1)
    ap.add_argument("--wl", default="obim")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--period", type=float, default=0.01, help="sampling period, s")
    ap.add_argument("--out", help="append the runs as JSON lines")
    a = ap.parse_args()
    mapped = a.mapped
    if not mapped:
        mapped = os.path.join(a.work, "ordo-mapped-%d.ordo" % os.getpid())
        subprocess.run([os.path.join(a.bin, "ordo-convert"), a.input, "--mappable", "-o",
                        mapped], check=True, stderr=subprocess.DEVNULL)
    layouts = {"zstd (today)": a.input, "mappable": mapped}
    huge = None
    if a.huge_dir:
        huge = os.path.join(a.huge_dir, os.path.basename(mapped))
        subprocess.run(["cp", mapped, huge], check=True)
        layouts["mappable, tmpfs huge"] = huge
    for name, path in layouts.items():
        print("%s: %s, %.1f MiB" % (name, path, os.path.getsize(path) / 2**20))
    res = {k: [] for k in layouts}
    out = open(a.out, "a") if a.out else None
    try:
        for rnd in range(a.rounds):
            for name, path in layouts.items():
                warm(path)
                cmd = [os.path.join(a.bin, a.app), path, "--wl", a.wl, "-t", str(a.threads),
                       "-n", str(a.trials), "--source", "0", "--format", "json", "-q"]
                wall, pss, rss, pmd, recs = run([cmd] * a.procs, a.period)
                loads = [rs[0]["load_s"] for rs in recs]
                kern = [statistics.median(r["time_s"] for r in rs) for rs in recs]
                res[name].append((statistics.median(loads), max(loads), pss, rss, wall,
                                  statistics.median(kern)))
                print("round %d  %-13s load %.3f s (max %.3f)  peak Pss %.0f MiB  Rss %.0f "
                      "MiB  all done %.2f s  kernel %.3f s  file in 2 MiB pages %.0f MiB" %
                      (rnd + 1, name, statistics.median(loads), max(loads), pss, rss, wall,
                       statistics.median(kern), pmd), flush=True)
                if out:
                    out.write(json.dumps({
                        "round": rnd + 1, "layout": name, "file": path,
                        "file_bytes": os.path.getsize(path), "procs": a.procs,
                        "threads": a.threads, "app": a.app, "wl": a.wl,
                        "load_s": loads, "kernel_s": kern, "peak_pss_mib": pss,
                        "peak_rss_mib": rss, "pmd_mapped_mib": pmd,
                        "wall_s": wall}) + "\n")
    finally:
        if not a.mapped:
            os.unlink(mapped)
        if huge:
            os.unlink(huge)
    print("\n| layout | load, s (median of processes) | slowest load | peak Pss, all "
          "processes, MiB | peak Rss sum, MiB | all done, s | kernel, s |")
    print("|---|---|---|---|---|---|---|")
    for name in layouts:
        cols = list(zip(*res[name]))
        print("| %s | %.3f | %.3f | %.0f | %.0f | %.2f | %.3f |" %
              ((name,) + tuple(statistics.median(c) for c in cols)))


if __name__ == "__main__":
    main()
