/*
 * ordo_apps.h - the kernels of ordo's own apps (struct app_kernel, ordo_app.h), in the
 * library ordo_apps, so that bindings run them exactly as the binaries do (through an
 * app_session). Each app binary is its kernel and app_main.
 */
#ifndef ORDO_APPS_H
#define ORDO_APPS_H

#include "ordo_app.h"

extern const struct app_kernel ordo_kernel_sssp;
extern const struct app_kernel ordo_kernel_bfs;
extern const struct app_kernel ordo_kernel_astar;
extern const struct app_kernel ordo_kernel_mst;
extern const struct app_kernel ordo_kernel_kcore;

#endif
