/*
 * coop.c - the shared core budget of ordo_coop.h: a shm segment of token words (each
 * holds the slot of its holder plus one, or 0) and a table of process slots.
 *
 * Liveness without pids. A process owns slot i while it holds an open-file-description
 * write lock on byte i of the segment (fcntl F_OFD_SETLK on its own descriptor); the
 * kernel drops the lock when the process dies, whatever PID namespace it or the
 * looker lives in (containers that share /dev/shm see each other's pids as dead or as
 * someone else). So:
 *   - registering is taking the lock of a free slot (a non-blocking try; a held lock
 *     is a live owner); the winner first gives back any token still marked with the
 *     slot (its dead predecessor's), then marks the slot used;
 *   - a slot whose lock can be taken is dead: whoever takes it (to reclaim its tokens
 *     when none is free) owns it for that moment, so nobody can register there while
 *     its tokens are given back, and it lets the lock go after;
 *   - a token is taken and given back by compare-and-swap on its word, never
 *     duplicated; release and close end whatever the words say (a token taken from a
 *     process, wrongly, is no longer counted as held, and close never waits for it).
 * Memory orders: every atomic here is relaxed, and that is enough. No data is published
 * through the segment: a token is a permit, not a lock on memory (the tasks a parking
 * worker hands over go through the executor's own orders, seats.c), so what matters is
 * each word's own modification order, which every atomic has whatever its order: a CAS
 * on a token word succeeds for one taker at a time, and `held`, `waiting` and
 * `yielding` change only by read-modify-writes. The counters are read by the yield
 * rule as hints that later calls correct, never to decide who holds what; and slot
 * ownership is decided by the OFD lock, a system call ordered with everything around
 * it. tests/test_coop.c races 8 processes for one token under these orders (never two
 * holders; with a load and a store in place of the CAS, hundreds).
 */

#include <errno.h>
#include <fcntl.h>
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

#define COOP_MAGIC      0x32706f636f64726full /* "ordocop2": slots by lock, not by pid */
#define COOP_PROCS      64
#define COOP_MAX_TOKENS 1024

struct coop_proc {
	_Atomic int32_t used; /* 1 while a live process owns the slot (it holds its lock) */
	_Atomic int32_t waiting;
	_Atomic int32_t pid; /* the owner's pid in its own namespace: for people, not logic */
};

struct coop_shm {
	_Atomic uint64_t magic; /* stored last by the creator */
	int32_t tokens;
	_Atomic int32_t waiting; /* processes whose waiting flag is set */
	struct coop_proc proc[COOP_PROCS];
	_Atomic int32_t token[]; /* holder's slot + 1, or 0 */
};

struct ordo_coop {
	struct coop_shm *m;
	size_t size;
	int fd; /* the descriptor whose OFD lock on byte `slot` is this process's life */
	int slot;
	struct coop_proc *me;
	int32_t id;            /* slot + 1: what its token words hold */
	_Atomic int held;      /* tokens this process holds */
	_Atomic bool yielding; /* one of its workers is giving a token back */
};

static size_t shm_size(int tokens)
{
	return sizeof(struct coop_shm) + (size_t)tokens * sizeof(_Atomic int32_t);
}

const char *ordo_coop_default_name(void)
{
	static _Thread_local char name[32]; /* the caller's own: threads may call at once */
	snprintf(name, sizeof name, "ordo-coop-%u", (unsigned)getuid());
	return name;
}

int ordo_coop_unlink(const char *name)
{
	char path[256];
	snprintf(path, sizeof path, "/%s", name);
	return shm_unlink(path);
}

/* Takes (F_WRLCK) or lets go (F_UNLCK) of slot i's lock on fd, without waiting;
 * false when another descriptor holds it. */
static bool slot_lock(int fd, int i, short type)
{
	struct flock l = {.l_type = type, .l_whence = SEEK_SET, .l_start = i, .l_len = 1};
	return fcntl(fd, F_OFD_SETLK, &l) == 0;
}

static void set_waiting(struct coop_shm *m, struct coop_proc *q, bool w)
{
	if (atomic_load_explicit(&q->waiting, memory_order_relaxed) == (int32_t)w)
		return;
	if (atomic_exchange_explicit(&q->waiting, (int32_t)w, memory_order_relaxed) != (int32_t)w)
		atomic_fetch_add_explicit(&m->waiting, w ? 1 : -1, memory_order_relaxed);
}

/* Gives back every token marked with slot i and its waiting flag; the caller holds
 * slot i's lock (its owner is dead, or it is the caller). True when any came back. */
static bool clear_slot(struct coop_shm *m, int i)
{
	bool any = false;
	for (int k = 0; k < m->tokens; k++) {
		int32_t p = i + 1;
		if (atomic_load_explicit(&m->token[k], memory_order_relaxed) == p &&
		    atomic_compare_exchange_strong_explicit(
		        &m->token[k], &p, 0, memory_order_relaxed, memory_order_relaxed))
			any = true;
	}
	set_waiting(m, &m->proc[i], false);
	atomic_store_explicit(&m->proc[i].used, 0, memory_order_relaxed);
	return any;
}

/* Frees the tokens and slots of processes that died (their locks can be taken); true
 * when any token came back. `fd` is the caller's descriptor, `mine` its own slot. */
static bool reclaim_dead(struct coop_shm *m, int fd, int mine)
{
	bool any = false;
	for (int i = 0; i < COOP_PROCS; i++) {
		if (i == mine || !atomic_load_explicit(&m->proc[i].used, memory_order_relaxed))
			continue;
		if (slot_lock(fd, i, F_WRLCK)) { /* nobody alive owns it */
			any |= clear_slot(m, i);
			slot_lock(fd, i, F_UNLCK);
		}
	}
	return any;
}

/* Maps an existing segment, or creates it; waits for its creator's initialisation.
 * Keeps the descriptor (c->fd): its locks are the process's slot. */
static int map_segment(const char *path, int tokens, struct ordo_coop *c, struct ordo_err *err)
{
	int fd = shm_open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
	const bool creator = fd >= 0;
	if (!creator && errno == EEXIST)
		fd = shm_open(path, O_RDWR, 0600);
	if (fd < 0)
		return ordo_err_set(err, ORDO_EIO, "coop budget: cannot open shared memory %s: %s",
		                    path, strerror(errno));
	struct stat st;
	if (creator) {
		if (ftruncate(fd, (off_t)shm_size(tokens))) {
			close(fd);
			shm_unlink(path);
			return ordo_err_set(err, ORDO_EIO, "coop budget: cannot size %s: %s", path,
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
			                    "coop budget: %s is not an ordo budget (size)", path);
		}
		tokens = (int)(((size_t)st.st_size - sizeof(struct coop_shm)) / sizeof(int32_t));
	}
	c->size = shm_size(tokens);
	void *p = mmap(NULL, c->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		close(fd);
		return ordo_err_set(err, ORDO_EIO, "coop budget: cannot map %s: %s", path,
		                    strerror(errno));
	}
	c->m = p;
	c->fd = fd;
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
	close(fd);
	return ordo_err_set(err, ORDO_EIO,
	                    "coop budget: %s is not an ordo budget of this version (remove it "
	                    "when no ordo runs: rm /dev/shm%s)",
	                    path, path);
}

int ordo_coop_open(const char *name, int tokens, struct ordo_coop **out, struct ordo_err *err)
{
	*out = NULL;
	if (!name || !*name || strchr(name, '/') || strlen(name) > 200)
		return ordo_err_set(err, ORDO_EINVAL,
		                    "coop budget: a budget's name is a word without '/', got '%s'",
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
	c->slot = -1;
	for (int i = 0; i < COOP_PROCS && c->slot < 0; i++)
		if (slot_lock(c->fd, i, F_WRLCK)) {
			clear_slot(c->m, i); /* a dead predecessor's tokens, if any */
			c->slot = i;
		}
	if (c->slot < 0) {
		munmap(c->m, c->size);
		close(c->fd);
		free(c);
		return ordo_err_set(err, ORDO_EUNSUPPORTED,
		                    "coop budget: %d processes share %s already", COOP_PROCS, path);
	}
	c->me = &c->m->proc[c->slot];
	c->id = c->slot + 1;
	atomic_store_explicit(&c->me->pid, (int32_t)getpid(), memory_order_relaxed);
	atomic_store_explicit(&c->me->used, 1, memory_order_relaxed);
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
			    atomic_compare_exchange_strong_explicit(&m->token[i], &z, c->id,
			                                            memory_order_relaxed,
			                                            memory_order_relaxed)) {
				atomic_fetch_add_explicit(&c->held, 1, memory_order_relaxed);
				set_waiting(m, c->me, false);
				return true;
			}
		}
		if (!reclaim_dead(m, c->fd, c->slot))
			break;
	}
	set_waiting(m, c->me, true);
	return false;
}

void ordo_coop_release(struct ordo_coop *c)
{
	struct coop_shm *m = c->m;
	if (atomic_load_explicit(&c->held, memory_order_relaxed) <= 0)
		return;
	for (int i = 0; i < m->tokens; i++) {
		int32_t p = c->id;
		if (atomic_compare_exchange_strong_explicit(
		        &m->token[i], &p, 0, memory_order_relaxed, memory_order_relaxed))
			break;
	}
	/* counted as given back even when no word named it (taken from this process):
	 * what it holds is what its words say, and close must end */
	atomic_fetch_sub_explicit(&c->held, 1, memory_order_relaxed);
	atomic_store_explicit(&c->yielding, false, memory_order_relaxed);
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
		if (!atomic_load_explicit(&m->proc[i].used, memory_order_relaxed))
			continue;
		bool holds = false;
		for (int k = 0; k < m->tokens && !holds; k++)
			holds = atomic_load_explicit(&m->token[k], memory_order_relaxed) == i + 1;
		active += holds || atomic_load_explicit(&m->proc[i].waiting, memory_order_relaxed);
	}
	int share = active ? m->tokens / active : m->tokens;
	/* one worker at a time gives a token back (the flag clears when it has) */
	return held > (share > 1 ? share : 1) &&
	       !atomic_exchange_explicit(&c->yielding, true, memory_order_relaxed);
}

int ordo_coop_tokens(const struct ordo_coop *c)
{
	return c->m->tokens;
}

int ordo_coop_free(const struct ordo_coop *c)
{
	int n = 0;
	for (int i = 0; i < c->m->tokens; i++)
		n += atomic_load_explicit(&c->m->token[i], memory_order_relaxed) == 0;
	return n;
}

int ordo_coop_held(const struct ordo_coop *c)
{
	return atomic_load_explicit(&((struct ordo_coop *)c)->held, memory_order_relaxed);
}

void ordo_coop_close(struct ordo_coop *c)
{
	if (!c)
		return;
	/* every token word with this slot's id, whatever the count says; then the slot */
	clear_slot(c->m, c->slot);
	atomic_store_explicit(&c->held, 0, memory_order_relaxed);
	atomic_store_explicit(&c->me->pid, 0, memory_order_relaxed);
	slot_lock(c->fd, c->slot, F_UNLCK);
	munmap(c->m, c->size);
	close(c->fd);
	free(c);
}
