#!/bin/sh
# Integration tests of `cbenchctl audit` on the user backend: an A/A audit
# that must not find a difference, a true 1 % slowdown that must be found
# with its sign, the report formats, the two-object form, placements drawn
# anew every round, and bad input.
# Nothing here asserts speed: the budgets are generous upper bounds, and an
# audit that runs out of them is inconclusive, which fails these checks
# only where a verdict is required.
#
# Usage: tests/run/audit.sh   (from the top of the tree, after make itest's deps)
set -u

. tests/run/lib.sh

AUDIT=build/examples/audit.so
OUTPUT_GLOB='report* .report*'

# ---- verdicts ---------------------------------------------------------------

# A/A: two copies of one kernel.  At confidence 0.9999 the confidence
# sequence calls a false "faster" or "slower" with probability about 1e-4
# over the whole audit, however many rounds it looks at, so this test fails
# by chance about once in ten thousand runs.
run_cb audit "$AUDIT" --a chain_1000 --b chain_1000_again --confidence 0.9999 --budget 20
if [ "$rc" -eq 0 ] && grep -q '^chain_1000 vs chain_1000_again: ' "$TMP/out" &&
   ! grep -Eq 'faster|slower' "$TMP/out"; then
	ok "A/A audit: no false verdict ($(sed -n 's/^chain_1000 vs chain_1000_again: //p' "$TMP/out"))"
else
	not_ok "A/A audit"
fi

# 1010 against 1000 dependent adds, both declaring 1000 ops: B is 1 % slower.
run_cb audit "$AUDIT" --a chain_1000 --b chain_1010 --budget 30
if [ "$rc" -eq 0 ] && grep -q '^chain_1000 vs chain_1010: B slower by ' "$TMP/out" &&
   grep -Eq 'timings [0-9]+ A / [0-9]+ B, rounds [0-9]+' "$TMP/out" &&
   grep -Eq "^    interval ±[0-9.e+-]+ %: ±[0-9.e+-]+ % from the rounds' spread, ±[0-9.e+-]+ % for the timer's step" "$TMP/out"; then
	ok "1 % slowdown: $(sed -n 's/^chain_1000 vs chain_1010: //p' "$TMP/out")"
else
	not_ok "1 % slowdown found as B slower"
fi

# ---- reports ----------------------------------------------------------------

run_cb audit "$AUDIT" --a chain_1000 --b chain_1010 --budget 30 --seed 12345 --format json \
	-o "$TMP/report.json"
if [ "$rc" -eq 0 ] && python3 - "$TMP/report.json" <<'PY'
import json, sys
def once(pairs):
    keys = [k for k, _ in pairs]
    assert len(keys) == len(set(keys)), "a member twice: %s" % keys
    return dict(pairs)
r = json.load(open(sys.argv[1]), object_pairs_hook=once)
c = r["config"]
assert c["seed"] == 12345, c
for k in ("confidence", "budget", "min_effect", "backend", "timer", "cpu", "machine", "cbench_version"):
    assert k in c, k
a = r["audits"][0]
for k in ("name", "id", "verdict", "change", "lower", "upper", "rounds", "timings_a",
          "timings_b", "wall_s", "converge_a", "converge_b", "placement"):
    assert k in a, k
assert a["verdict"] == "slower" and a["lower"] > 0, a
assert a["timings_a"] > 0 and a["timings_b"] > 0 and a["rounds"] >= 8, a
# The interval carries the timer's step (a bound on each side's quartile)
# beside the rounds' spread: never narrower than twice that bound.
assert a["step_bound_pct"] > 0 and a["upper"] - a["lower"] >= 1.99 * a["step_bound_pct"], a
PY
then
	ok "JSON report parses, with the seed and every field"
else
	not_ok "JSON report"
fi
if grep -q 'seed 12345' "$TMP/err"; then
	ok "--seed is printed"
else
	not_ok "--seed is printed"
fi

cp "$AUDIT" "$TMP/a.so"
cp "$AUDIT" "$TMP/b.so"
run_cb audit "$TMP/a.so" "$TMP/b.so" --filter '^chain_1000$' --budget 20 --format go
if [ "$rc" -eq 0 ] && grep -q '^seed\|^# seed: ' "$TMP/out" &&
   [ "$(grep -c '^build: ' "$TMP/out")" -eq 2 ] &&
   [ "$(sed -n '/^build: A/,/^build: B/p' "$TMP/out" | grep -c '^BenchmarkChain1000 ')" -ge 8 ] &&
   [ "$(sed -n '/^build: B/,$p' "$TMP/out" | grep -c '^BenchmarkChain1000 ')" -ge 8 ] &&
   ! grep -q 'Chain1010\|Again' "$TMP/out" && grep -q '^chain_1000: ' "$TMP/err"; then
	ok "two objects with --filter, Go format with build: A and build: B"
else
	not_ok "two objects with --filter, Go format"
fi

# A budget too short for a verdict: inconclusive, which is not a failure.
run_cb audit "$AUDIT" --a chain_1000 --b chain_1010 --budget 0.001
if [ "$rc" -eq 0 ] && grep -q '^chain_1000 vs chain_1010: inconclusive after 0.001 s' "$TMP/out"; then
	ok "a spent budget is inconclusive, exit status 0"
else
	not_ok "a spent budget is inconclusive, exit status 0"
fi

# The same under a gate: it could not judge, so it does not pass (exit 4),
# unless the user lets undecided audits pass.
run_cb audit "$AUDIT" --a chain_1000 --b chain_1010 --budget 0.001 --fail-on slower
if [ "$rc" -eq 4 ] && grep -q 'UNDECIDED' "$TMP/err" && grep -q -- '--undecided pass' "$TMP/err"; then
	ok "an inconclusive audit under --fail-on is undecided, exit status 4"
else
	not_ok "an inconclusive audit under --fail-on is undecided, exit status 4 (got $rc)"
fi
run_cb audit "$AUDIT" --a chain_1000 --b chain_1010 --budget 0.001 --fail-on slower --undecided pass
if [ "$rc" -eq 0 ] && grep -q 'gate (--fail-on slower): passed' "$TMP/err"; then
	ok "--undecided pass lets an inconclusive audit pass the gate"
else
	not_ok "--undecided pass lets an inconclusive audit pass the gate (got $rc)"
fi

# A benchmark that crashes fails its audit, and the exit status says so.
run_cb audit build/tests/fixtures/crash.so --a good --b segfault --budget 5
if [ "$rc" -eq 1 ] && grep -q '^good vs segfault: failed: .*SIGSEGV' "$TMP/out" &&
   grep -q '1 audit failed' "$TMP/err"; then
	ok "a crashing benchmark fails its audit, exit status 1"
else
	not_ok "a crashing benchmark fails its audit"
fi

# ---- placements ---------------------------------------------------------------

# tests/fixtures/placed.c logs "side process address" at every setup(): the
# audit's worker is the process with the most lines of a side.  Each round
# places both sides anew (and the pilot twice before the first), at
# 64-byte offsets in their pages; --fixed-placement leaves them where
# prepare() put them.  The rounds' count is whatever the audit took, at
# least 8 (nothing decides before), and the report counts as many.
PLACED=build/tests/fixtures/placed.so
placed_audit() {
	rm -f "$TMP/placed.log"
	CBENCH_PLACED_LOG=$TMP/placed.log run_cb audit "$PLACED" --a placed/side=1 --b placed/side=2 \
		--budget 5 --seed 11 --format json -o "$TMP/report.json" "$@"
}
placed_audit
if [ "$rc" -eq 0 ] && grep -Eq '^    placements [0-9]+ A / [0-9]+ B, new for each side every round' \
	"$TMP/err" && python3 - "$TMP/placed.log" "$TMP/report.json" <<'PY'
import collections, json, sys
lines = [l.split() for l in open(sys.argv[1])]
a = json.load(open(sys.argv[2]))["audits"][0]
p = a["placement"]
assert p["redrawn"] and p["a"] == p["b"] and p["a"] >= 8 and p["per_round"] >= 100, p
assert p["a"] >= a["rounds"], (p, a["rounds"])
by = collections.Counter((side, pid) for side, pid, _ in lines)
for side in ("1", "2"):
    pid, n = max(((k[1], v) for k, v in by.items() if k[0] == side), key=lambda kv: kv[1])
    addrs = [int(x, 16) for s, q, x in lines if s == side and q == pid]
    # prepare(), two before the first round, one before each later one.
    assert len(addrs) == p["a"] + 2, (side, len(addrs), p)
    assert all(x % 64 == 0 for x in addrs), addrs
    assert len(set(addrs)) >= len(addrs) // 2, addrs
    assert len(set(x % 4096 for x in addrs[1:])) >= 2, addrs
PY
then
	ok "placements: each side placed anew every round, at 64-byte offsets, counted in the report"
else
	not_ok "placements drawn every round"
fi
cp "$TMP/placed.log" "$TMP/placed.first"
placed_audit
if [ "$rc" -eq 0 ] && python3 - "$TMP/placed.first" "$TMP/placed.log" <<'PY'
import collections, sys
# The same seed draws the same offsets, in the same order, as far as the
# shorter audit went (the addresses move with the process's layout): each
# side's offsets in the audit's worker, the process that placed it most
# (tuning's workers, two or three, set it up once each).
def offsets(path):
    by = collections.defaultdict(list)
    for side, pid, addr in (l.split() for l in open(path)):
        by[(side, pid)].append(int(addr, 16) % 4096)
    return {side: max((v for k, v in by.items() if k[0] == side), key=len) for side in ("1", "2")}
first, again = offsets(sys.argv[1]), offsets(sys.argv[2])
for side in ("1", "2"):
    n = min(len(first[side]), len(again[side]))
    # Ten offsets of 64 a page each agree by chance once in 10^18.
    assert n >= 10 and first[side][:n] == again[side][:n], (side, first, again)
PY
then
	ok "placements: the same seed draws the same offsets"
else
	not_ok "placements replayed from the seed"
fi
placed_audit --fixed-placement
if [ "$rc" -eq 0 ] && grep -q '^    placement: fixed (--fixed-placement)' "$TMP/err" &&
   python3 - "$TMP/placed.log" "$TMP/report.json" <<'PY'
import collections, json, sys
r = json.load(open(sys.argv[2]))
assert r["config"]["fixed_placement"] is True, r["config"]
p = r["audits"][0]["placement"]
assert not p["redrawn"] and p["a"] == 0 and p["b"] == 0, p
# Each worker set each side up once: tuning's and the audit's alike.
by = collections.Counter((l.split()[0], l.split()[1]) for l in open(sys.argv[1]))
assert set(by.values()) == {1}, by
PY
then
	ok "--fixed-placement: each side set up once, the report says so"
else
	not_ok "--fixed-placement"
fi

# ---- loop timing points ------------------------------------------------------

# examples/long_loop.c: 100 against 101 adds per marked iteration, a timing
# point per record.  With timing points on (the default) the audit compares
# per-iteration timings; --no-tpoints compares whole measurements.
LOOP=build/examples/long_loop.so
run_cb audit "$LOOP" --a long_loop --b long_loop_slower --budget 30 --seed 7 --format json \
	-o "$TMP/report.json"
if [ "$rc" -eq 0 ] && grep -q 'timing points: per-iteration timings' "$TMP/err" && python3 - "$TMP/report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["config"]["tpoints"] is True, r["config"]
a = r["audits"][0]
assert a["verdict"] == "slower" and a["lower"] > 0, a
tp = a["tpoints"]
for side in ("a", "b"):
    s = tp[side]
    assert s["usable"] and s["every"] >= 1 and s["timings"] > 0, s
    # Each side's timings are the split per-iteration ones.
    assert s["iterations"] > s["timings"], s
assert tp["a"]["every"] == tp["b"]["every"], tp
assert a["timings_a"] == tp["a"]["iterations"] and a["timings_b"] == tp["b"]["iterations"], a
# One step of a merged timing, at each side's quartile: in the interval too.
assert a["step_bound_pct"] > 0 and a["upper"] - a["lower"] >= 1.99 * a["step_bound_pct"], a
PY
then
	ok "timing points: the audit compares per-iteration timings and finds B slower"
else
	not_ok "timing points in an audit"
fi

run_cb audit "$LOOP" --a long_loop --b long_loop_slower --budget 30 --seed 7 --format go
if [ "$rc" -eq 0 ] && [ "$(grep -c '^BenchmarkLongLoop 1 [0-9.]* ns/iter$' "$TMP/out")" -ge 16 ] &&
   ! grep -q 'ns/op' "$TMP/out"; then
	ok "timing points: Go lines per round in ns/iter, both builds"
else
	not_ok "timing points: Go lines of an audit"
fi

run_cb audit "$LOOP" --a long_loop --b long_loop_slower --budget 30 --seed 7 --no-tpoints
if [ "$rc" -eq 0 ] && grep -q '^long_loop vs long_loop_slower: ' "$TMP/out" &&
   ! grep -q 'timing points' "$TMP/out"; then
	ok "--no-tpoints: whole measurements ($(sed -n 's/^long_loop vs long_loop_slower: //p' "$TMP/out"))"
else
	not_ok "--no-tpoints"
fi

# A 64-bit seed survives JSON: written as a string beyond 2^53 (a double
# would round it), read back exactly by plot, whose page shows its digits.
run_cb audit "$PLACED" --a placed/side=1 --b placed/side=2 --budget 5 --seed 14568070218695270837 \
	--format json -o "$TMP/seed.json"
if [ "$rc" -eq 0 ] && python3 -c 'import json, sys
c = json.load(open(sys.argv[1]))["config"]
assert c["seed"] == "14568070218695270837", c["seed"]' "$TMP/seed.json" &&
   "$CB" plot -o "$TMP/seed.html" "$TMP/seed.json" 2>"$TMP/err" &&
   grep -q 'seed 14568070218695270837<' "$TMP/seed.html"; then
	ok "a 64-bit seed: exact in JSON (a string beyond 2^53) and in plot's page"
else
	not_ok "a 64-bit seed through JSON and plot (exit $rc)"
fi

# -o FILE.json writes JSON without --format.
run_cb audit "$PLACED" --a placed/side=1 --b placed/side=2 --budget 5 --seed 11 -o "$TMP/named.json"
if [ "$rc" -eq 0 ] && python3 -c 'import json, sys; json.load(open(sys.argv[1]))["audits"]' "$TMP/named.json"; then
	ok "-o FILE.json: a JSON report"
else
	not_ok "-o FILE.json (exit $rc)"
fi

# The gate: --fail-on slower exits 3 on that 1 % slowdown, naming it on
# stderr; 0 with a --min-effect above it, and on an A/A audit.
run_cb audit "$LOOP" --a long_loop --b long_loop_slower --budget 30 --seed 7 --no-tpoints --fail-on slower
g1=$rc
grep -q '^gate (--fail-on slower): FAILED: 1 of 1 audit slower by 0.2 % or more$' "$TMP/err" || g1=x
run_cb audit "$LOOP" --a long_loop --b long_loop_slower --budget 30 --seed 7 --no-tpoints --fail-on slower --min-effect 5
g2=$rc
grep -q '^gate (--fail-on slower): passed: 0 of 1 audit slower by 5 % or more' "$TMP/err" || g2=x
# (An A/A audit may end inconclusive within 5 s on a busy host: not judged,
# which --undecided pass lets through; a false "changed" would still fail.)
run_cb audit "$PLACED" --a placed/side=1 --b placed/side=2 --budget 5 --seed 11 --fail-on changed \
	--undecided pass
g3=$rc
if [ "$g1/$g2/$g3" = 3/0/0 ]; then
	ok "--fail-on: 3 on a 1 % slowdown, 0 with --min-effect 5 and on A/A"
else
	not_ok "--fail-on: statuses $g1/$g2/$g3, not 3/0/0"
fi
expect_failure "--fail-on with a bad value" "--fail-on wants slower or changed, not 'worse'" \
	audit "$PLACED" --a placed/side=1 --b placed/side=2 --fail-on worse

# Timing points on one side only, or too close together to time: the audit
# compares whole measurements and says why, in every format.
TPFIX=build/tests/fixtures/tpoints.so
run_cb audit "$TPFIX" --a tp_known --b plain --budget 5 --seed 3
if [ "$rc" -le 1 ] && grep -q '^    timing points unused: B has none; whole measurements compared$' "$TMP/out"; then
	ok "timing points on one side only: the audit says it compared whole measurements"
else
	not_ok "timing points on one side only: exit status $rc"
fi
run_cb audit "$TPFIX" --a tp_close --b tp_sparse --budget 5 --seed 3 --format json
if [ "$rc" -le 1 ] && grep -q '"tpoints_note": *"timing points unused: at the stride both sides need ([0-9]*), a call of B records fewer than two' "$TMP/out"; then
	ok "timing points too close together: the JSON says why they went unused"
else
	not_ok "timing points too close together: exit status $rc"
fi
run_cb audit "$AUDIT" --a chain_1000 --b chain_1010 --budget 5 --seed 3 --format go
if [ "$rc" -le 1 ] && ! grep -q 'timing points unused' "$TMP/out"; then
	ok "no timing points on either side: nothing to say about them"
else
	not_ok "no timing points on either side: exit status $rc"
fi

# ---- bad input --------------------------------------------------------------

expect_failure "no such benchmark for --a" "unable to audit: no benchmark 'nothing'" \
	audit "$AUDIT" --a nothing --b chain_1000 -o "$TMP/report.txt"
expect_failure "a benchmark in only one object" "no benchmark is in both" \
	audit "$AUDIT" build/examples/suite.so --filter chain_1000 -o "$TMP/report.txt"
expect_failure "--confidence 2" "--confidence wants a probability" \
	audit "$AUDIT" --a chain_1000 --b chain_1010 --confidence 2 -o "$TMP/report.txt"
expect_failure "--budget 0" "--budget wants a positive number" \
	audit "$AUDIT" --a chain_1000 --b chain_1010 --budget 0 -o "$TMP/report.txt"
# The kmod audit itself is tested in the VM (tests/vm/kmod.sh).
if [ ! -d /sys/module/cbench ]; then
	expect_failure "--backend kmod without cbench.ko" "unable to use the kmod backend" \
		audit "$AUDIT" --a chain_1000 --b chain_1010 --backend kmod -o "$TMP/report.txt"
fi
expect_failure "--backend fast" "--backend must be user, kmod or auto" \
	audit "$AUDIT" --a chain_1000 --b chain_1010 --backend fast -o "$TMP/report.txt"
expect_failure "--a without --b" "one object with --a and --b" \
	audit "$AUDIT" --a chain_1000 -o "$TMP/report.txt"
expect_failure "an unwritable -o" "unable to write $TMP/none/report.txt" \
	audit "$AUDIT" --a chain_1000 --b chain_1010 -o "$TMP/none/report.txt"
expect_failure "--undecided maybe" "--undecided wants pass or fail, not 'maybe'" \
	audit "$AUDIT" --a chain_1000 --b chain_1010 --undecided maybe

run_cb audit --help
if [ "$rc" -eq 0 ] && grep -q 'inconclusive audit is not a failure' "$TMP/out"; then
	ok "--help says inconclusive is not a failure"
else
	not_ok "--help"
fi

finish
