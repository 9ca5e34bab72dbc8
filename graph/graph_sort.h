/*
 * graph_sort.h - the in-place sort of adjacency lists packed as (target << 32 | weight),
 * shared by the builder and the compressor (internal to graph/).
 */
#ifndef ORDO_GRAPH_SORT_H
#define ORDO_GRAPH_SORT_H

#include <stdbool.h>
#include <stdint.h>

static inline void insertion_u64(uint64_t *a, uint64_t n)
{
	for (uint64_t i = 1; i < n; i++) {
		uint64_t v = a[i], j = i;
		while (j > 0 && a[j - 1] > v) {
			a[j] = a[j - 1];
			j--;
		}
		a[j] = v;
	}
}

static inline void sift_u64(uint64_t *a, uint64_t i, uint64_t n)
{
	for (;;) {
		uint64_t c = 2 * i + 1;
		if (c >= n)
			return;
		if (c + 1 < n && a[c + 1] > a[c])
			c++;
		if (a[i] >= a[c])
			return;
		uint64_t t = a[i];
		a[i] = a[c];
		a[c] = t;
		i = c;
	}
}

/* Introsort with the comparison inline (glibc's qsort is a merge sort calling a
 * function per comparison; sorting the adjacency lists is about a fifth of the time of
 * symmetrising rmat20, and this made that load 6.1-6.3 s -> 6.0 s). Quicksort with a
 * median of three, insertion sort below 24, heapsort past 2 log2(n) levels (no
 * quadratic case). */
static inline void sort_u64(uint64_t *a, uint64_t n)
{
	int depth = 0;
	for (uint64_t k = n; k > 1; k >>= 1)
		depth += 2;
	while (n > 24) {
		if (depth-- == 0) {
			for (uint64_t i = n / 2; i-- > 0;)
				sift_u64(a, i, n);
			for (uint64_t i = n - 1; i > 0; i--) {
				uint64_t t = a[0];
				a[0] = a[i];
				a[i] = t;
				sift_u64(a, 0, i);
			}
			return;
		}
		uint64_t x = a[0], y = a[n / 2], z = a[n - 1];
		uint64_t piv =
		    x < y ? (y < z ? y : (x < z ? z : x)) : (x < z ? x : (y < z ? z : y));
		uint64_t i = 0, j = n - 1;
		for (;;) { /* Hoare partition: a[0..j] <= piv <= a[j+1..n-1] */
			while (a[i] < piv)
				i++;
			while (a[j] > piv)
				j--;
			if (i >= j)
				break;
			uint64_t t = a[i];
			a[i] = a[j];
			a[j] = t;
			i++;
			j--;
		}
		/* recurse into the smaller side, loop on the larger (stack depth log n) */
		uint64_t left = j + 1;
		if (left < n - left) {
			sort_u64(a, left);
			a += left;
			n -= left;
		} else {
			sort_u64(a + left, n - left);
			n = left;
		}
	}
	insertion_u64(a, n);
}

/* Sorts each of the lists pairs[loff[k] .. loff[k+1]), k < span; with dedup keeps the
 * first (lightest) arc per target and compacts the lists, rewriting loff. Returns the
 * arcs kept. */
static inline uint64_t sort_lists(uint64_t *pairs, uint64_t *loff, uint32_t span, bool dedup)
{
	uint64_t wp = 0;
	for (uint32_t k = 0; k < span; k++) {
		const uint64_t b = loff[k], d = loff[k + 1] - b;
		sort_u64(pairs + b, d);
		loff[k] = wp;
		for (uint64_t i = 0; i < d; i++)
			if (!dedup || !i || (pairs[b + i] >> 32) != (pairs[b + i - 1] >> 32))
				pairs[wp++] = pairs[b + i];
	}
	loff[span] = wp;
	return wp;
}

#endif
