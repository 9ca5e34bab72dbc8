#!/usr/bin/env python3
"""The benchmark driver (bench/ordo-bench) on tiny generated graphs, seconds long: grid
parsing, cell enumeration and interleaving, a sweep interrupted and resumed gives the
same cells, a failing cell is recorded and reported, and `jobs` run by GNU parallel
(when installed; otherwise by sh) then `merge` give the same cells as a local run.

  bench_test.py SOURCE_DIR BUILD_DIR
"""
import json
import re
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

SRC, BUILD = sys.argv[1], sys.argv[2]
DRIVER = os.path.join(SRC, "bench", "ordo-bench")
sys.path.insert(0, os.path.join(SRC, "bench"))
import ordo_bench as ob  # noqa: E402  (the package behind the driver)
GEN = "gen:road:W=24,H=20,seed=3"


def bench(*args, check=True):
    p = subprocess.run([sys.executable, DRIVER] + list(args) +
                       (["--bin", os.path.join(BUILD, "algorithms"), "--build", BUILD]
                        if args[0] in ("run", "compare", "jobs", "bundle", "load", "mono")
                        else []),
                       capture_output=True, text=True)
    if check and p.returncode:
        raise AssertionError("ordo-bench %s: exit %d\n%s" % (" ".join(args), p.returncode, p.stderr))
    return p


def cells_of(path):
    return sorted({(ob.cell_key(r["cell"]), r["round"]) for r in ob.load_results([path])})


class Grids(unittest.TestCase):
    def test_values(self):
        self.assertEqual(ob.expand_values("{1,2,4}"), ["1", "2", "4"])
        self.assertEqual(ob.expand_values("{0..14:2}"), [str(v) for v in range(0, 15, 2)])
        self.assertEqual(ob.expand_values("{3..5}"), ["3", "4", "5"])
        self.assertEqual(ob.expand_values("heap"), ["heap"])
        for bad in ("{5..1}", "{1,,2}", "{0..4:0}", "a{1}"):
            with self.assertRaises(ValueError, msg=bad):
                ob.expand_values(bad)

    def test_specs(self):
        self.assertEqual(ob.expand_spec("smq:steal_prob={1,2},steal_size=3,pq={heap,radix}"),
                         ["smq:steal_prob=1,steal_size=3,pq=heap",
                          "smq:steal_prob=1,steal_size=3,pq=radix",
                          "smq:steal_prob=2,steal_size=3,pq=heap",
                          "smq:steal_prob=2,steal_size=3,pq=radix"])
        self.assertEqual(ob.expand_spec("obim"), ["obim"])
        self.assertEqual(len(ob.expand_spec("obim:delta={0..14:2},chunk={32,64}")), 16)
        for bad in ("smq:steal_prob={1,2", "smq:steal_prob", "{a,b}:x=1"):
            with self.assertRaises(ValueError, msg=bad):
                ob.expand_spec(bad)
        self.assertEqual(ob.expand_list("1,{2..4}"), ["1", "2", "3", "4"])
        self.assertEqual(ob.expand_inputs(["yardsticks", "gen:rmat:scale=4,ef=2", "a.gr,b.gr"]),
                         ["rmat20", "road2k", "gen:rmat:scale=4,ef=2", "a.gr", "b.gr"])
        # the README's form: a gen spec inside a comma list keeps its own parameters
        # (issue 31, item 7)
        self.assertEqual(ob.expand_inputs(["my.gr,gen:rmat:scale=16,ef=8,road2k,"
                                           "gen:road:W=4,H=3"]),
                         ["my.gr", "gen:rmat:scale=16,ef=8", "road2k", "gen:road:W=4,H=3"])

    def test_interleaving(self):
        cells = [{"app": "sssp", "input": "x", "wl": w, "threads": 1, "seed": 1}
                 for w in "abcd"]
        order = ob.schedule(cells, 3)
        self.assertEqual(len(order), 12)
        # every cell runs once per round, and each round is done before the next starts
        for r in (1, 2, 3):
            block = order[4 * (r - 1):4 * r]
            self.assertEqual({x[0] for x in block}, {r})
            self.assertEqual(sorted(c["wl"] for _, c in block), list("abcd"))
        self.assertNotEqual([c["wl"] for _, c in order[:4]], [c["wl"] for _, c in order[4:8]],
                            "rounds are not rotated")


class Runs(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def sweep(self, out, *extra):
        return bench("run", "--apps", "sssp,bfs", "--inputs", GEN, "--wl",
                     "smq:steal_size={1,4}", "--wl", "obim", "--threads", "1,2", "--trials",
                     "2", "--rounds", "2", "-q", "--out", out, *extra)

    def test_resume_gives_the_same_cells(self):
        full, part = os.path.join(self.tmp, "full.jsonl"), os.path.join(self.tmp, "part.jsonl")
        self.sweep(full)
        self.assertEqual(len(cells_of(full)), 2 * 3 * 2 * 2)
        # an interrupted sweep: keep the first 5 cell runs, then run again
        with open(full) as f:
            lines = f.read().splitlines()
        keep, seen = [], []
        for line in lines:
            k = (ob.cell_key(json.loads(line)["cell"]), json.loads(line)["round"])
            if k not in seen:
                seen.append(k)
            if len(seen) <= 5:
                keep.append(line)
        with open(part, "w") as f:
            f.write("\n".join(keep) + "\n")
        p = self.sweep(part)
        self.assertIn("5 of 24 cell runs already", p.stderr)
        self.assertEqual(cells_of(part), cells_of(full))
        # and nothing twice
        recs = ob.load_results([part])
        keys = [(ob.cell_key(r["cell"]), r["round"], r["record"]["trial"]) for r in recs]
        self.assertEqual(len(keys), len(set(keys)))
        self.assertTrue(all(r["status"] == "ok" and r["env"]["cores"] for r in recs))
        self.assertTrue(all("NATIVE=" in r["env"]["build"] for r in recs))  # compiler, flags
        rep = bench("report", full, "--csv", os.path.join(self.tmp, "r.csv")).stdout
        self.assertIn("| sssp | %s | 2 | `smq:steal_size=4` |" % GEN, rep)
        with open(os.path.join(self.tmp, "r.csv")) as f:
            self.assertEqual(len(f.read().splitlines()), 13)
        # plots: heatmaps over steal_size x ... need two varying parameters, thread plots two
        # thread counts; matplotlib is optional (the driver says so when it is missing)
        p = bench("plot", full, "--out", os.path.join(self.tmp, "plots"), check=False)
        if "needs matplotlib" in p.stderr:
            print("matplotlib is not installed: plot not tested", file=sys.stderr)
        else:
            self.assertEqual(p.returncode, 0, p.stderr)
            made = os.listdir(os.path.join(self.tmp, "plots"))
            self.assertIn("threads-sssp-gen_road_W_24_H_20_seed_3.png", made)
            self.assertIn("threads-bfs-gen_road_W_24_H_20_seed_3.svg", made)
            self.assertIn("tasks-sssp-gen_road_W_24_H_20_seed_3-t2.png", made)
            self.check_figures(os.path.join(self.tmp, "plots"))

    def check_figures(self, d):
        """Issue 31, item 12: every PNG is a real image, and the figures (read back from
        the drawn matplotlib objects into figures.json) have readable axes: thread
        ticks 1 and 2 (not 2^0), a legend naming every scheduler, error bars, an
        absolute-time panel, heatmap ticks from the grid."""
        import struct
        with open(os.path.join(d, "figures.json")) as f:
            figs = json.load(f)
        for name in figs:
            with open(os.path.join(d, name + ".png"), "rb") as f:
                head = f.read(24)
            self.assertEqual(head[:8], b"\x89PNG\r\n\x1a\n", name)
            w, h = struct.unpack(">II", head[16:24])
            self.assertGreaterEqual(w, 400, name)
            self.assertGreaterEqual(h, 250, name)
        th = figs["threads-sssp-gen_road_W_24_H_20_seed_3"]
        self.assertEqual(len(th["axes"]), 3)
        self.assertEqual([a["xticks"] for a in th["axes"]], [["1", "2"]] * 3)
        self.assertTrue(th["axes"][0]["ylabel"].startswith("time, ms"))
        self.assertEqual([a["ylabel"].split(" ")[0] for a in th["axes"][1:]],
                         ["speedup", "work"])
        self.assertTrue(all(a["errorbars"] == 3 for a in th["axes"]), th["axes"])
        self.assertEqual(sorted(th["figure_legends"][0]),
                         ["obim", "smq:steal_size=1", "smq:steal_size=4"])
        ta = figs["tasks-sssp-gen_road_W_24_H_20_seed_3-t2"]["axes"][0]
        # two threads: each thread's share, not a median (which would sit at 1.00)
        self.assertEqual(sorted(ta["legend"]), ["an even share", "each thread",
                                                "min to max thread"])
        self.assertEqual(sorted(ta["yticks"]), ["obim", "smq:steal_size=1",
                                                "smq:steal_size=4"])

    def test_a_missing_output_folder_is_refused_first(self):
        # the binaries' rule: nothing is created, and nothing runs before the check
        p = bench("run", "--apps", "sssp", "--inputs", "tiny", "--threads", "1", "--out",
                  os.path.join(self.tmp, "no", "r.jsonl"), check=False)
        self.assertEqual(p.returncode, 2)
        self.assertIn("does not exist (ordo creates no folders)", p.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "no")))

    def test_a_failing_cell_is_recorded_and_reported(self):
        out = os.path.join(self.tmp, "f.jsonl")
        p = bench("run", "--apps", "sssp", "--inputs", GEN, "--wl", "smq", "--wl",
                  "nosuch:x=1", "--threads", "1", "--trials", "1", "--rounds", "1", "-q",
                  "--out", out, check=False)
        self.assertEqual(p.returncode, 1)
        self.assertIn("FAIL sssp", p.stderr)
        self.assertIn("unknown scheduler", p.stderr)
        recs = ob.load_results([out])
        self.assertEqual(sorted(r["status"] for r in recs), ["fail", "ok"])
        rep = bench("report", out, check=False)
        self.assertEqual(rep.returncode, 1)
        self.assertIn("`nosuch:x=1` | nan", rep.stdout)
        self.assertIn("**1** |", rep.stdout)

    def test_a_cell_past_its_timeout_is_killed_and_recorded(self):
        # (and a result file named .gz is written, appended to and read compressed)
        # The cell needs seconds (generating 4M nodes) and is killed after 0.05 s: a
        # cell that could finish inside the limit made this test a race (GEN in 1 ms
        # did, once, when the test itself was descheduled on a loaded machine).
        out = os.path.join(self.tmp, "t.jsonl.gz")
        slow = "gen:road:W=2048,H=2048,seed=3"
        p = bench("run", "--apps", "sssp", "--inputs", slow, "--threads", "1", "--trials", "1",
                  "--rounds", "1", "-q", "--timeout", "0.05", "--out", out, check=False)
        self.assertEqual(p.returncode, 1)
        self.assertIn("timeout: killed after 0.05 s", p.stderr)
        self.assertEqual([r["status"] for r in ob.load_results([out])], ["fail"])
        # a later round does not run it again, and says so
        p = bench("run", "--apps", "sssp", "--inputs", slow, "--threads", "1", "--trials", "1",
                  "--rounds", "2", "-q", "--timeout", "0.05", "--out", out, check=False)
        self.assertIn("timeout in an earlier round: not rerun", p.stderr)
        self.assertEqual(len(ob.load_results([out])), 2)
        with open(out, "rb") as f:
            self.assertEqual(f.read(2), b"\x1f\x8b")

    def test_a_killed_run_leaves_a_gz_file_that_resumes(self):
        """A run killed while appending to a .gz result file leaves a cut-short gzip
        member: readers leave it out, and the next run cuts it off and reruns that cell."""
        import gzip
        out = os.path.join(self.tmp, "k.jsonl.gz")
        args = ["run", "--apps", "sssp", "--inputs", GEN, "--wl", "smq", "--wl", "obim",
                "--threads", "1", "--trials", "1", "--rounds", "1", "-q", "--out", out]
        bench(*args)
        full = cells_of(out)
        self.assertEqual(len(full), 2)
        with open(out, "rb") as f:
            members = f.read()
        # keep the first cell's member, then half of a second one
        d = __import__("zlib").decompressobj(wbits=31)
        d.decompress(members)
        cut = len(members) - len(d.unused_data)
        self.assertLess(cut, len(members), "one member per cell")
        with open(out, "wb") as f:
            f.write(members[:cut] + members[cut:cut + (len(members) - cut) // 2])
        self.assertEqual(len(cells_of(out)), 1)
        p = bench(*args)
        self.assertIn("cut-short append", p.stderr)
        self.assertEqual(cells_of(out), full)
        with gzip.open(out, "rt") as f:  # a plain gzip reader takes the repaired file
            self.assertEqual(len(f.read().splitlines()), 2)

    def test_ctrl_c_keeps_the_cells_done_and_says_how_to_resume(self):
        """Ctrl-C (SIGINT to the process group, as a terminal sends it) after the first
        cell: no traceback, exit 130, the cells done kept and counted, and the same
        command resumes from them."""
        import signal
        import time
        out = os.path.join(self.tmp, "c.jsonl")
        args = ["run", "--apps", "sssp", "--inputs", "gen:road:W=600,H=500", "--wl", "smq",
                "--wl", "obim", "--wl", "strict", "--threads", "1", "--trials", "3",
                "--rounds", "2", "-q", "--out", out, "--bin", os.path.join(BUILD, "algorithms"),
                "--build", BUILD]
        p = subprocess.Popen([sys.executable, DRIVER] + args, stderr=subprocess.PIPE, text=True,
                             start_new_session=True)
        deadline = time.time() + 120
        while time.time() < deadline and not (os.path.exists(out) and os.path.getsize(out)):
            time.sleep(0.05)
        self.assertTrue(os.path.getsize(out), "no cell finished in 120 s")
        os.killpg(p.pid, signal.SIGINT)
        err = p.communicate(timeout=120)[1]
        self.assertEqual(p.returncode, 130, err)
        self.assertNotIn("Traceback", err)
        kept = len(cells_of(out))
        self.assertGreaterEqual(kept, 1)
        self.assertRegex(err, r"interrupted: %d of 6 cell runs are kept in .*c\.jsonl; the same "
                              r"command resumes" % kept)
        again = bench(*args[:-4])
        self.assertIn("%d of 6 cell runs already in" % kept, again.stderr)
        self.assertEqual(len(cells_of(out)), 6)

    def test_compare_takes_the_registry(self):
        out = os.path.join(self.tmp, "c.jsonl")
        bench("compare", "--apps", "sssp", "--inputs", GEN, "--threads", "2", "--trials",
              "1", "--rounds", "1", "-q", "--out", out)
        names = {r["cell"]["wl"] for r in ob.load_results([out])}
        listed = set(ob.registered_schedulers(type("A", (), {"bin": os.path.join(BUILD, "algorithms")})))
        self.assertEqual(names, listed)
        self.assertIn("spraylist", names)

    def test_jobs_and_merge_equal_a_local_run(self):
        local = os.path.join(self.tmp, "local.jsonl")
        self.sweep(local)
        d = os.path.join(self.tmp, "jobs")
        jobs = bench("jobs", "--apps", "sssp,bfs", "--inputs", GEN, "--wl",
                     "smq:steal_size={1,4}", "--wl", "obim", "--threads", "1,2", "--trials",
                     "2", "--rounds", "2", "--dir", d).stdout
        self.assertEqual(len(jobs.splitlines()), 24)
        # each line runs the script by its shebang, not this machine's Python (item 8)
        self.assertTrue(all(l.startswith(DRIVER + " cell ") for l in jobs.splitlines()),
                        jobs.splitlines()[0])
        self.assertNotIn(sys.executable, jobs)
        jf = os.path.join(self.tmp, "jobs.txt")
        with open(jf, "w") as f:
            f.write(jobs)
        if shutil.which("parallel"):
            cmd = ["parallel", "--will-cite", "-j", "2", "--joblog", os.path.join(self.tmp, "log"),
                   "--resume"]
            with open(jf) as f:
                subprocess.run(cmd, stdin=f, check=True, capture_output=True)
            # a resumed job log runs nothing again
            with open(jf) as f:
                again = subprocess.run(cmd, stdin=f, check=True, capture_output=True)
            self.assertEqual(again.stdout, b"")
        else:
            print("GNU parallel not installed: the jobs run through sh", file=sys.stderr)
            subprocess.run(["sh", jf], check=True, capture_output=True)
        files = sorted(os.path.join(d, f) for f in os.listdir(d))
        merged = os.path.join(self.tmp, "merged.jsonl")
        p = bench("merge", *files, files[0], "-o", merged)
        self.assertIn("duplicates dropped", p.stderr)
        self.assertNotIn("(0 duplicates", p.stderr)
        self.assertEqual(cells_of(merged), cells_of(local))


    def test_cells_at_once_make_one_input_together(self):
        """Cells run in parallel (the lines of `jobs`) that need the same generated input,
        not yet made, each make it under a name of their own and rename it into place:
        every one runs, and no partial file is left behind."""
        build = os.path.join(self.tmp, "fresh-build")  # an empty cache
        os.makedirs(build)
        cell = json.dumps({"app": "sssp", "input": "gen:road:W=300,H=200,seed=5", "wl": "obim",
                           "threads": 1, "seed": 1})
        procs = [subprocess.Popen([sys.executable, DRIVER, "cell", "--cell", cell, "--round",
                                   "1", "--trials", "1", "--bin", os.path.join(BUILD, "algorithms"),
                                   "--build", build, "--out",
                                   os.path.join(self.tmp, "at-once-%d.jsonl" % i)],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for i in range(6)]
        for p in procs:
            err = p.communicate(timeout=300)[1]
            self.assertEqual(p.returncode, 0, err)
        for i in range(6):
            recs = ob.load_results([os.path.join(self.tmp, "at-once-%d.jsonl" % i)])
            self.assertEqual([r["status"] for r in recs], ["ok"])
        cache = os.listdir(os.path.join(build, "bench-cache"))
        self.assertEqual(len(cache), 1, cache)
        self.assertTrue(cache[0].endswith(".ordo") and ".part" not in cache[0], cache)

    def test_noise_runs_beside_each_cell_and_is_an_ab(self):
        # issue 32, item 1: the interference starts before a cell's process and stops
        # after it; records name it; the report compares noisy with quiet
        out = os.path.join(self.tmp, "noise.jsonl")
        bench("run", "--apps", "sssp", "--inputs", GEN, "--wl", "smq", "--threads", "1",
              "--trials", "1", "--rounds", "1", "-q", "--out", out, "--noise", "none",
              "--noise", "spin:1,alloc:1", "--noise", "proc:bfs", "--noise", "oversub:2")
        recs = ob.load_results([out])
        cells = sorted((r["cell"]["noise"], r["cell"]["threads"]) for r in recs)
        cores = os.cpu_count() or 1
        self.assertEqual(cells, sorted([("none", 1), ("spin:1", 1), ("alloc:1", 1),
                                        ("proc:bfs", 1), ("oversub:2", 2 * cores)]))
        self.assertTrue(all(r["status"] == "ok" for r in recs))
        self.assertEqual(recs[0]["env"]["noises"],
                         ["none", "spin:1", "alloc:1", "proc:bfs", "oversub:2"])
        # nothing is left running
        left = subprocess.run(["pgrep", "-f", os.path.join(BUILD, "bench", "noise")],
                              capture_output=True, text=True).stdout.strip()
        self.assertEqual(left, "")
        rep = bench("report", out).stdout
        self.assertIn("| quiet ms | noise spin:1 ms | noise alloc:1 ms | noise proc:bfs ms |",
                      rep)
        self.assertIn("build / noise", rep)
        # every record has per-worker busy / idle / descheduled seconds (issue 32, item 2)
        for r in recs:
            rec = r["record"]
            self.assertEqual(len(rec["thread_busy_s"]), rec["threads"])
            self.assertEqual(len(rec["thread_descheduled_s"]), rec["threads"])
            self.assertTrue(all(b >= d >= 0 for b, d in zip(rec["thread_busy_s"],
                                                             rec["thread_descheduled_s"])))
        p = bench("plot", out, "--out", os.path.join(self.tmp, "nplots"), check=False)
        if "needs matplotlib" not in p.stderr:
            with open(os.path.join(self.tmp, "nplots", "figures.json")) as f:
                figs = json.load(f)
            util = figs["util-sssp-gen_road_W_24_H_20_seed_3-t1"]["axes"][0]
            self.assertEqual(util["legend"], ["busy on a CPU", "descheduled while busy",
                                              "idle (no work found)"])
            self.assertIn("smq (noise spin:1), worker 0", util["yticks"])
        p = bench("run", "--apps", "sssp", "--inputs", GEN, "--noise", "spin:x", "--out",
                  out, check=False)
        self.assertEqual(p.returncode, 2)
        self.assertIn("--noise spin:x: expected none, spin:N", p.stderr)

    def test_sim_runs_the_thread_counts_as_simulated_workers(self):
        out = os.path.join(self.tmp, "sim.jsonl")
        bench("run", "--apps", "sssp", "--inputs", GEN, "--wl", "obim", "--threads", "1,16",
              "--trials", "1", "--rounds", "1", "-q", "--out", out, "--sim", "slow=1,f=0.5")
        recs = ob.load_results([out])
        self.assertEqual(sorted((r["cell"]["threads"], r["record"]["sim"],
                                 r["record"]["threads"]) for r in recs),
                         [(1, "1:slow=1,f=0.5", 1), (16, "16:slow=1,f=0.5", 16)])
        for r in recs:
            self.assertEqual(r["record"]["verify"], "PASS")
            self.assertGreaterEqual(r["record"]["rank_mean"], 0)

    def test_variants_are_an_ab(self):
        out = os.path.join(self.tmp, "ab.jsonl")
        b = os.path.join(BUILD, "algorithms")
        bench("run", "--apps", "sssp", "--inputs", GEN, "--wl", "smq", "--threads", "1",
              "--trials", "1", "--rounds", "2", "-q", "--out", out, "--variant", "old=" + b,
              "--variant", "new=" + b)
        recs = ob.load_results([out])
        self.assertEqual(sorted({(r["cell"]["variant"], r["round"]) for r in recs}),
                         [("new", 1), ("new", 2), ("old", 1), ("old", 2)])
        rep = bench("report", out).stdout
        # the first --variant is the reference, whatever the names' order
        self.assertIn("| old ms | new ms | new/old |", rep)
        self.assertRegex(rep, r"\| sssp \| %s \| 1 \| `smq` \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \|"
                         % GEN.replace(".", "\\."))
        p = bench("run", "--apps", "sssp", "--inputs", GEN, "--variant", "x=/nonexistent",
                  "--out", out, check=False)
        self.assertEqual(p.returncode, 2)
        self.assertIn("no ordo binaries in /nonexistent", p.stderr)

    def test_bundle_runs_with_sh_alone(self):
        """A bundle runs with /bin/sh and an empty environment, records the same cells as
        a local run (a failing one as failed), resumes without repeating a cell, and its
        records feed report."""
        sweep = ["--apps", "sssp,bfs", "--inputs", GEN, "--wl", "smq", "--wl", "nosuch:x=1",
                 "--threads", "1,2", "--trials", "1", "--rounds", "2"]
        local = os.path.join(self.tmp, "local.jsonl")
        bench("run", *sweep, "-q", "--out", local, check=False)
        d = os.path.join(self.tmp, "bundle")
        bench("bundle", *sweep, "--dir", d)
        self.assertTrue(os.path.exists(os.path.join(d, "bin", "bfs")))
        self.assertEqual(bench("bundle", *sweep, "--dir", d, check=False).returncode, 2)
        run = ["env", "-i", "PATH=/usr/bin:/bin", "sh", os.path.join(d, "run.sh")]
        p = subprocess.run(run, capture_output=True, text=True)
        self.assertEqual(p.returncode, 1, p.stderr)  # the nosuch cells fail
        res = os.path.join(d, "results.jsonl")
        self.assertEqual(cells_of(res), cells_of(local))
        recs = ob.load_results([res])
        st = {(r["cell"]["wl"], r["status"]) for r in recs}
        self.assertEqual(st, {("smq", "ok"), ("nosuch:x=1", "fail")})
        self.assertTrue(all(r["env"]["cores"] >= 1 and r["env"]["host"] for r in recs))
        self.assertTrue(all("NATIVE=" in r["env"]["build"] for r in recs))
        n = len(recs)
        subprocess.run(run, capture_output=True, text=True)
        self.assertEqual(len(ob.load_results([res])), n, "a resumed bundle ran cells again")
        rep = bench("report", res, check=False).stdout
        self.assertIn("| bfs | %s | 2 | `smq` |" % GEN, rep)

    def test_page_regenerates_its_sections(self):
        res = os.path.join(self.tmp, "r.jsonl")
        bench("run", "--apps", "sssp", "--inputs", GEN, "--wl",
              "smq:steal_size={1,4},steal_prob={2,8}", "--threads", "2", "--trials", "1",
              "--rounds", "1", "-q", "--out", res)
        page = os.path.join(self.tmp, "PAGE.md")
        text = ("# Results\n\nhand-written prose stays\n\n<!-- ordo-bench env r.jsonl -->\n"
                "old\n<!-- ordo-bench end -->\n\n<!-- ordo-bench heatmap r.jsonl -->\n"
                "<!-- ordo-bench end -->\n\n<!-- ordo-bench apps r.jsonl r.jsonl -->\nx\n"
                "<!-- ordo-bench end -->\nthe end\n")
        with open(page, "w") as f:
            f.write(text)
        p = bench("page", page, "--check", check=False)
        self.assertEqual(p.returncode, 1)
        self.assertIn("-old", p.stdout)
        bench("page", page)
        with open(page) as f:
            new = f.read()
        self.assertTrue(new.startswith("# Results\n\nhand-written prose stays\n"))
        self.assertTrue(new.endswith("<!-- ordo-bench end -->\nthe end\n"))
        self.assertIn("| steal_size \\ steal_prob | 2 | 8 |", new)
        self.assertIn("**sssp on %s**" % GEN, new)
        self.assertIn("- Machine: ", new)
        self.assertEqual(new.count("| `smq:steal_size=1,steal_prob=2` |"), 1)
        self.assertEqual(bench("page", page, "--check").returncode, 0)
        # a number typed over a generated one is caught
        with open(page, "w") as f:
            f.write(re.sub(r"\| \d+ / ", "| 1 / ", new, count=1))
        self.assertEqual(bench("page", page, "--check", check=False).returncode, 1)
        with open(page, "w") as f:
            f.write("<!-- ordo-bench nosuch r.jsonl -->\n<!-- ordo-bench end -->\n")
        p = bench("page", page, check=False)
        self.assertEqual(p.returncode, 2)
        self.assertIn("unknown view 'nosuch'", p.stderr)

    def test_load_records_time_and_memory(self):
        out = os.path.join(self.tmp, "load.jsonl")
        tiny = os.path.join(SRC, "tests", "fixtures", "tiny.gr")
        bad = os.path.join(self.tmp, "bad.gr")
        with open(bad, "w") as f:
            f.write("p sp 3 1\na 1 x 4\n")
        p = bench("load", "--inputs", tiny + "," + bad, "--inputs", GEN, "--threads", "1,2",
                  "--rounds", "2", "-q", "--out", out, check=False)
        self.assertEqual(p.returncode, 1)
        self.assertIn("FAIL load %s" % bad, p.stderr)
        recs = ob.load_results([out])
        self.assertEqual(len(recs), 3 * 2 * 2)
        ok = [r for r in recs if r["status"] == "ok"]
        self.assertEqual({r["cell"]["input"] for r in ok}, {tiny, GEN})
        self.assertTrue(all(r["quality"]["peak_rss_mib"] > 1 for r in ok))
        self.assertTrue(all("parse_s" in r["quality"] for r in ok if r["cell"]["input"] == tiny))
        self.assertIn("| %s | 2 |" % tiny, p.stdout)
        self.assertIn("| %s | 1 | - |" % bad, p.stdout)


class Rank(unittest.TestCase):
    def test_replay_of_a_hand_made_log(self):
        """push 5,3,8; pop 3 (rank 0, delay 0); pop 8 (rank 1: 5 is there; delay 0);
        push 1; pop 5 (rank 1: 1 is there; delay 1: 8 went first); pop 1 (rank 0,
        delay 1: 5 went first); a pop of a key never pushed is ignored. Records are
        written out of order: the replay sorts them by time."""
        import random
        import struct
        POP = 1 << 63
        recs = [(1, 5), (2, 3), (3, 8), (4, 3 | POP), (5, 8 | POP), (6, 1), (7, 5 | POP),
                (8, 1 | POP), (9, 77 | POP)]
        random.Random(1).shuffle(recs)
        with tempfile.NamedTemporaryFile(suffix=".log", delete=False) as f:
            f.write(b"ORDOLOG1" + struct.pack("<Q", len(recs)))
            for t, k in recs:
                f.write(struct.pack("<QQ", t, k))
        mono = os.path.join(BUILD, "bench", "monotonic")
        out = subprocess.run([mono, "--replay", f.name], capture_output=True, text=True)
        os.unlink(f.name)
        self.assertEqual(out.stdout.strip(),
                         "pops 4 rank_mean 0.5000 rank_max 1 delay_mean 0.5000 delay_max 1")

    def test_strict_alone_is_exact_and_fifo_is_not(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "rank.jsonl")
            p = bench("rank", "--wl", "strict", "--wl", "fifo", "--threads", "1", "--ops",
                      "20000", "--rounds", "1", "--out", out, "--bin",
                      os.path.join(BUILD, "algorithms"), "--build", BUILD)
            self.assertIn("| `strict` | 1 | 0.00 | 0 | 0.00 | 0 |", p.stdout)
            q = {r["cell"]["wl"]: r["quality"] for r in ob.load_results([out])}
            self.assertGreater(q["fifo"]["rank_mean"], 100)
            self.assertGreater(q["strict"]["pops"], 9000)
            p = bench("plot", out, "--out", os.path.join(d, "plots"), check=False)
            if "needs matplotlib" not in p.stderr:
                self.assertIn("rank-t1.png", os.listdir(os.path.join(d, "plots")))
                with open(os.path.join(d, "plots", "figures.json")) as f:
                    rank = json.load(f)["rank-t1"]["axes"][0]
                self.assertEqual(sorted(rank["yticks"]), ["fifo", "strict"])
                self.assertEqual(sorted(rank["legend"]), ["delay, mean", "rank error, mean"])

    def test_mono_measures_throughput_and_resumes(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "mono.jsonl")
            args = ["mono", "--wl", "strict", "--wl", "obim:delta={0,4}", "--threads", "1",
                    "--seconds", "0.05", "--prefill", "8", "--rounds", "2", "-q", "--out", out]
            p = bench(*args)
            self.assertRegex(p.stdout, r"\| 1 \| `obim:delta=4` \| [0-9.]+ \([0-9.]+-[0-9.]+\) \| 2 \|")
            recs = ob.load_results([out])
            self.assertEqual(len(recs), 6)
            self.assertTrue(all(r["quality"]["pairs_per_s"] > 0 for r in recs))
            bench(*args)
            self.assertEqual(len(ob.load_results([out])), 6)
            # it says how long it will take before it starts (issue 44, trip 6)
            p = bench(*[a for a in args if a != "-q"])
            self.assertIn("ordo-bench mono: 3 cells (schedulers x thread counts) x 2 rounds x "
                          "0.05 s: at least 0 s", p.stderr)
            # throughput has no plot: said, and not a success
            p = bench("plot", out, "--out", os.path.join(d, "plots"), check=False)
            if "needs matplotlib" not in p.stderr:
                self.assertEqual(p.returncode, 1, p.stderr)
                self.assertIn("nothing to plot in %s" % out, p.stderr)
                self.assertIn("`ordo-bench report` tabulates it", p.stderr)

    def test_run_help_shows_the_defaults(self):
        p = bench("run", "--help")
        self.assertRegex(p.stdout, r"--trials TRIALS\s+trials per cell process \(default: 3\)")
        self.assertRegex(p.stdout, r"--rounds ROUNDS\s+interleaved rounds \(default: 3\)")
        self.assertNotIn("(default: None)", p.stdout)

    def test_defaults_never_reuse_and_tables_show_what_was_asked(self):
        # issue 31, item 1: no --out -> a new file under BUILD/bench-results each time,
        # nothing in the source tree; with a shared --out, reuse is counted and the table
        # holds only the asked cells
        src_results = os.path.join(SRC, "bench", "results")
        before = sorted(os.listdir(src_results)) if os.path.isdir(src_results) else []
        args = ["mono", "--wl", "strict", "--threads", "1", "--seconds", "0.05", "--prefill",
                "8", "--rounds", "1", "-q"]
        files = []
        for _ in range(2):
            p = bench(*args)
            m = re.search(r"1 runs measured, 0 reused .*results in (\S+)", p.stderr)
            self.assertIsNotNone(m, p.stderr)
            files.append(m.group(1))
            self.assertEqual(os.path.dirname(m.group(1)), os.path.join(BUILD, "bench-results"))
            self.assertTrue(os.path.exists(m.group(1)))
        self.assertNotEqual(files[0], files[1])
        after = sorted(os.listdir(src_results)) if os.path.isdir(src_results) else []
        self.assertEqual(before, after)
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "m.jsonl")
            bench("mono", "--wl", "strict", "--wl", "fifo", "--threads", "1", "--seconds",
                  "0.05", "--prefill", "8", "--rounds", "1", "-q", "--out", out)
            p = bench(*args, "--out", out)
            self.assertIn("0 runs measured, 1 reused", p.stderr)
            self.assertIn("`strict`", p.stdout)
            self.assertNotIn("`fifo`", p.stdout)
            # run: the same for app cells, and it ends with the table
            run = ["run", "--apps", "sssp", "--inputs", GEN, "--threads", "1", "--trials",
                   "1", "--rounds", "1", "-q", "--out", os.path.join(d, "r.jsonl")]
            bench(*run, "--wl", "fifo", "--wl", "strict")
            p = bench(*run, "--wl", "strict")
            self.assertIn("0 cell runs measured, 1 reused", p.stderr)
            self.assertIn("`strict`", p.stdout)
            self.assertNotIn("`fifo`", p.stdout)
        for f in files:
            os.unlink(f)


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
