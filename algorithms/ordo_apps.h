/*
 * ordo_apps.h - the kernels of ordo's own apps (struct ordo_app_kernel, ordo_app.h), in the
 * library ordo_apps, so that bindings run them exactly as the binaries do (through an
 * ordo_app_session). Each app binary is its kernel and ordo_app_main; the apps are listed once,
 * in ordo_app_table.h.
 */
#ifndef ORDO_APPS_H
#define ORDO_APPS_H

#include "ordo_app.h"

#define ORDO_APP(name) extern const struct ordo_app_kernel ordo_kernel_##name;
#include "ordo_app_table.h"
#undef ORDO_APP

#endif
