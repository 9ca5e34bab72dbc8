"""Figures: heatmaps, speedup against threads, tasks per thread, rank error (matplotlib)."""
import json
import os
import re
import sys

from .cells import row_variant
from .common import DRIVER, die, med
from .report import heat_groups, micro_rows
from .results import load_results, summarise


# ---- plots -------------------------------------------------------------------------

def nthreads(t):
    return "%d thread%s" % (t, "" if t == 1 else "s")


def describe_figure(fig):
    """Axes labels, tick labels, legend entries and error-bar counts of a drawn figure."""
    fig.canvas.draw()
    axes = []
    for ax in fig.axes:
        if ax.get_label() == "<colorbar>":
            continue
        leg = ax.get_legend()
        axes.append(dict(
            xlabel=ax.get_xlabel(), ylabel=ax.get_ylabel(), title=ax.get_title(),
            xticks=[t.get_text() for t in ax.get_xticklabels() if t.get_text()],
            yticks=[t.get_text() for t in ax.get_yticklabels() if t.get_text()],
            legend=[t.get_text() for t in leg.get_texts()] if leg else [],
            errorbars=sum(1 for c in ax.containers if type(c).__name__ == "ErrorbarContainer"),
            xscale=ax.get_xscale()))
    legends = [[t.get_text() for t in leg.get_texts()] for leg in fig.legends]
    return dict(axes=axes, figure_legends=legends,
                size_px=[int(v) for v in fig.get_size_inches() * fig.dpi])


class _Figures:
    """Where the figures go: each is saved as PNG and SVG under `out`, and described
    (read back from the drawn objects) for figures.json."""

    def __init__(self, plt, out):
        self.plt, self.out, self.made, self.described = plt, out, [], {}

    def save(self, fig, name):
        name = re.sub(r"[^A-Za-z0-9._-]+", "_", name)
        self.described[name] = describe_figure(fig)
        for ext in ("png", "svg"):
            p = os.path.join(self.out, "%s.%s" % (name, ext))
            fig.savefig(p, bbox_inches="tight")
            self.made.append(p)
        self.plt.close(fig)

    # a heatmap over the two parameters that vary
    def heatmap(self, grid, xs, ys, kx, ky, title, cmap, name):
        fig, ax = self.plt.subplots(figsize=(max(5.0, 1.5 + 0.9 * len(xs)),
                                        max(3.5, 1.5 + 0.6 * len(ys))))
        im = ax.imshow(grid, origin="lower", cmap=cmap, aspect="auto")
        ax.set_xticks(range(len(xs)), xs, fontsize=10)
        ax.set_yticks(range(len(ys)), ys, fontsize=10)
        ax.set_xlabel(kx, fontsize=10)
        ax.set_ylabel(ky, fontsize=10)
        for i, row in enumerate(grid):
            for j, v in enumerate(row):
                if v == v:  # the text dark on light cells, light on dark ones
                    r, g, b, _ = im.cmap(im.norm(v))
                    ax.text(j, i, "%.2f" % v, ha="center", va="center", fontsize=10,
                            color="black" if 0.299 * r + 0.587 * g + 0.114 * b > 0.5
                            else "white")
        head, _, what = title.rpartition(": ")
        ax.set_title("%s\n%s" % (head, what), fontsize=10)
        fig.colorbar(im, ax=ax, label=what)
        fig.tight_layout()
        self.save(fig, name)


def _heatmaps(F, rows, args):
    """Heatmaps: per (app, input, threads, scheduler name), over the two parameters that vary."""
    heatmap = F.heatmap
    for (app, inp, t, name, variant), kx, ky, xs, ys, cell in heat_groups(rows):
        for what, label in (("speedup", "speedup over the sequential baseline"),
                            ("work", "work ratio")):
            grid = [[cell[(x, y)][what] if (x, y) in cell else float("nan") for x in xs]
                    for y in ys]
            heatmap(grid, xs, ys, kx, ky, "%s on %s, %s, %s: %s" % (app, inp, name, nthreads(t),
                                                                     label),
                    "viridis" if what == "speedup" else "magma_r",
                    "heat-%s-%s-%s-t%d%s-%s" % (app, inp, name, t,
                                                "-" + variant if variant else "", what))


def _thread_plots(F, rows, args):
    """Time, speedup and work ratio against threads."""
    plt, save = F.plt, F.save
    # time, speedup and work ratio against threads, one line per scheduler spec, with
    # the cell's fastest-to-slowest trial as error bars; one legend for the three
    series = {}
    for r in rows:
        label = r["wl"] + (" (%s)" % r["variant"] if r["variant"] else "")
        series.setdefault((r["app"], r["input"]), {}).setdefault(label, []).append(r)
    for (app, inp), specs in sorted(series.items()):
        if not any(len(v) > 1 for v in specs.values()):
            continue
        threads = sorted({r["threads"] for rs in specs.values() for r in rs})
        fig, axes = plt.subplots(1, 3, figsize=(14, 4.6))
        for wl, rs in sorted(specs.items()):
            rs = sorted(rs, key=lambda r: r["threads"])
            x = [r["threads"] for r in rs]
            t = [r["time_ms"] for r in rs]
            line = axes[0].errorbar(x, t, yerr=[[r["time_ms"] - r["time_min"] for r in rs],
                                                [r["time_max"] - r["time_ms"] for r in rs]],
                                    fmt="o-", capsize=3, label=wl)
            sp = [r["speedup"] for r in rs]
            # speedup's range from the trial times' range (baseline held at its median)
            axes[1].errorbar(x, sp, yerr=[[max(0.0, s - r["baseline_ms"] / r["time_max"])
                                           for s, r in zip(sp, rs)],
                                          [r["baseline_ms"] / r["time_min"] - s
                                           if r["time_min"] > 0 else 0.0
                                           for s, r in zip(sp, rs)]],
                             fmt="o-", capsize=3, color=line.lines[0].get_color())
            axes[2].errorbar(x, [r["work"] for r in rs],
                             yerr=[[r["work"] - r["work_min"] for r in rs],
                                   [r["work_max"] - r["work"] for r in rs]],
                             fmt="o-", capsize=3, color=line.lines[0].get_color())
        axes[0].set_ylabel("time, ms (median; bars: fastest-slowest trial)")
        axes[1].set_ylabel("speedup over the sequential baseline")
        axes[2].set_ylabel("work ratio (tasks / baseline tasks)")
        for ax in axes:
            ax.set_xlabel("threads")
            ax.set_xscale("log", base=2)
            ax.set_xticks(threads, [str(t) for t in threads])
            ax.minorticks_off()
            ax.grid(True, alpha=0.3)
            ax.tick_params(labelsize=10)
        axes[0].set_ylim(bottom=0)
        axes[1].axhline(1.0, color="grey", lw=0.8, ls="--", zorder=0)
        axes[2].axhline(1.0, color="grey", lw=0.8, ls="--", zorder=0)
        handles, labels = axes[0].get_legend_handles_labels()
        rows_of_legend = (len(labels) + 3) // 4
        fig.legend(handles, labels, loc="lower center", ncol=min(4, len(labels)),
                   fontsize=10, frameon=False, bbox_to_anchor=(0.5, 0.0))
        fig.suptitle("%s on %s" % (app, inp), fontsize=12)
        fig.tight_layout(rect=(0, 0.06 * rows_of_legend, 1, 1))
        save(fig, "threads-%s-%s" % (app, inp))


def _task_plots(F, rows, args):
    """Per-thread task distributions."""
    plt, save = F.plt, F.save
    # per-thread task distribution: each thread's share of the tasks over the mean share
    # (min, median, max thread), one row per scheduler spec, per app, input and threads
    dist = {}
    for r in rows:
        if r["threads"] > 1 and r["share_max"] == r["share_max"]:
            dist.setdefault((r["app"], r["input"], r["threads"]), []).append(r)
    for (app, inp, t), rs in sorted(dist.items()):
        rs = sorted(rs, key=lambda r: r["wl"], reverse=True)
        fig, ax = plt.subplots(figsize=(8, 1.6 + 0.5 * len(rs)))
        ys = range(len(rs))
        ax.axvline(1.0, color="grey", lw=0.8, ls="--", zorder=1, label="an even share")
        ax.hlines(ys, [r["share_min"] for r in rs], [r["share_max"] for r in rs], lw=8,
                  color="tab:blue", alpha=0.45, zorder=2, label="min to max thread")
        if t > 2:
            ax.plot([r["share_median"] for r in rs], ys, "D", color="black", ms=7, zorder=3,
                    label="median thread")
        else:  # two threads: their median is the mean, 1.00 always; show each thread
            ax.plot([r["share_min"] for r in rs] + [r["share_max"] for r in rs],
                    list(ys) * 2, "o", color="black", ms=6, zorder=3, label="each thread")
        ax.set_yticks(list(ys), [r["wl"] + (" (%s)" % r["variant"] if r["variant"] else "")
                                 for r in rs], fontsize=10)
        ax.set_xlabel("tasks of a thread / mean tasks per thread", fontsize=10)
        ax.set_title("%s on %s, %d threads: per-thread task distribution" % (app, inp, t),
                     fontsize=11)
        ax.grid(True, axis="x", alpha=0.3)
        ax.legend(fontsize=9, loc="upper center", bbox_to_anchor=(0.5, -0.12 - 0.3 / len(rs)),
                  ncol=3, frameon=False)
        fig.tight_layout()
        save(fig, "tasks-%s-%s-t%d" % (app, inp, t))


def _util_plots(F, rows, args):
    """Per-worker utilisation."""
    plt, save = F.plt, F.save
    # per-worker utilisation: busy on a CPU, descheduled while busy, idle; one row of
    # bars per scheduler (and build / noise), medians over the cell's trials
    util = {}
    for r in load_results(args.files):
        rec = r.get("record") or {}
        if r.get("status") != "ok" or not rec.get("thread_busy_s"):
            continue
        c = r["cell"]
        label = c["wl"] + (" (%s)" % row_variant(c) if row_variant(c) else "")
        util.setdefault((c["app"], c["input"], c["threads"]), {}).setdefault(
            label, []).append(rec)
    for (app, inp, t), by in sorted(util.items()):
        labels = sorted(by)
        workers = min(t, max(len(x["thread_busy_s"]) for recs in by.values() for x in recs))
        fig, ax = plt.subplots(figsize=(9, max(3.0, 1.5 + 0.35 * workers * len(labels))))
        ys, names = [], []
        y = 0
        for label in labels:
            recs = by[label]
            for w in range(workers):
                busy = med([x["thread_busy_s"][w] for x in recs]) * 1e3
                off = med([x["thread_descheduled_s"][w] for x in recs]) * 1e3
                idle = med([x["thread_idle_s"][w] for x in recs]) * 1e3
                ax.barh(y, busy - off, color="tab:green",
                        label="busy on a CPU" if y == 0 else None)
                ax.barh(y, off, left=busy - off, color="tab:red",
                        label="descheduled while busy" if y == 0 else None)
                ax.barh(y, idle, left=busy, color="lightgrey",
                        label="idle (no work found)" if y == 0 else None)
                ys.append(y)
                names.append("%s, worker %d" % (label, w))
                y += 1
            y += 0.5
        ax.set_yticks(ys, names, fontsize=9)
        ax.invert_yaxis()
        ax.set_xlabel("ms of the parallel loop (medians over the trials)", fontsize=10)
        ax.set_title("%s on %s, %s: where each worker's time went" % (app, inp, nthreads(t)),
                     fontsize=11)
        ax.grid(True, axis="x", alpha=0.3)
        ax.legend(fontsize=9, loc="upper center", ncol=3, frameon=False,
                  bbox_to_anchor=(0.5, -0.08 - 0.5 / (workers * len(labels))))
        fig.tight_layout()
        save(fig, "util-%s-%s-t%d" % (app, inp, t))


def _rank_plots(F, rows, args):
    """Rank error and delay per scheduler."""
    plt, save, heatmap = F.plt, F.save, F.heatmap
    # rank error and delay per scheduler (bars, log scale) and over two parameters
    ranks = micro_rows(load_results(args.files), "rank")
    for t in sorted({t for _, t in ranks}):
        items = sorted((wl, qs) for (wl, tt), qs in ranks.items() if tt == t)
        items = items[::-1]  # the first name at the top
        fig, ax = plt.subplots(figsize=(8, 1.4 + 0.5 * len(items)))
        ys = list(range(len(items)))
        # +1e-3: strict's zero error still shows on the log axis
        ax.barh([y + 0.2 for y in ys], [med([q["rank_mean"] for q in qs]) + 1e-3
                                        for _, qs in items], 0.4, label="rank error, mean")
        ax.barh([y - 0.2 for y in ys], [med([q["delay_mean"] for q in qs]) + 1e-3
                                        for _, qs in items], 0.4, label="delay, mean")
        ax.set_xscale("log")
        ax.set_yticks(ys, [wl for wl, _ in items], fontsize=10)
        ax.set_xlabel("keys (log scale; 0.001 stands for 0)", fontsize=10)
        ax.set_title("monotonic workload, %s%s: rank error and delay" % (
            nthreads(t), " (oversubscribed)" if items and
            items[0][1][0].get("oversubscribed") else ""), fontsize=11)
        ax.grid(True, axis="x", alpha=0.3)
        ax.legend(fontsize=9, loc="upper center", bbox_to_anchor=(0.5, -0.1 - 0.4 / len(items)),
                  ncol=2, frameon=False)
        fig.tight_layout()
        save(fig, "rank-t%d" % t)
    rank_rows = [dict(app="rank", input="monotonic", threads=t, wl=wl, variant="",
                      rank=med([q["rank_mean"] for q in qs]))
                 for (wl, t), qs in ranks.items()]
    for (_, _, t, name, _), kx, ky, xs, ys, cell in heat_groups(rank_rows):
        grid = [[cell[(x, y)]["rank"] if (x, y) in cell else float("nan") for x in xs]
                for y in ys]
        heatmap(grid, xs, ys, kx, ky, "%s, %s: mean rank error" % (name, nthreads(t)), "magma_r",
                "heat-rank-%s-t%d" % (name, t))


def cmd_plot(args):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        if os.path.exists("/usr/bin/python3") and os.path.realpath(sys.executable) != \
                os.path.realpath("/usr/bin/python3"):
            os.execv("/usr/bin/python3", ["/usr/bin/python3", DRIVER] +
                     sys.argv[1:])
        die("plot needs matplotlib (Debian: apt-get install python3-matplotlib)")
    rows = [r for r in summarise(load_results(args.files)) if r["trials"]]
    os.makedirs(args.out, exist_ok=True)
    F = _Figures(plt, args.out)
    for part in (_heatmaps, _thread_plots, _task_plots, _util_plots, _rank_plots):
        part(F, rows, args)
    described, made = F.described, F.made
    if described:
        # what each figure shows, read back from the drawn figure: a test (and a
        # reader without an image viewer) checks axes, ticks and legends from it
        with open(os.path.join(args.out, "figures.json"), "w") as f:
            json.dump(described, f, indent=1, sort_keys=True)
    for p in made:
        print(p)
    if not made:
        print("ordo-bench: nothing to plot in %s: a heatmap needs app runs over two varying "
              "parameters, a thread plot two thread counts, a rank plot `rank` results "
              "(`mono` throughput has no plot: `ordo-bench report` tabulates it)" % (
                  ", ".join(args.files)), file=sys.stderr)
        return 1
    return 0
