/*
 * topology.c - which CPU and NUMA node each worker thread belongs to.
 *
 * CPUs come from the inherited affinity mask (sched_getaffinity), so taskset/numactl
 * limits are respected. Thread t is assigned the t-th CPU of that mask (compact) or the
 * CPUs are dealt round-robin over the NUMA nodes (scatter); with --bind none the
 * assignment is nominal (it only tells schedulers which node a thread is "on") and no
 * thread is pinned. ORDO_FAKE_NUMA=N (or fake_numa) splits threads into N contiguous
 * virtual nodes so that NUMA-aware code runs on one-node machines.
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#ifdef ORDO_HAVE_NUMA
#include <numa.h>
#endif

#include "ordo_runtime.h"
#include "ordo_util.h"

int ordo_cpus_available(void)
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof set, &set))
		return 1;
	int c = CPU_COUNT(&set);
	return c > 0 ? c : 1;
}

static int node_of_cpu(int cpu, bool *have)
{
#ifdef ORDO_HAVE_NUMA
	if (numa_available() >= 0) {
		int n = numa_node_of_cpu(cpu);
		*have = true;
		return n < 0 ? 0 : n;
	}
#endif
	(void)cpu;
	*have = false;
	return 0;
}

void ordo_topology_free(struct ordo_topology *t)
{
	if (!t)
		return;
	free(t->node);
	free(t->cpu);
	free(t->first_of_node);
	free(t->threads_on);
	memset(t, 0, sizeof *t);
}

int ordo_topology_init(struct ordo_topology *t, int nthreads, int fake_numa, int bind,
                       struct ordo_err *err)
{
	memset(t, 0, sizeof *t);
	cpu_set_t set;
	int ncpu = 0, cpus[CPU_SETSIZE];
	if (sched_getaffinity(0, sizeof set, &set) == 0)
		for (int c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &set))
				cpus[ncpu++] = c;
	if (ncpu == 0)
		cpus[ncpu++] = 0;
	if (nthreads <= 0)
		nthreads = ncpu;
	if (nthreads > 4096)
		return ordo_err_set(err, ORDO_EINVAL, "%d threads: at most 4096", nthreads);
	if (bind != ORDO_BIND_NONE) {
		const char *pb = getenv("OMP_PROC_BIND");
		if (pb && *pb && strcmp(pb, "false") && strcmp(pb, "FALSE"))
			return ordo_err_set(
			    err, ORDO_EINVAL,
			    "OMP_PROC_BIND=%s is set: ordo does not rebind threads the "
			    "user bound; unset it or use --bind none",
			    pb);
	}
	if (fake_numa <= 0) {
		const char *env = getenv("ORDO_FAKE_NUMA");
		int64_t v;
		if (env && *env) {
			if (!ordo_parse_i64(env, &v, false) || v < 1 || v > 1024)
				return ordo_err_set(err, ORDO_EINVAL,
				                    "ORDO_FAKE_NUMA=%s: expected 1..1024", env);
			fake_numa = (int)v;
		}
	}
	t->nthreads = nthreads;
	t->bind = bind;
	t->node = calloc((size_t)nthreads, sizeof *t->node);
	t->cpu = calloc((size_t)nthreads, sizeof *t->cpu);
	if (!t->node || !t->cpu) {
		ordo_topology_free(t);
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	}
	/* real nodes of the CPUs; scatter deals CPUs round-robin across nodes */
	int cnode[CPU_SETSIZE], maxnode = 0;
	bool have = false;
	for (int i = 0; i < ncpu; i++) {
		cnode[i] = node_of_cpu(cpus[i], &have);
		maxnode = cnode[i] > maxnode ? cnode[i] : maxnode;
	}
	t->libnuma = have;
	int order[CPU_SETSIZE], k = 0;
	if (bind == ORDO_BIND_SCATTER) {
		int next[CPU_SETSIZE] = {0}; /* per node: cursor into cpus */
		while (k < ncpu)
			for (int nd = 0; nd <= maxnode && k < ncpu; nd++) {
				while (next[nd] < ncpu && cnode[next[nd]] != nd)
					next[nd]++;
				if (next[nd] < ncpu)
					order[k++] = next[nd]++;
			}
	} else {
		for (; k < ncpu; k++)
			order[k] = k;
	}
	for (int i = 0; i < nthreads; i++) {
		int c = order[i % ncpu];
		t->cpu[i] = cpus[c];
		t->node[i] = cnode[c];
	}
	if (fake_numa > 0) {
		t->fake = true;
		for (int i = 0; i < nthreads; i++)
			t->node[i] = (int)((int64_t)i * fake_numa / nthreads);
		maxnode = fake_numa - 1;
	}
	/* renumber the nodes in use densely 0..nnodes-1 */
	int map[CPU_SETSIZE];
	for (int i = 0; i <= maxnode && i < CPU_SETSIZE; i++)
		map[i] = -1;
	int nn = 0;
	for (int i = 0; i < nthreads; i++) {
		if (map[t->node[i]] < 0)
			map[t->node[i]] = nn++;
		t->node[i] = map[t->node[i]];
	}
	t->nnodes = nn;
	t->first_of_node = malloc((size_t)nn * sizeof *t->first_of_node);
	t->threads_on = calloc((size_t)nn, sizeof *t->threads_on);
	if (!t->first_of_node || !t->threads_on) {
		ordo_topology_free(t);
		return ordo_err_set(err, ORDO_ENOMEM, "out of memory");
	}
	for (int i = nthreads - 1; i >= 0; i--) {
		t->first_of_node[t->node[i]] = i;
		t->threads_on[t->node[i]]++;
	}
	return 0;
}
