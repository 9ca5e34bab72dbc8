/* Tests of node orders (graph/reorder.c): each order is a permutation that keeps every
 * arc, the input ids survive renumbering, compression and the native format, queries
 * drawn from a renumbered graph are the input's, and each order does what it promises
 * (RCM's bandwidth on a path, degree order, locality on a grid). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ordo_graph.h"
#include "ordo_io.h"
#include "ordo_rng.h"

static const int orders[] = {ORDO_ORDER_RCM, ORDO_ORDER_BFS, ORDO_ORDER_DEGREE, ORDO_ORDER_HILBERT};

static struct ordo_graph *from_arcs(uint32_t n, const uint32_t *src, const uint32_t *dst,
                                    const uint32_t *w, uint64_t m, bool symmetrize)
{
	struct ordo_edge_chain c;
	ordo_chain_init(&c, w != NULL);
	for (uint64_t i = 0; i < m; i++)
		cr_assert(ordo_chain_push(&c, src[i], dst[i], w ? w[i] : 1));
	struct ordo_build_opts o = {.n = n, .symmetrize = symmetrize};
	struct ordo_graph *g;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_graph_build(&c, &o, &g, NULL, &e), 0, "%s", e.msg);
	return g;
}

/* A W x H grid (arcs both ways, weights 1..9) whose ids are shuffled, with each node's
 * grid position as its coordinates. */
static struct ordo_graph *shuffled_grid(uint32_t W, uint32_t H, uint64_t seed)
{
	const uint32_t n = W * H;
	uint32_t *id = malloc(n * sizeof *id);
	for (uint32_t i = 0; i < n; i++)
		id[i] = i;
	for (uint32_t i = n - 1; i > 0; i--) {
		uint32_t j = (uint32_t)ordo_reduce(ordo_hash2(seed, i), i + 1), t = id[i];
		id[i] = id[j];
		id[j] = t;
	}
	uint64_t m = 0, cap = 2ull * n;
	uint32_t *s = malloc(cap * sizeof *s), *d = malloc(cap * sizeof *d),
	         *w = malloc(cap * sizeof *w);
	for (uint32_t y = 0; y < H; y++)
		for (uint32_t x = 0; x < W; x++) {
			if (x + 1 < W) {
				s[m] = id[y * W + x], d[m] = id[y * W + x + 1];
				w[m] = 1 + (uint32_t)(ordo_hash2(seed, m) % 9), m++;
			}
			if (y + 1 < H) {
				s[m] = id[y * W + x], d[m] = id[(y + 1) * W + x];
				w[m] = 1 + (uint32_t)(ordo_hash2(seed, m) % 9), m++;
			}
		}
	struct ordo_graph *g = from_arcs(n, s, d, w, m, true);
	struct ordo_err e = {0};
	cr_assert_eq(ordo_graph_alloc_coords(g, ORDO_COORD_INT32, &e), 0);
	int32_t *xy = g->coord;
	for (uint32_t i = 0; i < n; i++) {
		xy[2 * id[i]] = (int32_t)(i % W);
		xy[2 * id[i] + 1] = (int32_t)(i / W);
	}
	free(id), free(s), free(d), free(w);
	return g;
}

/* Every arc u->v (w) of g is rank[u]->rank[v] (w) in h, degrees agree, coordinates
 * moved along, and h's input ids are g's. */
static void expect_renumbered(const struct ordo_graph *g, const struct ordo_graph *h,
                              const uint32_t *rank)
{
	cr_assert_eq(h->n, g->n);
	cr_assert_eq(h->m, g->m);
	cr_assert_eq(ordo_graph_weighted(h), ordo_graph_weighted(g));
	cr_assert_eq(h->flags, g->flags);
	cr_assert_not_null(h->orig_id);
	cr_assert_not_null(h->new_id);
	for (uint32_t u = 0; u < g->n; u++) {
		const uint32_t r = rank[u];
		cr_assert_eq(ordo_graph_orig_of(h, r), ordo_graph_orig_of(g, u), "node %u", u);
		cr_assert_eq(ordo_graph_node_of(h, ordo_graph_orig_of(h, r)), r);
		cr_assert_eq(ordo_graph_degree(h, r), ordo_graph_degree(g, u), "node %u", u);
		/* both lists as sorted (target, weight) keys in h's numbering */
		uint64_t d = ordo_graph_degree(g, u), k = 0;
		uint64_t *a = malloc((d + 1) * sizeof *a), *b = malloc((d + 1) * sizeof *b);
		uint32_t v, w;
		for (struct ordo_arcs it = ordo_graph_arcs(g, u); ordo_arcs_next(&it, &v, &w);)
			a[k++] = (uint64_t)rank[v] << 32 | w;
		k = 0;
		for (struct ordo_arcs it = ordo_graph_arcs(h, r); ordo_arcs_next(&it, &v, &w);)
			b[k++] = (uint64_t)v << 32 | w;
		for (uint64_t i = 1; i < d; i++) /* h's lists come sorted */
			cr_assert_leq(b[i - 1], b[i], "list of new node %u is not sorted", r);
		for (uint64_t i = 0; i < d; i++) {
			uint64_t *hit = NULL;
			for (uint64_t j = 0; j < d && !hit; j++)
				if (b[j] == a[i])
					hit = &b[j];
			cr_assert_not_null(hit, "arc %u->%u lost", u, (uint32_t)(a[i] >> 32));
			*hit = UINT64_MAX; /* each arc once */
		}
		free(a), free(b);
		if (g->coord_kind != ORDO_COORD_NONE) {
			double x0, y0, x1, y1;
			ordo_graph_coord(g, u, &x0, &y0);
			ordo_graph_coord(h, r, &x1, &y1);
			cr_assert(x0 == x1 && y0 == y1, "coordinates of node %u", u);
		}
	}
}

/* Mean |u - v| over the arcs: what an order that keeps neighbours close makes small. */
static double mean_span(const struct ordo_graph *g)
{
	double sum = 0;
	uint32_t v, w;
	for (uint32_t u = 0; u < g->n; u++)
		for (struct ordo_arcs a = ordo_graph_arcs(g, u); ordo_arcs_next(&a, &v, &w);)
			sum += u > v ? u - v : v - u;
	return g->m ? sum / (double)g->m : 0;
}

/* Largest |u - v| over the arcs. */
static uint32_t max_span(const struct ordo_graph *g)
{
	uint32_t top = 0, v, w;
	for (uint32_t u = 0; u < g->n; u++)
		for (struct ordo_arcs a = ordo_graph_arcs(g, u); ordo_arcs_next(&a, &v, &w);) {
			const uint32_t span = u > v ? u - v : v - u;
			top = span > top ? span : top;
		}
	return top;
}

/* g renumbered in `order` (its ranks left in rank), valid and checked arc by arc. */
static struct ordo_graph *renumbered(const struct ordo_graph *g, int order, uint32_t *rank)
{
	struct ordo_err e = {0};
	struct ordo_graph *h;
	cr_assert_eq(ordo_graph_order(g, order, rank, &e), 0, "%s", e.msg);
	cr_assert_eq(ordo_graph_permute(g, rank, 2, &h, &e), 0, "%s", e.msg);
	cr_assert_eq(ordo_graph_validate(h, &e), 0, "%s", e.msg);
	expect_renumbered(g, h, rank);
	return h;
}

Test(reorder, every_order_is_a_permutation_that_keeps_every_arc)
{
	struct ordo_graph *g = shuffled_grid(37, 23, 5);
	uint32_t *rank = malloc(g->n * sizeof *rank);
	for (size_t i = 0; i < sizeof orders / sizeof *orders; i++) {
		struct ordo_graph *h = renumbered(g, orders[i], rank);
		/* the grid's shuffled ids span about n/3 per arc; a local order far less */
		if (orders[i] != ORDO_ORDER_DEGREE)
			cr_assert_lt(mean_span(h), mean_span(g) / 8, "%s: span %.1f vs %.1f",
			             ordo_order_name(orders[i]), mean_span(h), mean_span(g));
		ordo_graph_free(h);
	}
	free(rank);
	ordo_graph_free(g);
}

Test(reorder, a_directed_graph_with_unreached_parts_is_ordered_whole)
{
	/* 0->1->2, 5->4->3 (3 is reached from 5 only), 6 isolated, 7->0 */
	const uint32_t s[] = {0, 1, 5, 4, 7}, d[] = {1, 2, 4, 3, 0};
	struct ordo_graph *g = from_arcs(8, s, d, NULL, 5, false);
	uint32_t rank[8];
	for (int o = ORDO_ORDER_RCM; o <= ORDO_ORDER_DEGREE; o++)
		ordo_graph_free(renumbered(g, o, rank));
	ordo_graph_free(g);
}

Test(reorder, rcm_gives_a_shuffled_path_bandwidth_one)
{
	const uint32_t n = 1000;
	uint32_t *id = malloc(n * sizeof *id), *s = malloc(n * sizeof *s),
	         *d = malloc(n * sizeof *d);
	for (uint32_t i = 0; i < n; i++)
		id[i] = i;
	for (uint32_t i = n - 1; i > 0; i--) {
		uint32_t j = (uint32_t)ordo_reduce(ordo_hash2(9, i), i + 1), t = id[i];
		id[i] = id[j], id[j] = t;
	}
	for (uint32_t i = 0; i + 1 < n; i++)
		s[i] = id[i], d[i] = id[i + 1];
	struct ordo_graph *g = from_arcs(n, s, d, NULL, n - 1, true);
	struct ordo_err e = {0};
	cr_assert_eq(ordo_graph_reorder(&g, ORDO_ORDER_RCM, 1, &e), 0, "%s", e.msg);
	cr_assert_eq(max_span(g), 1, "bandwidth %u after RCM", max_span(g));
	/* the peripheral search starts at an end of the path: its input id is id[0] or
	 * id[n-1], and it is numbered last (reversed) */
	uint32_t last = ordo_graph_orig_of(g, n - 1);
	cr_assert(last == id[0] || last == id[n - 1], "RCM did not start at an end (%u)", last);
	free(id), free(s), free(d);
	ordo_graph_free(g);
}

/* The order itself, not only its bandwidth: RCM numbers the Cuthill-McKee order
 * backwards. Hand-computed on 0-1, 1-2, 2-3, 1-4: the peripheral search from 0 reaches 3
 * (depth 3), and from 3 the farthest level {0, 4} is no deeper, so CM starts at 3 and
 * runs 3, 2, 1, then 1's new neighbours by (degree, id): 0, 4. Reversed: 3 gets n-1. */
Test(reorder, rcm_numbers_a_hand_computed_cuthill_mckee_order_backwards)
{
	const uint32_t s[] = {0, 1, 2, 1}, d[] = {1, 2, 3, 4};
	struct ordo_graph *g = from_arcs(5, s, d, NULL, 4, true);
	uint32_t rank[5];
	struct ordo_err e = {0};
	cr_assert_eq(ordo_graph_order(g, ORDO_ORDER_RCM, rank, &e), 0, "%s", e.msg);
	const uint32_t want[5] = {1, 2, 3, 4, 0};
	for (int u = 0; u < 5; u++)
		cr_assert_eq(rank[u], want[u], "node %d: rank %u, want %u (rank {%u %u %u %u %u})",
		             u, rank[u], want[u], rank[0], rank[1], rank[2], rank[3], rank[4]);
	ordo_graph_free(g);
}

/* On a connected symmetric graph, the nodes by descending RCM rank must be a
 * Cuthill-McKee order: a breadth-first order in which each node's parent (its neighbour
 * placed first) comes no later than the previous node's, and the children of one parent
 * come in order of (degree, id). That characterises CM exactly given its start. */
Test(reorder, rcm_reversed_is_a_breadth_first_order_by_degree)
{
	/* a random tree (node i hangs from a random earlier node) plus n/2 random edges:
	 * connected, with varied degrees */
	const uint32_t n = 600;
	uint32_t src[900], dst[900];
	for (uint32_t i = 1; i < n; i++)
		src[i - 1] = i, dst[i - 1] = (uint32_t)ordo_reduce(ordo_hash2(4, i), i);
	for (uint32_t k = 0; k < n / 2; k++)
		src[n - 1 + k] = (uint32_t)ordo_reduce(ordo_hash2(5, k), n),
		            dst[n - 1 + k] = (uint32_t)ordo_reduce(ordo_hash2(6, k), n);
	struct ordo_graph *g = from_arcs(n, src, dst, NULL, n - 1 + n / 2, true);
	uint32_t *rank = malloc(n * sizeof *rank), *cm = malloc(n * sizeof *cm);
	struct ordo_err e = {0};
	cr_assert_eq(ordo_graph_order(g, ORDO_ORDER_RCM, rank, &e), 0, "%s", e.msg);
	for (uint32_t u = 0; u < n; u++)
		cm[n - 1 - rank[u]] = u; /* cm position p = n-1-rank */
	uint32_t prev_parent = 0;
	for (uint32_t p = 1; p < n; p++) {
		uint32_t u = cm[p], v, w, parent = UINT32_MAX;
		for (struct ordo_arcs a = ordo_graph_arcs(g, u); ordo_arcs_next(&a, &v, &w);) {
			uint32_t q = n - 1 - rank[v];
			parent = q < parent ? q : parent;
		}
		cr_assert_lt(parent, p, "CM position %u: no neighbour placed before it", p);
		cr_assert_geq(parent, prev_parent, "CM position %u: parent %u after %u", p, parent,
		              prev_parent);
		if (parent == prev_parent && p > 1) { /* cm[p-1] is u's sibling */
			uint32_t t = cm[p - 1];
			uint64_t kt = ordo_graph_degree(g, t) << 32 | t,
			         ku = ordo_graph_degree(g, u) << 32 | u;
			cr_assert_lt(kt, ku, "CM positions %u, %u: siblings not by (degree, id)",
			             p - 1, p);
		}
		prev_parent = parent;
	}
	free(rank), free(cm);
	ordo_graph_free(g);
}

Test(reorder, rcm_follows_a_long_directed_chain)
{
	/* n-1 -> n-2 -> ... -> 0: from node 0 nothing is reached, and from node k only the
	 * nodes below; every part must still come out in chain order */
	const uint32_t n = 20000;
	uint32_t *s = malloc(n * sizeof *s), *d = malloc(n * sizeof *d);
	for (uint32_t i = 0; i + 1 < n; i++)
		s[i] = i + 1, d[i] = i;
	struct ordo_graph *g = from_arcs(n, s, d, NULL, n - 1, false);
	uint32_t *rank = malloc(n * sizeof *rank);
	for (int o = ORDO_ORDER_RCM; o <= ORDO_ORDER_BFS; o++) {
		struct ordo_graph *h = renumbered(g, o, rank);
		cr_assert_eq(max_span(h), 1, "%s: bandwidth %u", ordo_order_name(o), max_span(h));
		ordo_graph_free(h);
	}
	free(rank), free(s), free(d);
	ordo_graph_free(g);
}

Test(reorder, degree_order_puts_hubs_first)
{
	const uint32_t s[] = {3, 3, 3, 1, 1, 0, 2}, d[] = {0, 1, 2, 0, 2, 2, 3};
	struct ordo_graph *g = from_arcs(5, s, d, NULL, 7, false);
	struct ordo_err e = {0};
	cr_assert_eq(ordo_graph_reorder(&g, ORDO_ORDER_DEGREE, 1, &e), 0, "%s", e.msg);
	const uint32_t want[] = {3, 1, 0, 2, 4}; /* degrees 3, 2, 1, 1, 0; ties by id */
	for (uint32_t u = 0; u < 5; u++)
		cr_assert_eq(ordo_graph_orig_of(g, u), want[u], "position %u", u);
	ordo_graph_free(g);
}

Test(reorder, hilbert_needs_coordinates)
{
	const uint32_t s[] = {0}, d[] = {1};
	struct ordo_graph *g = from_arcs(2, s, d, NULL, 1, false);
	struct ordo_err e = {0};
	cr_assert_eq(ordo_graph_reorder(&g, ORDO_ORDER_HILBERT, 1, &e), ORDO_EINVAL);
	cr_assert(strstr(e.msg, "coordinates"), "%s", e.msg);
	cr_assert_null(g->orig_id, "a failed reorder changed the graph");
	ordo_graph_free(g);
}

Test(reorder, renumbering_twice_keeps_the_first_input_ids)
{
	struct ordo_graph *g = shuffled_grid(20, 15, 2);
	struct ordo_graph *h;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_graph_decompress(g, 1, &h, &e), 0); /* a plain copy */
	cr_assert_eq(ordo_graph_reorder(&h, ORDO_ORDER_HILBERT, 2, &e), 0, "%s", e.msg);
	cr_assert_eq(ordo_graph_reorder(&h, ORDO_ORDER_RCM, 2, &e), 0, "%s", e.msg);
	/* g's node x is h's node_of(x): same degree and same coordinates */
	for (uint32_t x = 0; x < g->n; x++) {
		uint32_t u = ordo_graph_node_of(h, x);
		cr_assert_eq(ordo_graph_orig_of(h, u), x);
		cr_assert_eq(ordo_graph_degree(h, u), ordo_graph_degree(g, x));
		double a, b, c, d;
		ordo_graph_coord(g, x, &a, &b);
		ordo_graph_coord(h, u, &c, &d);
		cr_assert(a == c && b == d, "node %u moved", x);
	}
	ordo_graph_free(h);
	ordo_graph_free(g);
}

Test(reorder, a_compressed_graph_reorders_as_its_plain_form)
{
	struct ordo_graph *g = shuffled_grid(30, 30, 7), *z, *p;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_graph_compress(g, 2, &z, &e), 0, "%s", e.msg);
	ordo_graph_free(g); /* its plain form, with the lists sorted as z has them */
	cr_assert_eq(ordo_graph_decompress(z, 2, &g, &e), 0, "%s", e.msg);
	cr_assert_eq(ordo_graph_reorder(&z, ORDO_ORDER_BFS, 2, &e), 0, "%s", e.msg);
	cr_assert(ordo_graph_compressed(z));
	cr_assert_eq(ordo_graph_reorder(&g, ORDO_ORDER_BFS, 2, &e), 0, "%s", e.msg);
	cr_assert_eq(ordo_graph_compress(g, 2, &p, &e), 0, "%s", e.msg);
	cr_assert(ordo_graph_equal(z, p), "compressed-then-reordered differs");
	ordo_graph_free(z), ordo_graph_free(p), ordo_graph_free(g);
}

Test(reorder, queries_are_drawn_in_input_ids)
{
	struct ordo_graph *g = shuffled_grid(25, 25, 3), *h;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_graph_decompress(g, 1, &h, &e), 0);
	cr_assert_eq(ordo_graph_reorder(&h, ORDO_ORDER_RCM, 1, &e), 0, "%s", e.msg);
	for (uint64_t k = 0; k < 20; k++) {
		cr_assert_eq(ordo_graph_orig_of(h, ordo_graph_pick_source(h, 11, k)),
		             ordo_graph_pick_source(g, 11, k), "source %llu",
		             (unsigned long long)k);
		uint32_t s0, t0, s1, t1;
		cr_assert_eq(ordo_graph_pick_pair(g, 11, k, &s0, &t0, &e), 0);
		cr_assert_eq(ordo_graph_pick_pair(h, 11, k, &s1, &t1, &e), 0);
		cr_assert_eq(ordo_graph_orig_of(h, s1), s0, "pair %llu source",
		             (unsigned long long)k);
		cr_assert_eq(ordo_graph_orig_of(h, t1), t0, "pair %llu target",
		             (unsigned long long)k);
		cr_assert_neq(s0, t0);
	}
	ordo_graph_free(h), ordo_graph_free(g);
}

static char *tmp_path(const char *name)
{
	static char buf[256];
	snprintf(buf, sizeof buf, "/tmp/ordo_test_reorder_%d_%s", (int)getpid(), name);
	return buf;
}

Test(reorder, native_files_keep_the_input_ids)
{
	struct ordo_graph *g = shuffled_grid(40, 10, 4), *back;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_graph_reorder(&g, ORDO_ORDER_HILBERT, 2, &e), 0, "%s", e.msg);
	for (int cz = 0; cz < 2; cz++) {
		if (cz)
			cr_assert_eq(ordo_graph_convert(&g, true, 2, &e), 0, "%s", e.msg);
		const char *path = tmp_path("ids.ordo");
		cr_assert_eq(ordo_save(path, ORDO_FMT_NATIVE, g, NULL, &e), 0, "%s", e.msg);
		cr_assert_eq(ordo_load(path, NULL, &back, NULL, &e), 0, "%s", e.msg);
		cr_assert(ordo_graph_equal(g, back), "round trip (compressed %d)", cz);
		cr_assert_not_null(back->new_id);
		ordo_graph_free(back);
		/* rebuilt on load (symmetrised), the ids stay with their nodes */
		struct ordo_load_opts lo;
		ordo_load_opts_init(&lo);
		lo.build.symmetrize = true;
		cr_assert_eq(ordo_load(path, &lo, &back, NULL, &e), 0, "%s", e.msg);
		cr_assert_eq(memcmp(back->orig_id, g->orig_id, g->n * sizeof *g->orig_id), 0);
		ordo_graph_free(back);
		unlink(path);
	}
	ordo_graph_free(g);
}

Test(reorder, a_native_file_whose_ids_repeat_is_refused)
{
	struct ordo_graph *g = shuffled_grid(8, 8, 1), *back;
	struct ordo_err e = {0};
	/* forge: every node claims input id 5 (written as is; the writer does not check) */
	g->orig_id = calloc(g->n, sizeof *g->orig_id);
	for (uint32_t u = 0; u < g->n; u++)
		g->orig_id[u] = u == 3 ? 5 : u;
	const char *path = tmp_path("forged.ordo");
	cr_assert_eq(ordo_save(path, ORDO_FMT_NATIVE, g, NULL, &e), 0, "%s", e.msg);
	cr_assert_eq(ordo_load(path, NULL, &back, NULL, &e), ORDO_EFORMAT);
	cr_assert_null(back);
	cr_assert(strstr(e.msg, "input ids") && strstr(e.msg, "another node's"), "%s", e.msg);
	g->orig_id[3] = UINT32_MAX; /* the value that means no id */
	cr_assert_eq(ordo_save(path, ORDO_FMT_NATIVE, g, NULL, &e), 0, "%s", e.msg);
	cr_assert_eq(ordo_load(path, NULL, &back, NULL, &e), ORDO_EFORMAT);
	cr_assert(strstr(e.msg, "no id"), "%s", e.msg);
	g->orig_id[3] = g->n; /* distinct but not 0..n-1: sparse input ids, kept */
	cr_assert_eq(ordo_save(path, ORDO_FMT_NATIVE, g, NULL, &e), 0, "%s", e.msg);
	cr_assert_eq(ordo_load(path, NULL, &back, NULL, &e), 0, "%s", e.msg);
	cr_assert(back->ids_sparse);
	cr_assert_eq(ordo_graph_orig_of(back, ordo_graph_node_of(back, g->n)), g->n);
	cr_assert(!ordo_graph_has_id(back, 3));
	ordo_graph_free(back);
	unlink(path);
	ordo_graph_free(g);
}

Test(reorder, coordinates_read_later_follow_the_input_ids)
{
	struct ordo_graph *g = shuffled_grid(12, 9, 8), *h;
	struct ordo_err e = {0};
	const char *co = tmp_path("later.co");
	cr_assert_eq(ordo_save(co, ORDO_FMT_CO, g, NULL, &e), 0, "%s", e.msg);
	cr_assert_eq(ordo_graph_decompress(g, 1, &h, &e), 0);
	cr_assert_eq(ordo_graph_reorder(&h, ORDO_ORDER_RCM, 1, &e), 0, "%s", e.msg);
	free(h->coord);
	h->coord = NULL;
	h->coord_kind = ORDO_COORD_NONE;
	cr_assert_eq(ordo_load_coords(co, h, 1, &e), 0, "%s", e.msg);
	for (uint32_t x = 0; x < g->n; x++) {
		double a, b, c, d;
		ordo_graph_coord(g, x, &a, &b);
		ordo_graph_coord(h, ordo_graph_node_of(h, x), &c, &d);
		cr_assert(a == c && b == d, "node %u", x);
	}
	unlink(co);
	ordo_graph_free(h), ordo_graph_free(g);
}
