/* Tests of the compressed CSR (graph/compress.c): it holds exactly the plain graph's
 * arcs (sorted), the direct builder gives the same bytes as compressing a plain build,
 * random access is right at block boundaries and across wide blocks, the codec keeps
 * extreme ids and weights, and damaged data is a clean error, never a wild read. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../graph/cz_internal.h"
#include "ordo_graph.h"
#include "ordo_io.h"
#include "ordo_rng.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Node u's arcs through the iterator, as (target << 32 | weight). */
static uint64_t arcs_of(const struct ordo_graph *g, uint32_t u, uint64_t *out)
{
	uint64_t k = 0;
	uint32_t v, w;
	for (struct ordo_arcs a = ordo_graph_arcs(g, u); ordo_arcs_next(&a, &v, &w);)
		out[k++] = (uint64_t)v << 32 | w;
	return k;
}

/* c holds exactly p's arcs per node, in sorted order, with p's degrees and flags. */
static void expect_same_graph(const struct ordo_graph *p, const struct ordo_graph *c,
                              const char *what)
{
	cr_assert_eq(c->n, p->n, "%s: n", what);
	cr_assert_eq(c->m, p->m, "%s: m", what);
	cr_assert_eq(ordo_graph_weighted(c), ordo_graph_weighted(p), "%s: weighted", what);
	uint64_t maxd = 1;
	for (uint32_t u = 0; u < p->n; u++)
		maxd = ordo_graph_degree(p, u) > maxd ? ordo_graph_degree(p, u) : maxd;
	uint64_t *a = malloc(maxd * sizeof *a), *b = malloc(maxd * sizeof *b);
	for (uint32_t u = 0; u < p->n; u++) {
		uint64_t d = ordo_graph_degree(p, u);
		cr_assert_eq(ordo_graph_degree(c, u), d, "%s: degree of %u", what, u);
		cr_assert_eq(arcs_of(p, u, a), d);
		cr_assert_eq(arcs_of(c, u, b), d, "%s: arcs of %u", what, u);
		qsort(a, d, sizeof *a, cmp_u64);
		for (uint64_t i = 0; i < d; i++)
			cr_assert_eq(b[i], a[i], "%s: node %u arc %llu: %llx, expected %llx", what,
			             u, (unsigned long long)i, (unsigned long long)b[i],
			             (unsigned long long)a[i]);
	}
	free(a);
	free(b);
}

static struct ordo_graph *compress(const struct ordo_graph *p, int threads)
{
	struct ordo_graph *c;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_graph_compress(p, threads, &c, &e), 0, "%s", e.msg);
	cr_assert_eq(ordo_graph_validate(c, &e), 0, "%s", e.msg);
	return c;
}

static struct ordo_graph *generate(const char *spec)
{
	struct ordo_graph *g;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_generate(spec, 2, &g, NULL, 0, &e), 0, "%s: %s", spec, e.msg);
	return g;
}

Test(compressed, holds_the_plain_arcs_sorted)
{
	const char *specs[] = {"road:W=40,H=30,seed=3", "rmat:scale=12,ef=8,seed=5",
	                       "grid:W=17,H=9,lo=1,hi=1000,seed=2", "rmat:scale=9,ef=64,seed=1"};
	for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
		struct ordo_graph *p = generate(specs[i]), *c = compress(p, 1),
		                  *c3 = compress(p, 3);
		expect_same_graph(p, c, specs[i]);
		cr_assert(ordo_graph_equal(c, c3), "%s: 1 vs 3 threads", specs[i]);
		cr_assert_lt(ordo_graph_csr_bytes(c), ordo_graph_csr_bytes(p), "%s: smaller",
		             specs[i]);
		/* back to plain: the sorted lists */
		struct ordo_graph *d;
		struct ordo_err e = {0};
		cr_assert_eq(ordo_graph_decompress(c, 2, &d, &e), 0, "%s", e.msg);
		cr_assert_eq(ordo_graph_validate(d, &e), 0, "%s", e.msg);
		expect_same_graph(p, d, specs[i]);
		for (uint32_t u = 0; u < d->n; u++)
			for (uint64_t k = d->off[u] + 1; k < d->off[u + 1]; k++)
				cr_assert_leq(d->dst[k - 1], d->dst[k], "sorted lists");
		/* compressing the sorted copy gives the same bytes */
		struct ordo_graph *c2 = compress(d, 2);
		cr_assert(ordo_graph_equal(c, c2), "%s: recompressed", specs[i]);
		ordo_graph_free(c2);
		ordo_graph_free(d);
		ordo_graph_free(c);
		ordo_graph_free(c3);
		ordo_graph_free(p);
	}
}

static void push_all(struct ordo_edge_chain *ch, uint64_t seed, uint32_t n, uint64_t m)
{
	for (uint64_t k = 0; k < m; k++) {
		uint64_t h = ordo_hash2(seed, k);
		uint32_t s = (uint32_t)ordo_reduce(h, n),
		         d = (uint32_t)ordo_reduce(ordo_hash2(seed + 77, k), n);
		if (k % 7 == 0)
			d = s; /* self-loops */
		if (k % 5 == 0 && k)
			s = (uint32_t)ordo_reduce(ordo_hash2(seed, k - 1), n), d = s ^ 1; /* dups */
		if (k % 97 == 0)
			s = 5; /* a hub: wide blocks */
		uint32_t w = (uint32_t)(h >> 40) % 600;
		if (k % 13 == 0)
			w = k % 2 ? 0 : UINT32_MAX; /* extreme weights */
		cr_assert(ordo_chain_push(ch, s, d < n ? d : n - 1, w));
	}
}

/* The builder's compressed output, for every option that changes the arcs, is the
 * compression of its plain output (same bytes), for 1 and 3 threads; the input of the
 * compressed build is a packed stream (as text readers make for --compress), in blocks
 * that end in the middle of runs, and the plain build reads a packed one every other
 * time. */
Test(compressed, builder_direct_equals_compressing_the_plain_build)
{
	const struct ordo_build_opts variants[] = {
	    {0},
	    {.keep_self_loops = true},
	    {.symmetrize = true},
	    {.dedup = true},
	    {.symmetrize = true, .dedup = true, .keep_self_loops = true},
	    {.random_weights = true, .wlo = 1, .whi = 255, .seed = 9},
	    {.n = 5000},
	};
	const uint32_t n = 3000;
	for (size_t v = 0; v < sizeof variants / sizeof *variants; v++)
		for (int weighted = 0; weighted < 2; weighted++)
			for (int threads = 1; threads <= 3; threads += 2) {
				struct ordo_edge_chain a, b;
				ordo_chain_init(&a, weighted);
				ordo_chain_init(&b, weighted);
				b.pack = true;
				b.block_cap = 999;
				a.pack = threads == 3;
				/* every other time, b's blocks and the partitions' go to a file */
				struct ordo_spill *spill = NULL;
				struct ordo_err se = {0};
				if (v % 2)
					cr_assert_eq(ordo_spill_open("/tmp", &spill, &se), 0, "%s",
					             se.msg);
				b.spill = spill;
				push_all(&a, v + 1, n, 40000);
				push_all(&b, v + 1, n, 40000);
				cr_assert(ordo_chain_seal(&a) && ordo_chain_seal(&b));
				cr_assert(!ordo_block_plain(b.head) && !ordo_block_plain(b.tail));
				cr_assert_eq(b.head->spill_len > 0, spill != NULL);
				struct ordo_build_opts o = variants[v];
				o.threads = threads;
				struct ordo_graph *p, *c, *cp;
				struct ordo_build_stats sp, sc;
				struct ordo_err e = {0};
				cr_assert_eq(ordo_graph_build(&a, &o, &p, &sp, &e), 0, "%s", e.msg);
				o.compress = true;
				o.spill = spill;
				cr_assert_eq(ordo_graph_build(&b, &o, &c, &sc, &e), 0, "%s", e.msg);
				cr_assert(!spill || ordo_spill_bytes(spill) > 40000,
				          "arcs were spilled");
				cr_assert_eq(ordo_spill_describe(spill, &se), 0);
				ordo_spill_close(spill);
				cr_assert(ordo_graph_compressed(c));
				cr_assert_eq(ordo_graph_validate(c, &e), 0, "%s", e.msg);
				cr_assert(!memcmp(&sp, &sc, sizeof sp), "variant %zu: stats", v);
				cp = compress(p, threads);
				cr_assert(ordo_graph_equal(c, cp),
				          "variant %zu weighted %d threads %d", v, weighted,
				          threads);
				expect_same_graph(p, c, "direct build");
				cr_assert(c->cz_nwide > 0,
				          "variant %zu: the hub makes a wide block (%llu bytes)", v,
				          (unsigned long long)c->cz_bytes);
				cr_assert_eq(c->flags, p->flags);
				ordo_graph_free(p);
				ordo_graph_free(c);
				ordo_graph_free(cp);
			}
}

/* A generator asked for a compressed graph gives exactly the plain one compressed (R-MAT
 * through packed arcs and the compressed builder, the lattices converted after). */
Test(compressed, generated_compressed_equals_the_plain_one_compressed)
{
	const char *specs[] = {"rmat:scale=12,ef=8", "rmat:scale=11,ef=4,sym=0,dedup=1",
	                       "road:W=40,H=30", "grid:W=20,H=10"};
	for (size_t i = 0; i < sizeof specs / sizeof *specs; i++)
		for (int threads = 1; threads <= 3; threads += 2) {
			struct ordo_graph *p, *c;
			struct ordo_err e = {0};
			cr_assert_eq(ordo_generate(specs[i], threads, &p, NULL, 0, &e), 0, "%s",
			             e.msg);
			cr_assert_eq(
			    ordo_generate_as(specs[i], threads, true, NULL, &c, NULL, 0, &e), 0,
			    "%s", e.msg);
			cr_assert(ordo_graph_compressed(c), "%s", specs[i]);
			cr_assert_eq(ordo_graph_validate(c, &e), 0, "%s", e.msg);
			struct ordo_graph *cp = compress(p, threads);
			cr_assert(ordo_graph_equal(c, cp), "%s, %d threads", specs[i], threads);
			cr_assert_eq(c->flags, p->flags, "%s", specs[i]);
			ordo_graph_free(p);
			ordo_graph_free(c);
			ordo_graph_free(cp);
		}
}

/* Degrees 0..40 in a pattern that puts node starts on both sides of every 16-node
 * block boundary, narrow and wide blocks next to each other, and empty blocks. */
Test(compressed, random_access_at_block_boundaries)
{
	struct ordo_edge_chain ch;
	ordo_chain_init(&ch, true);
	const uint32_t n = 16 * 40 + 3;
	for (uint32_t u = 0; u < n; u++) {
		uint32_t d = (u / 16) % 5 == 2 ? 0 : (u * 7 + u / 16) % 41;
		if (u / 16 == 7)
			d = 200; /* a whole block of big nodes: wide */
		for (uint32_t i = 0; i < d; i++)
			cr_assert(ordo_chain_push(&ch, u, (u * 31 + i * 17) % n, u + i));
	}
	struct ordo_build_opts o = {.keep_self_loops = true, .n = n};
	struct ordo_graph *p, *c;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_graph_build(&ch, &o, &p, NULL, &e), 0, "%s", e.msg);
	c = compress(p, 2);
	cr_assert_gt(c->cz_nwide, 0);
	/* visit in a scattered order: each node is found from its own block entry */
	uint64_t *a = malloc(256 * sizeof *a), *b = malloc(256 * sizeof *b);
	for (uint32_t k = 0; k < n; k++) {
		uint32_t u = (uint32_t)(((uint64_t)k * 389) % n);
		uint64_t d = arcs_of(p, u, a);
		qsort(a, d, sizeof *a, cmp_u64);
		cr_assert_eq(ordo_graph_degree(c, u), d, "degree of %u", u);
		cr_assert_eq(arcs_of(c, u, b), d);
		cr_assert(!memcmp(a, b, d * sizeof *a), "arcs of %u", u);
	}
	free(a);
	free(b);
	ordo_graph_free(p);
	ordo_graph_free(c);
}

/* Decodes node u's code in buf with ordo_arcs_next and with ordo_arcs_batch and
 * compares both with arcs[]; the iterator must stop exactly at the code's end. */
static void expect_decodes(const uint8_t *buf, uint64_t len, uint32_t u, const uint64_t *arcs,
                           uint64_t d, bool srcrel, uint32_t flags, const char *what)
{
	struct ordo_arcs a = ordo_cz_arcs_at(buf, false, u, srcrel, flags, 0);
	uint32_t v, w;
	uint64_t k = 0;
	while (ordo_arcs_next(&a, &v, &w)) {
		cr_assert_lt(k, d, "%s: too many arcs", what);
		cr_assert_eq(v, (uint32_t)(arcs[k] >> 32), "%s: arc %llu target", what,
		             (unsigned long long)k);
		cr_assert_eq(w, (uint32_t)arcs[k], "%s: arc %llu weight", what,
		             (unsigned long long)k);
		k++;
	}
	cr_assert_eq(k, d, "%s: arcs", what);
	cr_assert_eq(a.p, buf + len, "%s: read exactly its bytes", what);
	a = ordo_cz_arcs_at(buf, false, u, srcrel, flags, 0);
	uint32_t vb[ORDO_ARCS_BATCH], wb[ORDO_ARCS_BATCH];
	const uint32_t *vp, *wp;
	k = 0;
	for (unsigned got; (got = ordo_arcs_batch(&a, vb, wb, &vp, &wp));)
		for (unsigned i = 0; i < got; i++, k++) {
			cr_assert_lt(k, d, "%s: batch: too many arcs", what);
			cr_assert_eq(vp[i], (uint32_t)(arcs[k] >> 32), "%s: batch arc %llu", what,
			             (unsigned long long)k);
			cr_assert_eq(wp[i], (uint32_t)arcs[k], "%s: batch weight %llu", what,
			             (unsigned long long)k);
		}
	cr_assert_eq(k, d, "%s: batch arcs", what);
	a = ordo_cz_arcs_at(buf, false, u, srcrel, flags, 0);
	k = 0;
	for (unsigned got; (got = ordo_arcs_targets_batch(&a, vb, &vp));)
		for (unsigned i = 0; i < got; i++, k++) {
			cr_assert_lt(k, d, "%s: targets: too many arcs", what);
			cr_assert_eq(vp[i], (uint32_t)(arcs[k] >> 32), "%s: targets arc %llu", what,
			             (unsigned long long)k);
		}
	cr_assert_eq(k, d, "%s: targets arcs", what);
}

/* The codec alone, at ids and weights a graph this small cannot hold: node 0 pointing
 * to node 2^32-2 and back, gaps of 2^32-2, weights 0 and 2^32-1, in both varint codes
 * and in groups (long lists, whose group lengths 1-4 bytes all occur). */
Test(compressed, codec_keeps_extreme_ids_and_weights)
{
	const uint32_t top = 0xFFFFFFFEu;
	const struct {
		uint32_t u;
		uint64_t arcs[6];
		uint64_t d;
	} cases[] = {
	    {0, {(uint64_t)top << 32 | 7}, 1},
	    {top, {0 | 0xFFFFFFFFull}, 1},
	    {0, {0, (uint64_t)top << 32, (uint64_t)top << 32 | 0xFFFFFFFFull}, 3},
	    {top,
	     {0, 1ull << 32, (uint64_t)top << 32, (uint64_t)top << 32 | 5,
	      (uint64_t)top << 32 | 0xFFFFFFFFull},
	     5},
	    {12345,
	     {12345ull << 32, 12345ull << 32, 12345ull << 32 | 254, 12346ull << 32 | 255},
	     4},
	};
	uint8_t buf[1024];
	char what[64];
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
		for (int srcrel = 0; srcrel < 2; srcrel++) {
			memset(buf, 0, sizeof buf);
			uint64_t len = ordo_cz_node_code(buf, cases[i].u, cases[i].arcs, cases[i].d,
			                                 srcrel, ORDO_CZ_WEIGHTED, 0);
			cr_assert_eq(len,
			             ordo_cz_node_code(NULL, cases[i].u, cases[i].arcs, cases[i].d,
			                               srcrel, ORDO_CZ_WEIGHTED, 0));
			snprintf(what, sizeof what, "case %zu srcrel %d", i, srcrel);
			expect_decodes(buf, len, cases[i].u, cases[i].arcs, cases[i].d, srcrel,
			               ORDO_CZ_WEIGHTED, what);
		}
	/* grouped lists: 8..70 arcs (partial last groups, more than one batch), gaps of
	 * every byte length up to 2^32-2, weights 0..2^32-1 (and below 256 for W8) */
	uint64_t arcs[70];
	for (uint64_t d = ORDO_CZ_GROUP_MIN; d <= 70; d += 7)
		for (int w8 = 0; w8 < 2; w8++)
			for (int weighted = 0; weighted < 2; weighted++) {
				const uint32_t flags =
				    weighted ? ORDO_CZ_WEIGHTED | (w8 ? ORDO_CZ_W8 : 0) : 0;
				const uint32_t gaps[] = {0, 1, 255, 256, 65535, 65536, 1u << 24, 3};
				uint32_t v = 0;
				for (uint64_t k = 0; k < d; k++) {
					v += k ? gaps[k % 8] : 0;
					if (k == d - 1 && d == 64)
						v = top; /* a gap of nearly 2^32 */
					uint32_t wt = (uint32_t)ordo_hash2(d, k);
					wt = !weighted ? 1
					     : w8      ? wt % 256
					     : k % 3   ? wt
					               : UINT32_MAX;
					arcs[k] = (uint64_t)v << 32 | wt;
				}
				memset(buf, 0, sizeof buf);
				uint64_t len = ordo_cz_node_code(buf, 7, arcs, d, false, flags, 0);
				cr_assert_lt(len, sizeof buf - ORDO_CZ_PAD);
				cr_assert_eq(len,
				             ordo_cz_node_code(NULL, 7, arcs, d, false, flags, 0));
				snprintf(what, sizeof what, "grouped d=%llu flags %u",
				         (unsigned long long)d, flags);
				expect_decodes(buf, len, 7, arcs, d, false, flags, what);
			}
}

/* A real, if smaller, version of the same through the whole graph: arcs between the
 * first and the last of 2^21 nodes, multigraph duplicates and self-loops kept. */
Test(compressed, long_gaps_duplicates_and_self_loops_round_trip)
{
	const uint32_t n = 1u << 21;
	const uint32_t a[][3] = {{0, n - 1, 0},  {n - 1, 0, UINT32_MAX}, {0, n - 1, 3},
	                         {0, 0, 9},      {n - 1, n - 1, 1},      {0, n - 1, 3},
	                         {n / 2, 0, 77}, {n / 2, n - 1, 78},     {n / 2, n / 2, 79}};
	struct ordo_edge_chain ch;
	ordo_chain_init(&ch, true);
	for (size_t i = 0; i < sizeof a / sizeof *a; i++)
		cr_assert(ordo_chain_push(&ch, a[i][0], a[i][1], a[i][2]));
	struct ordo_build_opts o = {.keep_self_loops = true, .compress = true};
	struct ordo_graph *c;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_graph_build(&ch, &o, &c, NULL, &e), 0, "%s", e.msg);
	cr_assert_eq(ordo_graph_validate(c, &e), 0, "%s", e.msg);
	cr_assert_eq(c->m, 9);
	uint64_t got[8];
	cr_assert_eq(arcs_of(c, 0, got), 4);
	const uint64_t want0[] = {0ull << 32 | 9, (uint64_t)(n - 1) << 32 | 0,
	                          (uint64_t)(n - 1) << 32 | 3, (uint64_t)(n - 1) << 32 | 3};
	cr_assert(!memcmp(got, want0, sizeof want0), "node 0: sorted, duplicates kept");
	cr_assert_eq(arcs_of(c, n - 1, got), 2);
	cr_assert_eq(got[0], 0ull << 32 | UINT32_MAX);
	cr_assert_eq(got[1], (uint64_t)(n - 1) << 32 | 1);
	cr_assert_eq(ordo_graph_degree(c, n / 2), 3);
	cr_assert_eq(ordo_graph_degree(c, 1), 0);
	ordo_graph_free(c);
}

/* Damaged node data is refused by the check with the node named, before any decoding;
 * a damaged file is refused by its checksum. */
Test(compressed, damage_is_a_clean_error)
{
	struct ordo_graph *p = generate("rmat:scale=10,ef=8,seed=4"), *c = compress(p, 1);
	struct ordo_err e = {0};
	const uint64_t at = c->cz_bytes / 3;
	const uint8_t keep = c->cz[at];
	/* single bytes: whatever the check lets through is a graph of valid ids that
	 * decodes inside its buffer (run under ASan in CI); what it refuses is named */
	const uint8_t bad[] = {0xFF, 0x80, 0x00, (uint8_t)(keep ^ 0x40)};
	for (size_t i = 0; i < sizeof bad; i++) {
		c->cz[at] = bad[i];
		if (ordo_graph_validate(c, &e)) {
			cr_assert_eq(e.code, ORDO_EFORMAT);
			cr_assert(strstr(e.msg, "node"), "names the node: %s", e.msg);
		} else {
			uint64_t *tmp = malloc(c->m * sizeof *tmp);
			for (uint32_t u = 0; u < c->n; u++)
				for (uint64_t k = 0, d = arcs_of(c, u, tmp); k < d; k++)
					cr_assert_lt(tmp[k] >> 32, c->n);
			free(tmp);
		}
	}
	/* six bytes with the continuation bit: wherever they start (a weight byte may
	 * take the first), a varint of more than 5 bytes or a cut-short node follows */
	memset(c->cz + at, 0x80, 6);
	cr_assert_neq(ordo_graph_validate(c, &e), 0, "six continuation bytes pass");
	cr_assert_eq(e.code, ORDO_EFORMAT);
	ordo_graph_free(c);
	c = compress(p, 1);
	/* a byte flipped in the file: the frame checksum */
	char path[] = "/tmp/ordo_cz_XXXXXX.ordo";
	int fd = mkstemps(path, 5);
	cr_assert_geq(fd, 0);
	close(fd);
	cr_assert_eq(ordo_save(path, ORDO_FMT_NATIVE, c, NULL, &e), 0, "%s", e.msg);
	struct ordo_load_opts lo;
	ordo_load_opts_init(&lo);
	struct ordo_graph *r;
	cr_assert_eq(ordo_load(path, &lo, &r, NULL, &e), 0, "%s", e.msg);
	cr_assert(ordo_graph_compressed(r), "loads compressed, without --compress");
	cr_assert(ordo_graph_equal(r, c), "round trip");
	ordo_graph_free(r);
	FILE *f = fopen(path, "r+b");
	fseek(f, 0, SEEK_END);
	long size = ftell(f);
	fseek(f, size - 100, SEEK_SET);
	int ch = fgetc(f);
	fseek(f, size - 100, SEEK_SET);
	fputc(ch ^ 0x10, f);
	fclose(f);
	cr_assert_neq(ordo_load(path, &lo, &r, NULL, &e), 0, "a flipped byte loads");
	cr_assert(e.code == ORDO_ECHECKSUM || e.code == ORDO_EFORMAT, "%s", e.msg);
	cr_assert(strstr(e.msg, path), "names the file: %s", e.msg);
	unlink(path);
	ordo_graph_free(c);
	ordo_graph_free(p);
}

/* Native files: plain -> compressed on load (--compress), compressed -> plain on save
 * to a text format, coordinates kept. */
Test(compressed, native_and_text_round_trips)
{
	struct ordo_graph *p = generate("road:W=20,H=10,seed=1");
	char dir[] = "/tmp/ordo_czdir_XXXXXX";
	cr_assert(mkdtemp(dir));
	char plain[256], cz[256], text[256];
	snprintf(plain, sizeof plain, "%s/p.ordo", dir);
	snprintf(cz, sizeof cz, "%s/c.ordo", dir);
	snprintf(text, sizeof text, "%s/t.gr", dir);
	struct ordo_err e = {0};
	cr_assert_eq(ordo_save(plain, ORDO_FMT_NATIVE, p, NULL, &e), 0, "%s", e.msg);
	struct ordo_load_opts lo;
	ordo_load_opts_init(&lo);
	lo.build.compress = true;
	struct ordo_graph *c, *t;
	cr_assert_eq(ordo_load(plain, &lo, &c, NULL, &e), 0, "%s", e.msg);
	cr_assert(ordo_graph_compressed(c));
	cr_assert_eq(c->coord_kind, p->coord_kind, "coordinates kept");
	expect_same_graph(p, c, "loaded with compress");
	cr_assert_eq(ordo_save(cz, ORDO_FMT_NATIVE, c, NULL, &e), 0, "%s", e.msg);
	cr_assert_eq(ordo_save(text, ORDO_FMT_DIMACS, c, NULL, &e), 0, "%s", e.msg);
	ordo_load_opts_init(&lo);
	lo.no_sibling_coords = true;
	cr_assert_eq(ordo_load(text, &lo, &t, NULL, &e), 0, "%s", e.msg);
	cr_assert(!ordo_graph_compressed(t));
	expect_same_graph(p, t, "written as DIMACS from compressed");
	/* loading a text file with compress builds it directly; same bytes */
	struct ordo_graph *tc;
	lo.build.compress = true;
	cr_assert_eq(ordo_load(text, &lo, &tc, NULL, &e), 0, "%s", e.msg);
	free(c->coord); /* the text graph has none */
	c->coord = NULL;
	c->coord_kind = ORDO_COORD_NONE;
	cr_assert(ordo_graph_equal(tc, c), "built directly from text: the same bytes");
	ordo_graph_free(tc);
	/* the same with the arcs spilled to a file in dir (deleted at once: dir stays
	 * empty, so the rmdir below fails otherwise) */
	lo.spill_dir = dir;
	struct ordo_load_info info;
	cr_assert_eq(ordo_load(text, &lo, &tc, &info, &e), 0, "%s", e.msg);
	cr_assert(ordo_graph_equal(tc, c), "built from text through a spill file");
	cr_assert(strstr(info.notes, "spilled to"), "%s", info.notes);
	ordo_graph_free(tc);
	/* spilling is for compressed builds; a directory that cannot take a file is a
	 * clean error */
	lo.build.compress = false;
	cr_assert_eq(ordo_load(text, &lo, &tc, NULL, &e), ORDO_EINVAL);
	cr_assert(strstr(e.msg, "add --compress"), "%s", e.msg);
	lo.build.compress = true;
	lo.spill_dir = "/nonexistent/ordo";
	cr_assert_eq(ordo_load(text, &lo, &tc, NULL, &e), ORDO_EIO);
	cr_assert(strstr(e.msg, "/nonexistent/ordo: cannot create a spill file"), "%s", e.msg);
	cr_assert_null(tc);
	lo.spill_dir = NULL;
	ordo_graph_free(t);
	ordo_graph_free(c);
	ordo_graph_free(p);
	unlink(plain), unlink(cz), unlink(text);
	char co[300];
	snprintf(co, sizeof co, "%s/t.co", dir);
	unlink(co);
	cr_assert_eq(rmdir(dir), 0, "%s: not empty (a spill file left?)", dir);
}
