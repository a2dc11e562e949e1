#!/bin/sh
# Where a run's trials stop: the known-answer chains and a few benchmarks
# that are not (memory, branches, hashes) of the example suite, measured
# three ways: ten trials of each (--precision off), run's default (trials
# until each headline is within 0.05 %, within as long as ten of each would
# take), and --precision PCT (default 0.01 %) within a budget (default
# 60 s): prints each benchmark's trials, why it stopped, its interval and
# est-cycles/op each way, and each run's wall time.  Not a test.
set -eu

. bench/lib.sh

PCT=${PCT:-0.01}
BUDGET=${BUDGET:-60}
FILTER=${FILTER:-'^(add|imul|divide)_chain$|^copy/size=4194304$|^branch/random=1$|^hash/algo=fnv1a/len=64$'}
SO=build/examples/suite.so
export XDG_CACHE_HOME="$TMP/cache"
echo "precision on $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), CPU $CPU, --precision $PCT% --budget $BUDGET, $(date -u +%Y-%m-%d)"
"$CB" run --cpu "$CPU" --trials 1 --filter "$FILTER" -o /dev/null "$SO" 2>/dev/null
t0=$(date +%s.%N)
"$CB" run --cpu "$CPU" --filter "$FILTER" --precision off --format json -o "$TMP/ten.json" "$SO" 2>/dev/null
t1=$(date +%s.%N)
"$CB" run --cpu "$CPU" --filter "$FILTER" --format json -o "$TMP/default.json" "$SO" 2>/dev/null
t2=$(date +%s.%N)
"$CB" run --cpu "$CPU" --filter "$FILTER" --precision "$PCT" --budget "$BUDGET" --format json \
	-o "$TMP/precise.json" "$SO" 2>/dev/null
t3=$(date +%s.%N)
python3 - "$TMP/ten.json" "$TMP/default.json" "$TMP/precise.json" "$(echo "$t1 - $t0" | bc)" \
	"$(echo "$t2 - $t1" | bc)" "$(echo "$t3 - $t2" | bc)" "$PCT" <<'PY'
import json, sys
runs = [json.load(open(f))["benchmarks"] for f in sys.argv[1:4]]
w = [float(x) for x in sys.argv[4:7]]
print(f"ten trials {w[0]:.1f} s, the default {w[1]:.1f} s, --precision {sys.argv[7]}% {w[2]:.1f} s")
print(f"{'benchmark':34} {'10: est-cyc/op':>14} | {'default: trials':>15} {'why':8} {'interval':>9} "
      f"{'est-cyc/op':>11} | {'--precision: trials':>19} {'why':8} {'interval':>9} {'est-cyc/op':>11}")
kept = lambda x: sum(1 for t in x["trials"] if t["status"] == "ok")
for a, b, c in zip(*runs):
    line = f"{a['name'][9:43]:34} {a.get('est_cycles_per_op') or float('nan'):14.5g}"
    for x, width in ((b, 15), (c, 19)):
        s = x.get("stopped", {})
        iv = s.get("interval_pct")
        line += (f" | {kept(x):{width}d} {s.get('why', '-'):8} {('%.4f%%' % iv) if iv is not None else '-':>9} "
                 f"{x.get('est_cycles_per_op') or float('nan'):11.5g}")
    print(line)
PY
