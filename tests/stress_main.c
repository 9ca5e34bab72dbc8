/*
 * stress_main - the conformance checks as a plain program (no Criterion), for the
 * ThreadSanitizer build and for long stress runs: every scheduler, T = 1, 2, 4, 8, 16
 * (capped by ORDO_STRESS_MAX_THREADS), task counts divided by ORDO_STRESS_SCALE.
 * Optional arguments: run only the specs that start with one of them.
 */
#include <stdio.h>
#include <string.h>

#include "conformance.h"

int main(int argc, char **argv)
{
	char msg[1024];
	int failures = 0;
	for (int i = 0; conf_specs[i]; i++) {
		const char *spec = conf_specs[i];
		bool chosen = argc < 2;
		for (int a = 1; a < argc; a++)
			chosen |= !strncmp(argv[a], spec, strlen(argv[a]));
		if (!chosen)
			continue;
		for (int T = 1; T <= conf_max_threads(); T *= 2) {
			int rc = conf_exactly_once(spec, T, conf_scale(1000000), false, 0, msg,
			                           sizeof msg);
			if (!rc)
				rc = conf_exactly_once(spec, T, conf_scale(300000), true,
				                       T >= 4 ? 2 : 0, msg, sizeof msg);
			if (!rc)
				rc = conf_spurious(spec, T, conf_scale(200000), msg, sizeof msg);
			if (!rc)
				rc = conf_chain(spec, T, conf_scale(20000), msg, sizeof msg);
			if (!rc && T >= 2)
				rc = conf_parking(spec, T, conf_scale(100000), T / 2, false, msg,
				                  sizeof msg);
			if (!rc && T >= 2)
				rc = conf_parking(spec, T, conf_scale(5000), 1, true, msg,
				                  sizeof msg);
			if (!rc && T >= 2)
				rc = conf_stalls(spec, T, conf_scale(20000), NULL, msg, sizeof msg);
			if (!rc)
				rc = conf_loops(spec, T, conf_scale(20000), msg, sizeof msg);
			if (!rc)
				rc = conf_sssp(spec, T, msg, sizeof msg);
			printf("%-40s T=%-2d %s%s\n", spec, T, rc ? "FAIL: " : "ok", rc ? msg : "");
			fflush(stdout);
			failures += rc != 0;
		}
	}
	return failures ? 1 : 0;
}
