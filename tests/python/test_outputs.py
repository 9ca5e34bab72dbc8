"""The binaries' --output (algorithms/app_answer.c), read back with NumPy and as text and
compared with independent oracles (SciPy's csgraph, NetworkX): every app, the input's
ids (DIMACS is 1-based), renumbered graphs, unreached nodes, refusals. Run by ctest
(test `python_package`) with ORDO_BIN_DIR naming the built binaries; skipped, saying
so, without it."""
import os
import subprocess

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as cg

BIN = os.environ.get("ORDO_BIN_DIR")
FIX = os.environ.get("ORDO_FIXTURES", os.path.join(os.path.dirname(__file__), "..",
                                                   "fixtures"))
pytestmark = pytest.mark.skipif(not BIN, reason="ORDO_BIN_DIR (the built binaries) not set")
U64 = np.iinfo(np.uint64).max
U32 = np.iinfo(np.uint32).max


def run(app, *args):
    return subprocess.run([os.path.join(BIN, app), *args, "-q"], capture_output=True,
                          text=True)


def graph(n=400, density=0.01, seed=3, symmetric=False):
    """A random weighted digraph with a few nodes nobody reaches (the last 20 have no
    in-arcs and no out-arcs)."""
    rng = np.random.default_rng(seed)
    A = sp.random(n, n, density=density, format="csr", random_state=seed)
    A.data = rng.integers(1, 100, size=A.nnz).astype(np.float64)
    A = (A - sp.diags(A.diagonal())).tolil()
    A[n - 20:, :] = 0
    A[:, n - 20:] = 0
    A = A.tocsr()
    A.eliminate_zeros()
    if symmetric:
        A = sp.triu(A, 1)
        A = (A + A.T).tocsr()
    return A


def write_dimacs(A, path):
    A = A.tocoo()
    with open(path, "w") as f:
        f.write("p sp %d %d\n" % (A.shape[0], A.nnz))
        for u, v, w in zip(A.row, A.col, A.data):
            f.write("a %d %d %d\n" % (u + 1, v + 1, int(w)))


def read_text(path):
    """The '#' header lines and the rows of a text answer."""
    head, rows = [], []
    with open(path) as f:
        for line in f:
            (head if line.startswith("#") else rows).append(line.split())
    return head, rows


def test_sssp_npy_and_text_match_scipy(tmp_path):
    A = graph()
    gr = str(tmp_path / "g.gr")
    write_dimacs(A, gr)
    ref = cg.dijkstra(A, indices=5)
    r = run("sssp", gr, "-r", "5", "-n", "1", "--output", str(tmp_path / "d.npy"))
    assert r.returncode == 0, r.stderr
    d = np.load(tmp_path / "d.npy")
    assert d.dtype == np.uint64 and d.shape == (A.shape[0],)
    np.testing.assert_array_equal(np.where(d == U64, np.inf, d.astype(float)), ref)
    assert run("sssp", gr, "-r", "5", "-n", "1", "--output",
               str(tmp_path / "d.txt")).returncode == 0
    head, rows = read_text(tmp_path / "d.txt")
    assert any("1-based" in " ".join(h) for h in head)
    assert [int(r[0]) for r in rows] == list(range(1, A.shape[0] + 1))  # DIMACS ids
    got = np.array([np.inf if r[1] == "unreached" else float(r[1]) for r in rows])
    np.testing.assert_array_equal(got, ref)
    assert (got == np.inf).sum() >= 20


def test_a_renumbered_graph_answers_in_the_input_order(tmp_path):
    A = graph(seed=8)
    gr = str(tmp_path / "g.gr")
    write_dimacs(A, gr)
    ref = cg.dijkstra(A, indices=0)
    for order in ("rcm", "degree"):
        out = str(tmp_path / ("d_%s.npy" % order))
        r = run("sssp", gr, "-r", "0", "-n", "1", "--reorder", order, "--output", out)
        assert r.returncode == 0, r.stderr
        d = np.load(out)
        np.testing.assert_array_equal(np.where(d == U64, np.inf, d.astype(float)), ref)


def test_bfs_levels_match_scipy(tmp_path):
    A = graph(seed=4)
    gr = str(tmp_path / "g.gr")
    write_dimacs(A, gr)
    ref = cg.shortest_path(A, unweighted=True, indices=2)
    assert run("bfs", gr, "-r", "2", "-n", "1", "--output",
               str(tmp_path / "l.npy")).returncode == 0
    lv = np.load(tmp_path / "l.npy")
    assert lv.dtype == np.uint32
    np.testing.assert_array_equal(np.where(lv == U32, np.inf, lv.astype(float)), ref)


def test_kcore_matches_networkx(tmp_path):
    A = graph(seed=5, density=0.03, symmetric=True)
    gr = str(tmp_path / "g.gr")
    write_dimacs(A, gr)
    G = nx.from_scipy_sparse_array(A)
    ref = nx.core_number(G)
    assert run("kcore", gr, "-n", "1", "--output", str(tmp_path / "c.npy")).returncode == 0
    core = np.load(tmp_path / "c.npy")
    assert [int(c) for c in core] == [ref[v] for v in range(A.shape[0])]


def test_mst_forest_npz_matches_scipy(tmp_path):
    A = graph(seed=6, density=0.02, symmetric=True)
    gr = str(tmp_path / "g.gr")
    write_dimacs(A, gr)
    ref = cg.minimum_spanning_tree(A)
    assert run("mst", gr, "-n", "1", "--output", str(tmp_path / "f.npz")).returncode == 0
    z = np.load(tmp_path / "f.npz")
    assert sorted(z.files) == ["forest_u", "forest_v", "forest_w"]
    u, v, w = z["forest_u"], z["forest_v"], z["forest_w"]
    assert len(u) == ref.nnz and int(w.sum()) == int(ref.sum())
    # every forest edge is an edge of the graph with that weight (0-based input ids)
    assert all(A[a, b] == c for a, b, c in zip(u, v, w))
    head, rows = read_text_of(run, "mst", gr, tmp_path / "f.txt")
    assert len(rows) == ref.nnz and sum(int(r[2]) for r in rows) == int(ref.sum())
    assert all(A[int(r[0]) - 1, int(r[1]) - 1] == int(r[2]) for r in rows)  # 1-based


def read_text_of(run_, app, gr, path):
    assert run_(app, gr, "-n", "1", "--output", str(path)).returncode == 0
    return read_text(path)


def test_astar_distance_matches_dijkstra(tmp_path):
    tiny = os.path.join(FIX, "tiny.gr")  # with tiny.co beside it
    r = run("astar", tiny, "-r", "0", "--target", "3", "-n", "1", "--output",
            str(tmp_path / "a.txt"))
    assert r.returncode == 0, r.stderr
    head, rows = read_text(tmp_path / "a.txt")
    assert ["#", "distance", "11"] in head  # tiny: 0 -> 1 -> 2 -> 3 is 3 + 1 + 7
    assert rows == [["1"], ["2"], ["3"], ["4"]]  # the path, in DIMACS ids
    assert any("source 1, target 4" in " ".join(h) for h in head)


def test_refusals_leave_no_file(tmp_path):
    tiny = os.path.join(FIX, "tiny.gr")
    r = run("sssp", tiny, "-n", "1", "--output", str(tmp_path / "no" / "d.txt"))
    assert r.returncode == 2 and "does not exist" in r.stderr
    assert not (tmp_path / "no").exists()
    r = run("mst", tiny, "-n", "1", "--output", str(tmp_path / "f.npy"))
    assert r.returncode == 2 and "a .npy file holds one" in r.stderr
    assert os.listdir(tmp_path) == []  # nor a temporary file
    r = run("sssp", tiny, "-n", "1", "--output", str(tmp_path))
    assert r.returncode == 2 and "a directory" in r.stderr


@pytest.mark.parametrize("order", [None, "degree"])
def test_sssp_parents_form_a_shortest_path_tree(tmp_path, order):
    A = graph(seed=9)
    gr = str(tmp_path / "g.gr")
    write_dimacs(A, gr)
    out = str(tmp_path / "t.npz")
    args = ["-r", "7", "-n", "1", "--parents", "--output", out]
    if order:
        args += ["--reorder", order]
    r = run("sssp", gr, *args)
    assert r.returncode == 0, r.stderr
    z = np.load(out)
    d, p = z["dist"], z["parent"]
    ref = cg.dijkstra(A, indices=7)
    np.testing.assert_array_equal(np.where(d == U64, np.inf, d.astype(float)), ref)
    assert p[7] == 7
    for v in range(A.shape[0]):
        if v == 7:
            continue
        if d[v] == U64:
            assert p[v] == U32, "an unreached node has no parent"
        else:
            assert A[p[v], v] > 0 and int(d[p[v]]) + int(A[p[v], v]) == int(d[v]), v
    r = run("sssp", gr, "-r", "7", "-n", "1", "--parents", "--output",
            str(tmp_path / "t.npy"))
    assert r.returncode == 2 and "a .npy file holds one" in r.stderr


def test_astar_path_is_a_shortest_path(tmp_path):
    from pathlib import Path
    tiny = os.path.join(FIX, "tiny.gr")
    for extra in ([], ["--reorder", "rcm"]):
        out = str(tmp_path / "a.npz")
        r = run("astar", tiny, "-r", "0", "--target", "3", "-n", "1", "--output", out,
                *extra)
        assert r.returncode == 0, r.stderr
        z = np.load(out)
        assert list(z["path"]) == [0, 1, 2, 3] and list(z["distance"]) == [11]
        Path(out).unlink()
    # the report prints it, in the report's 0-based ids
    r = subprocess.run([os.path.join(BIN, "astar"), tiny, "-r", "0", "--target", "3", "-n",
                        "1"], capture_output=True, text=True)
    assert "path: 0 1 2 3 (4 nodes, length 11)" in r.stdout


def test_python_astar_gives_the_path():
    import ordo
    g = ordo.load(os.path.join(FIX, "tiny.gr"))
    r = ordo.astar(g, 0, 3)
    assert list(r.path) == [0, 1, 2, 3] and r.distance == 11


def test_components_names_components_by_their_smallest_input_id_renumbered_or_not(tmp_path):
    """components' --output: each node's component as its smallest input id (0-based in .npy,
    1-based DIMACS ids in text), the same under --reorder, which changes the graph's
    own ids and so its labels."""
    A = graph(seed=8, density=0.003, symmetric=True)
    gr = str(tmp_path / "g.gr")
    write_dimacs(A, gr)
    k, lab = cg.connected_components(A, directed=False)
    first = {}
    for v, c in enumerate(lab):
        first.setdefault(c, v)
    want = [first[c] for c in lab]
    for extra in ([], ["--reorder", "rcm"], ["--algo", "lp"], ["--reorder", "degree", "--wl", "smq"]):
        out = str(tmp_path / "c.npy")
        r = run("components", gr, "-n", "1", "--output", out, *extra)
        assert r.returncode == 0, r.stderr
        assert np.load(out).tolist() == want, extra
    head, rows = read_text_of(run, "components", gr, tmp_path / "c.txt")
    assert [int(r[1]) for r in rows] == [v + 1 for v in want]


def test_pagerank_writes_float64_ranks(tmp_path):
    """pagerank's --output: a float64 .npy np.load reads, and text with every digit, both
    in the input's order and within the tolerance of NetworkX's ranks."""
    A = graph(seed=9, density=0.02)
    gr = str(tmp_path / "g.gr")
    write_dimacs(A, gr)
    want = nx.pagerank(nx.from_scipy_sparse_array(A, create_using=nx.DiGraph), alpha=0.85,
                       tol=1e-13, max_iter=10000, weight=None)
    ref = np.array([want[v] for v in range(A.shape[0])])
    out = str(tmp_path / "r.npy")
    r = run("pagerank", gr, "-n", "1", "--tolerance", "1e-5", "--output", out)
    assert r.returncode == 0, r.stderr
    rank = np.load(out)
    assert rank.dtype == np.float64 and np.abs(rank - ref).sum() <= 1e-5
    head, rows = read_text_of(run, "pagerank", gr, tmp_path / "r.txt")
    assert np.abs(np.array([float(x[1]) for x in rows]) - ref).sum() <= 1e-4
