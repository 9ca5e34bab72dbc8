/* native_write.c - writing ordo's binary format (native.h has the layout): sections
 * cut into frames, compressed in parallel, written in order with their checksums. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <omp.h>
#include <zstd.h>

#include "native.h"

static int pwrite_all(int fd, const void *buf, uint64_t len, uint64_t at, const char *path,
                      struct ordo_err *err)
{
	const char *p = buf;
	while (len) {
		ssize_t w = pwrite(fd, p, len, (off_t)at);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return ordo_err_set(err, ORDO_EIO, "%s: write failed: %s", path,
			                    strerror(errno));
		}
		p += w;
		at += (uint64_t)w;
		len -= (uint64_t)w;
	}
	return 0;
}

/* A frame to write: its section and index, its bytes (buf once compressed, or src
 * when raw), where in the file. */
struct job {
	int sec;
	uint64_t idx;
	void *buf;
	const void *src;
	uint64_t stored, sum, at;
	uint32_t codec;
};

/* The sections g is written as (deg: a plain graph's degrees, filled by the caller;
 * NULL for a mappable file, which holds the offsets instead). */
static int list_sections(const struct ordo_graph *g, uint64_t *deg, struct sec *s)
{
	int ns = 0;
	if (g->cz) {
		/* the index as it is in memory: loading puts it in place and checks it */
		s[ns++] = (struct sec){
		    .kind = S_CBLK, .raw = 8 * ((uint64_t)g->n / 16 + 1), .data = g->cz_blk};
		s[ns++] =
		    (struct sec){.kind = S_CREL, .raw = (uint64_t)g->n + 1, .data = g->cz_rel};
		s[ns++] = (struct sec){.kind = S_CBYTES, .raw = g->cz_bytes, .data = g->cz};
	} else {
		s[ns++] = deg ? (struct sec){.kind = S_DEG, .raw = 8ull * g->n, .data = deg}
		              : (struct sec){.kind = S_OFF, .raw = 8ull * g->n + 8, .data = g->off};
		s[ns++] = (struct sec){.kind = S_DST, .raw = 4 * g->m, .data = g->dst};
		if (g->w)
			s[ns++] = (struct sec){.kind = S_W, .raw = 4 * g->m, .data = g->w};
	}
	if (g->coord_kind != ORDO_COORD_NONE)
		s[ns++] =
		    (struct sec){.kind = S_COORD,
		                 .raw = 2ull * g->n * (g->coord_kind == ORDO_COORD_INT32 ? 4 : 8),
		                 .data = g->coord};
	if (g->orig_id)
		s[ns++] = (struct sec){.kind = S_ORIG, .raw = 4ull * g->n, .data = g->orig_id};
	for (int i = 0; i < ns; i++)
		s[i].nframes = (s[i].raw + BLOCK - 1) / BLOCK;
	return ns;
}

/* Every frame checksummed and zstd-compressed in parallel (kept raw where zstd does not
 * shrink it, or always with level 0: a mappable file); false when out of memory. */
static bool compress_frames(const struct sec *s, struct job *jobs, uint64_t nfr, int T, int level)
{
	bool oom = false;
#pragma omp parallel num_threads(T) reduction(|| : oom)
	{
		ZSTD_CCtx *cc = ZSTD_createCCtx();
		oom = !cc;
		if (cc)
			ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, level);
#pragma omp for schedule(dynamic, 1)
		for (uint64_t j = 0; j < nfr; j++) {
			if (oom)
				continue;
			struct job *jb = &jobs[j];
			const struct sec *sc = &s[jb->sec];
			const char *src = (const char *)sc->data + jb->idx * BLOCK;
			const uint64_t len = frame_len(sc->raw, jb->idx, BLOCK);
			jb->sum = io_checksum(src, len, sc->kind);
			if (level == 0) {
				jb->src = src, jb->stored = len, jb->codec = 0;
				continue;
			}
			size_t cap = ZSTD_compressBound(len);
			jb->buf = malloc(cap);
			if (!jb->buf) {
				oom = true;
				continue;
			}
			size_t z = ZSTD_compress2(cc, jb->buf, cap, src, len);
			if (ZSTD_isError(z) || z >= len) {
				free(jb->buf);
				jb->buf = NULL;
				jb->src = src, jb->stored = len, jb->codec = 0;
			} else {
				jb->src = jb->buf;
				jb->stored = z;
				jb->codec = 1;
			}
		}
		ZSTD_freeCCtx(cc);
	}
	return !oom;
}

/* The header, the section table and the frame tables into mb (meta bytes), the frames
 * to follow in order from byte meta (jobs[].at: each section from a 64-byte boundary, and
 * the node data followed by zero padding, in a mappable file); returns the file's size. */
static uint64_t fill_meta(unsigned char *mb, uint64_t meta, const struct ordo_graph *g,
                          struct sec *s, int ns, struct job *jobs, bool mappable)
{
	const bool cz = g->cz != NULL;
	memcpy(mb, MAGIC, 8);
	put32(mb + 8, mappable ? VERSION_MAP : cz ? VERSION_CZ : VERSION);
	put32(mb + 12, (ordo_graph_weighted(g) ? F_WEIGHTED : 0) |
	                   ((g->flags & ORDO_GRAPH_SYMMETRIC) ? F_SYMMETRIC : 0) |
	                   (g->coord_kind ? F_COORDS : 0) | (cz ? F_CZ : 0) |
	                   (g->orig_id ? F_IDS : 0));
	if (cz)
		put64(mb + 80, g->cz_wbase | (uint64_t)g->cz_flags << 32);
	put64(mb + 16, g->n);
	put64(mb + 24, g->m);
	put32(mb + 32, (uint32_t)ns);
	put32(mb + 36, (uint32_t)g->coord_kind);
	memcpy(mb + 40, g->coord_unit, 31);
	put64(mb + 72, BLOCK);
	put64(mb + 120, io_checksum(mb, 120, 0));
	uint64_t at = meta, ft = HDR + (uint64_t)ns * SEC + 8, k = 0;
	for (int i = 0; i < ns; i++) {
		unsigned char *se = mb + HDR + (uint64_t)i * SEC;
		uint64_t sums = 0;
		s[i].table = ft;
		if (mappable)
			at = (at + MAP_ALIGN - 1) / MAP_ALIGN * MAP_ALIGN;
		for (uint64_t f = 0; f < s[i].nframes; f++, k++) {
			unsigned char *fe = mb + ft + f * FRAME;
			jobs[k].at = at;
			put64(fe, at);
			put32(fe + 8, (uint32_t)jobs[k].stored);
			put32(fe + 12, jobs[k].codec);
			put64(fe + 16, jobs[k].sum);
			sums = io_checksum(&jobs[k].sum, 8, sums);
			at += jobs[k].stored;
		}
		if (mappable && s[i].kind == S_CBYTES)
			at += ORDO_CZ_PAD;
		ft += s[i].nframes * FRAME;
		put32(se, s[i].kind);
		put64(se + 8, s[i].raw);
		put64(se + 16, s[i].nframes);
		put64(se + 24, s[i].table);
		put64(se + 32, sums);
	}
	put64(mb + HDR + (uint64_t)ns * SEC, io_checksum(mb + HDR, (uint64_t)ns * SEC, 0));
	return at;
}

int io_native_write(const char *path, int fmt, const struct ordo_graph *g,
                    const struct ordo_save_opts *o, struct ordo_err *err)
{
	(void)fmt;
	const int T = o && o->threads > 0 ? o->threads : omp_get_max_threads();
	const bool mappable = o && o->mappable, degrees = !g->cz && !mappable;
	const int level = mappable ? 0 : o && o->zstd_level ? o->zstd_level : 3;
	uint64_t *deg = degrees ? malloc(((uint64_t)g->n + 1) * sizeof *deg) : NULL;
	if (degrees && !deg)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	for (uint64_t u = 0; degrees && u < g->n; u++)
		deg[u] = g->off[u + 1] - g->off[u];
	struct sec s[5];
	const int ns = list_sections(g, deg, s);
	uint64_t nfr = 0;
	for (int i = 0; i < ns; i++)
		nfr += s[i].nframes;
	struct job *jobs = calloc(nfr + 1, sizeof *jobs);
	if (!jobs) {
		free(deg);
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	}
	for (uint64_t k = 0, i = 0; i < (uint64_t)ns; i++)
		for (uint64_t f = 0; f < s[i].nframes; f++, k++)
			jobs[k] = (struct job){.sec = (int)i, .idx = f};
	struct io_out *out;
	int rc = io_out_open(path, 0, &out, err);
	if (rc) {
		free(deg), free(jobs);
		return rc;
	}
	const uint64_t meta = HDR + (uint64_t)ns * SEC + 8 + nfr * FRAME;
	/* compress in parallel, then write sequentially in frame order */
	if (!compress_frames(s, jobs, nfr, T, level))
		rc = ordo_err_set(err, ORDO_ENOMEM, "out of memory compressing %s", path);
	unsigned char *mb = calloc(1, meta);
	if (!rc && !mb)
		rc = ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	if (!rc) {
		const uint64_t size = fill_meta(mb, meta, g, s, ns, jobs, mappable);
		const int fd = io_out_fd(out);
		rc = pwrite_all(fd, mb, meta, 0, path, err);
		for (uint64_t j = 0; !rc && j < nfr; j++)
			rc = pwrite_all(fd, jobs[j].src, jobs[j].stored, jobs[j].at, path, err);
		/* the gaps between sections, and the padding after the node data, read zero */
		if (!rc && ftruncate(fd, (off_t)size))
			rc = ordo_err_set(err, ORDO_EIO, "%s: write failed: %s", path,
			                  strerror(errno));
	}
	free(mb);
	free(deg); /* raw degree frames were written from it */
	for (uint64_t j = 0; j < nfr; j++)
		free(jobs[j].buf);
	free(jobs);
	int rc2 = io_out_close(out, rc == 0, err);
	return rc ? rc : rc2;
}
