#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The report of `make bench`: from the guests' @@BENCH lines to a Markdown
table per test (median and spread of each contender, ratios of superp to
rxe, siw and TCP), the same as CSV and JSON, and PNG charts; the scale
step's rows (size = connections) as a table and a curve of their own.
Latency tests also show the link's own latency (the floor, measured in the
same rounds) and each contender's overhead above it.

    report.py ROWS OUTDIR [TITLE]
"""
import csv
import json
import os
import statistics
import sys
from collections import defaultdict

CONTENDERS = ["superp_sunh", "superp_udp4", "rxe", "siw", "tcp", "tcp_nooffload"]
# The link's own round trip (UDP between the guests, bench/lib.sh's
# bench_link): not a contender but the floor under their latencies.
FLOOR = "link"
FLOOR_LABEL = "link (floor)"
# A latency above the floor of the same round (us), median over rounds.
OVERHEAD = "lat_overhead"
# Higher is better for bandwidth and message rate, lower for latency.
LOWER_BETTER = {"lat_typical", "lat_p99", OVERHEAD}
# Parameters a row carries beyond test and contender, and their values in
# rows written before the field existed (the harness's link is 9000).
# round (which bench_round measured it) pairs a latency with its floor.
PARAMS = ["size", "qps", "loss", "mtu", "post"]
DEFAULTS = {"mtu": "9000", "post": "1"}


def parse(path):
    rows = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line.startswith("@@BENCH "):
                continue
            rec = dict(DEFAULTS)
            rest = line[len("@@BENCH "):]
            # reason= is last and may contain spaces
            if " reason=" in rest:
                rest, reason = rest.split(" reason=", 1)
                rec["reason"] = reason
            for kv in rest.split():
                k, _, v = kv.partition("=")
                rec[k] = v
            rows.append(rec)
    return rows


def params(r):
    """(size, qps, loss, mtu, post): sizes, QPs, MTU, post list as numbers."""
    return (int(r["size"]), int(r["qps"]), r["loss"], int(r["mtu"]), int(r["post"]))


def primary(test):
    """The figure a test's table shows where every contender failed."""
    if test == "scale":
        return "rx_ns"
    return "lat_typical" if test.endswith("_lat") else "bw"


def summary(vals, metric, unit):
    return {"metric": metric, "unit": unit, "median": statistics.median(vals),
            "min": min(vals), "max": max(vals), "runs": len(vals)}


def aggregate(rows):
    """(test, metric) -> params -> contender -> summary. A failed row has no
    metric: it stands in every table of its test at its parameters; a
    table lists the parameters where some contender has its metric, or,
    where none has a figure, the test's primary one."""
    recs = defaultdict(lambda: defaultdict(list))
    for r in rows:
        recs[(r["test"], params(r))][r["contender"]].append(r)
    out = defaultdict(dict)
    for (test, p), by_c in recs.items():
        metrics = {r["metric"] for rs in by_c.values() for r in rs if "metric" in r}
        for m in metrics or {primary(test)}:
            row = {}
            for c, rs in by_c.items():
                vals = [float(r["value"]) for r in rs if r.get("metric") == m]
                if vals:
                    row[c] = summary(vals, m, next(r["unit"] for r in rs
                                                   if r.get("metric") == m))
                    continue
                failed = [r for r in rs if "status" in r]
                if failed:
                    row[c] = {"status": failed[0]["status"],
                              "reason": failed[0].get("reason", "")}
            out[(test, m)][p] = row
    add_overheads(rows, out)
    return out


def add_overheads(rows, agg):
    """(test, OVERHEAD) -> params -> contender -> summary of its typical
    latency minus the floor's of the same round, one difference per round
    where both measured; the floor itself under FLOOR, and a contender
    that failed with its status, as in the latency table."""
    by_round = defaultdict(dict)
    for r in rows:
        if r.get("metric") == "lat_typical" and "round" in r:
            by_round[(r["test"], params(r), r["round"])][r["contender"]] = float(r["value"])
    diffs = defaultdict(lambda: defaultdict(list))
    for (test, p, _), lat in by_round.items():
        if FLOOR in lat:
            for c, v in lat.items():
                if c != FLOOR:
                    diffs[(test, p)][c].append(v - lat[FLOOR])
    for (test, m), by_p in list(agg.items()):
        if m != "lat_typical":
            continue
        for p, lat in by_p.items():
            if FLOOR not in lat:
                continue
            row = {FLOOR: lat[FLOOR]}
            for c, s in lat.items():
                if diffs[(test, p)].get(c):
                    row[c] = summary(diffs[(test, p)][c], OVERHEAD, s["unit"])
                elif c != FLOOR and "status" in s:
                    row[c] = s
            agg[(test, OVERHEAD)][p] = row


def overhead_ratio(a, b):
    """superp's overhead over another's: below 1 is better (the aim
    against rxe is 0.5 or less)."""
    if not a or not b or "median" not in a or "median" not in b or b["median"] <= 0:
        return None
    return a["median"] / b["median"]


def ratio(a, b):
    """superp over another contender, oriented so that > 1 is better."""
    if not a or not b or "median" not in a or "median" not in b:
        return None
    if not a["median"] or not b["median"]:
        return None
    if a["metric"] in LOWER_BETTER:
        return b["median"] / a["median"]
    return a["median"] / b["median"]


def num(x):
    """Three significant digits, whole numbers from 100 on (not 1.99e+03)."""
    return "%.0f" % x if abs(x) >= 100 else "%.3g" % x


def cell(s):
    if s is None:
        return ""
    if "median" in s:
        if s["runs"] > 1:
            return "%s (%s-%s)" % (num(s["median"]), num(s["min"]), num(s["max"]))
        return num(s["median"])
    return "%s: %s" % (s["status"], s["reason"])


def fmt_ratio(x):
    return "" if x is None else "%.2f" % x


def unit_of(rows):
    return next((s["unit"] for row in rows for s in row.values() if "unit" in s), "")


def goodput(agg):
    """Bandwidth under loss over bandwidth at 0 loss with the same other
    parameters, per contender: [(test, params, {contender: ratio})]."""
    out = []
    for (t, m), by_p in sorted(agg.items()):
        if m != "bw":
            continue
        for p in sorted(by_p):
            if p[2] == "0":
                continue
            base = by_p.get(p[:2] + ("0",) + p[3:])
            if not base:
                continue
            r = {}
            for c in CONTENDERS:
                a, b = by_p[p].get(c), base.get(c)
                if a and b and "median" in a and "median" in b and b["median"]:
                    r[c] = a["median"] / b["median"]
            out.append((t, p, r))
    return out


SCALE_METRICS = [("rx_ns", "ns per packet"), ("conn_bytes", "bytes per connection"),
                 ("kernel_bytes", "kernel bytes per connection")]


def scale_records(by_p, m):
    """The scale step's rows for CSV and JSON; its size is the number of
    connections."""
    return [{"test": "scale", **dict(zip(PARAMS, p)), "contender": c, "metric": m, **s}
            for p, row in sorted(by_p.items()) for c, s in row.items()]


def scale_failed(agg, n):
    """A failed scale row at n connections: it stands in every column that
    has no figure there."""
    return next((s for (t, _), by_p in agg.items() if t == "scale"
                 for p, row in by_p.items() if p[0] == n
                 for s in [row.get("superp_sunh")] if s and "status" in s), None)


def scale_table(agg):
    """The scale step (superp over SUNH alone): one line per number of
    connections, a column per figure."""
    cols = {m: agg.get(("scale", m), {}) for m, _ in SCALE_METRICS}
    ns = sorted({p[0] for (t, _), by_p in agg.items() if t == "scale" for p in by_p})
    if not ns:
        return []
    md = ["## scale: receive cost per packet and memory per connection "
          "(superp over SUNH, one device)\n",
          "| connections | " + " | ".join(h for _, h in SCALE_METRICS) + " |",
          "|" + "---|" * (len(SCALE_METRICS) + 1)]
    for n in ns:
        cells = []
        for m, _ in SCALE_METRICS:
            s = next((row.get("superp_sunh") for p, row in cols[m].items()
                      if p[0] == n), None) or scale_failed(agg, n)
            cells.append(cell(s))
        md.append("| %d | %s |" % (n, " | ".join(cells)))
    md.append("")
    return md


def write_tables(agg, outdir):
    md = []
    flat = []
    head = ["size", "QPs", "loss %", "MTU", "post list"]
    # A test's overhead table after its latency tables.
    for t, m in sorted(agg, key=lambda k: (k[0], k[1] == OVERHEAD, k[1])):
        by_p = agg[(t, m)]
        if t == "scale":
            flat += scale_records(by_p, m)
            continue
        unit = unit_of(by_p.values())
        # The floor's column where the link measured this test.
        floor = [FLOOR] if any(FLOOR in row for row in by_p.values()) else []
        if m == OVERHEAD:
            md.append("## %s: %s (us: latency minus the link's floor of the same round; "
                      "superp/rxe: superp over SUNH's overhead over rxe's, < 1 is better, "
                      "the aim 0.5 or less)\n" % (t, m))
            cols = head + [FLOOR_LABEL] + CONTENDERS + ["superp/rxe"]
        else:
            md.append("## %s: %s (%sratios: superp over SUNH against each, > 1 is better)\n"
                      % (t, m, unit + "; " if unit else ""))
            cols = (head + [FLOOR_LABEL for _ in floor] + CONTENDERS +
                    ["superp/rxe", "superp/siw", "superp/TCP"])
        md.append("| " + " | ".join(cols) + " |")
        md.append("|" + "---|" * len(cols))
        for p in sorted(by_p):
            row = by_p[p]
            sp = row.get("superp_sunh")
            if m == OVERHEAD:
                ratios = [overhead_ratio(sp, row.get("rxe"))]
                if ratios[0] is not None:
                    flat.append({"test": t, **dict(zip(PARAMS, p)), "contender": "superp_sunh",
                                 "metric": "lat_overhead_ratio", "unit": "",
                                 "median": ratios[0]})
            else:
                ratios = [ratio(sp, row.get("rxe")), ratio(sp, row.get("siw")),
                          ratio(sp, row.get("tcp_nooffload") or row.get("tcp"))]
            md.append("| " + " | ".join(
                [str(x) for x in p] + [cell(row.get(c)) for c in floor + CONTENDERS] +
                [fmt_ratio(x) for x in ratios]) + " |")
            for c in floor + CONTENDERS:
                s = row.get(c)
                if s is None or ("status" in s and m != primary(t)):
                    continue
                if c == FLOOR and m == OVERHEAD:
                    continue
                flat.append({"test": t, **dict(zip(PARAMS, p)), "contender": c,
                             "metric": m, **s})
        md.append("")
    md += scale_table(agg)
    gp = goodput(agg)
    if gp:
        md.append("## goodput under loss (bandwidth at the loss over bandwidth at 0 %, > 1 is better)\n")
        cols = ["test"] + head + CONTENDERS
        md.append("| " + " | ".join(cols) + " |")
        md.append("|" + "---|" * len(cols))
        for t, p, r in gp:
            md.append("| " + " | ".join([t] + [str(x) for x in p] +
                                        [fmt_ratio(r.get(c)) for c in CONTENDERS]) + " |")
            for c, x in r.items():
                flat.append({"test": t, **dict(zip(PARAMS, p)), "contender": c,
                             "metric": "goodput_ratio", "unit": "", "median": x})
        md.append("")
    with open(os.path.join(outdir, "results.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    with open(os.path.join(outdir, "results.json"), "w") as f:
        json.dump(flat, f, indent=1)
    fields = ["test"] + PARAMS + ["contender", "metric", "unit",
                                  "median", "min", "max", "runs", "status", "reason"]
    with open(os.path.join(outdir, "results.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        for r in flat:
            w.writerow({k: r.get(k, "") for k in fields})
    return md


def chart(plt, outdir, name, title, xlabel, ylabel, lines, logx):
    """One PNG: lines is {label: [(x, y)]}; nothing when no line has a point."""
    lines = {k: v for k, v in lines.items() if v}
    if not lines:
        return
    fig, ax = plt.subplots(figsize=(7, 4))
    for label, pts in lines.items():
        xs, ys = zip(*sorted(pts))
        # The floor is the link, not a contender: drawn apart.
        style = {"linestyle": "--", "color": "gray"} if label == FLOOR_LABEL else {}
        ax.plot(xs, ys, marker="o", label=label, **style)
    if logx:
        ax.set_xscale("log", base=2)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend()
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    fig.savefig(os.path.join(outdir, name + ".png"))
    plt.close(fig)


def points(by_p, c, keep, x):
    return [(x(p), by_p[p][c]["median"]) for p in by_p
            if keep(p) and c in by_p[p] and "median" in by_p[p][c]]


def write_charts(agg, outdir):
    """Per test and figure: against message size (one QP, no loss, no post
    list) at each MTU; against QPs at each size with several; goodput
    ratio against loss."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("report: no matplotlib, no charts", file=sys.stderr)
        return
    by_n = agg.get(("scale", "rx_ns"), {})
    chart(plt, outdir, "scale-rx_ns", "receive cost per packet (superp over SUNH)",
          "connections", "ns per packet",
          {"superp_sunh": points(by_n, "superp_sunh", lambda p: True, lambda p: p[0])}, True)
    for (t, m), by_p in agg.items():
        if t == "scale":
            continue
        unit = unit_of(by_p.values())
        # Latencies with the floor under them; overheads without it.
        lines = CONTENDERS + ([FLOOR] if m in ("lat_typical", "lat_p99") else [])
        label = {FLOOR: FLOOR_LABEL}
        for mtu in {p[3] for p in by_p}:
            chart(plt, outdir, "%s-%s-mtu%d" % (t, m, mtu), "%s %s, MTU %d" % (t, m, mtu),
                  "message size (bytes)", unit,
                  {label.get(c, c): points(by_p, c, lambda p: p[1:] == (1, "0", mtu, 1),
                                           lambda p: p[0])
                   for c in lines}, True)
            for size in {p[0] for p in by_p}:
                def keep(p):
                    return (p[0], p[2], p[3], p[4]) == (size, "0", mtu, 1)
                if len({p[1] for p in by_p if keep(p)}) < 2:
                    continue
                chart(plt, outdir, "%s-%s-%dB-qps-mtu%d" % (t, m, size, mtu),
                      "%s %s at %d B, MTU %d" % (t, m, size, mtu), "QPs", unit,
                      {c: points(by_p, c, keep, lambda p: p[1]) for c in CONTENDERS}, True)
    by_case = defaultdict(lambda: defaultdict(list))
    for t, p, r in goodput(agg):
        for c, x in r.items():
            by_case[(t, p[0], p[1], p[3], p[4])][c].append((float(p[2]), x))
    for (t, size, q, mtu, post), lines in by_case.items():
        chart(plt, outdir, "%s-%dB-q%d-post%d-mtu%d-loss" % (t, size, q, post, mtu),
              "%s goodput under loss, %d B, %d QPs, MTU %d" % (t, size, q, mtu),
              "netem loss (%)", "bandwidth / bandwidth at 0 %", lines, False)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    rows = parse(sys.argv[1])
    if not rows:
        sys.exit("report: no @@BENCH rows in " + sys.argv[1])
    agg = aggregate(rows)
    md = write_tables(agg, sys.argv[2])
    write_charts(agg, sys.argv[2])
    print("\n".join(md))


if __name__ == "__main__":
    main()
