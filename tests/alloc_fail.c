/*
 * alloc_fail - the allocation-failure sweep: every allocation ordo makes can fail, and
 * each failure must end as a clean error (ORDO_ENOMEM, or an error naming what could
 * not be allocated), never a crash, a hang, a lost task or a wrong answer.
 *
 * The program is linked with -Wl,--wrap for malloc, calloc, realloc, posix_memalign
 * and mmap, so every call from ordo's static libraries (and this file) goes through
 * the wrappers below; allocations inside libc, libgomp and libzstd are not touched.
 * For each scenario it first counts the allocations of a clean run, then reruns it
 * with the k-th allocation failing, for every k (or an even spread of at most
 * ORDO_ALLOC_POINTS of them, default 400, always including the first 40). A run must
 * either fail with an error or succeed with the right answer (some allocations have
 * a fallback, e.g. huge pages). Under ASan (tests/sanitizer_test.sh asan runs it) every failure
 * path is also checked for leaks. Scenarios: the readers (DIMACS, zstd, edge list, Matrix Market,
 * METIS + coordinates, Galois, native, native renumbered in each node order), the generators with
 * the builder, SSSP through the executor with every registered scheduler at 1 and 2 threads, and
 * MST (its work space, and the segment arrays that its bigger components get during the run:
 * without one a component goes on with its ring, and the forest must not change), and SMQ's bucket
 * queue while it widens (no task may vanish without a reported failure).
 *
 *   alloc_fail FIXTURE_DIR [SCENARIO-PREFIX...]
 * Prints one line per scenario (allocations, failure points tried, how they ended).
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bq.h" /* worklists/: SMQ's bucket queue, driven directly */
#include "ordo_io.h"
#include "ordo_mst.h"
#include "ordo_schedulers.h"
#include "ordo_sssp.h"

/* ---- the hook ---- */
static _Atomic long alloc_count;   /* allocations since arming */
static _Atomic long alloc_fail_at; /* 0: none fails */
static _Atomic int armed;

void *__real_malloc(size_t);
void *__real_calloc(size_t, size_t);
void *__real_realloc(void *, size_t);
int __real_posix_memalign(void **, size_t, size_t);
void *__real_mmap(void *, size_t, int, int, int, off_t);

static bool fail_now(void)
{
	if (!atomic_load_explicit(&armed, memory_order_relaxed))
		return false;
	long k = atomic_fetch_add_explicit(&alloc_count, 1, memory_order_relaxed) + 1;
	return k == atomic_load_explicit(&alloc_fail_at, memory_order_relaxed);
}

void *__wrap_malloc(size_t n)
{
	return fail_now() ? NULL : __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t s)
{
	return fail_now() ? NULL : __real_calloc(n, s);
}

void *__wrap_realloc(void *p, size_t n)
{
	return fail_now() ? NULL : __real_realloc(p, n);
}

int __wrap_posix_memalign(void **p, size_t a, size_t n)
{
	return fail_now() ? ENOMEM : __real_posix_memalign(p, a, n);
}

void *__wrap_mmap(void *addr, size_t n, int prot, int flags, int fd, off_t off)
{
	if ((flags & MAP_ANONYMOUS) && fail_now()) {
		errno = ENOMEM;
		return MAP_FAILED;
	}
	return __real_mmap(addr, n, prot, flags, fd, off);
}

static void arm(long fail_at)
{
	atomic_store(&alloc_count, 0);
	atomic_store(&alloc_fail_at, fail_at);
	atomic_store(&armed, 1);
}

static long disarm(void)
{
	atomic_store(&armed, 0);
	return atomic_load(&alloc_count);
}

/* ---- scenarios: 0 = right answer, 1 = a clean error, -1 = wrong ---- */
struct scenario {
	char name[96];
	int (*run)(const struct scenario *s, char *why, size_t cap);
	const char *path, *coords, *spec;
	int threads;
	int reorder;  /* load_one: renumber in this order (enum ordo_order) */
	bool prepare; /* load_one: every preparation step (a dedup rebuild, weights from
	                 coordinates, the order, compression) */
	uint32_t n;
	uint64_t m;
};

static const char *fixdir;

static int ended(int rc, const struct ordo_err *e, char *why, size_t cap)
{
	/* an error must say something */
	if (!e->msg[0]) {
		snprintf(why, cap, "error %d without a message", rc);
		return -1;
	}
	return 1;
}

static int load_one(const struct scenario *s, char *why, size_t cap)
{
	struct ordo_load_opts o;
	ordo_load_opts_init(&o);
	o.coords = s->coords;
	o.threads = 2;
	o.reorder = s->reorder;
	if (s->prepare) {
		o.build.dedup = true;
		o.weights_from_coords = true;
		o.build.compress = true;
	}
	struct ordo_graph *g = NULL;
	struct ordo_err e = {0};
	int rc = ordo_load(s->path, &o, &g, NULL, &e);
	if (rc)
		return ended(rc, &e, why, cap);
	int ok = g->n == s->n && g->m == s->m && (!s->coords || g->coord_kind != ORDO_COORD_NONE) &&
	         (!s->reorder || g->new_id) && (!s->prepare || ordo_graph_compressed(g));
	if (!ok)
		snprintf(why, cap, "loaded %u nodes %llu arcs", g->n, (unsigned long long)g->m);
	ordo_graph_free(g);
	return ok ? 0 : -1;
}

static int generate(const struct scenario *s, char *why, size_t cap)
{
	struct ordo_graph *g = NULL;
	struct ordo_err e = {0};
	int rc = ordo_generate(s->spec, 2, &g, NULL, 0, &e);
	if (rc)
		return ended(rc, &e, why, cap);
	int ok = g->n == s->n && g->m == s->m;
	if (!ok)
		snprintf(why, cap, "generated %u nodes %llu arcs", g->n, (unsigned long long)g->m);
	ordo_graph_free(g);
	return ok ? 0 : -1;
}

/* The scenario's topology and scheduler: 0, or ended()'s verdict when one failed. */
static int sched_open(const struct scenario *s, struct ordo_topology *topo,
                      struct ordo_scheduler *wl, char *why, size_t cap)
{
	struct ordo_err e = {0};
	int rc = ordo_topology_init(topo, s->threads, 0, ORDO_BIND_NONE, &e);
	if (rc)
		return ended(rc, &e, why, cap);
	rc = ordo_scheduler_create(s->spec, NULL, topo, 1, wl, &e);
	if (rc) {
		ordo_topology_free(topo);
		return ended(rc, &e, why, cap);
	}
	return 0;
}

static struct ordo_graph *sssp_graph;
static uint64_t *sssp_ref;

static int sssp_run(const struct scenario *s, char *why, size_t cap)
{
	struct ordo_err e = {0};
	struct ordo_topology topo;
	struct ordo_scheduler wl;
	int rc = sched_open(s, &topo, &wl, why, cap);
	if (rc)
		return rc;
	_Atomic uint64_t *dist = malloc(sssp_graph->n * sizeof *dist);
	int res;
	if (!dist) {
		res = 1; /* this one is ours, and handled */
	} else {
		struct ordo_exec_opts o = {.topo = &topo, .seed = 1};
		struct ordo_run_stats st;
		rc = ordo_sssp(sssp_graph, 0, &wl, &o, dist, &st, &e);
		if (rc) {
			res = rc == ORDO_ENOMEM ? 1 : -1;
			if (res < 0 || !e.msg[0])
				snprintf(why, cap, "rc %d: %s", rc, e.msg), res = -1;
		} else {
			res = 0;
			for (uint32_t v = 0; v < sssp_graph->n && !res; v++)
				if (atomic_load(&dist[v]) != sssp_ref[v]) {
					snprintf(why, cap, "node %u: distance %llu, expected %llu",
					         v, (unsigned long long)atomic_load(&dist[v]),
					         (unsigned long long)sssp_ref[v]);
					res = -1;
				}
		}
	}
	free(dist);
	ordo_scheduler_destroy(&wl);
	ordo_topology_free(&topo);
	return res;
}

/* SMQ's bucket queue while it widens (bq.h): two thirds of the pushes land far past the
 * window, so at every BQ_ADAPT pushes it widens and places the ring's tasks again (two
 * old buckets into one new, so ring vectors grow); the rest sit in 7 near buckets. Then
 * everything is popped. A failed allocation must show (a push returns false or the
 * queue's `failed` is set); otherwise every task comes out once, in order. */
static int bq_run(const struct scenario *s, char *why, size_t cap)
{
	(void)s;
	struct bq_pq q;
	if (!bq_init(&q, 0)) {
		bq_free(&q);
		return 1;
	}
	const uint32_t n = 3 * BQ_ADAPT;
	uint8_t *seen = calloc(n, 1);
	int res = seen ? 0 : 1;
	for (uint32_t i = 0; i < n && !res; i++) {
		const uint64_t p = i % 3 == 0 ? i % 8 : 100000 + ordo_hash2(5, i) % 100000000;
		if (!bq_push(&q, &(struct ordo_task){p, i}))
			res = 1;
	}
	uint64_t got = 0, prev = 0;
	while (!res && !q.failed && bq_size(&q)) {
		struct ordo_task t;
		if (!bq_pop(&q, &t))
			break; /* failed is set */
		if (t.prio < prev || t.data >= n || seen[t.data]++) {
			snprintf(why, cap, "task %llu (priority %llu) out of order or twice",
			         (unsigned long long)t.data, (unsigned long long)t.prio);
			res = -1;
		}
		prev = t.prio;
		got++;
	}
	if (!res && q.failed)
		res = 1; /* reported: the run would end with ENOMEM */
	else if (!res && got != n) {
		snprintf(why, cap,
		         "%llu of %u tasks came out, and no allocation failure was "
		         "reported",
		         (unsigned long long)got, n);
		res = -1;
	}
	if (!res && q.shift == 0) {
		snprintf(why, cap, "the queue never widened: the scenario tests nothing");
		res = -1;
	}
	free(seen);
	bq_free(&q);
	return res;
}

static struct ordo_forest mst_ref; /* Kruskal's, on sssp_graph */

static int mst_run(const struct scenario *s, char *why, size_t cap)
{
	struct ordo_err e = {0};
	struct ordo_topology topo;
	struct ordo_scheduler wl;
	int rc = sched_open(s, &topo, &wl, why, cap);
	if (rc)
		return rc;
	struct ordo_mst *m;
	int res;
	rc = ordo_mst_create(sssp_graph, &m, &e);
	if (rc) {
		res = ended(rc, &e, why, cap);
	} else {
		struct ordo_exec_opts o = {.topo = &topo, .seed = 1};
		struct ordo_run_stats st;
		struct ordo_forest f;
		rc = ordo_mst_run(m, &wl, &o, &f, &st, &e);
		if (rc) {
			res = rc == ORDO_ENOMEM ? ended(rc, &e, why, cap) : -1;
			if (rc != ORDO_ENOMEM)
				snprintf(why, cap, "rc %d: %s", rc, e.msg);
		} else if (f.weight != mst_ref.weight || f.edges != mst_ref.edges) {
			snprintf(
			    why, cap, "forest of %llu edges weighing %llu, Kruskal's %llu, %llu",
			    (unsigned long long)f.edges, (unsigned long long)f.weight,
			    (unsigned long long)mst_ref.edges, (unsigned long long)mst_ref.weight);
			res = -1;
		} else {
			res = 0;
		}
		ordo_mst_free(m);
	}
	ordo_scheduler_destroy(&wl);
	ordo_topology_free(&topo);
	return res;
}

static int sweep(const struct scenario *s, int points)
{
	char why[300] = "";
	arm(0);
	int clean = s->run(s, why, sizeof why);
	long total = disarm();
	if (clean != 0) {
		printf("%-44s FAIL: the clean run: %s\n", s->name, why);
		return 1;
	}
	long tried = 0, errors = 0, fallbacks = 0;
	for (long k = 1; k <= total; k++) {
		/* all of the first 40 (set-up), then an even spread */
		if (k > 40 && total > points && (k - 40) % ((total - 40) / (points - 40) + 1))
			continue;
		arm(k);
		why[0] = 0;
		int r = s->run(s, why, sizeof why);
		disarm();
		tried++;
		if (r < 0) {
			printf("%-44s FAIL: allocation %ld of %ld failing: %s\n", s->name, k, total,
			       why);
			return 1;
		}
		errors += r == 1;
		fallbacks += r == 0;
	}
	printf("%-44s ok: %ld allocations, %ld failure points: %ld clean errors, %ld "
	       "recovered\n",
	       s->name, total, tried, errors, fallbacks);
	fflush(stdout);
	return 0;
}

static bool chosen(const char *name, int argc, char **argv)
{
	if (argc < 3)
		return true;
	for (int a = 2; a < argc; a++)
		if (!strncmp(name, argv[a], strlen(argv[a])))
			return true;
	return false;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: alloc_fail FIXTURE_DIR [SCENARIO-PREFIX...]\n");
		return 2;
	}
	fixdir = argv[1];
	const char *env = getenv("ORDO_ALLOC_POINTS");
	int points = env && atoi(env) > 40 ? atoi(env) : 400;
	static char native[] = "/tmp/ordo_alloc_fail_XXXXXX";
	/* the fixtures: file, coordinates, expected nodes and arcs (0: from a clean load) */
	static const struct {
		const char *name, *file, *coords;
		uint32_t n;
		uint64_t m;
	} fixtures[] = {
	    {"load DIMACS", "tiny.gr", "tiny.co", 5, 7},
	    {"load DIMACS, zstd", "tiny.gr.zst", NULL, 5, 7},
	    {"load edge list", "tiny.txt", NULL, 5, 7},
	    {"load Matrix Market", "tiny.mtx", NULL, 5, 7},
	    {"load Galois", "tiny.ggr", NULL, 5, 7},
	    {"load METIS + coordinates", "undirected.graph", "undirected.xyz", 0, 0},
	};
	enum { NFIX = sizeof fixtures / sizeof fixtures[0] };
	static char paths[NFIX][1024], coords[NFIX][1024];

	/* a native file of a generated road graph with coordinates (written unarmed) */
	int fd = mkstemp(native);
	if (fd < 0) {
		perror("alloc_fail: mkstemp");
		return 3;
	}
	close(fd);
	struct ordo_err e = {0};
	struct ordo_graph *road = NULL;
	if (ordo_generate("road:W=24,H=18,seed=2", 1, &road, NULL, 0, &e) ||
	    ordo_save(native, ORDO_FMT_NATIVE, road, NULL, &e)) {
		fprintf(stderr, "alloc_fail: %s\n", e.msg);
		return 3;
	}
	sssp_graph = road;
	sssp_ref = malloc(road->n * sizeof *sssp_ref);
	uint64_t settled;
	if (!sssp_ref || ordo_dijkstra(road, 0, sssp_ref, &settled, &e) ||
	    ordo_kruskal(road, &mst_ref, &e)) {
		fprintf(stderr, "alloc_fail: baseline: %s\n", e.msg);
		return 3;
	}
	if (!(road->flags & ORDO_GRAPH_SYMMETRIC)) {
		fprintf(stderr, "alloc_fail: the generated road graph is not symmetric\n");
		return 3;
	}

	struct scenario sc[96];
	int ns = 0;
	for (int i = 0; i < NFIX; i++) {
		snprintf(paths[i], sizeof paths[i], "%s/%s", fixdir, fixtures[i].file);
		if (fixtures[i].coords)
			snprintf(coords[i], sizeof coords[i], "%s/%s", fixdir, fixtures[i].coords);
		sc[ns] = (struct scenario){.run = load_one,
		                           .path = paths[i],
		                           .coords = fixtures[i].coords ? coords[i] : NULL,
		                           .n = fixtures[i].n,
		                           .m = fixtures[i].m};
		if (!fixtures[i].n) { /* counts of a clean load */
			struct ordo_load_opts o;
			ordo_load_opts_init(&o);
			struct ordo_graph *g;
			if (ordo_load(paths[i], &o, &g, NULL, &e)) {
				fprintf(stderr, "alloc_fail: %s\n", e.msg);
				return 3;
			}
			sc[ns].n = g->n;
			sc[ns].m = g->m;
			ordo_graph_free(g);
		}
		snprintf(sc[ns].name, sizeof sc[ns].name, "%s", fixtures[i].name);
		ns++;
	}
	sc[ns] = (struct scenario){.run = load_one, .path = native, .n = road->n, .m = road->m};
	snprintf(sc[ns].name, sizeof sc[ns].name, "load native");
	ns++;
	/* renumbering once loaded, in every order (the road graph has coordinates) */
	for (int order = ORDO_ORDER_RCM; order <= ORDO_ORDER_HILBERT; order++) {
		sc[ns] = (struct scenario){
		    .run = load_one, .path = native, .n = road->n, .m = road->m, .reorder = order};
		snprintf(sc[ns].name, sizeof sc[ns].name, "load native + reorder %s",
		         ordo_order_name(order));
		ns++;
	}
	/* ordo_graph_prepare's every step, each allocation of each failing in turn */
	sc[ns] = (struct scenario){.run = load_one,
	                           .path = native,
	                           .n = road->n,
	                           .m = road->m,
	                           .reorder = ORDO_ORDER_RCM,
	                           .prepare = true};
	snprintf(sc[ns].name, sizeof sc[ns].name, "load native + every preparation step");
	ns++;
	sc[ns] = (struct scenario){
	    .run = generate, .spec = "road:W=24,H=18,seed=2", .n = road->n, .m = road->m};
	snprintf(sc[ns].name, sizeof sc[ns].name, "generate road + build");
	ns++;
	/* every scheduler at its defaults, and the variants with their own OOM paths */
	const char *extra[] = {"smq:pq=radix", "smq:pq=bucket", "mq-opt:push=batch,pop=batch"};
	for (int i = 0;
	     i < ordo_scheduler_count() + (int)(sizeof extra / sizeof *extra) && ns + 2 < 96; i++) {
		const char *spec = i < ordo_scheduler_count() ? ordo_scheduler_at(i)->name
		                                              : extra[i - ordo_scheduler_count()];
		for (int T = i < ordo_scheduler_count() ? 1 : 2; T <= 2; T++) {
			sc[ns] = (struct scenario){.run = sssp_run, .spec = spec, .threads = T};
			snprintf(sc[ns].name, sizeof sc[ns].name, "sssp %s T=%d", spec, T);
			ns++;
		}
	}

	sc[ns] = (struct scenario){.run = bq_run};
	snprintf(sc[ns].name, sizeof sc[ns].name, "bq widen");
	ns++;

	/* MST at its default scheduler and the one it is timed with */
	const char *mst_wl[][2] = {
	    {"obim:delta=0", "1"}, {"obim:delta=0", "2"}, {"smq:pq=bucket", "2"}};
	for (int i = 0; i < 3 && ns < 96; i++) {
		sc[ns] = (struct scenario){
		    .run = mst_run, .spec = mst_wl[i][0], .threads = atoi(mst_wl[i][1])};
		snprintf(sc[ns].name, sizeof sc[ns].name, "mst %s T=%d", mst_wl[i][0],
		         sc[ns].threads);
		ns++;
	}

	int failures = 0, run = 0;
	for (int i = 0; i < ns; i++)
		if (chosen(sc[i].name, argc, argv)) {
			failures += sweep(&sc[i], points);
			run++;
		}
	unlink(native);
	free(sssp_ref);
	ordo_graph_free(road);
	if (!run) {
		fprintf(stderr, "alloc_fail: no scenario matches\n");
		return 2;
	}
	printf("%s: %d scenario(s), %d failing\n", failures ? "FAIL" : "alloc_fail passed", run,
	       failures);
	return failures ? 1 : 0;
}
