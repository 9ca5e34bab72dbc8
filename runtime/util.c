/* util.c - time, aligned allocation and parameter strings (see ordo_util.h). */

#include "ordo_runtime.h"
#include "ordo_util.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

double ordo_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double ordo_thread_cpu(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

void ordo_spread(uint64_t *v, size_t n, uint64_t *min, uint64_t *median, uint64_t *max)
{
	qsort(v, n, sizeof *v, cmp_u64);
	*min = v[0];
	*max = v[n - 1];
	*median = (n & 1) ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void *ordo_calloc_aligned(size_t n, size_t size)
{
	/* 128: per-thread structures are padded against adjacent-line prefetch */
	const size_t align = 128;
	uint64_t bytes;
	if (!ordo_mul_ok(n, size, &bytes))
		return NULL;
	bytes = (bytes + align - 1) / align * align;
	if (bytes == 0)
		bytes = align;
	void *p = NULL;
	if (posix_memalign(&p, align, bytes))
		return NULL;
	memset(p, 0, bytes);
	return p;
}

uint64_t ordo_phys_mem(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGE_SIZE);
	return pages > 0 && psz > 0 ? (uint64_t)pages * (uint64_t)psz : 0;
}

void *ordo_alloc_huge(size_t bytes)
{
	const size_t huge = (size_t)2 << 20;
	if (bytes < huge)
		return malloc(bytes ? bytes : 1);
	void *p = NULL;
	if (posix_memalign(&p, huge, bytes))
		return NULL;
	madvise(p, bytes & ~(huge - 1), MADV_HUGEPAGE);
	return p;
}

bool ordo_parse_i64(const char *s, int64_t *out, bool suffixes)
{
	if (!s || !*s)
		return false;
	errno = 0;
	char *end;
	long long v = strtoll(s, &end, 10);
	if (end == s || errno == ERANGE)
		return false;
	int64_t mul = 1;
	if (suffixes && *end) {
		if (*end == 'k' || *end == 'K')
			mul = 1000;
		else if (*end == 'M')
			mul = 1000000;
		else if (*end == 'G')
			mul = 1000000000;
		else
			return false;
		end++;
	}
	if (*end)
		return false;
	if (__builtin_mul_overflow((int64_t)v, mul, out))
		return false;
	return true;
}

static int copy_field(char *dst, size_t cap, const char *src, size_t len, const char *what,
                      const char *text, struct ordo_err *err)
{
	if (len == 0)
		return ordo_err_set(err, ORDO_EINVAL, "'%s': empty %s", text, what);
	if (len >= cap)
		return ordo_err_set(err, ORDO_EINVAL, "'%s': %s longer than %zu characters", text,
		                    what, cap - 1);
	memcpy(dst, src, len);
	dst[len] = 0;
	return 0;
}

int ordo_spec_parse(const char *text, struct ordo_spec *out, struct ordo_err *err)
{
	memset(out, 0, sizeof *out);
	const char *colon = strchr(text, ':');
	size_t nlen = colon ? (size_t)(colon - text) : strlen(text);
	int rc = copy_field(out->name, sizeof out->name, text, nlen, "name", text, err);
	if (rc || !colon)
		return rc;
	const char *p = colon + 1;
	if (!*p)
		return 0; /* "name:" with nothing after it is just the name */
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		const char *eq = memchr(p, '=', len);
		if (!eq)
			return ordo_err_set(err, ORDO_EINVAL,
			                    "'%s': expected key=value, found '%.*s'", text,
			                    (int)len, p);
		if (out->nkv == ORDO_MAX_PARAMS)
			return ordo_err_set(err, ORDO_EINVAL, "'%s': more than %d parameters", text,
			                    ORDO_MAX_PARAMS);
		int k = out->nkv++;
		rc = copy_field(out->key[k], sizeof out->key[k], p, (size_t)(eq - p), "key", text,
		                err);
		if (rc)
			return rc;
		rc = copy_field(out->val[k], sizeof out->val[k], eq + 1, len - (size_t)(eq + 1 - p),
		                "value", text, err);
		if (rc)
			return rc;
		if (!comma)
			break;
		p = comma + 1;
	}
	return 0;
}

static void list_params(char *buf, size_t cap, const struct ordo_param *tab, int n)
{
	size_t used = 0;
	buf[0] = 0;
	for (int i = 0; i < n && used < cap; i++) {
		if (tab[i].choices) {
			used += (size_t)snprintf(buf + used, cap - used, "%s%s (", i ? ", " : "",
			                         tab[i].name);
			for (int c = 0; tab[i].choices[c] && used < cap; c++)
				used += (size_t)snprintf(buf + used, cap - used, "%s%s",
				                         c ? "|" : "", tab[i].choices[c]);
			if (used < cap)
				used += (size_t)snprintf(buf + used, cap - used, ", default %s)",
				                         tab[i].choices[tab[i].def]);
			continue;
		}
		used += (size_t)snprintf(buf + used, cap - used, "%s%s (%lld..%lld, default %lld)",
		                         i ? ", " : "", tab[i].name, (long long)tab[i].lo,
		                         (long long)tab[i].hi, (long long)tab[i].def);
	}
	if (n == 0)
		snprintf(buf, cap, "none");
}

static int parse_value(const char *what, const struct ordo_param *p, const char *text, int64_t *v,
                       struct ordo_err *err)
{
	if (p->choices) {
		for (int c = 0; p->choices[c]; c++)
			if (!strcmp(p->choices[c], text)) {
				*v = c;
				return 0;
			}
		char list[256] = "";
		for (int c = 0; p->choices[c]; c++)
			snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
			         c ? "|" : "", p->choices[c]);
		return ordo_err_set(err, ORDO_EINVAL, "%s: parameter %s='%s': expected %s", what,
		                    p->name, text, list);
	}
	if (!ordo_parse_i64(text, v, true))
		return ordo_err_set(err, ORDO_EINVAL, "%s: parameter %s='%s' is not an integer",
		                    what, p->name, text);
	return 0;
}

int ordo_param_check(const char *what, const struct ordo_param *p, int64_t v, struct ordo_err *err)
{
	if (v >= p->lo && v <= p->hi)
		return 0;
	return ordo_err_set(err, ORDO_EINVAL, "%s: parameter %s=%lld out of range %lld..%lld (%s)",
	                    what, p->name, (long long)v, (long long)p->lo, (long long)p->hi,
	                    p->help);
}

int ordo_params_resolve(const char *what, const struct ordo_param *tab, int n,
                        const struct ordo_spec *spec, int64_t *vals, struct ordo_err *err)
{
	char accepted[700];
	for (int i = 0; i < n; i++)
		vals[i] = tab[i].def;
	for (int k = 0; k < spec->nkv; k++) {
		int i = 0;
		while (i < n && strcmp(tab[i].name, spec->key[k]))
			i++;
		if (i == n) {
			list_params(accepted, sizeof accepted, tab, n);
			return ordo_err_set(err, ORDO_EINVAL,
			                    "%s: unknown parameter '%s'; accepted: %s", what,
			                    spec->key[k], accepted);
		}
		for (int j = 0; j < k; j++)
			if (!strcmp(spec->key[j], spec->key[k]))
				return ordo_err_set(err, ORDO_EINVAL,
				                    "%s: parameter '%s' given twice", what,
				                    spec->key[k]);
		int64_t v;
		int rc = parse_value(what, &tab[i], spec->val[k], &v, err);
		if (!rc)
			rc = ordo_param_check(what, &tab[i], v, err);
		if (rc)
			return rc;
		vals[i] = v;
	}
	return 0;
}

int ordo_params_format(char *buf, size_t cap, const char *name, const struct ordo_param *tab, int n,
                       const int64_t *vals)
{
	int used = snprintf(buf, cap, "%s", name);
	for (int i = 0; i < n; i++) {
		size_t off = (size_t)used < cap ? (size_t)used : cap;
		if (tab[i].choices)
			used += snprintf(buf + off, cap - off, "%c%s=%s", i ? ',' : ':',
			                 tab[i].name, tab[i].choices[vals[i]]);
		else
			used += snprintf(buf + off, cap - off, "%c%s=%lld", i ? ',' : ':',
			                 tab[i].name, (long long)vals[i]);
	}
	return used;
}

void ordo_backoff(unsigned round)
{
	if (round < 8) {
		for (unsigned i = 0; i < (16u << round); i++)
			ordo_cpu_relax();
	} else if (round < 24) {
		sched_yield();
	} else {
		/* 1 us .. 64 us: long enough to hand the CPU to workers that hold tasks when
		 * threads outnumber cores, short enough that a sleeper whose own queue refills
		 * (RELD, an SMQ owner) comes back quickly */
		unsigned r = round - 24;
		long ns = 1000L << (r < 6 ? r : 6);
		struct timespec ts = {0, ns};
		nanosleep(&ts, NULL);
	}
}
