#!/bin/sh
# How well does `cbenchctl audit` decide here?  Prints, from one run on this
# machine, with the default confidence (0.99), min-effect (0.2 %) and budget
# (30 s):
#   - A/A audits of the add chain against a copy of itself
#     (examples/audit.c: chain_1000 vs chain_1000_again): how many of N say
#     faster or slower (false verdicts), equivalent or inconclusive;
#   - audits of a true 1 % slowdown (chain_1010 vs chain_1000: 1010 against
#     1000 dependent adds per rep, both declaring 1000 ops): how many of N
#     find B slower (the right sign), faster, or nothing, and the median
#     time to a verdict, the audit's own (measuring) and the command's
#     (loading, tuning both sides, measuring).
# Not a test: nothing here passes or fails on a number.  Run by
# `make bench-audit`.
set -eu

. bench/lib.sh

N=${N:-20}
AUDIT=build/examples/audit.so
echo "audit: $N A/A audits and $N of a 1% slowdown, CPU $CPU, default confidence, min-effect and budget" >&2

# The two kinds alternate, so a noisy stretch of the machine hits both.
i=0
while [ "$i" -lt "$N" ]; do
	for kind in aa slow; do
		b=chain_1000_again
		[ "$kind" = slow ] && b=chain_1010
		t0=$(date +%s.%N)
		"$CB" audit --cpu "$CPU" --format json -o "$TMP/$kind$i.json" "$AUDIT" --a chain_1000 --b "$b" \
			2>/dev/null || echo "audit $kind $i failed" >&2
		t1=$(date +%s.%N)
		echo "$t0 $t1" >"$TMP/$kind$i.time"
	done
	i=$((i + 1))
done

python3 - "$TMP" "$N" <<'PY'
import json, statistics, sys

tmp, n = sys.argv[1], int(sys.argv[2])

def load(kind):
    out = []
    for i in range(n):
        try:
            a = json.load(open(f"{tmp}/{kind}{i}.json"))["audits"][0]
        except (OSError, ValueError, KeyError, IndexError):
            a = {"verdict": "failed", "wall_s": float("nan"), "change": float("nan")}
        t0, t1 = map(float, open(f"{tmp}/{kind}{i}.time").read().split())
        a["command_s"] = t1 - t0
        out.append(a)
    return out

def count(audits, verdict):
    return sum(a["verdict"] == verdict for a in audits)

aa, slow = load("aa"), load("slow")
print(f"audit, A/A (chain_1000 vs chain_1000_again), {n} audits: "
      f"{count(aa, 'faster') + count(aa, 'slower')} false verdicts (faster or slower), "
      f"{count(aa, 'equivalent')} equivalent, {count(aa, 'inconclusive')} inconclusive, "
      f"{count(aa, 'failed')} failed; median wall {statistics.median(a['wall_s'] for a in aa):.2f} s")
decided = [a for a in slow if a["verdict"] in ("faster", "slower")]
print(f"audit, a true 1% slowdown (chain_1010 vs chain_1000), {n} audits: "
      f"B slower in {count(slow, 'slower')}, faster in {count(slow, 'faster')}, "
      f"equivalent in {count(slow, 'equivalent')}, inconclusive in {count(slow, 'inconclusive')}, "
      f"failed {count(slow, 'failed')}")
if decided:
    print(f"  time to a verdict, median: {statistics.median(a['wall_s'] for a in decided):.2f} s measuring, "
          f"{statistics.median(a['command_s'] for a in decided):.2f} s for the command; "
          f"changes found {min(a['change'] for a in decided):+.2f}% to {max(a['change'] for a in decided):+.2f}%, "
          f"rounds {min(a['rounds'] for a in decided)} to {max(a['rounds'] for a in decided)}")
PY
