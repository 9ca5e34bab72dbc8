/* error.c - status codes and message buffers (see ordo_error.h). */
#include "ordo_error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *ordo_strerror(int code)
{
	switch (code) {
	case ORDO_OK:
		return "success";
	case ORDO_EINVAL:
		return "invalid argument";
	case ORDO_ENOMEM:
		return "out of memory";
	case ORDO_EIO:
		return "input/output error";
	case ORDO_EFORMAT:
		return "malformed input";
	case ORDO_ERANGE:
		return "value out of range";
	case ORDO_EUNSUPPORTED:
		return "unsupported input";
	case ORDO_ECHECKSUM:
		return "checksum mismatch";
	case ORDO_ECANCELED:
		return "interrupted";
	case ORDO_ESCHEDULER:
		return "scheduler broke its contract";
	default:
		return "unknown error";
	}
}

int ordo_err_set(struct ordo_err *e, int code, const char *fmt, ...)
{
	if (e) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(e->msg, sizeof e->msg, fmt, ap);
		va_end(ap);
		e->code = code;
	}
	return code;
}

void ordo_err_prefix(struct ordo_err *e, const char *fmt, ...)
{
	if (!e)
		return;
	char head[512], old[sizeof e->msg];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(head, sizeof head, fmt, ap);
	va_end(ap);
	memcpy(old, e->msg, sizeof old);
	snprintf(e->msg, sizeof e->msg, "%s%s", head, old);
}

int ordo_exit_status(int code)
{
	switch (code) {
	case ORDO_OK:
		return 0;
	case ORDO_EIO:
	case ORDO_ENOMEM:
	case ORDO_ESCHEDULER:
		return 3;
	default:
		return 2;
	}
}
