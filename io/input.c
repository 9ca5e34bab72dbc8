/* input.c - sequential byte sources (plain or zstd-compressed), output files written
 * atomically, the checksum, and memory sanity checks. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zstd.h>

#include "io_internal.h"
#include "ordo_util.h"

struct io_in {
	int fd;
	const char *path;
	uint64_t size, pos;
	bool regular;         /* a regular file (else a pipe: no size, no positional reads) */
	unsigned char pre[4]; /* bytes read to look for zstd's magic, served first */
	unsigned npre, at_pre;
	unsigned char *peek; /* the first bytes of the content (io_in_peek), served first */
	uint64_t npeek, at_peek;
	bool zstd, zstd_done;
	ZSTD_DStream *ds;
	ZSTD_inBuffer zin;
	unsigned char *zbuf;
	size_t zcap;
	bool frame_open; /* inside a frame (for truncation detection) */
};

static int64_t raw_read(struct io_in *in, void *buf, uint64_t cap, struct ordo_err *err)
{
	uint64_t got = 0;
	while (got < cap && in->at_pre < in->npre)
		((unsigned char *)buf)[got++] = in->pre[in->at_pre++];
	while (got < cap) {
		ssize_t r = read(in->fd, (char *)buf + got, cap - got);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return ordo_err_set(err, ORDO_EIO, "%s: read error at byte %llu: %s",
			                    in->path, (unsigned long long)in->pos, strerror(errno));
		}
		if (r == 0)
			break;
		got += (uint64_t)r;
		in->pos += (uint64_t)r;
	}
	return (int64_t)got;
}

int io_in_open(const char *path, struct io_in **out, struct ordo_err *err)
{
	*out = NULL;
	const bool std_in = !strcmp(path, "-");
	int fd = std_in ? fcntl(0, F_DUPFD_CLOEXEC, 3) : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ordo_err_set(err, ORDO_EIO, "%s: cannot open: %s",
		                    std_in ? "standard input" : path, strerror(errno));
	struct stat sb;
	if (fstat(fd, &sb) || !(S_ISREG(sb.st_mode) || S_ISFIFO(sb.st_mode))) {
		const char *kind = S_ISDIR(sb.st_mode)    ? "a directory"
		                   : S_ISCHR(sb.st_mode)  ? "a character device"
		                   : S_ISBLK(sb.st_mode)  ? "a block device"
		                   : S_ISSOCK(sb.st_mode) ? "a socket"
		                                          : "not a readable file";
		close(fd);
		return ordo_err_set(err, ORDO_EIO,
		                    "%s: %s: expected a regular file or a pipe ('-' reads standard "
		                    "input)",
		                    std_in ? "standard input" : path, kind);
	}
	struct io_in *in = calloc(1, sizeof *in);
	if (!in) {
		close(fd);
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	}
	in->fd = fd;
	in->path = path;
	in->regular = S_ISREG(sb.st_mode);
	in->size = in->regular ? (uint64_t)sb.st_size : 0;
	/* zstd's magic, read once (a pipe cannot be read again) and served first */
	int64_t r = raw_read(in, in->pre, 4, err);
	if (r < 0) {
		io_in_close(in);
		return (int)r;
	}
	in->npre = (unsigned)r;
	in->at_pre = 0;
	in->pos = 0;
	const unsigned char *magic = in->pre;
	if (r == 4 && magic[0] == 0x28 && magic[1] == 0xb5 && magic[2] == 0x2f &&
	    magic[3] == 0xfd) {
		in->zstd = true;
		in->ds = ZSTD_createDStream();
		in->zcap = ZSTD_DStreamInSize() * 8;
		in->zbuf = malloc(in->zcap);
		if (!in->ds || !in->zbuf) {
			io_in_close(in);
			return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
		}
		ZSTD_initDStream(in->ds);
		in->zin.src = in->zbuf;
		in->zin.size = in->zin.pos = 0;
	}
	*out = in;
	return 0;
}

bool io_in_regular(const struct io_in *in)
{
	return in->regular;
}

static int64_t stream_read(struct io_in *in, void *buf, uint64_t cap, struct ordo_err *err);

int io_in_peek(struct io_in *in, const unsigned char **buf, uint64_t *len, struct ordo_err *err)
{
	if (!in->peek) {
		if (!(in->peek = malloc(IO_PEEK)))
			return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
		int64_t r = stream_read(in, in->peek, IO_PEEK, err);
		if (r < 0)
			return (int)r;
		in->npeek = (uint64_t)r;
		in->at_peek = 0;
	}
	*buf = in->peek;
	*len = in->npeek;
	return 0;
}

void io_in_close(struct io_in *in)
{
	if (!in)
		return;
	if (in->fd >= 0)
		close(in->fd);
	free(in->peek);
	ZSTD_freeDStream(in->ds);
	free(in->zbuf);
	free(in);
}

bool io_in_compressed(const struct io_in *in)
{
	return in->zstd;
}
uint64_t io_in_file_bytes(const struct io_in *in)
{
	return in->size;
}
uint64_t io_in_file_pos(const struct io_in *in)
{
	return in->pos;
}
int io_in_fd(const struct io_in *in)
{
	return in->fd;
}

int64_t io_in_read(struct io_in *in, void *buf, uint64_t cap, struct ordo_err *err)
{
	uint64_t got = 0;
	if (in->at_peek < in->npeek) { /* what io_in_peek read comes first */
		got = in->npeek - in->at_peek < cap ? in->npeek - in->at_peek : cap;
		memcpy(buf, in->peek + in->at_peek, got);
		in->at_peek += got;
		if (got == cap)
			return (int64_t)got;
	}
	int64_t r = stream_read(in, (char *)buf + got, cap - got, err);
	return r < 0 ? r : (int64_t)got + r;
}

static int64_t stream_read(struct io_in *in, void *buf, uint64_t cap, struct ordo_err *err)
{
	if (!in->zstd)
		return raw_read(in, buf, cap, err);
	ZSTD_outBuffer zo = {buf, cap, 0};
	while (zo.pos < zo.size && !in->zstd_done) {
		if (in->zin.pos == in->zin.size) {
			uint64_t at = in->pos;
			int64_t r = raw_read(in, in->zbuf, in->zcap, err);
			if (r < 0)
				return r;
			if (r == 0) {
				if (in->frame_open)
					return ordo_err_set(
					    err, ORDO_EFORMAT,
					    "%s: byte %llu: zstd data ends inside a "
					    "frame (truncated file)",
					    in->path, (unsigned long long)at);
				in->zstd_done = true;
				break;
			}
			in->zin.size = (size_t)r;
			in->zin.pos = 0;
		}
		uint64_t before = in->pos - (in->zin.size - in->zin.pos);
		size_t rc = ZSTD_decompressStream(in->ds, &zo, &in->zin);
		if (ZSTD_isError(rc))
			return ordo_err_set(err, ORDO_EFORMAT,
			                    "%s: near byte %llu: corrupt zstd data: %s", in->path,
			                    (unsigned long long)before, ZSTD_getErrorName(rc));
		in->frame_open = rc != 0;
	}
	return (int64_t)zo.pos;
}

/* ---- checksum: four independent multiply-rotate lanes over 8-byte words ---- */
static inline uint64_t rotl(uint64_t x, int r)
{
	return (x << r) | (x >> (64 - r));
}
#define P1 0x9E3779B185EBCA87ULL
#define P2 0xC2B2AE3D27D4EB4FULL

uint64_t io_checksum(const void *data, uint64_t len, uint64_t seed)
{
	const unsigned char *p = data;
	uint64_t h[4] = {seed + P1, seed ^ P2, seed - P1, ~seed};
	uint64_t i = 0;
	for (; i + 32 <= len; i += 32) {
		for (int k = 0; k < 4; k++) {
			uint64_t w;
			memcpy(&w, p + i + 8 * k, 8);
			h[k] = rotl(h[k] + w * P2, 31) * P1;
		}
	}
	uint64_t acc = rotl(h[0], 1) + rotl(h[1], 7) + rotl(h[2], 12) + rotl(h[3], 18) + len;
	for (; i + 8 <= len; i += 8) {
		uint64_t w;
		memcpy(&w, p + i, 8);
		acc = rotl(acc ^ (w * P2), 27) * P1 + P2;
	}
	for (; i < len; i++)
		acc = rotl(acc ^ (p[i] * P1), 11) * P2;
	acc ^= acc >> 33;
	acc *= P2;
	acc ^= acc >> 29;
	return acc;
}

int io_check_memory(const char *path, const char *what, uint64_t bytes, struct ordo_err *err)
{
	char msg[IO_MSG];
	int rc = io_header_memory(what, bytes, msg);
	return rc ? ordo_err_set(err, rc, "%s: %s", path, msg) : 0;
}

/* The budget of the load running on this thread (ordo_load_opts.mem_budget); headers
 * are parsed on the thread that called ordo_load. */
static _Thread_local uint64_t io_budget;

uint64_t io_set_budget(uint64_t bytes)
{
	uint64_t old = io_budget;
	io_budget = bytes;
	return old;
}

void io_bytes_text(char *buf, size_t cap, uint64_t bytes)
{
	static const char *const unit[] = {"KiB", "MiB", "GiB", "TiB"};
	if (bytes < 1024) {
		snprintf(buf, cap, "%llu bytes", (unsigned long long)bytes);
		return;
	}
	double v = (double)bytes / 1024;
	int u = 0;
	while (v >= 1024 && u < 3)
		v /= 1024, u++;
	snprintf(buf, cap, "%.1f %s", v, unit[u]);
}

int io_header_memory(const char *what, uint64_t bytes, char *msg)
{
	uint64_t ram = io_budget ? io_budget : ordo_phys_mem();
	if (!ram || bytes <= ram)
		return 0;
	char need[32], have[32];
	io_bytes_text(need, sizeof need, bytes);
	io_bytes_text(have, sizeof have, ram);
	snprintf(msg, IO_MSG, "%s, which needs %s; %s %s", what, need,
	         io_budget ? "the memory budget (--mem-budget) is" : "this machine has", have);
	return ORDO_ERANGE;
}

/* ---- output ---- */
struct io_out {
	char *path, *tmp;
	int pending; /* slot in the pending-temporaries table, -1 if none */
	FILE *f;
	ZSTD_CStream *cs;
	unsigned char *zbuf;
	size_t zcap;
};

/* Temporary files being written, for ordo_io_remove_pending (signal handlers): a slot
 * is filled before its flag is raised and the flag dropped before the file is renamed
 * or removed, so a handler only ever unlinks a complete temporary name. */
#define IO_PENDING 8
static char io_pending_path[IO_PENDING][1024];
static volatile sig_atomic_t io_pending_used[IO_PENDING];

static int pending_add(const char *tmp)
{
	for (int i = 0; i < IO_PENDING; i++)
		if (!io_pending_used[i] && strlen(tmp) < sizeof io_pending_path[i]) {
			strcpy(io_pending_path[i], tmp);
			io_pending_used[i] = 1;
			return i;
		}
	return -1; /* not tracked: only a signal would leave it behind */
}

void ordo_io_remove_pending(void)
{
	for (int i = 0; i < IO_PENDING; i++)
		if (io_pending_used[i])
			unlink(io_pending_path[i]); /* async-signal-safe */
}

int io_out_open(const char *path, int level, struct io_out **out, struct ordo_err *err)
{
	*out = NULL;
	struct io_out *o = calloc(1, sizeof *o);
	size_t len = strlen(path);
	if (!o || !(o->path = strdup(path)) || !(o->tmp = malloc(len + 16))) {
		if (o)
			free(o->path), free(o);
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	}
	snprintf(o->tmp, len + 16, "%s.tmp.XXXXXX", path);
	int fd = mkstemp(o->tmp);
	if (fd < 0) {
		int e = errno;
		free(o->path), free(o->tmp), free(o);
		return ordo_err_set(err, ORDO_EIO, "%s: cannot create: %s", path, strerror(e));
	}
	o->pending = pending_add(o->tmp);
	fchmod(fd, 0644);
	o->f = fdopen(fd, "wb");
	if (!o->f) {
		close(fd);
		if (o->pending >= 0)
			io_pending_used[o->pending] = 0;
		unlink(o->tmp);
		free(o->path), free(o->tmp), free(o);
		return ordo_err_set(err, ORDO_EIO, "%s: cannot open: %s", path, strerror(errno));
	}
	setvbuf(o->f, NULL, _IOFBF, 1 << 20);
	if (level > 0) {
		o->cs = ZSTD_createCStream();
		o->zcap = ZSTD_CStreamOutSize();
		o->zbuf = malloc(o->zcap);
		if (!o->cs || !o->zbuf) {
			io_out_close(o, false, NULL);
			return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
		}
		ZSTD_initCStream(o->cs, level);
	}
	*out = o;
	return 0;
}

FILE *io_out_stdio(struct io_out *o)
{
	return o->f;
}
int io_text_out_open(const char *path, const struct ordo_save_opts *o, struct io_out **out,
                     struct ordo_err *err)
{
	const size_t len = strlen(path);
	const bool z = o->compress || (len > 4 && !strcasecmp(path + len - 4, ".zst"));
	return io_out_open(path, z ? (o->zstd_level ? o->zstd_level : 3) : 0, out, err);
}

int io_out_fd(struct io_out *o)
{
	fflush(o->f);
	return fileno(o->f);
}

static int put(struct io_out *o, const void *buf, size_t len, struct ordo_err *err)
{
	if (len && fwrite(buf, 1, len, o->f) != len)
		return ordo_err_set(err, ORDO_EIO, "%s: write failed: %s", o->path,
		                    strerror(errno));
	return 0;
}

int io_out_write(struct io_out *o, const void *buf, uint64_t len, struct ordo_err *err)
{
	if (!o->cs)
		return put(o, buf, len, err);
	ZSTD_inBuffer in = {buf, len, 0};
	while (in.pos < in.size) {
		ZSTD_outBuffer zo = {o->zbuf, o->zcap, 0};
		size_t rc = ZSTD_compressStream(o->cs, &zo, &in);
		if (ZSTD_isError(rc))
			return ordo_err_set(err, ORDO_EIO, "%s: zstd: %s", o->path,
			                    ZSTD_getErrorName(rc));
		int r = put(o, o->zbuf, zo.pos, err);
		if (r)
			return r;
	}
	return 0;
}

int io_out_close(struct io_out *o, bool commit, struct ordo_err *err)
{
	int rc = 0;
	if (commit && o->cs) {
		size_t left;
		do {
			ZSTD_outBuffer zo = {o->zbuf, o->zcap, 0};
			left = ZSTD_endStream(o->cs, &zo);
			if (ZSTD_isError(left)) {
				rc = ordo_err_set(err, ORDO_EIO, "%s: zstd: %s", o->path,
				                  ZSTD_getErrorName(left));
				break;
			}
			rc = put(o, o->zbuf, zo.pos, err);
		} while (!rc && left);
	}
	if (commit && !rc && (fflush(o->f) || fsync(fileno(o->f))))
		rc = ordo_err_set(err, ORDO_EIO, "%s: write failed: %s", o->path, strerror(errno));
	if (fclose(o->f) && commit && !rc)
		rc = ordo_err_set(err, ORDO_EIO, "%s: close failed: %s", o->path, strerror(errno));
	if (o->pending >= 0)
		io_pending_used[o->pending] = 0;
	if (commit && !rc && rename(o->tmp, o->path))
		rc = ordo_err_set(err, ORDO_EIO, "%s: rename failed: %s", o->path, strerror(errno));
	if (!commit || rc)
		unlink(o->tmp);
	ZSTD_freeCStream(o->cs);
	free(o->zbuf);
	free(o->path);
	free(o->tmp);
	free(o);
	return rc;
}

int io_read_exact(struct io_in *in, const char *path, void *buf, uint64_t len, uint64_t at,
                  const char *what, struct ordo_err *err)
{
	int64_t r = io_in_read(in, buf, len, err);
	if (r < 0)
		return (int)r;
	if ((uint64_t)r != len)
		return ordo_err_set(
		    err, ORDO_EFORMAT,
		    "%s: byte %llu: expected %llu bytes of %s, found %lld (truncated "
		    "file)",
		    path, (unsigned long long)(at + (uint64_t)r), (unsigned long long)len, what,
		    (long long)r);
	return 0;
}

int io_expect_end(struct io_in *in, const char *path, uint64_t at, struct ordo_err *err)
{
	char extra;
	int64_t r = io_in_read(in, &extra, 1, err);
	if (r > 0)
		return ordo_err_set(err, ORDO_EFORMAT,
		                    "%s: byte %llu: expected end of file, found more data", path,
		                    (unsigned long long)at);
	return r < 0 ? (int)r : 0;
}
