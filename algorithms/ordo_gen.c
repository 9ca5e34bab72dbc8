/*
 * ordo-gen: write a generated graph (road, grid, R-MAT; deterministic from its spec)
 * in any output format, the set of files whole or not at all (outputs.c).
 */
#include <stdio.h>
#include <string.h>

#include "outputs.h"

int main(int argc, char **argv)
{
	const char *slash = strrchr(argv[0], '/');
	ordo_cli_prog = slash ? slash + 1 : argv[0];
	struct out_cfg cfg;
	out_init(&cfg);
	/* the common options but --seed (a generator's seed is part of its spec) */
	struct ordo_cli_opt opts[32];
	int k = 0;
	for (const struct ordo_cli_opt *o = out_common_opts; o->name; o++)
		if (o->key != O_SEED)
			opts[k++] = *o;
	opts[k] = (struct ordo_cli_opt){0};
	const struct ordo_cli_opt *tables[1] = {opts};
	struct option lopts[64];
	char sopts[64];
	ordo_cli_getopt_tables(opts, lopts, sopts, sizeof sopts);
	int c;
	unsigned char seen[64] = {0};
	while ((c = ordo_cli_next(argc, argv, sopts, lopts, opts, seen)) != -1) {
		if (c == 'h') {
			ordo_cli_print_help(
			    "usage: ordo-gen SPEC -o OUT [options]\n"
			    "Generates a graph, deterministic from the spec (same output "
			    "for any thread count).\n"
			    "SPEC is NAME:key=value,... with these generators:",
			    tables, 0);
			char buf[4096];
			ordo_generate_help(buf, sizeof buf);
			printf("%s", buf);
			ordo_cli_print_help("\noptions:", tables, 1);
			return 0;
		}
		int r = out_option(&cfg, c, optarg);
		if ((r = out_exit_status(r)) >= 0)
			return r;
	}
	return out_finish(&cfg, argc, argv, true);
}
