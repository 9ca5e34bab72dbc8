/* Tests of graph/: the builder (options, determinism across thread counts) and the
 * generators (determinism, shape). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ordo_graph.h"
#include "ordo_rng.h"

static struct ordo_graph *build(const uint32_t (*arcs)[3], int n_arcs, bool weighted,
                                struct ordo_build_opts o, struct ordo_build_stats *st)
{
	struct ordo_edge_chain c;
	ordo_chain_init(&c, weighted);
	for (int i = 0; i < n_arcs; i++)
		cr_assert(ordo_chain_push(&c, arcs[i][0], arcs[i][1], arcs[i][2]));
	struct ordo_graph *g;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_graph_build(&c, &o, &g, st, &e), 0, "%s", e.msg);
	cr_assert_eq(ordo_graph_validate(g, &e), 0, "%s", e.msg);
	return g;
}

static void expect_adj(const struct ordo_graph *g, uint32_t u, const uint32_t *dst,
                       const uint32_t *w, int k)
{
	cr_assert_eq(ordo_graph_degree(g, u), (uint64_t)k, "degree of %u", u);
	for (int i = 0; i < k; i++) {
		uint64_t e = ordo_graph_begin(g, u) + (uint64_t)i;
		cr_assert_eq(ordo_graph_dst(g, e), dst[i], "node %u arc %d", u, i);
		if (w)
			cr_assert_eq(ordo_graph_weight(g, e), w[i], "node %u arc %d weight", u, i);
	}
}

Test(builder, keeps_input_order_and_removes_self_loops)
{
	const uint32_t a[][3] = {{2, 0, 7}, {0, 1, 3}, {1, 1, 9}, {0, 2, 5}, {2, 1, 1}};
	struct ordo_build_stats st;
	struct ordo_graph *g = build(a, 5, true, (struct ordo_build_opts){0}, &st);
	cr_assert_eq(g->n, 3);
	cr_assert_eq(g->m, 4);
	cr_assert_eq(st.self_loops_removed, 1);
	expect_adj(g, 0, (uint32_t[]){1, 2}, (uint32_t[]){3, 5}, 2);
	expect_adj(g, 1, NULL, NULL, 0);
	expect_adj(g, 2, (uint32_t[]){0, 1}, (uint32_t[]){7, 1}, 2);
	ordo_graph_free(g);
	g = build(a, 5, true, (struct ordo_build_opts){.keep_self_loops = true}, &st);
	cr_assert_eq(g->m, 5);
	cr_assert_eq(st.self_loops_removed, 0);
	expect_adj(g, 1, (uint32_t[]){1}, (uint32_t[]){9}, 1);
	ordo_graph_free(g);
}

Test(builder, symmetrize_and_dedup_keep_the_lightest)
{
	const uint32_t a[][3] = {{0, 1, 5}, {1, 0, 3}, {0, 1, 8}, {1, 2, 4}};
	struct ordo_build_stats st;
	struct ordo_graph *g =
	    build(a, 4, true, (struct ordo_build_opts){.symmetrize = true, .dedup = true}, &st);
	cr_assert_eq(g->m, 4);
	cr_assert_eq(st.reverse_arcs_added, 4);
	cr_assert_eq(st.duplicates_removed, 4);
	expect_adj(g, 0, (uint32_t[]){1}, (uint32_t[]){3}, 1);
	expect_adj(g, 1, (uint32_t[]){0, 2}, (uint32_t[]){3, 4}, 2);
	expect_adj(g, 2, (uint32_t[]){1}, (uint32_t[]){4}, 1);
	cr_assert(g->flags & ORDO_GRAPH_SYMMETRIC);
	ordo_graph_free(g);
}

Test(builder, explicit_n_and_out_of_range_ids)
{
	const uint32_t a[][3] = {{0, 1, 1}};
	struct ordo_graph *g = build(a, 1, false, (struct ordo_build_opts){.n = 10}, NULL);
	cr_assert_eq(g->n, 10);
	cr_assert_null(g->w);
	cr_assert_eq(ordo_graph_weight(g, 0), 1);
	ordo_graph_free(g);
	struct ordo_edge_chain c;
	ordo_chain_init(&c, false);
	ordo_chain_push(&c, 0, 5, 0);
	struct ordo_build_opts o = {.n = 3};
	struct ordo_err e = {0};
	cr_assert_eq(ordo_graph_build(&c, &o, &g, NULL, &e), ORDO_ERANGE);
	cr_assert(strstr(e.msg, "arc endpoint 5"), "%s", e.msg);
}

/* A random multigraph over several partitions: the CSR must not depend on the thread
 * count, with or without dedup/symmetrize/random weights. */
static struct ordo_graph *random_graph(int threads, struct ordo_build_opts o)
{
	struct ordo_edge_chain c;
	ordo_chain_init(&c, true);
	c.block_cap = 1000; /* many blocks */
	for (uint64_t i = 0; i < 300000; i++) {
		uint64_t r = ordo_hash2(7, i);
		ordo_chain_push(&c, (uint32_t)(r % 200000), (uint32_t)((r >> 20) % 200000),
		                (uint32_t)(r >> 50));
	}
	o.threads = threads;
	struct ordo_graph *g;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_graph_build(&c, &o, &g, NULL, &e), 0, "%s", e.msg);
	cr_assert_eq(ordo_graph_validate(g, &e), 0, "%s", e.msg);
	return g;
}

Test(builder, same_graph_for_any_thread_count)
{
	struct ordo_build_opts variants[] = {
	    {0},
	    {.symmetrize = true, .dedup = true},
	    {.random_weights = true, .wlo = 1, .whi = 255, .seed = 9},
	};
	for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
		struct ordo_graph *a = random_graph(1, variants[v]);
		struct ordo_graph *b = random_graph(2, variants[v]);
		struct ordo_graph *c = random_graph(3, variants[v]);
		cr_assert(ordo_graph_equal(a, b), "variant %zu: 1 vs 2 threads", v);
		cr_assert(ordo_graph_equal(a, c), "variant %zu: 1 vs 3 threads", v);
		if (variants[v].random_weights)
			for (uint64_t e = 0; e < a->m; e++)
				cr_assert(a->w[e] >= 1 && a->w[e] <= 255);
		if (variants[v].dedup)
			for (uint32_t u = 0; u < a->n; u++)
				for (uint64_t e = a->off[u] + 1; e < a->off[u + 1]; e++)
					cr_assert_lt(a->dst[e - 1], a->dst[e], "sorted, unique");
		ordo_graph_free(a);
		ordo_graph_free(b);
		ordo_graph_free(c);
	}
}

/* Packed blocks give back every arc, in order: ids 0 and 2^32-2 next to each other,
 * every weight width (0 .. UINT32_MAX), runs of one source longer and shorter than a
 * block, sources in any order (arc mode) and sorted (run mode), chains concatenated
 * (the unsealed tail of the first in the middle), weighted and not. */
Test(chain, packed_blocks_give_back_every_arc)
{
	const uint32_t far = UINT32_MAX - 1, W[] = {0, 1, 255, 256, 65535, 65536, UINT32_MAX};
	for (int weighted = 0; weighted < 2; weighted++) {
		enum { N = 20000 };
		static uint32_t s[N], d[N], w[N];
		for (uint32_t i = 0; i < N; i++) {
			uint64_t r = ordo_hash2(3, i);
			if (i < 5000) { /* sorted by source, runs of 1..40 */
				s[i] = i == 0 ? 0 : s[i - 1] + (r % 7 == 0);
				d[i] = (uint32_t)(r >> 8) % 4 == 0 ? far : (uint32_t)(r >> 32);
			} else if (i < 12000) { /* any order, extreme ids */
				s[i] = r % 3 == 0 ? far : r % 3 == 1 ? 0 : (uint32_t)(r >> 32);
				d[i] = (uint32_t)(r >> 16) % 2 ? 0 : far;
			} else { /* one long run: longer than a block */
				s[i] = 77;
				d[i] = (uint32_t)(r >> 32);
			}
			w[i] =
			    (uint32_t)(r >> 24) % 3 == 0 ? W[(r >> 40) % 7] : (uint32_t)(r % 300);
		}
		struct ordo_edge_chain a, b;
		ordo_chain_init(&a, weighted);
		ordo_chain_init(&b, weighted);
		a.pack = b.pack = true;
		a.block_cap = b.block_cap = 1237;
		for (uint32_t i = 0; i < N; i++)
			cr_assert(ordo_chain_push(i < 9000 ? &a : &b, s[i], d[i], w[i]));
		cr_assert(ordo_chain_seal(&b)); /* a's tail stays plain */
		ordo_chain_concat(&a, &b);
		cr_assert_eq(a.count, N);
		cr_assert_eq(a.max_id, far);
		struct ordo_unpack_buf ub = {0};
		struct ordo_block_view v;
		uint32_t i = 0, packed = 0, plain = 0;
		for (struct ordo_edge_block *blk = a.head; blk; blk = blk->next) {
			cr_assert(ordo_block_view(blk, &ub, &v));
			packed += !ordo_block_plain(blk);
			plain += ordo_block_plain(blk);
			cr_assert_eq(v.w != NULL, weighted);
			for (uint32_t k = 0; k < v.count; k++, i++) {
				cr_assert_eq(v.src[k], s[i], "arc %u source", i);
				cr_assert_eq(v.dst[k], d[i], "arc %u target", i);
				if (weighted)
					cr_assert_eq(v.w[k], w[i], "arc %u weight", i);
			}
		}
		cr_assert_eq(i, N);
		cr_assert_eq(plain, 1, "only the first chain's tail was not sealed");
		cr_assert_gt(packed, 10);
		/* pushing after a seal starts a new block */
		cr_assert(ordo_chain_push(&a, 1, 2, 3));
		cr_assert_eq(a.tail->count, 1);
		cr_assert_null(a.tail->packed);
		free(ub.a);
		ordo_chain_free(&a);
	}
}

/* A spilled chain: its blocks live in the file, are read back in order, and a push
 * after a seal starts a new plain block (the spilled tail is not packed again). */
Test(chain, spilled_blocks_read_back_and_take_pushes_after_a_seal)
{
	struct ordo_spill *sp;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_spill_open("/tmp", &sp, &e), 0, "%s", e.msg);
	struct ordo_edge_chain c;
	ordo_chain_init(&c, true);
	c.pack = true;
	c.spill = sp;
	c.block_cap = 1000;
	enum { N = 3500 };
	for (uint32_t i = 0; i < N; i++)
		cr_assert(ordo_chain_push(&c, i / 3, (uint32_t)ordo_hash2(5, i), i * 7));
	cr_assert(ordo_chain_seal(&c));
	cr_assert(ordo_chain_push(&c, 1, 2, 3));
	cr_assert(ordo_chain_seal(&c));
	cr_assert_gt(ordo_spill_bytes(sp), 0);
	struct ordo_unpack_buf ub = {0};
	struct ordo_block_view v;
	uint32_t i = 0, blocks = 0;
	for (struct ordo_edge_block *b = c.head; b; b = b->next, blocks++) {
		cr_assert_gt(b->spill_len, 0, "block %u was spilled", blocks);
		cr_assert(ordo_block_view(b, &ub, &v));
		for (uint32_t k = 0; k < v.count; k++, i++) {
			const bool last = i == N;
			cr_assert_eq(v.src[k], last ? 1 : i / 3, "arc %u", i);
			cr_assert_eq(v.dst[k], last ? 2 : (uint32_t)ordo_hash2(5, i), "arc %u", i);
			cr_assert_eq(v.w[k], last ? 3 : i * 7, "arc %u", i);
		}
	}
	cr_assert_eq(i, N + 1);
	cr_assert_eq(blocks, 5);
	cr_assert_eq(ordo_spill_describe(sp, &e), 0);
	free(ub.a);
	ordo_chain_free(&c);
	ordo_spill_close(sp);
}

static uint32_t reached(const struct ordo_graph *g, uint32_t s)
{
	uint32_t *q = malloc(g->n * sizeof *q), head = 0, tail = 0;
	char *seen = calloc(g->n, 1);
	q[tail++] = s;
	seen[s] = 1;
	while (head < tail) {
		uint32_t u = q[head++];
		for (uint64_t e = g->off[u]; e < g->off[u + 1]; e++)
			if (!seen[g->dst[e]]) {
				seen[g->dst[e]] = 1;
				q[tail++] = g->dst[e];
			}
	}
	free(q);
	free(seen);
	return tail;
}

static struct ordo_graph *gen(const char *spec, int threads)
{
	struct ordo_graph *g;
	struct ordo_err e = {0};
	char resolved[256];
	cr_assert_eq(ordo_generate(spec, threads, &g, resolved, sizeof resolved, &e), 0, "%s",
	             e.msg);
	cr_assert_eq(ordo_graph_validate(g, &e), 0, "%s: %s", spec, e.msg);
	return g;
}

Test(generators, road_is_deterministic_connected_and_road_like)
{
	struct ordo_graph *a = gen("road:W=300,H=200,seed=5", 1);
	struct ordo_graph *b = gen("road:W=300,H=200,seed=5", 2);
	struct ordo_graph *c = gen("road:W=300,H=200,seed=6", 2);
	cr_assert(ordo_graph_equal(a, b), "same seed, 1 vs 2 threads");
	cr_assert(!ordo_graph_equal(a, c), "other seed, other graph");
	cr_assert_eq(a->n, 60000);
	double avg = (double)a->m / a->n;
	cr_assert(avg > 2.5 && avg < 3.0, "average degree %.3f", avg);
	cr_assert_eq(reached(a, 0), a->n, "connected");
	cr_assert_eq(a->coord_kind, ORDO_COORD_INT32);
	/* both directions, same weight; weight >= Euclidean length (admissible h) */
	for (uint32_t u = 0; u < a->n; u++)
		for (uint64_t e = a->off[u]; e < a->off[u + 1]; e++) {
			uint32_t v = a->dst[e];
			bool back = false;
			for (uint64_t f = a->off[v]; f < a->off[v + 1]; f++)
				back |= a->dst[f] == u && a->w[f] == a->w[e];
			cr_assert(back, "reverse of %u->%u", u, v);
			double ux, uy, vx, vy;
			ordo_graph_coord(a, u, &ux, &uy);
			ordo_graph_coord(a, v, &vx, &vy);
			double d = sqrt((ux - vx) * (ux - vx) + (uy - vy) * (uy - vy));
			cr_assert_geq(a->w[e] + 1e-9, d, "weight below straight-line length");
			cr_assert_leq(a->w[e], 1.3 * d + 1.0);
		}
	ordo_graph_free(a);
	ordo_graph_free(b);
	ordo_graph_free(c);
}

Test(generators, rmat_and_grid_shapes)
{
	struct ordo_graph *a = gen("rmat:scale=12,ef=8,seed=3", 1);
	struct ordo_graph *b = gen("rmat:scale=12,ef=8,seed=3", 2);
	cr_assert(ordo_graph_equal(a, b));
	cr_assert_eq(a->n, 4096);
	cr_assert(a->m <= 2 * 8 * 4096 && a->m > 2 * 8 * 4096 * 9 / 10, "m = %llu",
	          (unsigned long long)a->m);
	for (uint64_t e = 0; e < a->m; e++)
		cr_assert(a->w[e] >= 1 && a->w[e] <= 255);
	ordo_graph_free(a);
	ordo_graph_free(b);
	struct ordo_graph *g = gen("grid:W=10,H=7,lo=5,hi=5", 2);
	cr_assert_eq(g->n, 70);
	cr_assert_eq(g->m, 2 * (9 * 7 + 10 * 6));
	cr_assert_eq(ordo_graph_degree(g, 11), 4);
	cr_assert_eq(ordo_graph_degree(g, 0), 2);
	for (uint64_t e = 0; e < g->m; e++)
		cr_assert_eq(g->w[e], 5);
	ordo_graph_free(g);
}

Test(generators, bad_specs_are_rejected)
{
	struct ordo_graph *g;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_generate("torus:W=3", 1, &g, NULL, 0, &e), ORDO_EINVAL);
	cr_assert(strstr(e.msg, "accepted: road, grid, rmat"), "%s", e.msg);
	struct ordo_graph *k = gen("kron:scale=6,ef=2", 1), *r = gen("rmat:scale=6,ef=2", 1);
	cr_assert(ordo_graph_equal(k, r), "kron is another name for rmat");
	ordo_graph_free(k);
	ordo_graph_free(r);
	cr_assert_eq(ordo_generate("road:W=0", 1, &g, NULL, 0, &e), ORDO_EINVAL);
	cr_assert_eq(ordo_generate("grid:lo=9,hi=3", 1, &g, NULL, 0, &e), ORDO_EINVAL);
}

Test(graph, weights_from_coords)
{
	struct ordo_graph *g = gen("grid:W=3,H=3", 1);
	for (uint32_t u = 0; u < g->n; u++) {
		int32_t *c = g->coord;
		c[2 * u] *= 3; /* cells of 3 x 4 */
		c[2 * u + 1] *= 4;
	}
	struct ordo_err e = {0};
	cr_assert_eq(ordo_graph_weights_from_coords(g, &e), 0, "%s", e.msg);
	for (uint32_t u = 0; u < g->n; u++)
		for (uint64_t k = g->off[u]; k < g->off[u + 1]; k++)
			cr_assert(g->w[k] == (g->dst[k] / 3 == u / 3 ? 3u : 4u));
	ordo_graph_free(g);
}

/* ---- ordo_graph_prepare: one fixed order, ownership, errors ---- */

/* every arc of g as (u << 32 | v) -> w, sorted, in input ids */
static uint64_t *arc_list(const struct ordo_graph *g, uint32_t **wout)
{
	uint64_t *k = malloc((g->m + 1) * sizeof *k);
	uint32_t *w = malloc((g->m + 1) * sizeof *w);
	uint64_t i = 0;
	uint32_t v, wt;
	for (uint32_t u = 0; u < g->n; u++)
		for (struct ordo_arcs a = ordo_graph_arcs(g, u); ordo_arcs_next(&a, &v, &wt); i++)
			k[i] = (uint64_t)ordo_graph_orig_of(g, u) << 32 | ordo_graph_orig_of(g, v);
	cr_assert_eq(i, g->m);
	/* sort keys, then read each weight back by key (unique arcs here) */
	for (uint64_t a = 1; a < i; a++)
		for (uint64_t b = a; b > 0 && k[b - 1] > k[b]; b--) {
			uint64_t t = k[b];
			k[b] = k[b - 1], k[b - 1] = t;
		}
	for (uint64_t a = 0; a < i; a++) {
		uint32_t u = ordo_graph_node_of(g, (uint32_t)(k[a] >> 32)), x;
		w[a] = UINT32_MAX;
		for (struct ordo_arcs r = ordo_graph_arcs(g, u); ordo_arcs_next(&r, &x, &wt);)
			if (ordo_graph_orig_of(g, x) == (uint32_t)k[a])
				w[a] = wt;
	}
	*wout = w;
	return k;
}

Test(prepare, every_step_in_order_on_a_borrowed_graph)
{
	struct ordo_graph *g;
	struct ordo_err e = {0};
	/* a directed, unweighted road-like graph with coordinates */
	cr_assert_eq(ordo_generate("road:W=12,H=9,seed=4", 1, &g, NULL, 0, &e), 0, "%s", e.msg);
	const uint64_t m0 = g->m;
	cr_assert(g->flags & ORDO_GRAPH_SYMMETRIC);
	g->flags &= ~(uint32_t)ORDO_GRAPH_SYMMETRIC; /* pretend: so symmetrize must run */
	const struct ordo_prep p = {.build = {.symmetrize = true, .dedup = true, .compress = true},
	                            .weights_from_coords = true,
	                            .reorder = ORDO_ORDER_RCM};
	struct ordo_graph *h = g;
	struct ordo_prep_info info;
	cr_assert_eq(ordo_graph_prepare(&h, &p, false, &info, &e), 0, "%s", e.msg);
	cr_assert_neq(h, g, "a borrowed graph is never changed in place");
	cr_assert_eq(g->m, m0);
	cr_assert_not(ordo_graph_compressed(g));
	cr_assert(info.rebuilt);
	cr_assert_eq(info.build.reverse_arcs_added, m0, "every arc's reverse added");
	cr_assert_eq(info.build.duplicates_removed, m0, "and merged with the arc already there");
	cr_assert(ordo_graph_compressed(h), "compressed, last");
	cr_assert(h->orig_id, "renumbered: the input ids are kept");
	cr_assert(strstr(info.notes, "weights = rounded Euclidean length"), "%s", info.notes);
	cr_assert(strstr(info.notes, "nodes renumbered in rcm order"), "%s", info.notes);
	cr_assert_eq(ordo_graph_validate(h, &e), 0, "%s", e.msg);
	/* the same arcs, in input ids, each weighing its length */
	uint32_t *w0, *w1;
	uint64_t *a0 = arc_list(g, &w0), *a1 = arc_list(h, &w1);
	cr_assert_eq(h->m, g->m);
	cr_assert_eq(memcmp(a0, a1, g->m * sizeof *a0), 0);
	for (uint64_t i = 0; i < g->m; i++) {
		double x0, y0, x1, y1;
		ordo_graph_coord(g, (uint32_t)(a0[i] >> 32), &x0, &y0);
		ordo_graph_coord(g, (uint32_t)a0[i], &x1, &y1);
		const double len = round(hypot(x1 - x0, y1 - y0));
		cr_assert_eq(w1[i], len < 1 ? 1u : (uint32_t)len, "arc %llu",
		             (unsigned long long)i);
	}
	free(a0), free(a1), free(w0), free(w1);
	ordo_graph_free(h);
	ordo_graph_free(g);
}

Test(prepare, nothing_asked_is_nothing_done)
{
	struct ordo_graph *g;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_generate("rmat:scale=8,ef=4,seed=2", 1, &g, NULL, 0, &e), 0, "%s", e.msg);
	struct ordo_graph *h = g;
	const struct ordo_prep p = {.build = {.symmetrize = true}}; /* rmat is symmetric */
	struct ordo_prep_info info;
	cr_assert_eq(ordo_graph_prepare(&h, &p, false, &info, &e), 0, "%s", e.msg);
	cr_assert_eq(h, g, "a symmetric graph is not rebuilt to symmetrise it");
	cr_assert_not(info.rebuilt);
	cr_assert_str_empty(info.notes);
	ordo_graph_free(g);
}

Test(prepare, errors_leave_a_borrowed_graph_and_free_an_owned_one)
{
	struct ordo_graph *g;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_generate("rmat:scale=8,ef=4,seed=2", 1, &g, NULL, 0, &e), 0, "%s", e.msg);
	/* random weights (a rebuild) succeed, then weights from coordinates fail: R-MAT has
	 * none */
	const struct ordo_prep p = {
	    .build = {.random_weights = true, .wlo = 1, .whi = 9, .seed = 3},
	    .weights_from_coords = true};
	struct ordo_graph *h = g;
	cr_assert_eq(ordo_graph_prepare(&h, &p, false, NULL, &e), ORDO_EINVAL);
	cr_assert(strstr(e.msg, "no coordinates"), "%s", e.msg);
	cr_assert_eq(h, g, "the caller's graph, unchanged");
	cr_assert_eq(ordo_graph_validate(g, &e), 0, "%s", e.msg);
	cr_assert_eq(ordo_graph_prepare(&h, &p, true, NULL, &e), ORDO_EINVAL);
	cr_assert_null(h, "owned: freed (a leak would show under ASan)");
}
