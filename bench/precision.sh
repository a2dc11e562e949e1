#!/bin/sh
# run --precision against the default: the known-answer chains and a few
# benchmarks that are not (memory, branches, hashes) of the example suite,
# once with the default 10 trials and once with --precision PCT (default
# 0.01 %) within a budget (default 60 s): prints each benchmark's trials,
# why it stopped, its headline and est-cycles/op both ways.  Not a test.
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
"$CB" run --cpu "$CPU" --filter "$FILTER" --format json -o "$TMP/default.json" "$SO" 2>/dev/null
t1=$(date +%s.%N)
"$CB" run --cpu "$CPU" --filter "$FILTER" --precision "$PCT" --budget "$BUDGET" --format json \
	-o "$TMP/precise.json" "$SO" 2>/dev/null
t2=$(date +%s.%N)
python3 - "$TMP/default.json" "$TMP/precise.json" "$(echo "$t1 - $t0" | bc)" "$(echo "$t2 - $t1" | bc)" <<'PY'
import json, sys
d, p = (json.load(open(f))["benchmarks"] for f in sys.argv[1:3])
print(f"default run {float(sys.argv[3]):.1f} s, --precision run {float(sys.argv[4]):.1f} s")
print(f"{'benchmark':34} {'trials':>6} {'est-cyc/op':>11} | {'trials':>6} {'why':8} {'interval':>9} {'est-cyc/op':>11}")
for a, b in zip(d, p):
    s = b.get("stopped", {})
    kept = lambda x: sum(1 for t in x["trials"] if t["status"] == "ok")
    iv = s.get("interval_pct")
    print(f"{a['name'][9:43]:34} {kept(a):6d} {a.get('est_cycles_per_op') or float('nan'):11.5g} | "
          f"{kept(b):6d} {s.get('why', '-'):8} {('%.4f%%' % iv) if iv is not None else '-':>9} "
          f"{b.get('est_cycles_per_op') or float('nan'):11.5g}")
PY
