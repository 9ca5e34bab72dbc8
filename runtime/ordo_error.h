/*
 * ordo_error.h - status codes and error messages shared by every ordo library.
 *
 * Library functions return 0 on success or a negative ORDO_E* code, and may fill a
 * caller-owned struct ordo_err with a message that carries context (file, line, byte
 * offset, what was expected, what was found). Nothing below algorithms/ prints or exits.
 * All functions here are thread-safe as long as each thread uses its own ordo_err.
 */
#ifndef ORDO_ERROR_H
#define ORDO_ERROR_H

#include <stddef.h>

enum ordo_status {
	ORDO_OK = 0,
	ORDO_EINVAL = -1,       /* bad argument or option value */
	ORDO_ENOMEM = -2,       /* allocation failed or would be absurdly large */
	ORDO_EIO = -3,          /* open/read/write failed (errno text in the message) */
	ORDO_EFORMAT = -4,      /* malformed input file */
	ORDO_ERANGE = -5,       /* a value does not fit (ids, weights, counts) */
	ORDO_EUNSUPPORTED = -6, /* valid input that ordo does not handle */
	ORDO_ECHECKSUM = -7,    /* stored checksum does not match the data */
	ORDO_ECANCELED = -8,    /* stopped by its caller (ordo_exec_opts.cancel) */
	ORDO_ESCHEDULER = -9, /* a scheduler broke its contract: a task given out twice, or lost */
};

/* A message buffer. `code` repeats the status the message belongs to. */
struct ordo_err {
	int code;
	char msg[1024];
};

/* Static description of a status code; never NULL. */
const char *ordo_strerror(int code);

/* Records `code` and a printf-style message in `e` (which may be NULL) and returns
 * `code`, so callers can write `return ordo_err_set(e, ORDO_EFORMAT, "...")`. */
int ordo_err_set(struct ordo_err *e, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Prefixes the message already in `e` with more context ("loading x: " ...). */
void ordo_err_prefix(struct ordo_err *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Process exit status for a status code: 0 for success, 2 for bad input or usage
 * (EINVAL, EFORMAT, ERANGE, EUNSUPPORTED, ECHECKSUM), 3 for I/O and memory failures
 * and a scheduler that broke its contract (ESCHEDULER). */
int ordo_exit_status(int code);

#endif
