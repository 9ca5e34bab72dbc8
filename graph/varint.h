/*
 * varint.h - the LEB128 varint and zig-zag codes the graph module writes (internal to
 * graph/): packed edge streams (edges.c) and the compressed CSR's encoder
 * (compress.c). The compressed CSR's hot decoder, which reads a varint from one 8-byte
 * load, is ordo_cz_varint in ordo_arcs.h; ordo_varint_get is the plain one.
 */
#ifndef ORDO_VARINT_H
#define ORDO_VARINT_H

#include <stdint.h>

/* Bytes of x's varint: 7 bits each. */
static inline unsigned ordo_varint_len(uint64_t x)
{
	return 1 + (unsigned)(63 - __builtin_clzll(x | 1)) / 7;
}

/* Writes x at p, low 7 bits first, high bit set on every byte but the last; returns
 * the end. */
static inline uint8_t *ordo_varint_put(uint8_t *p, uint64_t x)
{
	while (x >= 0x80) {
		*p++ = (uint8_t)(x | 0x80);
		x >>= 7;
	}
	*p++ = (uint8_t)x;
	return p;
}

/* Reads a varint at *pp (trusted bytes) and advances *pp past it. */
static inline uint64_t ordo_varint_get(const uint8_t **pp)
{
	const uint8_t *p = *pp;
	uint64_t x = *p & 0x7f;
	for (int sh = 7; *p++ & 0x80; sh += 7)
		x |= (uint64_t)(*p & 0x7f) << sh;
	*pp = p;
	return x;
}

/* Zig-zag: a signed difference as an unsigned code, small magnitudes small. */
static inline uint64_t ordo_zigzag(int64_t d)
{
	return ((uint64_t)d << 1) ^ (uint64_t)(d >> 63);
}
/* The same for a difference taken modulo 2^32 (decoding adds it back modulo 2^32). */
static inline uint32_t ordo_zigzag32(uint32_t d)
{
	return d << 1 ^ (uint32_t) - (int32_t)(d >> 31);
}
static inline uint32_t ordo_unzigzag32(uint32_t z)
{
	return z >> 1 ^ (uint32_t) - (int32_t)(z & 1);
}

#endif
