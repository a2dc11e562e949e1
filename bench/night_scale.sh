#!/bin/sh
# What a benchmark costs as a suite grows (issue: a lab's night at scale):
# objects of 64, 512 and 4,096 benchmarks (bench/sweep.c's kernel, 1, 8
# and 64 copies of its 64 parameter values), each run cold (no tuning
# cached), warm, and warm with --jobs 2 where two CPUs fit, with TRIALS
# trials (default: none said, so run's default: trials until each
# headline is within 0.05 %, within as long as 10 of each would take) at
# the default trial time, and without TRIALS 10 of each (--precision off)
# on one CPU and with --jobs 2 too; prints the wall
# time a benchmark took beside its trials' own (warm-up and measurement),
# the user and system time, the peak memory, --jobs 2's speed-up, and
# where a warm trial's time went (fork, the worker's start, setup, warm-up,
# measuring, the worker's end, the runner between trials: CBENCH_COSTS).
# SIZES picks the sizes (default "64 512 4096"; the 4,096 takes about
# fifteen minutes).  Not a test.
set -eu

. bench/lib.sh

SIZES=${SIZES:-64 512 4096}
TRIALS=${TRIALS:-}
mkdir -p build/bench
python3 - "$TMP" $SIZES <<'PY'
import sys
tmp, sizes = sys.argv[1], [int(s) for s in sys.argv[2:]]
src = open("bench/sweep.c").read()
head, body = src[:src.index("static void mix")], src[src.index("static void mix"):src.index("CBENCH(mix")]
for n in sizes:
    out = head
    for i in range(n // 64):
        out += body.replace("static void mix", "static void mix%d" % i)
        out += 'CBENCH(mix%d, CBENCH_KEYS(CBENCH_DENSE("n", 1, 64, 1)));\n' % i
    open("%s/sweep%d.c" % (tmp, n), "w").write(out)
PY
FIT=$("$CB" doctor --no-measure --json 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(next((c.get("fit", 1) for c in d.get("checks", []) if c.get("name") == "jobs"), 1))' || echo 1)
echo "a night at scale on $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), CPU $CPU, ${TRIALS:-the default} trials a benchmark, $(date -u +%Y-%m-%d)"
for n in $SIZES; do
	${CC:-gcc} -O2 -fPIC -shared -Iinclude -o "build/bench/sweep$n.so" "$TMP/sweep$n.c"
	export XDG_CACHE_HOME="$TMP/cache$n"
	# fixed: warm, 10 trials of each (--precision off), what jobsfixed
	# (--jobs 2 of those) is measured against; jobs against warm.
	for way in cold warm fixed jobs jobsfixed; do
		case $way in
		jobs) [ "$FIT" -ge 2 ] || continue; opts="--jobs 2" ;;
		jobsfixed) [ "$FIT" -ge 2 ] && [ -z "$TRIALS" ] || continue; opts="--jobs 2 --precision off" ;;
		fixed) [ -z "$TRIALS" ] || continue; opts="--cpu $CPU --precision off" ;;
		*) opts="--cpu $CPU" ;;
		esac
		# shellcheck disable=SC2086
		CBENCH_COSTS=1 /usr/bin/time -f "%e %U %S %M" -o "$TMP/time-$way" "$CB" run $opts \
			${TRIALS:+--trials "$TRIALS"} --format json -o "$TMP/run$n-$way.json" "build/bench/sweep$n.so" \
			2>"$TMP/err$n-$way" || true
	done
	python3 - "$n" "$TMP" <<'PY'
import json, os, sys
n, tmp = int(sys.argv[1]), sys.argv[2]
wall = {}
for way in ("cold", "warm", "fixed", "jobs", "jobsfixed"):
    if not os.path.exists(f"{tmp}/run{n}-{way}.json"):
        continue
    e, u, s, m = open(f"{tmp}/time-{way}").read().split()
    d = json.load(open(f"{tmp}/run{n}-{way}.json"))
    o = d["config"]["run_options"]
    trials = sum(len(b["trials"]) for b in d["benchmarks"])
    wall[way] = float(e)
    own = (o["trial_time_s"] + o["warmup_s"]) * trials / n
    label = {"cold": "cold", "warm": "warm", "fixed": "warm, 10", "jobs": "--jobs 2",
             "jobsfixed": "--jobs 2, 10"}[way]
    kept = sum(t["status"] == "ok" for b in d["benchmarks"] for t in b["trials"])
    stops = {}
    for b in d["benchmarks"]:
        why = (b.get("stopped") or {}).get("why")
        if why:
            stops[why] = stops.get(why, 0) + 1
    base = "fixed" if way == "jobsfixed" else "warm"
    print(f"{n:>5} benchmarks, {label:8}: {float(e):7.2f} s wall, {float(e) / n:.4f} s a benchmark "
          f"(its trials' own {own:.4f} s), {float(e) / trials * 1e3:5.2f} ms a trial; "
          f"user {float(u):.2f} s, system {float(s):.2f} s, peak {int(m) / 1024:.1f} MB; "
          f"trials a benchmark {trials / n:.1f} measured, {kept / n:.1f} kept"
          + (" (stopped: " + ", ".join(f"{v} {k}" for k, v in sorted(stops.items())) + ")" if stops else "")
          + (f"; {wall[base] / float(e):.2f}x the {'10-trial ' if base == 'fixed' else ''}warm run"
             if way.startswith("jobs") and base in wall else ""))
PY
	# Where a warm trial's time went (session/phase.h's stages, CBENCH_COSTS).
	sed -n 's/^cbenchctl: trial costs, means over [0-9]* trials: /       a warm trial: /p' "$TMP/err$n-warm"
done
