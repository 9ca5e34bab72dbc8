/*
 * ordo_app_table.h - ordo's apps, one line each: ORDO_APP(name) for an app whose main
 * file is algorithms/<name>.c, defining `const struct ordo_app_kernel ordo_kernel_<name>` and
 * main() inside #ifndef ORDO_APP_LIBRARY. From this table come the binaries and the apps
 * library (algorithms/CMakeLists.txt reads the lines below), the kernels' declarations
 * (ordo_apps.h) and the Python package's list of apps. Keep one entry per line.
 */
ORDO_APP(sssp)
ORDO_APP(bfs)
ORDO_APP(astar)
ORDO_APP(mst)
ORDO_APP(kcore)
ORDO_APP(components)
ORDO_APP(pagerank)
