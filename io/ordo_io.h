/*
 * ordo_io.h - reading and writing graphs.
 *
 * Formats (detected by content - magic bytes or the first non-comment line - before the
 * file name's extension; `.gr` means DIMACS text to some tools and Galois binary to
 * others, and ordo tells them apart by content):
 *   dimacs   DIMACS 9 shortest-path text: `c` comments, `p sp N M`, `a u v w` (1-based)
 *   co       DIMACS 9 coordinates: `p aux sp co N`, `v id x y` (coordinates only)
 *   metis    METIS / DIMACS 10 `.graph`: `%` comments, `n m [fmt [ncon]]`, one adjacency
 *            line per node (1-based; fmt 1 = edge weights, 10 = vertex weights, 11 both)
 *   xyz      one `x y [z]` line per node (coordinates only; METIS companion)
 *   edgelist SNAP / plain: `u v` or `u v w` per line, `#` or `%` comments, 0-based ids
 *            kept as they are (n = max id + 1) or remapped densely (compact_ids)
 *   mtx      Matrix Market coordinate pattern|integer|real, general|symmetric
 *   galois   Galois binary .gr version 1 (read and write)
 *   native   ordo's own binary format (.ordo): zstd-compressed sections in independent
 *            frames, a checksum per frame and per section
 *   ligra    Ligra's AdjacencyGraph / WeightedAdjacencyGraph text (offsets, then targets)
 *   gapbs    GAPBS serialized graphs, .sg (unweighted) and .wsg (weighted)
 * ordo_formats.h is the table; `--input-format help` prints it.
 * Any text format may be zstd-compressed (detected by the zstd magic, any name).
 *
 * Errors are ORDO_E* codes with a message `file:line: expected ..., found ...` (byte
 * offsets for binary formats). Loaders never leave a partial graph; writers write to a
 * temporary file in the destination directory and rename it at the end, so a failure
 * leaves nothing behind. All functions may be called from one thread at a time per
 * graph; they use OpenMP internally.
 */
#ifndef ORDO_IO_H
#define ORDO_IO_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ordo_error.h"
#include "ordo_graph.h"

/* Format ids: ORDO_FMT_DIMACS, ORDO_FMT_CO, ... one per line of ordo_formats.h. */
enum ordo_format {
	ORDO_FMT_AUTO = 0,
#define ORDO_FORMAT(ID, descriptor) ORDO_FMT_##ID,
#include "ordo_formats.h"
#undef ORDO_FORMAT
	ORDO_FMT_COUNT
};

/* What a format is, for option parsing, help and messages. */
enum ordo_format_flags {
	ORDO_FORMAT_GRAPH = 1u << 0,     /* holds a graph (else coordinates only) */
	ORDO_FORMAT_COORDS = 1u << 1,    /* holds node coordinates only */
	ORDO_FORMAT_ONE_BASED = 1u << 2, /* numbers nodes from 1 */
	ORDO_FORMAT_BINARY = 1u << 3,    /* not text (so never zstd-wrapped by ordo) */
	ORDO_FORMAT_RAW_IDS = 1u << 4,   /* ids as they are, n = largest + 1: --compact-ids */
	ORDO_FORMAT_READ = 1u << 5,      /* ordo reads it */
	ORDO_FORMAT_WRITE = 1u << 6,     /* ordo writes it */
};

struct ordo_format_info {
	const char *name;    /* "dimacs": what --input-format and --to take */
	const char *aliases; /* other names accepted, space-separated ("" if none) */
	const char *exts;    /* extensions that name it, space-separated, no dots */
	const char *summary; /* one line for help */
	unsigned flags;      /* enum ordo_format_flags */
};

/* The table entry of a format id; NULL for ORDO_FMT_AUTO and ids out of range. */
const struct ordo_format_info *ordo_format_info(int fmt);

/* "dimacs", "co", ...; "auto" for ORDO_FMT_AUTO. */
const char *ordo_format_name(int fmt);
/* Inverse of ordo_format_name (aliases too); -1 when unknown. */
int ordo_format_from_name(const char *name);
/* Writes the names of the formats having every flag of `flags`, space-separated, into
 * buf (for messages); returns buf. */
char *ordo_format_names(unsigned flags, char *buf, size_t cap);
/* Prints the format table (name, extensions, summary) of the formats having every flag
 * of `flags`: what `--input-format help` and `ordo-convert --to help` show. */
void ordo_format_print_table(FILE *f, unsigned flags);

enum ordo_mtx_real { ORDO_MTX_REAL_REJECT = 0, ORDO_MTX_REAL_ROUND, ORDO_MTX_REAL_SCALE };

struct ordo_load_opts {
	int format;                   /* ORDO_FMT_AUTO: detect */
	struct ordo_build_opts build; /* symmetrize, dedup, self-loops, random weights */
	const char *coords;           /* optional .co / .xyz file for the graph's nodes */
	/* A DIMACS .gr loads the coordinates of its sibling .co (same name, .co or .co.zst;
	 * what ordo-convert writes beside it) when coords is NULL; true skips that. */
	bool no_sibling_coords;
	bool weights_from_coords; /* weights = rounded Euclidean length (needs coords) */
	bool compact_ids;         /* edge lists: remap ids densely in order of value (EINVAL for
	                             other formats) */
	/* Write "new old" id lines here: with compact_ids, the compaction; otherwise the
	 * node order of a renumbered graph (reorder, or a renumbered native file). */
	const char *id_map_out;
	int mtx_real;     /* enum ordo_mtx_real (Matrix Market only: EINVAL for others) */
	double mtx_scale; /* weight = round(value * scale) with ORDO_MTX_REAL_SCALE */
	int threads;      /* 0 = OpenMP default */
	/* With build.compress: hold the arcs read (packed) in an unlinked temporary file
	 * in this directory rather than in memory, so that peak memory is about the
	 * compressed graph plus one partition per thread. NULL: in memory. */
	const char *spill_dir;
	/* A mappable native file (ordo-convert --mappable) is mapped, not read, and its
	 * structure checked; true also verifies its frame checksums (reading every page).
	 * Other native files verify theirs always. */
	bool verify_mapped;
	/* Renumber the nodes in this order (enum ordo_order) once loaded; the graph keeps
	 * the input's ids (ordo_graph_orig_of), and so does a native file written from it.
	 * A compressed build is then made from the renumbered plain graph. */
	int reorder;
	/* Bytes the graph a header declares may need; a header asking for more is refused
	 * (ERANGE, with the figure) before anything is allocated. 0 = this machine's
	 * physical memory. Fuzzing sets it low, so a legal but huge header fails fast. */
	uint64_t mem_budget;
	/* Called now and then while reading (done/total in file bytes), from the calling
	 * thread only; may be NULL. */
	void (*progress)(void *user, const char *path, uint64_t done, uint64_t total);
	void *progress_user;
};

/* Defaults: auto format, remove self-loops, random weights 1..255 seed 1 off. */
void ordo_load_opts_init(struct ordo_load_opts *o);

struct ordo_load_info {
	int format;           /* detected or forced */
	bool compressed;      /* zstd-compressed text */
	uint64_t file_bytes;  /* bytes in the file */
	uint64_t text_bytes;  /* decompressed bytes parsed (text formats) */
	double seconds;       /* whole load */
	double parse_seconds; /* reading + parsing into arc blocks (text formats) */
	double build_seconds; /* arc blocks -> CSR */
	struct ordo_build_stats build;
	char notes[512]; /* human-readable remarks ("weights from coordinates", ...) */
};

/* Loads `path` into a new graph, prepared as opts asks (ordo_graph_prepare: rebuilt,
 * weighed, renumbered, compressed). On error *out is NULL and nothing is leaked. */
int ordo_load(const char *path, const struct ordo_load_opts *opts, struct ordo_graph **out,
              struct ordo_load_info *info, struct ordo_err *err);
/* The same for a generated graph (an ordo-gen spec; its resolved form into resolved):
 * the build options, weights from coordinates, reorder, compress (straight into the
 * compressed form when nothing else is asked, with the spill directory) apply; options
 * for files (coords, compact_ids, mtx_real, id_map_out, a format) are EINVAL. */
int ordo_load_gen(const char *spec, const struct ordo_load_opts *opts, struct ordo_graph **out,
                  char *resolved, size_t cap, struct ordo_load_info *info, struct ordo_err *err);

/* Reads coordinates (co or xyz, detected) for the n nodes of g into g. */
int ordo_load_coords(const char *path, struct ordo_graph *g, int threads, struct ordo_err *err);

/* The sibling coordinate file of a DIMACS graph path: "x.gr" -> "x.co", "x.gr.zst" ->
 * "x.co.zst" (any extension is replaced; none: appended). False if it does not fit. */
bool ordo_sibling_co(const char *gr_path, char *buf, size_t cap);

/* Detects the format of `path` from its content (and its name only where the content
 * is ambiguous). */
int ordo_detect_format(const char *path, int *fmt, bool *compressed, struct ordo_err *err);

struct ordo_save_opts {
	int zstd_level; /* native sections and .zst text outputs; default 3 */
	int threads;    /* 0 = OpenMP default */
	bool compress;  /* text outputs: zstd-compress (default: when name ends in .zst) */
	/* native outputs: a mappable file (stored as held in memory, uncompressed; loads by
	 * mmap with no copy, shared by every process through the page cache) */
	bool mappable;
};
void ordo_save_opts_init(struct ordo_save_opts *o);

/* Writes g to `path` in `format` (any with ORDO_FORMAT_WRITE; AUTO picks from the
 * extension, see ordo_format_of_extension; an unknown one means an edge list).
 * Atomic: temporary file + rename. */
int ordo_save(const char *path, int format, const struct ordo_graph *g,
              const struct ordo_save_opts *opts, struct ordo_err *err);

/* Removes the temporary files of the outputs being written right now; async-signal-
 * safe, for a program's SIGINT/SIGTERM handler (ordo_save renames its temporary file
 * only when complete, so an interrupted save otherwise leaves `OUT.tmp.XXXXXX`). */
void ordo_io_remove_pending(void);

/* Format the extension of `path` suggests for writing (see ordo_save); an extension
 * not known is taken for an edge list. */
int ordo_format_for_output(const char *path);
/* The format an extension names (a .zst suffix aside), from the table's `exts`: .gr
 * dimacs, .co, .graph/.metis, .mtx, .ordo, .xyz, .ggr/.sgr/.tgr galois, .adj ligra,
 * .sg/.wsg gapbs, .txt/.el/.wel/.edges/.edgelist/.tsv edge lists; -1 for any other. */
int ordo_format_of_extension(const char *path);

#endif
