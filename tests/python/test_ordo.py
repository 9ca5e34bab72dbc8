"""`import ordo` against independent oracles (SciPy's csgraph, NetworkX), on fixtures and
generated graphs, with every registered scheduler at 1 and 2 threads; zero-copy and
lifetimes; bad input from Python. Run by ctest (test `python_package`) with
PYTHONPATH=BUILD/python; ORDO_FIXTURES names tests/fixtures."""
import gc
import os
import weakref

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as cg

import ordo

FIX = os.environ.get("ORDO_FIXTURES", os.path.join(os.path.dirname(__file__), "..",
                                                   "fixtures"))
SCHEDULERS = sorted(ordo.schedulers())


def random_graph(n=300, density=0.02, seed=1, symmetric=False, wmax=100):
    rng = np.random.default_rng(seed)
    A = sp.random(n, n, density=density, format="csr", random_state=seed)
    A.data = rng.integers(1, wmax, size=A.nnz).astype(np.float64)
    A = (A - sp.diags(A.diagonal())).tocsr()
    A.eliminate_zeros()
    if symmetric:
        A = sp.triu(A, 1)
        A = (A + A.T).tocsr()
    return A


def dist_as_float(d):
    f = d.astype(np.float64)
    f[d == ordo.DIST_INF] = np.inf
    return f


# ---- every app against an oracle ----

@pytest.mark.parametrize("wl", SCHEDULERS)
@pytest.mark.parametrize("threads", [1, 2])
def test_sssp_matches_scipy_dijkstra(wl, threads):
    A = random_graph(seed=threads)
    g = ordo.Graph.from_scipy(A)
    for src in (0, 17):
        r = ordo.sssp(g, src, scheduler=wl, threads=threads)
        assert r.verified is True
        np.testing.assert_array_equal(dist_as_float(r.dist), cg.dijkstra(A, indices=src))
        assert r.record["scheduler"].startswith(wl)
        assert r.record["threads"] == threads


@pytest.mark.parametrize("wl", [None] + SCHEDULERS)
@pytest.mark.parametrize("threads", [1, 2])
def test_bfs_matches_scipy_breadth_first(wl, threads):
    A = random_graph(seed=5)
    g = ordo.Graph.from_scipy(A, weighted=False)
    r = ordo.bfs(g, 3, scheduler=wl, threads=threads)
    hops = cg.shortest_path(A, unweighted=True, indices=3)
    level = r.level.astype(np.float64)
    level[r.level == ordo.LEVEL_INF] = np.inf
    np.testing.assert_array_equal(level, hops)
    order = cg.breadth_first_order(A, 3, return_predecessors=False)
    assert set(order) == set(np.flatnonzero(r.level != ordo.LEVEL_INF))


@pytest.mark.parametrize("wl", [None] + SCHEDULERS)
@pytest.mark.parametrize("threads", [1, 2])
def test_mst_matches_scipy_minimum_spanning_tree(wl, threads):
    A = random_graph(n=400, density=0.03, seed=7, symmetric=True)
    g = ordo.Graph.from_scipy(A)
    assert g.symmetric
    r = ordo.mst(g, scheduler=wl, threads=threads)
    ref = cg.minimum_spanning_tree(A)
    assert int(r.forest_w.sum()) == int(ref.sum())
    assert len(r.forest_u) == ref.nnz == r.record["forest_edges"]
    # the arcs are arcs of the graph with their weights, and form a forest
    for u, v, w in zip(r.forest_u, r.forest_v, r.forest_w):
        assert A[u, v] == w
    ncomp = cg.connected_components(A, directed=False)[0]
    assert r.record["components"] == ncomp


def test_networkx_labels_in_and_out():
    nx = pytest.importorskip("networkx")
    G = nx.Graph()
    G.add_weighted_edges_from([("alice", "bob", 3), ("bob", "carol", 4), ("alice", "carol", 9),
                               ("carol", "dave", 1)])
    G.add_node("eve")  # unreached
    g = ordo.Graph.from_networkx(G)
    r = ordo.sssp(g, "alice")
    assert r.by_label() == nx.single_source_dijkstra_path_length(G, "alice")
    assert ordo.bfs(g, "dave").by_label() == nx.single_source_shortest_path_length(G, "dave")
    assert ordo.kcore(g).by_label() == nx.core_number(G)
    rs = ordo.sssp(g, ["bob", "dave"])  # a list: one result per source
    assert [x.by_label()["alice"] for x in rs] == [3, 8]
    f = ordo.mst(g)  # distinct weights: one forest, its edges in labels
    got = {(frozenset((u, v)), w) for u, v, w in zip(f.forest_u_labels, f.forest_v_labels,
                                                    f.forest_w.tolist())}
    assert got == {(frozenset((u, v)), d["weight"]) for u, v, d in nx.minimum_spanning_edges(G)}
    with pytest.raises(KeyError, match="'mallory' is not a node"):
        ordo.sssp(g, "mallory")
    # tuple labels (a grid's) name one node each; a path comes back in labels
    H = nx.grid_2d_graph(4, 3)
    for u, v in H.edges:
        H.edges[u, v]["weight"] = 1
    gh = ordo.Graph.from_networkx(H)
    rh = ordo.sssp(gh, (0, 0))
    assert rh.by_label() == nx.single_source_dijkstra_path_length(H, (0, 0))
    assert ordo.Graph.from_csr(*gh.csr()[:2]).nodes is None
    with pytest.raises(ValueError, match="not made from NetworkX"):
        ordo.sssp(ordo.Graph.from_csr(*gh.csr()[:2]), 0).by_label()


@pytest.mark.parametrize("wl", [None] + SCHEDULERS)
@pytest.mark.parametrize("threads", [1, 2])
def test_kcore_matches_networkx(wl, threads):
    nx = pytest.importorskip("networkx")
    G = nx.gnm_random_graph(300, 1500, seed=3)
    g = ordo.Graph.from_networkx(G, weight=None)
    r = ordo.kcore(g, scheduler=wl, threads=threads)
    ref = nx.core_number(G)
    assert [int(r.core[i]) for i in range(len(g.nodes))] == [ref[v] for v in g.nodes]


@pytest.mark.parametrize("wl", [None] + SCHEDULERS)
@pytest.mark.parametrize("threads", [1, 2])
def test_astar_matches_networkx(wl, threads):
    nx = pytest.importorskip("networkx")
    g = ordo.load(os.path.join(FIX, "..", "..", "inputs", "samples", "road-40x30.gr"))
    A = g.to_scipy()
    G = nx.from_scipy_sparse_array(A, create_using=nx.DiGraph)
    for s, t in ((0, 1199), (5, 600)):
        r = ordo.astar(g, s, t, scheduler=wl, threads=threads)
        assert r.verified is True
        assert r.distance == nx.astar_path_length(G, s, t, weight="weight")


def test_fixture_file_every_scheduler():
    g = ordo.load(os.path.join(FIX, "tiny.gr"))
    ref = cg.dijkstra(g.to_scipy(), indices=0)
    for wl in SCHEDULERS:
        np.testing.assert_array_equal(dist_as_float(ordo.sssp(g, 0, scheduler=wl).dist), ref)


def test_several_sources_are_several_trials():
    g = ordo.Graph.from_scipy(random_graph(seed=9))
    rs = ordo.sssp(g, [0, 1, 2])
    assert [r.record["trial"] for r in rs] == [1, 2, 3]
    assert [r.record["source"] for r in rs] == [0, 1, 2]


def test_records_have_the_binaries_fields():
    g = ordo.Graph.from_scipy(random_graph(seed=2))
    rec = ordo.sssp(g, 0, scheduler="smq", threads=2).record
    for f in ("algorithm", "scheduler", "threads", "time_s", "tasks", "empty_tasks",
              "pushes", "baseline_tasks", "work_ratio", "baseline_time_s",
              "tasks_thread_min", "tasks_thread_median", "tasks_thread_max", "verify",
              "mismatches", "reached", "max_dist"):
        assert f in rec, f
    assert rec["verify"] == "PASS"
    assert rec["scheduler"] == ordo.resolve_scheduler("smq")


def test_app_parameters_apply_as_in_the_binaries():
    g = ordo.Graph.from_scipy(random_graph(seed=2), weighted=False)
    assert ordo.bfs(g, 0, scheduler="obim").record["scheduler"].startswith("obim:delta=0,")
    # sssp's delta, unset, comes from the graph (unit weights: a shift of 0 or 3)
    rec = ordo.sssp(g, 0, scheduler="obim").record
    assert rec["delta_from_graph"] in (0, 3)
    assert rec["scheduler"].startswith("obim:delta=%d," % rec["delta_from_graph"])
    assert ordo.sssp(g, 0, scheduler="obim:delta=5").record["delta_from_graph"] is None
    assert ordo.bfs(g, 0, scheduler="obim").record["delta_from_graph"] is None
    assert ordo.sssp(g, 0, scheduler="obim", delta=3).record["scheduler"].startswith(
        "obim:delta=3,")


def test_mst_scheduler_follows_the_graphs_diameter():
    # a 64 x 64 grid (a 1024-node ball is 22 levels deep): SMQ; a random graph: obim
    k, rng = 64, np.random.default_rng(7)
    ids = np.arange(k * k).reshape(k, k)
    u = np.concatenate([ids[:, :-1].ravel(), ids[:-1, :].ravel()])
    v = np.concatenate([ids[:, 1:].ravel(), ids[1:, :].ravel()])
    w = rng.integers(1, 256, size=u.size).astype(np.float64)
    A = sp.coo_matrix((np.concatenate([w, w]), (np.concatenate([u, v]), np.concatenate([v, u]))),
                      shape=(k * k, k * k)).tocsr()
    grid = ordo.Graph.from_scipy(A)
    r = ordo.mst(grid)
    assert r.record["scheduler"] == ordo.resolve_scheduler("smq:pq=bucket")
    assert r.record["verify"] == "PASS"
    assert r.record["forest_weight"] == cg.minimum_spanning_tree(A).sum()
    assert ordo.mst(grid, scheduler="obim").record["scheduler"].startswith("obim:delta=0,")
    assert ordo.mst(grid, delta=2).record["scheduler"].startswith("obim:delta=2,")
    social = ordo.Graph.from_scipy(random_graph(seed=6, symmetric=True))
    assert ordo.mst(social).record["scheduler"].startswith("obim:delta=0,")


def test_app_options_apply_as_the_binaries_options():
    A = random_graph(seed=4, symmetric=True)
    g = ordo.Graph.from_scipy(A, weighted=False)
    hops = cg.shortest_path(A, unweighted=True, indices=0)
    for direction, pulls in (("pull", True), ("rounds-push", False)):
        r = ordo.bfs(g, 0, direction=direction, handoff_round=0)
        assert (r.record["rounds_pull"] > 0) == pulls
        assert (r.record["rounds_push"] > 0) != pulls
        level = r.level.astype(np.float64)
        level[r.level == ordo.LEVEL_INF] = np.inf
        np.testing.assert_array_equal(level, hops)
    peel, bounds = ordo.kcore(g, algo="peel"), ordo.kcore(g, algo="bounds")
    np.testing.assert_array_equal(peel.core, bounds.core)
    # peeling runs no executor (no per-worker times); the bounds operator does
    assert peel.record["thread_busy_s"] is None and bounds.record["thread_busy_s"]
    with pytest.raises(ordo.Error, match="direction=sideways: expected auto, push"):
        ordo.bfs(g, 0, direction="sideways")
    with pytest.raises(ordo.Error, match="alpha=0: expected a number > 0"):
        ordo.bfs(g, 0, alpha=0)


def test_renumbered_graph_answers_in_input_ids():
    path = os.path.join(FIX, "tiny.gr")
    plain, rcm = ordo.load(path), ordo.load(path, reorder="rcm")
    for s in range(plain.n):
        np.testing.assert_array_equal(ordo.sssp(plain, s).dist, ordo.sssp(rcm, s).dist)


def test_compressed_load():
    path = os.path.join(FIX, "tiny.gr")
    g = ordo.load(path, compress=True)
    assert g.compressed
    np.testing.assert_array_equal(ordo.sssp(g, 0).dist, ordo.sssp(ordo.load(path), 0).dist)
    with pytest.raises(ValueError, match="compressed graph has no CSR"):
        g.csr()


def test_mappable_file_is_mapped_not_copied():
    g = ordo.load(os.path.join(FIX, "tiny_map.ordo"))
    h = ordo.load(os.path.join(FIX, "tiny.gr"))
    assert g.mapped and not h.mapped and g.info()["mapped"]
    for a, b in zip(g.csr(), h.csr()):
        np.testing.assert_array_equal(a, b)
        assert not a.flags.writeable
    np.testing.assert_array_equal(ordo.sssp(g, 0).dist, ordo.sssp(h, 0).dist)
    assert ordo.load(os.path.join(FIX, "tiny_map.ordo"), verify_mapped=True).mapped


def test_seats_and_coop_keep_the_answer():
    A = random_graph(n=2000, density=0.004, seed=7, symmetric=True)
    g = ordo.Graph.from_scipy(A)
    want = dist_as_float(ordo.sssp(g, 0, threads=4, seats="all").dist)
    name = "ordo-test-py-%d" % os.getpid()
    try:
        for seats, coop in ((1, None), ("auto", None), ("adapt", None), (2, name)):
            r = ordo.sssp(g, 0, scheduler="smq", threads=4, seats=seats, coop=coop)
            np.testing.assert_array_equal(dist_as_float(r.dist), want)
            assert r.verified
            if seats == 1:
                assert r.record["seats"] == 1
    finally:
        if os.path.exists("/dev/shm/" + name):
            os.unlink("/dev/shm/" + name)
    with pytest.raises(ordo.Error, match="seats=0: expected auto, adapt, all or a count"):
        ordo.sssp(g, 0, seats=0)


def test_sim_runs_simulated_workers_with_the_right_answer():
    A = random_graph(n=1500, density=0.004, seed=9, symmetric=True)
    g = ordo.Graph.from_scipy(A)
    want = cg.dijkstra(A, indices=0)
    for spec in (16, "64:gamma=0.5", "8:slow=1,f=0.01"):
        r = ordo.sssp(g, 0, scheduler="mq", sim=spec)
        np.testing.assert_array_equal(dist_as_float(r.dist), want)
        rec = r.record
        assert r.verified and rec["sim"] == str(spec)
        assert rec["rank_mean"] == rec["delay_mean"]  # the same inversions, both sides
        assert sum(rec["rank_hist"]) == sum(rec["delay_hist"]) == rec["tasks"]
        assert rec["delay_max"] >= rec["delay_mean"] > 0
    real = ordo.sssp(g, 0, scheduler="mq", threads=2).record
    assert real["sim"] is None and real["rank_mean"] is None
    with pytest.raises(ordo.Error, match="sim=0: expected P"):
        ordo.sssp(g, 0, sim=0)
    with pytest.raises(ValueError, match="sim=True"):
        ordo.sssp(g, 0, sim=True)
    with pytest.raises(ordo.Error, match="do not go together"):
        ordo.sssp(g, 0, sim=4, coop=True)


# ---- zero copy and lifetimes ----

def test_fitting_arrays_are_borrowed_without_a_copy():
    A = random_graph(seed=4)
    indptr = A.indptr.astype(np.uint64)
    indices = A.indices.astype(np.uint32)
    w = A.data.astype(np.uint32)
    g = ordo.Graph.from_csr(indptr, indices, w)
    assert g.borrowed and g.conversions == []
    p, i, ww = g.csr()
    assert np.shares_memory(p, indptr) and np.shares_memory(i, indices)
    assert np.shares_memory(ww, w)
    # signed twins are viewed, not copied
    g2 = ordo.Graph.from_csr(indptr.astype(np.int64), indices.astype(np.int32),
                             w.astype(np.int32))
    assert g2.conversions == []


def test_mismatched_dtypes_are_converted_once_and_said():
    A = random_graph(seed=4)  # SciPy: int32 indptr, float64 data
    g = ordo.Graph.from_scipy(A)
    assert any("indptr copied from int32" in c for c in g.conversions)
    assert any("weights copied from float64" in c for c in g.conversions)
    assert not any("indices" in c for c in g.conversions)  # int32 indices: a view
    _, i, _ = g.csr()
    assert np.shares_memory(i, A.indices)


def test_graph_outlives_the_callers_arrays_and_result_outlives_the_graph():
    A = random_graph(seed=6)
    ref = cg.dijkstra(A, indices=0)
    indptr = A.indptr.astype(np.uint64)
    indices = A.indices.astype(np.uint32)
    w = A.data.astype(np.uint32)
    g = ordo.Graph.from_csr(indptr, indices, w)
    probe = weakref.ref(indptr)
    del indptr, indices, w, A
    gc.collect()
    assert probe() is not None  # held by the graph
    r = ordo.sssp(g, 0)
    np.testing.assert_array_equal(dist_as_float(r.dist), ref)
    del g
    gc.collect()
    assert probe() is None  # released with the graph
    np.testing.assert_array_equal(dist_as_float(r.dist), ref)  # the result is its own


def borrowed_graph(seed=4):
    A = random_graph(seed=seed)
    arrs = (A.indptr.astype(np.uint64), A.indices.astype(np.uint32), A.data.astype(np.uint32))
    return arrs, ordo.Graph.from_csr(*arrs)


@pytest.mark.parametrize("which", [0, 1, 2])
def test_borrowed_arrays_are_read_only_while_the_graph_holds_them(which):
    arrs, g = borrowed_graph()
    assert g.borrowed
    with pytest.raises(ValueError, match="read-only"):
        arrs[which][0] = 7
    del g
    gc.collect()
    arrs[which][0] = arrs[which][0]  # writable again once the graph is gone


def test_signed_twins_and_scipy_arrays_are_read_only_too():
    A = random_graph(seed=4)
    ip, ix = A.indptr.astype(np.int64), A.indices.astype(np.int32)
    g = ordo.Graph.from_csr(ip, ix)  # viewed as unsigned: the originals are protected
    with pytest.raises(ValueError, match="read-only"):
        ix[0] = -1
    with pytest.raises(ValueError, match="read-only"):
        ip[1] = -5
    g2 = ordo.Graph.from_scipy(A)  # SciPy's int32 indices are viewed
    with pytest.raises(ValueError, match="read-only"):
        A.indices[0] = 10 ** 6
    del g, g2
    gc.collect()
    A.indices[0] = A.indices[0]


@pytest.mark.parametrize("app", ["sssp", "bfs"])
@pytest.mark.parametrize("change", ["indices", "indptr_decreases", "indptr_end"])
def test_memory_written_through_an_older_view_is_an_error_not_a_crash(app, change):
    A = random_graph(seed=5)
    indptr, indices = A.indptr.astype(np.uint64), A.indices.astype(np.uint32)
    w = A.data.astype(np.uint32)
    vp, vi = indptr[:], indices[:]  # views made before the graph: still writable
    g = ordo.Graph.from_csr(indptr, indices, w)
    run = getattr(ordo, app)
    assert run(g, 0).verified
    if change == "indices":
        vi[len(vi) // 2] = 4_000_000_000
        match = "points to node 4000000000"
    elif change == "indptr_decreases":
        vp[10] = vp[11] + 100
        match = "offsets decrease at node 10"
    else:
        vp[-1] = len(vi) + 10 ** 9
        match = "offsets span"
    with pytest.raises(ValueError, match="borrowed arrays were changed after it was made.*" +
                       match):
        run(g, 0)


def test_copy_true_owns_its_arrays():
    A = random_graph(seed=7)
    ref = cg.dijkstra(A, indices=0)
    arrs = (A.indptr.astype(np.uint64), A.indices.astype(np.uint32), A.data.astype(np.uint32))
    g = ordo.Graph.from_csr(*arrs, copy=True)
    assert not g.borrowed
    arrs[1][:] = 4_000_000_000  # the caller's arrays stay writable, the graph is its own
    arrs[2][:] = 1
    np.testing.assert_array_equal(dist_as_float(ordo.sssp(g, 0).dist), ref)
    g2 = ordo.Graph.from_scipy(A, copy=True)
    A.indices[0] = A.indices[0]  # not made read-only
    assert ordo.sssp(g2, 0).verified


def test_views_keep_the_graph_alive():
    g = ordo.load(os.path.join(FIX, "tiny.gr"))
    p, i, w = g.csr()
    del g
    gc.collect()
    assert int(p[-1]) == len(i) == 7 and w.sum() > 0
    with pytest.raises(ValueError):
        p[0] = 1  # read-only


# ---- bad input ----

def test_numbers_are_checked_never_truncated_or_wrapped():
    A = random_graph(seed=3)
    g = ordo.Graph.from_scipy(A)
    with pytest.raises(ValueError, match=r"source=0.5: expected an integer"):
        ordo.sssp(g, 0.5)
    with pytest.raises(ValueError, match=r"source=-1: expected 0 or more"):
        ordo.sssp(g, -1)
    with pytest.raises(ValueError, match=r"source=True: expected an integer, not a bool"):
        ordo.bfs(g, True)
    with pytest.raises(ValueError, match=r"target=2.0: expected an integer"):
        ordo.astar(g, 0, 2.0)
    with pytest.raises(ValueError, match=r"threads=-3: expected 0..4096"):
        ordo.sssp(g, 0, threads=-3)
    with pytest.raises(ValueError, match=r"n=18446744073709551619: expected 0..4294967295"):
        ordo.Graph.from_csr(np.zeros(4, np.uint64), np.zeros(0, np.uint32), n=2 ** 64 + 3)
    with pytest.raises(ValueError, match=r"n=-2: expected"):
        ordo.Graph.from_edges([0], [1], n=-2)
    assert ordo.sssp(g, np.int64(3)).verified  # NumPy integers are integers
    empty = ordo.Graph.from_csr(np.zeros(1, np.uint64), np.zeros(0, np.uint32))
    with pytest.raises(ValueError, match="the graph has no nodes"):
        ordo.sssp(empty, 0)


def test_bad_input_is_a_clear_exception():
    indptr = np.array([0, 1, 2], dtype=np.uint64)
    with pytest.raises(ValueError, match=r"indices\[1\] = 5: out of range for 2 nodes"):
        ordo.Graph.from_csr(indptr, np.array([1, 5], dtype=np.uint32))
    with pytest.raises(ValueError, match="negative"):
        ordo.Graph.from_csr(indptr, np.array([1, -1], dtype=np.int32))
    with pytest.raises(ValueError, match="negative"):
        ordo.Graph.from_csr(indptr, np.array([1, 0]), np.array([3, -2]))
    with pytest.raises(ValueError, match="not whole numbers"):
        ordo.Graph.from_csr(indptr, np.array([1, 0]), np.array([0.5, 1.0]))
    with pytest.raises(ValueError, match="weights has 3 entries"):
        ordo.Graph.from_csr(indptr, np.array([1, 0]), np.array([1, 2, 3]))
    with pytest.raises(ValueError, match="indptr runs from 0 to 2 over 3 entries; expected 0 to"):
        ordo.Graph.from_csr(indptr, np.array([1, 0, 1]))
    with pytest.raises(TypeError, match="integers"):
        ordo.Graph.from_csr(indptr.astype(np.float32), np.array([1, 0]))
    with pytest.raises(ValueError, match="src and dst"):
        ordo.Graph.from_edges([0, 1], [1])
    g = ordo.Graph.from_csr(indptr, np.array([1, 0]), np.array([1, 1]))
    with pytest.raises(ValueError, match="source 7: the graph has nodes 0..1"):
        ordo.sssp(g, 7)
    with pytest.raises(ordo.Error, match="unknown scheduler 'nosuch'"):
        ordo.sssp(g, 0, scheduler="nosuch")
    with pytest.raises(ordo.Error, match="No such file|nope.gr"):
        ordo.load("/nonexistent/nope.gr")
    with pytest.raises(ordo.Error, match=r"gr_id_big.gr:2: arc head \(node id\) 9 out of range"):
        ordo.load(os.path.join(FIX, "..", "malformed", "gr_id_big.gr"))
    with pytest.raises(ordo.Error, match="has no arc weights"):
        ordo.mst(ordo.Graph.from_csr(indptr, np.array([1, 0])))
    with pytest.raises(ordo.Error, match="no node coordinates"):
        ordo.astar(g, 0, 1)
    with pytest.raises(TypeError, match="ordo.Graph"):
        ordo.sssp(np.zeros(3), 0)


def test_mst_of_a_directed_graph_symmetrises_a_copy():
    A = random_graph(n=100, density=0.05, seed=8)
    g = ordo.Graph.from_scipy(A)
    assert not g.symmetric
    r = ordo.mst(g)
    sym = A.maximum(A.T)  # lightest of both directions: A has no reverse duplicates
    lo = sp.csr_matrix(A.shape)
    both = (A != 0).multiply(A.T != 0)
    lo = A.minimum(A.T).multiply(both) + (A - A.multiply(both)) + (A.T - A.T.multiply(both))
    assert int(r.forest_w.sum()) == int(cg.minimum_spanning_tree(lo).sum())
    assert not g.symmetric and g.borrowed  # the caller's graph is untouched
    del sym


CTRL_C_CHILD = r"""
import numpy as np, ordo, sys
k = 700  # a k x k grid, both directions, random weights
u = np.arange(k * k).reshape(k, k)
src = np.concatenate([u[:, :-1].ravel(), u[:-1, :].ravel()])
dst = np.concatenate([u[:, 1:].ravel(), u[1:, :].ravel()])
w = np.random.default_rng(1).integers(1, 1000, len(src))
if sys.argv[1] == "matrix":  # converted by the call: the Results are of its Graph
    import scipy.sparse as sp
    g = sp.coo_matrix((w, (src, dst)), shape=(k * k, k * k)).tocsr()
else:
    g = ordo.Graph.from_edges(src, dst, w, symmetrize=True)
core_run = ordo._core.run
def announced(*a, **k):  # "ready" just as the core is entered: the Ctrl-C finds it there
    if not getattr(announced, "said", False):
        announced.said = True
        print("ready", flush=True)
    return core_run(*a, **k)
ordo._core.run = announced
try:
    ordo.sssp(g, [0] * 1000, scheduler="fifo", threads=2)
except KeyboardInterrupt as e:
    print("interrupted:", e, flush=True)
    # the trials that finished come with it, each a verified Result
    assert all(r.verified and r.record["verify"] == "PASS" for r in e.results)
    # ordo's own message, unless the signal beat the core's entry by a few bytecodes
    # (Python's plain KeyboardInterrupt then, with no trial run and results still a list)
    assert ("after %d of 1000 trials" % len(e.results)) in str(e) or (
        not str(e) and e.results == []), (str(e), len(e.results))
    print("kept:", len(e.results), flush=True)
    r = ordo.sssp(g, 5, threads=1)   # the package still works after it
    print("after:", r.record["verify"], flush=True)
    sys.exit(0)
print("not interrupted", flush=True)
sys.exit(1)
"""


def ctrl_c_child(delay, message=True, graph="graph"):
    """Runs CTRL_C_CHILD, sends it Ctrl-C `delay` seconds after it is ready, and checks
    that the run stopped cleanly and soon: 1000 trials take minutes."""
    import signal
    import subprocess
    import sys
    import time
    p = subprocess.Popen([sys.executable, "-c", CTRL_C_CHILD, graph], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=dict(os.environ))
    assert p.stdout.readline().strip() == "ready"
    time.sleep(delay)
    t0 = time.time()
    p.send_signal(signal.SIGINT)
    try:
        out, err = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        raise AssertionError("Ctrl-C did not stop the run within 60 s:\n" + out)
    assert p.returncode == 0, (out, err)
    assert "interrupted:" in out
    assert not message or "interrupted: ordo: the run was stopped (Ctrl-C)" in out, out
    assert "after: PASS" in out
    assert "kept: " in out
    assert time.time() - t0 < 20
    return out


def test_ctrl_c_stops_a_run_cleanly():
    ctrl_c_child(1.5)  # most likely inside a trial
    # a SciPy matrix, converted by the call: the finished trials are Results all the same
    ctrl_c_child(1.5, graph="matrix")


def test_ctrl_c_before_the_first_trial_is_not_lost():
    # at once: while the session opens (about a second here), with Python's own
    # handler in place; it once marked the signal pending and ordo ran every trial
    # (it fails on the old code by running on past 60 s)
    out = ctrl_c_child(0, message=False)
    assert "kept: 0" in out, out


def test_the_example_script_runs(tmp_path):
    import subprocess
    import sys
    ex = os.path.join(os.path.dirname(__file__), "..", "..", "algorithms", "python",
                      "examples", "compare_schedulers.py")
    p = subprocess.run([sys.executable, ex, "--sources", "2", "--out",
                        str(tmp_path / "c.png")], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert p.stdout.count("verified against SciPy") == 6
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return
    assert (tmp_path / "c.png").stat().st_size > 1000
    import json
    fig = json.loads((tmp_path / "c.json").read_text())
    wls = ["obim", "smq:pq=bucket", "mq-opt"]
    assert fig["legend"] == wls
    for panel in fig["panels"]:  # a bar per scheduler and thread count, each with its range
        assert panel["xticks"] == ["1 thread", "2 threads"]
        assert sorted((b["scheduler"], b["threads"]) for b in panel["bars"]) == sorted(
            (w, t) for w in wls for t in (1, 2))
        assert all(b["low"] <= b["height"] <= b["high"] for b in panel["bars"])
    assert "fastest-slowest" in fig["panels"][0]["ylabel"]


# ---- conventions a SciPy or NetworkX user expects ----

def test_scipy_conventions_side_by_side():
    A = random_graph(seed=12)
    ref_d, ref_p = cg.dijkstra(A, indices=3, return_predecessors=True)
    r = ordo.sssp(A, 3, float_dist=True, return_predecessors=True)  # a matrix directly
    assert r.dist.dtype == np.float64
    np.testing.assert_array_equal(r.dist, ref_d)  # inf where unreached, as SciPy
    assert r.predecessors.dtype == np.int32
    np.testing.assert_array_equal(r.predecessors == -9999, ref_p == -9999)
    for v in np.flatnonzero(r.predecessors >= 0):  # a shortest-path tree (ties may differ)
        u = r.predecessors[v]
        assert r.dist[u] + A[u, v] == r.dist[v]
    assert r.parent[3] == 3 and ordo.sssp(A, 3).dist.dtype == np.uint64


def test_version_and_errors():
    assert ordo.__version__ == "0.1.0"
    with pytest.raises(OSError, match="nope.gr"):  # a file's fault is an OSError too
        ordo.load("/nonexistent/nope.gr")
    try:
        ordo.load("/nonexistent/nope.gr")
    except ordo.FileError as e:
        assert isinstance(e, ordo.Error) and e.code == -3
        assert str(e).startswith("/nonexistent/nope.gr: cannot open")  # the message alone
    with pytest.raises(ordo.Error) as bad:
        ordo.load(os.path.join(FIX, "..", "malformed", "gr_id_big.gr"))
    assert not isinstance(bad.value, OSError) and bad.value.code == -5  # ORDO_ERANGE
    assert str(bad.value).endswith("gr_id_big.gr:2: arc head (node id) 9 out of range "
                                   "(expected 1..3)")
    with pytest.raises(TypeError, match="or a SciPy sparse matrix"):
        ordo.sssp([[0, 1], [1, 0]], 0)


def test_symmetric_none_is_checked_against_the_arcs():
    ip = np.array([0, 1, 2], np.uint64)
    both = ordo.Graph.from_csr(ip, np.array([1, 0], np.uint32), np.array([5, 5], np.uint32))
    assert both.symmetric
    other = ordo.Graph.from_csr(ip, np.array([1, 0], np.uint32), np.array([5, 6], np.uint32))
    assert not other.symmetric  # the reverse has another weight
    one = ordo.Graph.from_csr(np.array([0, 1, 1], np.uint64), np.array([1], np.uint32))
    assert not one.symmetric  # no reverse at all


def test_every_public_name_has_a_docstring():
    import inspect
    missing = []
    for name in ordo.__all__:
        obj = getattr(ordo, name)
        if (callable(obj) or inspect.isclass(obj)) and not (obj.__doc__ or "").strip():
            missing.append(name)
        if inspect.isclass(obj):
            for k, v in vars(obj).items():
                if k.startswith("_"):
                    continue
                f = v.__func__ if isinstance(v, (classmethod, staticmethod)) else v
                if (callable(f) or isinstance(f, property)) and not (f.__doc__ or "").strip():
                    missing.append("%s.%s" % (name, k))
    assert not missing, "no docstring: %s" % ", ".join(missing)


def test_keywords_out_of_range_are_refused_by_their_python_names():
    g = ordo.load(os.path.join(FIX, "tiny.gr"))
    with pytest.raises(ordo.Error, match=r"lookahead=1000: expected 0\.\.15"):
        ordo.sssp(g, 0, lookahead=1000)
    with pytest.raises(ValueError, match="verify='x': expected True or False"):
        ordo.sssp(g, 0, verify="x")
    with pytest.raises(ValueError, match="lookahead=-1"):
        ordo.sssp(g, 0, lookahead=-1)


def test_two_threads_running_at_once_give_python_its_ctrl_c_back():
    """Runs in two Python threads interleave (the GIL is released while ordo runs); the
    SIGINT handler must be Python's again when both are done: a SIGINT then raises
    KeyboardInterrupt in Python, as before any run."""
    import signal
    import threading
    import time
    k = 200
    u = np.arange(k * k).reshape(k, k)
    src = np.concatenate([u[:, :-1].ravel(), u[:-1, :].ravel()])
    dst = np.concatenate([u[:, 1:].ravel(), u[1:, :].ravel()])
    g = ordo.Graph.from_edges(src, dst, np.ones(len(src), dtype=np.uint32), symmetrize=True)
    errors = []

    def work():
        try:
            for _ in range(15):
                ordo.sssp(g, 0, threads=1, verify=False)
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)
    ts = [threading.Thread(target=work) for _ in range(3)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors, errors
    with pytest.raises(KeyboardInterrupt):
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(100):  # Python runs its handler between bytecodes
            time.sleep(0.01)


def test_library_messages_name_python_keywords_not_command_line_flags():
    # a renumbering that needs coordinates the file does not have
    with pytest.raises(ordo.Error) as e:
        ordo.load(os.path.join(FIX, "tiny.gr"), reorder="hilbert", no_coords=True)
    assert "--" not in str(e.value), str(e.value)
    assert "coords=" in str(e.value), str(e.value)


def test_every_app_of_the_table_is_a_function_with_its_options_as_keywords():
    """A kernel in ordo_app_table.h is a Python function with no Python edit: its name,
    its query's positional arguments, each of its own options as a keyword (the binary's
    name with - as _, or its Python convention's), and a docstring listing them."""
    import inspect
    import re
    table = os.path.join(os.path.dirname(__file__), "..", "..", "algorithms",
                         "ordo_app_table.h")
    with open(table) as f:
        names = re.findall(r"^ORDO_APP\(([a-z0-9_]+)\)$", f.read(), re.M)
    assert names and list(ordo.APPS) == names
    for info in ordo._core.apps():
        fn = getattr(ordo, info["name"])
        assert info["name"] in ordo.__all__
        params = list(inspect.signature(fn).parameters)
        want = {"none": ["g"], "source": ["g", "source"],
                "pair": ["g", "source", "target"]}[info["query"]]
        assert params[:len(want)] == want, (info["name"], params)
        rename = ordo._CONVENTIONS.get(info["name"], {}).get("rename", {})
        for opt, arg, helptext in info["options"]:
            kw = rename.get(opt, opt.replace("-", "_"))
            assert kw in params, (info["name"], kw)
            assert "  %s" % kw in fn.__doc__
        assert "--" not in fn.__doc__.split("The keywords every app takes")[0], fn.__doc__


def test_an_app_without_python_conventions_is_made_from_its_table_alone():
    """The function _make_app builds from a kernel's table alone (kcore has no
    conventions) runs the app as the package's own function does, options included."""
    info = next(i for i in ordo._core.apps() if i["name"] == "kcore")
    assert "kcore" not in ordo._CONVENTIONS
    fn = ordo._make_app(dict(info))
    g = ordo.Graph.from_edges([0, 1, 2, 0, 3], [1, 2, 0, 3, 4], symmetrize=True)
    for algo in ("peel", "bounds"):
        r = fn(g, threads=2, algo=algo)
        assert r.verified and r.core.tolist() == [2, 2, 2, 1, 1]
        assert r.record["algorithm"] == "kcore"
    with pytest.raises(TypeError, match="heuristic_scale"):
        fn(g, heuristic_scale=2)
    with pytest.raises(ordo.Error, match="algo"):
        fn(g, algo="none-such")


def test_components_matches_scipy_connected_components_with_every_scheduler():
    """ordo.components, an app the package knows only from its kernel's table: each node's label
    is the smallest node id of its component, as SciPy's partition says, with Afforest
    (the default) and label propagation on every scheduler."""
    import scipy.sparse as sp
    import scipy.sparse.csgraph as cg
    A = sp.random(600, 600, density=0.004, format="csr", random_state=11)
    A.data[:] = 1
    k, lab = cg.connected_components(A, directed=True, connection="weak")
    smallest = {}
    for v, c in enumerate(lab):
        smallest.setdefault(c, v)
    want = np.array([smallest[c] for c in lab], dtype=np.uint32)
    g = ordo.Graph.from_scipy(A)
    for rounds in (None, 0, 1):
        r = ordo.components(g, threads=2, rounds=rounds)
        assert r.verified and (r.component == want).all()
        assert r.record["components"] == k
    for name in ordo.schedulers():
        for t in (1, 2):
            r = ordo.components(g, scheduler=name, threads=t)
            assert r.verified and (r.component == want).all(), (name, t)
    assert "rounds" in ordo.components.__doc__ and "algo" in ordo.components.__doc__


def test_components_on_networkx_labels_its_components_by_label():
    import networkx as nx
    G = nx.Graph([("a", "b"), ("b", "c"), ("x", "y")])
    G.add_node("lone")
    g = ordo.Graph.from_networkx(G)
    r = ordo.components(g)
    by = r.by_label()  # labels are node ids of the graph: map them back to G's labels
    comp = {lab: g.nodes[i] for lab, i in by.items()}
    assert comp == {"a": "a", "b": "a", "c": "a", "x": "x", "y": "x", "lone": "lone"}


def test_every_record_carries_the_useful_work_ratio_beside_the_work_ratio():
    """useful_ratio = (tasks - empty_tasks) / baseline_tasks, for every app: a run whose
    tasks found their work stale has a work ratio above its useful one."""
    A = sp.random(300, 300, density=0.02, format="csr", random_state=4) * 50
    A = A + sp.eye(300, k=1)
    A.data = np.ceil(A.data)
    g = ordo.Graph.from_scipy(A)
    runs = [ordo.sssp(g, 0, scheduler="obim", threads=2), ordo.bfs(g, 0, scheduler="smq"),
            ordo.kcore(g, scheduler="smq"), ordo.mst(g), ordo.components(g, scheduler="fifo")]
    for r in runs:
        rec = r.record
        want = (rec["tasks"] - rec["empty_tasks"]) / rec["baseline_tasks"]
        assert abs(rec["useful_ratio"] - want) < 1e-5, (r.app, rec["useful_ratio"], want)
        assert rec["useful_ratio"] <= rec["work_ratio"]


def test_pagerank_matches_networkx_within_its_tolerance():
    """ordo.pagerank (made from its kernel's table): float64 ranks in the input's order,
    within `tolerance` in L1 of networkx.pagerank, on a digraph with dangling nodes and
    self-loops, with the default (fifo) and priority schedulers."""
    import networkx as nx
    rng = np.random.default_rng(3)
    G = nx.gnp_random_graph(300, 0.02, seed=3, directed=True)
    G.add_edges_from((int(v), int(v)) for v in rng.choice(300, 10, replace=False))
    G.remove_edges_from(list(G.out_edges(list(range(290, 300)))))  # dangling nodes
    want = nx.pagerank(G, alpha=0.85, tol=1e-13, max_iter=10000)
    g = ordo.Graph.from_networkx(G, weight=None)
    # the pull over-relaxed (its default), as plain Gauss-Seidel, and past where the
    # over-relaxation converges (its sweeps fall back to Gauss-Seidel); the push
    for sched, tol, omega in ((None, 1e-4, None), (None, 1e-6, 1.0), (None, 1e-6, 1.95),
                              ("obim", 1e-4, None), ("smq", 1e-3, None)):
        r = ordo.pagerank(g, scheduler=sched, tolerance=tol, omega=omega, threads=2)
        assert r.rank.dtype == np.float64 and r.verified
        got = r.by_label()
        l1 = sum(abs(got[v] - want[v]) for v in G.nodes())
        assert l1 <= tol, (sched, omega, l1)
        assert r.record["l1_error"] <= tol
    with pytest.raises(ordo.Error, match="damping"):
        ordo.pagerank(g, damping=1.5)
    with pytest.raises(ordo.Error, match="omega"):
        ordo.pagerank(g, omega=2)
