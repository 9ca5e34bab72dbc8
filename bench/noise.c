/*
 * noise - interference for benchmarks on a shared machine on purpose (ordo-bench run
 * --noise): N threads that keep a core busy until the process is told to stop.
 *
 *   noise spin N    N threads busy-looping (another job's compute)
 *   noise alloc N   N threads allocating, touching and freeing garbage (a garbage
 *                   collector's stand-in: memory traffic and page faults as well as CPU)
 *
 * Prints "ready" on stdout once every thread runs, then runs until SIGTERM or SIGINT
 * (or its stdin closes, so that it never outlives a driver that died), and exits 0.
 */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static atomic_bool stop;
static atomic_int started;

static void *spin(void *arg)
{
	(void)arg;
	atomic_fetch_add(&started, 1);
	volatile uint64_t x = 1;
	while (!atomic_load_explicit(&stop, memory_order_relaxed))
		for (int i = 0; i < 4096; i++)
			x = x * 6364136223846793005ull + 1442695040888963407ull;
	return NULL;
}

/* Keeps a ring of live blocks of 1 KiB - 1 MiB, replacing one at a time: allocation,
 * first-touch page faults and frees, as a program producing garbage has. */
static void *alloc(void *arg)
{
	uint64_t s = (uint64_t)(uintptr_t)arg * 0x9E3779B97F4A7C15ull + 1;
	enum { LIVE = 64 };
	char *live[LIVE] = {0};
	atomic_fetch_add(&started, 1);
	for (unsigned k = 0; !atomic_load_explicit(&stop, memory_order_relaxed); k++) {
		s ^= s << 13, s ^= s >> 7, s ^= s << 17;
		size_t len = (size_t)1024 << (s % 11);
		free(live[k % LIVE]);
		live[k % LIVE] = malloc(len);
		if (live[k % LIVE])
			memset(live[k % LIVE], (int)k, len);
	}
	for (int i = 0; i < LIVE; i++)
		free(live[i]);
	return NULL;
}

static void on_signal(int sig)
{
	(void)sig;
	atomic_store(&stop, true);
}

static void *watch_stdin(void *arg)
{
	(void)arg;
	char c;
	while (read(0, &c, 1) > 0)
		;
	atomic_store(&stop, true);
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc != 3 || (strcmp(argv[1], "spin") && strcmp(argv[1], "alloc"))) {
		fprintf(stderr, "usage: noise spin|alloc N  (N threads; runs until SIGTERM, "
		                "SIGINT or the end of stdin)\n");
		return 2;
	}
	char *end;
	long n = strtol(argv[2], &end, 10);
	if (*end || n < 1 || n > 1024) {
		fprintf(stderr, "noise: N = %s: expected 1..1024 threads\n", argv[2]);
		return 2;
	}
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	pthread_t *t = calloc((size_t)n, sizeof *t), w;
	if (!t)
		return 3;
	void *(*fn)(void *) = strcmp(argv[1], "spin") ? alloc : spin;
	for (long i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, fn, (void *)(uintptr_t)i)) {
			fprintf(stderr, "noise: could not start thread %ld\n", i);
			return 3;
		}
	pthread_create(&w, NULL, watch_stdin, NULL);
	pthread_detach(w);
	while (atomic_load(&started) < n)
		usleep(100);
	printf("ready\n");
	fflush(stdout);
	for (long i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	free(t);
	return 0;
}
