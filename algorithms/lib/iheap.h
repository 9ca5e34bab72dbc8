/*
 * iheap.h - the indexed 4-ary min-heap of the sequential baselines (Dijkstra, A*):
 * entries carry their key next to the node (no indirection while sifting), pos[v] is
 * v's slot, IHEAP_NONE before v is inserted and IHEAP_DONE after it is popped.
 * Single-threaded; the caller owns the arrays (heap: n + 1 entries, pos: n).
 */
#ifndef ORDO_IHEAP_H
#define ORDO_IHEAP_H

#include <stddef.h>
#include <stdint.h>

#define IHEAP_NONE UINT32_MAX
#define IHEAP_DONE (UINT32_MAX - 1)

struct iheap_entry {
	uint64_t key;
	uint32_t node;
};

struct iheap {
	struct iheap_entry *a;
	uint32_t *pos;
	size_t n;
};

/* Removes and returns the minimum (n > 0); its node's pos becomes IHEAP_DONE. */
static inline struct iheap_entry iheap_pop(struct iheap *h)
{
	const struct iheap_entry top = h->a[0];
	h->pos[top.node] = IHEAP_DONE;
	const struct iheap_entry last = h->a[--h->n];
	if (h->n) { /* sift last down from the root */
		size_t i = 0;
		for (;;) {
			size_t c = 4 * i + 1, best = c;
			if (c >= h->n)
				break;
			size_t e = c + 4 < h->n ? c + 4 : h->n;
			for (size_t k = c + 1; k < e; k++)
				best = h->a[k].key < h->a[best].key ? k : best;
			if (h->a[best].key >= last.key)
				break;
			h->a[i] = h->a[best];
			h->pos[h->a[i].node] = (uint32_t)i;
			i = best;
		}
		h->a[i] = last;
		h->pos[last.node] = (uint32_t)i;
	}
	return top;
}

/* Inserts v with `key`, or lowers its key (the caller checked that key is lower); a
 * popped node (IHEAP_DONE) is inserted again. */
static inline void iheap_push_or_decrease(struct iheap *h, uint32_t v, uint64_t key)
{
	size_t i = h->pos[v] >= IHEAP_DONE ? h->n++ : h->pos[v];
	while (i > 0) { /* sift up from i (new or decreased) */
		size_t p = (i - 1) / 4;
		if (h->a[p].key <= key)
			break;
		h->a[i] = h->a[p];
		h->pos[h->a[i].node] = (uint32_t)i;
		i = p;
	}
	h->a[i] = (struct iheap_entry){key, v};
	h->pos[v] = (uint32_t)i;
}

#endif
