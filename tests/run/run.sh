#!/bin/sh
# Integration tests of `cbenchctl run` and `list` on the user backend: the
# run path, the report formats, the tuning cache, and every kind of bad
# input.  Each case checks the exit status, the message, and that no partial
# output file is left behind.  Nothing here asserts speed or precision.
#
# Usage: tests/run/run.sh   (from the top of the tree, after make itest's deps)
set -u

. tests/run/lib.sh

SUITE=build/examples/suite.so
FIX=build/tests/fixtures
# Our own cache, so runs here neither use nor disturb the user's.
export XDG_CACHE_HOME="$TMP/cache"
# Short trials: these tests check behaviour, not numbers.
# --keep-shared: what a run keeps must not hang on whether another thread
# shares the host's core (stats/trials.h; tested in test_report.c).
FAST="--keep-shared --trials 2 --trial-time 0.005 --warmup 0.001"
# A worker stands for several trials (session/phase.h) only where its
# keeper is its PID namespace's init (root, or a user namespace of its
# own): elsewhere each trial has its own.
STANDS=false
if unshare --pid --fork true 2>/dev/null || unshare --user --pid --fork true 2>/dev/null; then
	STANDS=true
fi


# Go format result lines: name rule, an even number of fields (>= 4), numeric
# values; configuration keys lowercase without spaces.
check_go() {
	awk '
	/^Benchmark/ {
		results++
		if ($1 !~ /^Benchmark([A-Z][^ ]*)?$/) { print "bad name: " $0; bad = 1 }
		if (NF < 4 || NF % 2) { print "odd fields: " $0; bad = 1 }
		if ($2 !~ /^[0-9]+$/) { print "bad iterations: " $0; bad = 1 }
		for (i = 3; i <= NF; i += 2)
			if ($i !~ /^[0-9.]+$/ || $i + 0 <= 0) { print "bad value: " $0; bad = 1 }
		if ($4 != "ns/op") { print "first unit not ns/op: " $0; bad = 1 }
		if ($0 ~ / cycles\/op/) { print "cycles/op without a PMU: " $0; bad = 1 }
		next
	}
	/^[^#][^ ]*:/ {
		key = $1; sub(/:$/, "", key)
		if (key !~ /^[a-z][a-z0-9.-]*$/) { print "bad key: " $0; bad = 1 }
	}
	END { if (!results) { print "no result lines"; bad = 1 }; exit bad }' "$1"
}

# ---- the run path -----------------------------------------------------------

run_cb list "$SUITE"
if [ "$rc" -eq 0 ] && grep -q '^add_chain BenchmarkAddChain' "$TMP/out" &&
   grep -q '^copy/size=4096 BenchmarkCopy/size=4096' "$TMP/out"; then
	ok "list names every benchmark and parameter"
else
	not_ok "list"
fi

# list --filter previews run --filter: for each regex (one matching ids only,
# one report names only, parameter values, anchors), list prints exactly the
# benchmarks run's report holds, in the same order.
filter_same=0
for re in 'divide_chain' 'BenchmarkImul' 'algo=djb2/len=(16|256)$' '^branch/|^copy/size=64$'; do
	run_cb list --filter "$re" "$SUITE"
	rc_list=$rc
	awk '{ print $2 }' "$TMP/out" >"$TMP/listed"
	run_cb run $FAST --trials 1 --filter "$re" -o "$TMP/filter.json" "$SUITE"
	python3 -c 'import json, sys
for b in json.load(open(sys.argv[1]))["benchmarks"]: print(b["name"])' "$TMP/filter.json" >"$TMP/ran" 2>/dev/null
	if [ "$rc_list/$rc" = 0/0 ] && [ -s "$TMP/ran" ] && cmp -s "$TMP/listed" "$TMP/ran"; then
		filter_same=$((filter_same + 1))
	else
		diff "$TMP/listed" "$TMP/ran" >"$TMP/err"
		not_ok "list --filter '$re' (exit $rc_list) is not what run --filter '$re' (exit $rc) ran"
	fi
done
[ "$filter_same" -eq 4 ] && ok "list --filter lists exactly what run --filter runs, in its order (4 regexes)"
expect_failure "list --filter matching nothing" "unable to list: no benchmark in $SUITE matches 'nothing_matches'" \
	list --filter nothing_matches "$SUITE"
expect_failure "list --filter, a bad regex" "unable to use --filter '\(': Unmatched" list --filter '(' "$SUITE"
expect_failure "list: an option of run's" "list: --backend is run's, not list's \(list takes --filter only\)" \
	list --backend user "$SUITE"
expect_failure "list: two objects" "list: it wants one benchmark object, not 2" list "$SUITE" "$SUITE"

run_cb list "$FIX/anchored.so"
if [ "$rc" -eq 0 ] && [ "$(sort "$TMP/out" | tr '\n' ' ')" = "first BenchmarkFirst second BenchmarkSecond " ] &&
   nm -D "$FIX/anchored.so" | grep -q __start_cbench_descs && nm -D "$FIX/anchored.so" | grep -q __stop_cbench_descs; then
	ok "list: descriptors found through exported __start_/__stop_cbench_descs"
else
	not_ok "list: exported section bounds"
fi

run_cb run $FAST --filter 'chain|copy/size=4096$' -o "$TMP/report.txt" --samples "$TMP/report.csv" "$SUITE"
if [ "$rc" -ne 0 ]; then
	not_ok "run suite: exit status $rc"
elif ! check_go "$TMP/report.txt" >"$TMP/err" 2>&1; then
	not_ok "run suite: Go format"
elif ! grep -q '^# tuning: tuned' "$TMP/report.txt"; then
	not_ok "run suite: first run did not tune"
elif [ "$(grep -c '^BenchmarkAddChain ' "$TMP/report.txt")" -ne 2 ]; then
	not_ok "run suite: want one result line per trial"
elif ! grep -q '^BenchmarkCopy/size=4096 .* MB/s' "$TMP/report.txt"; then
	not_ok "run suite: no MB/s for a benchmark with bytes_per_rep"
elif ! grep -q ' est-cycles/op' "$TMP/report.txt"; then
	not_ok "run suite: no est-cycles/op"
elif [ "$(grep -Ec '^(backend|timer|cpu|cpu-count|kernel|cbench-version|counters): ' "$TMP/report.txt")" -ne 7 ] ||
     ! grep -q '^backend: user$' "$TMP/report.txt"; then
	not_ok "run suite: configuration lines missing"
elif [ "$(grep -Ec '^# (so|so-build-id|timer-frequency|timer-overhead|timer-precision|timer-accuracy): ' "$TMP/report.txt")" -ne 6 ] ||
     ! grep -Eq '^# so-build-id: [0-9a-f]+$' "$TMP/report.txt"; then
	not_ok "run suite: per-run facts (object, build id, timer calibration) missing"
elif ! head -1 "$TMP/report.csv" | grep -q '^benchmark,trial,measurement,reps,ticks,ns_per_op' ||
     [ "$(grep -c '^BenchmarkAddChain,' "$TMP/report.csv")" -lt 10 ]; then
	not_ok "run suite: samples CSV"
elif [ -n "$(find "$TMP" -maxdepth 1 -name 'report.*.*')" ]; then
	not_ok "run suite: temporary files left behind"
else
	ok "run suite: Go report, samples, config lines"
fi
# Every report says when, where and how it was made.
if grep -Eq '^# date: 20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z$' "$TMP/report.txt" &&
   grep -q "^# host: $(uname -n)$" "$TMP/report.txt" &&
   grep -q "^# command: cbenchctl run $FAST --filter 'chain|copy/size=4096\$' -o $TMP/report.txt --samples $TMP/report.csv $SUITE$" "$TMP/report.txt"; then
	ok "run suite: the report's date, host and command"
else
	not_ok "run suite: date, host, command: $(grep -E '^# (date|host|command):' "$TMP/report.txt")"
fi

# The CSV's reference rows are told apart by the kind column, as the user
# guide says: each trial's benchmark rows and as many reference rows.
if python3 - "$TMP/report.csv" <<'PY'
import collections, csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert list(rows[0].keys())[-3:] == ["kind", "base", "params"], rows[0].keys()
for r in rows:
    assert r["benchmark"] == r["base"] + ("/" + r["params"] if r["params"] else ""), r
assert any(r["params"] == "size=4096" for r in rows), set(r["params"] for r in rows)
kinds = collections.Counter((r["benchmark"], r["kind"]) for r in rows)
assert set(r["kind"] for r in rows) == {"benchmark", "reference"}, kinds
for (name, kind), n in kinds.items():
    if kind == "benchmark":
        assert kinds[(name, "reference")] == n, (name, kinds)
# The reference chain: a cycle an add, so no faster than a 6.6 GHz core
# (an add folded at rename would be); an interrupt may stretch one.
adds = sorted(float(r["ns_per_op"]) for r in rows if r["kind"] == "reference")
assert adds[0] > 0.15 and adds[len(adds) // 2] < 5, adds
PY
then
	ok "run suite: samples CSV, reference rows apart by kind (one after each measurement)"
else
	not_ok "run suite: samples CSV kinds"
fi
[ -s "$TMP/report.txt" ] && cp "$TMP/report.txt" "$TMP/first.txt"

run_cb run $FAST --filter 'add_chain' "$SUITE"
if [ "$rc" -eq 0 ] && grep -q '^# tuning: cached' "$TMP/out" && ! grep -q '^# tuning: tuned' "$TMP/out"; then
	ok "second run reuses the cached tuning"
else
	not_ok "second run reuses the cached tuning"
fi
[ -s "$TMP/out" ] && cp "$TMP/out" "$TMP/second.txt"
# benchstat puts results whose configuration lines differ into separate
# tables and compares nothing: two runs must agree on every one.
config_lines() {
	grep -E '^[a-z][^ ]*:' "$1"
}
config_lines "$TMP/out" >"$TMP/out.config"
if [ -s "$TMP/first.txt" ] && [ "$rc" -eq 0 ] && [ -s "$TMP/out.config" ] &&
   config_lines "$TMP/first.txt" | diff -u - "$TMP/out.config" >"$TMP/err.diff"; then
	ok "two runs have the same configuration lines (benchstat compares them in one table)"
else
	not_ok "two runs have the same configuration lines: $(cat "$TMP/err.diff" 2>/dev/null)"
fi

esc=$(printf '\033')
if grep -q "$esc" "$TMP/err"; then
	not_ok "no colour or progress line when stderr is not a terminal"
else
	ok "no colour or progress line when stderr is not a terminal"
fi
if command -v script >/dev/null; then
	script -qec "$CB run $FAST --filter add_chain -o $TMP/tty.txt $SUITE" /dev/null >"$TMP/tty.log" 2>&1
	if grep -q "${esc}\[1m" "$TMP/tty.log" && grep -q 'AddChain trial 2/2' "$TMP/tty.log"; then
		ok "colour and a progress line on a terminal"
	else
		not_ok "colour and a progress line on a terminal"
	fi
fi

run_cb run $FAST --retune --filter 'add_chain' "$SUITE"
if [ "$rc" -eq 0 ] && grep -q '^# tuning: tuned' "$TMP/out"; then
	ok "--retune tunes again"
else
	not_ok "--retune tunes again"
fi

run_cb run $FAST --format json --filter 'add_chain' "$SUITE"
if [ "$rc" -eq 0 ] && python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
b = r["benchmarks"][0]
assert r["config"]["backend"] == "user"
assert b["name"] == "BenchmarkAddChain" and len(b["trials"]) == 2
t = b["trials"][0]
# The estimate is the floor mean: at least the minimum, which the median is too.
assert t["status"] == "ok" and t["ns_per_op"] > 0 and t["min_ns_per_op"] <= t["ns_per_op"] and t["min_ns_per_op"] <= t["median_ns_per_op"]
assert "cycles_per_op" not in t and "est_cycles_per_op" in t
' "$TMP/out" 2>"$TMP/err"; then
	ok "--format json"
else
	not_ok "--format json"
fi

# One run a side: the change of the headlines, and no verdict (a run's
# trials move together, so they cannot tell a change from drift), with
# audit named.  This used to test the trials and say "~" or worse.
run_cb compare "$TMP/first.txt" "$TMP/first.txt"
if [ "$rc" -eq 0 ] && grep -Eq '^AddChain +[0-9.]+ +[0-9.]+ +est-cycles/op +\+0\.00% +- +n/a +1\+1 \?$' "$TMP/out" &&
   grep -q 'cbenchctl audit' "$TMP/out"; then
	ok "compare: one run a side decides nothing and names audit"
else
	not_ok "compare: one run a side"
fi
# Real reports, written one after another into one file, are as many runs;
# the same two runs on both sides are no difference (p = 1; the interval is
# as wide as the two runs are apart).
cat "$TMP/first.txt" "$TMP/second.txt" >"$TMP/both.txt"
run_cb compare "$TMP/both.txt" -- "$TMP/second.txt" "$TMP/first.txt"
if [ "$rc" -eq 0 ] && grep -Eq '^AddChain +[0-9.]+ +[0-9.]+ +est-cycles/op +[+-]0\.00% +\[-[0-9.]+%,\+[0-9.]+%\] +1\.000 +2\+2 +~( equal: within --min-effect ±0\.20%)?( \(clock .*\))?$' "$TMP/out"; then
	ok "compare: reports concatenated in a file are runs; the same runs are no difference"
else
	not_ok "compare: concatenated reports"
fi
# Made-up runs, clearly apart: "slower", by the change of the geometric
# means of the runs' median trials (2.01 2.02 2.03 over 1.01 1.02 1.03:
# +98.04 %; each run's slow third trial moves no median).
for i in 1 2 3; do
	printf 'goos: linux\nBenchmarkX 10 1.0%s ns/op\nBenchmarkX 10 1.50 ns/op\nBenchmarkX 10 1.0%s ns/op\n' \
		"$i" "$i" >"$TMP/a$i.txt"
	printf 'goos: linux\nBenchmarkX 10 2.0%s ns/op\nBenchmarkX 10 2.90 ns/op\nBenchmarkX 10 2.0%s ns/op\n' \
		"$i" "$i" >"$TMP/b$i.txt"
done
run_cb compare "$TMP/a1.txt" "$TMP/a2.txt" "$TMP/a3.txt" -- "$TMP/b1.txt" "$TMP/b2.txt" "$TMP/b3.txt"
if [ "$rc" -eq 0 ] && grep -Eq '^X .*\+98\.0[0-9]% +\[\+9[0-9]\.[0-9]+%,\+10[0-9]\.[0-9]+%\] +0\.000 +3\+3 slower$' "$TMP/out"; then
	ok "compare: three runs a side, a clear slowdown"
else
	not_ok "compare: three runs a side, a clear slowdown"
fi
# The gate: --fail-on slower fails (status 3) on that slowdown, names it,
# and passes the same runs on both sides and a --min-effect above it.
run_cb compare --fail-on slower "$TMP/a1.txt" "$TMP/a2.txt" "$TMP/a3.txt" -- "$TMP/b1.txt" "$TMP/b2.txt" "$TMP/b3.txt"
gate_slow=$rc
grep -q '^gate (--fail-on slower): FAILED: 1 benchmark slower by 0.20% or more: X$' "$TMP/out" || gate_slow=x
run_cb compare --fail-on=slower "$TMP/a1.txt" "$TMP/a2.txt" "$TMP/a3.txt" -- "$TMP/a3.txt" "$TMP/a2.txt" "$TMP/a1.txt"
gate_aa=$rc
run_cb compare --min-effect 99 --fail-on changed "$TMP/a1.txt" "$TMP/a2.txt" "$TMP/a3.txt" -- "$TMP/b1.txt" "$TMP/b2.txt" "$TMP/b3.txt"
gate_big=$rc
grep -Eq '^X .* ~ slower, not shown past ±99\.00%$' "$TMP/out" || gate_big=x
run_cb compare --fail-on slower "$TMP/b1.txt" "$TMP/b2.txt" "$TMP/b3.txt" -- "$TMP/a1.txt" "$TMP/a2.txt" "$TMP/a3.txt"
gate_above=$rc
grep -q '^gate (--fail-on slower): passed: no benchmark slower by 0.20% or more$' "$TMP/out" || gate_above=x
run_cb compare --fail-on changed "$TMP/b1.txt" "$TMP/b2.txt" "$TMP/b3.txt" -- "$TMP/a1.txt" "$TMP/a2.txt" "$TMP/a3.txt"
gate_fast=$rc
grep -q '^X .* faster$' "$TMP/out" || gate_fast=x
if [ "$gate_slow/$gate_aa/$gate_big/$gate_above/$gate_fast" = 3/4/4/0/3 ]; then
	ok "compare --fail-on: 3 on a slowdown (or a speed-up for changed), 0 on a speed-up, 4 on an interval across --min-effect (the A/A runs' too)"
else
	not_ok "compare --fail-on: statuses $gate_slow/$gate_aa/$gate_big/$gate_above/$gate_fast, not 3/4/4/0/3"
fi
# A gate never passes what it could not judge: one run a side, real runs
# or a made-up 5 % slowdown, is "?" on every row and exits 4, unless
# --undecided pass (0).
run_cb compare --fail-on slower "$TMP/first.txt" "$TMP/second.txt"
gate_real=$rc
grep -q '^gate (--fail-on slower): UNDECIDED: [0-9]* benchmarks\{0,1\} not judged: AddChain (one run a side)' "$TMP/out" ||
	gate_real=x
printf 'goos: linux\nBenchmarkX 10 100.00 ns/op\n' >"$TMP/u_old.txt"
printf 'goos: linux\nBenchmarkX 10 105.04 ns/op\n' >"$TMP/u_new.txt"
run_cb compare --fail-on slower "$TMP/u_old.txt" "$TMP/u_new.txt"
gate_five=$rc
grep -Eq '^X .* ns/op +\+5\.04% +- +n/a +1\+1 \?$' "$TMP/out" || gate_five=x
run_cb compare --fail-on slower --undecided pass "$TMP/u_old.txt" "$TMP/u_new.txt"
gate_pass=$rc
grep -q '^gate (--fail-on slower): passed: .*1 undecided, passed by --undecided pass$' "$TMP/out" ||
	gate_pass=x
if [ "$gate_real/$gate_five/$gate_pass" = 4/4/0 ]; then
	ok "compare --fail-on, one run a side: 4 (undecided) on real runs and on a 5 % slowdown; 0 with --undecided pass"
else
	not_ok "compare --fail-on, one run a side: statuses $gate_real/$gate_five/$gate_pass, not 4/4/0"
fi
# Practical equivalence and the rule: a real difference of +0.01 % (narrow
# interval, p < 0.05) is "~ equal" within the default 0.2 %, and its row says
# it is slower but under --min-effect; "slower" with --min-effect 0; no
# difference within 0.2 % is "~ equal" within --min-effect; +0.30 % with an
# interval of [+0.07 %, +0.53 %] is real but not shown past 0.2 % ("~ slower,
# not shown past", and the gate is undecided, naming it), slower with
# --min-effect 0.05, and "~ equal: slower, under --min-effect" with 10.
for i in 1 2 3; do
	printf 'BenchmarkT 10 1.0000%s ns/op\nBenchmarkS 10 1.00%s ns/op\nBenchmarkU 10 1.0000%s ns/op\n' "$i" "$i" "$i" >"$TMP/e$i.txt"
	printf 'BenchmarkT 10 1.0001%s ns/op\nBenchmarkS 10 1.00%s ns/op\nBenchmarkU 10 1.0000%s ns/op\n' "$i" "$((i + 3))" "$((4 - i))" >"$TMP/f$i.txt"
done
run_cb compare "$TMP/e1.txt" "$TMP/e2.txt" "$TMP/e3.txt" -- "$TMP/f1.txt" "$TMP/f2.txt" "$TMP/f3.txt"
eq=$rc
grep -Eq '^T .*\+0\.01% +\[\+0\.0[0-9]%,\+0\.0[0-9]%\] +0\.0[0-4][0-9] +3\+3 ~ equal: slower, under --min-effect 0\.20%$' "$TMP/out" || eq=x
grep -Eq '^U .* +3\+3 ~ equal: within --min-effect ±0\.20%$' "$TMP/out" || eq=u
grep -Eq '^S .*\+0\.30% +\[\+0\.07%,\+0\.53%\] .* +3\+3 ~ slower, not shown past ±0\.20%$' "$TMP/out" || eq=y
grep -q '^~ equal: the 95% interval lies within ±0.20%' "$TMP/out" || eq=z
grep -q '^~ equal: slower (or faster), under --min-effect: a real difference (the interval' "$TMP/out" || eq=t
grep -q '^~ slower (or faster), not shown past ±0.20%: a real difference' "$TMP/out" || eq=r
run_cb compare --min-effect 0 "$TMP/e1.txt" "$TMP/e2.txt" "$TMP/e3.txt" -- "$TMP/f1.txt" "$TMP/f2.txt" "$TMP/f3.txt"
grep -Eq '^T .* slower$' "$TMP/out" || eq=w
run_cb compare --min-effect 0.05 "$TMP/e1.txt" "$TMP/e2.txt" "$TMP/e3.txt" -- "$TMP/f1.txt" "$TMP/f2.txt" "$TMP/f3.txt"
grep -Eq '^S .* slower$' "$TMP/out" && grep -q '^slower, faster: the whole 95% interval lies past +0.05%' "$TMP/out" || eq=v
run_cb compare --min-effect 10 "$TMP/e1.txt" "$TMP/e2.txt" "$TMP/e3.txt" -- "$TMP/f1.txt" "$TMP/f2.txt" "$TMP/f3.txt"
grep -Eq '^S .*\+0\.30% .* ~ equal: slower, under --min-effect 10\.00%$' "$TMP/out" || eq=s
# The same in JSON: the figures and verdicts of the table, what
# --min-effect alone made equal, valid against the schema; the gate's line
# on stderr, its status kept: undecided about S.
run_cb compare --format json --fail-on slower "$TMP/e1.txt" "$TMP/e2.txt" "$TMP/e3.txt" -- "$TMP/f1.txt" "$TMP/f2.txt" "$TMP/f3.txt"
[ "$rc" -eq 4 ] && grep -q '^gate (--fail-on slower): UNDECIDED: 1 benchmark not judged: S (a real difference, its size not settled)$' "$TMP/err" || eq=j
"$SCHEMA_PY" - "$TMP/out" <<'PY' || eq=k
import json, sys, jsonschema
d = json.load(open(sys.argv[1]))
jsonschema.validate(d, json.load(open("docs/schema/compare.schema.json")))
rows = {b["name"]: b for b in d["benchmarks"]}
assert rows["BenchmarkT"]["verdict"] == "equal" and rows["BenchmarkT"]["under_min_effect"] == "slower", rows["BenchmarkT"]
assert rows["BenchmarkU"]["verdict"] == "equal" and "under_min_effect" not in rows["BenchmarkU"], rows["BenchmarkU"]
assert rows["BenchmarkS"]["verdict"] == "unsettled" and rows["BenchmarkS"]["direction"] == "slower", rows["BenchmarkS"]
assert abs(rows["BenchmarkS"]["change"] - 0.30) < 0.01 and rows["BenchmarkS"]["metric"] == "ns", rows["BenchmarkS"]
assert rows["BenchmarkS"]["runs_old"] == 3 and 0 < rows["BenchmarkS"]["lower"] < 0.20 < rows["BenchmarkS"]["upper"]
assert d["config"]["min_effect"] == 0.2 and d["only_old"] == d["only_new"] == []
PY
if [ "$eq" = 0 ]; then
	ok "compare: +0.01 % is ~ equal, slower under --min-effect (slower with 0), +0.30 % [+0.07 %, +0.53 %] not shown past 0.2 % (slower past 0.05 %), ~ equal under 10 %; the same in JSON, the gate undecided"
else
	cp "$TMP/out" "$TMP/err"
	not_ok "compare: practical equivalence ($eq)"
fi
# The figure that holds: three runs a side whose ns/op sit on three clock
# levels (the change lost in them), while est-cycles/op shows +1 % in every
# run.  By default est-cycles/op judges (both sides have it), the row and
# the legend say so, and the gate fails naming it; --metric ns judges the
# wall time instead, which cannot tell, so the gate is undecided.  The
# clock line of each run says where it ran: the row says the sides' clocks
# differ.  A --metric no row has is a gate over nothing: an error.
i=0
for ns in 0.2444 0.2505 0.2637; do
	i=$((i + 1))
	printf 'goos: linux\ncore-clock: 4.19 to 4.19 GHz over the run\nBenchmarkE 10 %s ns/op 1.000%s est-cycles/op\n' "$ns" "$((i + 4))" >"$TMP/c_old$i.txt"
done
i=0
for ns in 0.2530 0.2663 0.2468; do
	i=$((i + 1))
	printf 'goos: linux\ncore-clock: 4.09 to 4.09 GHz over the run\nBenchmarkE 10 %s ns/op 1.010%s est-cycles/op\n' "$ns" "$((i + 4))" >"$TMP/c_new$i.txt"
done
fig=0
run_cb compare --fail-on slower "$TMP/c_old1.txt" "$TMP/c_old2.txt" "$TMP/c_old3.txt" -- "$TMP/c_new1.txt" "$TMP/c_new2.txt" "$TMP/c_new3.txt"
[ "$rc" -eq 3 ] || fig=a
grep -Eq '^E +1\.0006 +1\.0106 est-cycles/op +\+1\.0[0-9]% .* 3\+3 slower \(clock 4\.19 -> 4\.09 GHz\)$' "$TMP/out" || fig=b
grep -q '^figure: est-cycles/op where both sides have it in every run' "$TMP/out" || fig=c
grep -q '^gate (--fail-on slower): FAILED: 1 benchmark slower by 0.20% or more: E$' "$TMP/out" || fig=d
run_cb compare --metric ns --fail-on slower "$TMP/c_old1.txt" "$TMP/c_old2.txt" "$TMP/c_old3.txt" -- "$TMP/c_new1.txt" "$TMP/c_new2.txt" "$TMP/c_new3.txt"
[ "$rc" -eq 4 ] || fig=e
grep -Eq '^E .* ns/op .* 3\+3 ~ \(clock 4\.19 -> 4\.09 GHz\)$' "$TMP/out" || fig=f
grep -q 'UNDECIDED: 1 benchmark not judged: E (no difference shown, nor within --min-effect)' "$TMP/out" || fig=g
run_cb compare --format json --metric=est-cycles/op "$TMP/c_old1.txt" "$TMP/c_old2.txt" "$TMP/c_old3.txt" -- "$TMP/c_new1.txt" "$TMP/c_new2.txt" "$TMP/c_new3.txt"
"$SCHEMA_PY" - "$TMP/out" <<'PY' || fig=h
import json, sys, jsonschema
d = json.load(open(sys.argv[1]))
jsonschema.validate(d, json.load(open("docs/schema/compare.schema.json")))
(e,) = d["benchmarks"]
assert e["metric"] == "est-cycles" and e["unit"] == "est-cycles/op" and e["verdict"] == "slower", e
assert abs(e["old_core_ghz"] - 4.19) < 1e-9 and abs(e["new_core_ghz"] - 4.09) < 1e-9, e
PY
# The A/A pair in est-cycles/op: never 3.
run_cb compare --fail-on slower "$TMP/c_old1.txt" "$TMP/c_old2.txt" "$TMP/c_old3.txt" -- "$TMP/c_old3.txt" "$TMP/c_old1.txt" "$TMP/c_old2.txt"
[ "$rc" -eq 0 ] || [ "$rc" -eq 4 ] || fig=i
run_cb compare --metric instructions --fail-on slower "$TMP/c_old1.txt" "$TMP/c_old2.txt" -- "$TMP/c_new1.txt" "$TMP/c_new2.txt"
[ "$rc" -eq 1 ] && grep -q 'unable to gate: no benchmark was compared (those on both sides lack --metric.s figure): a gate over nothing passes nothing' "$TMP/err" || fig=j
run_cb compare --metric instructions "$TMP/c_old1.txt" "$TMP/c_old2.txt" -- "$TMP/c_new1.txt" "$TMP/c_new2.txt"
[ "$rc" -eq 0 ] && grep -q '^note: 1 benchmark on both sides lacks instructions/op on a side: not compared' "$TMP/out" || fig=k
if [ "$fig" = 0 ]; then
	ok "compare judges est-cycles/op where both sides have it (a +1 % slowdown lost in ns/op's clock levels), --metric ns cannot; a gate over nothing is an error"
else
	cp "$TMP/out" "$TMP/err"
	not_ok "compare: the figure that holds ($fig)"
fi
expect_failure "compare: --metric with a bad value" "--metric wants est-cycles, ns, instructions, cycles or ref-cycles, not 'ms'" \
	compare --metric ms "$TMP/a1.txt" "$TMP/b1.txt"
expect_failure "compare: --format with a bad value" "--format wants text, json or junit, not 'csv'" \
	compare --format csv "$TMP/a1.txt" "$TMP/b1.txt"
expect_failure "compare: --fail-on with a bad value" "--fail-on wants slower or changed, not 'slow'" \
	compare --fail-on slow "$TMP/a1.txt" "$TMP/b1.txt"
expect_failure "compare: --undecided with a bad value" "--undecided wants pass or fail, not 'skip'" \
	compare --fail-on slower --undecided skip "$TMP/a1.txt" "$TMP/b1.txt"
expect_failure "compare: --min-effect with a bad value" "--min-effect wants a percentage from 0 to below 100, not '-1'" \
	compare --min-effect -1 "$TMP/a1.txt" "$TMP/b1.txt"
expect_failure "compare: one report" "it wants an old and a new report; see 'cbenchctl compare --help'" \
	compare "$TMP/a1.txt"

cat "$TMP/a1.txt" >"$TMP/a.txt"
expect_failure "compare: a file twice on a side" "unable to compare: $TMP/a1.txt is given twice on one side" \
	compare "$TMP/a1.txt" "$TMP/a1.txt" -- "$TMP/b1.txt" "$TMP/b2.txt"

# A time that is no time is refused, naming the file and line: compare
# printed "nan ... slower" for these.
for bad in nan inf -inf -1.5 0; do
	{ echo "BenchmarkX 10 1.0 ns/op"; echo "BenchmarkX 10 $bad ns/op"; } >"$TMP/bad.txt"
	expect_failure "compare: ns/op of $bad" "unable to read $TMP/bad.txt: line 2: BenchmarkX: ns/op value '$bad' is not a finite, positive number" \
		compare "$TMP/a.txt" "$TMP/bad.txt"
done

# 100,000 benchmarks in each file, 99,999 in both: every row right.  (Not
# timed: a linear search took 15 s here, the hash index a fraction of that.)
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "BenchmarkB%d 10 %d ns/op\n", i, i + 1 }' >"$TMP/big_old.txt"
awk 'BEGIN { for (i = 1; i <= 100000; i++) printf "BenchmarkB%d 10 %d ns/op\n", i, 2 * (i + 1) }' >"$TMP/big_new.txt"
start=$(date +%s.%N)
run_cb compare "$TMP/big_old.txt" "$TMP/big_new.txt"
took=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
if [ "$rc" -eq 0 ] && awk '
	NR == 1 { next }
	NF == 0 { exit_note = 1 }
	exit_note { next }
	$1 == "B0" { if ($2 == "1.0000" && $3 == "(absent)") absent_new++; else bad++; next }
	$1 == "B100000" { if ($2 == "(absent)" && $3 == "200002.0000") absent_old++; else bad++; next }
	{
		k = substr($1, 2) + 0
		if ($2 != sprintf("%.4f", k + 1) || $3 != sprintf("%.4f", 2 * (k + 1)) || $4 != "ns/op" ||
		    $5 != "+100.00%" || $8 != "1+1" || $9 != "?" || seen[k]++)
			bad++
		rows++
	}
	END { exit !(rows == 99999 && absent_new == 1 && absent_old == 1 && !bad) }' "$TMP/out"; then
	ok "compare: 100,000 benchmarks, every row right (${took:-?} s)"
else
	not_ok "compare: 100,000 benchmarks (exit $rc)"
fi
rm -f "$TMP"/big_*.txt

# A benchmark of tens of ms per rep is tuned to n = 1 and gets its trial.
# Not where the runner must share the worker's only CPU: there a busy
# machine can disturb every such long measurement, and the trial rightly fails.
if [ "$(nproc)" -gt 1 ]; then
	run_cb run --keep-shared --trials 1 -o "$TMP/report.json" "$FIX/slow.so"
	if [ "$rc" -eq 0 ] && python3 -c '
import json, sys
b, = json.load(open(sys.argv[1]))["benchmarks"]
t, = b["trials"]
assert t["status"] == "ok" and t["n"] == 1 and t["iterations"] == t["measurements"] - t["discarded"], t
' "$TMP/report.json"; then
		ok "slow benchmark: tuned to n = 1, trials complete"
	else
		not_ok "slow benchmark"
	fi
else
	echo "skip   slow benchmark (one CPU)"
fi

# Unprivileged: no SCHED_FIFO, and getrusage where perf_event_open is refused;
# the report says both.  Only where we are root and nobody can reach the files.
if [ "$(id -u)" = 0 ] && command -v runuser >/dev/null &&
   runuser -u nobody -- test -x "$CB" -a -r "$SUITE" 2>/dev/null; then
	mkdir -p "$TMP/nobody" && chmod 777 "$TMP/nobody" && chmod 755 "$TMP"
	paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo 3)
	runuser -u nobody -- env XDG_CACHE_HOME="$TMP/nobody" "$CB" run $FAST --filter '^add_chain$' \
		"$SUITE" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ "$rc" -ne 0 ]; then
		not_ok "unprivileged run: exit status $rc"
	elif ! grep -Eq '^worker-sched: SCHED_OTHER \(SCHED_FIFO not (permitted|used: the runner shares the CPU)\)' "$TMP/out"; then
		not_ok "unprivileged run: the report does not say SCHED_FIFO was refused"
	elif [ "$paranoid" -ge 2 ] && ! grep -q '^disturbances: getrusage' "$TMP/out"; then
		not_ok "unprivileged run: the report does not say getrusage stood in for perf"
	elif ! grep -q '^BenchmarkAddChain ' "$TMP/out"; then
		not_ok "unprivileged run: no result"
	else
		ok "unprivileged run reports SCHED_OTHER and its disturbance source"
	fi
else
	echo "skip   unprivileged run (not root, or nobody cannot reach the build)"
fi

# Two runs on the same CPU take turns instead of starving each other.
"$CB" run --trials 10 --trial-time 0.05 --filter 'chain' "$SUITE" >"$TMP/out1" 2>"$TMP/err1" &
pid=$!
sleep 0.3
run_cb run $FAST --filter 'add_chain' "$SUITE"
wait "$pid"
rc1=$?
if [ "$rc" -eq 0 ] && [ "$rc1" -eq 0 ] && grep -Eq 'waiting for CPU [0-9]+: cbenchctl \(pid [0-9]+\) is measuring on it' "$TMP/err"; then
	ok "concurrent runs on one CPU take turns"
else
	not_ok "concurrent runs on one CPU take turns (exit $rc1, $rc)"
fi

# ---- placement: what differs between trials' workers -------------------------

# tests/fixtures/placed.c's by_worker does twice the work in every other
# worker: a speed fixed for a worker, as where its memory lies is.  Its
# trials differ by 2x, each steady within itself, nothing beside them slow:
# the run puts it down to placement, and its headline is the median of
# trials, as always, with an interval that spans them.
echo 0 >"$TMP/counter"
CBENCH_PLACED_COUNTER=$TMP/counter run_cb run --keep-shared --trials 6 --trial-time 0.005 \
	--warmup 0.001 --filter '^by_worker$' --format json -o "$TMP/report.json" build/tests/fixtures/placed.so
if [ "$rc" -eq 0 ] && grep -q '^ByWorker  *[0-9.]* [nµm]*s ' "$TMP/err" &&
   grep -q '^  placement-sensitive: trials spread .* by placement (.*the median of trials, quoted' \
	"$TMP/err" && python3 - "$TMP/report.json" <<'PY'
import json, statistics, sys
b = json.load(open(sys.argv[1]))["benchmarks"][0]
trials = [t["ns_per_op"] for t in b["trials"]]
assert max(trials) / min(trials) > 1.8, trials
assert b["placement_sensitive"] is True and b["quote"] == "median_of_trials", b
assert b["quote_ns_per_op"] == b["median_of_trials_ns_per_op"] == b["ns_per_op"], b
assert b["ns_per_op"] == statistics.median(trials) > b["least_trial_ns_per_op"], b
assert b["ns_per_op_lower"] <= min(trials) and b["ns_per_op_upper"] >= max(trials), b
assert b["placement_share"] > 0.9 and b["between_trials_sd_pct"] > 10, b
assert b["set_aside_trials"] == 0, b
assert "placement" in b["unstable_reason"], b
PY
then
	ok "trials that differ by worker: placement-sensitive, the median of trials quoted"
else
	not_ok "a placement-sensitive benchmark's headline"
fi
echo 0 >"$TMP/counter"
CBENCH_PLACED_COUNTER=$TMP/counter run_cb run --keep-shared --trials 6 --trial-time 0.005 \
	--warmup 0.001 --filter '^by_worker$' build/tests/fixtures/placed.so
if [ "$rc" -eq 0 ] && [ "$(grep -c '^BenchmarkByWorker ' "$TMP/out")" -eq 6 ] &&
   grep -q '^# BenchmarkByWorker: trials vary by .*% (sd), the noise within them by .*: [0-9]*% of their variance is placement$' "$TMP/out" &&
   grep -q '^# BenchmarkByWorker: headline: the median of 6 trials, .* ns/op, 9[0-9]% interval \[.*, .*\]$' "$TMP/out"; then
	ok "Go format: a line per trial, the placement figures and the headline in comments"
else
	not_ok "Go format of a placement-sensitive benchmark"
fi

# CBENCH_COSTS: where the trials' time went, every stage named, each trial
# counted; nothing without it.
CBENCH_COSTS=1 run_cb run --trials 2 --trial-time 0.002 --warmup 0.001 --filter '^add_chain$' -o /dev/null "$SUITE"
if [ "$rc" -eq 0 ] && grep -Eq "^cbenchctl: trial costs, means over ([2-9]|[1-9][0-9]+) trials: fork [0-9.]+ ms, worker start [0-9.]+ ms, setup and arena [0-9.]+ ms, placement and warm-up [0-9.]+ ms, measuring [0-9.]+ ms, worker end [0-9.]+ ms; the runner between trials [0-9.]+ ms \([0-9]+ times\)$" "$TMP/err"; then
	run_cb run --trials 2 --trial-time 0.002 --warmup 0.001 --filter '^add_chain$' -o /dev/null "$SUITE"
	if grep -q "trial costs" "$TMP/err"; then
		not_ok "trial costs printed without CBENCH_COSTS"
	else
		ok "CBENCH_COSTS: a trial's stages, each named, over every trial"
	fi
else
	not_ok "CBENCH_COSTS: $(cat "$TMP/err")"
fi

# tests/fixtures/moment.c: three compute-only benchmarks, and a "busy
# moment" over one round of their trials (workers 9 to 11, with the tuning
# cached: the round-robin's fourth round), which does 1.6 times the work.
# Each benchmark's trial of that round is set aside as disturbed by a busy
# moment (the others measured beside it were slow too), measured again, and
# counts in no figure: no placement, the headline as without the moment.
run_cb run --trials 1 --trial-time 0.005 --warmup 0.001 -o /dev/null "$FIX/moment.so"
echo "9 3 0" >"$TMP/moment"
CBENCH_MOMENT_FILE=$TMP/moment run_cb run --keep-shared --trials 6 --trial-time 0.005 --warmup 0.001 \
	-o "$TMP/moment.json" -o "$TMP/moment.txt" "$FIX/moment.so"
if [ "$rc" -eq 0 ] && grep -Eq 'set aside as disturbed and measured again: [1-9][0-9]* by a busy moment' "$TMP/err" &&
   grep -q '^# BenchmarkFirst trial 4 set aside as disturbed (moment): ' "$TMP/moment.txt" &&
   [ "$(grep -c '^BenchmarkFirst ' "$TMP/moment.txt")" -ge 6 ] && python3 - "$TMP/moment.json" <<'PY'
import json, sys
for b in json.load(open(sys.argv[1]))["benchmarks"]:
    t = b["trials"]
    assert t[3]["status"] == "set_aside" and t[3]["cause"] == "moment", (b["name"], t[3])
    assert t[3]["slow_beside"] >= 1, t[3]
    assert any(x.get("replacement") for x in t), b["name"]
    kept = sorted(x["ns_per_op"] for x in t if x["status"] == "ok")
    # --trials 6 kept: whatever else a busy host sets aside is measured
    # again too, replacements included (a host's own busy moment may add
    # to the count in the note, and a kept trial may have shared its core:
    # measured against the middle of the kept).
    assert len(kept) == 6 and t[3]["ns_per_op"] > 1.4 * kept[3], (b["name"], kept)
    assert b["ns_per_op_upper"] < t[3]["ns_per_op"], b
    assert b["placement_sensitive"] is False, b
PY
then
	ok "a busy moment over a round: each slowed trial set aside, measured again, never placement"
else
	not_ok "a busy moment over a round of trials"
	grep -v '^moment ' "$TMP/err"
	python3 -c 'import json, sys
for b in json.load(open(sys.argv[1]))["benchmarks"]:
    print(b["name"], [(x["status"], x.get("cause"), round(x["ns_per_op"], 2), x.get("slow_beside")) for x in b["trials"]])' \
		"$TMP/moment.json" 2>&1
fi
# The three measured again (the setups after the rounds' 18) share a
# worker, as a round's trials do, where workers stand (phase.h): one
# other than any round's.
if ! $STANDS; then
	ok "trials measured again share a worker (no worker stands here)"
elif sed -n 's/^moment //p' "$TMP/err" | python3 -c '
import sys
rows = [l.split() for l in sys.stdin]
rounds = {w for w, n in rows if int(n) < 18}
again = [w for w, n in rows if 18 <= int(n) < 21]
sys.exit(0 if len(again) == 3 and len(set(again)) == 1 and again[0] not in rounds and len(rounds) == 6 else 1)'; then
	ok "trials measured again share a worker, one of their own"
else
	not_ok "trials measured again and their workers: $(sed -n 's/^moment //p' "$TMP/err" | tr '\n' ';')"
fi

# A core another thread shares (stats/trials.h): the cache keeps the widest
# core each CPU was seen to have; a run whose every trial ran narrower
# (here: the cache says 50.00 adds a cycle, wider than any core today) sets each
# aside as shared and measures it again, and where the replacements are
# spent keeps the widest of them to make up half of --trials, saying so.
# --keep-shared keeps them and counts them; --retune forgets the width.
width_line() {
	grep ' core width on CPU ' "$XDG_CACHE_HOME/cbench/tuning"
}
run_cb run --trials 2 --trial-time 0.002 --warmup 0.001 --filter '^add_chain$' -o /dev/null "$SUITE"
if [ "$rc" -eq 0 ] && width_line | grep -Eq '^[0-9a-f]{16} [1-9][0-9]* core width on CPU [0-9]+$'; then
	ok "the cache keeps the widest core a run saw on its CPU"
else
	not_ok "the core's width in the cache: $(cat "$XDG_CACHE_HOME/cbench/tuning")"
fi
sed -i 's/^\([0-9a-f]*\) [0-9]* core width on CPU/\1 50000 core width on CPU/' "$XDG_CACHE_HOME/cbench/tuning"
run_cb run --shared-wait 0 --trials 3 --trial-time 0.002 --warmup 0.001 --filter '^add_chain$' -o "$TMP/shared.json" "$SUITE"
if [ "$rc" -eq 0 ] &&
   grep -q '^core shared: 6 trials ran on a core another thread shared (at least 10% fewer adds a cycle than the widest seen on their CPU, at most 50.00: .*some kept for want of others' "$TMP/err" &&
   grep -q '2 kept though its core was shared, for want of others (--trials replacements and --shared-wait spent' "$TMP/err" &&
   "$SCHEMA_PY" - "$TMP/shared.json" <<'PY'
import json, sys
import jsonschema
d = json.load(open(sys.argv[1]))
jsonschema.validate(d, json.load(open("docs/schema/run.schema.json")))
t = d["benchmarks"][0]["trials"]
assert [(x["status"], x["cause"], bool(x.get("replacement"))) for x in t[:3]] == \
    [("set_aside", "shared", False)] * 3, t
assert sorted((x["status"], x["cause"], bool(x.get("replacement"))) for x in t[3:]) == \
    [("ok", "shared", True)] * 2 + [("set_aside", "shared", True)], t
aside, = [x for x in t[3:] if x["status"] == "set_aside"]
assert all(x["core_width"] >= aside["core_width"] for x in t[3:]), t
assert all(0 < x["core_width"] < 50 for x in t), t
PY
then
	ok "every trial narrower than the CPU's widest: set aside as shared, measured again, the widest kept to make up half of --trials"
else
	not_ok "trials on a shared core (exit $rc)"
fi
# Waiting for the core (--shared-wait, auto by default: 2 s at least, as
# long as the rounds took): past --trials replacements, up to a hundred
# times as many (600 s: all of them), then the widest of those no
# replacement stands for comes back to make up half.
for wait in auto 600; do
	run_cb run --shared-wait $wait --trials 2 --trial-time 0.002 --warmup 0.001 --filter '^add_chain$' \
		-o "$TMP/waited.json" "$SUITE"
	if [ "$rc" -eq 0 ] &&
	   grep -q '^core shared: [0-9]* trials ran on .*; set aside and measured again, but some kept for want of others (their benchmarks say which) ([0-9.]* s of it past --trials replacements, waiting for the core: --shared-wait [0-9.]*)$' "$TMP/err" &&
	   python3 - "$TMP/waited.json" "$wait" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
w = d["config"]["run_options"]["shared_wait_s"]
assert w == 600 if sys.argv[2] == "600" else w >= 2, w
t = d["benchmarks"][0]["trials"]
assert 4 < len(t) <= 202 and sum(bool(x.get("replacement")) for x in t) == len(t) - 2, t
assert len(t) == 202 or sys.argv[2] == "auto", len(t)
kept = [x for x in t if x["status"] == "ok"]
assert len(kept) == 1 and kept[0]["cause"] == "shared", t
# The widest of the two no replacement stands for (each pass measures
# one in place of each set aside): the last two.
assert kept[0] in t[-2:] and all(x["core_width"] <= kept[0]["core_width"] for x in t[-2:]), t
PY
	then
		ok "--shared-wait $wait: shared trials measured again past --trials, a hundred times as many at most"
	else
		not_ok "--shared-wait $wait (exit $rc): $(grep 'core shared' "$TMP/err")"
	fi
done
# The default (no --trials): trials set aside are made up for by more
# rounds, and a benchmark is precise only on five kept; every trial shared,
# none is, so the rounds go on until the run's time is spent, then five
# are measured again in place of shared ones (without --shared-wait's
# patience: 0), and then the widest shared trials come back, said so.
run_cb run --shared-wait 0 --trial-time 0.002 --warmup 0.001 --filter '^add_chain$' \
	-o "$TMP/shared-default.json" "$SUITE"
if [ "$rc" -eq 0 ] && python3 - "$TMP/shared-default.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["config"]["run_options"]["precision_auto"] is True, d["config"]["run_options"]
(b,) = d["benchmarks"]
t = b["trials"]
assert b["stopped"]["why"] in ("budget", "most") and len(t) > 5, b["stopped"]
kept = [x for x in t if x["status"] == "ok"]
assert kept and all(x["cause"] == "shared" for x in kept) and 2 * len(kept) <= len(t) + 1, t
assert sum(bool(x.get("replacement")) for x in t) == 5, t
PY
then
	ok "the default on a shared core: more rounds, never precise on shared trials, five measured again, the widest back at the end"
else
	not_ok "the default on a shared core (exit $rc): $(grep -E 'core shared|trials:' "$TMP/err")"
fi
if ! python3 -c 'import json,sys; sys.exit("shared_wait_s" in json.load(open(sys.argv[1]))["config"]["run_options"])' "$TMP/shared.json"; then
	not_ok "--shared-wait 0 is said in the report"
else
	ok "--shared-wait 0: no wait, none reported"
fi
run_cb run --keep-shared --trials 3 --trial-time 0.002 --warmup 0.001 --filter '^add_chain$' -o "$TMP/kept.json" "$SUITE"
if [ "$rc" -eq 0 ] && grep -q '^core shared: 3 trials ran on .*; kept, as --keep-shared asked' "$TMP/err" &&
   python3 - "$TMP/kept.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["config"]["run_options"]["keep_shared"] is True, d["config"]["run_options"]
assert [x["status"] for x in d["benchmarks"][0]["trials"]] == ["ok"] * 3, d["benchmarks"][0]["trials"]
PY
then
	ok "--keep-shared: trials on a shared core kept, and counted"
else
	not_ok "--keep-shared (exit $rc)"
fi
run_cb run --retune --keep-shared --trials 1 --trial-time 0.002 --warmup 0.001 --filter '^add_chain$' -o /dev/null "$SUITE"
if [ "$rc" -eq 0 ] && ! grep -q '^core shared' "$TMP/err" && ! width_line | grep -q ' 50000 '; then
	ok "--retune: the core's width measured anew"
else
	not_ok "--retune and the core's width: $(width_line)"
fi

# ---- a report edited by hand: every reader refuses it, naming the member ----

# One member of the wrong type (a trial's ns/op as a string), and one
# missing (a benchmark's n): compare, plot, resume and store each refuse
# it, naming the benchmark and the member, and write nothing.
run_cb run --trials 2 --trial-time 0.002 --warmup 0.001 --filter '^(add|imul)_chain$' \
	--format json -o "$TMP/typed.json" "$SUITE"
python3 - "$TMP/typed.json" "$TMP/mistyped.json" "$TMP/missing.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
# Its digest gone (a report rewritten is refused as that first: history.sh).
d.pop("digest", None)
for path, edit in ((sys.argv[2], lambda b: b[1]["trials"][1].__setitem__("ns_per_op", "12.5")),
                   (sys.argv[3], lambda b: b[1].pop("n"))):
    e = json.loads(json.dumps(d))
    edit(e["benchmarks"])
    json.dump(e, open(path, "w"), indent=1)
    # The same, stopped by a signal, for --resume.
    e["config"]["interrupted"] = {"signal": "SIGINT", "trials_kept": 1, "trials_asked": 2,
                                  "benchmarks_not_run": 0}
    json.dump(e, open(path.replace(".json", "-stopped.json"), "w"), indent=1)
PY
# refused NAME MEMBER: every reader refuses $TMP/NAME.json, naming MEMBER (a regex).
refused() {
	bad=0
	run_cb compare "$TMP/typed.json" "$TMP/$1.json"
	[ "$rc" -eq 1 ] && grep -Eq "unable to read .*$1.json: $2" "$TMP/err" || { bad=1; echo "compare:"; cat "$TMP/err"; }
	run_cb plot "$TMP/$1.json" -o "$TMP/$1.html"
	[ "$rc" -eq 1 ] && grep -Eq "unable to read .*$1.json: $2" "$TMP/err" && [ ! -e "$TMP/$1.html" ] ||
		{ bad=1; echo "plot:"; cat "$TMP/err"; }
	run_cb run --trials 2 --trial-time 0.002 --warmup 0.001 --filter '^(add|imul)_chain$' \
		--resume "$TMP/$1-stopped.json" -o "$TMP/resumed.json" "$SUITE"
	[ "$rc" -ne 0 ] && grep -Eq "unable to resume .*$1-stopped.json: $2" "$TMP/err" && [ ! -e "$TMP/resumed.json" ] ||
		{ bad=1; echo "resume:"; cat "$TMP/err"; }
	run_cb store add "$TMP/typed.db" "$TMP/$1.json" --commit c1 --order 1
	[ "$rc" -eq 1 ] && grep -Eq "unable to add .*$1.json to .*: $2" "$TMP/err" && [ ! -e "$TMP/typed.db" ] ||
		{ bad=1; echo "store:"; cat "$TMP/err"; }
	return $bad
}
mistyped=0
refused mistyped "benchmarks\[1\]( \(BenchmarkImulChain\))?\.trials\[1\]\.ns_per_op is a string, not (a )?number" ||
	mistyped=1
run_cb compare "$TMP/typed.json" "$TMP/typed.json"
[ "$rc" -eq 0 ] || { mistyped=1; echo "compare of the report as written: exit $rc"; cat "$TMP/err"; }
if [ "$mistyped" -eq 0 ]; then
	ok "a member of the wrong type: compare, plot, resume and store refuse it, naming it"
else
	not_ok "a member of the wrong type not refused by every reader"
fi
if refused missing "benchmarks\[1\] \(BenchmarkImulChain\) has no member 'n'"; then
	ok "a member missing: compare, plot, resume and store refuse it, naming it"
else
	not_ok "a member missing not refused by every reader"
fi

# ---- --precision: each benchmark's trials end once its interval is known ----

# Loose enough for any host (a chain's interval over five trials lies
# within 50 % of its headline): every benchmark stops at the fewest, 5.
PREC="--keep-shared --trial-time 0.002 --warmup 0.001 --filter ^(add|imul)_chain$"
# shellcheck disable=SC2086
run_cb run $PREC --precision 50% -o "$TMP/prec.json" -o "$TMP/prec.txt" "$SUITE"
if [ "$rc" -eq 0 ] && [ "$(grep -c '^BenchmarkAddChain ' "$TMP/prec.txt")" -eq 5 ] &&
   grep -Eq '^# BenchmarkAddChain: stopped after 5 trials: its (est-cycles|ns)/op interval within .*% of its headline, as --precision asked$' "$TMP/prec.txt" &&
   "$SCHEMA_PY" - "$TMP/prec.json" <<'PY'
import json, sys
import jsonschema
d = json.load(open(sys.argv[1]))
jsonschema.validate(d, json.load(open("docs/schema/run.schema.json")))
assert d["config"]["run_options"]["precision"] == 0.5 and d["config"]["run_options"]["trials"] == 50, d["config"]
for b in d["benchmarks"]:
    kept = [t for t in b["trials"] if t["status"] == "ok"]
    assert b["stopped"]["why"] == "precise" and b["stopped"]["trials"] == len(kept) == 5, b["stopped"]
    assert (b["ns_per_op_upper"] - b["ns_per_op_lower"]) / 2 <= 0.5 * b["ns_per_op"], b
PY
then
	ok "--precision 50%: every benchmark stops at its fifth trial, saying why (Go, JSON)"
else
	not_ok "--precision met at once (exit $rc)"
fi
# Out of reach: each takes the most --trials allows, and says so.
# shellcheck disable=SC2086
run_cb run $PREC --precision 0.0000001 --trials 6 --format json -o "$TMP/most.json" "$SUITE"
if [ "$rc" -eq 0 ] && python3 - "$TMP/most.json" <<'PY'
import json, sys
for b in json.load(open(sys.argv[1]))["benchmarks"]:
    # Six rounds measured (a trial set aside after them is measured again
    # only where fewer than five are kept).
    kept = sum(t["status"] == "ok" for t in b["trials"])
    assert b["stopped"]["why"] == "most" and sum(not t.get("replacement") for t in b["trials"]) == 6, b
    assert b["stopped"]["trials"] == kept >= 3, b["stopped"]
    assert "stopped at the most trials, 6 (--trials)" in b["stopped"]["note"], b["stopped"]
    assert "wider than --precision asked" in b["stopped"]["note"], b["stopped"]
PY
then
	ok "--precision out of reach: each benchmark takes the most trials, --trials, and says so"
else
	not_ok "--precision out of reach (exit $rc)"
fi
# A budget spent: no new round after it, past the fewest.
# shellcheck disable=SC2086
run_cb run $PREC --precision 0.0000001 --trials 40 --budget 0.001 --format json -o "$TMP/budget.json" "$SUITE"
if [ "$rc" -eq 0 ] && python3 - "$TMP/budget.json" <<'PY'
import json, sys
for b in json.load(open(sys.argv[1]))["benchmarks"]:
    # Five rounds measured; one set aside is measured again after them,
    # to keep the five it is judged on.
    kept = sum(t["status"] == "ok" for t in b["trials"])
    assert b["stopped"]["why"] == "budget" and sum(not t.get("replacement") for t in b["trials"]) == 5, b
    assert b["stopped"]["trials"] == kept >= 3, b["stopped"]
PY
then
	ok "--budget spent: each benchmark stops after its fifth trial, saying the budget ran out"
else
	not_ok "--budget (exit $rc)"
fi
check_refusal() {
	name=$1
	regex=$2
	shift 2
	run_cb run "$@" -o "$TMP/refused.json" "$SUITE"
	if [ "$rc" -eq 2 ] && grep -Eq -- "$regex" "$TMP/err" && [ ! -e "$TMP/refused.json" ]; then
		ok "refused: $name"
	else
		not_ok "refused: $name (exit $rc)"
		cat "$TMP/err"
	fi
}
check_refusal "--precision 0" "--precision.*a percent above 0 and under 100" --precision 0
check_refusal "--precision abc" "--precision.*a percent above 0" --precision abc%
check_refusal "--budget with --trials" "give --precision too" --budget 5 --trials 3
check_refusal "--budget with --precision off" "give --precision too" --budget 5 --precision off
check_refusal "--budget 0" "--budget.*a positive number of seconds, or auto" --budget 0
check_refusal "--precision with --trials 3" "at least 5 trials" --precision 1% --trials 3
check_refusal "--precision with --resume" "--precision cannot go with --resume" --precision 1% --resume "$TMP/prec.json"

# The default, without --trials or --precision: --precision 0.05% within
# --budget auto (as long as ten rounds would take); every benchmark says
# why it stopped, and the foot counts them.  --precision off: ten each.
# shellcheck disable=SC2086
run_cb run $PREC -o "$TMP/default.json" -o "$TMP/default.txt" "$SUITE"
if [ "$rc" -eq 0 ] && grep -Eq '^trials: 2 benchmarks |^trials: 1 benchmark .*, 1 ' "$TMP/err" &&
   grep -q "each stops once its headline's interval is within 0.05% (the default; --trials K takes K of each)$" "$TMP/err" &&
   grep -Eq '^# BenchmarkAddChain: stopped after [0-9]+ trials.* (the default precision \(without --trials\)|as long as 10 trials of each would take)' "$TMP/default.txt" &&
   "$SCHEMA_PY" - "$TMP/default.json" <<'PY'
import json, sys
import jsonschema
d = json.load(open(sys.argv[1]))
jsonschema.validate(d, json.load(open("docs/schema/run.schema.json")))
o = d["config"]["run_options"]
assert o["precision"] == 0.0005 and o["precision_auto"] is True and o["trials"] == 50, o
for b in d["benchmarks"]:
    s = b["stopped"]
    kept = sum(t["status"] == "ok" for t in b["trials"])
    assert s["why"] in ("precise", "budget", "most") and s["trials"] == kept, s
    assert kept >= 5 or s["why"] != "precise", s
    assert s["why"] != "budget" or o["budget_s"] > 0, o
PY
then
	ok "the default: trials until each headline is within 0.05 %, within the time ten would take, said and counted"
else
	not_ok "the default precision (exit $rc): $(cat "$TMP/err")"
fi
# --trial-time auto spreads a benchmark's trials over half a second
# counting the ten it takes as a rule, not the fifty it may: two
# benchmarks get about 20 ms trials (at fifty, 4 ms).  And the default
# stops neither before its trials span as much of the run as ten rounds
# would, less two: the chains, precise at five, take nine at least.
run_cb run --keep-shared --filter '^(add|imul)_chain$' --format json -o "$TMP/span.json" "$SUITE"
if [ "$rc" -eq 0 ] && python3 - "$TMP/span.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
o = d["config"]["run_options"]
assert o["trial_time_s"] > 0.015 and o["precision_auto"], o
for b in d["benchmarks"]:
    rounds = sum(not t.get("replacement") for t in b["trials"])
    assert rounds >= 9 or b["stopped"]["why"] != "precise", (rounds, b["stopped"])
PY
then
	ok "the default's trials as long as ten of each would make them, none stopped before they span as much"
else
	not_ok "the default's trial time and span (exit $rc)"
fi
# shellcheck disable=SC2086
run_cb run $PREC --precision off -o "$TMP/off.json" "$SUITE"
if [ "$rc" -eq 0 ] && ! grep -q '^trials:' "$TMP/err" && python3 - "$TMP/off.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
o = d["config"]["run_options"]
assert "precision" not in o and "precision_auto" not in o and o["trials"] == 10, o
for b in d["benchmarks"]:
    assert "stopped" not in b and sum(t["status"] == "ok" for t in b["trials"]) == 10, b
PY
then
	ok "--precision off: ten trials of each, kept"
else
	not_ok "--precision off (exit $rc)"
fi
run_cb run --resume "$TMP/default.json" -o "$TMP/refused.json" "$SUITE"
if [ "$rc" -ne 0 ] && [ ! -e "$TMP/refused.json" ] &&
   grep -q "unable to resume .*default.json: it stopped each benchmark's trials at --precision 0.05% (the default without --trials), and --resume goes on only with a run of a number of trials" "$TMP/err"; then
	ok "a default run's report is no run to resume, said so"
else
	not_ok "--resume of a default run (exit $rc): $(cat "$TMP/err")"
fi

# ---- failing benchmarks: reported, the others still run ---------------------

check_failed_run() {
	name=$1
	regex=$2
	so=$3
	shift 3
	rm -f "$TMP"/report*
	run_cb run $FAST "$@" -o "$TMP/report.txt" "$so"
	if [ "$rc" -eq 0 ]; then
		not_ok "$name: exit status 0"
	elif ! grep -Eq -- "$regex" "$TMP/err"; then
		not_ok "$name: no message matching /$regex/"
	elif [ -n "$(find "$TMP" -maxdepth 1 -name 'report.*.*')" ]; then
		not_ok "$name: temporary file left behind"
	elif [ "$so" != "$FIX/exits.so" ] && ! grep -q '^BenchmarkGood ' "$TMP/report.txt"; then
		not_ok "$name: the good benchmark did not run"
	elif ! grep -Eq "^# Benchmark[A-Za-z]+ trial 1 failed: .*$regex" "$TMP/report.txt"; then
		not_ok "$name: the report does not say the trial failed"
	else
		ok "$name"
	fi
}

check_failed_run "segfaulting benchmark" 'signal SIGSEGV' "$FIX/crash.so"
check_failed_run "benchmark that never returns" 'timeout after 0.5s' "$FIX/hang.so" --time-limit 0.5
# Under one step of a coarse timer, or (on a fine one) as long at any reps.
check_failed_run "benchmark that does nothing measurable" \
	'(shorter than one step of the timer|takes as long whatever its reps: the benchmark ignores reps)' \
	"$FIX/no_work.so"
check_failed_run "benchmark that ignores reps" \
	'a call takes as long whatever its reps: the benchmark ignores reps' "$FIX/ignores_reps.so"
check_failed_run "benchmark that calls exit()" 'exited with status 0 before finishing' "$FIX/exits.so"

# A benchmark that forks: what it forked must not outlive the phase.  It
# would hold our CPU lock (a second run then waits for a runner long gone),
# run at our real-time priority, pinned to the measured CPU.
# Our own lock directory: other runs on this machine must not make us wait.
mkdir -p "$TMP/locks"
export CBENCH_LOCK_DIR="$TMP/locks"
check_failed_run "benchmark that forks" 'the benchmark left processes behind' "$FIX/forks.so"
left=$(ours -x cbfix-sleeper)
if [ -n "$left" ]; then
	not_ok "benchmark that forks: its child outlived the run (pids $(echo $left))"
else
	ok "benchmark that forks: nothing it forked outlives the run"
fi
# What a benchmark starts may leave its group and session, and its parent
# may be gone (a daemon's double fork): it is still found and killed, with
# the worker in a PID namespace of its own (as here, root) and without one
# (a container that forbids namespaces).
for ns in namespace no-namespace; do
	[ "$ns" = no-namespace ] && export CBENCH_TEST_NO_NAMESPACE=1
	check_failed_run "benchmark whose child daemonizes ($ns)" \
		'the benchmark left processes behind \(1, killed\)' \
		"$FIX/kills_parent.so" --filter '^(daemonize|good)$'
	left=$(ours -x cbfix-daemon)
	if [ -n "$left" ]; then
		not_ok "benchmark whose child daemonizes ($ns): it outlived the run (pids $(echo $left))"
		kill $left 2>/dev/null
	else
		ok "benchmark whose child daemonizes ($ns): nothing it started outlives the run"
	fi
	unset CBENCH_TEST_NO_NAMESPACE
done
# A benchmark that signals its parent never reaches cbenchctl: in its PID
# namespace its parent is the namespace's init, which the kernel shields
# from its own namespace's signals, so the benchmark just goes on.  (Without
# a namespace it reaches the worker's keeper, and the trial fails saying so;
# but a benchmark that keeps signalling its parent may then reach cbenchctl
# between the keeper's death and its own, so that case is not tested.)
for i in 1 2 3; do
	rm -f "$TMP"/report*
	run_cb run $FAST --filter '^(kill_parent|good)$' -o "$TMP/report.txt" "$FIX/kills_parent.so"
	if [ "$rc" -gt 1 ]; then
		not_ok "benchmark that kills its parent ($i): cbenchctl died (exit $rc)"
	elif [ -n "$(find "$TMP" -maxdepth 1 -name 'report.*.*')" ]; then
		not_ok "benchmark that kills its parent ($i): temporary file left behind"
	elif ! grep -q '^BenchmarkGood ' "$TMP/report.txt"; then
		not_ok "benchmark that kills its parent ($i): the good benchmark did not run"
	elif ! grep -q '^BenchmarkKillParent ' "$TMP/report.txt" &&
		! grep -q 'killed the process that supervises its worker' "$TMP/report.txt"; then
		not_ok "benchmark that kills its parent ($i): neither measured nor failed with the reason"
	elif [ -n "$(ours -f 'fixtures/kills_parent')" ]; then
		not_ok "benchmark that kills its parent ($i): processes left behind"
	else
		ok "benchmark that kills its parent ($i): cbenchctl and its report survive"
	fi
done
# A round's trials on a CPU share a worker (session/phase.h's standing
# workers): each benchmark's trials are each in a worker of their own, and
# a worker ends after a benchmark that leaves behind a process, a timer, a
# thread, or what would hold for the next trial in that process (a signal
# handler, a file, a limit, a directory, the environment, memory), which
# answers for the process alone; a trial that fails in a worker after
# others' is measured again in one of its own.  tests/fixtures/
# standing.c's setups say which worker runs them (a token drawn per
# process) and how many setups it has run.
STAND="$FIX/standing.so"
STAND_BENCHES=22
standing_lines() {
	sed -n 's/^standing //p' "$TMP/err"
}
# standing_workers WORKERS: STAND_BENCHES benchmarks, 3 trials each, no
# tuning; each trial in a worker no other trial of its benchmark ran in,
# WORKERS workers in all.
standing_workers() {
	standing_lines | python3 -c '
import collections, sys
rows = [l.split() for l in sys.stdin]
by_bench = collections.defaultdict(list)
for name, worker, n in rows:
    by_bench[name].append(worker)
ok = len(rows) == 3 * int(sys.argv[2]) and all(len(set(w)) == 3 for w in by_bench.values())
sys.exit(0 if ok and len({w for _, w, _ in rows}) == int(sys.argv[1]) else 1)' "$1" "$STAND_BENCHES"
}
workers=$((3 * STAND_BENCHES))
if $STANDS; then
	workers=3
fi
run_cb run $FAST --trials 1 -o /dev/null "$STAND"	# its tuning cached
run_cb run $FAST --trials 3 --format json -o "$TMP/standing.json" "$STAND"
if [ "$rc" -eq 0 ] && standing_workers "$workers"; then
	ok "standing workers: a round's trials in one worker, each benchmark's in three ($workers workers)"
else
	not_ok "standing workers: trials and workers (exit $rc): $(standing_lines | tr '\n' ';')"
fi
CBENCH_TEST_NO_NAMESPACE=1 run_cb run $FAST --trials 3 -o /dev/null "$STAND"
if [ "$rc" -eq 0 ] && standing_workers $((3 * STAND_BENCHES)); then
	ok "standing workers: without a PID namespace of its own, every trial in a worker of its own"
else
	not_ok "standing workers without a namespace (exit $rc): $(standing_lines | tr '\n' ';')"
fi
run_cb run $FAST --trials 3 --fresh-workers --format json -o "$TMP/fresh.json" "$STAND"
if [ "$rc" -eq 0 ] && standing_workers $((3 * STAND_BENCHES)) && python3 - "$TMP/fresh.json" "$TMP/standing.json" <<'PY'
import json, sys
fresh, standing = (json.load(open(f))["config"]["run_options"] for f in sys.argv[1:3])
sys.exit(0 if fresh.get("fresh_workers") is True and "fresh_workers" not in standing else 1)
PY
then
	ok "run --fresh-workers: every trial in a worker of its own, and the report says so"
else
	not_ok "run --fresh-workers: $(standing_lines | tr '\n' ';')"
fi
CBENCH_FIX_LEAVE=1 run_cb run $FAST --trials 3 --format json -o "$TMP/standing.json" "$STAND"
standing_lines >"$TMP/standing"
if [ "$rc" -eq 1 ] && python3 - "$TMP/standing" "$TMP/standing.json" "$STAND_BENCHES" "$TMP/err" "$workers" <<'PY'
import json, re, sys
rows = [l.split() for l in open(sys.argv[1])]
report = json.load(open(sys.argv[2]))
failed = {b["name"]: [t.get("reason") if t["status"] == "failed" else None for t in b["trials"]] for b in report["benchmarks"]}
# What each left ends its worker: the benchmark after it has a new one.
left = set()
for i, (name, worker, n) in enumerate(rows[:-1]):
    if name.startswith("leave_"):
        left.add(name)
        if rows[i + 1][1] == worker:
            sys.exit("%s's worker measured %s next" % (name, rows[i + 1][0]))
if len(left) != 14:
    sys.exit("leave_ benchmarks seen: %s" % sorted(left))
for name, errors in failed.items():
    if name == "BenchmarkLeaveProcess":
        if not all(e and "left processes behind" in e for e in errors):
            sys.exit("LeaveProcess: %s" % errors)
    elif name != "BenchmarkLeaveTimer" and any(errors):
        sys.exit("%s failed: %s" % (name, errors))
if len(failed) != int(sys.argv[3]):
    sys.exit("%d benchmarks" % len(failed))
# The run names what each left, once, and nothing of the others (where
# workers stand: elsewhere every trial ends its own).
notes = {}
for line in open(sys.argv[4]):
    m = re.match(r"cbenchctl: (\S+) left behind in its worker after \d+ trials?: (.*); each", line)
    if m:
        notes[m.group(1)] = m.group(2)
want = {"BenchmarkLeaveThread": "a thread", "BenchmarkLeaveHandler": "signal handler installed",
        "BenchmarkLeaveFile": "a file opened or closed", "BenchmarkLeaveLimit": "a resource limit",
        "BenchmarkLeaveDir": "the working directory", "BenchmarkLeaveEnv": "the environment",
        "BenchmarkLeaveMemory": "64 MiB", "BenchmarkLeaveUmask": "umask",
        "BenchmarkLeaveBlocked": "signals blocked", "BenchmarkLeaveNice": "scheduling",
        "BenchmarkLeavePersonality": "personality", "BenchmarkLeaveAltstack": "alternate signal stack"}
for name, what in want.items() if sys.argv[5] == "3" else ():
    if what not in notes.get(name, ""):
        sys.exit("%s: note %r" % (name, notes.get(name)))
extra = set(notes) - set(want) - {"BenchmarkLeaveTimer"}
if extra:
    sys.exit("notes of %s" % sorted(extra))
# Nothing missed was made good by a trial measured again.
if any("measured again in a worker of its own" in line for line in open(sys.argv[4])):
    sys.exit("a trial was measured again")
PY
then
	ok "standing workers: a benchmark that leaves a process, a timer, a thread, a handler, a blocked signal, an alternate stack, a file, a limit, a directory, a umask, a nice value, a personality, the environment or memory behind ends its worker, only its own trials fail, and the run names what each left"
else
	not_ok "standing workers with what benchmarks leave behind (exit $rc): $(tail -3 "$TMP/err")"
fi
# poison leaves what no worker sees, and after_poison fails after it in
# the same process: measured again alone, it passes, and the run says why.
CBENCH_FIX_POISON=1 run_cb run $FAST --trials 3 --format json -o "$TMP/standing.json" "$STAND"
if [ "$rc" -eq 0 ] && [ "$workers" -gt 3 ]; then
	ok "standing workers: a trial failed after another benchmark's is measured again alone (no worker stands here)"
elif [ "$rc" -eq 0 ] && grep -q "BenchmarkAfterPoison: a trial failed in a worker that had measured .* and passed when measured again in a worker of its own" "$TMP/err" &&
     python3 - "$TMP/standing.json" <<'PY'
import json, sys
for b in json.load(open(sys.argv[1]))["benchmarks"]:
    if b["name"] == "BenchmarkAfterPoison":
        st = [t["status"] for t in b["trials"]]
        sys.exit(0 if "failed" not in st and st.count("ok") == 3 else "trials: %s" % st)
sys.exit("no AfterPoison")
PY
then
	ok "standing workers: a trial failed after another benchmark's is measured again alone, kept, and the run says why"
else
	not_ok "standing workers: a trial failed after another's (exit $rc): $(grep -v '^standing' "$TMP/err" | tail -3)"
fi
if [ -n "$(ours -x cbfix-standing)" ]; then
	not_ok "standing workers: a process a benchmark left outlived the run"
else
	ok "standing workers: nothing a benchmark left outlives the run"
fi

rm -f "$TMP/err"
timeout 10 "$CB" run $FAST --filter '^add_chain$' "$SUITE" >"$TMP/out" 2>"$TMP/err"
rc=$?
if [ "$rc" -eq 0 ] && ! grep -q 'waiting for CPU' "$TMP/err"; then
	ok "benchmark that forks: the next run gets the CPU at once"
else
	not_ok "benchmark that forks: the next run waited for the CPU (exit $rc)"
fi
[ -n "$left" ] && kill $left 2>/dev/null
unset CBENCH_LOCK_DIR

# What a benchmark prints reaches our stderr, though the worker ends with
# _exit() and its stdout is not a terminal.
run_cb run $FAST -o "$TMP/report.txt" "$FIX/prints.so"
if [ "$rc" -eq 0 ] && grep -q '^cbfix-stdout-marker$' "$TMP/err" && ! grep -q marker "$TMP/report.txt"; then
	ok "a benchmark's stdout reaches stderr"
else
	not_ok "a benchmark's stdout reaches stderr (exit $rc)"
fi

# An interrupted run leaves neither the report nor a temporary file.
rm -f "$TMP"/report*
"$CB" run --time-limit 30 -o "$TMP/report.txt" --samples "$TMP/report.csv" "$FIX/hang.so" >/dev/null 2>&1 &
pid=$!
sleep 1
kill -TERM "$pid"
wait "$pid"
rc=$?
if [ "$rc" -eq 0 ]; then
	not_ok "interrupted run: exit status 0"
elif ls "$TMP"/report* >/dev/null 2>&1; then
	not_ok "interrupted run: left files behind: $(ls "$TMP"/report*)"
else
	ok "interrupted run leaves no file"
fi

# -o's name says the format, and one run writes several at once: JSON,
# Go and the raw CSV; two of one format are refused before anything runs.
run_cb run $FAST --filter '^add_chain$' -o "$TMP/multi.json" -o "$TMP/multi.txt" -o "$TMP/multi.csv" "$SUITE"
if [ "$rc" -eq 0 ] && python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$TMP/multi.json" &&
   grep -q '^BenchmarkAddChain ' "$TMP/multi.txt" && head -1 "$TMP/multi.csv" | grep -q '^benchmark,trial,' &&
   [ ! -s "$TMP/out" ]; then
	ok "-o by name: .json JSON, .txt Go, .csv the raw measurements, all from one run"
else
	not_ok "-o by name (exit $rc)"
fi
# The JSON report against its documented schema (docs/schema/run.schema.json);
# the schema refuses what is not one.
if "$SCHEMA_PY" - docs/schema/run.schema.json "$TMP/multi.json" <<'PY'
import json, sys
import jsonschema
def once(pairs):
    keys = [k for k, _ in pairs]
    assert len(keys) == len(set(keys)), "a member twice: %s" % keys
    return dict(pairs)
schema, report = (json.load(open(p), object_pairs_hook=once) for p in sys.argv[1:3])
jsonschema.Draft202012Validator.check_schema(schema)
jsonschema.validate(report, schema)
assert report["schema_version"] == 2
bad = dict(report, benchmarks=[dict(report["benchmarks"][0], trials=[{"status": "ok"}])])
try:
    jsonschema.validate(bad, schema)
except jsonschema.ValidationError:
    pass
else:
    raise SystemExit("a trial without its figures passed")
PY
then
	ok "the JSON report: schema_version 2, valid against docs/schema/run.schema.json"
else
	not_ok "the JSON report against its schema"
fi
# compare reads JSON as it reads Go text, by content: one run's two
# reports are the same run (to the Go text's six digits, so the two
# estimates as printed may differ in their last digit by rounding twice).
run_cb compare "$TMP/multi.json" "$TMP/multi.txt"
if [ "$rc" -eq 0 ] && grep -Eq '^AddChain +[0-9.]+ +[0-9.]+ +est-cycles/op +[+-]0\.00% +- +n/a +1\+1 \?$' "$TMP/out" &&
   awk '/^AddChain / { d = $2 - $3; if (d < 0) d = -d; exit !(d <= $2 * 1e-3) }' "$TMP/out"; then
	ok "compare reads a JSON report beside a Go one"
else
	not_ok "compare of JSON and Go (exit $rc)"
fi
# Runs of other machines or backends are not compared, unless --mixed.
sed 's/^backend: user$/backend: kmod/' "$TMP/multi.txt" >"$TMP/other-backend.txt"
sed 's/^machine: [^ ]*/machine: lab-7/' "$TMP/multi.txt" >"$TMP/other-machine.txt"
expect_failure "compare: runs of two backends" \
	"unable to read .*other-backend.txt: it was measured on machine .*backend kmod, .*multi.json on .*backend user: .*--mixed" \
	compare "$TMP/multi.json" "$TMP/other-backend.txt"
expect_failure "compare: runs of two machines" "other-machine.txt: it was measured on machine lab-7, " \
	compare "$TMP/multi.txt" -- "$TMP/multi.json" "$TMP/other-machine.txt"
run_cb compare --mixed "$TMP/multi.json" "$TMP/other-backend.txt"
if [ "$rc" -eq 0 ] && grep -q '^AddChain ' "$TMP/out"; then
	ok "compare --mixed compares runs of two backends"
else
	not_ok "compare --mixed (exit $rc)"
fi
echo '{"audits": []}' >"$TMP/an-audit.json"
expect_failure "compare: an audit's JSON" "an audit's report, not a run's report" \
	compare "$TMP/an-audit.json" "$TMP/multi.txt"
run_cb run $FAST --filter '^add_chain$' --format go -o "$TMP/forced.json" "$SUITE"
if [ "$rc" -eq 0 ] && grep -q '^BenchmarkAddChain ' "$TMP/forced.json"; then
	ok "--format says otherwise than -o's name"
else
	not_ok "--format over -o's name (exit $rc)"
fi
expect_failure "-o twice for one format" "run: $TMP/a.txt and $TMP/b.txt would both be Go reports" \
	run -o "$TMP/a.txt" -o "$TMP/b.txt" "$SUITE"

# Ctrl-C keeps what finished: a run of many trials, interrupted once a few
# trials' workers have started (the fixture counts its setups: one per
# worker), writes the trials that finished (and their raw measurements),
# marked as interrupted in both formats, says so, naming every file it
# kept, and exits 130; a stderr that is no terminal gets no escape codes.
ESC=$(printf '\033')
for fmt in go json; do
	echo 0 >"$TMP/counter"
	rm -f "$TMP/int.$fmt"
	CBENCH_PLACED_COUNTER=$TMP/counter "$CB" run --keep-shared --trials 100000 --trial-time 0.002 --warmup 0.001 \
		--retune --filter '^by_worker$' --format "$fmt" -o "$TMP/int.$fmt" -o "$TMP/int-$fmt.csv" "$FIX/placed.so" \
		>"$TMP/out" 2>"$TMP/err" &
	pid=$!
	wait_count "$TMP/counter" 12
	kill -INT "$pid"
	wait "$pid"
	eval "rc_$fmt=\$?"
done
if [ "$rc_go" -eq 130 ] && [ "$rc_json" -eq 130 ] &&
   grep -Eq '^# interrupted: by SIGINT: [0-9]+ of 100000 trials a benchmark at most, 0 benchmarks not run$' "$TMP/int.go" &&
   [ "$(grep -c '^BenchmarkByWorker ' "$TMP/int.go")" -ge 2 ] &&
   grep -q "^cbenchctl: interrupted (Interrupt): kept [0-9]* trials of 100000 at most, of 1 benchmark (0 not run) in $TMP/int.json and $TMP/int-json.csv, marked as an interrupted run$" "$TMP/err" &&
   [ "$(grep -c '^BenchmarkByWorker,' "$TMP/int-json.csv")" -ge 2 ] && ! grep -q "$ESC" "$TMP/err" &&
   "$SCHEMA_PY" - "$TMP/int.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
i = d["config"]["interrupted"]
assert i["signal"] == "SIGINT" and i["trials_asked"] == 100000 and i["benchmarks_not_run"] == 0, i
b = d["benchmarks"][0]
assert 2 <= len(b["trials"]) == i["trials_kept"] < 100000, (len(b["trials"]), i)
import jsonschema
jsonschema.validate(d, json.load(open("docs/schema/run.schema.json")))
PY
then
	ok "Ctrl-C keeps the finished trials, marked interrupted (Go and JSON), exit status 130"
else
	not_ok "Ctrl-C: exit statuses $rc_go/$rc_json; $(grep interrupted "$TMP/int.go")"
fi
# Stopped before any trial finished, nothing is kept and nothing written.
echo 0 >"$TMP/counter"
CBENCH_PLACED_COUNTER=$TMP/counter CBENCH_PLACED_HOLD=1 "$CB" run --retune --filter '^by_worker$' -o "$TMP/none.txt" \
	"$FIX/placed.so" >"$TMP/out" 2>"$TMP/err" &
pid=$!
wait_count "$TMP/counter" 1
kill -INT "$pid"
wait "$pid"
rc=$?
if [ "$rc" -eq 130 ] && [ ! -e "$TMP/none.txt" ] && grep -q 'before any trial finished: nothing kept' "$TMP/err" &&
   ! grep -q "$ESC" "$TMP/err"; then
	ok "Ctrl-C before any trial: nothing kept, no file, exit status 130, no escape codes in a file"
else
	not_ok "Ctrl-C before any trial (exit $rc): $(cat "$TMP/err")"
fi

# On a terminal (script(1) gives one): each row as its benchmark finishes,
# times scaled, throughput, no Go report on the terminal unless -o - asks.
if command -v script >/dev/null; then
	# What the terminal shows: each line after its last erase, no colour.
	NO_COLOR=1 script -qec "$CB run $FAST --filter 'add_chain|copy/size=4096\$' $SUITE" /dev/null \
		>"$TMP/raw" 2>&1
	rc1=$?
	sed 's/.*\x1b\[K//; s/\r$//' "$TMP/raw" >"$TMP/tty"
	NO_COLOR=1 script -qec "$CB run $FAST --filter '^add_chain\$' -o - $SUITE" /dev/null >"$TMP/raw" 2>&1
	rc2=$?
	sed 's/.*\x1b\[K//; s/\r$//' "$TMP/raw" >"$TMP/tty2"
	if [ "$rc1/$rc2" = 0/0 ] && grep -Eq '^benchmark +time/op +interval +cv +rate +cycles/op' "$TMP/tty" &&
	   grep -Eq '^AddChain +[0-9.]+ ns +±[0-9.]+% ' "$TMP/tty" &&
	   grep -Eq '^Copy/size=4096 +[0-9.]+ (ns|µs) .* [0-9.]+ [GM]B/s ' "$TMP/tty" &&
	   ! grep -q '^BenchmarkAddChain' "$TMP/tty" &&
	   grep -q 'no report written (standard output is a terminal): -o FILE writes it, -o - prints it here' "$TMP/tty" &&
	   grep -q '^BenchmarkAddChain ' "$TMP/tty2" && ! grep -q 'no report written' "$TMP/tty2"; then
		ok "on a terminal: rows as benchmarks finish, scaled units, MB/s, the Go report only with -o -"
	else
		cp "$TMP/tty" "$TMP/err"
		not_ok "on a terminal (exit $rc1/$rc2)"
	fi
else
	echo "skip   on a terminal (no script(1))"
fi

# Without root, the worker loses SCHED_FIFO and mlock: the table says so.
chmod o+x "$TMP"
if [ "$(id -u)" -eq 0 ] && command -v runuser >/dev/null && runuser -u nobody -- test -x "$CB" &&
   runuser -u nobody -- test -r "$SUITE"; then
	mkdir -p "$TMP/nobody" && chmod 777 "$TMP/nobody"
	runuser -u nobody -- env HOME="$TMP/nobody" XDG_CACHE_HOME="$TMP/nobody" CBENCH_LOCK_DIR="$TMP/nobody" \
		"$CB" run $FAST --filter '^add_chain$' -o "$TMP/nobody/r.txt" "$SUITE" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ "$rc" -eq 0 ] && grep -q '^warning: the worker ran without real-time priority (SCHED_FIFO: ' "$TMP/err" &&
	   grep -q "^warning: the worker's memory was not locked (mlock: " "$TMP/err"; then
		ok "without root: warnings that the worker lost SCHED_FIFO and mlock"
	else
		not_ok "without root (exit $rc)"
	fi
else
	echo "skip   without root (not root, or nobody cannot reach $CB)"
fi

# Killed at any moment, a run leaves no temporary file: 30 SIGTERMs at
# random delays, whatever each one interrupted (loading, opening outputs,
# measuring, writing, or nothing once the run has ended).
mkdir "$TMP/kills"
i=0
while [ "$i" -lt 30 ]; do
	"$CB" run $FAST --filter '^add_chain$' -o "$TMP/kills/out.txt" --samples "$TMP/kills/s.csv" \
		"$SUITE" >/dev/null 2>&1 &
	pid=$!
	ms=$(($(od -An -N2 -tu2 /dev/urandom) % 600))
	sleep "$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))"
	kill -TERM "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	i=$((i + 1))
done
left=$(ls -A "$TMP/kills" | grep -Ev '^(out\.txt|s\.csv)$')
if [ -n "$left" ]; then
	not_ok "runs killed by SIGTERM at random moments left temporary files: $(echo $left)"
else
	ok "runs killed by SIGTERM at random moments leave no temporary file"
fi
# SIGKILL cannot be handled: the next run writing to that directory
# recognises the dead run's temporary file and removes it.
rm -rf "$TMP/kills" && mkdir "$TMP/kills"
"$CB" run --time-limit 30 -o "$TMP/kills/k.txt" "$FIX/hang.so" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 200); do
	[ -n "$(ls -A "$TMP/kills")" ] && break
	sleep 0.05
done
kill -KILL "$pid"
wait "$pid" 2>/dev/null
stale=$(ls -A "$TMP/kills")
run_cb run $FAST --filter '^add_chain$' -o "$TMP/kills/next.txt" "$SUITE"
if [ -z "$stale" ]; then
	not_ok "stale temporary file: the killed run had made none"
elif [ "$rc" -ne 0 ] || [ "$(ls -A "$TMP/kills")" != next.txt ]; then
	not_ok "stale temporary file $(echo $stale) not removed by the next run (exit $rc): $(ls -A "$TMP/kills")"
else
	ok "the next run removes a temporary file left by a run killed with SIGKILL"
fi
rm -rf "$TMP/kills"

# The report and the samples appear together or not at all: the samples'
# directory goes away while the trials run, and the report must not stay.
rm -rf "$TMP/gone" "$TMP"/report*
mkdir "$TMP/gone"
"$CB" run --trials 10 --trial-time 0.05 --filter add_chain -o "$TMP/report.txt" \
	--samples "$TMP/gone/s.csv" "$SUITE" >/dev/null 2>"$TMP/err" &
pid=$!
for _ in $(seq 100); do
	[ -n "$(ls -A "$TMP/gone")" ] && break	# the temporary file is there
	sleep 0.05
done
rm -rf "$TMP/gone"
wait "$pid"
rc=$?
if [ "$rc" -eq 0 ]; then
	not_ok "samples unwritable at the end: exit status 0"
elif ! grep -q "unable to write $TMP/gone/s.csv" "$TMP/err"; then
	not_ok "samples unwritable at the end: no message: $(cat "$TMP/err")"
elif ls "$TMP"/report* >/dev/null 2>&1; then
	not_ok "samples unwritable at the end: the report stayed: $(ls "$TMP"/report*)"
else
	ok "samples unwritable at the end: no report either"
fi

# ---- objects that misbehave while loading ------------------------------------
# cbenchctl loads no benchmark code itself: a constructor that crashes,
# exits, hangs or forks is a failed load with its reason, for list and run.

# expect_failure sets name and regex: ours are lf_*.
expect_load_failure() {
	lf_name=$1
	lf_regex=$2
	lf_so=$3
	expect_failure "list: $lf_name" "unable to load benchmarks: .*$lf_regex" list "$lf_so"
	expect_failure "run: $lf_name" "unable to load benchmarks: .*$lf_regex" run -o "$TMP/report.txt" "$lf_so"
}

expect_load_failure "constructor crashes" "the object's constructor crashed \(SIGSEGV\)" "$FIX/ctor_crash.so"
expect_load_failure "constructor aborts" "the object's constructor crashed \(SIGABRT\)" "$FIX/ctor_abort.so"
expect_load_failure "constructor calls exit(0)" 'exited with status 0 while loading' "$FIX/ctor_exit0.so"
expect_failure "run: constructor never returns" 'did not finish loading within 1 s' \
	run --time-limit 1 -o "$TMP/report.txt" "$FIX/ctor_hang.so"
expect_failure "list: constructor never returns" 'did not finish loading within 10 s' list "$FIX/ctor_hang.so"
expect_load_failure "constructor forks" 'left processes behind while loading \(1, killed\)' "$FIX/ctor_fork.so"
# What it forked holds our pipe open: the exit is still seen at once.
expect_failure "list: constructor forks, then exits" 'exited with status 0 while loading' list "$FIX/ctor_fork_exit.so"
for ns in namespace no-namespace; do
	[ "$ns" = no-namespace ] && export CBENCH_TEST_NO_NAMESPACE=1
	expect_load_failure "constructor forks a child that leaves the session ($ns)" \
		'left processes behind while loading \(1, killed\)' "$FIX/ctor_setsid.so"
	left=$(ours -x cbfix-setsid)
	if [ -n "$left" ]; then
		not_ok "constructor's child that left the session ($ns): it outlived the load (pids $(echo $left))"
		kill $left 2>/dev/null
	else
		ok "constructor's child that left the session ($ns): nothing it forked outlives the load"
	fi
	unset CBENCH_TEST_NO_NAMESPACE
done
left=$(ours -x cbfix-ctorfork)
if [ -n "$left" ]; then
	not_ok "constructor forks: its child outlived the load (pids $(echo $left))"
	kill $left 2>/dev/null
else
	ok "constructor forks: nothing it forked outlives the load"
fi
if [ -n "$(ours -x cbfix-ctorfork)$(ours -f 'fixtures/ctor_hang')" ]; then
	not_ok "misbehaving constructors: processes left behind"
fi

# ---- outputs that are not regular files ---------------------------------------
# -o and --samples never rename over anything but a regular file: a
# character device is written in place, as a shell redirect would, and its
# write errors count; anything else is refused.  Our own device nodes: a
# regression must not replace the machine's /dev/null or /dev/full.
mkdir "$TMP/dev"
if mknod "$TMP/dev/null" c 1 3 2>/dev/null && mknod "$TMP/dev/full" c 1 7 2>/dev/null; then
	ln -s null "$TMP/dev/null-link"
	run_cb run $FAST --filter '^add_chain$' -o "$TMP/dev/null" --samples "$TMP/dev/null-link" "$SUITE"
	if [ "$rc" -ne 0 ]; then
		not_ok "output to a null device: exit status $rc"
	elif [ ! -c "$TMP/dev/null" ] || [ ! -L "$TMP/dev/null-link" ] ||
	     [ -n "$(find "$TMP/dev" -name '*null?*' ! -name null-link)" ]; then
		not_ok "output to a null device: the node was replaced or a temporary left: $(ls -la "$TMP/dev")"
	else
		ok "output to a null device (and through a link to it) is written in place"
	fi
	for opt in -o --samples; do
		rm -f "$TMP"/report*
		if [ "$opt" = -o ]; then
			run_cb run $FAST --filter '^add_chain$' -o "$TMP/dev/full" "$SUITE"
		else
			run_cb run $FAST --filter '^add_chain$' -o "$TMP/report.txt" --samples "$TMP/dev/full" "$SUITE"
		fi
		if [ "$rc" -eq 0 ]; then
			not_ok "$opt to a full device: exit status 0"
		elif ! grep -q "unable to write $TMP/dev/full: No space left on device" "$TMP/err"; then
			not_ok "$opt to a full device: no ENOSPC message"
		elif [ ! -c "$TMP/dev/full" ] || ls "$TMP"/report* >/dev/null 2>&1; then
			not_ok "$opt to a full device: the node was replaced, or a report left: $(ls -la "$TMP/dev" "$TMP"/report* 2>&1)"
		else
			ok "$opt to a full device fails with ENOSPC and leaves the node"
		fi
	done
else
	echo "skip   outputs to device nodes (mknod refused)"
fi
mkfifo "$TMP/dev/fifo"
expect_failure "output is a FIFO" "unable to write $TMP/dev/fifo: it is a FIFO: cbenchctl writes to regular files and character devices only" \
	run -o "$TMP/dev/fifo" "$SUITE"
expect_failure "samples to a FIFO" "unable to write $TMP/dev/fifo: it is a FIFO" \
	run -o "$TMP/report.txt" --samples "$TMP/dev/fifo" "$SUITE"
[ -p "$TMP/dev/fifo" ] || not_ok "output is a FIFO: the FIFO was replaced"
# Through a symbolic link, the file it names is replaced; the link stays.
echo old >"$TMP/dev/target"
ln -s target "$TMP/dev/link"
run_cb run $FAST --filter '^add_chain$' -o "$TMP/dev/link" "$SUITE"
if [ "$rc" -eq 0 ] && [ -L "$TMP/dev/link" ] && grep -q '^BenchmarkAddChain ' "$TMP/dev/target"; then
	ok "output through a symbolic link replaces the file it names"
else
	not_ok "output through a symbolic link (exit $rc): $(ls -la "$TMP/dev")"
fi
rm -rf "$TMP/dev"

# ---- loop timing points: the per-iteration distribution ------------------------

# tests/fixtures/tpoints.c: every count below follows from the fixture's
# loops, the reps per call and the stride the report gives, whatever the
# host's speed.  On two CPUs too: a benchmark's trial that starts while
# another of its trials measures still looks for its points (a trial that
# found none spares the later ones the looking; one still measuring has
# found nothing yet).
tp_counts() {
	label=$1
	shift
	run_cb run --backend user "$@" --format json -o "$TMP/report.json" "$FIX/tpoints.so"
	if [ "$rc" -eq 0 ] && python3 - "$TMP/report.json" <<'PY'
import json, sys
r = {b["id"]: b for b in json.load(open(sys.argv[1]))["benchmarks"]}
for name in ("plain", "tp_abi1"):
    assert "tpoints" not in r[name], name
    assert all("tpoints" not in t for t in r[name]["trials"]), name
def trials(name):
    b = r[name]
    assert b["tpoints"]["usable"], b
    for t in b["trials"]:
        tp = t["tpoints"]
        assert tp["usable"] and tp["calls"] > 0 and tp["dropped"] == 0, tp
        yield b["n"], tp
for n, tp in trials("tp_known"):
    # 50 points of 64 iterations per rep: 50 n - 1 timings a call.
    assert tp["every"] == 1 and tp["skipped"] == 0, tp
    assert tp["timings"] == tp["calls"] * (50 * n - 1), (n, tp)
    assert tp["iterations"] == 64 * tp["timings"], tp
    q = tp["ns_per_iteration"]
    assert 0 < q["p1"] <= q["p25"] <= q["p50"] <= q["p75"] <= q["p99"], q
    assert tp["perturb_score"] > 0 and tp["min_timing_ns"] > 0, tp
for n, tp in trials("tp_reset"):
    # Two counters per rep: the count goes back 2 n - 1 times a call.
    assert tp["skipped"] == tp["calls"] * (2 * n - 1), (n, tp)
    assert tp["timings"] == tp["calls"] * (40 * n - 1 - (2 * n - 1)), (n, tp)
    assert tp["iterations"] == 32 * tp["timings"], tp
for n, tp in trials("tp_close"):
    # One iteration per point: the stride must skip points, and each
    # timing covers exactly `every` iterations.
    k = tp["every"]
    assert k > 1, tp
    assert tp["timings"] == tp["calls"] * (2000 * n // k - 1), (n, tp)
    assert tp["iterations"] == k * tp["timings"], tp
PY
	then
		ok "timing points: per-iteration counts of known loops (merged, split, strided, reset, ABI 1)$label"
	else
		not_ok "timing points: per-iteration counts of known loops$label"
	fi
}
tp_counts "" --trials 2
if [ "$(nproc)" -ge 2 ]; then
	tp_counts ", two CPUs" --trials 6 --jobs 2
	# One benchmark on two CPUs: its trials 1 and 0 measure at once.
	run_cb run --backend user --trials 6 --jobs 2 --filter '^tp_known$' --format json \
		-o "$TMP/report.json" "$FIX/tpoints.so"
	if [ "$rc" -eq 0 ] && python3 - "$TMP/report.json" <<'PY'
import json, sys
b, = json.load(open(sys.argv[1]))["benchmarks"]
assert len(b["trials"]) >= 6 and all(t["tpoints"]["usable"] for t in b["trials"]), b["trials"]
PY
	then
		ok "timing points: every trial of a benchmark whose trials measure at once"
	else
		not_ok "timing points: a trial of a benchmark whose trials measure at once went without"
	fi
fi

run_cb run --backend user --trials 2 --filter 'tp_known|plain' "$FIX/tpoints.so"
if [ "$rc" -eq 0 ] && grep -Eq '^BenchmarkTpKnown [0-9]+ [0-9.]+ ns/op .* [0-9.]+ ns/iter$' "$TMP/out" &&
   ! grep -q '^BenchmarkPlain .*ns/iter' "$TMP/out" &&
   grep -q '^# BenchmarkTpKnown: ns/iter p1 ' "$TMP/out" &&
   grep -q '^  per iteration: p1 ' "$TMP/err"; then
	ok "timing points: ns/iter on Go result lines, the distribution in a comment and the table"
else
	not_ok "timing points in the Go format and the table"
fi

# ---- bad input: a clear message, non-zero exit, no output file --------------

printf 'not a shared object\n' >"$TMP/notelf.so"
expect_failure "not an ELF" 'unable to load benchmarks: .* is not an ELF file' run -o "$TMP/report.txt" "$TMP/notelf.so"
expect_failure "not loadable (undefined symbol)" 'cannot load .*undefined symbol: cbench_fixture_nowhere' run -o "$TMP/report.txt" "$FIX/unresolved.so"
expect_failure "not loadable (an executable)" 'unable to load benchmarks: .*(cannot load|not an x86-64 shared object)' run -o "$TMP/report.txt" "$CB"
expect_failure "missing file" 'unable to load benchmarks: .*No such file' run -o "$TMP/report.txt" "$TMP/absent.so"
expect_failure "no benchmarks" 'registers no benchmarks' run -o "$TMP/report.txt" "$FIX/empty.so"
expect_failure "newer ABI" 'ABI version 4, newer than this cbenchctl knows \(versions 1 to 3\)' run -o "$TMP/report.txt" "$FIX/newer_abi.so"
expect_failure "bad descriptor" "descriptor's name is not an identifier" run -o "$TMP/report.txt" "$FIX/bad_desc.so"
expect_failure "two benchmarks, one report name" 'benchmarks (a_b and aB|aB and a_b) would both be reported as BenchmarkAB: rename one' run -o "$TMP/report.txt" "$FIX/same_report_name.so"
expect_failure "a report name benchstat cannot read" 'would be reported as Benchmark1x, which benchstat does not read' list "$FIX/bad_report_name.so"
expect_failure "name and parameter name too long together" 'name and parameter name together are longer than 63 bytes' run -o "$TMP/report.txt" "$FIX/long_names.so"
expect_failure "descriptor with a wild run pointer" 'run or setup function is not code in the object' run -o "$TMP/report.txt" "$FIX/bad_pointer.so"
expect_failure "section entry that is no descriptor" 'descriptor pointer points outside the object' run -o "$TMP/report.txt" "$FIX/bad_section.so"
expect_failure "ops_per_rep of UINT64_MAX" 'benchmark huge has ops_per_rep = 18446744073709551615, more than 2\^40' run -o "$TMP/report.txt" "$FIX/huge_counts.so"
expect_failure "list: ops_per_rep of UINT64_MAX" 'benchmark huge has ops_per_rep' list "$FIX/huge_counts.so"
expect_failure "bytes_per_rep x parameter over 2^40" 'benchmark copy at size=1099511627776 has bytes_per_rep x size = 1073741824 x 1099511627776, more than 2\^40 bytes per rep' list "$FIX/huge_bytes.so"
expect_failure "list: newer ABI" 'ABI version 4' list "$FIX/newer_abi.so"
expect_failure "unwritable output" "unable to write $TMP/nodir/report.txt: No such file" run -o "$TMP/nodir/report.txt" "$SUITE"
expect_failure "output is a directory" "unable to write $TMP: Is a directory" run -o "$TMP" "$SUITE"
expect_failure "unwritable samples" "unable to write $TMP/nodir/s.csv" run -o "$TMP/report.txt" --samples "$TMP/nodir/s.csv" "$SUITE"
expect_failure "filter matches nothing" "no benchmark in .* matches 'nothing_matches'" run --filter nothing_matches -o "$TMP/report.txt" "$SUITE"
if [ ! -d /sys/module/cbench ]; then
	expect_failure "kmod backend unavailable" 'unable to use the kmod backend' run --backend kmod -o "$TMP/report.txt" "$SUITE"
fi
expect_failure "CPU not available" 'unable to use CPU 1000' run --cpu 1000 -o "$TMP/report.txt" "$SUITE"
expect_failure "bad --trials" "^cbenchctl run: see 'cbenchctl run --help'" run --trials 0 "$SUITE"
expect_failure "bad --shared-wait" "^cbenchctl: --shared-wait wants a number of seconds, 0 or more, or auto, not '-1'" run --shared-wait -1 "$SUITE"
expect_failure "--shared-wait inf" "^cbenchctl: --shared-wait wants a number of seconds, 0 or more, or auto, not 'inf'" run --shared-wait inf "$SUITE"
# A usage error: exit status 2, the reason and where to look, not the help.
run_cb run --trials 0 "$SUITE"
if [ "$rc" -eq 2 ] && [ "$(wc -l <"$TMP/err")" -eq 2 ] &&
   grep -q "^cbenchctl: --trials wants a count from 1 to 100000, not '0'$" "$TMP/err"; then
	ok "a usage error: status 2, two lines (why, and where to look)"
else
	not_ok "a usage error: status $rc"
fi
# Every subcommand: a wrong command line is status 2 with a reason.
bad=
for args in "frob" "list" "list --filter x" "lab" "doctor --bogus" "info --bogus" "plot x.json" \
	"compare a.txt" "audit" "profile --by file x.so" "run --nonsense x.so"; do
	# shellcheck disable=SC2086
	"$CB" $args >/dev/null 2>"$TMP/err"
	st=$?
	if [ "$st" -ne 2 ] || grep -q 'Usage:' "$TMP/err" || ! grep -q "see 'cbenchctl.*--help'" "$TMP/err"; then
		bad="$bad [$args: $st]"
	fi
done
if [ -z "$bad" ]; then
	ok "every subcommand: a wrong command line is status 2, a reason and the --help to read"
else
	not_ok "usage errors:$bad"
fi
expect_failure "bad --backend" '--backend must be user, kmod or auto' run --backend fast "$SUITE"
expect_failure "bad --format" '--format must be go, json, lnt, bmf or junit' run --format xml "$SUITE"
expect_failure "no object" 'run wants exactly one benchmark object' run
expect_failure "unknown option" "unknown or incomplete option '--frobnicate'" run --frobnicate "$SUITE"

# A truncated object (the dynamic loader raised SIGBUS in cbenchctl on
# these) is refused before anything maps it.
for cut in 1000 16244; do
	head -c "$cut" "$SUITE" >"$TMP/cut$cut.so"
	expect_failure "list: object cut at $cut bytes" "unable to load benchmarks: .*cut$cut.so is truncated or malformed: .* past its $cut bytes" list "$TMP/cut$cut.so"
	expect_failure "run: object cut at $cut bytes" "unable to load benchmarks: .*cut$cut.so is truncated or malformed" run -o "$TMP/report.txt" "$TMP/cut$cut.so"
done

# What is not a regular file is refused without blocking: a FIFO with no
# writer hung list, run and compare, and /dev/zero hung compare.
mkfifo "$TMP/fifo"
expect_failure "list: a FIFO" "unable to load benchmarks: $TMP/fifo is a FIFO, not a shared object" list "$TMP/fifo"
expect_failure "run: a FIFO" "unable to load benchmarks: $TMP/fifo is a FIFO, not a shared object" run -o "$TMP/report.txt" "$TMP/fifo"
expect_failure "list: a directory" "unable to load benchmarks: $TMP is a directory, not a shared object" list "$TMP"
expect_failure "compare: a FIFO" "unable to read $TMP/fifo: it is a FIFO, not a report" compare "$TMP/fifo" "$TMP/fifo"
expect_failure "compare: /dev/zero" "unable to read /dev/zero: it is a character device, not a report" compare /dev/zero /dev/zero
expect_failure "compare: a directory" "unable to read $TMP: it is a directory, not a report" compare "$TMP" "$TMP"
# A sparse file: costs no disk, and nothing reads its 1.1 GiB of zeros.
truncate -s 1100M "$TMP/huge.txt"
expect_failure "compare: a file over the size limit" "unable to read $TMP/huge.txt: it is larger than 1024 MiB, the most compare reads" compare "$TMP/huge.txt" "$TMP/huge.txt"
rm -f "$TMP/huge.txt" "$TMP/fifo"

expect_failure "compare: missing file" "unable to read $TMP/absent.txt" compare "$TMP/first.txt" "$TMP/absent.txt"
expect_failure "compare: no result lines" 'has no result lines' compare "$TMP/first.txt" "$TMP/notelf.so"

# Allocation counting (Caliper): exact counts per op, a measured zero
# printed as 0, in Go's -benchmem units.
run_cb run $FAST -o "$TMP/report.txt" "$FIX/allocs.so"
if [ "$rc" -ne 0 ]; then
	not_ok "allocation counting: exit status $rc"
elif ! grep -Eq '^BenchmarkThreeOf64 [0-9]+ .* 192 B/op 3 allocs/op$' "$TMP/report.txt" ||
     ! grep -Eq '^BenchmarkAligned4k [0-9]+ .* 4096 B/op 1 allocs/op$' "$TMP/report.txt" ||
     ! grep -Eq '^BenchmarkNone [0-9]+ .* 0 B/op 0 allocs/op$' "$TMP/report.txt"; then
	cp "$TMP/report.txt" "$TMP/out"
	not_ok "allocation counting: want 192 B/op 3 allocs/op, 4096 B/op 1 allocs/op, 0 and 0"
else
	ok "allocation counting: exact per op, a measured zero as 0"
fi

# Per-rep hooks (Caliper's macrobenchmark instrument).  fresh_input fails
# its trial unless every call ran between its own before_rep() and
# after_rep(); heap_sort checks it sorted fresh input.
KFIX=build/tests/kfixtures
run_cb run $FAST -o "$TMP/report.txt" --format json --filter '^fresh_input$' "$KFIX/per_rep.so"
if [ "$rc" -ne 0 ]; then
	not_ok "per-rep hooks: exit status $rc"
elif ! grep -q '"failed_trials":0' "$TMP/report.txt" ||
     ! grep -q '"tuning":"per-rep","instrument":"per-rep","n":1,' "$TMP/report.txt" ||
     [ "$(grep -o '"status":"ok","cause":"[a-z]*","n":1,' "$TMP/report.txt" | wc -l)" -ne 2 ]; then
	cp "$TMP/report.txt" "$TMP/out"
	not_ok "per-rep hooks: want every trial good, one call per measurement, no tuning"
else
	ok "per-rep hooks: each call between its hooks, one call per measurement"
fi
run_cb run $FAST -o "$TMP/report.txt" --filter 'keys=1024$|walk' build/examples/per_rep.so
if [ "$rc" -eq 0 ] && grep -Eq '^BenchmarkHeapSort/keys=1024 [0-9]+ ' "$TMP/report.txt" &&
   grep -Eq '^BenchmarkColdWalk [0-9]+ ' "$TMP/report.txt" && grep -q '^# tuning: per-rep' "$TMP/report.txt" &&
   ! grep -q 'failed' "$TMP/report.txt"; then
	ok "per-rep examples: a sort of fresh input, cold and warm walks"
else
	not_ok "per-rep examples: exit status $rc"
fi
run_cb list "$KFIX/per_rep.so"
if [ "$rc" -eq 0 ] && grep -q '^fresh_input .*instruments=per-rep$' "$TMP/out" &&
   ! grep -q 'instruments=' "$(run_cb list "$SUITE"; echo "$TMP/out")"; then
	ok "list names the instrument"
else
	not_ok "list names the instrument"
fi

# An object built with ABI 1 (no hooks in its descriptor) still runs, as a
# reps benchmark: what follows its descriptor is not read as hooks.
run_cb run $FAST -o "$TMP/report.txt" "$FIX/abi1.so"
if [ "$rc" -eq 0 ] && grep -q '^BenchmarkOldAdd [0-9]* ' "$TMP/report.txt" &&
   grep -q '^# tuning: tuned' "$TMP/report.txt" &&
   [ "$(run_cb list "$FIX/abi1.so"; cat "$TMP/out")" = "old_add BenchmarkOldAdd" ]; then
	ok "an ABI 1 object runs as it did"
else
	not_ok "an ABI 1 object runs as it did: exit status $rc"
fi

# An object built with ABI 2 (no keys in its descriptor) runs its one
# parameter as it did: what follows its descriptor is not read as keys.
run_cb run $FAST -o "$TMP/report.txt" "$FIX/abi2.so"
if [ "$rc" -eq 0 ] && grep -q '^BenchmarkOldSweep/n=2 [0-9]* ' "$TMP/report.txt" &&
   grep -q '^BenchmarkOldSweep/n=3 [0-9]* ' "$TMP/report.txt" && ! grep -q 'failed' "$TMP/report.txt" &&
   [ "$(run_cb list "$FIX/abi2.so"; sort "$TMP/out" | tr '\n' ' ')" = \
     "old_sweep/n=2 BenchmarkOldSweep/n=2 old_sweep/n=3 BenchmarkOldSweep/n=3 " ]; then
	ok "an ABI 2 object runs its parameter as it did"
else
	not_ok "an ABI 2 object runs its parameter as it did: exit status $rc"
fi

# Bad hooks fail the trial, saying which hook and why.
check_failed_hook() {
	name=$1
	regex=$2
	shift 2
	run_cb run $FAST "$@" -o "$TMP/report.txt" "$KFIX/per_rep.so"
	if [ "$rc" -eq 0 ]; then
		not_ok "$name: exit status 0"
	elif ! grep -Eq -- "$regex" "$TMP/err" ||
	     ! grep -Eq "^# Benchmark[A-Za-z]+ trial 1 failed: .*$regex" "$TMP/report.txt"; then
		cp "$TMP/report.txt" "$TMP/out"
		not_ok "$name: no failed trial matching /$regex/"
	else
		ok "$name"
	fi
}
check_failed_hook "after_rep() that fails" "the benchmark's after_rep\\(\\) returned -5" --filter '^after_fails$'
check_failed_hook "before_rep() that crashes" 'signal SIG(SEGV|ILL)' --filter '^before_crashes$'
check_failed_hook "before_rep() that hangs" 'timeout after 0.5s' --filter '^before_hangs$' --time-limit 0.5

run_cb run --help
if [ "$rc" -eq 0 ] && grep -q -- '--retune' "$TMP/out"; then ok "run --help"; else not_ok "run --help"; fi

# --backend both and --quiet-mode: what they refuse, before anything runs.
expect_failure "run --backend both wants a Go report" "run --backend both writes one Go report" \
	run --backend both --format json -o "$TMP/report.json" "$SUITE"
expect_failure "run --backend both and --samples" "run --backend both writes one Go report" \
	run --backend both --samples "$TMP/report.csv" "$SUITE"
if ! grep -qs '^cbench ' /proc/modules; then
	expect_failure "run --backend both without cbench.ko" \
		"unable to run --backend both: cbench.ko is not loaded.*use --backend user" \
		run --backend both -o "$TMP/report.txt" "$SUITE"
fi
expect_failure "run --quiet-mode with --backend user" "--quiet-mode is how cbench.ko keeps its samples quiet" \
	run --backend user --quiet-mode lvt -o "$TMP/report.txt" "$SUITE"
expect_failure "run --quiet-mode nonsense" "--quiet-mode must be cli or lvt, not 'off'" \
	run --quiet-mode off -o "$TMP/report.txt" "$SUITE"
expect_failure "audit --quiet-mode with --backend user" "--quiet-mode is how cbench.ko keeps its samples quiet" \
	audit --backend user --quiet-mode lvt -o "$TMP/report.txt" "$SUITE" "$SUITE"

finish
