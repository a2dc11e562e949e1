#!/bin/sh
# Loop timing points here (seed 001, figure 8): for the long-loop benchmark
# (examples/long_loop.c, a rep of 16896 marked iterations with a timing
# point per record, about a millisecond), the time an audit takes to its
# verdict with timing points (per-iteration timings, the default) and
# without (--no-tpoints: whole measurements, one per rep), on
#   - a true 1 % slowdown (101 against 100 dependent adds per iteration),
#     where the verdict must be "B slower";
#   - A/A (the same loop twice), where any "faster" or "slower" is false.
# AUDITS audits of each, seeds 1..AUDITS, default budget and confidence.
# Time to a verdict is the audit's own wall time from its first round (the
# JSON's wall_s), so tuning, which both pay alike, is left out.
# Not a test: nothing here passes or fails on a number.  Run by `make bench`.
set -eu

. bench/lib.sh

AUDITS=${AUDITS:-10}
LOOP=build/examples/long_loop.so

echo "timing points: $AUDITS audits each of long_loop, on CPU $CPU of $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')" >&2
i=1
while [ "$i" -le "$AUDITS" ]; do
	for b in long_loop_slower long_loop_again; do
		"$CB" audit --cpu "$CPU" --seed "$i" --format json -o "$TMP/tp-$b-$i.json" \
			"$LOOP" --a long_loop --b "$b" 2>/dev/null || true
		"$CB" audit --cpu "$CPU" --seed "$i" --format json --no-tpoints \
			-o "$TMP/whole-$b-$i.json" "$LOOP" --a long_loop --b "$b" 2>/dev/null || true
	done
	i=$((i + 1))
done

python3 - "$TMP" "$AUDITS" <<'PY'
import json, statistics, sys

tmp, n = sys.argv[1], int(sys.argv[2])

def audits(kind, b):
    out = []
    for i in range(1, n + 1):
        try:
            out.append(json.load(open(f"{tmp}/{kind}-{b}-{i}.json"))["audits"][0])
        except (OSError, ValueError):
            out.append({"verdict": "failed", "wall_s": float("nan"), "rounds": 0,
                        "timings_a": 0, "timings_b": 0})
    return out

def line(label, a, want):
    walls = [x["wall_s"] for x in a]
    right = sum(x["verdict"] == want for x in a)
    wrong = sum(x["verdict"] in ("faster", "slower") and x["verdict"] != want for x in a)
    timings = statistics.median(x["timings_a"] + x["timings_b"] for x in a)
    rounds = statistics.median(x["rounds"] for x in a)
    print(f"  {label:<22} {right:>2}/{len(a)} {want:<10} {wrong:>2} false   "
          f"median {statistics.median(walls) * 1e3:9.1f} ms (max {max(walls) * 1e3:9.1f}), "
          f"{rounds:.0f} rounds, {timings:.0f} timings")
    return statistics.median(walls)

print("time to a verdict, long_loop (1 rep = 16896 iterations):")
for b, want, what in (("long_loop_slower", "slower", "B 1 % slower"),
                      ("long_loop_again", "equivalent", "A/A")):
    print(f" {what}:")
    tp = line("with timing points", audits("tp", b), want)
    whole = line("without (--no-tpoints)", audits("whole", b), want)
    print(f"  without / with: {whole / tp:.0f}x")
tp = audits("tp", "long_loop_slower")
s = tp[0]["tpoints"]["a"]
print(f"timing points: stride {s['every']}, MIN_TIMING {s['min_timing_ns']:.1f} ns, "
      f"perturb score {statistics.median(x['tpoints']['a']['perturb_score'] for x in tp):.3f} (median of A's)")
PY
