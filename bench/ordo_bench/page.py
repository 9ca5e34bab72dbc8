"""Generated blocks of a Markdown page (bench/RESULTS.md, bench/LOG.md): regenerate or
check them."""
import argparse
import os
import re
import sys

from .common import HERE, die
from .report import md_ab_table, md_apps_table, md_cells_table, md_environment, md_heatmaps, md_load_table, md_mono_table, md_rank_table, micro_rows
from .results import load_results, summarise, variant_order


# ---- the results page ----------------------------------------------------------------

PAGE_RE = re.compile(r"(<!-- ordo-bench (\w+)((?: [^ >]+)*) -->\n)(.*?)(<!-- ordo-bench end -->)",
                     re.S)


def render_view(view, results):
    rows = summarise(results)
    views = {
        "env": lambda: md_environment(results),
        "apps": lambda: md_apps_table(rows),
        "cells": lambda: md_cells_table(rows),
        "heatmap": lambda: md_heatmaps(rows),
        "ab": lambda: md_ab_table(rows, variant_order(results)),
        "rank": lambda: md_rank_table(micro_rows(results, "rank")),
        "mono": lambda: md_mono_table(micro_rows(results, "mono")),
        "load": lambda: md_load_table(results),
    }
    if view not in views:
        raise ValueError("unknown view %r (views: %s)" % (view, ", ".join(sorted(views))))
    return views[view]()


def render_page(text, base):
    """Every `<!-- ordo-bench VIEW FILE... -->` ... `<!-- ordo-bench end -->` block of
    `text` re-rendered from its result files (paths relative to `base`)."""
    def one(m):
        files = m.group(3).split()
        if not files:
            raise ValueError("%s: names no result file" % m.group(1).strip())
        results = load_results([os.path.join(base, f) for f in files])
        return m.group(1) + render_view(m.group(2), results).rstrip() + "\n" + m.group(5)
    return PAGE_RE.sub(one, text)


def cmd_page(args):
    status = 0
    for path in args.file or [os.path.join(HERE, "RESULTS.md"), os.path.join(HERE, "LOG.md")]:
        args_one = argparse.Namespace(**vars(args))
        args_one.file = path
        status |= page_one(args_one)
    return status


def page_one(args):
    with open(args.file) as f:
        text = f.read()
    try:
        new = render_page(text, os.path.dirname(os.path.abspath(args.file)))
    except (ValueError, OSError) as e:
        die("%s: %s" % (args.file, e))
    blocks = len(PAGE_RE.findall(text))
    if args.check:
        if new == text:
            print("ordo-bench: %s: %d generated sections match their result files" % (
                args.file, blocks), file=sys.stderr)
            return 0
        import difflib
        sys.stdout.writelines(difflib.unified_diff(
            text.splitlines(True), new.splitlines(True), args.file, args.file + " (regenerated)"))
        print("ordo-bench: %s: generated sections differ from their result files (run "
              "`bench/ordo-bench page` and commit)" % args.file, file=sys.stderr)
        return 1
    if new != text:
        tmp = args.file + ".part"
        with open(tmp, "w") as f:
            f.write(new)
        os.replace(tmp, args.file)
    print("ordo-bench: %s: %d generated sections%s" % (
        args.file, blocks, "" if new != text else " (already up to date)"), file=sys.stderr)
    return 0
