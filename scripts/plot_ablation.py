#!/usr/bin/env python3
"""Bar chart of the ablation rows (entries abl<N>_<step>_<size>_kernel) of a
bench CSV: tcgen TFLOP/s per step, cuBLAS as a line.

  plot_ablation.py BENCH.csv OUT.png   (needs matplotlib: pip install matplotlib)
"""
import csv
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

rows = []
with open(sys.argv[1]) as f:
    for r in csv.DictReader(f):
        m = re.match(r"abl(\d+)_([a-z]+)(?:_\d+)?_kernel", r["entry"])
        if m:
            rows.append((int(m.group(1)), m.group(2), int(r["m"]), r))
rows.sort()
labels = {"naive": "naive", "smem": "+ smem tiling", "regtile": "+ register tiling",
          "padding": "+ padding", "vector": "+ vector copies",
          "prefetch": "+ latency hiding", "reorder": "+ copy order\n(beyond the paper)",
          "double": "+ double\nbuffering", "raster": "+ grouped\nraster"}
names = [labels.get(s, s) for _, s, _, _ in rows]
tflops = [float(r["tcgen_tflops"]) for *_, r in rows]
cublas = sum(float(r["cublas_tflops"]) for *_, r in rows) / len(rows)
size = rows[0][2]
device, date = rows[0][3]["device"], rows[0][3]["date"][:10]
fig, ax = plt.subplots(figsize=(8, 4.2))
bars = ax.bar(range(len(names)), tflops, color="#4c72b0")
for b, v in zip(bars, tflops):
    ax.text(b.get_x() + b.get_width() / 2, v + 8, f"{v:.0f}", ha="center", fontsize=9)
ax.axhline(cublas, color="#c44e52", linestyle="--", label=f"cuBLAS ({cublas:.0f})")
ax.set_xticks(range(len(names)))
ax.set_xticklabels(names, rotation=20, ha="right")
ax.set_ylabel("TFLOP/s")
ax.set_title(f"WMMA pipeline ablation, {size}^3 f16->f32, C += AB\n{device}, {date}")
ax.legend()
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=110)
