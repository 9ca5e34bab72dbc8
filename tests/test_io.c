/* Tests of io/: every reader on fixtures with a known CSR, detection, coordinates,
 * round trips through every writer and the native format, and the catalogue of
 * malformed inputs (tests/malformed/EXPECT) plus corrupted binary files. */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ordo_io.h"

#define FIX ORDO_TEST_DIR "/fixtures/"
#define BAD ORDO_TEST_DIR "/malformed/"

static char tmpdir[256];

static void mk_tmp(void)
{
	snprintf(tmpdir, sizeof tmpdir, "/tmp/ordo_test_io.XXXXXX");
	cr_assert_not_null(mkdtemp(tmpdir));
}
static void rm_tmp(void)
{
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	cr_assert_eq(system(cmd), 0);
}
static const char *tmp(const char *name)
{
	static char buf[4][512];
	static int k;
	k = (k + 1) % 4;
	snprintf(buf[k], sizeof buf[k], "%s/%s", tmpdir, name);
	return buf[k];
}

static struct ordo_graph *load_opts(const char *path, struct ordo_load_opts *o, int *fmt)
{
	struct ordo_graph *g = NULL;
	struct ordo_err e = {0};
	struct ordo_load_info info;
	cr_assert_eq(ordo_load(path, o, &g, &info, &e), 0, "%s: %s", path, e.msg);
	cr_assert_eq(ordo_graph_validate(g, &e), 0, "%s", e.msg);
	if (fmt)
		*fmt = info.format;
	return g;
}

/* The graph alone: a DIMACS fixture's sibling .co is not read (tests of coordinates
 * ask for them) */
static struct ordo_graph *load(const char *path, int *fmt)
{
	struct ordo_load_opts o;
	ordo_load_opts_init(&o);
	o.no_sibling_coords = true;
	return load_opts(path, &o, fmt);
}

/* tiny.gr: 0->1 w3, 0->2 w5 | 1->2 w1, 1->4 w9 | 2->3 w7 | 3->4 w2 | 4->0 w4 */
static void expect_tiny(const struct ordo_graph *g, const char *what)
{
	const uint64_t off[] = {0, 2, 4, 5, 6, 7};
	const uint32_t dst[] = {1, 2, 2, 4, 3, 4, 0}, w[] = {3, 5, 1, 9, 7, 2, 4};
	cr_assert_eq(g->n, 5, "%s", what);
	cr_assert_eq(g->m, 7, "%s", what);
	cr_assert_not_null(g->w, "%s", what);
	cr_assert_arr_eq(g->off, off, sizeof off, "%s: offsets", what);
	cr_assert_arr_eq(g->dst, dst, sizeof dst, "%s: destinations", what);
	cr_assert_arr_eq(g->w, w, sizeof w, "%s: weights", what);
}

Test(readers, tiny_in_every_format)
{
	struct {
		const char *file;
		int fmt;
	} cases[] = {
	    {"tiny.gr", ORDO_FMT_DIMACS},           {"tiny_crlf.gr", ORDO_FMT_DIMACS},
	    {"tiny.gr.zst", ORDO_FMT_DIMACS},       {"tiny.txt", ORDO_FMT_EDGELIST},
	    {"tiny_txt_no_ext", ORDO_FMT_EDGELIST}, {"tiny.mtx", ORDO_FMT_MTX},
	    {"tiny.ggr", ORDO_FMT_GALOIS},          {"tiny.adj", ORDO_FMT_LIGRA},
	    {"tiny.wsg", ORDO_FMT_GAPBS},       /* written by GAPBS's converter */
	    {"tiny_map.ordo", ORDO_FMT_NATIVE}, /* mappable (version 3), frozen */
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char path[512];
		snprintf(path, sizeof path, FIX "%s", cases[i].file);
		int fmt;
		struct ordo_graph *g = load(path, &fmt);
		cr_assert_eq(fmt, cases[i].fmt, "%s detected as %s", cases[i].file,
		             ordo_format_name(fmt));
		expect_tiny(g, cases[i].file);
		ordo_graph_free(g);
	}
}

Test(readers, dimacs_coordinates)
{
	struct ordo_load_opts o;
	ordo_load_opts_init(&o);
	o.coords = FIX "tiny.co";
	struct ordo_graph *g = load_opts(FIX "tiny.gr", &o, NULL);
	cr_assert_eq(g->coord_kind, ORDO_COORD_INT32);
	const int32_t xy[] = {0, 0, 3, 4, -6, 8, 10, 0, 0, -1};
	cr_assert_arr_eq(g->coord, xy, sizeof xy);
	ordo_graph_free(g);
	o.weights_from_coords = true;
	g = load_opts(FIX "tiny.gr", &o, NULL);
	/* 0->1: |(3,4)| = 5, 0->2: |(-6,8)| = 10, 1->2: |(-9,4)| = 9.85 -> 10 */
	cr_assert_eq(g->w[0], 5);
	cr_assert_eq(g->w[1], 10);
	cr_assert_eq(g->w[2], 10);
	ordo_graph_free(g);
}

Test(readers, metis_adjacency_weights_and_xyz)
{
	struct ordo_load_opts o;
	ordo_load_opts_init(&o);
	o.coords = FIX "undirected.xyz";
	int fmt;
	struct ordo_graph *g = load_opts(FIX "undirected.graph", &o, &fmt);
	cr_assert_eq(fmt, ORDO_FMT_METIS);
	const uint64_t off[] = {0, 2, 4, 7, 8};
	const uint32_t dst[] = {1, 2, 0, 2, 0, 1, 3, 2}, w[] = {5, 2, 5, 7, 2, 7, 1, 1};
	cr_assert_eq(g->n, 4);
	cr_assert_arr_eq(g->off, off, sizeof off);
	cr_assert_arr_eq(g->dst, dst, sizeof dst);
	cr_assert_arr_eq(g->w, w, sizeof w);
	cr_assert_eq(g->coord_kind, ORDO_COORD_DOUBLE);
	const double xy[] = {0, 0, 3.5, 4, -1, 2.25, 7, 7};
	cr_assert_arr_eq(g->coord, xy, sizeof xy);
	ordo_graph_free(g);
	const char *iso[] = {FIX "isolated.graph", FIX "blankiso.graph"};
	for (int i = 0; i < 2; i++) {
		g = load(iso[i], &fmt);
		cr_assert_eq(fmt, ORDO_FMT_METIS, "%s", iso[i]);
		cr_assert_eq(g->n, 3, "%s", iso[i]);
		cr_assert_eq(g->m, 2, "%s", iso[i]);
		cr_assert_null(g->w);
		cr_assert_eq(ordo_graph_degree(g, 2), 0, "%s: node 3 isolated", iso[i]);
		ordo_graph_free(g);
	}
}

Test(readers, matrix_market_symmetric_and_real)
{
	struct ordo_graph *g = load(FIX "sym.mtx", NULL);
	const uint64_t off[] = {0, 1, 3, 4};
	const uint32_t dst[] = {1, 0, 2, 1};
	cr_assert_eq(g->n, 3);
	cr_assert_arr_eq(g->off, off, sizeof off);
	cr_assert_arr_eq(g->dst, dst, sizeof dst);
	cr_assert_null(g->w);
	ordo_graph_free(g);
	struct ordo_load_opts o;
	ordo_load_opts_init(&o);
	o.mtx_real = ORDO_MTX_REAL_ROUND;
	g = load_opts(FIX "real.mtx", &o, NULL);
	cr_assert_eq(g->w[0], 3);
	cr_assert_eq(g->w[1], 0);
	ordo_graph_free(g);
	o.mtx_real = ORDO_MTX_REAL_SCALE;
	o.mtx_scale = 10;
	g = load_opts(FIX "real.mtx", &o, NULL);
	cr_assert_eq(g->w[0], 26);
	cr_assert_eq(g->w[1], 4);
	ordo_graph_free(g);
}

Test(readers, sparse_ids_kept_or_compacted, .init = mk_tmp, .fini = rm_tmp)
{
	struct ordo_graph *g = load(FIX "sparse.txt", NULL);
	cr_assert_eq(g->n, 1001);
	cr_assert_eq(g->m, 2);
	cr_assert_eq(ordo_graph_degree(g, 10), 1);
	cr_assert_eq(g->dst[g->off[20]], 1000);
	ordo_graph_free(g);
	struct ordo_load_opts o;
	ordo_load_opts_init(&o);
	o.compact_ids = true;
	o.id_map_out = tmp("map.txt");
	g = load_opts(FIX "sparse.txt", &o, NULL);
	cr_assert_eq(g->n, 3);
	const uint32_t dst[] = {1, 2};
	cr_assert_arr_eq(g->dst, dst, sizeof dst);
	/* compressed: the reader's stream is packed, and renumbered as such */
	o.build.compress = true;
	struct ordo_graph *c = load_opts(FIX "sparse.txt", &o, NULL), *cp;
	cr_assert(ordo_graph_compressed(c));
	struct ordo_err e = {0};
	cr_assert_eq(ordo_graph_decompress(c, 1, &cp, &e), 0, "%s", e.msg);
	cr_assert(ordo_graph_equal(g, cp));
	ordo_graph_free(c);
	ordo_graph_free(cp);
	o.build.compress = false;
	ordo_graph_free(g);
	FILE *f = fopen(tmp("map.txt"), "r");
	cr_assert_not_null(f);
	char line[256];
	cr_assert_not_null(fgets(line, sizeof line, f)); /* comment */
	unsigned a, b;
	unsigned want[3] = {10, 20, 1000};
	for (int i = 0; i < 3; i++) {
		cr_assert_eq(fscanf(f, "%u %u", &a, &b), 2);
		cr_assert_eq(a, (unsigned)i);
		cr_assert_eq(b, want[i]);
	}
	fclose(f);
}

/* Compacted ids stay the input's: orig_of gives the file's id, node_of finds a node by
 * it, ids no node has are refused, and positions in input order (node_at, input_rank)
 * are the compacted ids; the same through a renumbering and a native file. */
Test(readers, compacted_ids_are_the_files_ids, .init = mk_tmp, .fini = rm_tmp)
{
	struct ordo_load_opts o;
	ordo_load_opts_init(&o);
	o.compact_ids = true;
	const uint32_t ids[] = {10, 20, 1000};
	for (int pass = 0; pass < 3; pass++) {
		o.reorder = pass == 1 ? ORDO_ORDER_DEGREE : ORDO_ORDER_NONE;
		struct ordo_graph *g =
		    pass == 2 ? load(tmp("sp.ordo"), NULL) : load_opts(FIX "sparse.txt", &o, NULL);
		cr_assert(g->ids_sparse, "pass %d", pass);
		for (uint32_t i = 0; i < 3; i++) {
			const uint32_t u = ordo_graph_node_of(g, ids[i]);
			cr_assert_lt(u, 3);
			cr_assert_eq(ordo_graph_orig_of(g, u), ids[i], "pass %d", pass);
			cr_assert(ordo_graph_has_id(g, ids[i]));
			cr_assert_eq(ordo_graph_node_at(g, i), u, "input order, pass %d", pass);
			cr_assert_eq(ordo_graph_input_rank(g, u), i);
		}
		for (uint32_t bad = 0; bad < 1002; bad++)
			if (bad != 10 && bad != 20 && bad != 1000)
				cr_assert(!ordo_graph_has_id(g, bad) &&
				              ordo_graph_node_of(g, bad) == UINT32_MAX,
				          "id %u found", bad);
		/* the arcs 10->20 and 20->1000 between the same nodes as in the file */
		const uint32_t a = ordo_graph_node_of(g, 10), b = ordo_graph_node_of(g, 20),
		               c = ordo_graph_node_of(g, 1000);
		bool ab = false, bc = false;
		for (uint64_t e = g->off[a]; e < g->off[a + 1]; e++)
			ab |= g->dst[e] == b;
		for (uint64_t e = g->off[b]; e < g->off[b + 1]; e++)
			bc |= g->dst[e] == c;
		cr_assert(ab && bc, "pass %d: arcs lost their ends", pass);
		struct ordo_err e = {0};
		if (pass == 0)
			cr_assert_eq(ordo_save(tmp("sp.ordo"), ORDO_FMT_NATIVE, g, NULL, &e), 0,
			             "%s", e.msg);
		ordo_graph_free(g);
	}
	/* repeated sparse ids are refused, naming the node */
	struct ordo_graph *g = load_opts(FIX "sparse.txt", &o, NULL);
	uint32_t *dup = malloc(3 * sizeof *dup);
	dup[0] = 5, dup[1] = 700, dup[2] = 5;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_graph_set_ids(g, dup, &e), ORDO_EFORMAT);
	cr_assert(strstr(e.msg, "another node's too"), "%s", e.msg);
	ordo_graph_free(g);
}

Test(readers, random_weights_for_unweighted_inputs)
{
	struct ordo_load_opts o;
	ordo_load_opts_init(&o);
	o.build.random_weights = true;
	o.build.wlo = 10;
	o.build.whi = 12;
	o.build.symmetrize = true;
	struct ordo_graph *g = load_opts(FIX "sym.mtx", &o, NULL);
	cr_assert_not_null(g->w);
	for (uint64_t e = 0; e < g->m; e++)
		cr_assert(g->w[e] >= 10 && g->w[e] <= 12);
	ordo_graph_free(g);
}

/* Every fixture survives native and text round trips unchanged. */
Test(roundtrip, all_formats, .init = mk_tmp, .fini = rm_tmp)
{
	const char *inputs[] = {FIX "tiny.gr", FIX "undirected.graph", FIX "sym.mtx",
	                        FIX "sparse.txt", FIX "isolated.graph"};
	struct {
		const char *name;
		int fmt;
		bool needs_weights_or_sym;
	} outs[] = {
	    {"g.ordo", ORDO_FMT_NATIVE, false},   {"g.gr", ORDO_FMT_DIMACS, true},
	    {"g.txt", ORDO_FMT_EDGELIST, false},  {"g.mtx", ORDO_FMT_MTX, false},
	    {"g.ggr", ORDO_FMT_GALOIS, false},    {"g.txt.zst", ORDO_FMT_EDGELIST, false},
	    {"g.graph", ORDO_FMT_METIS, true},    {"g.adj", ORDO_FMT_LIGRA, false},
	    {"g.adj.zst", ORDO_FMT_LIGRA, false}, {"g.sg", ORDO_FMT_GAPBS, false},
	};
	for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
		struct ordo_graph *g = load(inputs[i], NULL);
		for (size_t k = 0; k < sizeof outs / sizeof outs[0]; k++) {
			struct ordo_err e = {0};
			/* GAPBS: .wsg holds weights, .sg none */
			const char *p =
			    tmp(outs[k].fmt == ORDO_FMT_GAPBS && g->w ? "g.wsg" : outs[k].name);
			unlink(p);
			int rc = ordo_save(p, ORDO_FMT_AUTO, g, NULL, &e);
			if (outs[k].fmt == ORDO_FMT_METIS && (i == 0 || i == 3)) {
				cr_assert_eq(rc, ORDO_EINVAL, "directed graph as METIS");
				cr_assert_eq(access(p, F_OK), -1, "no file left behind");
				continue;
			}
			cr_assert_eq(rc, 0, "%s -> %s: %s", inputs[i], outs[k].name, e.msg);
			struct ordo_load_opts o;
			ordo_load_opts_init(&o);
			if (outs[k].fmt == ORDO_FMT_DIMACS && !g->w)
				continue; /* DIMACS always has weights: compared below */
			struct ordo_graph *h = load_opts(p, &o, NULL);
			if (outs[k].fmt == ORDO_FMT_EDGELIST || outs[k].fmt == ORDO_FMT_MTX) {
				/* n of an edge list is max id + 1: trailing isolated nodes go */
				cr_assert_leq(h->n, g->n);
				cr_assert_eq(h->m, g->m);
				cr_assert_arr_eq(h->dst, g->dst, g->m * 4, "%s via %s", inputs[i],
				                 outs[k].name);
			} else {
				cr_assert(ordo_graph_equal(g, h), "%s via %s", inputs[i],
				          outs[k].name);
			}
			ordo_graph_free(h);
		}
		ordo_graph_free(g);
	}
}

Test(roundtrip, native_keeps_coordinates_and_flags, .init = mk_tmp, .fini = rm_tmp)
{
	struct ordo_graph *g;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_generate("road:W=40,H=30", 2, &g, NULL, 0, &e), 0);
	cr_assert_eq(ordo_save(tmp("r.ordo"), ORDO_FMT_AUTO, g, NULL, &e), 0, "%s", e.msg);
	struct ordo_graph *h = load(tmp("r.ordo"), NULL);
	cr_assert(ordo_graph_equal(g, h));
	cr_assert_eq(h->flags, g->flags);
	cr_assert_str_eq(h->coord_unit, "m");
	/* DIMACS .gr + .co pair */
	cr_assert_eq(ordo_save(tmp("r.gr"), ORDO_FMT_AUTO, g, NULL, &e), 0);
	cr_assert_eq(ordo_save(tmp("r.co"), ORDO_FMT_AUTO, g, NULL, &e), 0);
	struct ordo_load_opts o;
	ordo_load_opts_init(&o);
	o.coords = tmp("r.co");
	struct ordo_graph *k = load_opts(tmp("r.gr"), &o, NULL);
	cr_assert(ordo_graph_equal(g, k));
	ordo_graph_free(g);
	ordo_graph_free(h);
	ordo_graph_free(k);
}

/* ---- malformed inputs ---- */

static int code_of(const char *name)
{
	static const struct {
		const char *n;
		int c;
	} t[] = {{"EFORMAT", ORDO_EFORMAT},
	         {"ERANGE", ORDO_ERANGE},
	         {"EUNSUPPORTED", ORDO_EUNSUPPORTED},
	         {"ECHECKSUM", ORDO_ECHECKSUM},
	         {"EIO", ORDO_EIO},
	         {"ENOMEM", ORDO_ENOMEM}};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		if (!strcmp(t[i].n, name))
			return t[i].c;
	cr_assert_fail("unknown code %s", name);
	return 0;
}

static int run_catalogue(const char *manifest, const char *coords_for)
{
	FILE *f = fopen(manifest, "r");
	cr_assert_not_null(f, "%s", manifest);
	char line[1024];
	int count = 0;
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = 0;
		if (!line[0] || line[0] == '#')
			continue;
		char *name = strtok(line, "|"), *code = strtok(NULL, "|"), *want = strtok(NULL, "");
		cr_assert(name && code && want, "bad manifest line");
		char path[512];
		snprintf(path, sizeof path, BAD "%s", name);
		struct ordo_load_opts o;
		ordo_load_opts_init(&o);
		const char *input = path;
		if (coords_for) {
			o.coords = path;
			input = coords_for;
		}
		struct ordo_graph *g = NULL;
		struct ordo_err e = {0};
		int rc = ordo_load(input, &o, &g, NULL, &e);
		cr_expect_eq(rc, code_of(code), "%s: got %d (%s), expected %s", name, rc, e.msg,
		             code);
		cr_expect_null(g, "%s: no graph on error", name);
		cr_expect(strstr(e.msg, path) == e.msg,
		          "%s: message should start with the path: %s", name, e.msg);
		cr_expect(strstr(e.msg, want) != NULL, "%s: message '%s' lacks '%s'", name, e.msg,
		          want);
		count++;
	}
	fclose(f);
	return count;
}

Test(malformed, text_catalogue)
{
	int n = run_catalogue(BAD "EXPECT", NULL);
	cr_assert_geq(n, 30, "catalogue has %d cases", n);
}

Test(malformed, coordinate_catalogue)
{
	cr_assert_geq(run_catalogue(BAD "EXPECT_COORDS", FIX "tiny.gr"), 4);
}

static void write_bytes(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	cr_assert_not_null(f);
	cr_assert_eq(fwrite(p, 1, n, f), n);
	fclose(f);
}

static unsigned char *read_bytes(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	cr_assert_not_null(f, "%s", path);
	fseek(f, 0, SEEK_END);
	*n = (size_t)ftell(f);
	fseek(f, 0, SEEK_SET);
	unsigned char *p = malloc(*n + 1);
	cr_assert_eq(fread(p, 1, *n, f), *n);
	fclose(f);
	return p;
}

static void expect_fail(const char *path, int code, const char *want)
{
	struct ordo_graph *g = NULL;
	struct ordo_err e = {0};
	int rc = ordo_load(path, NULL, &g, NULL, &e);
	cr_expect_eq(rc, code, "%s: got %d (%s)", path, rc, e.msg);
	cr_expect_null(g);
	cr_expect(strstr(e.msg, want) != NULL, "%s: '%s' lacks '%s'", path, e.msg, want);
}

uint64_t io_checksum(const void *data, uint64_t len, uint64_t seed);

Test(malformed, binary_files, .init = mk_tmp, .fini = rm_tmp)
{
	size_t n;
	/* zstd: truncated frame, corrupted frame */
	unsigned char *z = read_bytes(FIX "tiny.gr.zst", &n);
	write_bytes(tmp("trunc.gr.zst"), z, n - 12);
	expect_fail(tmp("trunc.gr.zst"), ORDO_EFORMAT, "truncated");
	z[n / 2] ^= 0x5a;
	z[n / 2 + 1] ^= 0xa5;
	write_bytes(tmp("corrupt.gr.zst"), z, n);
	expect_fail(tmp("corrupt.gr.zst"), ORDO_EFORMAT, "zstd");
	free(z);

	/* native: make a valid file, then break it in several ways */
	struct ordo_graph *g;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_generate("road:W=64,H=64", 1, &g, NULL, 0, &e), 0);
	cr_assert_eq(ordo_save(tmp("ok.ordo"), ORDO_FMT_AUTO, g, NULL, &e), 0);
	ordo_graph_free(g);
	unsigned char *b = read_bytes(tmp("ok.ordo"), &n);
	unsigned char *c = malloc(n);
	memcpy(c, b, n);
	c[8] = 9; /* version */
	write_bytes(tmp("ver.ordo"), c, n);
	expect_fail(tmp("ver.ordo"), ORDO_EUNSUPPORTED, "byte 8: expected format version 1");
	memcpy(c, b, n);
	c[20] ^= 1; /* n, header checksum no longer matches */
	write_bytes(tmp("hdr.ordo"), c, n);
	expect_fail(tmp("hdr.ordo"), ORDO_ECHECKSUM, "header checksum");
	memcpy(c, b, n);
	c[n - 100] ^= 0x11; /* inside the last frame's data */
	write_bytes(tmp("data.ordo"), c, n);
	struct ordo_graph *h = NULL;
	int rc = ordo_load(tmp("data.ordo"), NULL, &h, NULL, &e);
	cr_expect(rc == ORDO_ECHECKSUM || rc == ORDO_EFORMAT, "corrupt frame: %d %s", rc, e.msg);
	cr_expect(strstr(e.msg, "byte ") != NULL, "%s", e.msg);
	cr_expect_null(h);
	write_bytes(tmp("short.ordo"), b, n - 50);
	expect_fail(tmp("short.ordo"), ORDO_EFORMAT, "(truncated?)");
	/* absurd n and m with a valid header checksum */
	memcpy(c, b, n);
	uint64_t big = 4000000000ull, bigm = 1ull << 39;
	memcpy(c + 16, &big, 8);
	memcpy(c + 24, &bigm, 8);
	uint64_t sum = io_checksum(c, 120, 0);
	memcpy(c + 120, &sum, 8);
	write_bytes(tmp("absurd.ordo"), c, n);
	expect_fail(tmp("absurd.ordo"), ORDO_ERANGE, "GiB");
	free(b);
	free(c);

	/* Galois: truncated, version 2, absurd header */
	b = read_bytes(FIX "tiny.ggr", &n);
	write_bytes(tmp("t.ggr"), b, n - 6);
	expect_fail(tmp("t.ggr"), ORDO_EFORMAT, "byte 16: header says 5 nodes and 7 edges");
	c = malloc(n);
	memcpy(c, b, n);
	c[0] = 2;
	write_bytes(tmp("v2.ggr"), c, n);
	expect_fail(tmp("v2.ggr"), ORDO_EUNSUPPORTED, "version 2");
	memcpy(c, b, n);
	uint64_t absurd = 1ull << 45;
	memcpy(c + 24, &absurd, 8);
	write_bytes(tmp("absurd.ggr"), c, n);
	expect_fail(tmp("absurd.ggr"), ORDO_EFORMAT, "header says");
	memcpy(c, b, n);
	c[32 + 5 * 8] = 77; /* first destination >= numNodes */
	write_bytes(tmp("dst.ggr"), c, n);
	expect_fail(tmp("dst.ggr"), ORDO_EFORMAT, "destination 77");
	free(b);
	free(c);
	expect_fail(tmp("missing.gr"), ORDO_EIO, "cannot open");
}

/* GAPBS .sg/.wsg: the layout GAPBS's writer makes (header, out-CSR, and for a directed
 * graph the in-CSR with the weights of the out-arcs), and every malformation named by
 * its byte. */
Test(gapbs, layout_and_malformed_files, .init = mk_tmp, .fini = rm_tmp)
{
	struct ordo_graph *g = load(FIX "tiny.gr", NULL);
	struct ordo_err e = {0};
	cr_assert_eq(ordo_save(tmp("t.wsg"), ORDO_FMT_AUTO, g, NULL, &e), 0, "%s", e.msg);
	size_t n;
	unsigned char *b = read_bytes(tmp("t.wsg"), &n);
	cr_assert_eq(n, 17 + 2 * (6 * 8 + 7 * 8), "directed .wsg size");
	int64_t m, nn;
	memcpy(&m, b + 1, 8);
	memcpy(&nn, b + 9, 8);
	cr_assert(b[0] == 1 && m == 7 && nn == 5, "header %u %lld %lld", b[0], (long long)m,
	          (long long)nn);
	/* in-CSR of tiny: 0 <- 4 (w4) | 1 <- 0 (3) | 2 <- 0 (5), 1 (1) | 3 <- 2 (7) |
	 * 4 <- 1 (9), 3 (2) */
	const int64_t in_off[] = {0, 1, 2, 4, 5, 7};
	const int32_t in_nb[] = {4, 4, 0, 3, 0, 5, 1, 1, 2, 7, 1, 9, 3, 2};
	const size_t at = 17 + 6 * 8 + 7 * 8;
	cr_assert_arr_eq(b + at, in_off, sizeof in_off, "in-offsets");
	cr_assert_arr_eq(b + at + sizeof in_off, in_nb, sizeof in_nb, "in-neighbours");
	struct ordo_graph *h = load(tmp("t.wsg"), NULL);
	expect_tiny(h, "tiny via .wsg");
	cr_assert_eq(h->flags & ORDO_GRAPH_SYMMETRIC, 0u, "a directed file is not symmetric");
	ordo_graph_free(h);

	unsigned char *c = malloc(n);
	write_bytes(tmp("short.wsg"), b, n - 4);
	expect_fail(tmp("short.wsg"), ORDO_EFORMAT, "byte 0: header says directed, n = 5, m = 7");
	memcpy(c, b, n);
	c[0] = 2;
	write_bytes(tmp("flag.sg"), c, n);
	expect_fail(tmp("flag.sg"), ORDO_EFORMAT, "byte 0: expected the directed flag, 0 or 1");
	memcpy(c, b, n);
	int64_t bad = 1;
	memcpy(c + 17 + 3 * 8, &bad, 8); /* offset of node 3 = 1, below node 2's */
	write_bytes(tmp("off.wsg"), c, n);
	expect_fail(tmp("off.wsg"), ORDO_EFORMAT,
	            "byte 41: expected the offset of node 3 to be at least the one before");
	memcpy(c, b, n);
	int32_t big = 77, neg = -3;
	memcpy(c + 17 + 6 * 8 + 8, &big, 4); /* target of arc 1 */
	write_bytes(tmp("dst.wsg"), c, n);
	expect_fail(tmp("dst.wsg"), ORDO_EFORMAT, "byte 73: expected the target of arc 1 below");
	memcpy(c, b, n);
	memcpy(c + 17 + 6 * 8 + 4, &neg, 4); /* weight of arc 0 */
	write_bytes(tmp("neg.wsg"), c, n);
	expect_fail(tmp("neg.wsg"), ORDO_ERANGE, "byte 69: expected a non-negative weight");
	free(b);
	free(c);

	/* an undirected graph: out-CSR only, read back symmetric; .sg drops weights */
	struct ordo_graph *u = load(FIX "sym.mtx", NULL);
	cr_assert_neq(u->flags & ORDO_GRAPH_SYMMETRIC, 0u, "sym.mtx is declared symmetric");
	cr_assert_eq(ordo_save(tmp("u.sg"), ORDO_FMT_AUTO, u, NULL, &e), 0, "%s", e.msg);
	b = read_bytes(tmp("u.sg"), &n);
	cr_assert_eq(n, 17 + 8 * ((size_t)u->n + 1) + 4 * u->m);
	cr_assert_eq(b[0], 0);
	free(b);
	int fmt;
	h = load(tmp("u.sg"), &fmt);
	cr_assert_eq(fmt, ORDO_FMT_GAPBS);
	cr_assert_neq(h->flags & ORDO_GRAPH_SYMMETRIC, 0u);
	cr_assert_null(h->w);
	cr_assert_arr_eq(h->dst, u->dst, 4 * u->m);
	ordo_graph_free(h);
	ordo_graph_free(u);
	ordo_graph_free(g);
}

/* Copies the file `from` into the FIFO `to` from a child process; returns its pid. */
static pid_t feed_fifo(const char *from, const char *to)
{
	pid_t p = fork();
	cr_assert(p >= 0);
	if (p == 0) {
		size_t n;
		unsigned char *b = read_bytes(from, &n);
		FILE *f = fopen(to, "wb"); /* blocks until the reader opens it */
		_exit(f && fwrite(b, 1, n, f) == n && fclose(f) == 0 ? 0 : 1);
	}
	return p;
}

/* An input that can be read once (a FIFO, as a shell's pipe) is opened once and read
 * once, the format sniffed from the same stream: plain and zstd text load as from the
 * file; a device gets a clear error, not a hang. */
Test(load, a_fifo_is_read_once, .init = mk_tmp, .fini = rm_tmp, .timeout = 30)
{
	const char *files[] = {FIX "tiny.gr", FIX "tiny.gr.zst", FIX "tiny.txt"};
	for (int i = 0; i < 3; i++) {
		cr_assert_eq(mkfifo(tmp("pipe"), 0600), 0);
		pid_t w = feed_fifo(files[i], tmp("pipe"));
		struct ordo_load_opts o;
		ordo_load_opts_init(&o);
		o.no_sibling_coords = true;
		struct ordo_graph *g = NULL;
		struct ordo_err e = {0};
		cr_assert_eq(ordo_load(tmp("pipe"), &o, &g, NULL, &e), 0, "%s: %s", files[i],
		             e.msg);
		if (i < 2)
			expect_tiny(g, files[i]);
		else
			cr_expect_eq(g->n, 5u);
		int st = 0;
		waitpid(w, &st, 0);
		cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the writer failed");
		ordo_graph_free(g);
		unlink(tmp("pipe"));
	}
	/* a binary format that needs the file's size or offsets says so */
	cr_assert_eq(mkfifo(tmp("pipe"), 0600), 0);
	pid_t w = feed_fifo(FIX "tiny.wsg", tmp("pipe"));
	struct ordo_load_opts o;
	ordo_load_opts_init(&o);
	o.format = ORDO_FMT_GAPBS;
	struct ordo_graph *g = NULL;
	struct ordo_err e = {0};
	cr_expect_eq(ordo_load(tmp("pipe"), &o, &g, NULL, &e), ORDO_EUNSUPPORTED, "%s", e.msg);
	cr_expect(strstr(e.msg, "a GAPBS file from a pipe"), "%s", e.msg);
	kill(w, SIGKILL);
	waitpid(w, NULL, 0);
	expect_fail("/dev/null", ORDO_EIO, "a character device: expected a regular file or a pipe");
}

/* The METIS writer stores undirected graphs only: a graph with an arc whose reverse is
 * missing, or has another weight, is refused (ordo_graph_arcs_symmetric), a symmetric
 * one (not marked so) is written. */
Test(write, metis_refuses_what_is_not_symmetric, .init = mk_tmp, .fini = rm_tmp)
{
	struct ordo_graph *g = load(FIX "tiny.gr", NULL); /* directed */
	struct ordo_err e = {0};
	cr_assert_eq(ordo_save(tmp("t.graph"), ORDO_FMT_METIS, g, NULL, &e), ORDO_EINVAL);
	cr_assert(strstr(e.msg, "METIS stores undirected graphs"), "%s", e.msg);
	ordo_graph_free(g);
	struct ordo_load_opts o;
	ordo_load_opts_init(&o);
	o.no_sibling_coords = true;
	o.build.symmetrize = true; /* tiny has no antiparallel arcs: every reverse matches */
	struct ordo_graph *u = load_opts(FIX "tiny.gr", &o, NULL);
	u->flags &= ~(uint32_t)ORDO_GRAPH_SYMMETRIC; /* the arcs decide, not the mark */
	cr_assert_eq(ordo_save(tmp("u.graph"), ORDO_FMT_METIS, u, NULL, &e), 0, "%s", e.msg);
	cr_assert(u->m > 0 && u->w);
	u->w[0]++; /* one arc's weight no longer its reverse's */
	cr_assert_eq(ordo_save(tmp("v.graph"), ORDO_FMT_METIS, u, NULL, &e), ORDO_EINVAL);
	ordo_graph_free(u);
}

/* A GAPBS file's undirected flag is a claim that decides answers (k-core, MST): it is
 * checked. Two nodes, "undirected", node 0 with four arcs to node 1 and a self-loop,
 * node 1 with none: read as directed (k-core of it, symmetrised, is 1, not 4) with a
 * note, the self-loop dropped as every reader drops one. */
Test(gapbs, an_undirected_claim_is_checked_and_self_loops_dropped, .init = mk_tmp, .fini = rm_tmp)
{
	const int64_t m = 5, n = 2, off[3] = {0, 5, 5};
	const int32_t nb[5] = {1, 1, 0, 1, 1};
	unsigned char b[17 + sizeof off + sizeof nb] = {0}; /* directed = 0 */
	memcpy(b + 1, &m, 8);
	memcpy(b + 9, &n, 8);
	memcpy(b + 17, off, sizeof off);
	memcpy(b + 17 + sizeof off, nb, sizeof nb);
	write_bytes(tmp("liar.sg"), b, sizeof b);
	struct ordo_load_opts o;
	ordo_load_opts_init(&o);
	struct ordo_load_info info;
	struct ordo_graph *g = NULL;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_load(tmp("liar.sg"), &o, &g, &info, &e), 0, "%s", e.msg);
	cr_expect_eq(g->flags & ORDO_GRAPH_SYMMETRIC, 0u, "an asymmetric file read as symmetric");
	cr_expect_eq(g->m, 4u, "the self-loop stays");
	cr_expect_eq(info.build.self_loops_removed, 1u);
	cr_expect(strstr(info.notes, "the file says undirected, but some arc lacks its reverse"),
	          "%s", info.notes);
	ordo_graph_free(g);
	/* kept when asked */
	o.build.keep_self_loops = true;
	cr_assert_eq(ordo_load(tmp("liar.sg"), &o, &g, &info, &e), 0, "%s", e.msg);
	cr_expect_eq(g->m, 5u);
	ordo_graph_free(g);
	/* a true claim stays: 0 - 1 both ways, one self-loop on 1 (its own reverse) */
	const int64_t m2 = 3, off2[3] = {0, 1, 3};
	const int32_t nb2[3] = {1, 0, 1};
	unsigned char c[17 + sizeof off2 + sizeof nb2] = {0};
	memcpy(c + 1, &m2, 8);
	memcpy(c + 9, &n, 8);
	memcpy(c + 17, off2, sizeof off2);
	memcpy(c + 17 + sizeof off2, nb2, sizeof nb2);
	write_bytes(tmp("true.sg"), c, sizeof c);
	o.build.keep_self_loops = false;
	cr_assert_eq(ordo_load(tmp("true.sg"), &o, &g, &info, &e), 0, "%s", e.msg);
	cr_expect_neq(g->flags & ORDO_GRAPH_SYMMETRIC, 0u, "a symmetric file's claim is kept");
	cr_expect_eq(g->m, 2u);
	ordo_graph_free(g);
}

/* An option for one format given for a file of another is refused by the loader, not
 * silently ignored. */
Test(load, options_of_another_format_are_refused)
{
	struct ordo_load_opts o;
	ordo_load_opts_init(&o);
	o.compact_ids = true;
	struct ordo_graph *g = NULL;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_load(FIX "tiny.gr", &o, &g, NULL, &e), ORDO_EINVAL);
	cr_assert(strstr(e.msg, "--compact-ids renumbers edge-list ids, but this is a dimacs"),
	          "%s", e.msg);
	cr_assert_null(g);
	ordo_load_opts_init(&o);
	o.mtx_real = ORDO_MTX_REAL_ROUND;
	cr_assert_eq(ordo_load(FIX "tiny.txt", &o, &g, NULL, &e), ORDO_EINVAL);
	cr_assert(
	    strstr(e.msg, "--mtx-real applies to Matrix Market files, but this is a edgelist"),
	    "%s", e.msg);
	cr_assert_null(g);
}

/* The format table: names, aliases and extensions resolve, help lists every format. */
Test(formats, table_lookups)
{
	cr_assert_eq(ordo_format_from_name("ligra"), ORDO_FMT_LIGRA);
	cr_assert_eq(ordo_format_from_name("wsg"), ORDO_FMT_GAPBS);
	cr_assert_eq(ordo_format_from_name("gr"), ORDO_FMT_DIMACS);
	cr_assert_eq(ordo_format_from_name("nope"), -1);
	cr_assert_eq(ordo_format_of_extension("x/y.SG"), ORDO_FMT_GAPBS);
	cr_assert_eq(ordo_format_of_extension("y.adj.zst"), ORDO_FMT_LIGRA);
	cr_assert_eq(ordo_format_of_extension("y.unknown"), -1);
	cr_assert_eq(ordo_format_for_output("y.unknown"), ORDO_FMT_EDGELIST);
	for (int f = 1; f < ORDO_FMT_COUNT; f++) {
		const struct ordo_format_info *x = ordo_format_info(f);
		cr_assert_not_null(x);
		cr_assert_eq(ordo_format_from_name(x->name), f, "%s", x->name);
	}
	cr_assert_null(ordo_format_info(ORDO_FMT_AUTO));
	char names[256];
	ordo_format_names(ORDO_FORMAT_COORDS, names, sizeof names);
	cr_assert_str_eq(names, "co xyz");
}

void io_native_reseal(unsigned char *bytes, size_t len);

/* Loads a forged native file: it must fail with a code and a message and no graph, or
 * give a graph that validates. Returns the code. */
static int load_forged(const unsigned char *b, size_t n, const char *what, struct ordo_err *e)
{
	write_bytes(tmp("forged.ordo"), b, n);
	struct ordo_graph *g = NULL;
	*e = (struct ordo_err){0};
	int rc = ordo_load(tmp("forged.ordo"), NULL, &g, NULL, e);
	if (rc) {
		cr_assert_null(g, "%s: an error (%d) left a graph", what, rc);
		cr_assert(e->msg[0], "%s: error %d without a message", what, rc);
	} else {
		struct ordo_err v = {0};
		cr_assert_eq(ordo_graph_validate(g, &v), 0, "%s: loaded an invalid graph: %s", what,
		             v.msg);
		ordo_graph_free(g);
	}
	return rc;
}

/* Every field of every section entry, and of each section's first frame entry, forged
 * with its checksums recomputed (so the reader's checks behind the checksums see it), in
 * a plain and a compressed file that hold every kind of section, each in both layouts
 * (zstd frames, and mappable). A kind near 2^32 once wrapped onto a real kind and read
 * seen[] 4 GB out of bounds. */
Test(malformed, native_forged_sections_with_valid_checksums, .init = mk_tmp, .fini = rm_tmp)
{
	struct ordo_graph *g;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_generate("road:W=24,H=20", 1, &g, NULL, 0, &e), 0, "%s", e.msg);
	cr_assert_eq(ordo_graph_reorder(&g, ORDO_ORDER_RCM, 1, &e), 0, "%s", e.msg);
	cr_assert_not_null(g->orig_id);
	struct ordo_graph *c;
	cr_assert_eq(ordo_graph_compress(g, 1, &c, &e), 0, "%s", e.msg);
	struct ordo_save_opts map;
	ordo_save_opts_init(&map);
	map.mappable = true;
	cr_assert_eq(ordo_save(tmp("p.ordo"), ORDO_FMT_NATIVE, g, NULL, &e), 0, "%s", e.msg);
	cr_assert_eq(ordo_save(tmp("c.ordo"), ORDO_FMT_NATIVE, c, NULL, &e), 0, "%s", e.msg);
	cr_assert_eq(ordo_save(tmp("pm.ordo"), ORDO_FMT_NATIVE, g, &map, &e), 0, "%s", e.msg);
	cr_assert_eq(ordo_save(tmp("cm.ordo"), ORDO_FMT_NATIVE, c, &map, &e), 0, "%s", e.msg);
	ordo_graph_free(g);
	ordo_graph_free(c);
	static const uint64_t vals[] = {
	    0,           1,           2,           3,           4,           5,
	    6,           7,           8,           9,           100,         4096,
	    4294967196u, 4294967197u, 4294967198u, 4294967199u, 4294967200u, 4294967201u,
	    4294967202u, 4294967203u, 4294967295u, 1ull << 32,  1ull << 40,  UINT64_MAX};
	const int nv = sizeof vals / sizeof *vals;
	const char *files[] = {"p.ordo", "c.ordo", "pm.ordo", "cm.ordo"};
	const int nf = sizeof files / sizeof *files;
	int unknown_kinds = 0, cases = 0;
	for (int fi = 0; fi < nf; fi++) {
		size_t n;
		unsigned char *b = read_bytes(tmp(files[fi]), &n);
		unsigned char *f = malloc(n);
		uint32_t ns;
		memcpy(&ns, b + 32, 4);
		cr_assert_eq(ns, 5, "%s: expected every kind of section, got %u", files[fi], ns);
		cr_assert_eq(load_forged(b, n, files[fi], &e), 0, "%s: %s", files[fi], e.msg);
		for (uint32_t i = 0; i < ns; i++) {
			const size_t se = 128 + 48 * (size_t)i;
			uint64_t table;
			memcpy(&table, b + se + 24, 8);
			/* section entry: kind, reserved, raw bytes, frames, table offset,
			 * reserved; first frame entry: offset, stored bytes, codec */
			const struct {
				size_t at, width;
			} fields[] = {{se, 4},      {se + 4, 4},    {se + 8, 8},
			              {se + 16, 8}, {se + 24, 8},   {se + 40, 8},
			              {table, 8},   {table + 8, 4}, {table + 12, 4}};
			for (size_t k = 0; k < sizeof fields / sizeof *fields; k++) {
				for (int v = 0; v < nv; v++) {
					char what[96];
					snprintf(what, sizeof what, "%s section %u byte %zu = %llu",
					         files[fi], i, fields[k].at,
					         (unsigned long long)vals[v]);
					memcpy(f, b, n);
					memcpy(f + fields[k].at, &vals[v], fields[k].width);
					io_native_reseal(f, n);
					int rc = load_forged(f, n, what, &e);
					cases++;
					uint32_t kind = (uint32_t)vals[v];
					if (k == 0 && (kind == 0 || kind > 9)) {
						cr_assert_eq(rc, ORDO_EFORMAT, "%s: %d %s", what,
						             rc, e.msg);
						cr_assert(strstr(e.msg, "unknown kind"), "%s: %s",
						          what, e.msg);
						unknown_kinds++;
					}
				}
			}
		}
		free(b);
		free(f);
	}
	int bad_kinds = 0;
	for (int v = 0; v < nv; v++)
		bad_kinds += (uint32_t)vals[v] == 0 || (uint32_t)vals[v] > 9;
	cr_assert_eq(unknown_kinds, nf * 5 * bad_kinds);
	cr_assert_eq(cases, nf * 5 * 9 * nv);
}

/* Loads path with opts o; the code (0 with a graph in *g, else NULL and a message). */
static int try_load(const char *path, const struct ordo_load_opts *o, struct ordo_graph **g,
                    struct ordo_err *e)
{
	*e = (struct ordo_err){0};
	*g = NULL;
	int rc = ordo_load(path, o, g, NULL, e);
	if (rc) {
		cr_assert_null(*g, "%s: an error (%d) left a graph", path, rc);
		cr_assert(e->msg[0], "%s: error %d without a message", path, rc);
	}
	return rc;
}

/* A mappable file loads as the same graph as the one written (plain and compressed,
 * weighted or not, with coordinates and input ids, and empty), with its arrays in the
 * mapping and no copy; and it converts back to the zstd layout bit for bit. */
Test(roundtrip, mappable_native_is_the_same_graph_mapped, .init = mk_tmp, .fini = rm_tmp)
{
	struct ordo_err e = {0};
	struct ordo_graph *road, *rmat, *roadz, *empty;
	cr_assert_eq(ordo_generate("road:W=30,H=20", 1, &road, NULL, 0, &e), 0, "%s", e.msg);
	cr_assert_eq(ordo_graph_reorder(&road, ORDO_ORDER_RCM, 1, &e), 0, "%s", e.msg);
	cr_assert_eq(ordo_generate("rmat:scale=9,ef=4,wlo=1,whi=1,sym=0", 1, &rmat, NULL, 0, &e), 0,
	             "%s", e.msg);
	cr_assert_eq(ordo_graph_compress(road, 1, &roadz, &e), 0, "%s", e.msg);
	cr_assert_eq(ordo_graph_alloc(7, 0, false, &empty, &e), 0, "%s", e.msg);
	struct ordo_graph *rmatz;
	cr_assert_eq(ordo_graph_compress(rmat, 1, &rmatz, &e), 0, "%s", e.msg);
	struct ordo_graph *gs[] = {road, rmat, roadz, rmatz, empty};
	struct ordo_save_opts map;
	ordo_save_opts_init(&map);
	map.mappable = true;
	for (size_t i = 0; i < sizeof gs / sizeof *gs; i++) {
		for (int verify = 0; verify < 2; verify++) {
			cr_assert_eq(ordo_save(tmp("m.ordo"), ORDO_FMT_NATIVE, gs[i], &map, &e), 0,
			             "%zu: %s", i, e.msg);
			struct ordo_load_opts o;
			ordo_load_opts_init(&o);
			o.verify_mapped = verify;
			struct ordo_graph *h = load_opts(tmp("m.ordo"), &o, NULL);
			cr_assert_not_null(h->map, "graph %zu: not mapped", i);
			cr_assert(ordo_graph_equal(gs[i], h), "graph %zu: differs once mapped", i);
			cr_assert_eq(h->flags, gs[i]->flags, "graph %zu", i);
			cr_assert_eq(h->cz_nwide, gs[i]->cz_nwide, "graph %zu", i);
			cr_assert_str_eq(h->coord_unit, gs[i]->coord_unit, "graph %zu", i);
			void *arrays[] = {h->off,    h->dst,    h->w,     h->cz,
			                  h->cz_blk, h->cz_rel, h->coord, h->orig_id};
			for (size_t a = 0; a < sizeof arrays / sizeof *arrays; a++)
				cr_assert(!arrays[a] || ordo_graph_maps(h, arrays[a]),
				          "graph %zu: array %zu is a copy", i, a);
			for (uint32_t u = 0; u < h->n && h->orig_id; u++)
				cr_assert_eq(ordo_graph_node_of(h, ordo_graph_orig_of(h, u)), u);
			/* back to the zstd layout: the same bytes as writing the graph itself */
			cr_assert_eq(ordo_save(tmp("z1.ordo"), ORDO_FMT_NATIVE, h, NULL, &e), 0);
			cr_assert_eq(ordo_save(tmp("z2.ordo"), ORDO_FMT_NATIVE, gs[i], NULL, &e),
			             0);
			size_t n1, n2;
			unsigned char *b1 = read_bytes(tmp("z1.ordo"), &n1),
			              *b2 = read_bytes(tmp("z2.ordo"), &n2);
			cr_assert(n1 == n2 && !memcmp(b1, b2, n1), "graph %zu: converts back", i);
			free(b1), free(b2);
			ordo_graph_free(h);
		}
	}
	/* a mapped graph given weights from its coordinates gets arrays of its own */
	cr_assert_eq(ordo_save(tmp("m.ordo"), ORDO_FMT_NATIVE, road, &map, &e), 0, "%s", e.msg);
	struct ordo_load_opts o;
	ordo_load_opts_init(&o);
	o.weights_from_coords = true;
	struct ordo_graph *h = load_opts(tmp("m.ordo"), &o, NULL);
	cr_assert(!ordo_graph_maps(h, h->w), "weights set in a read-only mapping");
	cr_assert_eq(ordo_save(tmp("z.ordo"), ORDO_FMT_NATIVE, road, NULL, &e), 0, "%s", e.msg);
	struct ordo_graph *k = load_opts(tmp("z.ordo"), &o, NULL);
	cr_assert(ordo_graph_equal(k, h), "the same lengths as from the zstd layout");
	cr_assert(!ordo_graph_equal(road, h), "the generator's weights are not lengths");
	ordo_graph_free(h);
	ordo_graph_free(k);
	for (size_t i = 0; i < sizeof gs / sizeof *gs; i++)
		ordo_graph_free(gs[i]);
}

/* Damage in a mappable file: a checksum error only on request (the load maps, and
 * does not read, what it need not check), structural damage and non-zero padding
 * always, a cut-short file an error (never SIGBUS), a file of a format version this
 * reader does not know refused by its version. */
Test(malformed, mappable_native_damage, .init = mk_tmp, .fini = rm_tmp)
{
	struct ordo_err e = {0};
	struct ordo_graph *g, *c, *h;
	cr_assert_eq(ordo_generate("rmat:scale=8,ef=4", 1, &g, NULL, 0, &e), 0, "%s", e.msg);
	cr_assert_eq(ordo_graph_compress(g, 1, &c, &e), 0, "%s", e.msg);
	struct ordo_save_opts map;
	ordo_save_opts_init(&map);
	map.mappable = true;
	cr_assert_eq(ordo_save(tmp("p.ordo"), ORDO_FMT_NATIVE, g, &map, &e), 0, "%s", e.msg);
	cr_assert_eq(ordo_save(tmp("c.ordo"), ORDO_FMT_NATIVE, c, &map, &e), 0, "%s", e.msg);
	size_t n, nc;
	unsigned char *b = read_bytes(tmp("p.ordo"), &n), *bc = read_bytes(tmp("c.ordo"), &nc);
	unsigned char *f = malloc(n > nc ? n : nc);
	/* the sections' data: offsets (section 0), destinations (1), weights (2) */
	uint64_t at[3];
	for (int i = 0; i < 3; i++) {
		uint64_t table;
		memcpy(&table, b + 128 + 48 * i + 24, 8);
		memcpy(&at[i], b + table, 8);
	}
	struct ordo_load_opts verify;
	ordo_load_opts_init(&verify);
	verify.verify_mapped = true;
	/* a weight changed: a valid graph, so only the checksums can tell */
	memcpy(f, b, n);
	f[at[2] + 4 * 17] ^= 0x40;
	write_bytes(tmp("f.ordo"), f, n);
	cr_assert_eq(try_load(tmp("f.ordo"), NULL, &h, &e), 0, "%s", e.msg);
	cr_assert(!ordo_graph_equal(g, h), "the weight change is in the graph");
	ordo_graph_free(h);
	cr_assert_eq(try_load(tmp("f.ordo"), &verify, &h, &e), ORDO_ECHECKSUM, "%s", e.msg);
	cr_assert(strstr(e.msg, "checksum mismatch") && strstr(e.msg, "section 2"), "%s", e.msg);
	/* a destination out of range, and offsets that decrease: refused either way */
	memcpy(f, b, n);
	f[at[1] + 4 * 3 + 3] = 0xff;
	write_bytes(tmp("f.ordo"), f, n);
	cr_assert_eq(try_load(tmp("f.ordo"), NULL, &h, &e), ORDO_EFORMAT, "%s", e.msg);
	cr_assert(strstr(e.msg, "arc 3 points to node"), "%s", e.msg);
	memcpy(f, b, n);
	f[at[0] + 8 * 5 + 7] = 0x7f;
	write_bytes(tmp("f.ordo"), f, n);
	cr_assert_eq(try_load(tmp("f.ordo"), NULL, &h, &e), ORDO_EFORMAT, "%s", e.msg);
	cr_assert(strstr(e.msg, "offsets decrease at node 5"), "%s", e.msg);
	/* the zero padding after a compressed graph's node data */
	uint64_t table, data, raw;
	memcpy(&table, bc + 128 + 48 * 2 + 24, 8);
	memcpy(&raw, bc + 128 + 48 * 2 + 8, 8);
	memcpy(&data, bc + table, 8);
	memcpy(f, bc, nc);
	f[data + raw + 3] = 1;
	write_bytes(tmp("f.ordo"), f, nc);
	cr_assert_eq(try_load(tmp("f.ordo"), NULL, &h, &e), ORDO_EFORMAT, "%s", e.msg);
	cr_assert(strstr(e.msg, "zero bytes after the node data"), "%s", e.msg);
	/* cut short anywhere: an error naming the file, no graph, no signal */
	for (size_t cut = 0; cut < nc; cut += 1 + cut / 3) {
		write_bytes(tmp("f.ordo"), bc, cut);
		cr_assert_neq(try_load(tmp("f.ordo"), NULL, &h, &e), 0, "cut at %zu", cut);
	}
	/* version 4: unknown */
	memcpy(f, b, n);
	f[8] = 4;
	io_native_reseal(f, n);
	write_bytes(tmp("f.ordo"), f, n);
	cr_assert_eq(try_load(tmp("f.ordo"), NULL, &h, &e), ORDO_EUNSUPPORTED, "%s", e.msg);
	free(b), free(bc), free(f);
	ordo_graph_free(g);
	ordo_graph_free(c);
}

Test(readers, dimacs_brings_its_sibling_co, .init = mk_tmp, .fini = rm_tmp)
{
	/* tiny.gr has tiny.co beside it; a copy without one has no coordinates; a
	 * compressed .gr.zst looks for .co.zst */
	struct ordo_load_opts o;
	ordo_load_opts_init(&o);
	struct ordo_load_info info;
	struct ordo_graph *g = load_opts(FIX "tiny.gr", &o, NULL);
	cr_assert_eq(g->coord_kind, ORDO_COORD_INT32);
	struct ordo_graph *h = load(FIX "tiny.gr", NULL);
	cr_assert_eq(h->coord_kind, ORDO_COORD_NONE, "no_sibling_coords was ignored");
	struct ordo_err e = {0};
	cr_assert_eq(ordo_save(tmp("t.gr.zst"), ORDO_FMT_DIMACS, g, NULL, &e), 0, "%s", e.msg);
	struct ordo_graph *z = NULL;
	cr_assert_eq(ordo_load(tmp("t.gr.zst"), &o, &z, &info, &e), 0, "%s", e.msg);
	cr_assert_eq(z->coord_kind, ORDO_COORD_NONE);
	ordo_graph_free(z);
	cr_assert_eq(ordo_save(tmp("t.co.zst"), ORDO_FMT_CO, g, NULL, &e), 0, "%s", e.msg);
	cr_assert_eq(ordo_load(tmp("t.gr.zst"), &o, &z, &info, &e), 0, "%s", e.msg);
	cr_assert_eq(z->coord_kind, ORDO_COORD_INT32);
	cr_assert(strstr(info.notes, "coordinates from"), "load notes: %s", info.notes);
	cr_assert(ordo_graph_equal(g, z), "coordinates differ after the round trip");
	char sib[64];
	cr_assert(ordo_sibling_co("a/b.c/x.gr", sib, sizeof sib));
	cr_assert_str_eq(sib, "a/b.c/x.co");
	cr_assert(ordo_sibling_co("noext", sib, sizeof sib));
	cr_assert_str_eq(sib, "noext.co");
	cr_assert(!ordo_sibling_co("noext", sib, 8), "a name that does not fit");
	ordo_graph_free(z);
	ordo_graph_free(h);
	ordo_graph_free(g);
	unlink(tmp("t.gr.zst"));
	unlink(tmp("t.co.zst"));
}

Test(writers, failure_leaves_nothing_behind, .init = mk_tmp, .fini = rm_tmp)
{
	struct ordo_graph *g = load(FIX "tiny.gr", NULL);
	struct ordo_err e = {0};
	cr_assert_eq(ordo_save(tmp("nodir/x.gr"), ORDO_FMT_AUTO, g, NULL, &e), ORDO_EIO);
	cr_assert_eq(ordo_save(tmp("c.co"), ORDO_FMT_CO, g, NULL, &e), ORDO_EINVAL);
	cr_assert(strstr(e.msg, "no coordinates"), "%s", e.msg);
	ordo_graph_free(g);
	char cmd[512];
	snprintf(cmd, sizeof cmd, "test -z \"$(ls -A '%s')\"", tmpdir);
	cr_assert_eq(system(cmd), 0, "temporary files left in %s", tmpdir);
}

Test(load, memory_budget_refuses_a_huge_header)
{
	/* legal, but 2e9 nodes need 16 GB of offsets (tests/fuzz_regress/dimacs-2e9-nodes) */
	char path[] = "/tmp/ordo_budget_XXXXXX";
	int fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	const char text[] = "p sp 2000000000 1\na 1 2 3\n";
	cr_assert_eq(write(fd, text, sizeof text - 1), (ssize_t)(sizeof text - 1));
	close(fd);
	struct ordo_load_opts o;
	ordo_load_opts_init(&o);
	o.mem_budget = (uint64_t)256 << 20;
	struct ordo_graph *g = NULL;
	struct ordo_err e = {0};
	cr_assert_eq(ordo_load(path, &o, &g, NULL, &e), ORDO_ERANGE, "%s", e.msg);
	cr_assert_null(g);
	cr_assert(strstr(e.msg, ":1: ") && strstr(e.msg, "needs 14.9 GiB") &&
	              strstr(e.msg, "memory budget (--mem-budget) is 256.0 MiB"),
	          "%s", e.msg);
	/* a small budget in its own unit, never "0.0 GiB" (issue 31, item 11) */
	o.mem_budget = 1000;
	cr_assert_eq(ordo_load(path, &o, &g, NULL, &e), ORDO_ERANGE, "%s", e.msg);
	cr_assert(strstr(e.msg, "memory budget (--mem-budget) is 1000 bytes"), "%s", e.msg);
	unlink(path);
}
