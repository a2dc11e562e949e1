#!/bin/sh
# How good is cbench here?  Prints, from one run on this machine:
#   - the spread (coefficient of variation) of cbench's estimates for the
#     known-answer kernels over RUNS independent runs: est-cycles/op (against
#     the reference chain each trial interleaves) and ns/op, next to the
#     ns/op spread of Google Benchmark (bench/gbench_chains.cc) and of the
#     bare interleaved loop (bench/bare_loop.c, the limit), all pinned to the
#     same CPU;
#   - the imul/add latency ratio (3.00 on every recent x86-64 core), per run;
#   - the timer step cbench reports, beside a histogram of rdtsc deltas;
#   - the random branch example's cost over the predictable one's;
#   - the cache-cold walk over its warm twin (examples/per_rep.c: per-rep
#     hooks flush the arena, or read it, before every call);
#   - wall time to a result for the whole example suite, first run (tuning)
#     versus second run (tuning cache);
#   - `cbenchctl selftest`: each known-answer kernel's cycles against the
#     table, beside Google Benchmark's ns per instruction for the same asm
#     (bench/gbench_known.cc) times the core clock the selftest saw.
# Not a test: nothing here passes or fails on a number.  Run by `make bench`.
set -eu

. bench/lib.sh

RUNS=${RUNS:-8}
SUITE=build/examples/suite.so
GB=build/bench/gbench_chains
BARE=build/bench/bare_loop
# Both harnesses measure on $CPU (lib.sh).

mkdir -p build/bench
${CXX:-g++} -O2 -o "$GB" bench/gbench_chains.cc -lbenchmark -lpthread
${CXX:-g++} -O2 -o build/bench/gbench_known bench/gbench_known.cc -lbenchmark -lpthread
${CC:-gcc} -O2 -Wall -Wextra -Iuser -o "$BARE" bench/bare_loop.c


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
	$GBRUN "$BARE" chains >"$TMP/bare$i.json"
	i=$((i + 1))
done
$GBRUN "$BARE" histogram >"$TMP/histogram.txt"
"$CB" run --retune --cpu "$CPU" --format json --filter '^branch' -o "$TMP/branch.json" "$SUITE" 2>/dev/null || true
PER_REP=build/examples/per_rep.so
"$CB" run --cpu "$CPU" --format json --filter 'walk$' -o "$TMP/walk.json" "$PER_REP" 2>/dev/null || true

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
cyc = {"add": [], "imul": []}
gb = {"add": [], "imul": []}
bare = {"add": [], "imul": []}
bare_ratio = []
step = None
for i in range(runs):
    report = json.load(open(f"{tmp}/cb{i}.json"))
    step = report["config"]["timer_step_ticks"]
    for b in report["benchmarks"]:
        kind = "add" if b["id"] == "add_chain" else "imul"
        cb[kind].append(b["ns_per_op"])
        cyc[kind].append(b["est_cycles_per_op"])
    for b in json.load(open(f"{tmp}/gb{i}.json"))["benchmarks"]:
        kind = "add" if "add" in b["name"] else "imul"
        # Google Benchmark's estimate: mean time per iteration of 1000 ops.
        scale = {"ns": 1, "us": 1e3, "ms": 1e6}[b["time_unit"]]
        gb[kind].append(b["real_time"] * scale / 1000)
    b = json.load(open(f"{tmp}/bare{i}.json"))
    bare["add"].append(b["add_ns_per_op"])
    bare["imul"].append(b["imul_ns_per_op"])
    bare_ratio.append(b["imul_over_add"])

print(f"spread over {runs} independent runs (coefficient of variation):")
print(f"{'kernel':<12}{'cbench cycles':>15}{'cv':>9}{'cbench ns/op':>14}{'cv':>9}"
      f"{'gbench ns/op':>14}{'cv':>9}{'bare ns/op':>12}{'cv':>9}")
for k in ("add", "imul"):
    print(f"{k + '_chain':<12}{statistics.mean(cyc[k]):15.5f}{100 * cv(cyc[k]):8.3f}%"
          f"{statistics.mean(cb[k]):14.5f}{100 * cv(cb[k]):8.3f}%"
          f"{statistics.mean(gb[k]):14.5f}{100 * cv(gb[k]):8.3f}%"
          f"{statistics.mean(bare[k]):12.5f}{100 * cv(bare[k]):8.3f}%")
for k in ("add", "imul"):
    print(f"  cbench {k}_chain est-cycles/op per run:", " ".join(f"{v:.5f}" for v in cyc[k]))
    print(f"  cbench {k}_chain ns/op per run:", " ".join(f"{v:.5f}" for v in cb[k]))
    print(f"  gbench {k}_chain ns/op per run:", " ".join(f"{v:.5f}" for v in gb[k]))
    print(f"  bare   {k}_chain ns/op per run:", " ".join(f"{v:.5f}" for v in bare[k]))
ratios = [m / a for m, a in zip(cyc["imul"], cyc["add"])]
worst = max(abs(x - 3) / 3 for x in ratios)
print(f"imul/add latency ratio per run, cbench est-cycles:", " ".join(f"{x:.4f}" for x in ratios),
      f"(worst {100 * worst:.3f}% from 3.000)")
print(f"imul/add latency ratio per run, bare loop:", " ".join(f"{x:.4f}" for x in bare_ratio))
print(f"imul/add, gbench means: {statistics.mean(gb['imul']) / statistics.mean(gb['add']):.4f}")
hist = open(f"{tmp}/histogram.txt").read().strip()
print(f"timer step: cbench reports {step:.0f} ticks; back-to-back rdtsc deltas (value x count): {hist}")
try:
    br = {b["id"]: b["ns_per_op"] for b in json.load(open(f"{tmp}/branch.json"))["benchmarks"]}
    print(f"branch example: random {br['branch/random=1']:.4f} ns/op over predictable "
          f"{br['branch/random=0']:.4f}: {br['branch/random=1'] / br['branch/random=0']:.2f}x")
except (OSError, KeyError, ValueError) as e:
    print(f"branch example: no result ({e})")
try:
    w = {b["id"]: b["ns_per_op"] for b in json.load(open(f"{tmp}/walk.json"))["benchmarks"]}
    print(f"cache-cold walk: {w['cold_walk']:.4f} ns per line over the warm twin's "
          f"{w['warm_walk']:.4f}: {w['cold_walk'] / w['warm_walk']:.2f}x")
except (OSError, KeyError, ValueError, ZeroDivisionError) as e:
    print(f"cache-cold walk: no result ({e})")
print(f"wall time, example suite: first run {t1 - t0:.2f} s (tuning), "
      f"second run {t2 - t1:.2f} s (cached): {(t1 - t0) / (t2 - t1):.2f}x")
PY

# The selftest's known answers, and Google Benchmark on the same kernels.
"$CB" selftest --cpu "$CPU" --format json -o "$TMP/selftest.json" 2>/dev/null || true
$GBRUN build/bench/gbench_known --benchmark_format=json >"$TMP/gbknown.json" 2>/dev/null
python3 - "$TMP/selftest.json" "$TMP/gbknown.json" <<'PY'
import json, sys
try:
    st = json.load(open(sys.argv[1]))
except (OSError, ValueError) as e:
    print(f"selftest: no report ({e})")
    raise SystemExit(0)
gb = {b["name"].replace("BM_", ""): b["real_time"] for b in json.load(open(sys.argv[2]))["benchmarks"]}
(b,) = st["backends"]
ghz = (b["core_ghz_min"] + b["core_ghz_max"]) / 2
print(f"selftest ({'all passed' if st['passed'] else 'FAILED'}), core clock {b['core_ghz_min']:.3f}"
      f" to {b['core_ghz_max']:.3f} GHz; Google Benchmark's ns per instruction x {ghz:.3f} GHz:")
kernels = {"add": "latency_add", "imul": "latency_imul", "crc32": "latency_crc32",
           "popcnt": "latency_popcnt", "l1": "latency_l1", "add-throughput": "throughput_add"}
for c in b["checks"]:
    if c["name"] not in kernels or "counted" in c["measures"]:
        continue
    g = gb.get(kernels[c["name"]])
    gcyc = f"{g / 1000 * ghz:8.4f}" if g else "       -"
    exp = f"{c['expected']:7.4g}" if c["expected"] is not None else "      -"
    got = f"{c['measured']:8.4f}" if c["measured"] is not None else "       -"
    print(f"  {c['name']:15s} expected {exp}  cbench {got} "
          f"({c['verdict']})  gbench {gcyc}")
PY
