/*
 * stress_main - the conformance checks as a plain program (no Criterion), for the
 * ThreadSanitizer build and for long stress runs: every scheduler, T = 1, 2, 4, 8, 16
 * (capped by ORDO_STRESS_MAX_THREADS), task counts divided by ORDO_STRESS_SCALE.
 * Optional argument: run only the schedulers whose name is given.
 */
#include <stdio.h>
#include <string.h>

#include "conformance.h"

int main(int argc, char **argv)
{
	char msg[1024];
	int failures = 0;
	for (int i = 0; i < ordo_wl_count(); i++) {
		const struct ordo_wl_ops *ops = ordo_wl_at(i);
		bool chosen = argc < 2;
		for (int a = 1; a < argc; a++)
			chosen |= !strcmp(argv[a], ops->name);
		if (!chosen)
			continue;
		for (int T = 1; T <= conf_max_threads(); T *= 2) {
			int rc = conf_exactly_once(ops, T, conf_scale(1000000), false, 0, msg,
			                           sizeof msg);
			if (!rc)
				rc = conf_exactly_once(ops, T, conf_scale(300000), true,
				                       T >= 4 ? 2 : 0, msg, sizeof msg);
			if (!rc)
				rc = conf_spurious(ops, T, conf_scale(200000), msg, sizeof msg);
			if (!rc)
				rc = conf_sssp(ops, T, msg, sizeof msg);
			printf("%-8s T=%-2d %s%s\n", ops->name, T, rc ? "FAIL: " : "ok",
			       rc ? msg : "");
			fflush(stdout);
			failures += rc != 0;
		}
	}
	return failures ? 1 : 0;
}
