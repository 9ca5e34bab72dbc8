"""Reading result files back: the records of the asked cells, medians per cell."""
import json

from .cells import cell_key, row_variant
from .common import die, med, read_lines


def asked_results(path, cells, kind=None):
    """The records of `path` that belong to `cells` (a result file may hold others, from
    earlier runs into the same file: tables show only what this command asked for)."""
    keys = {cell_key(c) for c in cells}
    return [r for r in load_results([path]) if cell_key(r["cell"]) in keys and
            (kind is None or r.get("kind") == kind)]


# ---- report ------------------------------------------------------------------------

def load_results(files):
    out = []
    for path in files:
        for n, line in enumerate(read_lines(path), 1):
            line = line.strip()
            if line:
                try:
                    out.append(json.loads(line))
                except ValueError:
                    die("%s:%d: not a JSON line" % (path, n))
    return out


def summarise(results):
    """Per cell (seeds pooled): medians and spread, failures counted."""
    groups = {}
    for r in results:
        if r.get("kind"):
            continue
        c = r["cell"]
        k = (c["app"], c["input"], c["wl"], c["threads"], row_variant(c))
        g = groups.setdefault(k, {"t": [], "w": [], "b": [], "d": [], "fail": 0, "why": ""})
        if r["status"] != "ok":
            g["fail"] += 1
            g["why"] = g["why"] or ("timeout" if r.get("error", "").startswith("timeout")
                                    else "verification" if r.get("record") else "exit")
            continue
        rec = r["record"]
        g["t"].append(rec["time_s"] * 1e3)
        g["w"].append(rec["work_ratio"])
        g["b"].append(rec["baseline_time_s"] * 1e3)
        if rec.get("tasks") and rec.get("tasks_thread_max") is not None:
            mean = rec["tasks"] / max(1, rec["threads"])
            g["d"].append((rec["tasks_thread_min"] / mean, rec["tasks_thread_median"] / mean,
                           rec["tasks_thread_max"] / mean))
    rows = []
    for k in sorted(groups, key=lambda k: (k[0], k[1], k[3], k[2], k[4])):
        g = groups[k]
        t, w, b, d = g["t"], g["w"], g["b"], g["d"]
        tm, bm = med(t), med(b)
        nan = float("nan")
        rows.append(dict(app=k[0], input=k[1], wl=k[2], threads=k[3], variant=k[4],
                         trials=len(t), failed=g["fail"], why=g["why"], time_ms=tm,
                         time_min=min(t) if t else nan, time_max=max(t) if t else nan,
                         spread=(max(t) - min(t)) / tm if t and tm else nan,
                         work=med(w), work_min=min(w) if w else nan,
                         work_max=max(w) if w else nan, baseline_ms=bm,
                         speedup=bm / tm if t and tm else nan,
                         share_min=med([x[0] for x in d]), share_median=med([x[1] for x in d]),
                         share_max=med([x[2] for x in d])))
    return rows


def variant_order(results):
    """The --variant names (and --noise kinds) in command-line order (the first is the
    reference)."""
    for r in results:
        e = r.get("env", {})
        v, z = [name for name, _ in e.get("variants") or []], e.get("noises") or []
        if v or z:
            return [row_variant(dict(variant=a, noise=b))
                    for a in v or [None] for b in z or [None]]
    return sorted({row_variant(r["cell"]) for r in results if row_variant(r["cell"])})
