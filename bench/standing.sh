#!/bin/sh
# Standing workers against a worker per trial (run --fresh-workers): the
# 64-benchmark sweep (bench/sweep.c) and the example suite's known-answer
# chains with a memory-bound copy and pointer chase, random branches and a
# hash, RUNS runs each way, at the same trial time, alternating so that the host's moods meet both alike.  Prints
# the time of each way, how many headlines lie inside the other way's
# interval (each run against the run of the other way beside it), and the
# known answers' est-cycles/op with their spread between runs, each way.
# Not a test: nothing here passes or fails on a number.  Run by `make bench`.
set -eu

. bench/lib.sh

RUNS=${RUNS:-6}
FILTER=${FILTER:-'^(add|imul|divide)_chain$|^copy/size=4194304$|^branch/random=1$|^hash/algo=fnv1a/len=256$|^pointer_chase/size=1048576$'}
# Both ways at the trial a big suite gets by default: the auto trial time
# counts what a trial costs besides, which differs between the two.
TRIAL="--trial-time 0.004 --warmup 0.001"
SWEEP=build/bench/sweep.so
SUITE=build/examples/suite.so
mkdir -p build/bench
${CC:-gcc} -O2 -g -fPIC -shared -Iinclude -o "$SWEEP" bench/sweep.c
export XDG_CACHE_HOME="$TMP/cache"
echo "standing workers against fresh ones on $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), CPU $CPU, $RUNS runs each way, $(date -u +%Y-%m-%d)"
"$CB" run --cpu "$CPU" --trials 1 -o /dev/null "$SWEEP" 2>/dev/null
"$CB" run --cpu "$CPU" --trials 1 --filter "$FILTER" -o /dev/null "$SUITE" 2>/dev/null
i=0
while [ "$i" -lt "$RUNS" ]; do
	for way in fresh standing; do
		flag=""
		[ "$way" = fresh ] && flag=--fresh-workers
		for what in sweep suite; do
			so=$SWEEP; filter=.
			[ "$what" = suite ] && so=$SUITE && filter=$FILTER
			t0=$(date +%s.%N)
			# shellcheck disable=SC2086
			"$CB" run --cpu "$CPU" $TRIAL $flag --filter "$filter" --format json \
				-o "$TMP/$what-$way-$i.json" "$so" 2>/dev/null || true
			echo "$what $way $(echo "$(date +%s.%N) - $t0" | bc)" >>"$TMP/times"
		done
	done
	i=$((i + 1))
done
python3 - "$TMP" "$RUNS" <<'PY'
import json, statistics, sys
tmp, runs = sys.argv[1], int(sys.argv[2])
times = {}
for line in open(f"{tmp}/times"):
    what, way, t = line.split()
    times.setdefault((what, way), []).append(float(t))
def load(what, way, i):
    try:
        return {b["name"]: b for b in json.load(open(f"{tmp}/{what}-{way}-{i}.json"))["benchmarks"]}
    except (OSError, ValueError):
        return {}
for what in ("sweep", "suite"):
    f, s = times[(what, "fresh")], times[(what, "standing")]
    n = len(load(what, "fresh", 0))
    print(f"{what}: {n} benchmarks, a run {statistics.median(f):.2f} s fresh, "
          f"{statistics.median(s):.2f} s standing (medians of {runs}), "
          f"{statistics.median(f) / n:.4f} and {statistics.median(s) / n:.4f} s a benchmark")
    def inside(pairs):
        hit = total = 0
        for a, b in pairs:
            for name in a.keys() & b.keys():
                x, y = a[name], b[name]
                if x.get("ns_per_op") is None or y.get("ns_per_op") is None:
                    continue
                total += 2
                hit += x["ns_per_op_lower"] <= y["ns_per_op"] <= x["ns_per_op_upper"]
                hit += y["ns_per_op_lower"] <= x["ns_per_op"] <= y["ns_per_op_upper"]
        return f"{hit} of {total} ({100 * hit / max(total, 1):.0f} %)"
    f = [load(what, "fresh", i) for i in range(runs)]
    s = [load(what, "standing", i) for i in range(runs)]
    # Against the same way's next run too: what the host's noise alone
    # leaves outside (the trials of one run share its moment).
    print(f"  headlines (ns/op) inside the other's interval: fresh and standing run beside run "
          f"{inside(zip(f, s))}; fresh and the next fresh {inside(zip(f, f[1:]))}; "
          f"standing and the next standing {inside(zip(s, s[1:]))}")
print(f"{'benchmark':28} {'fresh est-cyc/op':>17} {'CV':>8} {'standing':>12} {'CV':>8}")
names = sorted(load("suite", "fresh", 0))
for name in names:
    row = []
    for way in ("fresh", "standing"):
        v = [load("suite", way, i).get(name, {}).get("est_cycles_per_op") for i in range(runs)]
        v = [x for x in v if x]
        cv = statistics.stdev(v) / statistics.mean(v) * 100 if len(v) > 1 else float("nan")
        row += [statistics.median(v) if v else float("nan"), cv]
    print(f"{name[9:37]:28} {row[0]:17.5g} {row[1]:7.3f}% {row[2]:12.5g} {row[3]:7.3f}%")
PY
