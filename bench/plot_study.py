#!/usr/bin/env python3
"""Summarizes and plots a study's timings per family.

Reads the CSV of `tcgen-gpu bench --study DIR --csv FILE` (kernel level:
ratio = cuBLAS ms / tcgen ms) or of `... --api --csv FILE` (through the C
ABI: the single-launch times, cuBLAS us / tcgen_rt_launch us). A problem's
family is its name up to the first '.' (bert-base.qkv.t128 -> bert-base),
after the option set (bf16/bert-base.qkv.t128 -> set bf16).

Prints a line per family and set: problems, the geomean, min and max of
the ratio to cuBLAS and to cuBLASLt (above 1: tcgen is faster). With
matplotlib, also writes OUT/FAMILY.png: the ratios of each problem, one
line per set and baseline; without it, says so and writes no plot.

  python3 bench/plot_study.py kernel.csv [api.csv ...] [-o plots/]
"""

import argparse
import csv
import math
import os
import sys
from collections import defaultdict

# The columns of each CSV kind: (tcgen, cuBLAS, cuBLASLt) times.
KERNEL_COLUMNS = ("tcgen_ms", "cublas_ms", "cublaslt_ms")
API_COLUMNS = ("single_launch_us", "single_cublas_us", "single_cublaslt_us")


def read_rows(path):
    """Returns (kind, rows): kind 'kernel' or 'api', rows of dicts with
    set, family, name, ratio_cublas and ratio_lt (NaN where a side is
    missing)."""
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        fields = reader.fieldnames or []
        if "problem" not in fields:
            raise SystemExit(f"{path}: no 'problem' column (written by "
                             "tcgen-gpu bench --csv)")
        if all(c in fields for c in KERNEL_COLUMNS):
            kind, cols = "kernel", KERNEL_COLUMNS
        elif all(c in fields for c in API_COLUMNS):
            kind, cols = "api", API_COLUMNS
        else:
            raise SystemExit(f"{path}: neither a kernel-level nor an --api "
                             "CSV of tcgen-gpu bench")
        rows = []
        for r in reader:
            problem = r["problem"]
            set_name, _, name = problem.rpartition("/")
            set_name = os.path.basename(set_name) if set_name else "-"
            t, c, lt = (number(r[k]) for k in cols)
            rows.append({
                "set": set_name,
                "family": name.split(".")[0],
                "name": name,
                "ratio_cublas": c / t if t > 0 else math.nan,
                "ratio_lt": lt / t if t > 0 else math.nan,
            })
        return kind, rows


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return math.nan


def geomean(values):
    good = [v for v in values if math.isfinite(v) and v > 0]
    if not good:
        return math.nan
    return math.exp(sum(math.log(v) for v in good) / len(good))


def summarize(kind, rows):
    groups = defaultdict(list)
    for r in rows:
        groups[(r["family"], r["set"])].append(r)
    print(f"{kind}: family set problems | vs cuBLAS geomean min max | "
          "vs cuBLASLt geomean min max")
    for (family, set_name), group in sorted(groups.items()):
        parts = [f"{family:<12} {set_name:<6} {len(group):4d}"]
        for key in ("ratio_cublas", "ratio_lt"):
            vals = [r[key] for r in group if math.isfinite(r[key])]
            if vals:
                parts.append(f"{geomean(vals):.3f} {min(vals):.3f} "
                             f"{max(vals):.3f}")
            else:
                parts.append("-")
        print(" | ".join(parts))
    return groups


def plot(kind, groups, out_dir):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib not found: no plots written (the summary above "
              "has the numbers)")
        return
    os.makedirs(out_dir, exist_ok=True)
    families = sorted({family for family, _ in groups})
    for family in families:
        sets = sorted(s for f, s in groups if f == family)
        names = []
        for s in sets:
            for r in groups[(family, s)]:
                if r["name"] not in names:
                    names.append(r["name"])
        fig, ax = plt.subplots(figsize=(max(6, 0.35 * len(names)), 4))
        for s in sets:
            by_name = {r["name"]: r for r in groups[(family, s)]}
            for key, label in (("ratio_cublas", "cuBLAS"),
                               ("ratio_lt", "cuBLASLt")):
                ys = [by_name[n][key] if n in by_name else math.nan
                      for n in names]
                ax.plot(range(len(names)), ys, marker="o",
                        label=f"{s} vs {label}")
        ax.axhline(1.0, color="gray", linewidth=0.8)
        ax.set_xticks(range(len(names)))
        ax.set_xticklabels(names, rotation=70, ha="right", fontsize=7)
        ax.set_ylabel("baseline time / tcgen time")
        ax.set_title(f"{family} ({kind}; above 1: tcgen faster)")
        ax.legend(fontsize=7)
        fig.tight_layout()
        path = os.path.join(out_dir, f"{family}-{kind}.png")
        fig.savefig(path, dpi=120)
        plt.close(fig)
        print(f"wrote {path}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv", nargs="+", help="tcgen-gpu bench --csv files")
    parser.add_argument("-o", "--out", default="plots",
                        help="directory of the plots (default plots/)")
    args = parser.parse_args()
    for path in args.csv:
        kind, rows = read_rows(path)
        if not rows:
            print(f"{path}: no rows")
            continue
        plot(kind, summarize(kind, rows), args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
