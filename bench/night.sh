#!/bin/sh
# What a lab's night costs (issue: "a thousand benchmarks in minutes"):
#   - a one-kernel sweep of 64 benchmarks (bench/sweep.c): wall time of a
#     run with an empty tuning cache (cold) and with it filled (warm), per
#     benchmark, RUNS times each;
#   - the same warm on every CPU that fits (--jobs), its speed-up, and how
#     far each benchmark's est-cycles/op and ns/op moved from the serial
#     run's (and whether ns/op lay within its interval);
#   - the known-answer chains' ns/op spread over RUNS independent runs
#     (--retune), the precision the speed must not cost.
# Not a test: nothing here passes or fails on a number.  Run by `make bench`.
set -eu

. bench/lib.sh

RUNS=${RUNS:-5}
SO=build/bench/sweep.so
mkdir -p build/bench
${CC:-gcc} -O2 -g -fPIC -shared -Iinclude -o "$SO" bench/sweep.c

now() { date +%s.%N; }

echo "a lab's night on $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) CPUs, $RUNS runs each" >&2
i=0
: >"$TMP/cold" ; : >"$TMP/warm"
while [ "$i" -lt "$RUNS" ]; do
	export XDG_CACHE_HOME="$TMP/cache$i"
	t0=$(now); "$CB" run --format json -o "$TMP/cold$i.json" "$SO" 2>/dev/null; t1=$(now)
	"$CB" run --format json -o "$TMP/warm$i.json" "$SO" 2>/dev/null; t2=$(now)
	echo "$t1 - $t0" | bc >>"$TMP/cold"
	echo "$t2 - $t1" | bc >>"$TMP/warm"
	i=$((i + 1))
done
FIT=$("$CB" doctor --no-measure --json 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(next((c.get("fit", 1) for c in d.get("checks", []) if c.get("name") == "jobs"), 1))' || echo 1)
: >"$TMP/par"
if [ "$FIT" -gt 1 ]; then
	i=0
	while [ "$i" -lt "$RUNS" ]; do
		export XDG_CACHE_HOME="$TMP/cache$i"
		t0=$(now); "$CB" run --jobs "$FIT" --format json -o "$TMP/par$i.json" "$SO" 2>/dev/null; t1=$(now)
		echo "$t1 - $t0" | bc >>"$TMP/par"
		i=$((i + 1))
	done
fi
i=0
export XDG_CACHE_HOME="$TMP/cache-known"
while [ "$i" -lt 8 ]; do
	"$CB" run --retune --format json --filter '^(add|imul)_chain$' -o "$TMP/known$i.json" \
		build/examples/suite.so 2>/dev/null
	i=$((i + 1))
done

python3 - "$TMP" "$RUNS" "$FIT" <<'PY'
import json, statistics as st, sys
tmp, runs, fit = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def times(name):
    try:
        return [float(x) for x in open(f"{tmp}/{name}").read().split()]
    except FileNotFoundError:
        return []
n = len(json.load(open(f"{tmp}/warm0.json"))["benchmarks"])
for name in ("cold", "warm"):
    t = times(name)
    print(f"{name}: {st.median(t):.2f} s for {n} benchmarks, {st.median(t) / n:.3f} s a benchmark "
          f"(median of {len(t)}; {min(t) / n:.3f} to {max(t) / n:.3f})")
par = times("par")
if par:
    w = st.median(times("warm"))
    print(f"warm on {fit} CPUs (--jobs {fit}): {st.median(par):.2f} s, {st.median(par) / n:.3f} s a benchmark, "
          f"{w / st.median(par):.2f}x the serial run")
    worst_c = worst_n = 0
    inside = total = 0
    for i in range(runs):
        a = json.load(open(f"{tmp}/warm{i}.json"))["benchmarks"]
        b = json.load(open(f"{tmp}/par{i}.json"))["benchmarks"]
        for x, y in zip(a, b):
            worst_c = max(worst_c, abs(y["est_cycles_per_op"] / x["est_cycles_per_op"] - 1))
            worst_n = max(worst_n, abs(y["ns_per_op"] / x["ns_per_op"] - 1))
            inside += x["ns_per_op_lower"] <= y["ns_per_op"] <= x["ns_per_op_upper"]
            total += 1
    # The control: one serial run against the next, as the parallel run
    # against its serial one (the host's moments move both).
    ctrl = ctotal = 0
    for i in range(runs - 1):
        a = json.load(open(f"{tmp}/warm{i}.json"))["benchmarks"]
        b = json.load(open(f"{tmp}/warm{i + 1}.json"))["benchmarks"]
        for x, y in zip(a, b):
            ctrl += x["ns_per_op_lower"] <= y["ns_per_op"] <= x["ns_per_op_upper"]
            ctotal += 1
    print(f"  control: a serial run's ns/op inside the previous serial run's interval {ctrl} of {ctotal}")
    named = sum(b.get("parallel_differs", False)
                for i in range(runs) for b in json.load(open(f"{tmp}/par{i}.json"))["benchmarks"])
    print(f"  against the serial run: est-cycles/op within {100 * worst_c:.3f} %, ns/op within "
          f"{100 * worst_n:.3f} %, ns/op inside the serial interval {inside} of {total}; "
          f"named as measuring differently in parallel: {named} of {total}")
else:
    print("one CPU fits here: no parallel run")
cvs = []
warm = [json.load(open(f"{tmp}/warm{i}.json"))["benchmarks"] for i in range(runs)]
for k in range(n):
    x = [w[k]["ns_per_op"] for w in warm]
    cvs.append(100 * st.stdev(x) / st.mean(x))
cvs.sort()
print(f"the sweep's ns/op between its {runs} warm runs: CV median {st.median(cvs):.4f} %, "
      f"worst {cvs[-1]:.4f} % (of {n} benchmarks)")
v = {}
for i in range(8):
    for b in json.load(open(f"{tmp}/known{i}.json"))["benchmarks"]:
        v.setdefault(b["name"], []).append(b["ns_per_op"])
for k, x in v.items():
    print(f"{k}: ns/op CV {100 * st.stdev(x) / st.mean(x):.4f} % over 8 runs (--retune)")
PY
