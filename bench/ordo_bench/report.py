"""Markdown tables of results: cells, A/B, apps, heatmaps, rank, mono, load, environment;
the report command."""
import json
import re

from .common import med
from .results import load_results, summarise, variant_order


def md_cells_table(rows):
    with_variant = any(r["variant"] for r in rows)
    noisy = any(re.search(r"(^| )(quiet|noise )", r["variant"]) for r in rows)
    head = "| app | input | threads | scheduler |" + (
        (" build / noise |" if noisy else " build |") if with_variant else "") + \
        " time ms median (min-max) | spread | work ratio | baseline ms | speedup | trials | failed |"
    out = [head, "|" + "---|" * (head.count("|") - 1)]
    for r in rows:
        out.append("| %s | %s | %d | `%s` |%s %.1f (%.1f-%.1f) | %.0f%% | %.3f | %.1f | %s | %d | %s |" % (
            r["app"], r["input"], r["threads"], r["wl"],
            (" %s |" % r["variant"]) if with_variant else "", r["time_ms"], r["time_min"],
            r["time_max"], 100 * r["spread"], r["work"], r["baseline_ms"],
            speedup_text(r), r["trials"], ("**%d**" % r["failed"]) if r["failed"] else "0"))
    return "\n".join(out)


MIN_BASELINE_MS = 1.0  # a baseline shorter than this is timer noise, not a speedup's base

TERMS = ("Spread: (slowest - fastest) / median of the cell's trial times. Speedup: the "
         "exact sequential baseline's median time over the cell's; `-` where the baseline "
         "ran under %g ms, too short to time." % MIN_BASELINE_MS)



def speedup_text(r):
    if not r["baseline_ms"] >= MIN_BASELINE_MS:
        return "-"
    return "%.2fx" % r["speedup"]


def md_ab_table(rows, order):
    """Each build's median time over the first build's, cell by cell (an A/B)."""
    if len(order) < 2:
        return ""
    by = {}
    for r in rows:
        by.setdefault((r["app"], r["input"], r["threads"], r["wl"]), {})[r["variant"]] = r
    head = "| app | input | threads | scheduler | " + " | ".join(
        "%s ms" % v for v in order) + " | " + " | ".join(
        "%s/%s" % (v, order[0]) for v in order[1:]) + " |"
    out = [head, "|" + "---|" * (head.count("|") - 1)]
    for k in sorted(by):
        vs = by[k]
        ref = vs.get(order[0])
        cells = ["%.1f" % vs[v]["time_ms"] if v in vs else "-" for v in order]
        ratios = ["%.3f" % (vs[v]["time_ms"] / ref["time_ms"]) if v in vs and ref else "-"
                  for v in order[1:]]
        out.append("| %s | %s | %d | `%s` | %s | %s |" % (k[0], k[1], k[2], k[3],
                                                          " | ".join(cells), " | ".join(ratios)))
    return "\n".join(out)


def md_apps_table(rows):
    """One table per app and input: a row per scheduler, per thread count its median
    time, work ratio and speedup over the exact sequential baseline."""
    out = []
    groups = {}
    for r in rows:
        groups.setdefault((r["app"], r["input"]), []).append(r)
    for (app, inp), rs in sorted(groups.items()):
        threads = sorted({r["threads"] for r in rs})
        base = med([r["baseline_ms"] for r in rs if r["trials"]])
        out.append("**%s on %s** (the exact sequential baseline: %.0f ms, median over "
                   "every process)\n" % (app, inp, base))
        head = "| scheduler | " + " | ".join(
            "%d thr. ms | work | speedup" % t for t in threads) + " |"
        out.append(head)
        out.append("|" + "---|" * (head.count("|") - 1))
        by = {}
        for r in rs:
            by.setdefault(r["wl"], {})[r["threads"]] = r
        best = {t: min((r["time_ms"] for r in rs if r["threads"] == t and r["trials"]
                        and not r["failed"]), default=None) for t in threads}
        for wl in sorted(by):
            cells = []
            for t in threads:
                r = by[wl].get(t)
                if not r:
                    cells.append("- | - | -")
                elif r["failed"] or not r["trials"]:
                    cells.append("**FAIL: %s (%d)** | - | -" % (r["why"], r["failed"]))
                else:
                    ms = "%.0f" % r["time_ms"]
                    if r["time_ms"] == best[t]:
                        ms = "**%s**" % ms
                    cells.append("%s | %.3f | %s" % (ms, r["work"], speedup_text(r)))
            out.append("| `%s` | %s |" % (wl, " | ".join(cells)))
        out.append("")
    return "\n".join(out).rstrip()


def spec_params(wl):
    name, _, params = wl.partition(":")
    return name, dict(p.split("=", 1) for p in params.split(",") if "=" in p)


def num_key(v):
    try:
        return (0, float(v))
    except ValueError:
        return (1, v)


def heat_groups(rows):
    """Groups of rows whose scheduler specs vary in exactly two parameters:
    yields (title parts, x name, y name, xs, ys, {(x, y): row})."""
    by = {}
    for r in rows:
        name, kv = spec_params(r["wl"])
        by.setdefault((r["app"], r["input"], r["threads"], name, r.get("variant", "")),
                      []).append((kv, r))
    for key, items in sorted(by.items()):
        keys = sorted({k for kv, _ in items for k in kv})
        varying = [k for k in keys if len({kv.get(k) for kv, _ in items}) > 1]
        if len(varying) != 2:
            continue
        kx, ky = varying
        # a spec that leaves either parameter unset (`smq` beside a grid of `smq:...`)
        # has no place on the grid
        items = [(kv, r) for kv, r in items if kx in kv and ky in kv]
        xs = sorted({kv[kx] for kv, _ in items}, key=num_key)
        ys = sorted({kv[ky] for kv, _ in items}, key=num_key)
        yield key, kx, ky, xs, ys, {(kv[kx], kv[ky]): r for kv, r in items}


def md_heatmaps(rows):
    """Markdown grids over two scheduler parameters: median ms and work ratio per cell,
    the fastest in bold."""
    out = []
    for (app, inp, t, name, variant), kx, ky, xs, ys, cell in heat_groups(rows):
        ok = [r["time_ms"] for r in cell.values() if r["trials"] and not r["failed"]]
        best = min(ok) if ok else None
        out.append("**%s on %s, %d thread%s, `%s`%s**: median ms / work ratio; rows %s, "
                   "columns %s\n" % (app, inp, t, "s" if t > 1 else "", name,
                                     " (%s)" % variant if variant else "", ky, kx))
        head = "| %s \\ %s | %s |" % (ky, kx, " | ".join(xs))
        out.append(head)
        out.append("|" + "---|" * (head.count("|") - 1))
        for y in ys:
            vals = []
            for x in xs:
                r = cell.get((x, y))
                if not r:
                    vals.append("-")
                elif r["failed"] or not r["trials"]:
                    vals.append("**FAIL**")
                else:
                    v = "%.0f / %.2f" % (r["time_ms"], r["work"])
                    vals.append("**%s**" % v if r["time_ms"] == best else v)
            out.append("| %s | %s |" % (y, " | ".join(vals)))
        out.append("")
    return "\n".join(out).rstrip()


def micro_rows(results, kind):
    rows = {}
    for r in results:
        if r.get("kind") == kind and r["status"] == "ok":
            rows.setdefault((r["cell"]["wl"], r["cell"]["threads"]), []).append(
                dict(r["quality"], oversubscribed=r.get("oversubscribed", False)))
    return rows


def md_rank_table(rows):
    out = ["| scheduler | threads | rank error mean | rank error max | delay mean | delay max | pops |",
           "|---|---|---|---|---|---|---|"]
    for (wl, t), qs in sorted(rows.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        out.append("| `%s` | %d%s | %.2f | %d | %.2f | %d | %d |" % (
            wl, t, " (oversubscribed)" if qs[0].get("oversubscribed") else "",
            med([q["rank_mean"] for q in qs]), max(q["rank_max"] for q in qs),
            med([q["delay_mean"] for q in qs]), max(q["delay_max"] for q in qs),
            sum(q["pops"] for q in qs)))
    return "\n".join(out)


def md_mono_table(rows):
    out = ["| threads | scheduler | M pairs/s, median (min-max) | runs |", "|---|---|---|---|"]
    for (wl, t), qs in sorted(rows.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        v = [q["pairs_per_s"] / 1e6 for q in qs]
        out.append("| %d%s | `%s` | %.2f (%.2f-%.2f) | %d |" % (
            t, " (oversubscribed)" if qs[0].get("oversubscribed") else "", wl, med(v),
            min(v), max(v), len(v)))
    return "\n".join(out)


def md_load_table(results):
    groups = {}
    for r in results:
        if r.get("kind") == "load":
            groups.setdefault((r["cell"]["input"], r["cell"]["threads"]), []).append(r)
    out = ["| input | threads | load s | parse s | build s | text MB/s | peak RSS MiB | "
           "graph MiB | runs | failed |", "|---|---|---|---|---|---|---|---|---|---|"]
    for (inp, t), rs in sorted(groups.items()):
        ok = [r["quality"] for r in rs if r["status"] == "ok"]
        fail = len(rs) - len(ok)

        def m(key, fmt):
            v = [q[key] for q in ok if q.get(key) is not None]
            return fmt % med(v) if v else "-"
        out.append("| %s | %d | %s | %s | %s | %s | %s | %s | %d | %s |" % (
            inp, t, m("load_s", "%.3f"), m("parse_s", "%.3f"), m("build_s", "%.3f"),
            m("mb_per_s", "%.0f"), m("peak_rss_mib", "%.0f"), m("graph_mib", "%.1f"),
            len(ok), ("**%d**" % fail) if fail else "0"))
    return "\n".join(out)


def md_environment(results):
    """Where and how the records were made: machines, builds, dates, commands."""
    hosts, builds, trees, dates, cmds = [], [], [], [], []

    def add(lst, v):
        if v and v not in lst:
            lst.append(v)
    for r in results:
        e = r.get("env", {})
        add(hosts, "%s (%s, %s cores, %s NUMA node%s)" % (
            e.get("host", "?"), e.get("cpu", "?"), e.get("cores", "?"), e.get("numa_nodes", "?"),
            "" if e.get("numa_nodes") == 1 else "s"))
        add(builds, e.get("ordo_version", "") + (" (%s)" % e["build"] if e.get("build") else ""))
        add(trees, e.get("git"))
        add(dates, e.get("date"))
        add(cmds, e.get("argv"))
    out = ["- Machine: " + "; ".join(hosts), "- Binaries: " + "; ".join(builds or ["?"]) +
           " (source tree when run: %s)" % ", ".join(trees or ["?"]),
           "- Measured: " + ", ".join(dates or ["(no date recorded)"])]
    out.append("- Command%s:" % ("s" if len(cmds) > 1 else ""))
    out += ["  `%s`" % c for c in cmds] or ["  (not recorded)"]
    return "\n".join(out)


def cmd_report(args):
    results = load_results(args.files)
    parts = []
    for kind, fn in (("rank", md_rank_table), ("mono", md_mono_table)):
        rows = micro_rows(results, kind)
        if rows:
            parts.append(fn(rows))
    if any(r.get("kind") == "load" for r in results):
        parts.append(md_load_table(results))
    rows = summarise(results)
    if rows:
        parts.append(md_cells_table(rows) + "\n\n" + TERMS)
        ab = md_ab_table(rows, variant_order(results))
        if ab:
            parts.append(ab)
    print("\n\n".join(parts))
    if args.csv and rows:
        with open(args.csv, "w") as f:
            keys = list(rows[0])
            f.write(",".join(keys) + "\n")
            for r in rows:
                f.write(",".join(json.dumps(r[k]) if isinstance(r[k], str) else "%g" % r[k]
                                 for k in keys) + "\n")
    failed = any(r["status"] != "ok" for r in results)
    return 1 if failed else 0
