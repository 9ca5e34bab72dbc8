"""ordo_bench - the benchmark driver behind bench/ordo-bench (its usage: cli.py).

Modules, each a step of a measurement:
  common   result files (gzip-aware), spec grids, paths, constants
  cells    inputs, scheduler grids, variants and noises; the order of a sweep
  run      one process of the real binary per cell and round (run, compare, jobs, cell,
           merge)
  results  result files read back: records of the asked cells, medians per cell
  report   Markdown tables (report)
  micro    the schedulers alone and graph loading (rank, mono, load)
  bundle   a folder that runs a sweep elsewhere with /bin/sh alone (bundle)
  page     generated blocks of bench/RESULTS.md and bench/LOG.md (page)
  plot     figures (plot)
  cli      the command line (main)
"""
from .cells import cell_key, expand_inputs, registered_schedulers, schedule
from .common import expand_list, expand_spec, expand_values
from .results import load_results

__all__ = ["cell_key", "expand_inputs", "registered_schedulers", "schedule", "expand_list",
           "expand_spec", "expand_values", "load_results"]
