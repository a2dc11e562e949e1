#!/bin/sh
# est-cycles/op under a core clock that moves (docs/methodology.md, "A figure
# the clock cannot bias").  Prints, from runs on this machine:
#   - RUNS default runs of the known-answer chains (examples/known.c:
#     latency_add, latency_imul, latency_crc32, throughput_add): each
#     chain's est-cycles/op per run, how far the runs spread (largest minus
#     least, over their median) and their CV, as cbench reports them (each
#     trial within one clock level) and as a trial's floors over its whole
#     length would have had them (recomputed from the same measurements),
#     beside the bare interleaved loop's imul/add ratio (bench/bare_loop.c:
#     the least of 4000 measurements a chain, the limit) over the same
#     minutes;
#   - SHORT runs of one chain of 2,000 register adds with --trials 3
#     --trial-time 0.005 (what tests/run/history.sh runs a commit) and
#     RUNS default ones: how many of them lie within 0.05 % of the median
#     of all, both ways;
#   - how many trials matched their references within one level, at which
#     tolerance, how many saw more than one level, and how many were set
#     aside because the clock never held;
#   - the cores' widths the trials saw (adds a cycle, stats/trials.h), and
#     how many trials ran on a core another thread shared: set aside, or
#     kept for want of others.
# KEEP_SHARED=1 runs every run with --keep-shared: the figures as they are
# with shared trials kept (run it beside a default one, at the same hour).
# Not a test: nothing here passes or fails on a number.  Run by `make bench`.
set -eu

. bench/lib.sh

RUNS=${RUNS:-8}
SHARED=
[ -n "${KEEP_SHARED:-}" ] && SHARED=--keep-shared
SHORT=${SHORT:-12}
KNOWN=build/examples/known.so
CHAIN=$TMP/chain.so
BARE=build/bench/bare_loop

mkdir -p build/bench
${CC:-gcc} -O2 -Wall -Wextra -Iuser -o "$BARE" bench/bare_loop.c
${CC:-gcc} -O2 -fPIC -shared -Iinclude -DHISTORY_ADDS=2000 -o "$CHAIN" tests/fixtures/history.c
export XDG_CACHE_HOME="$TMP/cache"
echo "clock: $RUNS runs of the known-answer chains, $SHORT short and $RUNS default runs of a 2000-add chain, on $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), CPU $CPU" >&2

i=0
while [ "$i" -lt "$RUNS" ]; do
	"$CB" run $SHARED --cpu "$CPU" --filter '^(latency_(add|imul|crc32)|throughput_add)$' \
		-o "$TMP/k$i.json" --samples "$TMP/k$i.csv" "$KNOWN" 2>/dev/null
	taskset -c "$CPU" "$BARE" chains >"$TMP/bare$i.json"
	"$CB" run $SHARED --cpu "$CPU" --filter '^chain$' -o "$TMP/d$i.json" --samples "$TMP/d$i.csv" "$CHAIN" 2>/dev/null
	i=$((i + 1))
done
i=0
while [ "$i" -lt "$SHORT" ]; do
	"$CB" run $SHARED --cpu "$CPU" --trials 3 --trial-time 0.005 --filter '^chain$' -o "$TMP/s$i.json" \
		--samples "$TMP/s$i.csv" "$CHAIN" 2>/dev/null
	i=$((i + 1))
done

python3 - "$TMP" "$RUNS" "$SHORT" <<'PY'
import csv, json, statistics, sys
from collections import defaultdict

tmp, runs, short = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
ADDS = 1000  # CBENCH_REF_ADDS_PER_REP


def floor_mean(v, step):
    m = min(v)
    kept = [x for x in v if x <= m + 1.5 * step]
    return max(m, sum(kept) / len(kept))


def trial_floors(csv_path, report):
    """Each benchmark's median over its kept trials of the trial's floors
    taken over its whole length, in cycles per rep: the figure before clock
    levels."""
    step = report["config"]["timer_step_ticks"]
    kept = {b["name"]: [t["status"] == "ok" for t in b["trials"]] for b in report["benchmarks"]}
    rows = defaultdict(lambda: {"b": [], "r": []})
    for r in csv.DictReader(open(csv_path)):
        if r["disturbed"]:
            continue
        key = (r["benchmark"], int(r["trial"]))
        rows[key]["b" if r["kind"] == "benchmark" else "r"].append((int(r["reps"]), int(r["ticks"])))
    out = defaultdict(list)
    for (name, trial), v in rows.items():
        if not v["b"] or not v["r"] or trial > len(kept.get(name, [])) or not kept[name][trial - 1]:
            continue
        b = floor_mean([t / n for n, t in v["b"]], step / v["b"][0][0])
        r = floor_mean([t / n for n, t in v["r"]], step / v["r"][0][0])
        out[name].append(b * ADDS / r)
    # per rep -> per op: the benchmark declares its ops per rep
    return {name: statistics.median(trials) for name, trials in out.items()}


def ops_per_rep(name):
    return 2000 if name == "BenchmarkChain" else 1000


def spread(v):
    m = statistics.median(v)
    return 100 * (max(v) - min(v)) / m, 100 * statistics.pstdev(v) / statistics.mean(v)


known = [json.load(open(f"{tmp}/k{i}.json")) for i in range(runs)]
names = [b["name"] for b in known[0]["benchmarks"]]
print(f"known-answer chains, {runs} default runs (est-cycles/op; spread = (largest - least) / median):")
for name in names:
    now = [next(b for b in k["benchmarks"] if b["name"] == name)["est_cycles_per_op"] for k in known]
    old = [trial_floors(f"{tmp}/k{i}.csv", known[i]).get(name) for i in range(runs)]
    old = [o / ops_per_rep(name) for o in old if o]
    s_now, cv_now = spread(now)
    line = f"  {name:<26} levels: {statistics.median(now):.5f}, spread {s_now:.4f}%, CV {cv_now:.4f}%"
    if old:
        s_old, cv_old = spread(old)
        line += f"; trial floors: {statistics.median(old):.5f}, spread {s_old:.4f}%, CV {cv_old:.4f}%"
    print(line)
bare = [json.load(open(f"{tmp}/bare{i}.json"))["imul_over_add"] for i in range(runs)]
s, cv = spread(bare)
print(f"  bare loop imul/add (the limit): {statistics.median(bare):.5f}, spread {s:.4f}%, CV {cv:.4f}%")

chain = []
for prefix, n in (("d", runs), ("s", short)):
    for i in range(n):
        rep = json.load(open(f"{tmp}/{prefix}{i}.json"))
        (b,) = rep["benchmarks"]
        old = trial_floors(f"{tmp}/{prefix}{i}.csv", rep).get(b["name"])
        chain.append((prefix, b["est_cycles_per_op"], old / 2000 if old else None))
med = statistics.median(c[1] for c in chain)
within = sum(abs(c[1] / med - 1) <= 0.0005 for c in chain)
olds = [c[2] for c in chain if c[2]]
old_med = statistics.median(olds)
old_within = sum(abs(o / old_med - 1) <= 0.0005 for o in olds)
print(f"2000-add chain, {short} runs of --trials 3 --trial-time 0.005 and {runs} default runs: "
      f"{within} of {len(chain)} within 0.05 % of their median ({med:.5f}; largest off "
      f"{100 * max(abs(c[1] / med - 1) for c in chain):.4f}%); trial floors: {old_within} of "
      f"{len(olds)} ({old_med:.5f}; largest off {100 * max(abs(o / old_med - 1) for o in olds):.4f}%)")

how, tol, multi, unsteady, trials = defaultdict(int), defaultdict(int), 0, 0, 0
for rep in known + [json.load(open(f"{tmp}/{p}{i}.json")) for p, n in (("d", runs), ("s", short))
                    for i in range(n)]:
    for b in rep["benchmarks"]:
        for t in b["trials"]:
            c = t.get("clock")
            if not c:
                continue
            trials += 1
            how[c["how"]] += 1
            if "tolerance" in c:
                tol[c["tolerance"]] += 1
            multi += c.get("levels", 0) > 1
            unsteady += c["how"] == "unsteady"
print(f"trials: {trials}; {dict(how)}; matched at tolerance {dict(sorted(tol.items()))}; "
      f"{multi} saw more than one level; {unsteady} set aside, the clock never held")

widths, shared, aside, kept_shared, runs_shared = [], 0, 0, 0, 0
for rep in known + [json.load(open(f"{tmp}/{p}{i}.json")) for p, n in (("d", runs), ("s", short))
                    for i in range(n)]:
    n_before = shared
    for b in rep["benchmarks"]:
        for t in b["trials"]:
            if "core_width" in t:
                widths.append(t["core_width"])
            shared += t.get("cause") == "shared"
            aside += t.get("cause") == "shared" and t["status"] == "set_aside"
            kept_shared += t.get("cause") == "shared" and t["status"] == "ok"
    runs_shared += shared > n_before
if widths:
    widest = max(widths)
    narrow = sum(w < 0.9 * widest for w in widths)
    print(f"cores: widest {widest:.2f} adds a cycle; {narrow} of {len(widths)} trials at least 10 % "
          f"narrower; {shared} called shared ({aside} set aside, {kept_shared} kept for want of others) "
          f"in {runs_shared} runs")
PY
