/*
 * coop.c - the shared core budget of ordo_coop.h: a shm segment of token words (each
 * holds the pid of its holder, or 0) and a table of the registered processes (pid, and
 * whether it waits for a token).
 */

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ordo_coop.h"
#include "ordo_runtime.h"

#define COOP_MAGIC      0x706f6f636f64726full /* "ordocoop" */
#define COOP_PROCS      64
#define COOP_MAX_TOKENS 1024

struct coop_proc {
	_Atomic int32_t pid; /* 0: free slot; -1: being cleared */
	_Atomic int32_t waiting;
};

struct coop_shm {
	_Atomic uint64_t magic; /* stored last by the creator */
	int32_t tokens;
	_Atomic int32_t waiting; /* processes whose waiting flag is set */
	struct coop_proc proc[COOP_PROCS];
	_Atomic int32_t token[]; /* holder pid, or 0 */
};

struct ordo_coop {
	struct coop_shm *m;
	size_t size;
	struct coop_proc *me;
	int32_t pid;
	_Atomic int held;      /* tokens this process holds */
	_Atomic bool yielding; /* one of its workers is giving a token back */
};

static size_t shm_size(int tokens)
{
	return sizeof(struct coop_shm) + (size_t)tokens * sizeof(_Atomic int32_t);
}

const char *ordo_coop_default_name(void)
{
	static char name[32];
	snprintf(name, sizeof name, "ordo-coop-%u", (unsigned)getuid());
	return name;
}

int ordo_coop_unlink(const char *name)
{
	char path[256];
	snprintf(path, sizeof path, "/%s", name);
	return shm_unlink(path);
}

static bool alive(int32_t pid)
{
	return pid > 0 && (kill(pid, 0) == 0 || errno != ESRCH);
}

static void set_waiting(struct ordo_coop *c, bool w)
{
	if (atomic_load_explicit(&c->me->waiting, memory_order_relaxed) == (int32_t)w)
		return;
	if (atomic_exchange(&c->me->waiting, (int32_t)w) != (int32_t)w)
		atomic_fetch_add(&c->m->waiting, w ? 1 : -1);
}

/* Frees the registration and tokens of processes that died; true when any came back. */
static bool reclaim_dead(struct coop_shm *m)
{
	bool any = false;
	for (int i = 0; i < m->tokens; i++) {
		int32_t p = atomic_load(&m->token[i]);
		if (p > 0 && !alive(p) && atomic_compare_exchange_strong(&m->token[i], &p, 0))
			any = true;
	}
	for (int i = 0; i < COOP_PROCS; i++) {
		struct coop_proc *q = &m->proc[i];
		int32_t p = atomic_load(&q->pid);
		if (p > 0 && !alive(p) && atomic_compare_exchange_strong(&q->pid, &p, -1)) {
			if (atomic_exchange(&q->waiting, 0))
				atomic_fetch_sub(&m->waiting, 1);
			atomic_store(&q->pid, 0);
		}
	}
	return any;
}

/* Maps an existing segment, or creates it; waits for its creator's initialisation. */
static int map_segment(const char *path, int tokens, struct ordo_coop *c, struct ordo_err *err)
{
	int fd = shm_open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
	const bool creator = fd >= 0;
	if (!creator && errno == EEXIST)
		fd = shm_open(path, O_RDWR, 0600);
	if (fd < 0)
		return ordo_err_set(err, ORDO_EIO, "--coop: cannot open shared memory %s: %s", path,
		                    strerror(errno));
	struct stat st;
	if (creator) {
		if (ftruncate(fd, (off_t)shm_size(tokens))) {
			close(fd);
			shm_unlink(path);
			return ordo_err_set(err, ORDO_EIO, "--coop: cannot size %s: %s", path,
			                    strerror(errno));
		}
	} else {
		/* the creator sizes it right after creating it */
		for (int i = 0; i < 1000 && !fstat(fd, &st) && (size_t)st.st_size < shm_size(1);
		     i++)
			usleep(1000);
		if (fstat(fd, &st) || (size_t)st.st_size < shm_size(1)) {
			close(fd);
			return ordo_err_set(err, ORDO_EIO,
			                    "--coop: %s is not an ordo budget (size)", path);
		}
		tokens = (int)(((size_t)st.st_size - sizeof(struct coop_shm)) / sizeof(int32_t));
	}
	c->size = shm_size(tokens);
	void *p = mmap(NULL, c->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return ordo_err_set(err, ORDO_EIO, "--coop: cannot map %s: %s", path,
		                    strerror(errno));
	c->m = p;
	if (creator) {
		c->m->tokens = tokens;
		atomic_store_explicit(&c->m->magic, COOP_MAGIC, memory_order_release);
		return 0;
	}
	for (int i = 0; i < 1000; i++) {
		if (atomic_load_explicit(&c->m->magic, memory_order_acquire) == COOP_MAGIC &&
		    c->m->tokens == tokens)
			return 0;
		usleep(1000);
	}
	munmap(p, c->size);
	return ordo_err_set(err, ORDO_EIO, "--coop: %s is not an ordo budget", path);
}

int ordo_coop_open(const char *name, int tokens, struct ordo_coop **out, struct ordo_err *err)
{
	*out = NULL;
	if (!name || !*name || strchr(name, '/') || strlen(name) > 200)
		return ordo_err_set(err, ORDO_EINVAL,
		                    "--coop: a budget's name is a word without '/', got '%s'",
		                    name ? name : "");
	if (tokens <= 0)
		tokens = ordo_cpus_available();
	if (tokens > COOP_MAX_TOKENS)
		tokens = COOP_MAX_TOKENS;
	struct ordo_coop *c = calloc(1, sizeof *c);
	if (!c)
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	char path[256];
	snprintf(path, sizeof path, "/%s", name);
	int rc = map_segment(path, tokens, c, err);
	if (rc) {
		free(c);
		return rc;
	}
	c->pid = (int32_t)getpid();
	for (int pass = 0; pass < 2 && !c->me; pass++) {
		for (int i = 0; i < COOP_PROCS && !c->me; i++) {
			int32_t z = 0;
			if (atomic_compare_exchange_strong(&c->m->proc[i].pid, &z, c->pid))
				c->me = &c->m->proc[i];
		}
		if (!c->me)
			reclaim_dead(c->m);
	}
	if (!c->me) {
		munmap(c->m, c->size);
		free(c);
		return ordo_err_set(err, ORDO_EUNSUPPORTED, "--coop: %d processes share %s already",
		                    COOP_PROCS, path);
	}
	*out = c;
	return 0;
}

bool ordo_coop_acquire(struct ordo_coop *c)
{
	struct coop_shm *m = c->m;
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < m->tokens; i++) {
			int32_t z = 0;
			if (atomic_load_explicit(&m->token[i], memory_order_relaxed) == 0 &&
			    atomic_compare_exchange_strong(&m->token[i], &z, c->pid)) {
				atomic_fetch_add(&c->held, 1);
				set_waiting(c, false);
				return true;
			}
		}
		if (!reclaim_dead(m))
			break;
	}
	set_waiting(c, true);
	return false;
}

void ordo_coop_release(struct ordo_coop *c)
{
	struct coop_shm *m = c->m;
	for (int i = 0; i < m->tokens; i++) {
		int32_t p = c->pid;
		if (atomic_compare_exchange_strong(&m->token[i], &p, 0)) {
			atomic_fetch_sub(&c->held, 1);
			atomic_store(&c->yielding, false);
			return;
		}
	}
}

bool ordo_coop_should_yield(struct ordo_coop *c)
{
	struct coop_shm *m = c->m;
	int32_t others = atomic_load_explicit(&m->waiting, memory_order_relaxed) -
	                 atomic_load_explicit(&c->me->waiting, memory_order_relaxed);
	int held = atomic_load_explicit(&c->held, memory_order_relaxed);
	if (others <= 0 || held <= 1)
		return false;
	/* the share: tokens over the processes that hold or want some */
	int active = 0;
	for (int i = 0; i < COOP_PROCS; i++) {
		int32_t p = atomic_load_explicit(&m->proc[i].pid, memory_order_relaxed);
		if (p <= 0)
			continue;
		bool holds = false;
		for (int k = 0; k < m->tokens && !holds; k++)
			holds = atomic_load_explicit(&m->token[k], memory_order_relaxed) == p;
		active += holds || atomic_load_explicit(&m->proc[i].waiting, memory_order_relaxed);
	}
	int share = active ? m->tokens / active : m->tokens;
	/* one worker at a time gives a token back (the flag clears when it has) */
	return held > (share > 1 ? share : 1) && !atomic_exchange(&c->yielding, true);
}

int ordo_coop_tokens(const struct ordo_coop *c)
{
	return c->m->tokens;
}

int ordo_coop_free(const struct ordo_coop *c)
{
	int n = 0;
	for (int i = 0; i < c->m->tokens; i++)
		n += atomic_load(&c->m->token[i]) == 0;
	return n;
}

int ordo_coop_held(const struct ordo_coop *c)
{
	return atomic_load(&((struct ordo_coop *)c)->held);
}

void ordo_coop_close(struct ordo_coop *c)
{
	if (!c)
		return;
	while (atomic_load(&c->held) > 0)
		ordo_coop_release(c);
	set_waiting(c, false);
	atomic_store(&c->me->pid, 0);
	munmap(c->m, c->size);
	free(c);
}
