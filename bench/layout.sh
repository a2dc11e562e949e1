#!/bin/sh
# Code layout here (docs/placement.md, "Code layout"): on the loop of
# tests/fixtures/layout.c, whose speed depends on where its code lies (12
# taken jumps; build/tests/layout/), audits with code layouts sampled (the
# default) and with --fixed-layout, default confidence and min-effect, a
# budget of BUDGET seconds (default 3):
#   - aa: the object against a copy of itself (two files, each loaded at its
#     own address), N audits each way (default 100): false verdicts (faster
#     or slower), equivalent, inconclusive;
#   - shifted: the same loop 16, 32 and 48 bytes further into the object,
#     identical bytes, S audits each (default 10) each way: verdicts;
#   - plus8: one taken jump more (about 8 % more work), S audits sampled:
#     found slower, and the changes found;
#   - cost: what sampling costs an audit, on a compute chain that layout
#     does not move (examples/audit.c's chain_1000 against chain_1010,
#     built with -ffunction-sections -Wl,-q), S audits each way: the median
#     time per round (wall_s / rounds) and time to a verdict.
# Seeds FIRST..FIRST+N-1 (FIRST default 1), so that batches can add up
# without repeating a seed's layouts.  Not a test: nothing here passes or fails on a number.  Run by
# `make bench`.
set -eu

. bench/lib.sh

N=${N:-100}
S=${S:-10}
FIRST=${FIRST:-1}
BUDGET=${BUDGET:-3}
L=build/tests/layout
cp "$L/shift0.so" "$TMP/copy_a.so"
cp "$L/shift0.so" "$TMP/copy_b.so"
cc -O2 -fPIC -shared -Iinclude -ffunction-sections -Wl,-q -o "$TMP/chains.so" examples/audit.c

echo "code layout: budget ${BUDGET} s, CPU $CPU of $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')" >&2

# audit NAME SEED ARGS...: one audit's JSON into $TMP/NAME-SEED.json.
audit() {
	name=$1
	seed=$2
	shift 2
	"$CB" audit --backend user --cpu "$CPU" --seed "$seed" --budget "$BUDGET" --format json \
		-o "$TMP/$name-$seed.json" "$@" 2>/dev/null || true
}

# summary NAME LABEL: verdicts, and the median time per round and to the end.
summary() {
	python3 - "$TMP" "$1" "$2" <<'PY'
import glob, json, statistics, sys
tmp, name, label = sys.argv[1:4]
v = {}
per_round, wall, changes, sampled = [], [], [], 0
for p in glob.glob(f"{tmp}/{name}-*.json"):
    try:
        a = json.load(open(p))["audits"][0]
    except Exception:
        v["failed"] = v.get("failed", 0) + 1
        continue
    v[a["verdict"]] = v.get(a["verdict"], 0) + 1
    if a.get("rounds"):
        per_round.append(a["wall_s"] / a["rounds"] * 1e3)
        wall.append(a["wall_s"])
    if a["verdict"] in ("slower", "faster"):
        changes.append(a["change"])
    sampled += a.get("code_layout", {}).get("sampled", False)
n = sum(v.values())
false = v.get("faster", 0) + v.get("slower", 0)
print(f"{label:34s} {n:4d} audits: faster {v.get('faster', 0)}, slower {v.get('slower', 0)}, "
      f"equivalent {v.get('equivalent', 0)}, inconclusive {v.get('inconclusive', 0)}"
      + (f", failed {v['failed']}" if v.get("failed") else "")
      + f"; layouts sampled in {sampled}")
if changes:
    print(f"{'':34s} changes found: " + ", ".join(f"{c:+.1f} %" for c in sorted(changes)[:12])
          + (" ..." if len(changes) > 12 else ""))
if per_round:
    print(f"{'':34s} median {statistics.median(per_round):.3f} ms a round, "
          f"{statistics.median(wall):.3g} s to the end")
PY
}

i=$FIRST
while [ "$i" -lt $((FIRST + N)) ]; do
	audit aa_sampled "$i" "$TMP/copy_a.so" "$TMP/copy_b.so"
	audit aa_fixed "$i" --fixed-layout "$TMP/copy_a.so" "$TMP/copy_b.so"
	if [ "$i" -lt $((FIRST + S)) ]; then
		for s in 16 32 48; do
			audit "shift${s}_sampled" "$i" "$L/shift0.so" "$L/shift$s.so"
			audit "shift${s}_fixed" "$i" --fixed-layout "$L/shift0.so" "$L/shift$s.so"
		done
		audit plus8_sampled "$i" "$L/shift0.so" "$L/jumps13.so"
		audit cost_sampled "$i" "$TMP/chains.so" --a chain_1000 --b chain_1010
		audit cost_fixed "$i" --fixed-layout "$TMP/chains.so" --a chain_1000 --b chain_1010
	fi
	i=$((i + 1))
done

summary aa_sampled "A/A, layouts sampled"
summary aa_fixed "A/A, --fixed-layout"
for s in 16 32 48; do
	summary "shift${s}_sampled" "shifted by $s, layouts sampled"
	summary "shift${s}_fixed" "shifted by $s, --fixed-layout"
done
summary plus8_sampled "one jump more (+8 %), sampled"
summary cost_sampled "chain +1 %, layouts sampled"
summary cost_fixed "chain +1 %, --fixed-layout"
