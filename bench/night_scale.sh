#!/bin/sh
# What a trial costs as a suite grows (issue: a lab's night at scale):
# objects of 64, 512 and 4,096 benchmarks (bench/sweep.c's kernel, 1, 8
# and 64 copies of its 64 parameter values), each run warm (its tuning
# cached) with TRIALS trials at the default trial time; prints the wall
# time a trial took beside the trial's own (warm-up and measurement), the
# user and system time, the peak memory, and where a trial's time went
# (fork, the worker's start, setup, warm-up, measuring, the worker's end,
# the runner between trials: CBENCH_COSTS).  SIZES picks the sizes
# (default "64 512 4096"; the 4,096 takes about two minutes).  Not a test.
set -eu

. bench/lib.sh

SIZES=${SIZES:-64 512 4096}
TRIALS=${TRIALS:-3}
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
echo "a night at scale on $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), CPU $CPU, $TRIALS trials a benchmark, $(date -u +%Y-%m-%d)"
for n in $SIZES; do
	${CC:-gcc} -O2 -fPIC -shared -Iinclude -o "build/bench/sweep$n.so" "$TMP/sweep$n.c"
	export XDG_CACHE_HOME="$TMP/cache$n"
	"$CB" run --cpu "$CPU" --trials 1 -o /dev/null "build/bench/sweep$n.so" 2>/dev/null
	CBENCH_COSTS=1 /usr/bin/time -f "%e %U %S %M" -o "$TMP/time" "$CB" run --cpu "$CPU" --trials "$TRIALS" \
		--format json -o "$TMP/run$n.json" "build/bench/sweep$n.so" 2>"$TMP/err$n"
	python3 - "$n" "$TMP/time" "$TMP/run$n.json" <<'PY'
import json, sys
n, t, r = sys.argv[1:4]
e, u, s, m = open(t).read().split()
d = json.load(open(r))
o = d["config"]["run_options"]
trials = sum(len(b["trials"]) for b in d["benchmarks"])
print(f"{n:>5} benchmarks: {float(e):7.2f} s wall, {float(e) / trials * 1e3:6.2f} ms a trial "
      f"(its own {(o['trial_time_s'] + o['warmup_s']) * 1e3:.1f} ms), {float(e) / int(n):.3f} s a benchmark; "
      f"user {float(u):.2f} s, system {float(s):.2f} s, peak {int(m) / 1024:.1f} MB")
PY
	# Where a trial's time went (session/phase.h's stages, CBENCH_COSTS).
	sed -n 's/^cbenchctl: trial costs, means over [0-9]* trials: /       a trial: /p' "$TMP/err$n"
done
