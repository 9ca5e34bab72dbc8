/* The runner of the Criterion stand-in (criterion/criterion.h): every registered test
 * in registration order, or those whose "suite/name" starts with an argument. */
#include <stdarg.h>
#include <stdlib.h>

#include "criterion/criterion.h"

#define MAX_TESTS 256

struct test {
	const char *suite, *name;
	void (*fn)(void);
};
static struct test tests[MAX_TESTS];
static int ntests, failed_expectations;

void crshim_register(const char *suite, const char *name, void (*fn)(void))
{
	if (ntests < MAX_TESTS)
		tests[ntests++] = (struct test){suite, name, fn};
}

void crshim_fail(bool fatal, const char *file, int line, const char *expr, const char *fmt, ...)
{
	fprintf(stderr, "%s:%d: %s failed: %s", file, line, fatal ? "assertion" : "expectation",
	        expr);
	if (*fmt) {
		va_list ap;
		va_start(ap, fmt);
		fputs(": ", stderr);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
	}
	fputc('\n', stderr);
	if (fatal)
		exit(1);
	failed_expectations++;
}

void crshim_log(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("  ", stdout);
	vprintf(fmt, ap);
	fputc('\n', stdout);
	va_end(ap);
}

int main(int argc, char **argv)
{
	int run = 0;
	for (int i = 0; i < ntests; i++) {
		char full[256];
		snprintf(full, sizeof full, "%s/%s", tests[i].suite, tests[i].name);
		bool chosen = argc < 2;
		for (int a = 1; a < argc; a++)
			chosen |= !strncmp(full, argv[a], strlen(argv[a]));
		if (!chosen)
			continue;
		printf("%s\n", full);
		fflush(stdout);
		tests[i].fn();
		run++;
	}
	printf("%d test(s), %d failed expectation(s)\n", run, failed_expectations);
	return failed_expectations || !run ? 1 : 0;
}
