#!/bin/sh
# How good is cbench here?  Prints, from one run on this machine:
#   - the spread (coefficient of variation) of cbench's estimate for the
#     known-answer kernels over RUNS independent runs, next to Google
#     Benchmark's for the same kernels (bench/gbench_chains.cc), pinned to the
#     same CPU;
#   - the imul/add latency ratio (3.00 on every recent x86-64 core);
#   - wall time to a result for the whole example suite, first run (tuning)
#     versus second run (tuning cache).
# Not a test: nothing here passes or fails on a number.  Run by `make bench`.
set -eu

RUNS=${RUNS:-8}
CB=build/cbenchctl
SUITE=build/examples/suite.so
GB=build/bench/gbench_chains
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT INT TERM
# The CPU both harnesses measure on: the one cbenchctl picks by default.
CPU=${CPU:-$(($(getconf _NPROCESSORS_ONLN) - 1))}

mkdir -p build/bench
${CXX:-g++} -O2 -o "$GB" bench/gbench_chains.cc -lbenchmark -lpthread


# Google Benchmark gets what cbench's workers get: the same CPU and, where
# permitted, the same real-time priority; it compares harnesses, not setups.
GBRUN="taskset -c $CPU"
if chrt -f 40 true 2>/dev/null; then
	GBRUN="$GBRUN chrt -f 40"
fi
echo "cbench vs Google Benchmark ($GBRUN) on $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), CPU $CPU, $RUNS runs each" >&2

# Independent runs: a fresh cbenchctl process per run, each calibrating the
# timer and tuning n afresh (--retune), each on fresh workers.
export XDG_CACHE_HOME="$TMP/cache"
i=0
while [ "$i" -lt "$RUNS" ]; do
	"$CB" run --retune --cpu "$CPU" --format json --filter '^(add|imul)_chain$' -o "$TMP/cb$i.json" "$SUITE" 2>/dev/null
	$GBRUN "$GB" --benchmark_format=json >"$TMP/gb$i.json" 2>/dev/null
	i=$((i + 1))
done

# Wall time to result for the whole suite: empty cache, then cached.
export XDG_CACHE_HOME="$TMP/cache-wall"
t0=$(date +%s.%N)
"$CB" run --cpu "$CPU" -o "$TMP/first.txt" "$SUITE" 2>/dev/null || true
t1=$(date +%s.%N)
"$CB" run --cpu "$CPU" -o "$TMP/second.txt" "$SUITE" 2>/dev/null || true
t2=$(date +%s.%N)

python3 - "$TMP" "$RUNS" "$t0" "$t1" "$t2" <<'PY'
import json, statistics, sys

tmp, runs = sys.argv[1], int(sys.argv[2])
t0, t1, t2 = map(float, sys.argv[3:6])

def cv(v):
    return statistics.stdev(v) / statistics.mean(v)

cb = {"add": [], "imul": []}
gb = {"add": [], "imul": []}
for i in range(runs):
    for b in json.load(open(f"{tmp}/cb{i}.json"))["benchmarks"]:
        kind = "add" if b["id"] == "add_chain" else "imul"
        cb[kind].append(b["ns_per_op"])
    for b in json.load(open(f"{tmp}/gb{i}.json"))["benchmarks"]:
        kind = "add" if "add" in b["name"] else "imul"
        # Google Benchmark's estimate: mean time per iteration of 1000 ops.
        scale = {"ns": 1, "us": 1e3, "ms": 1e6}[b["time_unit"]]
        gb[kind].append(b["real_time"] * scale / 1000)

print(f"{'kernel':<12}{'cbench ns/op':>14}{'cbench cv':>12}{'gbench ns/op':>14}{'gbench cv':>12}{'cv ratio':>10}")
for k in ("add", "imul"):
    print(f"{k + '_chain':<12}{statistics.mean(cb[k]):14.5f}{100 * cv(cb[k]):11.3f}%"
          f"{statistics.mean(gb[k]):14.5f}{100 * cv(gb[k]):11.3f}%{cv(cb[k]) / cv(gb[k]):10.3f}")
for k in ("add", "imul"):
    print(f"  cbench {k}_chain per run:", " ".join(f"{v:.5f}" for v in cb[k]))
    print(f"  gbench {k}_chain per run:", " ".join(f"{v:.5f}" for v in gb[k]))
ratios = [m / a for m, a in zip(cb["imul"], cb["add"])]
r = statistics.mean(ratios)
print(f"imul/add latency ratio: cbench {r:.4f} ({100 * (r - 3) / 3:+.2f}% from 3.00, "
      f"range {min(ratios):.4f}..{max(ratios):.4f}); "
      f"gbench {statistics.mean(gb['imul']) / statistics.mean(gb['add']):.4f}")
print(f"wall time, example suite: first run {t1 - t0:.2f} s (tuning), "
      f"second run {t2 - t1:.2f} s (cached): {(t1 - t0) / (t2 - t1):.2f}x")
PY
