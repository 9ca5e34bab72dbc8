/*
 * ordo_coop.h - a core budget that ordo processes on one machine share (`--coop`).
 *
 * The budget is a small shared-memory segment (POSIX shm, /dev/shm/NAME) holding one
 * token per core. A worker of a cooperating run runs tasks only while its process holds
 * a token for its seat (runtime/seats.h); a worker that cannot get one parks, having
 * handed its tasks to a running worker, instead of being preempted by the OS in the
 * middle of a queue operation. When another process waits for a token, a process holding
 * more than its share (tokens / processes that hold or want some, at least one) gives
 * tokens back at its workers' next check point (every 64 tasks). With one process the
 * budget changes nothing but the cap: the run uses at most `tokens` workers.
 *
 * Each token is one word naming the slot of the process that holds it, taken and given
 * back by compare-and-swap, so a token is never duplicated. A process owns its slot
 * while it holds a file lock on the segment that the kernel drops when it dies (an
 * open-file-description lock, coop.c), not by its pid: processes in other PID
 * namespaces that share /dev/shm (containers) see each other's liveness right. A dead
 * holder's tokens are taken back by the next process that finds no free token. A
 * child forked after ordo_coop_open shares its parent's lock: the slot lives while
 * either does.
 *
 * Thread safety: every function may be called by any thread of the process at any
 * time, concurrently (a run's workers acquire and release for their seats), except
 * ordo_coop_close, which must be the last call on its handle. Messages name the budget
 * ("coop budget: ..."), not a command-line flag.
 */
#ifndef ORDO_COOP_H
#define ORDO_COOP_H

#include <stdbool.h>

#include "ordo_error.h"

struct ordo_coop;

/* The default segment name: "ordo-coop-UID" (one budget per user), in a buffer of the
 * calling thread's own (valid until that thread's next call; any thread may call). */
const char *ordo_coop_default_name(void);
/* Opens the budget NAME (no slash; created with `tokens` tokens when it does not exist,
 * tokens 0 = the CPUs of this process's affinity mask; an existing one keeps its count)
 * and registers this process. Errors: EINVAL (bad name), EIO (shm), EUNSUPPORTED (64
 * processes registered). */
int ordo_coop_open(const char *name, int tokens, struct ordo_coop **out, struct ordo_err *err);
/* Gives back every token its slot holds (whatever the count says) and the slot; never
 * waits. NULL is ignored. */
void ordo_coop_close(struct ordo_coop *c);
/* Removes the segment NAME (processes that have it open keep using it). */
int ordo_coop_unlink(const char *name);

/* One token for this process; false when none is free (this process is then marked as
 * waiting, until a later call gets one). */
bool ordo_coop_acquire(struct ordo_coop *c);
/* Gives one token back (no-op when it holds none; a token taken from it meanwhile
 * counts as given back). */
void ordo_coop_release(struct ordo_coop *c);
/* True when another process waits and this one holds more than its share. */
bool ordo_coop_should_yield(struct ordo_coop *c);
/* Tokens in the budget, free now, and held by this process. */
int ordo_coop_tokens(const struct ordo_coop *c);
int ordo_coop_free(const struct ordo_coop *c);
int ordo_coop_held(const struct ordo_coop *c);

#endif
