/*
 * _core.c - the C extension under `import ordo` (CPython API and NumPy's C API).
 *
 * Graph: a struct ordo_graph either loaded by ordo (owned, freed with the object) or
 * borrowed from NumPy arrays without a copy (from_csr: the object keeps the arrays
 * alive for as long as the graph lives). Apps run through an ordo_app_session (ordo_app.h),
 * the harness the binaries use, so a Python run resolves its scheduler, runs its
 * baseline, times its kernel, verifies and writes its record exactly as a binary does.
 * The GIL is released while ordo loads, prepares or runs (PyEval_SaveThread; the
 * Py_BEGIN_ALLOW_THREADS macros do not survive clang-format). Library errors become
 * ordo.Error with the library's message (file and line for bad input).
 *
 * Why a C extension and not cffi: the borrowed arrays must be kept alive by the graph
 * object and handed over by pointer with a dtype check, which the buffer protocol and
 * NumPy's C API give directly; cffi's API mode would need a compiler at install time
 * too, plus the cffi package, and a Python-level wrapper per call (bench/LOG.md,
 * "Python": the call overhead).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "ordo_apps.h"
#include "ordo_io.h"
#include "ordo_schedulers.h"

static PyObject *Error;     /* ordo.Error */
static PyObject *FileError; /* ordo.FileError: an ordo.Error and an OSError */

/* The library's error as an exception: str() is the library's message, .code its
 * ORDO_E* code; a file's fault (EIO: cannot open, read or write) is an ordo.FileError,
 * which is also an OSError, so `except OSError` catches it as it catches open()'s. */
/* The library's messages name the command line's options ("give them with --coords",
 * "--seats 0: expected ..."); from Python they name the keyword instead ("coords=...",
 * "seats=0: expected ..."): a number, a quoted value or the word an error quotes right
 * after the option is its value, anything else gets the keyword's placeholder. Only
 * whole option names are replaced. */
static void python_words(const char *in, char *out, size_t cap)
{
	static const char *const flags[][3] = {{"--coords", "coords", "..."},
	                                       {"--no-coords", "no_coords", "True"},
	                                       {"--random-weights", "random_weights", "..."},
	                                       {"--weight-seed", "weight_seed", "..."},
	                                       {"--reorder", "reorder", "..."},
	                                       {"--compress", "compress", "True"},
	                                       {"--dedup", "dedup", "True"},
	                                       {"--symmetrize", "symmetrize", "True"},
	                                       {"--keep-self-loops", "keep_self_loops", "True"},
	                                       {"--threads", "threads", "..."},
	                                       {"--delta", "delta", "..."},
	                                       {"--lookahead", "lookahead", "..."},
	                                       {"--seats", "seats", "..."},
	                                       {"--coop", "coop", "..."},
	                                       {"--sim", "sim", "..."},
	                                       {"--verify-mapped", "verify_mapped", "True"},
	                                       {"--direction", "direction", "..."},
	                                       {"--alpha", "alpha", "..."},
	                                       {"--beta", "beta", "..."},
	                                       {"--handoff-round", "handoff_round", "..."},
	                                       {"--algo", "algo", "..."},
	                                       {"--heuristic-scale", "heuristic_scale", "..."}};
	size_t k = 0;
	while (*in && k + 1 < cap) {
		int hit = -1;
		size_t len = 0;
		for (size_t f = 0; in[0] == '-' && in[1] == '-' && f < sizeof flags / sizeof *flags;
		     f++) {
			const size_t n = strlen(flags[f][0]);
			const char after = in[n];
			if (n > len && !strncmp(in, flags[f][0], n) &&
			    !((after >= 'a' && after <= 'z') || after == '-'))
				hit = (int)f, len = n;
		}
		if (hit < 0) {
			out[k++] = *in++;
			continue;
		}
		in += len;
		/* its value: a number, a quoted word, or the word an error quotes ("X: ...") */
		size_t t = 1;
		while (in[0] == ' ' && in[t] && in[t] != ' ')
			t++;
		const bool value = in[0] == ' ' && t > 1 &&
		                   ((in[1] >= '0' && in[1] <= '9') || in[1] == '\'' ||
		                    in[1] == '-' || in[t - 1] == ':');
		const int w =
		    snprintf(out + k, cap - k, "%s=%s", flags[hit][1], value ? "" : flags[hit][2]);
		if (w < 0 || (size_t)w >= cap - k)
			break;
		k += (size_t)w;
		if (value)
			in++; /* the space: the value follows the '=' */
	}
	out[k] = 0;
}

static PyObject *raise_err(const struct ordo_err *e)
{
	PyObject *cls = e->code == ORDO_EIO ? FileError : Error;
	char msg[sizeof e->msg + 256];
	python_words(e->msg[0] ? e->msg : ordo_strerror(e->code), msg, sizeof msg);
	PyObject *exc = PyObject_CallFunction(cls, "s", msg);
	if (!exc)
		return NULL;
	PyObject *code = PyLong_FromLong(e->code);
	if (code && PyObject_SetAttrString(exc, "code", code) == 0)
		PyErr_SetObject(cls, exc);
	Py_XDECREF(code);
	Py_DECREF(exc);
	return NULL;
}

/* ---- Graph ---- */

typedef struct {
	PyObject_HEAD struct ordo_graph *g;
	bool owned;     /* loaded (or copied) by ordo: freed whole; else only the struct is ours */
	PyObject *refs; /* borrowed: a tuple of the arrays g points into */
	PyObject *made_ro; /* borrowed: a list of the arrays it made read-only, or NULL */
} GraphObject;

/* Borrowed arrays go back to writable when the graph lets them go (those it made
 * read-only). */
static void give_back(GraphObject *self)
{
	for (Py_ssize_t i = 0; self->made_ro && i < PyList_GET_SIZE(self->made_ro); i++)
		PyArray_ENABLEFLAGS((PyArrayObject *)PyList_GET_ITEM(self->made_ro, i),
		                    NPY_ARRAY_WRITEABLE);
	Py_CLEAR(self->made_ro);
}

/* Makes a and every array it views (its bases) read-only, listing those that were
 * writable in `list`; -1 with an exception when the list cannot grow. */
static int make_read_only(PyArrayObject *a, PyObject *list)
{
	for (PyObject *o = (PyObject *)a; o && PyArray_Check(o);
	     o = PyArray_BASE((PyArrayObject *)o))
		if (PyArray_ISWRITEABLE((PyArrayObject *)o)) {
			if (PyList_Append(list, o) < 0)
				return -1;
			PyArray_CLEARFLAGS((PyArrayObject *)o, NPY_ARRAY_WRITEABLE);
		}
	return 0;
}

static void Graph_dealloc(GraphObject *self)
{
	give_back(self);
	if (self->g) {
		if (self->owned)
			ordo_graph_free(self->g);
		else
			free(self->g);
	}
	Py_XDECREF(self->refs);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyTypeObject GraphType;

static GraphObject *graph_new(struct ordo_graph *g, bool owned, PyObject *refs)
{
	GraphObject *o = PyObject_New(GraphObject, &GraphType);
	if (!o) {
		if (owned)
			ordo_graph_free(g);
		else
			free(g);
		return NULL;
	}
	o->g = g;
	o->owned = owned;
	o->refs = refs;
	o->made_ro = NULL;
	Py_XINCREF(refs);
	return o;
}

/* The graph's properties, one getter: `which` is the property's name. */
static PyObject *Graph_get(GraphObject *self, void *which)
{
	const struct ordo_graph *g = self->g;
	const char *w = which;
	if (!strcmp(w, "n"))
		return PyLong_FromUnsignedLong(g->n);
	if (!strcmp(w, "m"))
		return PyLong_FromUnsignedLongLong(g->m);
	return PyBool_FromLong(!strcmp(w, "weighted")     ? ordo_graph_weighted(g)
	                       : !strcmp(w, "symmetric")  ? (g->flags & ORDO_GRAPH_SYMMETRIC) != 0
	                       : !strcmp(w, "compressed") ? ordo_graph_compressed(g)
	                       : !strcmp(w, "borrowed")   ? !self->owned
	                       : !strcmp(w, "mapped")     ? g->map != NULL
	                                                  : g->coord_kind != ORDO_COORD_NONE);
}

/* A read-only NumPy view of `count` values at p, kept alive by `owner`. */
static PyObject *view(void *p, npy_intp count, int type, PyObject *owner)
{
	PyObject *a = PyArray_SimpleNewFromData(1, &count, type, p);
	if (!a)
		return NULL;
	PyArray_CLEARFLAGS((PyArrayObject *)a, NPY_ARRAY_WRITEABLE);
	Py_INCREF(owner);
	if (PyArray_SetBaseObject((PyArrayObject *)a, owner) < 0) {
		Py_DECREF(a);
		return NULL;
	}
	return a;
}

/* (indptr, indices, weights or None): views of a plain graph's arrays, no copy. */
static PyObject *Graph_csr(GraphObject *self, PyObject *noargs)
{
	(void)noargs;
	struct ordo_graph *g = self->g;
	if (ordo_graph_compressed(g)) {
		PyErr_SetString(PyExc_ValueError,
		                "a compressed graph has no CSR arrays to share; load it without "
		                "compress=True");
		return NULL;
	}
	PyObject *off = view(g->off, (npy_intp)g->n + 1, NPY_UINT64, (PyObject *)self);
	PyObject *dst = off ? view(g->dst, (npy_intp)g->m, NPY_UINT32, (PyObject *)self) : NULL;
	PyObject *w = NULL;
	if (dst)
		w = g->w ? view(g->w, (npy_intp)g->m, NPY_UINT32, (PyObject *)self)
		         : (Py_INCREF(Py_None), Py_None);
	if (!w) {
		Py_XDECREF(off);
		Py_XDECREF(dst);
		return NULL;
	}
	return Py_BuildValue("(NNN)", off, dst, w);
}

static PyObject *Graph_degree(GraphObject *self, PyObject *noargs)
{
	(void)noargs;
	npy_intp n = self->g->n;
	PyObject *a = PyArray_SimpleNew(1, &n, NPY_UINT64);
	if (!a)
		return NULL;
	uint64_t *d = PyArray_DATA((PyArrayObject *)a);
	for (uint32_t u = 0; u < self->g->n; u++)
		d[u] = ordo_graph_degree(self->g, u);
	return a;
}

/* The input ids of the graph's nodes (a renumbered graph), or None. */
static PyObject *Graph_input_ids(GraphObject *self, PyObject *noargs)
{
	(void)noargs;
	if (!self->g->orig_id)
		Py_RETURN_NONE;
	return view(self->g->orig_id, (npy_intp)self->g->n, NPY_UINT32, (PyObject *)self);
}

static PyObject *Graph_bytes(GraphObject *self, PyObject *noargs)
{
	(void)noargs;
	return PyLong_FromUnsignedLongLong(ordo_graph_csr_bytes(self->g));
}

#define PROP(name, doc)                                  \
	{                                                \
		name, (getter)Graph_get, NULL, doc, name \
	}
static PyGetSetDef Graph_getset[] = {
    PROP("n", "nodes"),
    PROP("m", "arcs (an undirected edge is two)"),
    PROP("weighted", "arcs have weights"),
    PROP("symmetric", "every arc has its reverse"),
    PROP("compressed", "compressed CSR"),
    PROP("borrowed", "the arrays are the caller's"),
    PROP("has_coords", "nodes have coordinates"),
    PROP("mapped", "the arrays lie in a mapped file, shared with other processes"),
    {NULL, NULL, NULL, NULL, NULL},
};
#undef PROP

static PyMethodDef Graph_methods[] = {
    {"_csr", (PyCFunction)Graph_csr, METH_NOARGS, "views of (indptr, indices, weights)"},
    {"degree", (PyCFunction)Graph_degree, METH_NOARGS, "out-degree of every node"},
    {"_input_ids", (PyCFunction)Graph_input_ids, METH_NOARGS, "input ids, or None"},
    {"_bytes", (PyCFunction)Graph_bytes, METH_NOARGS, "bytes of the adjacency"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject GraphType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "ordo._core.Graph",
    .tp_basicsize = sizeof(GraphObject),
    .tp_dealloc = (destructor)Graph_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "an ordo graph (CSR, plain or compressed)",
    .tp_methods = Graph_methods,
    .tp_getset = Graph_getset,
};

/* ---- load ---- */

static PyObject *py_load(PyObject *mod, PyObject *args, PyObject *kw)
{
	(void)mod;
	static char *names[] = {"path",    "symmetrize",      "dedup",       "compress",
	                        "reorder", "random_weights",  "weight_seed", "coords",
	                        "threads", "keep_self_loops", "no_coords",   "verify_mapped",
	                        NULL};
	const char *path, *reorder = NULL, *coords = NULL;
	int sym = 0, dedup = 0, compress = 0, loops = 0, no_coords = 0, threads = 0, vmap = 0;
	PyObject *rw = Py_None;
	unsigned long long wseed = 1;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "s|pppzOKzippp", names, &path, &sym, &dedup,
	                                 &compress, &reorder, &rw, &wseed, &coords, &threads,
	                                 &loops, &no_coords, &vmap))
		return NULL;
	struct ordo_load_opts lo;
	ordo_load_opts_init(&lo);
	lo.build.symmetrize = sym;
	lo.build.dedup = dedup;
	lo.build.compress = compress;
	lo.build.keep_self_loops = loops;
	lo.build.seed = wseed;
	lo.coords = coords;
	lo.no_sibling_coords = no_coords;
	lo.threads = threads;
	lo.verify_mapped = vmap;
	if (reorder && (lo.reorder = ordo_order_from_name(reorder)) < 0) {
		PyErr_Format(PyExc_ValueError, "reorder=%s: expected rcm, bfs, degree or hilbert",
		             reorder);
		return NULL;
	}
	if (rw != Py_None) {
		unsigned long lo_w, hi_w;
		if (!PyArg_ParseTuple(rw, "kk", &lo_w, &hi_w))
			return NULL;
		if (lo_w < 1 || hi_w < lo_w || hi_w > UINT32_MAX) {
			PyErr_Format(PyExc_ValueError,
			             "random_weights=(%lu, %lu): expected 1 <= lo <= hi < 2^32",
			             lo_w, hi_w);
			return NULL;
		}
		lo.build.random_weights = true;
		lo.build.wlo = (uint32_t)lo_w;
		lo.build.whi = (uint32_t)hi_w;
	}
	struct ordo_graph *g = NULL;
	struct ordo_err err = {0};
	int rc;
	PyThreadState *ts = PyEval_SaveThread();
	rc = ordo_load(path, &lo, &g, NULL, &err);
	PyEval_RestoreThread(ts);
	if (rc)
		return raise_err(&err);
	return (PyObject *)graph_new(g, true, NULL);
}

/* ---- from_csr: borrowed arrays ---- */

/* The array as `type`, C-contiguous and aligned, or NULL with ValueError naming it
 * (the Python layer converts; here a mismatch is a bug of the caller). */
static PyArrayObject *exact(PyObject *o, int type, const char *what)
{
	if (!PyArray_Check(o) || PyArray_TYPE((PyArrayObject *)o) != type ||
	    !PyArray_ISCARRAY_RO((PyArrayObject *)o) || PyArray_NDIM((PyArrayObject *)o) != 1) {
		PyErr_Format(PyExc_ValueError, "%s: expected a 1-d C-contiguous %s array", what,
		             type == NPY_UINT64 ? "uint64" : "uint32");
		return NULL;
	}
	return (PyArrayObject *)o;
}

/* A copy of an array's bytes that ordo owns (freed with the graph), or NULL. */
static void *owned_copy(PyArrayObject *a)
{
	const size_t bytes = (size_t)PyArray_NBYTES(a);
	void *p = malloc(bytes ? bytes : 1);
	if (p)
		memcpy(p, PyArray_DATA(a), bytes);
	return p;
}

/* from_csr(indptr u64, indices u32, weights u32 or None, n, symmetric bool or None,
 * copy bool, views tuple): every array checked once here (sizes, indptr's run, ids in
 * range), then symmetric=None checked by ordo_graph_arcs_symmetric, then the graph made
 * on copies of the arrays (copy) or on the arrays themselves, which are then read-only
 * while the graph holds them (and `views`: the caller's arrays they view), and checked
 * again before each run (revalidate). */
/* from_csr's checks of the caller's arrays (n + 1 offsets rising from 0 to m, targets
 * below n, one weight per arc); false with ValueError set. */
static bool csr_valid(const uint64_t *off, uint64_t np, const uint32_t *dst, uint64_t m,
                      PyArrayObject *wa, unsigned long n)
{
	if (wa && (uint64_t)PyArray_SIZE(wa) != m) {
		PyErr_Format(PyExc_ValueError, "weights has %lld entries, indices %llu",
		             (long long)PyArray_SIZE(wa), (unsigned long long)m);
		return false;
	}
	if (np != (uint64_t)n + 1 || off[0] != 0 || off[n] != m) {
		PyErr_Format(PyExc_ValueError,
		             "indptr runs from %llu to %llu over %llu entries; expected 0 to "
		             "len(indices) = %llu over n + 1 = %lu",
		             (unsigned long long)(np ? off[0] : 0),
		             (unsigned long long)(np ? off[np - 1] : 0), (unsigned long long)np,
		             (unsigned long long)m, n + 1);
		return false;
	}
	for (unsigned long u = 0; u < n; u++)
		if (off[u + 1] < off[u]) {
			PyErr_Format(PyExc_ValueError, "indptr decreases at %lu (%llu then %llu)",
			             u, (unsigned long long)off[u], (unsigned long long)off[u + 1]);
			return false;
		}
	for (uint64_t i = 0; i < m; i++)
		if (dst[i] >= n) {
			PyErr_Format(PyExc_ValueError,
			             "indices[%llu] = %u: out of range for %lu nodes",
			             (unsigned long long)i, dst[i], n);
			return false;
		}
	return true;
}

/* A graph g on the caller's arrays (objs: indptr, indices, weights or None; arrs: their
 * arrays, weights NULL), which it keeps alive and makes read-only while it holds them,
 * with the caller's own `views` of them. */
static PyObject *borrowed_graph(struct ordo_graph *g, PyObject *const objs[3],
                                PyArrayObject *const arrs[3], PyObject *views)
{
	g->off = PyArray_DATA(arrs[0]);
	g->dst = PyArray_DATA(arrs[1]);
	g->w = arrs[2] ? PyArray_DATA(arrs[2]) : NULL;
	PyObject *refs = Py_BuildValue("(OOO)", objs[0], objs[1], objs[2]);
	if (!refs) {
		free(g);
		return NULL;
	}
	GraphObject *r = graph_new(g, false, refs);
	Py_DECREF(refs);
	/* read-only while held, with the arrays they view: a write through them (or views
	 * made from them later) raises in Python instead of changing the graph under ordo */
	if (r && !(r->made_ro = PyList_New(0))) {
		Py_DECREF(r);
		return NULL;
	}
	for (int i = 0; r && i < 3; i++)
		if (arrs[i] && make_read_only(arrs[i], r->made_ro) < 0)
			Py_CLEAR(r);
	for (Py_ssize_t i = 0; r && i < PyTuple_GET_SIZE(views); i++) {
		PyObject *v = PyTuple_GET_ITEM(views, i);
		if (PyArray_Check(v) && make_read_only((PyArrayObject *)v, r->made_ro) < 0)
			Py_CLEAR(r);
	}
	return (PyObject *)r;
}

static PyObject *py_from_csr(PyObject *mod, PyObject *args)
{
	(void)mod;
	PyObject *po, *io, *wo, *so, *views;
	unsigned long n;
	int copy;
	if (!PyArg_ParseTuple(args, "OOOkOpO!", &po, &io, &wo, &n, &so, &copy, &PyTuple_Type,
	                      &views))
		return NULL;
	PyArrayObject *pa = exact(po, NPY_UINT64, "indptr"), *ia = NULL, *wa = NULL;
	if (!pa || !(ia = exact(io, NPY_UINT32, "indices")))
		return NULL;
	if (wo != Py_None && !(wa = exact(wo, NPY_UINT32, "weights")))
		return NULL;
	if (n > ORDO_MAX_NODES) {
		PyErr_Format(PyExc_ValueError, "n = %lu: ordo holds at most %u nodes", n,
		             (unsigned)ORDO_MAX_NODES);
		return NULL;
	}
	const uint64_t *off = PyArray_DATA(pa);
	const uint32_t *dst = PyArray_DATA(ia);
	const uint64_t m = (uint64_t)PyArray_SIZE(ia);
	const uint64_t np = (uint64_t)PyArray_SIZE(pa);
	if (!csr_valid(off, np, dst, m, wa, n))
		return NULL;
	bool sym = PyObject_IsTrue(so) == 1;
	if (so == Py_None) { /* the library's check, on a view of the caller's arrays */
		const struct ordo_graph view = {.n = (uint32_t)n,
		                                .m = m,
		                                .off = (uint64_t *)off,
		                                .dst = (uint32_t *)dst,
		                                .w = wa ? (uint32_t *)PyArray_DATA(wa) : NULL};
		PyThreadState *ts = PyEval_SaveThread();
		sym = ordo_graph_arcs_symmetric(&view);
		PyEval_RestoreThread(ts);
	}
	struct ordo_graph *g = calloc(1, sizeof *g);
	if (!g)
		return PyErr_NoMemory();
	g->n = (uint32_t)n;
	g->m = m;
	g->flags = sym ? ORDO_GRAPH_SYMMETRIC : 0;
	if (copy) {
		g->off = owned_copy(pa);
		g->dst = owned_copy(ia);
		g->w = wa ? owned_copy(wa) : NULL;
		if (!g->off || !g->dst || (wa && !g->w)) {
			ordo_graph_free(g);
			return PyErr_NoMemory();
		}
		return (PyObject *)graph_new(g, true, NULL);
	}
	return borrowed_graph(g, (PyObject *[]){po, io, wo}, (PyArrayObject *[]){pa, ia, wa},
	                      views);
}

/* A borrowed graph's arrays checked again (offsets monotone from 0 to m, every id
 * below n: ordo_graph_validate, in parallel): memory the caller could still write
 * through another view made before the graph. NULL with ValueError naming the first
 * violation; a graph ordo owns passes without a look. */
static bool revalidate(GraphObject *go)
{
	if (go->owned)
		return true;
	struct ordo_err err = {0};
	PyThreadState *ts = PyEval_SaveThread();
	const int rc = ordo_graph_validate(go->g, &err);
	PyEval_RestoreThread(ts);
	if (rc)
		PyErr_Format(PyExc_ValueError,
		             "the graph's borrowed arrays were changed after it was made: %s "
		             "(make the graph again, or with copy=True)",
		             err.msg);
	return rc == 0;
}

/* ---- apps ---- */

/* Ctrl-C while ordo runs: the GIL is released, so Python's handler cannot run; ours
 * raises the run's stop flag (checked every 64 tasks and between rounds), the run ends
 * with ORDO_ECANCELED and Python gets KeyboardInterrupt. Installed while runs are in
 * flight only, and Python's handler put back after the last (sigint_catch). */
static volatile _Atomic bool interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	atomic_store_explicit(&interrupted, true, memory_order_relaxed);
}

/* One handler for every run in flight: two Python threads may run ordo at once (the
 * GIL is released), and a save-and-restore per run would interleave (the second run
 * saves the first one's handler, and puts it back last, for good). So the first run
 * in saves Python's handler and installs ours, the last one out puts Python's back,
 * counted under a lock; a Ctrl-C stops every run in flight. */
static pthread_mutex_t sigint_lock = PTHREAD_MUTEX_INITIALIZER;
static int sigint_users;            /* runs in flight (under sigint_lock) */
static struct sigaction sigint_old; /* Python's, while ours is installed */
static bool sigint_installed;

static void sigint_catch(void)
{
	pthread_mutex_lock(&sigint_lock);
	if (sigint_users++ == 0) {
		atomic_store_explicit(&interrupted, false, memory_order_relaxed);
		struct sigaction sa;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_sigint;
		sigemptyset(&sa.sa_mask);
		sigint_installed =
		    PyOS_getsig(SIGINT) != SIG_IGN && sigaction(SIGINT, &sa, &sigint_old) == 0;
	}
	pthread_mutex_unlock(&sigint_lock);
}

static void sigint_release(void)
{
	pthread_mutex_lock(&sigint_lock);
	if (--sigint_users == 0 && sigint_installed) {
		sigaction(SIGINT, &sigint_old, NULL);
		sigint_installed = false;
	}
	pthread_mutex_unlock(&sigint_lock);
}

/* every app of ordo_app_table.h: the package makes its Python functions from these */
static const struct ordo_app_kernel *const all_kernels[] = {
#define ORDO_APP(name) &ordo_kernel_##name,
#include "ordo_app_table.h"
#undef ORDO_APP
};

static const struct ordo_app_kernel *kernel_named(const char *name)
{
	for (size_t i = 0; i < sizeof all_kernels / sizeof *all_kernels; i++)
		if (!strcmp(all_kernels[i]->name, name))
			return all_kernels[i];
	return NULL;
}

/* One kernel's table as a dict: name, summary, baseline, query ("none", "source",
 * "pair"), needs (a list of "weights", "coords", "symmetric"), figures, and options: a
 * list of (name as the binary spells it, argument name or None for a flag, help). */
static PyObject *kernel_info(const struct ordo_app_kernel *k)
{
	static const char *const query[] = {"none", "source", "pair"};
	PyObject *opts = PyList_New(0), *figs = PyList_New(0), *needs = PyList_New(0);
	PyObject *d = NULL;
	if (!opts || !figs || !needs)
		goto out;
	for (const struct ordo_cli_opt *o = k->opts; o && o->name; o++) {
		PyObject *t = Py_BuildValue("(szs)", o->name, o->arg, o->help ? o->help : "");
		if (!t || PyList_Append(opts, t) < 0) {
			Py_XDECREF(t);
			goto out;
		}
		Py_DECREF(t);
	}
	for (int i = 0; i < ORDO_CHECK_FIGURES && k->figures[i]; i++) {
		PyObject *f = PyUnicode_FromString(k->figures[i]);
		if (!f || PyList_Append(figs, f) < 0) {
			Py_XDECREF(f);
			goto out;
		}
		Py_DECREF(f);
	}
	static const struct {
		unsigned bit;
		const char *name;
	} need_names[] = {{ORDO_APP_NEEDS_WEIGHTS, "weights"},
	                  {ORDO_APP_NEEDS_COORDS, "coords"},
	                  {ORDO_APP_NEEDS_SYMMETRIC, "symmetric"}};
	for (size_t i = 0; i < sizeof need_names / sizeof *need_names; i++) {
		if (!(k->needs & need_names[i].bit))
			continue;
		PyObject *f = PyUnicode_FromString(need_names[i].name);
		if (!f || PyList_Append(needs, f) < 0) {
			Py_XDECREF(f);
			goto out;
		}
		Py_DECREF(f);
	}
	d = Py_BuildValue("{s:s,s:s,s:s,s:s,s:O,s:O,s:O}", "name", k->name, "summary",
	                  k->summary ? k->summary : "", "baseline",
	                  k->baseline_name ? k->baseline_name : "", "query", query[k->query],
	                  "needs", needs, "figures", figs, "options", opts);
out:
	Py_XDECREF(opts);
	Py_XDECREF(figs);
	Py_XDECREF(needs);
	return d;
}

/* apps() -> [dict per app of ordo_app_table.h, in its order] (kernel_info) */
static PyObject *py_apps(PyObject *mod, PyObject *noargs)
{
	(void)mod;
	(void)noargs;
	size_t n = sizeof all_kernels / sizeof *all_kernels;
	PyObject *l = PyList_New((Py_ssize_t)n);
	for (size_t i = 0; l && i < n; i++) {
		PyObject *d = kernel_info(all_kernels[i]);
		if (!d)
			Py_CLEAR(l);
		else
			PyList_SET_ITEM(l, (Py_ssize_t)i, d);
	}
	return l;
}

/* An answer array as a new NumPy array; per-node arrays of a renumbered graph in the
 * input's node order. */
static PyObject *answer_array(const struct ordo_app_array *a, const struct ordo_graph *g)
{
	npy_intp count = (npy_intp)a->count;
	PyObject *o = PyArray_SimpleNew(1, &count,
	                                a->real         ? NPY_FLOAT64
	                                : a->width == 8 ? NPY_UINT64
	                                                : NPY_UINT32);
	if (!o)
		return NULL;
	/* in the input's order, node ids as input ids: as the binaries' --output */
	ordo_app_array_in_input_order(a, g, PyArray_DATA((PyArrayObject *)o));
	return o;
}

/* The queries of a run: sources and targets (sequences of input ids, or None) as the
 * graph's ids, one per trial (one when the app takes none); NULL with an exception set. */
static struct ordo_app_query *queries_of(PyObject *srcs, PyObject *tgts,
                                         const struct ordo_graph *g0, Py_ssize_t *count)
{
	Py_ssize_t nq = srcs == Py_None ? 1 : PySequence_Size(srcs);
	if (nq < 0)
		return NULL;
	struct ordo_app_query *q = calloc((size_t)(nq ? nq : 1), sizeof *q);
	if (!q)
		return (struct ordo_app_query *)PyErr_NoMemory();
	for (Py_ssize_t i = 0; i < nq; i++) {
		q[i] = (struct ordo_app_query){ORDO_APP_NO_NODE, ORDO_APP_NO_NODE};
		for (int side = 0; side < 2; side++) {
			PyObject *seq = side ? tgts : srcs;
			if (seq == Py_None)
				continue;
			PyObject *it = PySequence_GetItem(seq, i);
			unsigned long long id = it ? PyLong_AsUnsignedLongLong(it) : 0;
			Py_XDECREF(it);
			if (PyErr_Occurred()) {
				free(q);
				return NULL;
			}
			if (id >= g0->n) {
				free(q);
				if (g0->n == 0)
					PyErr_Format(PyExc_ValueError,
					             "%s %llu: the graph has no nodes",
					             side ? "target" : "source", id);
				else
					PyErr_Format(PyExc_ValueError,
					             "%s %llu: the graph has nodes 0..%u",
					             side ? "target" : "source", id, g0->n - 1);
				return NULL;
			}
			/* a position in input order, as the answer arrays are indexed (the
			 * input's id unless they are an edge list's sparse ids) */
			uint32_t u = ordo_graph_node_at(g0, (uint32_t)id);
			*(side ? &q[i].target : &q[i].source) = u;
		}
	}
	*count = nq;
	return q;
}

/* The last trial's answer as {name: array}; NULL with an exception set. */
static PyObject *answers_of(struct ordo_app_session *s)
{
	struct ordo_app_array arr[4];
	struct ordo_err err = {0};
	int na = 0;
	if (ordo_app_session_answer(s, arr, 4, &na, &err))
		return raise_err(&err);
	PyObject *answers = PyDict_New();
	for (int a = 0; answers && a < na; a++) {
		PyObject *v = answer_array(&arr[a], ordo_app_session_graph(s));
		if (!v || PyDict_SetItemString(answers, arr[a].name, v) < 0)
			Py_CLEAR(answers);
		Py_XDECREF(v);
	}
	return answers;
}

/* A stopped run's KeyboardInterrupt, carrying the finished trials `out` as its
 * `finished` (the package makes them Results, `results`). */
static void raise_stopped(PyObject *out, Py_ssize_t nq)
{
	PyObject *msg = PyUnicode_FromFormat(
	    "ordo: the run was stopped (Ctrl-C) after %zd of %zd trials; the unfinished one is "
	    "dropped, the finished ones are the exception's .results",
	    PyList_GET_SIZE(out), nq);
	PyObject *exc = msg ? PyObject_CallOneArg(PyExc_KeyboardInterrupt, msg) : NULL;
	if (exc && !PyObject_SetAttrString(exc, "finished", out))
		PyErr_SetObject(PyExc_KeyboardInterrupt, exc);
	Py_XDECREF(exc);
	Py_XDECREF(msg);
}

/* py_run's work: one session, one trial per query, the GIL released while ordo runs. */
static PyObject *run_trials(const char *app, GraphObject *go, PyObject *srcs, PyObject *tgts,
                            const char *wl, long long delta, int threads, unsigned long long seed,
                            int verify, long long lookahead, const char *input, PyObject *optlist,
                            const char *seats, const char *coop, const char *sim)
{
	/* the app's options: borrowed UTF-8 of the list's strings, alive while the list is */
	const char *options[17] = {0};
	if (PyList_GET_SIZE(optlist) > 16) {
		PyErr_SetString(PyExc_ValueError, "more than 16 app options");
		return NULL;
	}
	for (Py_ssize_t i = 0; i < PyList_GET_SIZE(optlist); i++)
		if (!(options[i] = PyUnicode_AsUTF8(PyList_GET_ITEM(optlist, i))))
			return NULL;
	const struct ordo_app_kernel *k = kernel_named(app);
	if (!k) {
		PyErr_Format(PyExc_ValueError, "no app named %s", app);
		return NULL;
	}
	if (!revalidate(go))
		return NULL;
	Py_ssize_t nq;
	struct ordo_app_query *q = queries_of(srcs, tgts, go->g, &nq);
	if (!q)
		return NULL;
	struct ordo_app_session_opts so = {.input = input,
	                                   .wl = wl,
	                                   .delta = delta,
	                                   .threads = threads,
	                                   .lookahead = lookahead,
	                                   .seed = seed,
	                                   .verify = verify,
	                                   .cancel = &interrupted,
	                                   .options = options,
	                                   .seats = seats,
	                                   .coop = coop,
	                                   .sim = sim};
	struct ordo_app_session *s = NULL;
	struct ordo_err err = {0};
	int rc;
	PyThreadState *ts = PyEval_SaveThread();
	rc = ordo_app_session_open(k, go->g, &so, &s, &err);
	PyEval_RestoreThread(ts);
	if (rc) {
		free(q);
		return raise_err(&err);
	}
	PyObject *out = PyList_New(0);
	for (Py_ssize_t i = 0; out && i < nq; i++) {
		char *rec = NULL;
		bool pass = false;
		/* A Ctrl-C outside a trial (while the session opened, or between two trials)
		 * reached Python's handler, not ours: it only marked a signal pending, which
		 * Python acts on when it next runs bytecode - after every trial (a 1000-trial
		 * call went on for minutes). Looked at here, it stops the run like ours. */
		const bool early = PyErr_CheckSignals() < 0;
		if (early && !PyErr_ExceptionMatches(PyExc_KeyboardInterrupt)) {
			Py_CLEAR(out); /* another handler's exception: it propagates */
			break;
		}
		if (early)
			PyErr_Clear(); /* raised below, with the finished trials */
		rc = 0;
		if (!early) {
			sigint_catch();
			ts = PyEval_SaveThread();
			rc = ordo_app_session_trial(s, &q[i], (int)i + 1, &rec, &pass, &err);
			PyEval_RestoreThread(ts);
			sigint_release();
		}
		if (early || rc == ORDO_ECANCELED || (!rc && atomic_load(&interrupted))) {
			/* the trials that finished go with the exception (its `finished`; the
			 * package makes them Results, `results`) */
			free(rec);
			raise_stopped(out, nq);
			Py_CLEAR(out);
			break;
		}
		if (rc) {
			Py_CLEAR(out);
			raise_err(&err);
			break;
		}
		PyObject *answers = answers_of(s);
		PyObject *item =
		    answers ? Py_BuildValue("(sOO)", rec, pass ? Py_True : Py_False, answers)
		            : NULL;
		free(rec);
		Py_XDECREF(answers);
		if (!item || PyList_Append(out, item) < 0)
			Py_CLEAR(out);
		Py_XDECREF(item);
	}
	ordo_app_session_close(s);
	free(q);
	return out;
}

/* run(app, graph, *, sources=None, targets=None, scheduler=None, delta=-1, threads=0,
 * seed=1, verify=True, lookahead=-1, input="graph", options=[], seats=None, coop=None,
 * sim=None)
 * -> list of (record JSON, passed, {name: array}) per query. sources and targets:
 * sequences of input ids (None for an app without them), one trial each; delta and
 * lookahead -1: not given; options: the app's own options as "name=value" strings (a
 * flag: "name"), as its binary's; seats, coop and sim as ordo_app_session_opts's. */
static PyObject *py_run(PyObject *mod, PyObject *args, PyObject *kw)
{
	(void)mod;
	static char *names[] = {"app",     "graph", "sources", "targets",   "scheduler", "delta",
	                        "threads", "seed",  "verify",  "lookahead", "input",     "options",
	                        "seats",   "coop",  "sim",     NULL};
	const char *app, *wl = NULL, *input = "graph", *seats = NULL, *coop = NULL, *sim = NULL;
	GraphObject *go;
	PyObject *srcs = Py_None, *tgts = Py_None, *optlist = NULL;
	long long delta = -1, lookahead = -1;
	int threads = 0, verify = 1;
	unsigned long long seed = 1;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "sO!|$OOzLiKpLsO!zzz", names, &app, &GraphType,
	                                 &go, &srcs, &tgts, &wl, &delta, &threads, &seed, &verify,
	                                 &lookahead, &input, &PyList_Type, &optlist, &seats, &coop,
	                                 &sim))
		return NULL;
	PyObject *none_list = NULL;
	if (!optlist && !(optlist = none_list = PyList_New(0)))
		return NULL;
	PyObject *out = run_trials(app, go, srcs, tgts, wl, delta, threads, seed, verify, lookahead,
	                           input, optlist, seats, coop, sim);
	Py_XDECREF(none_list);
	return out;
}

/* ---- the registry ---- */

static PyObject *py_schedulers(PyObject *mod, PyObject *noargs)
{
	(void)mod, (void)noargs;
	PyObject *out = PyList_New(0);
	for (int i = 0; out && i < ordo_scheduler_count(); i++) {
		const struct ordo_scheduler_ops *ops = ordo_scheduler_at(i);
		PyObject *params = PyList_New(0);
		for (int p = 0; params && p < ops->nparams; p++) {
			const struct ordo_param *q = &ops->params[p];
			PyObject *t =
			    Py_BuildValue("(sLLLs)", q->name, (long long)q->def, (long long)q->lo,
			                  (long long)q->hi, q->help ? q->help : "");
			if (!t || PyList_Append(params, t) < 0)
				Py_CLEAR(params);
			Py_XDECREF(t);
		}
		PyObject *t = params ? Py_BuildValue("(sN)", ops->name, params) : NULL;
		if (!t || PyList_Append(out, t) < 0)
			Py_CLEAR(out);
		Py_XDECREF(t);
	}
	return out;
}

/* The spec with every parameter resolved (a scheduler check without a run). */
static PyObject *py_resolve(PyObject *mod, PyObject *args)
{
	(void)mod;
	const char *spec;
	if (!PyArg_ParseTuple(args, "s", &spec))
		return NULL;
	const struct ordo_scheduler_ops *ops;
	int64_t params[ORDO_MAX_PARAMS];
	char resolved[256];
	struct ordo_err err = {0};
	if (ordo_scheduler_resolve(spec, &ops, params, resolved, sizeof resolved, &err))
		return raise_err(&err);
	return PyUnicode_FromString(resolved);
}

static PyMethodDef methods[] = {
    {"load", (PyCFunction)(void (*)(void))py_load, METH_VARARGS | METH_KEYWORDS,
     "load(path, **options) -> Graph"},
    {"from_csr", py_from_csr, METH_VARARGS,
     "from_csr(indptr u64, indices u32, weights u32 or None, n, symmetric or None, copy) -> "
     "Graph"},
    {"run", (PyCFunction)(void (*)(void))py_run, METH_VARARGS | METH_KEYWORDS,
     "run(app, graph, *, sources, targets, scheduler, ...) -> [(record, passed, arrays)]"},
    {"apps", py_apps, METH_NOARGS,
     "apps() -> [{name, summary, baseline, query, needs, figures, options}] per app"},
    {"schedulers", py_schedulers, METH_NOARGS, "the registry: [(name, [(param, ...)])]"},
    {"resolve", py_resolve, METH_VARARGS, "resolve(spec) -> the spec, every parameter set"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_core", "ordo's C core", -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__core(void)
{
	import_array();
	if (PyType_Ready(&GraphType) < 0)
		return NULL;
	PyObject *m = PyModule_Create(&module);
	if (!m)
		return NULL;
	Error = PyErr_NewExceptionWithDoc(
	    "ordo.Error",
	    "an error of the ordo library: str(e) is its message (file and line for bad "
	    "input), e.code the library's ORDO_E* code",
	    NULL, NULL);
	PyObject *bases = Error ? PyTuple_Pack(2, Error, PyExc_OSError) : NULL;
	FileError = bases ? PyErr_NewExceptionWithDoc(
	                        "ordo.FileError",
	                        "an ordo.Error whose cause is a file (cannot open, read or "
	                        "write it): also an OSError",
	                        bases, NULL)
	                  : NULL;
	Py_XDECREF(bases);
	Py_INCREF(&GraphType);
	if (!Error || !FileError || PyModule_AddObject(m, "Error", Error) < 0 ||
	    PyModule_AddObject(m, "FileError", FileError) < 0 ||
	    PyModule_AddObject(m, "Graph", (PyObject *)&GraphType) < 0) {
		Py_DECREF(m);
		return NULL;
	}
	Py_INCREF(Error);
	Py_INCREF(FileError);
	return m;
}
