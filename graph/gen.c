/*
 * gen.c - deterministic graph generators (ordo-gen, the binaries' --gen).
 *
 * Every random choice is a pure function of (seed, salt, item id) through ordo_hash2,
 * never of a sequential stream, so the output is byte-identical for any thread count.
 *
 * road:W,H  W x H lattice (node v = i*W + j), points jittered by up to 35% of the
 *     spacing, coordinates in metres (int32). Kept edges: a random spanning tree (each
 *     node other than (0,0) keeps the edge to its left or upper neighbour), plus each other
 *     lattice edge with probability keep/100, plus a diagonal (i,j)-(i+1,j+1) with
 *     probability diag/100. Both directions of each road; weight = ceil(Euclidean metres
 *     x U[1, 1.3]) >= 1, so straight-line distance is an admissible A* heuristic.
 *     Defaults give about 2.7 arcs per node, like DIMACS road networks.
 * grid:W,H  every lattice edge, both directions, weights U[lo, hi], coordinates = (j, i).
 * rmat:scale,ef  (also spelled kron) 2^scale nodes, ef*2^scale R-MAT edges with (a,b,c) =
 * (.57,.19,.19), both directions unless sym=0, weights U[wlo, whi]; self-loops removed by the
 *     builder (counted), duplicates kept unless dedup=1.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "ordo_graph.h"
#include "ordo_rng.h"
#include "ordo_util.h"

enum { SALT_TREE = 1, SALT_KEEP, SALT_DIAG, SALT_JX, SALT_JY, SALT_W, SALT_RMAT };

struct lattice {
	uint64_t W, H, seed;
	bool road;       /* road: sparse edges + jitter; else full grid */
	uint64_t keep;   /* per mille */
	uint64_t diag;   /* per mille */
	double spacing;  /* metres */
	uint32_t lo, hi; /* grid weights */
};

static uint64_t salted(const struct lattice *L, int salt, uint64_t id)
{
	return ordo_hash2(L->seed * 16 + (uint64_t)salt, id);
}

/* Lattice edge ids: 2v = v -> v+1 (right), 2v+1 = v -> v+W (down). */
static bool edge_kept(const struct lattice *L, uint64_t e)
{
	if (!L->road)
		return true;
	uint64_t v = e >> 1;
	uint64_t child = (e & 1) ? v + L->W : v + 1;
	uint64_t ci = child / L->W, cj = child % L->W;
	/* the child's tree edge: left when in row 0, up when in column 0, else random */
	bool up = cj == 0 ? true : ci == 0 ? false : (salted(L, SALT_TREE, child) & 1);
	if (up == (bool)(e & 1))
		return true;
	return ordo_reduce(salted(L, SALT_KEEP, e), 1000) < L->keep;
}

static bool diag_kept(const struct lattice *L, uint64_t v)
{
	if (!L->road || L->diag == 0)
		return false;
	uint64_t i = v / L->W, j = v % L->W;
	if (i + 1 >= L->H || j + 1 >= L->W)
		return false;
	return ordo_reduce(salted(L, SALT_DIAG, v), 1000) < L->diag;
}

static void node_xy(const struct lattice *L, uint64_t v, int32_t *x, int32_t *y)
{
	uint64_t i = v / L->W, j = v % L->W;
	if (!L->road) {
		*x = (int32_t)j;
		*y = (int32_t)i;
		return;
	}
	double jx = 0.35 * (ordo_unit(salted(L, SALT_JX, v)) - 0.5);
	double jy = 0.35 * (ordo_unit(salted(L, SALT_JY, v)) - 0.5);
	*x = (int32_t)lround(((double)j + jx) * L->spacing);
	*y = (int32_t)lround(((double)i + jy) * L->spacing);
}

static uint32_t edge_weight(const struct lattice *L, const int32_t *xy, uint64_t a, uint64_t b,
                            uint64_t id)
{
	uint64_t r = salted(L, SALT_W, id);
	if (!L->road)
		return L->lo + (uint32_t)ordo_reduce(r, (uint64_t)L->hi - L->lo + 1);
	double dx = (double)xy[2 * a] - xy[2 * b], dy = (double)xy[2 * a + 1] - xy[2 * b + 1];
	double w = ceil(sqrt(dx * dx + dy * dy) * (1.0 + 0.3 * ordo_unit(r)));
	return w < 1 ? 1 : (uint32_t)w;
}

/* Neighbours of v in increasing id order; returns their count. ids[] gets the weight
 * key of each edge. */
static int lattice_adj(const struct lattice *L, uint64_t v, uint64_t nb[6], uint64_t ids[6])
{
	uint64_t W = L->W, n = W * L->H, i = v / W, j = v % W, k = 0;
	if (i > 0 && j > 0 && diag_kept(L, v - W - 1))
		nb[k] = v - W - 1, ids[k++] = 2 * n + v - W - 1;
	if (i > 0 && edge_kept(L, 2 * (v - W) + 1))
		nb[k] = v - W, ids[k++] = 2 * (v - W) + 1;
	if (j > 0 && edge_kept(L, 2 * (v - 1)))
		nb[k] = v - 1, ids[k++] = 2 * (v - 1);
	if (j + 1 < W && edge_kept(L, 2 * v))
		nb[k] = v + 1, ids[k++] = 2 * v;
	if (i + 1 < L->H && edge_kept(L, 2 * v + 1))
		nb[k] = v + W, ids[k++] = 2 * v + 1;
	if (diag_kept(L, v))
		nb[k] = v + W + 1, ids[k++] = 2 * n + v;
	return (int)k;
}

static int gen_lattice(const struct lattice *L, int threads, struct ordo_graph **out,
                       struct ordo_err *err)
{
	uint64_t n = L->W * L->H;
	if (n == 0 || n > ORDO_MAX_NODES)
		return ordo_err_set(err, ORDO_EINVAL, "lattice %llux%llu: need 1..%u nodes",
		                    (unsigned long long)L->W, (unsigned long long)L->H,
		                    ORDO_MAX_NODES);
	uint64_t *deg = ordo_alloc_huge(n * sizeof *deg);
	int32_t *xy = ordo_alloc_huge(2 * n * sizeof *xy);
	if (!deg || !xy) {
		free(deg), free(xy);
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory generating a lattice");
	}
#pragma omp parallel for num_threads(threads) schedule(static)
	for (uint64_t v = 0; v < n; v++) {
		uint64_t nb[6], ids[6];
		deg[v] = (uint64_t)lattice_adj(L, v, nb, ids);
		node_xy(L, v, &xy[2 * v], &xy[2 * v + 1]);
	}
	uint64_t m = 0;
	for (uint64_t v = 0; v < n; v++) {
		uint64_t d = deg[v];
		deg[v] = m;
		m += d;
	}
	struct ordo_graph *g;
	int rc = ordo_graph_alloc((uint32_t)n, m, true, &g, err);
	if (rc) {
		free(deg), free(xy);
		return rc;
	}
	memcpy(g->off, deg, n * sizeof *deg);
	g->off[n] = m;
	free(deg);
#pragma omp parallel for num_threads(threads) schedule(static)
	for (uint64_t v = 0; v < n; v++) {
		uint64_t nb[6], ids[6], e = g->off[v];
		int k = lattice_adj(L, v, nb, ids);
		for (int q = 0; q < k; q++, e++) {
			g->dst[e] = (uint32_t)nb[q];
			g->w[e] = edge_weight(L, xy, v, nb[q], ids[q]);
		}
	}
	g->coord = xy;
	g->coord_kind = ORDO_COORD_INT32;
	snprintf(g->coord_unit, sizeof g->coord_unit, "%s", L->road ? "m" : "cell");
	g->flags |= ORDO_GRAPH_SYMMETRIC;
	*out = g;
	return 0;
}

static int gen_rmat(int scale, uint64_t ef, uint64_t seed, uint32_t wlo, uint32_t whi, bool sym,
                    bool dedup, int threads, bool compress, struct ordo_spill *spill,
                    struct ordo_graph **out, struct ordo_err *err)
{
	uint64_t n = 1ull << scale, m = ef << scale;
	int T = threads > 0 ? threads : omp_get_max_threads();
	struct ordo_edge_chain *ch = malloc((size_t)T * sizeof *ch);
	if (!ch)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory generating R-MAT");
	/* Thresholds on 16-bit draws for the quadrants a | b | c | d. */
	const uint32_t ta = (uint32_t)(0.57 * 65536), tb = ta + (uint32_t)(0.19 * 65536),
	               tc = tb + (uint32_t)(0.19 * 65536);
#pragma omp parallel num_threads(T)
	{
		int t = omp_get_thread_num();
		struct ordo_edge_chain *c = &ch[t];
		ordo_chain_init(c, false);
		/* bound for the compressed builder: the arcs wait packed (varints), so the
		 * plain graph never exists */
		c->pack = compress;
		c->spill = compress ? spill : NULL;
		uint64_t lo = m * (uint64_t)t / T, hi = m * (uint64_t)(t + 1) / T;
		for (uint64_t e = lo; e < hi; e++) {
			uint64_t u = 0, v = 0, r = 0;
			for (int l = 0; l < scale; l++) {
				if ((l & 3) == 0)
					r = ordo_hash2(seed * 16 + SALT_RMAT,
					               e * 8 + (uint64_t)(l >> 2));
				uint32_t x = (uint32_t)(r & 0xffff);
				r >>= 16;
				int bu = x >= tb, bv = (x >= ta && x < tb) || x >= tc;
				u = u << 1 | (uint64_t)bu;
				v = v << 1 | (uint64_t)bv;
			}
			ordo_chain_push(c, (uint32_t)u, (uint32_t)v, 0);
		}
		ordo_chain_seal(c);
	}
	struct ordo_edge_chain all;
	ordo_chain_init(&all, false);
	for (int t = 0; t < T; t++)
		ordo_chain_concat(&all, &ch[t]);
	free(ch);
	struct ordo_build_opts bo = {.n = n,
	                             .symmetrize = sym,
	                             .dedup = dedup,
	                             .random_weights = true,
	                             .wlo = wlo,
	                             .whi = whi,
	                             .seed = seed,
	                             .threads = T,
	                             .compress = compress,
	                             .spill = compress ? spill : NULL};
	if (all.oom) { /* concat keeps any chain's failed append */
		ordo_chain_free(&all);
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory generating R-MAT arcs");
	}
	return ordo_graph_build(&all, &bo, out, NULL, err);
}

enum { ROAD_W, ROAD_H, ROAD_SEED, ROAD_KEEP, ROAD_DIAG, ROAD_SPACING, ROAD_N };
static const struct ordo_param road_params[ROAD_N] = {
    {"W", 1024, 1, 1 << 20, "lattice width"},
    {"H", 1024, 1, 1 << 20, "lattice height"},
    {"seed", 1, 0, INT64_MAX, "random seed"},
    {"keep", 300, 0, 1000, "per mille of non-tree lattice edges kept"},
    {"diag", 40, 0, 1000, "per mille of cells with a diagonal road"},
    {"spacing", 200, 1, 100000, "lattice spacing in metres"},
};
enum { GRID_W, GRID_H, GRID_SEED, GRID_LO, GRID_HI, GRID_N };
static const struct ordo_param grid_params[GRID_N] = {
    {"W", 1024, 1, 1 << 20, "grid width"},         {"H", 1024, 1, 1 << 20, "grid height"},
    {"seed", 1, 0, INT64_MAX, "random seed"},      {"lo", 1, 1, UINT32_MAX, "lowest weight"},
    {"hi", 1000, 1, UINT32_MAX, "highest weight"},
};
enum { RMAT_SCALE, RMAT_EF, RMAT_SEED, RMAT_WLO, RMAT_WHI, RMAT_SYM, RMAT_DEDUP, RMAT_N };
static const struct ordo_param rmat_params[RMAT_N] = {
    {"scale", 16, 1, 31, "log2 of the node count"},
    {"ef", 16, 1, 1024, "edges per node (before symmetrizing)"},
    {"seed", 1, 0, INT64_MAX, "random seed"},
    {"wlo", 1, 1, UINT32_MAX, "lowest weight"},
    {"whi", 255, 1, UINT32_MAX, "highest weight"},
    {"sym", 1, 0, 1, "1: store both directions of every edge"},
    {"dedup", 0, 0, 1, "1: keep one arc per node pair (minimum weight)"},
};

struct gen_kind {
	const char *name, *help;
	const struct ordo_param *params;
	int nparams;
};
static const struct gen_kind gens[] = {
    {"road", "road-like jittered lattice with coordinates (metres)", road_params, ROAD_N},
    {"grid", "4-neighbour grid, uniform random weights", grid_params, GRID_N},
    {"rmat", "R-MAT / Kronecker social-like graph (a,b,c = .57,.19,.19)", rmat_params, RMAT_N},
};

void ordo_generate_help(char *buf, size_t cap)
{
	size_t used = 0;
	for (size_t g = 0; g < sizeof gens / sizeof gens[0]; g++) {
		used += (size_t)snprintf(buf + used, used < cap ? cap - used : 0, "  %s: %s\n",
		                         gens[g].name, gens[g].help);
		for (int i = 0; i < gens[g].nparams; i++)
			used += (size_t)snprintf(
			    buf + used, used < cap ? cap - used : 0,
			    "      %-8s %-12lld %s (%lld..%lld)\n", gens[g].params[i].name,
			    (long long)gens[g].params[i].def, gens[g].params[i].help,
			    (long long)gens[g].params[i].lo, (long long)gens[g].params[i].hi);
	}
}

int ordo_generate(const char *spec_text, int threads, struct ordo_graph **out, char *resolved,
                  size_t resolved_cap, struct ordo_err *err)
{
	return ordo_generate_as(spec_text, threads, false, NULL, out, resolved, resolved_cap, err);
}

/* The lattices are made as CSR arrays directly: a compressed one is converted after. */
static int compressed_after(int rc, bool compress, int threads, struct ordo_graph **out,
                            struct ordo_err *err)
{
	if (!rc && compress && (rc = ordo_graph_convert(out, true, threads, err))) {
		ordo_graph_free(*out);
		*out = NULL;
	}
	return rc;
}

/* The generator a spec names and its parameters, resolved (resolved: the spec with
 * every parameter, when not NULL). */
static int resolve_gen(const char *spec_text, const struct gen_kind **out, int64_t *v,
                       char *resolved, size_t resolved_cap, struct ordo_err *err)
{
	struct ordo_spec spec;
	int rc = ordo_spec_parse(spec_text, &spec, err);
	if (rc)
		return rc;
	const struct gen_kind *k = NULL;
	for (size_t g = 0; g < sizeof gens / sizeof gens[0]; g++)
		if (!strcmp(gens[g].name, spec.name) ||
		    (!strcmp(spec.name, "kron") && !strcmp(gens[g].name, "rmat")))
			k = &gens[g];
	if (!k)
		return ordo_err_set(err, ORDO_EINVAL,
		                    "unknown generator '%s'; accepted: road, grid, rmat (or kron)",
		                    spec.name);
	char what[96];
	snprintf(what, sizeof what, "generator %s", k->name);
	rc = ordo_params_resolve(what, k->params, k->nparams, &spec, v, err);
	if (rc)
		return rc;
	if (resolved)
		ordo_params_format(resolved, resolved_cap, k->name, k->params, k->nparams, v);
	*out = k;
	return 0;
}

int ordo_generate_size(const char *spec_text, uint64_t *nodes, uint64_t *arcs, uint64_t *bytes,
                       struct ordo_err *err)
{
	const struct gen_kind *k;
	int64_t v[ORDO_MAX_PARAMS];
	int rc = resolve_gen(spec_text, &k, v, NULL, 0, err);
	if (rc)
		return rc;
	double n, m, extra = 0;
	if (k->params == rmat_params) {
		n = ldexp(1, (int)v[RMAT_SCALE]);
		m = (double)v[RMAT_EF] * n * (v[RMAT_SYM] ? 2 : 1);
		extra = 12 * m; /* the drawn arcs wait as (source, target, weight) */
	} else if (k->params == road_params) {
		n = (double)v[ROAD_W] * (double)v[ROAD_H];
		/* a spanning tree, kept extra lattice edges and diagonals, both directions */
		m = 2 * n * (1 + (double)(v[ROAD_KEEP] + v[ROAD_DIAG]) / 1000);
		extra = 16 * n; /* coordinates */
	} else {
		n = (double)v[GRID_W] * (double)v[GRID_H];
		m = 4 * n;
	}
	*nodes = n > 1e19 ? UINT64_MAX : (uint64_t)n;
	*arcs = m > 1e19 ? UINT64_MAX : (uint64_t)m;
	const double b = 8 * (n + 1) + 8 * m + extra; /* offsets, targets and weights */
	*bytes = b > 1.8e19 ? UINT64_MAX : (uint64_t)b;
	return 0;
}

int ordo_generate_as(const char *spec_text, int threads, bool compress, struct ordo_spill *spill,
                     struct ordo_graph **out, char *resolved, size_t resolved_cap,
                     struct ordo_err *err)
{
	*out = NULL;
	const struct gen_kind *k;
	int64_t v[ORDO_MAX_PARAMS];
	int rc = resolve_gen(spec_text, &k, v, resolved, resolved_cap, err);
	if (rc)
		return rc;
	if (k->params == road_params) {
		struct lattice L = {.W = (uint64_t)v[ROAD_W],
		                    .H = (uint64_t)v[ROAD_H],
		                    .seed = (uint64_t)v[ROAD_SEED],
		                    .road = true,
		                    .keep = (uint64_t)v[ROAD_KEEP],
		                    .diag = (uint64_t)v[ROAD_DIAG],
		                    .spacing = (double)v[ROAD_SPACING]};
		return compressed_after(
		    gen_lattice(&L, threads > 0 ? threads : omp_get_max_threads(), out, err),
		    compress, threads, out, err);
	}
	if (k->params == grid_params) {
		if (v[GRID_LO] > v[GRID_HI])
			return ordo_err_set(err, ORDO_EINVAL, "generator grid: lo > hi");
		struct lattice L = {.W = (uint64_t)v[GRID_W],
		                    .H = (uint64_t)v[GRID_H],
		                    .seed = (uint64_t)v[GRID_SEED],
		                    .lo = (uint32_t)v[GRID_LO],
		                    .hi = (uint32_t)v[GRID_HI]};
		return compressed_after(
		    gen_lattice(&L, threads > 0 ? threads : omp_get_max_threads(), out, err),
		    compress, threads, out, err);
	}
	if (v[RMAT_WLO] > v[RMAT_WHI])
		return ordo_err_set(err, ORDO_EINVAL, "generator rmat: wlo > whi");
	if (v[RMAT_SCALE] == 32 || ((uint64_t)v[RMAT_EF] << v[RMAT_SCALE]) > (1ull << 36))
		return ordo_err_set(err, ORDO_EINVAL, "generator rmat: too many edges");
	return gen_rmat((int)v[RMAT_SCALE], (uint64_t)v[RMAT_EF], (uint64_t)v[RMAT_SEED],
	                (uint32_t)v[RMAT_WLO], (uint32_t)v[RMAT_WHI], v[RMAT_SYM] != 0,
	                v[RMAT_DEDUP] != 0, threads, compress, spill, out, err);
}
