/* native.c - reading ordo's binary format (native.h has the layout): header and
 * section table checked, frames decompressed in parallel straight into place and their
 * checksums verified, a compressed CSR validated before use; and the format's entry in
 * the table. Errors name the byte offset. Writing: native_write.c. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <omp.h>
#include <zstd.h>

#include "native.h"

static int pread_all(int fd, void *buf, uint64_t len, uint64_t at, const char *path,
                     struct ordo_err *err)
{
	char *p = buf;
	uint64_t start = at;
	while (len) {
		ssize_t r = pread(fd, p, len, (off_t)at);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return ordo_err_set(err, ORDO_EIO, "%s: read error at byte %llu: %s", path,
			                    (unsigned long long)at, strerror(errno));
		}
		if (r == 0)
			return ordo_err_set(err, ORDO_EFORMAT,
			                    "%s: byte %llu: file ends inside data that starts at "
			                    "byte %llu (truncated)",
			                    path, (unsigned long long)at,
			                    (unsigned long long)start);
		p += r;
		at += (uint64_t)r;
		len -= (uint64_t)r;
	}
	return 0;
}

/* What the header says, checked for plausibility. */
struct head {
	uint32_t flags, ns, ck; /* flags, sections, coordinate kind */
	uint64_t n, m, block, czp;
	bool cz, map; /* compressed CSR; a mappable file (version 3) */
};

/* A frame to decode: its section, index in it, where it is, how it is stored. */
struct fj {
	int sec;
	uint64_t idx, off, sum, entry;
	uint32_t stored, codec;
};

/* Step 1: the 128-byte header: magic, version, checksum, plausible sizes. */
static int read_head(int fd, const char *path, struct head *hd, unsigned char *h,
                     struct ordo_err *err)
{
	int rc = pread_all(fd, h, HDR, 0, path, err);
	if (rc)
		return rc;
	if (memcmp(h, MAGIC, 8))
		return ordo_err_set(err, ORDO_EFORMAT, "%s: byte 0: expected magic 'ORDOGRPH'",
		                    path);
	const uint32_t version = get32(h + 8);
	if (version != VERSION && version != VERSION_CZ && version != VERSION_MAP)
		return ordo_err_set(err, ORDO_EUNSUPPORTED,
		                    "%s: byte 8: expected format version %d, %d or %d, found %u",
		                    path, VERSION, VERSION_CZ, VERSION_MAP, version);
	if (get64(h + 120) != io_checksum(h, 120, 0))
		return ordo_err_set(err, ORDO_ECHECKSUM, "%s: byte 120: header checksum mismatch",
		                    path);
	*hd = (struct head){.flags = get32(h + 12),
	                    .ns = get32(h + 32),
	                    .ck = get32(h + 36),
	                    .n = get64(h + 16),
	                    .m = get64(h + 24),
	                    .block = get64(h + 72),
	                    .czp = get64(h + 80)};
	hd->cz = hd->flags & F_CZ;
	hd->map = version == VERSION_MAP;
	for (int r = 88; hd->map && r < 120; r++)
		if (h[r])
			return ordo_err_set(err, ORDO_EFORMAT,
			                    "%s: byte %d: expected the reserved words zero", path,
			                    r);
	if (hd->n > ORDO_MAX_NODES || hd->m > (1ull << 40) || hd->ns > 5 || hd->ns < 2 ||
	    hd->ck > 2 || hd->block == 0 || hd->block > (1u << 30) || (hd->flags & ~31u) ||
	    (!hd->map && hd->cz != (version == VERSION_CZ)) ||
	    (hd->cz ? ((hd->czp >> 32) & 1) != (hd->flags & F_WEIGHTED) || (hd->czp >> 34)
	            : hd->czp != 0))
		return ordo_err_set(err, ORDO_EFORMAT,
		                    "%s: byte 12: implausible header (n=%llu, m=%llu, %u sections, "
		                    "flags %#x)",
		                    path, (unsigned long long)hd->n, (unsigned long long)hd->m,
		                    hd->ns, hd->flags);
	return 0;
}

/* Step 2: the section table (*meta, ns entries and their checksum). */
static int read_table(int fd, const char *path, const struct head *hd, unsigned char **meta,
                      struct ordo_err *err)
{
	const uint64_t tbl = (uint64_t)hd->ns * SEC + 8;
	if (!(*meta = malloc(tbl)))
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	int rc = pread_all(fd, *meta, tbl, HDR, path, err);
	if (!rc && get64(*meta + hd->ns * SEC) != io_checksum(*meta, (uint64_t)hd->ns * SEC, 0))
		rc = ordo_err_set(err, ORDO_ECHECKSUM,
		                  "%s: byte %d: section table checksum mismatch", path, HDR);
	return rc;
}

/* Step 3: the graph the header describes, allocated (within the memory budget), with
 * room for coordinates and, for a renumbered graph, its input ids (*ids); for a
 * mappable file without arrays, which will point into the file (map_file). */
static int alloc_graph(const char *path, const struct head *hd, const unsigned char *h,
                       const unsigned char *meta, uint64_t *czbytes, struct ordo_graph **out,
                       uint32_t **ids, struct ordo_err *err)
{
	const uint64_t n = hd->n, m = hd->m;
	*czbytes = 0; /* a compressed graph's node data: its section's size */
	for (uint32_t i = 0; hd->cz && i < hd->ns; i++)
		if (get32(meta + (uint64_t)i * SEC) == S_CBYTES)
			*czbytes = get64(meta + (uint64_t)i * SEC + 8);
	struct ordo_graph *g;
	int rc = 0;
	if (hd->map) {
		if (!(g = ordo_graph_new()))
			return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
		g->n = (uint32_t)n;
		g->m = m;
		if (hd->cz) {
			g->cz_bytes = *czbytes;
			g->cz_wbase = (uint32_t)hd->czp;
			g->cz_flags = (uint32_t)(hd->czp >> 32);
		}
	} else {
		const uint64_t coords = (hd->flags & F_COORDS) ? 16 * n : 0;
		uint64_t need =
		    hd->cz ? *czbytes + 8 + 2 * n + 16 + coords
		           : 8 * (n + 1) + 4 * m + ((hd->flags & F_WEIGHTED) ? 4 * m : 0) + coords;
		need += (hd->flags & F_IDS) ? 8 * n : 0; /* input ids and their inverse */
		if ((rc = io_check_memory(path, "the graph", need, err)))
			return rc;
		rc = hd->cz
		         ? ordo_graph_alloc_cz((uint32_t)n, m, *czbytes, (uint32_t)(hd->czp >> 32),
		                               (uint32_t)hd->czp, &g, err)
		         : ordo_graph_alloc((uint32_t)n, m, hd->flags & F_WEIGHTED, &g, err);
		if (rc)
			return rc;
	}
	*out = g;
	if (hd->flags & F_SYMMETRIC)
		g->flags |= ORDO_GRAPH_SYMMETRIC;
	if (hd->flags & F_COORDS) {
		if (hd->ck == ORDO_COORD_NONE)
			return ordo_err_set(err, ORDO_EFORMAT,
			                    "%s: byte 36: coordinates without a kind", path);
		if (hd->map)
			g->coord_kind = (int)hd->ck;
		else if ((rc = ordo_graph_alloc_coords(g, (int)hd->ck, err)))
			return rc;
		memcpy(g->coord_unit, h + 40, 31);
		g->coord_unit[31] = 0;
	}
	if (!hd->map && (hd->flags & F_IDS) && !(*ids = malloc((n + 1) * sizeof **ids)))
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	return 0;
}

/* Step 4: each section entry checked against the header and given its destination
 * array in g; *nfr: the frames of all sections. */
static int map_sections(const char *path, const struct head *hd, const unsigned char *meta,
                        uint64_t czbytes, uint64_t fsize, struct ordo_graph *g, uint32_t *ids,
                        struct sec *s, uint64_t *nfr, struct ordo_err *err)
{
	const uint64_t n = hd->n, m = hd->m, block = hd->block;
	bool seen[S_KINDS] = {0};
	*nfr = 0;
	for (uint32_t i = 0; i < hd->ns; i++) {
		const unsigned char *se = meta + (uint64_t)i * SEC;
		s[i].kind = get32(se);
		s[i].raw = get64(se + 8);
		s[i].nframes = get64(se + 16);
		s[i].table = get64(se + 24);
		s[i].sum = get64(se + 32);
		uint64_t want = UINT64_MAX, at = HDR + (uint64_t)i * SEC;
		/* the kind indexes seen[] and picks the destination: refuse an unknown one
		 * before it is used for anything (a forged kind near 2^32 must not wrap onto
		 * a real one) */
		if (s[i].kind == 0 || s[i].kind >= S_KINDS)
			return ordo_err_set(
			    err, ORDO_EFORMAT,
			    "%s: byte %llu: section %u has unknown kind %u (expected "
			    "1 to %d)",
			    path, (unsigned long long)at, i, s[i].kind, S_KINDS - 1);
		const bool cz_kind = hd->cz && s[i].kind != S_COORD && s[i].kind != S_ORIG;
		switch (cz_kind ? s[i].kind + 100 : s[i].kind) {
		case S_CBLK + 100:
			s[i].data = g->cz_blk, want = 8 * (n / 16 + 1);
			break;
		case S_CREL + 100:
			s[i].data = g->cz_rel, want = n + 1;
			break;
		case S_CBYTES + 100:
			s[i].data = g->cz, want = czbytes;
			break;
		case S_DEG:
			if (!hd->map)
				s[i].data = g->off + 1, want = 8 * n;
			break;
		case S_OFF: /* placed by map_file */
			if (hd->map)
				want = 8 * (n + 1);
			break;
		case S_DST:
			s[i].data = g->dst, want = 4 * m;
			break;
		case S_W:
			s[i].data = g->w, want = (hd->flags & F_WEIGHTED) ? 4 * m : UINT64_MAX;
			break;
		case S_COORD:
			s[i].data = g->coord,
			want = (hd->flags & F_COORDS) ? 2 * n * (hd->ck == ORDO_COORD_INT32 ? 4 : 8)
			                              : UINT64_MAX;
			break;
		case S_ORIG:
			s[i].data = ids, want = (hd->flags & F_IDS) ? 4 * n : UINT64_MAX;
			break;
		default: /* a kind of the other layout (plain vs compressed) */
			break;
		}
		if (want == UINT64_MAX || seen[s[i].kind] || s[i].raw != want ||
		    s[i].nframes != (want + block - 1) / block || s[i].table > fsize ||
		    s[i].nframes * FRAME > fsize - s[i].table)
			return ordo_err_set(
			    err, ORDO_EFORMAT,
			    "%s: byte %llu: section %u (kind %u, %llu bytes in %llu "
			    "frames) does not match the header",
			    path, (unsigned long long)at, i, s[i].kind,
			    (unsigned long long)s[i].raw, (unsigned long long)s[i].nframes);
		seen[s[i].kind] = true;
		*nfr += s[i].nframes;
	}
	const uint32_t f = hd->flags;
	if ((hd->cz ? !seen[S_CBLK] || !seen[S_CREL] || !seen[S_CBYTES]
	            : !seen[hd->map ? S_OFF : S_DEG] || !seen[S_DST] ||
	                  ((f & F_WEIGHTED) && !seen[S_W])) ||
	    ((f & F_COORDS) && !seen[S_COORD]) || ((f & F_IDS) && !seen[S_ORIG]))
		return ordo_err_set(err, ORDO_EFORMAT,
		                    "%s: byte %d: a section the header promises is missing", path,
		                    HDR);
	return 0;
}

/* Step 5: every section's frame table, checked (codec, bounds, the table's checksum),
 * into fr[]. */
static int read_frames(int fd, const char *path, const struct head *hd, const struct sec *s,
                       uint64_t fsize, struct fj *fr, struct ordo_err *err)
{
	unsigned char *ft = NULL;
	uint64_t k = 0;
	int rc = 0;
	for (uint32_t i = 0; i < hd->ns && !rc; i++) {
		uint64_t len = s[i].nframes * FRAME, sums = 0;
		unsigned char *grown = realloc(ft, len ? len : 1);
		if (!grown) { /* ft is still ours: freed below */
			rc = ordo_err_set(err, ORDO_ENOMEM, "out of memory");
			break;
		}
		ft = grown;
		rc = pread_all(fd, ft, len, s[i].table, path, err);
		for (uint64_t f = 0; !rc && f < s[i].nframes; f++, k++) {
			const unsigned char *fe = ft + f * FRAME;
			fr[k] = (struct fj){.sec = (int)i,
			                    .idx = f,
			                    .off = get64(fe),
			                    .stored = get32(fe + 8),
			                    .codec = get32(fe + 12),
			                    .sum = get64(fe + 16),
			                    .entry = s[i].table + f * FRAME};
			sums = io_checksum(&fr[k].sum, 8, sums);
			if (fr[k].codec > 1)
				rc = ordo_err_set(err, ORDO_EFORMAT,
				                  "%s: byte %llu: frame %llu of section %u has the "
				                  "unknown codec %u (0 raw, 1 zstd)",
				                  path, (unsigned long long)fr[k].entry,
				                  (unsigned long long)f, i, fr[k].codec);
			else if (fr[k].off > fsize || fr[k].stored > fsize - fr[k].off)
				/* a cut-short copy, most often; a forged offset reads the same */
				rc = ordo_err_set(
				    err, ORDO_EFORMAT,
				    "%s: byte %llu: frame %llu of section %u spans bytes "
				    "%llu..%llu but the file has %llu (truncated?)",
				    path, (unsigned long long)fr[k].entry, (unsigned long long)f, i,
				    (unsigned long long)fr[k].off,
				    (unsigned long long)fr[k].off + fr[k].stored,
				    (unsigned long long)fsize);
		}
		if (!rc && sums != s[i].sum)
			rc = ordo_err_set(err, ORDO_ECHECKSUM,
			                  "%s: byte %llu: checksum of section %u's frame table "
			                  "mismatch",
			                  path, (unsigned long long)(HDR + (uint64_t)i * SEC + 32),
			                  i);
	}
	free(ft);
	return rc;
}

/* One frame into place (raw or zstd), its checksum checked; 0, or a code with msg. */
static int decode_frame(int fd, const char *path, uint64_t block, const struct fj *f,
                        const struct sec *sc, ZSTD_DCtx *dc, void *buf, char *msg, size_t cap)
{
	char *dst = (char *)sc->data + f->idx * block;
	const uint64_t len = frame_len(sc->raw, f->idx, block);
	struct ordo_err e;
	if (!dc || !buf)
		return snprintf(msg, cap, "out of memory"), ORDO_ENOMEM;
	if (f->codec == 0) {
		if (f->stored != len)
			return snprintf(msg, cap, "raw frame of %u bytes, expected %llu", f->stored,
			                (unsigned long long)len),
			       ORDO_EFORMAT;
		if (pread_all(fd, dst, len, f->off, path, &e))
			return snprintf(msg, cap, "%s", e.msg), e.code;
	} else if (f->stored > ZSTD_compressBound(block)) {
		return snprintf(msg, cap, "compressed frame larger than possible"), ORDO_EFORMAT;
	} else if (pread_all(fd, buf, f->stored, f->off, path, &e)) {
		return snprintf(msg, cap, "%s", e.msg), e.code;
	} else {
		size_t z = ZSTD_decompressDCtx(dc, dst, len, buf, f->stored);
		if (ZSTD_isError(z) || z != len)
			return snprintf(msg, cap, "corrupt zstd frame (%s)",
			                ZSTD_isError(z) ? ZSTD_getErrorName(z) : "wrong size"),
			       ORDO_EFORMAT;
	}
	if (io_checksum(dst, len, sc->kind) != f->sum)
		return snprintf(msg, cap, "checksum mismatch"), ORDO_ECHECKSUM;
	return 0;
}

/* Step 6: every frame decoded in parallel straight into place; the first failing frame
 * (in file order) is the error. */
static int decode_frames(int fd, const char *path, int T, uint64_t block, const struct sec *s,
                         const struct fj *fr, uint64_t nfr, struct ordo_err *err)
{
	uint64_t bad = UINT64_MAX; /* first failing frame */
	int bad_code = 0;
	char bad_msg[256] = "";
#pragma omp parallel num_threads(T)
	{
		ZSTD_DCtx *dc = ZSTD_createDCtx();
		void *buf = malloc(ZSTD_compressBound(block));
#pragma omp for schedule(dynamic, 1)
		for (uint64_t j = 0; j < nfr; j++) {
			char msg[256];
			const int code = decode_frame(fd, path, block, &fr[j], &s[fr[j].sec], dc,
			                              buf, msg, sizeof msg);
			if (code) {
#pragma omp critical(native_bad)
				if (j < bad) {
					bad = j;
					bad_code = code;
					snprintf(bad_msg, sizeof bad_msg, "%s", msg);
				}
			}
		}
		ZSTD_freeDCtx(dc);
		free(buf);
	}
	if (bad == UINT64_MAX)
		return 0;
	return ordo_err_set(err, bad_code, "%s: byte %llu: frame %llu of section %u: %s", path,
	                    (unsigned long long)fr[bad].off, (unsigned long long)fr[bad].idx,
	                    fr[bad].sec, bad_msg);
}

/* The file read-only and shared, from an address aligned to 2 MiB, so that where the
 * page cache holds it in huge pages (a tmpfs mounted with huge=always; a kernel
 * collapsing read-only file pages) they are mapped as such: random reads of a graph
 * through 4 KiB pages cost TLB misses that a private copy in huge pages does not have. */
static void *map_shared(int fd, uint64_t len)
{
	const uint64_t huge = 2u << 20, page = (uint64_t)sysconf(_SC_PAGESIZE);
	if (len < huge)
		return mmap(NULL, len, PROT_READ, MAP_SHARED | MAP_POPULATE, fd, 0);
	char *r =
	    mmap(NULL, len + huge, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (r == MAP_FAILED)
		return r;
	char *a = (char *)(((uintptr_t)r + huge - 1) & ~(uintptr_t)(huge - 1));
	char *end = a + (len + page - 1) / page * page;
	void *p = mmap(a, len, PROT_READ, MAP_SHARED | MAP_FIXED | MAP_POPULATE, fd, 0);
	if (p == MAP_FAILED) {
		munmap(r, len + huge);
		return p;
	}
	if (a > r)
		munmap(r, (size_t)(a - r));
	if (r + len + huge > end)
		munmap(end, (size_t)(r + len + huge - end));
	madvise(p, len, MADV_HUGEPAGE);
	return p;
}

/* Step 6 for a mappable file: the file mapped read-only, each section checked to lie
 * as the graph holds it (raw frames back to back from a 64-byte boundary; the node data
 * followed by zero padding), and g's arrays (and *ids) pointed into it; with verify,
 * every frame's checksum checked. */
static int map_file(int fd, const char *path, const struct head *hd, const struct sec *s,
                    const struct fj *fr, uint64_t fsize, bool verify, int T, struct ordo_graph *g,
                    uint32_t **ids, struct ordo_err *err)
{
	void *p = map_shared(fd, fsize);
	if (p == MAP_FAILED)
		return ordo_err_set(err, ORDO_EIO, "%s: cannot map: %s", path, strerror(errno));
	g->map = p;
	g->map_bytes = fsize;
	const unsigned char *b = p;
	uint64_t k = 0;
	for (uint32_t i = 0; i < hd->ns; k += s[i].nframes, i++) {
		/* an empty section points at the header's reserved words, zero (read_head) */
		const uint64_t base = s[i].nframes ? fr[k].off : 88;
		bool ok = !s[i].nframes || base % MAP_ALIGN == 0;
		for (uint64_t f = 0; ok && f < s[i].nframes; f++)
			ok = fr[k + f].codec == 0 && fr[k + f].off == base + f * hd->block &&
			     fr[k + f].stored == frame_len(s[i].raw, f, hd->block);
		if (!ok)
			return ordo_err_set(err, ORDO_EFORMAT,
			                    "%s: byte %llu: section %u of a mappable file is not "
			                    "stored raw and contiguous from a 64-byte boundary",
			                    path, (unsigned long long)s[i].table, i);
		const void *at = b + base;
		switch (s[i].kind) {
		case S_OFF:
			g->off = (uint64_t *)at;
			break;
		case S_DST:
			g->dst = (uint32_t *)at;
			break;
		case S_W:
			g->w = (uint32_t *)at;
			break;
		case S_COORD:
			g->coord = (void *)at;
			break;
		case S_ORIG:
			*ids = (uint32_t *)at;
			break;
		case S_CBLK:
			g->cz_blk = (uint64_t *)at;
			break;
		case S_CREL:
			g->cz_rel = (uint8_t *)at;
			break;
		case S_CBYTES: {
			/* decoders read up to ORDO_CZ_PAD bytes past the data: they must be zeros
			 * of this file */
			ok = fsize - base - s[i].raw >= ORDO_CZ_PAD || !s[i].nframes;
			for (int z = 0; ok && z < ORDO_CZ_PAD; z++)
				ok = b[base + s[i].raw + z] == 0;
			if (!ok)
				return ordo_err_set(
				    err, ORDO_EFORMAT,
				    "%s: byte %llu: expected %d zero bytes after the node data",
				    path, (unsigned long long)(base + s[i].raw), ORDO_CZ_PAD);
			g->cz = (uint8_t *)at;
			break;
		}
		}
	}
	uint64_t bad = UINT64_MAX;
#pragma omp parallel for num_threads(T) schedule(dynamic, 1) reduction(min : bad)
	for (uint64_t j = 0; j < (verify ? k : 0); j++)
		if (io_checksum(b + fr[j].off, fr[j].stored, s[fr[j].sec].kind) != fr[j].sum &&
		    j < bad)
			bad = j;
	if (bad != UINT64_MAX)
		return ordo_err_set(err, ORDO_ECHECKSUM,
		                    "%s: byte %llu: frame %llu of section %u: checksum mismatch",
		                    path, (unsigned long long)fr[bad].off,
		                    (unsigned long long)fr[bad].idx, fr[bad].sec);
	return 0;
}

/* Step 7 (plain CSR): degrees -> offsets by a two-level parallel prefix sum, each
 * degree checked against m so that a forged section cannot wrap the sums around; then
 * every destination checked to be a node. */
static int plain_offsets(const char *path, int T, struct ordo_graph *g, struct ordo_err *err)
{
	const uint64_t n = g->n, m = g->m;
	uint64_t *off = g->off;
	off[0] = 0;
	uint64_t *part = calloc((size_t)T + 1, sizeof *part);
	bool wrapped = false;
	if (!part)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
#pragma omp parallel num_threads(T) reduction(|| : wrapped)
	{
		int t = omp_get_thread_num(), nt = omp_get_num_threads();
		uint64_t lo = 1 + n * (uint64_t)t / nt, hi = 1 + n * (uint64_t)(t + 1) / nt;
		uint64_t acc = 0;
		for (uint64_t u = lo; u < hi && !wrapped; u++) {
			wrapped = off[u] > m;
			acc += off[u];
			wrapped = wrapped || acc > m;
		}
		part[t + 1] = acc;
#pragma omp barrier
#pragma omp single
		for (int i = 1; i <= nt; i++)
			part[i] = part[i] + part[i - 1] > m ? m + 1 : part[i] + part[i - 1];
		acc = part[t];
		for (uint64_t u = lo; u < hi && !wrapped && acc <= m; u++) {
			acc += off[u];
			off[u] = acc;
		}
		wrapped = wrapped || acc > m;
	}
	free(part);
	if (wrapped || off[n] != m)
		return ordo_err_set(err, ORDO_EFORMAT,
		                    "%s: the degrees section does not sum to the header's m=%llu",
		                    path, (unsigned long long)m);
	uint64_t badarc = UINT64_MAX;
#pragma omp parallel for num_threads(T) reduction(min : badarc)
	for (uint64_t e = 0; e < m; e++)
		if (g->dst[e] >= n && e < badarc)
			badarc = e;
	if (badarc != UINT64_MAX)
		return ordo_err_set(
		    err, ORDO_EFORMAT, "%s: arc %llu points to node %u, not below n=%llu", path,
		    (unsigned long long)badarc, g->dst[badarc], (unsigned long long)n);
	return 0;
}

/* The reader: the steps above in order, then a compressed graph's own check, then the
 * input ids (checked to be a permutation as they are set). */
static int read_native(struct io_in *in, const char *path, const struct ordo_load_opts *opts,
                       struct ordo_graph **out, struct ordo_load_info *info, struct ordo_err *err)
{
	(void)info;
	*out = NULL;
	const int T = opts->threads > 0 ? opts->threads : omp_get_max_threads();
	if (!io_in_regular(in))
		return ordo_err_set(err, ORDO_EUNSUPPORTED,
		                    "%s: an ordo native file from a pipe: its sections are read at "
		                    "their offsets (or mapped); give the file itself",
		                    path);
	const int fd = io_in_fd(in); /* read at offsets: the stream's position is not used */
	struct stat sb;
	fstat(fd, &sb);
	const uint64_t fsize = (uint64_t)sb.st_size;
	unsigned char h[HDR];
	struct head hd = {.ns = 0};
	struct ordo_graph *g = NULL;
	unsigned char *meta = NULL;
	uint32_t *ids = NULL; /* a renumbered graph's input ids */
	struct fj *fr = NULL;
	struct sec s[5];
	uint64_t czbytes = 0, nfr = 0;
	int rc = read_head(fd, path, &hd, h, err);
	if (!rc)
		rc = read_table(fd, path, &hd, &meta, err);
	if (!rc)
		rc = alloc_graph(path, &hd, h, meta, &czbytes, &g, &ids, err);
	if (!rc)
		rc = map_sections(path, &hd, meta, czbytes, fsize, g, ids, s, &nfr, err);
	if (!rc && !(fr = malloc((nfr + 1) * sizeof *fr)))
		rc = ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	if (!rc)
		rc = read_frames(fd, path, &hd, s, fsize, fr, err);
	if (!rc && hd.map)
		rc = map_file(fd, path, &hd, s, fr, fsize, opts->verify_mapped, T, g, &ids, err);
	else if (!rc)
		rc = decode_frames(fd, path, T, hd.block, s, fr, nfr, err);
	free(fr);
	if (!rc && hd.map && !hd.cz) {
		if ((rc = ordo_graph_validate(g, err)))
			ordo_err_prefix(err, "%s: ", path);
	} else if (!rc && hd.cz) {
		if ((rc = ordo_graph_validate(g, err)))
			ordo_err_prefix(err, "%s: ", path);
		for (uint64_t b = 0; b <= hd.n / 16; b++)
			g->cz_nwide += (g->cz_blk[b] >> ORDO_CZ_SHIFT_AT & 63) != 0;
	} else if (!rc) {
		rc = plain_offsets(path, T, g, err);
	}
	if (!rc && ids) {
		rc = ordo_graph_set_ids(g, ids, err); /* takes ids, checks them */
		ids = NULL;
		if (rc)
			ordo_err_prefix(err, "%s: section of input ids: ", path);
	}
	if (g)
		ordo_graph_free_array(g, ids); /* none, or never given to g */
	else
		free(ids);
	free(meta);
	if (rc) {
		ordo_graph_free(g);
		return rc;
	}
	*out = g;
	return 0;
}

void io_native_reseal(unsigned char *b, size_t len)
{
	if (len < HDR)
		return;
	uint32_t ns = get32(b + 32);
	uint64_t tbl = HDR + (uint64_t)ns * SEC;
	if (ns <= 5 && tbl + 8 <= len) {
		for (uint32_t i = 0; i < ns; i++) {
			unsigned char *se = b + HDR + (uint64_t)i * SEC;
			uint32_t kind = get32(se);
			uint64_t nframes = get64(se + 16), table = get64(se + 24), sums = 0;
			if (table > len || nframes > (len - table) / FRAME)
				continue; /* the reader refuses it before any sum */
			for (uint64_t f = 0; f < nframes; f++) {
				unsigned char *fe = b + table + f * FRAME;
				uint64_t off = get64(fe), stored = get32(fe + 8);
				if (off <= len && stored <= len - off) {
					if (get32(fe + 12) == 0) {
						put64(fe + 16, io_checksum(b + off, stored, kind));
					} else if (get32(fe + 12) == 1) {
						unsigned long long raw =
						    ZSTD_getFrameContentSize(b + off, stored);
						void *d = raw <= (64u << 20) ? malloc(raw ? raw : 1)
						                             : NULL;
						size_t z =
						    d ? ZSTD_decompress(d, raw, b + off, stored)
						      : 0;
						if (d && !ZSTD_isError(z) && z == raw)
							put64(fe + 16, io_checksum(d, raw, kind));
						free(d);
					}
				}
				uint64_t sum = get64(fe + 16);
				sums = io_checksum(&sum, 8, sums);
			}
			put64(se + 32, sums);
		}
		put64(b + tbl, io_checksum(b + HDR, (uint64_t)ns * SEC, 0));
	}
	put64(b + 120, io_checksum(b, 120, 0));
}

static bool sniff_native(const unsigned char *buf, uint64_t len, uint64_t file_bytes,
                         bool compressed)
{
	(void)file_bytes, (void)compressed;
	return len >= 8 && !memcmp(buf, "ORDOGRPH", 8);
}

const struct io_format io_format_native = {
    .info = {.name = "native",
             .aliases = "ordo",
             .exts = "ordo",
             .summary = "ordo's binary format: checksummed zstd sections, plain or compressed "
                        "CSR",
             .flags =
                 ORDO_FORMAT_GRAPH | ORDO_FORMAT_BINARY | ORDO_FORMAT_READ | ORDO_FORMAT_WRITE},
    .sniff = sniff_native,
    .read_graph = read_native,
    .write = io_native_write,
    .writes_compressed = true};
