"""ordo from Python: priority-scheduled graph analytics on NumPy, SciPy and NetworkX graphs.

    import ordo
    g = ordo.load("road.gr")                      # any format ordo reads
    g = ordo.Graph.from_scipy(matrix)             # or from_csr, from_edges, from_networkx
    r = ordo.sssp(g, source=0, scheduler="smq", threads=2)
    r.dist, r.record["time_s"], r.record["work_ratio"], r.verified

Apps (ordo.APPS: sssp, bfs, astar, mst, kcore, components, pagerank, each made from its
kernel's table) run exactly as the binaries do: the same harness
resolves the scheduler (the same spec strings as --wl), runs the exact sequential
baseline, times the kernel alone, verifies the answer against the baseline and makes the
same record. The GIL is released while ordo works.

Arrays: a graph made from arrays whose dtype and layout fit (indptr uint64 or int64,
indices uint32 or int32, weights uint32 or int32; C-contiguous) uses them without a copy
and keeps them alive; anything else is converted once, and `Graph.conversions` says what
was copied. Borrowed arrays are read-only while the graph holds them (writable again when
it is freed), and each run checks them again (offsets, ids), so memory written through
another view gives ValueError, never a crash; `copy=True` makes ordo's own copy. Answers are new arrays in the input's node order; an unreached node holds the
dtype's maximum, as in the binaries' output.
"""
import json as _json
import re as _re

import numpy as _np

from . import _core
from ._core import Error, FileError

__version__ = "0.1.0"  # the package's, as setup.py says

__all__ = ["Error", "FileError", "Graph", "Result", "load", "schedulers", "resolve_scheduler",
           "DIST_INF", "LEVEL_INF", "APPS"]  # and each app's function, made below

DIST_INF = _np.iinfo(_np.uint64).max   # an unreached node's distance
LEVEL_INF = _np.iinfo(_np.uint32).max  # an unreached node's BFS level


class Graph:
    """A graph in ordo's CSR form (plain or compressed). Make one with load(),
    from_csr(), from_scipy(), from_edges() or from_networkx()."""

    def __init__(self, core, conversions=(), name="graph"):
        self._g = core
        self.conversions = list(conversions)  # what was copied on the way in, and why
        self.name = name
        self.nodes = None  # a NetworkX graph's labels, in node order (from_networkx)
        self._index = None

    def node_of(self, label):
        """The node (0..n-1) of a NetworkX label (a graph from from_networkx), or the
        node id itself for any other graph. KeyError for a label G did not have."""
        if self.nodes is None:
            return label
        if self._index is None:
            self._index = {v: i for i, v in enumerate(self.nodes)}
        try:
            return self._index[label]
        except (KeyError, TypeError):
            raise KeyError("%r is not a node of this NetworkX graph" % (label,)) from None

    # ---- the ways in ----
    @classmethod
    def from_csr(cls, indptr, indices, weights=None, n=None, symmetric=None,
                 weight_scale=None, name="csr arrays", copy=False):
        """A graph on CSR arrays: node u's arcs go to indices[indptr[u]:indptr[u+1]].
        Borrowed without a copy when the dtypes fit (see the module's doc): the arrays
        are then read-only until the graph is freed, and each run checks them again
        (a write through another view raises ValueError, never a crash); copy=True
        gives ordo its own copy instead, and the arrays stay writable. symmetric:
        whether every arc has its reverse with the same weight (None: checked).
        Float weights must be whole numbers, or give weight_scale to round w * scale."""
        conv = []
        given = (indptr, indices, weights)
        indptr = _as(indptr, _np.uint64, "indptr", conv)
        indices = _as(indices, _np.uint32, "indices", conv)
        if weights is not None:
            weights = _weights(weights, weight_scale, conv)
        # the caller's own arrays that ordo views (a signed twin viewed as unsigned):
        # read-only too while the graph holds them
        views = tuple(a for a, b in zip(given, (indptr, indices, weights))
                      if isinstance(a, _np.ndarray) and b is not None and a is not b and
                      _np.may_share_memory(a, b))
        if n is None:
            n = len(indptr) - 1
            if n < 0:
                raise ValueError("indptr is empty: it needs n + 1 entries")
        n = _integer(n, "n", 0, 2 ** 32 - 1)
        # the C side checks the arrays (one pass) and, when symmetric is None, the symmetry
        return cls(_core.from_csr(indptr, indices, weights, int(n),
                                  None if symmetric is None else bool(symmetric), bool(copy),
                                  views),
                   conv, name)

    @classmethod
    def from_scipy(cls, matrix, symmetric=None, weight_scale=None, weighted=True, copy=False):
        """A graph from a SciPy sparse matrix (any format; a CSR one with fitting dtypes
        is borrowed, its arrays read-only while the graph holds them, as from_csr's):
        entry (i, j) = arc i -> j with weight A[i, j]. weighted=False ignores the
        values; copy=True copies instead of borrowing."""
        import scipy.sparse as sp
        if not sp.issparse(matrix):
            raise TypeError("from_scipy takes a scipy.sparse matrix, not %s" %
                            type(matrix).__name__)
        if matrix.shape[0] != matrix.shape[1]:
            raise ValueError("the matrix is %d x %d; a graph's is square" % matrix.shape)
        conv = []
        if matrix.format != "csr":  # ordo needs no order within a row: no sort
            conv.append("the %s matrix converted to CSR" % matrix.format)
            matrix = matrix.tocsr()
        g = cls.from_csr(matrix.indptr, matrix.indices, matrix.data if weighted else None,
                         matrix.shape[0], symmetric, weight_scale, "scipy matrix", copy)
        g.conversions = conv + g.conversions
        g._keep = matrix  # a converted matrix's arrays are the graph's
        return g

    @classmethod
    def from_edges(cls, src, dst, weight=None, n=None, symmetrize=False, weight_scale=None):
        """A graph from arc lists: src[i] -> dst[i] (weight[i]); n = max id + 1 unless
        given; symmetrize adds every reverse arc. Builds CSR arrays (a copy)."""
        src = _np.asarray(src)
        dst = _np.asarray(dst)
        if src.shape != dst.shape or src.ndim != 1:
            raise ValueError("src and dst must be 1-d and of one length (%s, %s)" %
                             (src.shape, dst.shape))
        for a, what in ((src, "src"), (dst, "dst")):
            _check_ids(a, what)
        w = None
        conv = []
        if weight is not None:
            w = _weights(weight, weight_scale, conv)
            if len(w) != len(src):
                raise ValueError("weight has %d entries, src %d" % (len(w), len(src)))
        if n is not None:
            n = _integer(n, "n", 0, 2 ** 32 - 1)
        if n is None:
            n = int(max(src.max(initial=-1), dst.max(initial=-1))) + 1
        elif len(src) and max(int(src.max()), int(dst.max())) >= n:
            raise ValueError("a node id is %d, out of range for n = %d" %
                             (max(int(src.max()), int(dst.max())), n))
        if symmetrize:
            src, dst = _np.concatenate([src, dst]), _np.concatenate([dst, src])
            if w is not None:
                w = _np.concatenate([w, w])
        order = _np.lexsort((dst, src))
        indices = dst[order].astype(_np.uint32)
        indptr = _np.zeros(n + 1, dtype=_np.uint64)
        _np.cumsum(_np.bincount(src, minlength=n), out=indptr[1:])
        weights = w[order] if w is not None else None
        return cls.from_csr(indptr, indices, weights, n, True if symmetrize else None,
                            name="edge arrays")

    @classmethod
    def from_networkx(cls, G, weight="weight", default_weight=1, weight_scale=None):
        """A graph from a NetworkX graph: nodes numbered in G's node order (g.nodes
        holds the labels); an undirected G gives both arcs of every edge. weight=None
        ignores edge data. Apps then take sources and targets as G's labels
        (ordo.sssp(g, "alice")), give paths and forests in labels, and
        Result.by_label() maps labels to an answer's values."""
        nodes = list(G.nodes())
        index = {v: i for i, v in enumerate(nodes)}
        src, dst, w = [], [], []
        for u, v, d in G.edges(data=True):
            src.append(index[u])
            dst.append(index[v])
            if weight is not None:
                w.append(d.get(weight, default_weight))
        g = cls.from_edges(_np.array(src, dtype=_np.int64), _np.array(dst, dtype=_np.int64),
                           w if weight is not None else None, len(nodes),
                           symmetrize=not G.is_directed(), weight_scale=weight_scale)
        g.nodes = nodes
        g._index = index
        g.name = "networkx graph"
        return g

    # ---- what it is ----
    n = property(lambda self: self._g.n, doc="nodes")
    m = property(lambda self: self._g.m, doc="arcs (an undirected edge counts twice)")
    weighted = property(lambda self: self._g.weighted,
                        doc="its arcs have weights (else every arc weighs 1)")
    symmetric = property(lambda self: self._g.symmetric,
                         doc="marked symmetric: every arc u->v has its v->u (mst and kcore "
                             "need it; they symmetrise a copy otherwise)")
    compressed = property(lambda self: self._g.compressed,
                          doc="held in ordo's compressed CSR (load(..., compress=True))")
    borrowed = property(lambda self: self._g.borrowed,
                        doc="its arrays are the caller's (no copy was made)")
    mapped = property(lambda self: self._g.mapped,
                      doc="its arrays lie in a mappable .ordo file, mapped read-only and "
                          "shared with every process that maps it (no copy was made)")

    def degree(self):
        """Out-degree of every node (uint64)."""
        return self._g.degree()

    def csr(self):
        """(indptr, indices, weights or None): read-only views of the graph's arrays."""
        return self._g._csr()

    def to_scipy(self):
        """The graph as a scipy.sparse.csr_matrix (unweighted: ones). Its arrays are
        copies in SciPy's index types."""
        import scipy.sparse as sp
        indptr, indices, w = self.csr()
        data = _np.ones(len(indices), dtype=_np.uint32) if w is None else w
        return sp.csr_matrix((data.copy(), indices.astype(_np.int64),
                              indptr.astype(_np.int64)), shape=(self.n, self.n))

    def info(self):
        """What the graph is, as a dict: n, m, weighted, symmetric, compressed, borrowed,
        mapped, bytes (its arrays' size), coordinates, conversions, name."""
        return dict(n=self.n, m=self.m, weighted=self.weighted, symmetric=self.symmetric,
                    compressed=self.compressed, borrowed=self.borrowed, mapped=self.mapped,
                    bytes=self._g._bytes(), coordinates=self._g.has_coords,
                    conversions=list(self.conversions), name=self.name)

    def __repr__(self):
        return "<ordo.Graph %s: %d nodes, %d arcs%s%s%s>" % (
            self.name, self.n, self.m, ", weighted" if self.weighted else "",
            ", symmetric" if self.symmetric else "", ", compressed" if self.compressed else "")


def load(path, **options):
    """Loads a graph file in any format ordo reads (DIMACS, METIS, edge list, Matrix
    Market, Galois, native .ordo; zstd-compressed text too). Options: symmetrize,
    dedup, compress, reorder ("rcm", "bfs", "degree", "hilbert"), random_weights=(lo,
    hi), weight_seed, coords (a .co/.xyz file), no_coords, keep_self_loops, threads,
    verify_mapped (a mappable .ordo file, which is mapped rather than read: also check
    its checksums, as the binaries' --verify-mapped)."""
    import os
    path = os.fspath(path)
    return Graph(_core.load(path, **options), name=path)


class Result:
    """An app's answer: its arrays as attributes (dist, level, core, forest_u/v/w,
    distance), `record` (the binaries' record: time_s, tasks, work_ratio, per-thread
    tasks, scheduler counters...), `verified` (True, False, or None when not checked)."""

    # the per-node answer of each app, what by_label() maps by default
    _MAIN = {"sssp": "dist", "bfs": "level", "astar": "dist", "kcore": "core"}

    def __init__(self, app, record, verified, arrays, labels=None):
        self.app = app
        self.record = record
        self.verified = verified
        self.arrays = arrays
        self.labels = labels  # the graph's NetworkX labels, or None
        for k, v in arrays.items():
            setattr(self, k, v)

    def by_label(self, name=None):
        """{label: value} of a per-node answer (default: dist, level, core, or an app's
        first per-node array), for a graph made from NetworkX; unreached nodes are left
        out, as NetworkX's own shortest-path dicts leave them. ValueError on other graphs (their node ids are
        the array's indices already)."""
        if self.labels is None:
            raise ValueError("by_label: the graph was not made from NetworkX (its node "
                             "ids are the array's indices)")
        name = name or self._MAIN.get(self.app) or next(  # else its first per-node one
            (k for k, v in self.arrays.items()
             if _np.ndim(v) == 1 and len(v) == len(self.labels)), None)
        a = getattr(self, name, None) if name else None
        if a is None or _np.ndim(a) != 1 or len(a) != len(self.labels):
            raise ValueError("by_label: %r is not a per-node answer of %s" % (name, self.app))
        inf = _np.iinfo(a.dtype).max if a.dtype.kind == "u" else _np.inf
        return {lab: v.item() for lab, v in zip(self.labels, a) if v != inf}

    def __repr__(self):
        return "<ordo.Result %s: %.4f s, work %.3f, verification %s>" % (
            self.app, self.record["time_s"], self.record["work_ratio"], self.record["verify"])


def _run(app, g, sources, targets, scheduler, threads, seed, verify, delta, lookahead,
         options=None, seats=None, coop=None, sim=None):
    graph = g if isinstance(g, Graph) else None
    try:
        if graph is None:
            graph = _graph_of(g, app)
        return _run_trials(app, graph, sources, targets, scheduler, threads, seed, verify,
                           delta, lookahead, options, seats, coop, sim)
    except KeyboardInterrupt as e:  # Ctrl-C: the trials that finished, as Results of the
        # Graph they ran on (none when it came before the core ran: still a list to read)
        fin = getattr(e, "finished", [])
        e.results = _results(app, graph, fin, verify) if fin else []
        raise


def _run_trials(app, g, sources, targets, scheduler, threads, seed, verify, delta, lookahead,
                options, seats, coop, sim):
    threads = _integer(threads, "threads", 0, 4096)
    if not isinstance(verify, (bool, _np.bool_)):
        raise ValueError("verify=%r: expected True or False" % (verify,))
    if lookahead is not None:
        lookahead = _integer(lookahead, "lookahead", 0)
    seed = _integer(seed, "seed", 0, 2 ** 64 - 1)
    if sim is not None and (isinstance(sim, (bool, _np.bool_)) or
                            not isinstance(sim, (int, str, _np.integer))):
        raise ValueError("sim=%r: expected a worker count or a spec such as \"64:gamma=0.5\""
                         % (sim,))
    if g.n == 0 and (sources or targets):
        raise ValueError("%s: the graph has no nodes, so no %s" % (
            app, "source" if sources else "target"))
    # the app's own options ({binary's name: value}) as its binary's: "name=value", a
    # flag "name"; None and False are not given
    opts = [k if v is True else "%s=%s" % (k, v)
            for k, v in (options or {}).items() if v is not None and v is not False]
    out = _core.run(app, g._g, sources=sources, targets=targets, scheduler=scheduler,
                    delta=-1 if delta is None else delta, threads=threads, seed=seed,
                    verify=bool(verify), lookahead=-1 if lookahead is None else lookahead,
                    input=g.name, options=opts, seats=None if seats is None else str(seats),
                    coop=None if not coop else "" if coop is True else str(coop),
                    sim=None if sim is None else str(sim))
    return _results(app, g, out, verify)


def _results(app, g, out, verify):
    """The core's (record, passed, arrays) triples as Results."""
    res = []
    for rec, passed, arrays in out:
        rec = _json.loads(rec)
        res.append(Result(app, rec, passed if verify else None, arrays, g.nodes))
    if g.nodes is not None:  # and out: paths and forests in labels
        lab = _np.empty(len(g.nodes), dtype=object)
        lab[:] = g.nodes
        for r in res:
            for k in ("path", "forest_u", "forest_v"):
                if getattr(r, k, None) is not None:
                    setattr(r, k + "_labels", list(lab[getattr(r, k)]))
    return res


def _integer(v, what, lo=0, hi=None):
    """v as a Python int, or ValueError naming the keyword: a float (0.5), a bool or
    anything else that is not an integer, below lo or above hi, is refused (never
    truncated or wrapped)."""
    import operator
    if isinstance(v, bool):
        raise ValueError("%s=%r: expected an integer, not a bool" % (what, v))
    try:
        i = operator.index(v)
    except TypeError:
        raise ValueError("%s=%r: expected an integer" % (what, v)) from None
    if i < lo or (hi is not None and i > hi):
        raise ValueError("%s=%d: expected %s" % (
            what, i, "%d or more" % lo if hi is None else "%d..%d" % (lo, hi)))
    return i


def _graph_of(g, app):
    """A SciPy sparse matrix (or array) taken as its graph, as scipy.sparse.csgraph's
    functions take one; anything else is a TypeError naming what is accepted."""
    try:
        import scipy.sparse as sp
        if sp.issparse(g):
            return Graph.from_scipy(g)
    except ImportError:
        pass
    raise TypeError("%s takes an ordo.Graph (ordo.load, Graph.from_scipy, ...) or a SciPy "
                    "sparse matrix, not %s" % (app, type(g).__name__))


def _labelled(g):
    return isinstance(g, Graph) and g.nodes is not None


def _many(q, g):
    """Whether q names several queries: a sequence of ids; on a NetworkX graph a list,
    an array, or a tuple that is not itself a label (grid graphs' labels are tuples)."""
    if _labelled(g):
        if isinstance(q, (list, _np.ndarray)):
            return True
        if isinstance(q, tuple):
            try:
                g.node_of(q)
                return False
            except KeyError:
                return True
        return False
    return _np.ndim(q) > 0


def _queries(q, what="source", g=None):
    """The node ids of one or several queries; on a graph made from NetworkX they are
    its labels (KeyError for one it did not have)."""
    if q is None:
        return None
    if _labelled(g):
        return [g.node_of(v) for v in q] if _many(q, g) else [g.node_of(q)]
    if _np.ndim(q) == 0:
        return [_integer(q, what)]
    return [_integer(v, what) for v in q]


# ---- the apps: one Python function per kernel of ordo_app_table.h ----
# Each function is made from the kernel's own table (_core.apps(): its query, options,
# summary), so an app added in C (one file, one table line) appears here with its keyword
# arguments and docstring by itself. What a kernel's table cannot say, the Python
# conventions of an app (SciPy's predecessors, a number for a path's length), lives in
# _CONVENTIONS; an app without an entry there needs none.

_ANSWERS = {
    "sssp": "dist: uint64, DIST_INF where unreached (exact for every 64-bit length); "
            "float_dist=True gives float64 with inf there instead, as SciPy's dijkstra "
            "does (exact while lengths stay below 2**53). return_predecessors=True adds "
            "`predecessors` in SciPy's convention (int32, -9999 for the source and "
            "unreached nodes) and `parent` in ordo's (uint32, the source's is itself, "
            "LEVEL_INF where unreached), a shortest-path tree in input ids.",
    "bfs": "level: uint32, LEVEL_INF where unreached. Without a scheduler, "
           "direction-optimising frontier rounds (as the bfs binary); with one, the "
           "scheduler-driven operator.",
    "astar": "Guided by the graph's coordinates (load them with the graph). distance: "
             "the length, a number (an int; inf when the target is unreached); path: the "
             "path's nodes from source to target (uint32 input ids; empty when the target "
             "is unreached).",
    "mst": "forest_u, forest_v, forest_w: its edges, ends in the graph's node ids. A graph "
           "not symmetric is symmetrised first (a copy).",
    "kcore": "core: the core number of every node (uint32). Without a scheduler, "
             "level-synchronous peeling (as the kcore binary); with one, the "
             "order-independent operator.",
}


def _sssp_post(res, call):
    if call["return_predecessors"]:
        s = call["source"]
        p = res.parent.astype(_np.int64)
        p[(res.parent == LEVEL_INF) | (_np.arange(len(p)) == s)] = -9999
        res.predecessors = p.astype(_np.int32)
    if call["float_dist"]:
        d = res.dist.astype(_np.float64)
        d[res.dist == DIST_INF] = _np.inf
        res.dist = d


def _astar_post(res, call):
    d = int(res.distance[0])  # a number, as networkx.astar_path_length gives
    res.distance = float("inf") if d == DIST_INF else d


# per app: rename (the binary's option -> its Python keyword), extra (keywords of Python's
# own, with defaults) and post (each Result and the call's arguments, one query's)
_CONVENTIONS = {
    "sssp": dict(rename={"parents": "return_predecessors"}, extra={"float_dist": False},
                 post=_sssp_post),
    "astar": dict(post=_astar_post),
}

_SHARED = ("The keywords every app takes: scheduler (a spec, as the binaries' --wl; "
           "ordo.schedulers() lists them), threads (0: every CPU), seed, verify, delta, "
           "lookahead; seats (\"auto\", \"adapt\", \"all\" or a count) and coop (True: the "
           "machine's default budget of cores; a string: the budget's name) share the "
           "machine as the binaries' --seats and --coop do; sim (a worker count P, or "
           "\"P:gamma=0.5\" and the binaries' other --sim specs) runs P simulated workers "
           "on one thread instead (the record's rank_mean, delay_max, ...). g: an "
           "ordo.Graph or a SciPy sparse matrix.")

_FLAG = _re.compile(r"--([a-z][a-z0-9-]*)( (?!(?:is|are|and|or|the|a|to|in|given)\b)(?=[a-z0-9]))?")


def _keywords_for_flags(text):
    """A help text's binary options as Python keywords: "--wl" -> "scheduler",
    "--direction push" -> "direction=push"."""
    return _FLAG.sub(lambda m: _keyword(m.group(1)) + ("=" if m.group(2) else ""), text)


def _keyword(opt):
    """A binary's option name as a Python keyword (handoff-round: handoff_round)."""
    return {"wl": "scheduler"}.get(opt, opt.replace("-", "_"))


def _app_doc(info, conv):
    """An app function's docstring from its kernel's table (options' help with their
    flags as keywords) and its Python conventions."""
    q = {"none": "", "source": " from `source` (an input node id; a list runs one trial "
         "per source and returns a list)", "pair": " from `source` to `target` (lists of "
         "both: one trial per pair)"}[info["query"]]
    import textwrap
    summary = _keywords_for_flags(info["summary"])
    lines = ["%s%s%s." % (summary[:1].upper(), summary[1:], q),
             "Verified against %s." % info["baseline"], ""]
    lines.append(_ANSWERS.get(info["name"],
                              "The answer's arrays are the Result's attributes (its "
                              "`arrays` lists them)."))
    rename = conv.get("rename", {})
    if info["options"]:
        lines += ["", "Its own keywords, as the binary's options:"]
        for name, arg, helptext in info["options"]:
            kw = rename.get(name, _keyword(name))
            lines.append("  %s%s: %s" % (kw, "" if arg is None else " (%s)" % arg,
                                         _keywords_for_flags(helptext)))
    for kw in conv.get("extra", {}):
        lines.append("  %s: see above" % kw)
    lines += ["", _SHARED]
    return "\n".join(textwrap.fill(l, 88, subsequent_indent="    " if l[:2] == "  " else "")
                     for l in lines)


def _make_app(info):
    """The Python function of one app (a dict of _core.apps())."""
    import inspect
    name, query = info["name"], info["query"]
    conv = _CONVENTIONS.get(name, {})
    rename = conv.get("rename", {})
    P = inspect.Parameter
    params = [P("g", P.POSITIONAL_OR_KEYWORD)]
    params += [P(q, P.POSITIONAL_OR_KEYWORD) for q in
               {"none": (), "source": ("source",), "pair": ("source", "target")}[query]]
    params += [P(k, P.POSITIONAL_OR_KEYWORD, default=d) for k, d in (
        ("scheduler", None), ("threads", 0), ("seed", 1), ("verify", True),
        ("delta", None), ("lookahead", None))]
    own = [(rename.get(o, _keyword(o)), o, arg) for o, arg, _ in info["options"]]
    params += [P(kw, P.POSITIONAL_OR_KEYWORD, default=False if arg is None else None)
               for kw, _, arg in own]
    params += [P("seats", P.POSITIONAL_OR_KEYWORD, default=None),
               P("coop", P.POSITIONAL_OR_KEYWORD, default=None),
               P("sim", P.POSITIONAL_OR_KEYWORD, default=None)]
    params += [P(k, P.KEYWORD_ONLY, default=d) for k, d in conv.get("extra", {}).items()]
    sig = inspect.Signature(params)

    def app(*args, **kw):
        call = sig.bind(*args, **kw)
        call.apply_defaults()
        a = call.arguments
        g = a["g"]
        srcs = _queries(a["source"], g=g) if query != "none" else None
        tgts = _queries(a["target"], "target", g) if query == "pair" else None
        if tgts is not None and len(srcs) != len(tgts):
            raise ValueError("%d sources and %d targets" % (len(srcs), len(tgts)))
        opts = {o: bool(a[kw]) if arg is None else a[kw] for kw, o, arg in own}
        r = _run(name, g, srcs, tgts, a["scheduler"], a["threads"], a["seed"], a["verify"],
                 a["delta"], a["lookahead"], opts, a["seats"], a["coop"], a["sim"])
        post = conv.get("post")
        for i, res in enumerate(r):
            if post:
                post(res, dict(a, source=srcs[i] if srcs else None))
        return r if query != "none" and _many(a["source"], g) else r[0]

    app.__name__ = app.__qualname__ = name
    app.__signature__ = sig
    app.__doc__ = _app_doc(info, conv)
    app.__module__ = __name__
    return app


APPS = tuple(info["name"] for info in _core.apps())  # the apps, in ordo_app_table.h's order
for _info in _core.apps():
    globals()[_info["name"]] = _make_app(_info)
del _info
__all__ += list(APPS)


def schedulers():
    """The registry: {name: {param: (default, lo, hi, help)}}."""
    return {name: {p: (d, lo, hi, h) for p, d, lo, hi, h in params}
            for name, params in _core.schedulers()}


def resolve_scheduler(spec):
    """The spec with every parameter resolved ("smq" -> "smq:steal_prob=8,...")."""
    return _core.resolve(spec)


# ---- conversions on the way in ----

def _as(a, dtype, what, conv):
    """a as a C-contiguous array of dtype, without a copy when a signed twin of dtype
    fits (int64 for uint64, int32 for uint32: checked non-negative, then viewed)."""
    a = _np.asarray(a)
    if a.ndim != 1:
        raise ValueError("%s must be 1-d, not %d-d" % (what, a.ndim))
    if a.dtype.kind not in "iu":
        raise TypeError("%s must hold integers, not %s" % (what, a.dtype))
    if a.dtype == dtype and a.flags.c_contiguous:
        return a
    signed = _np.dtype(dtype).str.replace("u", "i")
    if a.dtype == _np.dtype(signed) and a.flags.c_contiguous:
        if len(a) and a.min() < 0:
            raise ValueError("%s holds a negative value (%d)" % (what, a.min()))
        return a.view(dtype)
    if len(a) and a.dtype.kind == "i" and a.min() < 0:
        raise ValueError("%s holds a negative value (%d)" % (what, a.min()))
    if len(a) and int(a.max()) > _np.iinfo(dtype).max:
        raise ValueError("%s holds %d, beyond %s" % (what, a.max(), _np.dtype(dtype).name))
    conv.append("%s copied from %s%s to %s" % (
        what, a.dtype, "" if a.flags.c_contiguous else " (not contiguous)",
        _np.dtype(dtype).name))
    return _np.ascontiguousarray(a, dtype=dtype)


def _weights(w, scale, conv):
    w = _np.asarray(w)
    if w.ndim != 1:
        raise ValueError("weights must be 1-d")
    if w.dtype.kind == "f" or scale is not None:
        if not _np.all(_np.isfinite(w)):
            raise ValueError("weights hold a NaN or an infinity")
        v = w * scale if scale is not None else w
        r = _np.rint(v)
        if scale is None and not _np.array_equal(r, v):
            raise ValueError("weights are not whole numbers (ordo's are 32-bit unsigned "
                             "integers); give weight_scale=S to use round(w * S)")
        if len(r) and r.min() < 0:
            raise ValueError("weights hold a negative value (%g)" % w.min())
        if len(r) and r.max() > _np.iinfo(_np.uint32).max:
            raise ValueError("a weight (%g) is beyond 2^32 - 1" % r.max())
        conv.append("weights copied from %s to uint32%s" % (
            w.dtype, " (x %g, rounded)" % scale if scale is not None else ""))
        return r.astype(_np.uint32)
    if w.dtype.kind not in "iu":
        raise TypeError("weights must be numbers, not %s" % w.dtype)
    return _as(w, _np.uint32, "weights", conv)


def _check_ids(a, what):
    if a.dtype.kind not in "iu":
        raise TypeError("%s must hold integer node ids, not %s" % (what, a.dtype))
    if len(a) and a.min() < 0:
        raise ValueError("%s holds a negative node id (%d)" % (what, a.min()))
