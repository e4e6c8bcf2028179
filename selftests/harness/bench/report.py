#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The report of `make bench`: from the guests' @@BENCH lines to a Markdown
table per test (median and spread of each contender, ratios of superp to
rxe, siw and TCP), the same as CSV and JSON, and PNG charts.

    report.py ROWS OUTDIR [TITLE]
"""
import csv
import json
import os
import statistics
import sys
from collections import defaultdict

CONTENDERS = ["superp_sunh", "superp_udp4", "rxe", "siw", "tcp", "tcp_nooffload"]
# Higher is better for bandwidth, lower for latency.
LOWER_BETTER = {"lat_typical"}


def parse(path):
    rows = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line.startswith("@@BENCH "):
                continue
            rec = {}
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


def aggregate(rows):
    """(test, size, qps, loss) -> contender -> summary."""
    groups = defaultdict(lambda: defaultdict(list))
    for r in rows:
        key = (r["test"], int(r["size"]), int(r["qps"]), r["loss"])
        groups[key][r["contender"]].append(r)
    out = {}
    for key, by_c in groups.items():
        out[key] = {}
        for c, recs in by_c.items():
            vals = [float(r["value"]) for r in recs if "value" in r]
            if vals:
                out[key][c] = {
                    "metric": recs[0]["metric"], "unit": recs[0]["unit"],
                    "median": statistics.median(vals),
                    "min": min(vals), "max": max(vals), "runs": len(vals),
                }
            else:
                out[key][c] = {"status": recs[0].get("status", "failed"),
                               "reason": recs[0].get("reason", "")}
    return out


def ratio(a, b):
    """superp over another contender, oriented so that > 1 is better."""
    if not a or not b or "median" not in a or "median" not in b:
        return None
    if not a["median"] or not b["median"]:
        return None
    if a["metric"] in LOWER_BETTER:
        return b["median"] / a["median"]
    return a["median"] / b["median"]


def cell(s):
    if s is None:
        return ""
    if "median" in s:
        if s["runs"] > 1:
            return "%.3g (%.3g-%.3g)" % (s["median"], s["min"], s["max"])
        return "%.3g" % s["median"]
    return "%s: %s" % (s["status"], s["reason"])


def fmt_ratio(x):
    return "" if x is None else "%.2f" % x


def write_tables(agg, outdir):
    tests = sorted({k[0] for k in agg})
    md = []
    flat = []
    for t in tests:
        keys = sorted(k for k in agg if k[0] == t)
        unit = next((s["unit"] for k in keys for s in agg[k].values()
                     if "unit" in s), "")
        md.append("## %s (%s; ratios: superp over SUNH against each, > 1 is better)\n" % (t, unit))
        head = ["size", "QPs", "loss %"] + CONTENDERS + ["superp/rxe", "superp/siw", "superp/TCP"]
        md.append("| " + " | ".join(head) + " |")
        md.append("|" + "---|" * len(head))
        for k in keys:
            row = agg[k]
            sp = row.get("superp_sunh")
            ratios = [ratio(sp, row.get("rxe")), ratio(sp, row.get("siw")),
                      ratio(sp, row.get("tcp_nooffload") or row.get("tcp"))]
            md.append("| " + " | ".join(
                [str(k[1]), str(k[2]), k[3]] + [cell(row.get(c)) for c in CONTENDERS] +
                [fmt_ratio(x) for x in ratios]) + " |")
            for c in CONTENDERS:
                s = row.get(c)
                if s is None:
                    continue
                flat.append({"test": t, "size": k[1], "qps": k[2], "loss": k[3],
                             "contender": c, **s})
        md.append("")
    with open(os.path.join(outdir, "results.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    with open(os.path.join(outdir, "results.json"), "w") as f:
        json.dump(flat, f, indent=1)
    fields = ["test", "size", "qps", "loss", "contender", "metric", "unit",
              "median", "min", "max", "runs", "status", "reason"]
    with open(os.path.join(outdir, "results.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        for r in flat:
            w.writerow({k: r.get(k, "") for k in fields})
    return md


def write_charts(agg, outdir):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("report: no matplotlib, no charts", file=sys.stderr)
        return
    for t in sorted({k[0] for k in agg}):
        keys = sorted(k for k in agg if k[0] == t and k[2] == 1 and k[3] == "0")
        fig, ax = plt.subplots(figsize=(7, 4))
        plotted = False
        for c in CONTENDERS:
            pts = [(k[1], agg[k][c]["median"]) for k in keys
                   if c in agg[k] and "median" in agg[k][c]]
            if not pts:
                continue
            xs, ys = zip(*pts)
            ax.plot(xs, ys, marker="o", label=c)
            plotted = True
        if not plotted:
            plt.close(fig)
            continue
        unit = next(s["unit"] for k in keys for s in agg[k].values() if "unit" in s)
        ax.set_xscale("log", base=2)
        ax.set_xlabel("message size (bytes)")
        ax.set_ylabel(unit)
        ax.set_title(t)
        ax.legend()
        ax.grid(True, alpha=0.3)
        fig.tight_layout()
        fig.savefig(os.path.join(outdir, t + ".png"))
        plt.close(fig)


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
