# SPDX-License-Identifier: GPL-2.0
"""For tests/run/plot.sh: runs of a comparison whose answer is known, made
from one real run's JSON report of build/tests/fixtures/sets18_old.so.

    plot_runs.py BASE.json OUTDIR NOLD NNEW SLOW

writes OUTDIR/old1.json ... and OUTDIR/new1.json ...: each a copy of BASE
with every ns/op and est-cycles/op figure of a benchmark scaled by a
deterministic factor within +-0.2 % (the drift between runs), and on the new side the benchmark
named SLOW scaled by 1.05 more: one set 5 % slower.  The align=1 sets are
made equal to their align=0 twins first (the fixture's align does nothing),
so their lines coincide exactly.
"""
import copy
import json
import math
import sys

base_path, outdir, nold, nnew, slow = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
base = json.load(open(base_path))
by_name = {b["name"]: b for b in base["benchmarks"]}
for b in base["benchmarks"]:
    if b["name"].endswith("/align=1"):
        twin = by_name[b["name"][:-1] + "0"]
        for k, v in twin.items():
            if k not in ("name", "id", "params"):
                b[k] = copy.deepcopy(v)


def scale(obj, f):
    for k, v in obj.items():
        if (k.endswith("ns_per_op") or k == "est_cycles_per_op") and isinstance(v, (int, float)):
            obj[k] = v * f
    for t in obj.get("trials", []):
        scale(t, f)


for side, n in (("old", nold), ("new", nnew)):
    for r in range(n):
        d = copy.deepcopy(base)
        for b in d["benchmarks"]:
            # The same drift for an align=1 set as for its twin.
            key = b["name"].replace("/align=1", "/align=0")
            phase = sum(map(ord, key)) + 5 * r + (17 if side == "new" else 0)
            f = 1 + 0.002 * math.sin(phase)
            if side == "new" and b["name"] == slow:
                f *= 1.05
            scale(b, f)
        json.dump(d, open("%s/%s%d.json" % (outdir, side, r + 1), "w"), indent=1)
