/*
 * ordo-convert: turn any supported input into any output format, or summarise it
 * (--info). Every output file is written under a staging name and the whole set is
 * renamed when all of it is complete (outputs.c), so an error or an interrupt never
 * leaves a partial file, or a partial set of files, behind.
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
	const struct ordo_cli_opt *tables[2] = {out_common_opts, ordo_cli_load_opts};
	struct option lopts[64];
	char sopts[64];
	struct ordo_cli_opt all[64];
	int k = 0;
	for (int t = 0; t < 2; t++)
		for (const struct ordo_cli_opt *o = tables[t]; o->name; o++)
			all[k++] = *o;
	all[k] = (struct ordo_cli_opt){0};
	ordo_cli_getopt_tables(all, lopts, sopts, sizeof sopts);
	int c;
	unsigned char seen[64] = {0};
	while ((c = ordo_cli_next(argc, argv, sopts, lopts, all, seen)) != -1) {
		if (c == 'h') {
			ordo_cli_print_help(
			    "usage: ordo-convert IN [-o] OUT [options]\n"
			    "Converts between graph formats (input detected by content).",
			    tables, 2);
			return 0;
		}
		int r = out_option(&cfg, c, optarg);
		if (r == OUT_NOT_MINE) /* 1 handled, 0 not a load option, -1 a bad value */
			r = ordo_cli_load_option(c, optarg, &cfg.lo);
		if ((r = out_exit_status(r)) >= 0)
			return r;
	}
	return out_finish(&cfg, argc, argv, false);
}
