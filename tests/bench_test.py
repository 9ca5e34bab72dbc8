#!/usr/bin/env python3
"""The benchmark driver (bench/ordo-bench) on tiny generated graphs, seconds long: grid
parsing, cell enumeration and interleaving, a sweep interrupted and resumed gives the
same cells, a failing cell is recorded and reported, and `jobs` run by GNU parallel
(when installed; otherwise by sh) then `merge` give the same cells as a local run.

  bench_test.py SOURCE_DIR BUILD_DIR
"""
import importlib.machinery
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

SRC, BUILD = sys.argv[1], sys.argv[2]
DRIVER = os.path.join(SRC, "bench", "ordo-bench")
loader = importlib.machinery.SourceFileLoader("ordo_bench", DRIVER)
spec = importlib.util.spec_from_loader("ordo_bench", loader)
ob = importlib.util.module_from_spec(spec)
loader.exec_module(ob)
GEN = "gen:road:W=24,H=20,seed=3"


def bench(*args, check=True):
    p = subprocess.run([sys.executable, DRIVER] + list(args) +
                       (["--bin", os.path.join(BUILD, "algorithms"), "--build", BUILD]
                        if args[0] in ("run", "compare", "jobs") else []),
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
        lines = open(full).read().splitlines()
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


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
