/*
 * io_internal.h - what the readers and writers of io/ share: a byte source that may be
 * zstd-compressed, the parallel chunked text driver, token parsing, the checksum, and
 * atomic output files.
 */
#ifndef ORDO_IO_INTERNAL_H
#define ORDO_IO_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ordo_io.h"

/* ---- input ---- */
struct io_in;
/* Opens `path` ("-": standard input) for sequential reading, once: a regular file or a
 * pipe (a FIFO, standard input), anything else EIO naming what it is; zstd content is
 * decompressed transparently. */
int io_in_open(const char *path, struct io_in **out, struct ordo_err *err);
/* The first IO_PEEK bytes of the content (fewer at its end), read once and then given
 * again by the reads that follow: how a format is detected from the stream it is read
 * from. The buffer lives until io_in_close. */
#define IO_PEEK (1u << 16)
int io_in_peek(struct io_in *in, const unsigned char **buf, uint64_t *len, struct ordo_err *err);
/* A regular file: its size is known and it may be read at offsets or mapped (io_in_fd). */
bool io_in_regular(const struct io_in *in);
void io_in_close(struct io_in *in);
/* Reads up to cap bytes; returns bytes read (0 at end) or a negative code (message in
 * err: corrupt or truncated zstd frame, read error). */
int64_t io_in_read(struct io_in *in, void *buf, uint64_t cap, struct ordo_err *err);
bool io_in_compressed(const struct io_in *in);
uint64_t io_in_file_bytes(const struct io_in *in);
uint64_t io_in_file_pos(const struct io_in *in); /* compressed bytes consumed */
int io_in_fd(const struct io_in *in);

/* ---- text driver ----
 * The file is read in chunks cut at line ends. A format first consumes its header
 * lines one at a time (header()), then every chunk is split into one piece per thread
 * at line ends and parse() runs on the pieces in parallel. Each piece knows the file
 * line and the record number (format-defined, e.g. METIS node index) it starts at. */

#define IO_MSG 320

struct io_piece {
	const char *p, *end;
	uint64_t first_line;   /* 1-based file line of p */
	uint64_t first_record; /* records before p (format's count()) */
	uint64_t lines, records;
	struct ordo_edge_chain chain;
	uint64_t cnt[4];   /* format-defined counters, summed by the driver */
	uint64_t err_line; /* 0 = no error; else file line */
	int err_code;
	char err[IO_MSG];
};

struct io_text_fmt {
	/* Consumes one header line [p, e) (e excludes '\n'). Returns 1 when that line was
	 * consumed and the header continues, 0 when the header is complete *before* this
	 * line (which is then parsed as data), a negative ORDO_E* code on error (msg
	 * filled). Called once more with p = e = NULL at end of input while the header is
	 * still open. */
	int (*header)(void *st, const char *p, const char *e, uint64_t line, char *msg);
	/* Counts lines and records of a piece (NULL: records = lines). */
	void (*count)(void *st, struct io_piece *pc);
	/* Parses a piece; on error fills err_line/err_code/err and stops. */
	void (*parse)(void *st, struct io_piece *pc);
	bool weighted_chain; /* pieces collect arcs with weights */
	bool collects_arcs;  /* pieces produce arcs (false for coordinates) */
};

struct io_text_result {
	struct ordo_edge_chain arcs;
	uint64_t lines, records, cnt[4];
	uint64_t text_bytes;
};

/* Runs the driver over an open input. `weighted` of the result chain may be decided by
 * the header (fmt->weighted_chain is read after the header is complete). */
int io_text_run(struct io_in *in, const char *path, struct io_text_fmt *fmt, void *st, int threads,
                const struct ordo_load_opts *opts, struct io_text_result *res,
                struct ordo_err *err);

/* ---- tokens ---- */
static inline const char *io_skip_ws(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\t' || *p == '\r'))
		p++;
	return p;
}

/* Unsigned decimal. Returns 0 on success, -1 when no digit is there, -2 on overflow of
 * 64 bits; *pp advances past the digits. A '-' is reported as -3 (negative). */
static inline int io_parse_u64(const char **pp, const char *e, uint64_t *v)
{
	const char *p = *pp;
	if (p < e && *p == '-')
		return -3;
	if (p < e && *p == '+')
		p++;
	if (p >= e || (unsigned)(*p - '0') > 9)
		return -1;
	uint64_t x = 0;
	while (p < e && (unsigned)(*p - '0') <= 9) {
		uint64_t d = (uint64_t)(*p - '0');
		if (x > (UINT64_MAX - d) / 10)
			return -2;
		x = x * 10 + d;
		p++;
	}
	/* a number glued to letters ("12ab") is not a number */
	if (p < e && !(*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
		return -1;
	*pp = p;
	*v = x;
	return 0;
}

/* Writes v in decimal at s (at most 20 bytes); returns the end. */
static inline char *io_put_u64(char *s, uint64_t v)
{
	char tmp[24];
	int k = 0;
	do {
		tmp[k++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (k)
		*s++ = tmp[--k];
	return s;
}

/* Signed decimal floating-point field (strtod semantics on a bounded token). */
int io_parse_double(const char **pp, const char *e, double *v);

/* Describes the token at p for messages: "'abc'" (sanitised, at most 24 chars) or
 * "end of line". */
void io_token(const char *p, const char *e, char *buf, size_t cap);

/* Line end from p (pointer to '\n' or e). */
static inline const char *io_eol(const char *p, const char *e)
{
	const char *q = memchr(p, '\n', (size_t)(e - p));
	return q ? q : e;
}

/* True when [p, e) holds only spaces, tabs and '\r'. */
static inline bool io_blank(const char *p, const char *e)
{
	return io_skip_ws(p, e) == e;
}

/* count() helper: lines of the piece, and records = lines that do not start (after
 * blanks) with one of `comments`; blank lines are records when blank_is_record. */
void io_count_records(struct io_piece *pc, const char *comments, bool blank_is_record);

/* Fills pc->err* (first error of a piece wins). Returns false so parsers can
 * `return io_fail(...)`. */
bool io_fail(struct io_piece *pc, uint64_t line, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Parses one whitespace-separated unsigned field named `what` (e.g. "node id") into
 * *v, requiring lo <= *v <= hi; on failure records `expected <what> ..., found ...` in
 * pc (ERANGE for values out of [lo, hi], EFORMAT otherwise) and returns false. */
bool io_field_fail(struct io_piece *pc, uint64_t line, const char **q, const char *e,
                   const char *what, uint64_t lo, uint64_t hi, uint64_t *v);
static inline bool io_field(struct io_piece *pc, uint64_t line, const char **q, const char *e,
                            const char *what, uint64_t lo, uint64_t hi, uint64_t *v)
{
	const char *s = io_skip_ws(*q, e);
	uint64_t x = 0;
	int r = io_parse_u64(&s, e, &x);
	if (__builtin_expect(r == 0 && x >= lo && x <= hi, 1)) {
		*q = s;
		*v = x;
		return true;
	}
	return io_field_fail(pc, line, q, e, what, lo, hi, v);
}
/* The rest of the line from *q must be blank; else records "expected end of line after
 * <after>, found ..." and returns false. */
bool io_line_end(struct io_piece *pc, uint64_t line, const char *q, const char *e,
                 const char *after);
/* Same checks for header lines: 0 or a negative code with msg filled. */
int io_hfield(const char **q, const char *e, const char *what, uint64_t lo, uint64_t hi,
              uint64_t *v, char *msg);

/* ---- checksum (64-bit, 4 lanes; used by the native format) ---- */
uint64_t io_checksum(const void *data, uint64_t len, uint64_t seed);

/* ---- output ---- */
struct io_out;
/* Creates "<path>.tmp.XXXXXX" beside path; zstd-compresses what is written when
 * compress_level > 0. */
int io_out_open(const char *path, int compress_level, struct io_out **out, struct ordo_err *err);
/* A text output: zstd-compressed when o->compress or the name ends in .zst (level
 * o->zstd_level, default 3). */
int io_text_out_open(const char *path, const struct ordo_save_opts *o, struct io_out **out,
                     struct ordo_err *err);
int io_out_write(struct io_out *o, const void *buf, uint64_t len, struct ordo_err *err);
/* Flushes, fsyncs and renames onto the final path (commit) or unlinks the temporary
 * file (!commit). Frees o. */
int io_out_close(struct io_out *o, bool commit, struct ordo_err *err);
FILE *io_out_stdio(struct io_out *o);
int io_out_fd(struct io_out *o);

/* ---- the format table (ordo_formats.h) ----
 * A format's file defines one `const struct io_format` naming its reader and writer.
 * Readers come in three kinds; a format has exactly one:
 *   read_arcs   text formats: the arcs, in file order, into a chain; load() builds the
 *               graph from it with every build option (symmetrise, dedup, weights);
 *   read_graph  binary formats holding a CSR: a whole graph (load() rebuilds it from its
 *               arcs only when a build option asks for it);
 *   read_coords coordinate files: into an existing graph. */
struct io_arcs {
	struct ordo_edge_chain chain;
	uint64_t n;     /* nodes the file declares; 0: largest id + 1 */
	bool symmetric; /* the file declared the graph undirected and listed each edge
	                   once: load() symmetrises and marks the graph symmetric */
	/* the file says it lists both arcs of every edge (ordo's own writers mark a
	 * symmetric graph so): load() marks the graph symmetric when its arcs match
	 * their reverses (checked), so it reads back as it was written */
	bool both_ways;
	uint32_t *ids; /* --compact-ids: the input id of each compacted node, or NULL */
};

/* The header line ordo's DIMACS and edge-list writers add for a symmetric graph (the
 * edge list's ends its "# written by ordo: ..." line with IO_SYM_WORD). */
#define IO_SYM_DIMACS "c written by ordo: symmetric (every arc has its reverse)"
#define IO_SYM_WORD   ", symmetric"

struct io_format {
	struct ordo_format_info info;
	/* Content test on the first bytes of the file (up to 64 KiB, after zstd
	 * decompression when `compressed`); file_bytes is its size on disk. NULL: the
	 * format is recognised by the shared text heuristics of load.c (or not at all). */
	bool (*sniff)(const unsigned char *buf, uint64_t len, uint64_t file_bytes, bool compressed);
	int (*read_arcs)(struct io_in *in, const char *path, const struct ordo_load_opts *o,
	                 struct io_arcs *out, struct ordo_load_info *info, struct ordo_err *err);
	/* Reads a whole graph from `in`, the loader's one open of the input (at its start;
	 * a reader that needs offsets or a mapping checks io_in_regular) */
	int (*read_graph)(struct io_in *in, const char *path, const struct ordo_load_opts *o,
	                  struct ordo_graph **out, struct ordo_load_info *info,
	                  struct ordo_err *err);
	int (*read_coords)(struct io_in *in, const char *path, struct ordo_graph *g, int threads,
	                   struct ordo_err *err);
	/* Writes g (a plain graph unless writes_compressed) atomically (io_out). */
	int (*write)(const char *path, int fmt, const struct ordo_graph *g,
	             const struct ordo_save_opts *o, struct ordo_err *err);
	bool writes_compressed; /* write() takes a compressed graph as it is */
};

#define ORDO_FORMAT(ID, descriptor) extern const struct io_format descriptor;
#include "ordo_formats.h"
#undef ORDO_FORMAT

/* The descriptor of a format id, NULL when out of range or AUTO. */
const struct io_format *io_format(int fmt);

/* Shared by the line-based writers (dimacs, co, metis, xyz, edgelist, mtx): write.c. */
int io_write_text(const char *path, int fmt, const struct ordo_graph *g,
                  const struct ordo_save_opts *o, struct ordo_err *err);
/* Reads exactly len bytes (at byte offset `at`, for the message) or fails naming `what`
 * ("truncated file"). */
int io_read_exact(struct io_in *in, const char *path, void *buf, uint64_t len, uint64_t at,
                  const char *what, struct ordo_err *err);
/* Fails unless the input is at its end (`at`: the byte offset, for the message). */
int io_expect_end(struct io_in *in, const char *path, uint64_t at, struct ordo_err *err);
/* True when path's name ends in ".ext" or ".ext.zst" (case-insensitive). */
bool io_has_ext(const char *path, const char *ext);

/* Recomputes every checksum of a native file's bytes in place (frames that can be read,
 * each section's frame-table sum, the section table's, the header's), so that a forged
 * file reaches the checks behind them: for tests and the fuzzer. */
void io_native_reseal(unsigned char *bytes, size_t len);

/* ids.c: remaps the ids of an edge chain densely (in increasing order of the old id;
 * *n_out the new count), writing "new old" lines to map_path when not NULL; *ids_out
 * (malloc'd, n entries) the old ids in order, NULL when they were 0..n-1 already; and
 * writes a renumbered graph's "new old" id pairs (what --id-map writes without
 * --compact-ids). */
int io_compact_ids(struct ordo_edge_chain *c, uint64_t *n_out, uint32_t **ids_out,
                   const char *map_path, const char *path, struct ordo_err *err);
int io_write_order_map(const struct ordo_graph *g, const char *path, const char *map_path,
                       struct ordo_err *err);

/* Refuses sizes a header declares that cannot fit in memory: ERANGE (bad input, exit
 * status 2) with a message naming `what`. io_header_memory fills a header message. */
int io_check_memory(const char *path, const char *what, uint64_t bytes, struct ordo_err *err);
int io_header_memory(const char *what, uint64_t bytes, char *msg);
/* "812 bytes", "3.4 KiB", "1.2 GiB": a size in the unit that shows it. */
void io_bytes_text(char *buf, size_t cap, uint64_t bytes);
/* Sets this thread's memory budget for headers (0 = physical memory); returns the old. */
uint64_t io_set_budget(uint64_t bytes);

#endif
