#!/bin/sh
# How well does `cbenchctl audit` decide here?  Prints, from one run on this
# machine, with the default confidence (0.99), min-effect (0.2 %) and budget
# (30 s), for each case N audits:
#   - A/A cases, a benchmark audited against itself or a copy of itself: how
#     many of N say faster or slower (false verdicts; at 99 % at most 1 %
#     should), how many of those claim a change larger than their interval
#     is wide (a false verdict that looks sure of itself), equivalent or
#     inconclusive:
#       chain_aa    the add chain against a copy (examples/audit.c:
#                   chain_1000 vs chain_1000_again), compute-bound;
#       memcpy_aa   glibc's memcpy of 4096 bytes within the arena
#                   (examples/placement.c: libc_memcpy/size=4096);
#       chase_aa    a pointer chase over 256 KiB, past L1 (chase_l2);
#       stream_aa   8-byte stores over 64 KiB (store_stream);
#   - true slowdowns: how many of N find B slower (the right sign), faster,
#     or nothing, with the changes found:
#       chain_slow  1 %: chain_1010 vs chain_1000, both declaring 1000 ops;
#       chase_slow  2 %: chase_l2_slow vs chase_l2, 1020 steps against 1000,
#                   both declaring 1000 ops;
#       tiny_slow   0.02 % at --min-effect 0.01: chain_5001 vs chain_5000,
#                   a change of the order of one timer step on some hosts;
#   - for each case how many intervals have zero width (none should: each
#     carries the timer's step), the median of the step's part of the
#     interval, and where the true change is known (the A/A cases' 0 and the
#     chains' 1 % and 0.02 %), how many intervals cover it (at 99 %, 99 of
#     100 should);
#   - for each case how often the gate (--fail-on slower, which every audit
#     here is given) failed: exit status 3 (B slower), 0 or other;
#   - for each case the median time to a verdict, the audit's own
#     (measuring) and the command's (loading, tuning both sides, measuring),
#     and the placements each side got with the share of the round
#     statistic's variance they explain (docs/placement.md).
# Cases not run unless CASES names them (objects the placement work was not
# tuned on, and code placement):
#       suite_chase_aa  examples/suite.c's pointer_chase/size=1048576 (a 16 MiB
#                   arena: placements that cost more than a round's measuring);
#       suite_copy_aa   examples/suite.c's copy/size=4096 (8-byte words);
#       objects_aa  chase_l2 of two copies of placement.so, each loaded at
#                   its own address: what code placement does;
#       tiny_aa     chain_5000 against itself at --min-effect 0.01.
#       tiny_slow_laid  tiny_slow on examples/audit.c built with
#                   -ffunction-sections -Wl,-q: each side's code laid out
#                   anew every round (docs/placement.md), so where the two
#                   chains happen to lie is variance, not a change.
# The cases take turns, so a noisy stretch of the machine hits all of them.
# N (default 20) sets the audits per case, CASES (default the first seven)
# which cases run, BUDGET (default 30) each audit's seconds, METRIC (default
# the audit's: est-cycles where the backend measures the reference) what the
# rounds compare; KEEP=DIR keeps each audit's JSON report there.  Not a test: nothing here passes or fails on a number.
# Run by `make bench-audit`.
set -eu

. bench/lib.sh

N=${N:-20}
CASES=${CASES:-chain_aa chain_slow memcpy_aa chase_aa stream_aa chase_slow tiny_slow}
AUDIT=build/examples/audit.so
PLACE=build/examples/placement.so
SUITE=build/examples/suite.so

# The audit's arguments for a case.
args() {
	case $1 in
	chain_aa) echo "$AUDIT --a chain_1000 --b chain_1000_again" ;;
	chain_slow) echo "$AUDIT --a chain_1000 --b chain_1010" ;;
	memcpy_aa) echo "$PLACE --a libc_memcpy/size=4096 --b libc_memcpy/size=4096" ;;
	chase_aa) echo "$PLACE --a chase_l2 --b chase_l2" ;;
	stream_aa) echo "$PLACE --a store_stream --b store_stream" ;;
	chase_slow) echo "$PLACE --a chase_l2 --b chase_l2_slow" ;;
	suite_chase_aa) echo "$SUITE --a pointer_chase/size=1048576 --b pointer_chase/size=1048576" ;;
	suite_copy_aa) echo "$SUITE --a copy/size=4096 --b copy/size=4096" ;;
	objects_aa) echo "$TMP/place_a.so $TMP/place_b.so --filter ^chase_l2\$" ;;
	tiny_slow) echo "$AUDIT --a chain_5000 --b chain_5001 --min-effect 0.01" ;;
	tiny_aa) echo "$AUDIT --a chain_5000 --b chain_5000 --min-effect 0.01" ;;
	tiny_slow_laid) echo "$TMP/audit_laid.so --a chain_5000 --b chain_5001 --min-effect 0.01" ;;
	*) echo "bench/audit.sh: no case '$1' (known: chain_aa chain_slow memcpy_aa chase_aa" \
		"stream_aa chase_slow tiny_slow suite_chase_aa suite_copy_aa objects_aa tiny_aa" \
		"tiny_slow_laid)" >&2
		exit 1 ;;
	esac
}
for c in $CASES; do
	args "$c" >/dev/null
done
${CC:-gcc} -O2 -g -fPIC -shared -Iinclude -ffunction-sections -Wl,-q -o "$TMP/audit_laid.so" \
	examples/audit.c
cp "$PLACE" "$TMP/place_a.so"
cp "$PLACE" "$TMP/place_b.so"
echo "audit: $N audits of each of $CASES; CPU $CPU, default confidence, min-effect (tiny_*: 0.01 %) and budget" >&2

i=0
while [ "$i" -lt "$N" ]; do
	for c in $CASES; do
		t0=$(date +%s.%N)
		# shellcheck disable=SC2046
		st=0
		"$CB" audit --cpu "$CPU" --fail-on slower --format json -o "$TMP/$c.$i.json" \
			--budget "${BUDGET:-30}" ${METRIC:+--metric "$METRIC"} $(args "$c") 2>/dev/null || st=$?
		[ "$st" -eq 0 ] || [ "$st" -eq 3 ] || [ "$st" -eq 4 ] || echo "audit $c $i failed" >&2
		t1=$(date +%s.%N)
		echo "$t0 $t1 $st" >"$TMP/$c.$i.time"
	done
	i=$((i + 1))
done

if [ -n "${KEEP:-}" ]; then
	mkdir -p "$KEEP"
	cp "$TMP"/*.json "$TMP"/*.time "$KEEP"/
fi

python3 - "$TMP" "$N" $CASES <<'PY'
import json, math, statistics, sys

tmp, n, cases = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
label = {
    "chain_aa": "A/A, add chain (chain_1000 vs chain_1000_again)",
    "chain_slow": "a true 1% slowdown (chain_1010 vs chain_1000)",
    "memcpy_aa": "A/A, glibc memcpy of 4096 bytes (libc_memcpy/size=4096)",
    "chase_aa": "A/A, pointer chase over 256 KiB (chase_l2)",
    "stream_aa": "A/A, store stream over 64 KiB (store_stream)",
    "chase_slow": "a true 2% slowdown (chase_l2_slow vs chase_l2)",
    "suite_chase_aa": "A/A, suite.so's pointer chase over 1 MiB (pointer_chase/size=1048576)",
    "suite_copy_aa": "A/A, suite.so's copy of 4096 bytes (copy/size=4096)",
    "objects_aa": "A/A, chase_l2 of two copies of placement.so (code placed apart)",
    "tiny_slow": "a true 0.02% slowdown at --min-effect 0.01 (chain_5001 vs chain_5000)",
    "tiny_aa": "A/A at --min-effect 0.01, add chain (chain_5000)",
    "tiny_slow_laid": "a true 0.02% slowdown at --min-effect 0.01, code layouts sampled (-Wl,-q)",
}
# The true change where it is known, in percent: the chains' adds per rep.
truth = {"chain_slow": 1.0, "tiny_slow": 0.02, "tiny_slow_laid": 0.02}
truth.update({c: 0.0 for c in label if c.endswith("_aa")})

def load(case):
    out = []
    for i in range(n):
        try:
            a = json.load(open(f"{tmp}/{case}.{i}.json"))["audits"][0]
        except (OSError, ValueError, KeyError, IndexError):
            a = {"verdict": "failed"}
        t0, t1, st = open(f"{tmp}/{case}.{i}.time").read().split()
        a["command_s"] = float(t1) - float(t0)
        a["status"] = int(st)
        out.append(a)
    return out

def ok_intervals(audits):
    """The audits that ended with an interval (two rounds or more)."""
    return [a for a in audits if a["verdict"] != "failed" and a.get("lower") is not None
            and a.get("upper") is not None]

def median(v):
    v = [x for x in v if x is not None and not math.isnan(x)]
    return statistics.median(v) if v else float("nan")

for case in cases:
    audits = load(case)
    count = {v: sum(a["verdict"] == v for a in audits)
             for v in ("faster", "slower", "equivalent", "inconclusive", "failed")}
    decided = [a for a in audits if a["verdict"] in ("faster", "slower")]
    print(f"audit, {label[case]}, {n} audits:")
    if case.endswith("_aa"):
        # A false verdict that claims more than its interval is wide.
        sure = sum(a["upper"] - a["lower"] < abs(a["change"]) for a in decided)
        print(f"  {len(decided)} false verdicts (faster or slower), {sure} of them with an "
              f"interval narrower than the change claimed; {count['equivalent']} equivalent, "
              f"{count['inconclusive']} inconclusive, {count['failed']} failed")
        for a in decided:
            print(f"    false: B {a['change']:+.2f}% [{a['lower']:+.2f}%, {a['upper']:+.2f}%] "
                  f"after {a['rounds']} rounds, {a['wall_s']:.2f} s")
    else:
        print(f"  B slower in {count['slower']}, faster in {count['faster']}, equivalent in "
              f"{count['equivalent']}, inconclusive in {count['inconclusive']}, failed "
              f"{count['failed']}")
        if decided:
            print(f"  changes found {min(a['change'] for a in decided):+.2f}% to "
                  f"{max(a['change'] for a in decided):+.2f}% (median "
                  f"{median(a['change'] for a in decided):+.2f}%), rounds "
                  f"{min(a['rounds'] for a in decided)} to {max(a['rounds'] for a in decided)}")
    shown = [a for a in ok_intervals(audits)]
    if shown:
        zero = sum(a["upper"] - a["lower"] <= 0 for a in shown)
        line = (f"  intervals: {zero} of {len(shown)} of zero width; the timer step's part, "
                f"median: ±{median(a.get('step_bound_pct') for a in shown):.3g}%")
        if case in truth:
            covered = sum(a["lower"] <= truth[case] <= a["upper"] for a in shown)
            line += f"; {covered} of {len(shown)} cover the true {truth[case]:+g}%"
        print(line)
    gate = {st: sum(a["status"] == st for a in audits) for st in (0, 3, 4)}
    print(f"  the gate (--fail-on slower): exit status 3 in {gate[3]} of {n}, 0 in {gate[0]}, "
          f"4 (undecided) in {gate[4]}, other {n - gate[0] - gate[3] - gate[4]}")
    ok = [a for a in audits if a["verdict"] != "failed"]
    if decided:
        print(f"  time to a verdict, median: {median(a['wall_s'] for a in decided):.2f} s "
              f"measuring, {median(a['command_s'] for a in decided):.2f} s for the command")
    if ok:
        print(f"  every audit, median: {median(a['wall_s'] for a in ok):.2f} s measuring, "
              f"{median(a['rounds'] for a in ok):.0f} rounds")
    placed = [a["placement"] for a in ok if "placement" in a]
    if placed:
        print(f"  placements per side, median: A {median(p['a'] for p in placed):.0f}, "
              f"B {median(p['b'] for p in placed):.0f}; share of the round statistic's "
              f"variance beyond timing noise, median: "
              f"{100 * median(p.get('share') for p in placed):.0f}%")
PY
