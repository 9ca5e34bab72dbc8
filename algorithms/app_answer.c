/*
 * app_answer.c - the harness's --output FILE: the last trial's answer, written where a
 * user (or NumPy) can read it, from the arrays the kernel declares (its answer hook,
 * ordo_app.h: name, width, per node or a list). One place for every app, also apps
 * written from the guide.
 *
 * Formats, by the file's name:
 *   .npy  one array in NumPy's own format (version 1.0 header, little-endian unsigned
 *         integers of the array's width, or float64 for a real array), read by np.load with no
 * ordo; an app with several arrays is refused (use .npz); .npz  every array, as NAME.npy members of
 * a stored (uncompressed) zip, as np.savez writes; else  text: '#' lines saying what it is (app,
 * input, trial, query, id base), then per-node arrays as one `node value...` line per node, or
 * lists as one line per entry; an unreached node's value spelled `unreached`. Ids: text files use
 * the input's own numbering (1-based for DIMACS, METIS and Matrix Market; a renumbered graph's
 * input ids); NumPy arrays are indexed by the input's 0-based ids (index u is the input's node u,
 * or node u + 1 of a 1-based file), and arrays of node ids (a forest's ends) hold those 0-based
 * ids. An unreached node holds the dtype's maximum, as in the Python package. The file is written
 * to a temporary name in its directory and renamed when complete; a failed run, a failed
 * verification or an interrupt leaves no file, and the path is checked (its directory exists and is
 * writable) before the graph is loaded.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app_internal.h"

enum { ANS_TEXT, ANS_NPY, ANS_NPZ };

static bool has_suffix(const char *s, const char *suf)
{
	const size_t n = strlen(s), k = strlen(suf);
	return n >= k && !strcmp(s + n - k, suf);
}

static int kind_of(const char *path)
{
	return has_suffix(path, ".npy") ? ANS_NPY : has_suffix(path, ".npz") ? ANS_NPZ : ANS_TEXT;
}

int harness_check_output(const struct ordo_app_kernel *k, const char *path)
{
	if (!k->answer) {
		fprintf(stderr, "%s: --output: %s declares no answer arrays to write\n",
		        ordo_cli_prog, k->name);
		return 2;
	}
	return ordo_cli_check_output_path("--output", path);
}

/* ---- values in the input's order ---- */

static uint64_t value_at(const struct ordo_app_array *a, uint64_t i)
{
	return a->width == 8 ? ((const uint64_t *)a->data)[i] : ((const uint32_t *)a->data)[i];
}

static uint64_t unreached_of(const struct ordo_app_array *a)
{
	return a->width == 8 ? UINT64_MAX : UINT32_MAX;
}

void ordo_app_array_in_input_order(const struct ordo_app_array *a, const struct ordo_graph *g,
                                   void *dst)
{
	unsigned char *d = dst;
	/* positions in input order: the input's ids when they are 0..n-1, the compacted
	 * ids (ranks) when they are an edge list's sparse ones; position i of a per-node
	 * array holds the value of the node at i */
	for (uint64_t i = 0; i < a->count; i++) {
		uint64_t v = value_at(a, a->per_node ? ordo_graph_node_at(g, (uint32_t)i) : i);
		if (a->node_ids && !a->real && v != unreached_of(a))
			v = ordo_graph_input_rank(g, (uint32_t)v);
		if (a->width == 8)
			((uint64_t *)d)[i] = v;
		else
			((uint32_t *)d)[i] = (uint32_t)v;
	}
}

/* Array a as the files hold it (ordo_app_array_in_input_order), malloc'd, or NULL. */
static void *in_input_order(const struct ordo_graph *g, const struct ordo_app_array *a)
{
	void *d = malloc(a->count ? a->count * a->width : 1);
	if (d)
		ordo_app_array_in_input_order(a, g, d);
	return d;
}

/* ---- NumPy's .npy and .npz ---- */

/* An .npy image of a's values in the input's order: the 10-byte preamble, the header
 * dict padded with spaces to a 64-byte multiple (its last byte a newline), the data. */
static unsigned char *npy_image(const struct ordo_graph *g, const struct ordo_app_array *a,
                                size_t *len)
{
	char dict[128];
	int h = snprintf(dict, sizeof dict,
	                 "{'descr': '<%c%u', 'fortran_order': False, 'shape': (%llu,), }",
	                 a->real ? 'f' : 'u', a->width, (unsigned long long)a->count);
	size_t head = 10 + (size_t)h + 1;
	head = (head + 63) / 64 * 64;
	const size_t data = a->count * a->width;
	unsigned char *b = malloc(head + data);
	void *v = b ? in_input_order(g, a) : NULL;
	if (!v) {
		free(b);
		return NULL;
	}
	memcpy(b, "\x93NUMPY\x01\x00", 8);
	b[8] = (unsigned char)((head - 10) & 0xff);
	b[9] = (unsigned char)((head - 10) >> 8);
	memset(b + 10, ' ', head - 10);
	memcpy(b + 10, dict, (size_t)h);
	b[head - 1] = '\n';
	memcpy(b + head, v, data);
	free(v);
	*len = head + data;
	return b;
}

static uint32_t crc32_of(const unsigned char *p, size_t n)
{
	static uint32_t table[256];
	if (!table[1])
		for (uint32_t i = 0; i < 256; i++) {
			uint32_t c = i;
			for (int k = 0; k < 8; k++)
				c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
			table[i] = c;
		}
	uint32_t c = 0xFFFFFFFFu;
	for (size_t i = 0; i < n; i++)
		c = table[(c ^ p[i]) & 0xff] ^ (c >> 8);
	return c ^ 0xFFFFFFFFu;
}

static void put16(FILE *f, unsigned v)
{
	fputc((int)(v & 0xff), f), fputc((int)(v >> 8 & 0xff), f);
}

static void put32(FILE *f, uint32_t v)
{
	put16(f, v & 0xffff), put16(f, v >> 16);
}

/* A stored zip of NAME.npy members (the subset np.load reads: no compression, no
 * data descriptors, sizes below 4 GiB). */
static int write_npz(FILE *f, const struct ordo_graph *g, const struct ordo_app_array *a, int n)
{
	uint32_t off[8], crc[8], size[8];
	long at = 0;
	for (int i = 0; i < n; i++) {
		size_t len;
		unsigned char *img = npy_image(g, &a[i], &len);
		if (!img)
			return ORDO_ENOMEM;
		if (len >= UINT32_MAX) {
			free(img);
			return ORDO_ERANGE;
		}
		char name[80];
		const int nl = snprintf(name, sizeof name, "%s.npy", a[i].name);
		off[i] = (uint32_t)at, crc[i] = crc32_of(img, len), size[i] = (uint32_t)len;
		put32(f, 0x04034b50), put16(f, 20), put16(f, 0), put16(f, 0), put16(f, 0),
		    put16(f, 0x21); /* version, flags, stored, time, date (1980-01-01) */
		put32(f, crc[i]), put32(f, size[i]), put32(f, size[i]), put16(f, (unsigned)nl),
		    put16(f, 0);
		fwrite(name, 1, (size_t)nl, f);
		fwrite(img, 1, len, f);
		free(img);
		at += 30 + nl + (long)len;
	}
	const long cd = at;
	for (int i = 0; i < n; i++) {
		char name[80];
		const int nl = snprintf(name, sizeof name, "%s.npy", a[i].name);
		put32(f, 0x02014b50), put16(f, 20), put16(f, 20), put16(f, 0), put16(f, 0),
		    put16(f, 0), put16(f, 0x21);
		put32(f, crc[i]), put32(f, size[i]), put32(f, size[i]), put16(f, (unsigned)nl);
		put16(f, 0), put16(f, 0), put16(f, 0), put16(f, 0), put32(f, 0), put32(f, off[i]);
		fwrite(name, 1, (size_t)nl, f);
		at += 46 + nl;
	}
	put32(f, 0x06054b50), put16(f, 0), put16(f, 0), put16(f, (unsigned)n),
	    put16(f, (unsigned)n);
	put32(f, (uint32_t)(at - cd)), put32(f, (uint32_t)cd), put16(f, 0);
	return 0;
}

/* ---- text ---- */

/* A single value that is not per node (astar's distance): a header line in text. */
static bool is_scalar(const struct ordo_app_array *a)
{
	return !a->per_node && a->count == 1 && !a->node_ids;
}

static void write_text(FILE *f, const struct ordo_app_run *r, const struct trial *t, int trial_no,
                       const struct ordo_app_array *a, int n, unsigned base)
{
	const struct ordo_graph *g = r->g;
	fprintf(f, "# %s answer, trial %d of %lld, on %s", r->k->name, trial_no,
	        (long long)r->cfg->trials, r->input);
	if (t->q.source != ORDO_APP_NO_NODE)
		fprintf(f, ", source %llu",
		        (unsigned long long)ordo_graph_orig_of(g, t->q.source) + base);
	if (t->q.target != ORDO_APP_NO_NODE)
		fprintf(f, ", target %llu",
		        (unsigned long long)ordo_graph_orig_of(g, t->q.target) + base);
	fprintf(f, "\n# node ids as in the input (%s)\n", base ? "1-based" : "0-based");
	for (; n > 0 && is_scalar(&a[0]); a++, n--) /* single values: header lines */
		if (a[0].real) {
			const uint64_t v = value_at(&a[0], 0);
			double x;
			memcpy(&x, &v, sizeof x);
			fprintf(f, "# %s %.17g\n", a[0].name, x);
		} else
			fprintf(f, "# %s %llu\n", a[0].name,
			        (unsigned long long)value_at(&a[0], 0));
	if (!n)
		return;
	fprintf(f, "# columns:%s", a[0].per_node ? " node" : "");
	for (int i = 0; i < n; i++)
		fprintf(f, " %s", a[i].name);
	fputc('\n', f);
	const uint64_t rows = a[0].per_node ? g->n : a[0].count;
	/* per node: by the input's id order, so the lines read like the input */
	for (uint64_t i = 0; i < rows; i++) {
		/* the graph's node of the i-th input id */
		const uint64_t row = a[0].per_node ? ordo_graph_node_at(g, (uint32_t)i) : i;
		if (a[0].per_node)
			fprintf(f, "%llu",
			        (unsigned long long)ordo_graph_orig_of(g, (uint32_t)row) + base);
		for (int k = 0; k < n; k++) {
			const uint64_t v = value_at(&a[k], row);
			fputs(k || a[0].per_node ? " " : "", f);
			if (a[k].real) {
				double x;
				memcpy(&x, &v, sizeof x);
				fprintf(f, "%.17g", x);
			} else if (a[k].per_node && v == unreached_of(&a[k]))
				fputs("unreached", f);
			else if (a[k].node_ids)
				fprintf(f, "%llu",
				        (unsigned long long)ordo_graph_orig_of(g, (uint32_t)v) +
				            base);
			else
				fprintf(f, "%llu", (unsigned long long)v);
		}
		fputc('\n', f);
	}
}

int harness_write_answer(struct ordo_app_run *r, const struct trial *t, int trial_no)
{
	const char *path = r->cfg->answer_path;
	struct ordo_app_array a[8];
	struct ordo_err err = {0};
	const int n = r->k->answer(r->st, a, 8, &err);
	if (n < 0)
		return ordo_cli_fail(ordo_cli_prog, &err);
	const int kind = kind_of(path);
	if (n == 0 || (kind == ANS_NPY && n > 1)) {
		fprintf(stderr,
		        "%s: --output %s: %s has %d answer arrays; a .npy file holds one "
		        "(write .npz, or text)\n",
		        ordo_cli_prog, path, r->k->name, n);
		return 2;
	}
	/* text: single values first (header lines), then arrays of one shape (columns) */
	int first = 0;
	while (first < n && is_scalar(&a[first]))
		first++;
	for (int i = first + 1; i < n && kind == ANS_TEXT; i++)
		if (is_scalar(&a[i]) || a[i].per_node != a[first].per_node ||
		    (!a[first].per_node && a[i].count != a[first].count)) {
			fprintf(stderr, "%s: --output %s: %s's arrays differ in shape\n",
			        ordo_cli_prog, path, r->k->name);
			return 2;
		}
	char tmp[4200];
	snprintf(tmp, sizeof tmp, "%s.tmp-XXXXXX", path);
	const int fd = mkstemp(tmp);
	FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
	if (!f) {
		fprintf(stderr, "%s: --output %s: cannot create %s: %s\n", ordo_cli_prog, path, tmp,
		        strerror(errno));
		if (fd >= 0)
			close(fd), unlink(tmp);
		return 3;
	}
	const struct ordo_format_info *fi = ordo_format_info(r->format);
	const unsigned base = fi && (fi->flags & ORDO_FORMAT_ONE_BASED) ? 1 : 0;
	int rc = 0;
	if (kind == ANS_TEXT) {
		write_text(f, r, t, trial_no, a, n, base);
	} else if (kind == ANS_NPY) {
		size_t len;
		unsigned char *img = npy_image(r->g, &a[0], &len);
		if (!img)
			rc = ORDO_ENOMEM;
		else
			fwrite(img, 1, len, f);
		free(img);
	} else {
		rc = write_npz(f, r->g, a, n);
	}
	const bool bad = ferror(f) != 0;
	if (fclose(f) || bad || rc) {
		unlink(tmp);
		fprintf(stderr, "%s: --output %s: %s\n", ordo_cli_prog, path,
		        rc ? ordo_strerror(rc) : "write failed");
		return 3;
	}
	/* mkstemp makes it 0600: the mode a new file would have */
	const mode_t um = umask(0);
	umask(um);
	chmod(tmp, 0666 & ~um);
	if (rename(tmp, path)) {
		fprintf(stderr, "%s: --output %s: %s\n", ordo_cli_prog, path, strerror(errno));
		unlink(tmp);
		return 3;
	}
	if (r->hout)
		fprintf(r->hout, "answer of trial %d written to %s\n", trial_no, path);
	return 0;
}
