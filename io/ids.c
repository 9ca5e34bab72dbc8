/* ids.c - node ids on the way in and out: compacting an edge list's sparse ids, and the
 * "new old" id maps --id-map writes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io_internal.h"

/* The ids whose bits are set, in increasing order (count of them), malloc'd, or NULL. */
static uint32_t *ids_of(const uint64_t *bits, uint64_t words, uint64_t count)
{
	uint32_t *ids = malloc((count + 1) * sizeof *ids);
	uint64_t k = 0;
	for (uint64_t w = 0; ids && w < words; w++)
		for (uint64_t m = bits[w]; m; m &= m - 1)
			ids[k++] = (uint32_t)(w * 64 + (uint64_t)__builtin_ctzll(m));
	return ids;
}

/* Remaps the ids of an edge chain densely (in increasing order of the old id). */
int io_compact_ids(struct ordo_edge_chain *c, uint64_t *n_out, uint32_t **ids_out,
                   const char *map_path, const char *path, struct ordo_err *err)
{
	*ids_out = NULL;
	if (c->count == 0) {
		*n_out = 0;
		return 0;
	}
	uint64_t span = (uint64_t)c->max_id + 1, words = (span + 63) / 64;
	uint64_t *bits = calloc(words, 8);
	uint32_t *rank = malloc((words + 1) * sizeof *rank);
	if (!bits || !rank) {
		free(bits), free(rank);
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory compacting ids");
	}
	struct ordo_unpack_buf ub = {0};
	struct ordo_block_view v;
	for (struct ordo_edge_block *b = c->head; b; b = b->next) {
		if (!ordo_block_view(b, &ub, &v)) {
			free(bits), free(rank), free(ub.a);
			return ordo_err_set(err, ORDO_ENOMEM, "out of memory compacting ids");
		}
		for (uint32_t i = 0; i < v.count; i++) {
			bits[v.src[i] >> 6] |= 1ull << (v.src[i] & 63);
			bits[v.dst[i] >> 6] |= 1ull << (v.dst[i] & 63);
		}
	}
	uint64_t acc = 0;
	for (uint64_t w = 0; w < words; w++) {
		rank[w] = (uint32_t)acc;
		acc += (uint64_t)__builtin_popcountll(bits[w]);
	}
	rank[words] = (uint32_t)acc;
#define RANK(x) \
	(rank[(x) >> 6] + (uint32_t)__builtin_popcountll(bits[(x) >> 6] & ((1ull << ((x)&63)) - 1)))
	/* plain blocks are renumbered in place; a chain with packed blocks is rewritten
	 * into a new packed one (the codes change length), each old block freed once read */
	bool packed = false, ok = true;
	for (struct ordo_edge_block *b = c->head; b; b = b->next)
		packed |= !ordo_block_plain(b);
	if (!packed) {
		for (struct ordo_edge_block *b = c->head; b; b = b->next)
			for (uint32_t i = 0; i < b->count; i++) {
				b->src[i] = RANK(b->src[i]);
				b->dst[i] = RANK(b->dst[i]);
			}
	} else {
		struct ordo_edge_chain nc;
		ordo_chain_init(&nc, c->weighted);
		nc.pack = true;
		for (struct ordo_edge_block *b = c->head; b && !nc.spill; b = b->next)
			nc.spill = b->spill;
		while (ok && c->head) {
			struct ordo_edge_block *b = c->head;
			ok = ordo_block_view(b, &ub, &v);
			for (uint32_t i = 0; ok && i < v.count; i++)
				ok = ordo_chain_push(&nc, RANK(v.src[i]), RANK(v.dst[i]),
				                     v.w ? v.w[i] : 0);
			c->head = b->next;
			ordo_block_free(b);
		}
		ok = ok && ordo_chain_seal(&nc);
		ordo_chain_free(c); /* its blocks are gone; this resets it and frees its slabs */
		*c = nc;            /* on failure too: the caller frees it */
	}
#undef RANK
	free(ub.a);
	if (!ok) {
		free(bits), free(rank);
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory compacting ids");
	}
	c->max_id = (uint32_t)(acc - 1);
	*n_out = acc;
	int rc = 0;
	if (acc < span && !(*ids_out = ids_of(bits, words, acc))) /* some id unused */
		rc = ordo_err_set(err, ORDO_ENOMEM, "out of memory for %llu node ids",
		                  (unsigned long long)acc);
	if (!rc && map_path) {
		struct io_out *o;
		rc = io_out_open(map_path, 0, &o, err);
		if (!rc) {
			FILE *f = io_out_stdio(o);
			fprintf(f, "# ordo id map for %s: new_id old_id\n", path);
			for (uint64_t k = 0; k < acc; k++) /* no ids: every id was used */
				fprintf(f, "%llu %llu\n", (unsigned long long)k,
				        (unsigned long long)(*ids_out ? (*ids_out)[k] : k));
			bool bad = ferror(f) != 0;
			rc = io_out_close(o, !bad, err);
			if (bad)
				rc = ordo_err_set(err, ORDO_EIO, "%s: write failed", map_path);
		}
	}
	free(bits);
	free(rank);
	return rc;
}

/* A renumbered graph's "new old" id pairs (what --id-map writes without --compact-ids). */
int io_write_order_map(const struct ordo_graph *g, const char *path, const char *map_path,
                       struct ordo_err *err)
{
	if (!g->orig_id)
		return ordo_err_set(err, ORDO_EINVAL,
		                    "--id-map %s: %s is in its input's order (not renumbered, "
		                    "no --reorder or --compact-ids): no ids to map",
		                    map_path, path);
	struct io_out *o;
	int rc = io_out_open(map_path, 0, &o, err);
	if (rc)
		return rc;
	FILE *f = io_out_stdio(o);
	fprintf(f, "# ordo id map for %s (renumbered): new_id old_id\n", path);
	for (uint32_t u = 0; u < g->n; u++)
		fprintf(f, "%u %u\n", u, g->orig_id[u]);
	bool bad = ferror(f) != 0;
	rc = io_out_close(o, !bad, err);
	if (bad)
		rc = ordo_err_set(err, ORDO_EIO, "%s: write failed", map_path);
	return rc;
}
