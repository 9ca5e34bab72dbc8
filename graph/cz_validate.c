/*
 * cz_validate.c - checking a compressed CSR that came from outside (a native file): every
 * block entry, node start, varint, gap and weight code is read within bounds before the
 * graph is used, so a forged file is an error naming the node, never a wild read. The
 * code itself is described in ordo_graph.h ("Compressed adjacency") and compress.c.
 */
#include <stdint.h>

#include "ordo_graph.h"
#include "varint.h"

/* l (1..4) little-endian bytes at *p within end, into *x. */
static bool safe_le(const uint8_t **p, const uint8_t *end, unsigned l, uint64_t *x)
{
	if ((uint64_t)(end - *p) < l)
		return false;
	*x = 0;
	for (unsigned i = 0; i < l; i++)
		*x |= (uint64_t)(*p)[i] << (8 * i);
	*p += l;
	return true;
}

static bool safe_varint(const uint8_t **pp, const uint8_t *end, uint64_t *out)
{
	const uint8_t *p = *pp;
	uint64_t x = 0;
	for (int i = 0; i < 5 && p < end; i++) {
		const uint8_t c = *p++;
		x |= (uint64_t)(c & 127) << (7 * i);
		if (!(c & 128)) {
			*pp = p;
			*out = x;
			return true;
		}
	}
	return false;
}

/* A weight code at p (one byte, or 255 and a varint) within end, giving a weight that
 * fits 32 bits. */
static bool safe_wcode(const uint8_t **p, const uint8_t *end, uint32_t wbase)
{
	uint64_t x;
	if (*p == end)
		return false;
	if (*(*p)++ != 255)
		return true;
	return safe_varint(p, end, &x) && x <= UINT32_MAX - 255ull - wbase;
}

/* The arcs after a node's first in groups of four (ORDO_CZ_GROUP_MIN arcs or more):
 * NULL, p past them, or what is wrong. v: the last target. */
static const char *check_groups(const struct ordo_graph *g, const uint8_t **pp, const uint8_t *end,
                                uint64_t d, int64_t *vp)
{
	const bool weighted = g->cz_flags & ORDO_CZ_WEIGHTED, w8 = g->cz_flags & ORDO_CZ_W8;
	const uint8_t *p = *pp;
	int64_t v = *vp;
	for (uint64_t i = 1; i < d; i += 4) {
		const unsigned k = d - i < 4 ? (unsigned)(d - i) : 4;
		const unsigned head = 1 + (weighted && !w8);
		if ((uint64_t)(end - p) < head)
			return "a group's control byte is missing";
		const unsigned ct = p[0], cw = head == 2 ? p[1] : 0;
		p += head;
		for (unsigned j = 0; j < k; j++) {
			uint64_t gap;
			if (!safe_le(&p, end, ((ct >> (2 * j)) & 3) + 1, &gap))
				return "a group is cut short";
			v += (int64_t)gap;
			if (v >= (int64_t)g->n)
				return "a target is not a node";
		}
		for (unsigned j = 0; weighted && j < k; j++) {
			uint64_t c;
			if (!safe_le(&p, end, w8 ? 1 : ((cw >> (2 * j)) & 3) + 1, &c))
				return "a group's weights are cut short";
			if (c > UINT32_MAX - (uint64_t)g->cz_wbase)
				return "a weight is larger than 32 bits";
		}
	}
	*pp = p;
	*vp = v;
	return NULL;
}

/* The arcs after node u's first as varints (gaps, or offsets from u when srcrel): NULL,
 * p past them, or what is wrong. v: the last target. */
static const char *check_varints(const struct ordo_graph *g, uint32_t u, bool srcrel,
                                 const uint8_t **pp, const uint8_t *end, uint64_t d, int64_t *vp)
{
	const bool weighted = g->cz_flags & ORDO_CZ_WEIGHTED;
	const uint8_t *p = *pp;
	int64_t v = *vp;
	for (uint64_t i = 1; i < d; i++) {
		uint64_t x;
		if (!safe_varint(&p, end, &x))
			return "a target is cut short or longer than 5 bytes";
		int64_t nv = srcrel ? (int64_t)u + ordo_cz_unzigzag(x) : v + (int64_t)x;
		if (nv < v || x >> 33)
			return "its targets are out of order or out of range";
		v = nv;
		if (v >= (int64_t)g->n)
			return "a target is not a node";
		if (weighted && !safe_wcode(&p, end, g->cz_wbase))
			return "a weight is cut short or larger than 32 bits";
	}
	*pp = p;
	*vp = v;
	return NULL;
}

/* Checks node u's bytes; returns its degree, or UINT64_MAX with a reason in why. */
static uint64_t check_node(const struct ordo_graph *g, uint32_t u, const char **why)
{
	uint64_t b, e;
	const uint64_t be = ordo_cz_range(g, u, &b, &e);
	if (b > e || e > g->cz_bytes) {
		*why = "its byte range lies outside the data";
		return UINT64_MAX;
	}
	if (b == e)
		return 0;
	const uint8_t *p = g->cz + b, *end = g->cz + e;
	uint64_t h, d, x;
	if (!safe_varint(&p, end, &h)) {
		*why = "its header is cut short or longer than 5 bytes";
		return UINT64_MAX;
	}
	d = (h & 3) + 1;
	if (d == 4) {
		if (!safe_varint(&p, end, &x) || x > g->m) {
			*why = "its degree is cut short or larger than m";
			return UINT64_MAX;
		}
		d += x;
	}
	if (d > (uint64_t)(end - p) + 1) {
		*why = "its degree exceeds its bytes";
		return UINT64_MAX;
	}
	int64_t v = (int64_t)u + ordo_cz_unzigzag(h >> 2);
	const bool srcrel = be & ORDO_CZ_SRCREL, weighted = g->cz_flags & ORDO_CZ_WEIGHTED;
	if (v < 0 || v >= (int64_t)g->n) {
		*why = "a target is not a node";
		return UINT64_MAX;
	}
	if (weighted && !safe_wcode(&p, end, g->cz_wbase)) {
		*why = "a weight is cut short or larger than 32 bits";
		return UINT64_MAX;
	}
	const char *bad = d >= ORDO_CZ_GROUP_MIN ? check_groups(g, &p, end, d, &v)
	                                         : check_varints(g, u, srcrel, &p, end, d, &v);
	if (bad) {
		*why = bad;
		return UINT64_MAX;
	}
	/* what follows is padding: zero bytes, fewer than the block's alignment */
	const uint64_t align = 1ull << ((be >> ORDO_CZ_SHIFT_AT) & 63);
	if ((uint64_t)(end - p) >= align) {
		*why = "bytes are left over after its arcs";
		return UINT64_MAX;
	}
	for (; p < end; p++)
		if (*p) {
			*why = "bytes are left over after its arcs";
			return UINT64_MAX;
		}
	return d;
}

/* The index: known bits only, each block's first node at its base, node starts rising
 * from 0 to cz_bytes. */
static int check_index(const struct ordo_graph *g, struct ordo_err *err)
{
	const uint32_t n = g->n;
	const uint64_t known =
	    ORDO_CZ_BASE | (uint64_t)ORDO_CZ_MAX_SHIFT << ORDO_CZ_SHIFT_AT | ORDO_CZ_SRCREL;
	uint64_t prev = 0;
	for (uint64_t b = 0; b <= n / 16; b++) {
		const uint64_t be = g->cz_blk[b], lo = 16 * b, last = lo + 15 < n ? lo + 15 : n;
		if (be & ~known)
			return ordo_err_set(err, ORDO_EFORMAT, "block %llu: unknown bits in %#llx",
			                    (unsigned long long)b, (unsigned long long)be);
		if (g->cz_rel[lo])
			return ordo_err_set(
			    err, ORDO_EFORMAT,
			    "node %llu: the first of its block, but not at its start",
			    (unsigned long long)lo);
		for (uint64_t u = lo; u <= last; u++) {
			const uint64_t st = ordo_cz_start(g, (uint32_t)u, be);
			if (st < prev || st > g->cz_bytes || (u == 0 && st != 0))
				return ordo_err_set(
				    err, ORDO_EFORMAT,
				    "node %llu starts at byte %llu: before the node "
				    "ahead of it or outside the %llu bytes of arcs",
				    (unsigned long long)u, (unsigned long long)st,
				    (unsigned long long)g->cz_bytes);
			prev = st;
		}
	}
	if (prev != g->cz_bytes)
		return ordo_err_set(err, ORDO_EFORMAT,
		                    "the nodes' data ends at byte %llu, the graph has %llu",
		                    (unsigned long long)prev, (unsigned long long)g->cz_bytes);
	return 0;
}

int ordo_graph_cz_validate(const struct ordo_graph *g, struct ordo_err *err)
{
	int rc = check_index(g, err);
	if (rc)
		return rc;
	if ((g->cz_wbase || (g->cz_flags & ORDO_CZ_W8)) && !(g->cz_flags & ORDO_CZ_WEIGHTED))
		return ordo_err_set(err, ORDO_EFORMAT, "an unweighted graph with weight codes");
	if (g->cz_flags & ~(uint32_t)(ORDO_CZ_WEIGHTED | ORDO_CZ_W8))
		return ordo_err_set(err, ORDO_EFORMAT, "unknown compressed-graph flags %#x",
		                    g->cz_flags);
	uint64_t bad = UINT64_MAX, sum = 0;
#pragma omp parallel for reduction(min : bad) reduction(+ : sum) schedule(dynamic, 4096)
	for (uint64_t u = 0; u < g->n; u++) {
		const char *why;
		uint64_t d = check_node(g, (uint32_t)u, &why);
		if (d == UINT64_MAX)
			bad = u < bad ? u : bad;
		else
			sum += d;
	}
	if (bad != UINT64_MAX) {
		const char *why = "";
		check_node(g, (uint32_t)bad, &why);
		return ordo_err_set(err, ORDO_EFORMAT, "compressed arcs of node %llu: %s",
		                    (unsigned long long)bad, why);
	}
	if (sum != g->m)
		return ordo_err_set(err, ORDO_EFORMAT,
		                    "the compressed nodes hold %llu arcs, the graph has m=%llu",
		                    (unsigned long long)sum, (unsigned long long)g->m);
	return 0;
}
