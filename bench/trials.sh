#!/bin/sh
# --trials K keeps K, and a stopped run resumed measures only what is
# missing: RUNS runs (default 5) of the example suite with --trials K
# (default 20), alone and with --jobs 2, each benchmark's kept trials
# counted (trials set aside as disturbed are measured again in their
# place); then one run stopped by SIGINT at 80 % of a whole run's time and
# resumed: the trials it carried over, the trials measured anew, and what
# each took.  Prints figures; not a test (tests/run/resume.sh and run.sh
# test the same on fixtures).
set -eu

. bench/lib.sh

K=${K:-20}
RUNS=${RUNS:-5}
SO=build/examples/suite.so
export XDG_CACHE_HOME="$TMP/cache"
echo "trials kept on $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), --trials $K, $(date -u +%Y-%m-%d)"
"$CB" run --cpu "$CPU" --trials 1 -o /dev/null "$SO" 2>/dev/null
count() {
	python3 - "$@" <<'PY'
import json, sys
kept, aside = [], 0
for f in sys.argv[2:]:
    for b in json.load(open(f))["benchmarks"]:
        kept.append(sum(1 for t in b["trials"] if t["status"] == "ok"))
        aside += sum(1 for t in b["trials"] if t["status"] == "set_aside")
print(f"{sys.argv[1]:12} {len(sys.argv) - 2} runs, {len(kept)} benchmark results: kept trials "
      f"{min(kept)} to {max(kept)} (every one {kept[0]}: {all(k == kept[0] for k in kept)}), "
      f"{aside} set aside and measured again")
PY
}
for jobs in 1 2; do
	i=0
	while [ "$i" -lt "$RUNS" ]; do
		i=$((i + 1))
		if [ "$jobs" = 1 ]; then
			"$CB" run --cpu "$CPU" --trials "$K" --format json -o "$TMP/j$jobs-$i.json" "$SO" 2>/dev/null
		else
			"$CB" run --jobs 2 --trials "$K" --format json -o "$TMP/j$jobs-$i.json" "$SO" 2>/dev/null
		fi
	done
	# shellcheck disable=SC2046
	count "--jobs $jobs" $(ls "$TMP"/j"$jobs"-*.json)
done
# A whole run's time, then one stopped at 80 % of it and resumed.
t0=$(date +%s.%N)
"$CB" run --cpu "$CPU" --trials "$K" --format json -o "$TMP/whole.json" "$SO" 2>/dev/null
t1=$(date +%s.%N)
whole=$(echo "$t1 - $t0" | bc)
"$CB" run --cpu "$CPU" --trials "$K" --format json -o "$TMP/stopped.json" "$SO" 2>/dev/null &
pid=$!
sleep "$(echo "$whole * 0.8" | bc)"
kill -INT "$pid"
wait "$pid" || true
t2=$(date +%s.%N)
"$CB" run --cpu "$CPU" --trials "$K" --resume "$TMP/stopped.json" --format json -o "$TMP/resumed.json" "$SO" \
	2>/dev/null
t3=$(date +%s.%N)
python3 - "$TMP/stopped.json" "$TMP/resumed.json" "$whole" "$(echo "$t3 - $t2" | bc)" "$K" <<'PY'
import json, sys
s, r = (json.load(open(f)) for f in sys.argv[1:3])
whole, took, k = float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
i = s["config"]["interrupted"]
fr = r["config"]["resumed_from"]
done = sum(1 for b in s["benchmarks"] for t in b["trials"] if t["status"] == "ok")
before = {b["name"]: b for b in s["benchmarks"]}
carried = anew = 0
for b in r["benchmarks"]:
    whole_b = before.get(b["name"]) == b  # carried over as it was
    for t in b["trials"]:
        if t["status"] != "failed" and (whole_b or t.get("carried")):
            carried += 1  # kept or set aside, as the report counts them
        elif t["status"] == "ok":
            anew += 1
kept = [sum(1 for t in b["trials"] if t["status"] == "ok") for b in r["benchmarks"]]
print(f"whole run {whole:.1f} s; stopped by {i['signal']} at 80 % of it: {done} of "
      f"{k * len(r['benchmarks'])} trials kept")
print(f"resumed in {took:.1f} s ({100 * took / whole:.0f} % of a whole run): report says "
      f"{fr['benchmarks_carried_over']} benchmarks and {fr['trials_carried_over']} trials of begun ones "
      f"carried; trials carried {carried}, measured anew {anew}; kept per benchmark {min(kept)} to {max(kept)}")
PY
