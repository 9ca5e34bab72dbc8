/* A program outside ordo that uses the installed package (see install_test.sh). */
#include <stdio.h>

#include "ordo_io.h"

int main(void)
{
	struct ordo_graph *g;
	struct ordo_err e;
	if (ordo_generate("grid:W=4,H=4", 1, &g, NULL, 0, &e))
		return 1;
	printf("%u %llu\n", g->n, (unsigned long long)g->m);
	ordo_graph_free(g);
	return 0;
}
