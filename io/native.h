/*
 * native.h - ordo's binary graph format (.ordo), shared by its reader (native.c) and
 * writer (native_write.c); internal to io/.
 *
 * Layout (all integers little-endian):
 *   header, 128 bytes:
 *     0  char magic[8] = "ORDOGRPH"
 *     8  u32 version = 1 (plain CSR), 2 (compressed CSR), 3 (mappable: either, below)
 *    12  u32 flags: 1 weighted, 2 symmetric, 4 coordinates, 8 compressed CSR,
 *            16 renumbered (the nodes' input ids are stored)
 *    16  u64 n, u64 m
 *    32  u32 nsections, u32 coord_kind (enum ordo_coord_kind)
 *    40  char coord_unit[32]
 *    72  u64 block_bytes (raw bytes per frame, last frame of a section may be shorter)
 *    80  u64 compressed CSR (flag 8): weight base | cz flags << 32; else 0
 *    88  u64 reserved[4] = 0
 *   120  u64 checksum of bytes 0..119
 *   section table: nsections x 48 bytes:
 *     u32 kind (1 degrees: n x u64, 2 destinations: m x u32, 3 weights: m x u32,
 *               4 coordinates: 2n x int32 or double; a compressed CSR has instead
 *               5 block table: (n/16 + 1) x u64, 6 relative starts: n + 1 bytes,
 *               7 node data: the byte-coded arcs), 8 input ids of a renumbered
 *               graph: n x u32, a permutation, 9 offsets: (n + 1) x u64, only in a
 *               mappable file, which has them instead of degrees), u32 reserved,
 *     u64 raw_bytes, u64 nframes, u64 frame_table_offset,
 *     u64 checksum (over the frame checksums), u64 reserved
 *   u64 checksum of the section table
 *   per section, a frame table: nframes x 24 bytes:
 *     u64 file offset, u32 stored bytes, u32 codec (0 raw, 1 zstd), u64 checksum of the
 *     frame's raw bytes
 *   frames: each an independent zstd frame (or raw bytes when zstd does not shrink them)
 * Compressed graphs are version 2, so that older readers refuse them by the version
 * rather than misread them. They load without re-encoding: the node data goes straight
 * into place with its index, and the index and every node are checked
 * (ordo_graph_validate) before anyone decodes them.
 * The offsets are stored as degrees (their differences), which compress far better;
 * loading rebuilds them with a prefix sum. Frames are independent, so loading
 * decompresses them in parallel straight into the CSR arrays, and verifies each
 * frame's checksum. Errors name the byte offset.
 */
#ifndef ORDO_IO_NATIVE_H
#define ORDO_IO_NATIVE_H

#include <stdint.h>
#include <string.h>

#include "io_internal.h"

#define MAGIC       "ORDOGRPH"
#define VERSION     1
#define VERSION_CZ  2
#define VERSION_MAP 3
#define MAP_ALIGN   64 /* a mappable file's sections start on multiples of it */
#define HDR         128
#define SEC         48
#define FRAME       24
#define BLOCK       (1u << 21)

enum { S_DEG = 1, S_DST, S_W, S_COORD, S_CBLK, S_CREL, S_CBYTES, S_ORIG, S_OFF, S_KINDS };

/* The header's flags word (byte 12). */
enum {
	F_WEIGHTED = 1,
	F_SYMMETRIC = 2,
	F_COORDS = 4,
	F_CZ = 8,  /* compressed CSR (version 2) */
	F_IDS = 16 /* renumbered: the input ids are stored */
};

struct sec {
	uint32_t kind;
	uint64_t raw, nframes, table, sum;
	void *data;
};

static inline void put32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, 4);
}
static inline void put64(unsigned char *p, uint64_t v)
{
	memcpy(p, &v, 8);
}
static inline uint32_t get32(const unsigned char *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}
static inline uint64_t get64(const unsigned char *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

/* Raw bytes of frame idx of a section of `raw` bytes cut into frames of `block`. */
static inline uint64_t frame_len(uint64_t raw, uint64_t idx, uint64_t block)
{
	return raw - idx * block < block ? raw - idx * block : block;
}

/* Writes g to path as a native file (the format table's writer). */
int io_native_write(const char *path, int fmt, const struct ordo_graph *g,
                    const struct ordo_save_opts *o, struct ordo_err *err);

#endif
