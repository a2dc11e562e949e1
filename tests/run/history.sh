#!/bin/sh
# Integration tests of `cbenchctl store` and `cbenchctl history` on the user
# backend: a series of 30 commits of one object (tests/fixtures/history.c)
# whose "chain" benchmark takes 2 % longer from commit 16 on (2040 adds a
# rep instead of 2000, a real code change), the others unchanged, one run a
# commit into a store with the objects kept; history must name the step at
# order 16 (plus or minus 1) for that benchmark, --confirm must confirm it
# with an audit and nothing else, and an A/A series of 30 must give no
# change point confirmed.  Then the reports (JSON, Otava's CSV, HTML), bisection,
# LNT and Bencher round trips, and the store's bad input: other machines and
# objects kept apart, refusals, truncated and foreign files, concurrent
# writers.
# Nothing here asserts speed or a steady clock.  The step is several times
# the largest a busy host moved one run's est-cycles/op (0.3 % on a 2-vCPU VM
# whose one-cycle chains another tenant slowed for seconds at a time): such a
# run alone may read as a change point of its own (a change undone at the
# next commit looks the same), which --confirm's audit then refutes, so the
# checks of what is found ask for the step and allow such excursions, and
# the checks of what is confirmed ask for the step alone.  An audit that runs
# out of its budget is inconclusive, which fails only the checks that need a
# verdict.
#
# Usage: tests/run/history.sh   (from the top of the tree, after make itest's deps)
set -u

. tests/run/lib.sh

OUTPUT_GLOB='report* *.tmp'
FIXTURE=tests/fixtures/history.c
CC=${CC:-cc}

# build DIR COMMIT ADDS: the fixture as COMMIT's build, into DIR/history.so.
build() {
	mkdir -p "$1" &&
	$CC -O2 -fPIC -shared -Iinclude -DHISTORY_ADDS="$3" -DHISTORY_COMMIT="\"$2\"" \
		-o "$1/history.so" "$FIXTURE"
}

# series STORE PREFIX STEP_ADDS: 30 commits PREFIX1..PREFIX30, orders 1..30,
# STEP_ADDS adds from commit 16 on; one run each into STORE, objects kept,
# trials on a shared core kept: what the series holds must not hang on the
# host's neighbours (a run whose every trial was shared has no figure to
# store).
# The commits are measured in a shuffled order (order 7i mod 31 for the i-th
# run), as a lab backfilling history would: a host's slow moment lasts
# several runs, and measured in commit order it would be a step of its own
# (it was, at order 11, on a 2-vCPU VM whose host moved whole runs by 0.4 %).
series() {
	for i in $(seq 1 30); do
		n=$((7 * i % 31))
		adds=2000
		[ "$n" -ge 16 ] && adds=$3
		build "$TMP/$2$n" "$2$n" "$adds" || return 1
		run_cb run --backend user --keep-shared --trials 3 --trial-time 0.005 --store "$1" --commit "$2$n" \
			--order "$n" --keep-object "$TMP/kept" -o "$TMP/$2$n/run.json" "$TMP/$2$n/history.so"
		[ "$rc" -eq 0 ] || { cat "$TMP/err"; return 1; }
	done
}

# run_of N: the run (as numbered by the store, 1 to 30) that measured order N.
run_of() {
	echo $((9 * $1 % 31))
}

# ---- made-up series: every shape, the gate, keeping a store clean ---------------
# Stores built from made-up reports (tests/run/history_reports.py: a real
# report of the fixture, its benchmarks renamed and their figures set), so
# that nothing here depends on the host's speed or noise.

# synth STORE N SEED NOISE "SPEC": N commits c1..cN, orders 1..N, one made-up
# run each; SPEC is evaluated per commit $i and prints NAME=FACTOR words.
synth() {
	rm -f "$1"
	for i in $(seq 1 "$2"); do
		# shellcheck disable=SC2046
		python3 tests/run/history_reports.py "$TEMPLATE" "$TMP/synth-$i.json" "$i" "$(($3 + i))" "$4" \
			$(eval "$5") && "$CB" store add "$1" "$TMP/synth-$i.json" --commit "c$i" --order "$i" \
			2>>"$TMP/synth.err" || return 1
	done
}

# xxhash I: commits 6-9 of 12 (or 14-17 of 30) 2.35 times slower on two of four series.
xxhash() {
	f=1
	if [ "$N" -eq 12 ] && [ "$1" -ge 6 ] && [ "$1" -le 9 ]; then f=2.35; fi
	if [ "$N" -eq 30 ] && [ "$1" -ge 14 ] && [ "$1" -le 17 ]; then f=2.35; fi
	echo "BenchmarkHash/algo=xxh3,len=64=1 BenchmarkHash/algo=xxh3,len=512=$f" \
		"BenchmarkHash/algo=xxh3,len=4096=$f BenchmarkHash/algo=xxh64,len=4096=1"
}

synthetic() {
	build "$TMP/tmpl" t 2000 &&
		run_cb run --backend user --keep-shared --trials 3 --trial-time 0.002 --format json -o "$TMP/tmpl/run.json" \
			"$TMP/tmpl/history.so"
	TEMPLATE=$TMP/tmpl/run.json
	for N in 12 30; do
		synth "$TMP/x$N.db" "$N" "$N" 0.0005 'xxhash $i' || { not_ok "made-up store of $N"; cat "$TMP/synth.err"; }
		run_cb history --format json -o "$TMP/x$N.json" "$TMP/x$N.db"
		if [ "$rc" -eq 0 ] && python3 - "$TMP/x$N.json" "$N" <<'PY'
import json, sys
r, n = json.load(open(sys.argv[1])), int(sys.argv[2])
at = (6, 10) if n == 12 else (14, 18)
cps = {b["name"]: [c["order"] for c in b["change_points"]] for b in r["benchmarks"]}
want = {"Hash/algo=xxh3,len=64": [], "Hash/algo=xxh3,len=512": list(at),
        "Hash/algo=xxh3,len=4096": list(at), "Hash/algo=xxh64,len=4096": []}
assert cps == want, cps
PY
		then
			ok "a slowdown undone 4 commits later, $N commits: its 4 change points with the defaults, nothing else"
		else
			not_ok "the undone slowdown over $N commits"
		fi
	done
	run_cb history --fail-on slower --min-effect 1 "$TMP/x12.db"
	if [ "$rc" -eq 0 ] && grep -q 'gate (--fail-on slower, the newest commit): passed: 4 series, none slower by 1.00% or more$' "$TMP/out"; then
		ok "the gate at commit 12: the slowdown of 6-9 was undone; it passes (the report keeps it)"
	else
		not_ok "the gate passes an undone slowdown"
	fi
	run_cb history --fail-on slower --min-effect 1 --since 7 "$TMP/x12.db"
	if [ "$rc" -eq 0 ]; then
		ok "the gate since order 7 passes: the newest level is the old one"
	else
		not_ok "the gate since order 7"
	fi
	run_cb history --fail-on slower --min-effect 1 --since c5 --filter 'hash/algo=xxh3,len=512' "$TMP/x12.db"
	[ "$rc" -eq 0 ] && ok "--since takes a commit; --filter takes run's form" || not_ok "--since c5 --filter hash/..."
	# One run read +40 % apart at order 5 on one series, and a step at 9 on
	# it: the run is set aside (text, JSON, HTML), the step stays a change point.
	synth "$TMP/alone.db" 12 9 0.0005 \
		'echo "BenchmarkHash/len=64=$([ $i -eq 5 ] && echo 1.4 || { [ $i -ge 9 ] && echo 1.05 || echo 1; })"'
	run_cb history --format json -o "$TMP/alone.json" "$TMP/alone.db"
	if [ "$rc" -eq 0 ] && python3 - "$TMP/alone.json" <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))["benchmarks"][0]
assert [c["order"] for c in b["change_points"]] == [9], b["change_points"]
x = b["excursions"]
assert [(e["order"], e["commit"]) for e in x] == [(5, "c5")], x
assert 39 < x[0]["change_pct"] < 41, x
PY
	then
		ok "one run apart from those around it: set aside as an excursion, not two change points"
	else
		not_ok "one run alone set aside (JSON)"
	fi
	run_cb history "$TMP/alone.db"
	grep -Eq '^  order 5 \(commit c5\), run [0-9]+ alone: \+(39|40)\.[0-9]+ % from the runs around it, set aside .*: measure order 5 again$' "$TMP/out" &&
		grep -q '1 change point$' "$TMP/out" && ok "the text report names the run set aside and what to do" ||
		not_ok "the text report of a run set aside"
	# The gate leaves it out: a +1 % step at the newest commit is judged on
	# the series' 0.05 % noise, not on the run 40 % apart.
	synth "$TMP/alone-new.db" 12 9 0.0005 \
		'echo "BenchmarkHash/len=64=$([ $i -eq 5 ] && echo 1.4 || { [ $i -eq 12 ] && echo 1.01 || echo 1; })"'
	run_cb history --fail-on slower --min-effect 0.5 "$TMP/alone-new.db"
	[ "$rc" -eq 3 ] && grep -q 'FAILED: 1 series slower by 0.50% or more:' "$TMP/out" &&
		ok "the gate leaves a run set aside out (a +1 % newest commit fails at --min-effect 0.5)" ||
		not_ok "the gate and a run set aside (status $rc)"
	# Set aside right before the step: listed as such, not as a run too noisy to place it.
	synth "$TMP/alone8.db" 12 9 0.0005 \
		'echo "BenchmarkHash/len=64=$([ $i -eq 8 ] && echo 1.4 || { [ $i -ge 9 ] && echo 1.05 || echo 1; })"'
	run_cb history --format json -o "$TMP/alone8.json" "$TMP/alone8.db"
	if [ "$rc" -eq 0 ] && python3 - "$TMP/alone8.json" <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))["benchmarks"][0]
c = b["change_points"]
assert [(x["order"], x["last_before"]["order"], x["unclear"]) for x in c] == [(9, 7, 0)], c
assert [e["order"] for e in b["excursions"]] == [8], b["excursions"]
PY
	then
		ok "a run set aside next to a step is not counted as too noisy to place it"
	else
		not_ok "a run set aside next to a step"
	fi
	run_cb history --next "$TMP/alone.db"
	[ "$rc" -eq 0 ] && grep -q '^5 c5  Hash/len=64 on .*alone at order 5, set aside: measure it again$' "$TMP/out" &&
		ok "--next lists the run set aside, to measure again" || not_ok "--next and a run set aside"
	run_cb history --format html -o "$TMP/alone.html" "$TMP/alone.db"
	grep -q 'class="run excursion"' "$TMP/alone.html" && grep -q 'Set aside, one run apart' "$TMP/alone.html" &&
		ok "the HTML page marks the run set aside" || not_ok "the HTML page and a run set aside"
	# A slowdown at the newest commit.
	synth "$TMP/new.db" 12 7 0.0005 'echo "BenchmarkHash/len=64=1 BenchmarkHash/len=512=$([ $i -eq 12 ] && echo 1.2 || echo 1)"'
	run_cb history --fail-on slower --filter BenchmarkHash/len=512 "$TMP/new.db"
	if [ "$rc" -eq 3 ] && grep -q 'FAILED: 1 series slower by 0.20% or more:' "$TMP/out" &&
		grep -Eq '^  Hash/len=512 on .*: \+(19|20|21)\.[0-9]+ % .* at order 12 \(commit c12\) against orders 1 to 11 \(commit c11 the last before\)$' "$TMP/out"; then
		ok "a slowdown at the newest commit fails the gate, named with its commits (Go form of --filter)"
	else
		not_ok "the gate on a slowdown at the newest commit"
	fi
	expect_failure "a gate over no series is an error naming the filter and the series" \
		"no series of .* matches --filter nothing.*its series: Hash/len=512 on" \
		history --fail-on slower --filter nothing "$TMP/new.db"
	# Keeping the store clean.
	cp "$TMP/new.db" "$TMP/new.copy"
	python3 - "$TMP/synth-3.json" "$TMP/edited.json" <<'PY'
import sys
t = open(sys.argv[1]).read()
# A trial's ns/op made a string, the digest left as it was.
at = t.index('"trials":[', t.index('"benchmarks":'))
t = t[:at] + t[at:].replace('"ns_per_op":', '"ns_per_op":"', 1).replace(',"min_ns', '",' + '"min_ns', 1)
open(sys.argv[2], "w").write(t)
PY
	expect_failure "a report edited after it was written is refused" "edited.json to .*: edited after it was written" \
		store add "$TMP/new.db" "$TMP/edited.json" --commit c99 --order 99
	python3 - "$TMP/synth-3.json" "$TMP/typed.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r.pop("digest")
r["benchmarks"][1]["trials"][1]["ns_per_op"] = "fast"
json.dump(r, open(sys.argv[2], "w"))
PY
	expect_failure "a trial that is not a number is refused, named" \
		"typed.json to .*: benchmarks\[1\] \(BenchmarkHash/len=512\)\.trials\[1\]\.ns_per_op is a string, not number or null" \
		store add "$TMP/new.db" "$TMP/typed.json" --commit c99 --order 99
	python3 - "$TMP/synth-3.json" "$TMP/again.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r.pop("digest")
r["benchmarks"][0]["trials"][0]["ns_per_op"] *= 1.01
json.dump(r, open(sys.argv[2], "w"))
PY
	expect_failure "the same run edited is still the same run" "this run is in the store already \(run 3," \
		store add "$TMP/new.db" "$TMP/again.json" --commit c3 --order 3
	cmp -s "$TMP/new.db" "$TMP/new.copy" && ok "refused reports left the store as it was" ||
		not_ok "a refused report changed the store"
	expect_failure "run --store with a commit at another order: refused before measuring" \
		"commit c3 is order 3 in this store, not 40; nothing was measured" \
		run --store "$TMP/new.db" --commit c3 --order 40 "$TMP/tmpl/history.so"
	expect_failure "run --store into a missing directory: refused before measuring" \
		"its directory $TMP/none does not exist; nothing was measured" \
		run --store "$TMP/none/s.db" --commit c1 --order 1 "$TMP/tmpl/history.so"
	cmp -s "$TMP/new.db" "$TMP/new.copy" && [ ! -e "$TMP/none" ] ||
		not_ok "run --store's refusals changed something"
	expect_failure "store remove of a run that is not there" "no run 99 is in" store remove "$TMP/new.db" 99
	run_cb store remove "$TMP/new.db" --commit c12
	if [ "$rc" -eq 0 ] && grep -q '^run 12 removed: order 12, commit c12, history.so on ' "$TMP/err"; then
		run_cb history --fail-on slower --min-effect 1 --filter len=512 "$TMP/new.db"
		[ "$rc" -eq 0 ] && ok "store remove --commit: the run goes, and its slowdown with it" ||
			not_ok "history after store remove"
	else
		not_ok "store remove --commit"
	fi
	run_cb history --format html -o "$TMP/report.html" "$TMP/x12.db"
	if [ "$rc" -eq 0 ] && python3 - "$TMP/report.html" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
h2 = re.findall(r"<h2>(.*?) <small>", t)
assert h2 == ["Hash/algo=xxh3,len=64", "Hash/algo=xxh3,len=512", "Hash/algo=xxh3,len=4096",
              "Hash/algo=xxh64,len=4096"], h2
assert t.index('<table class="summary">') < t.index("<svg"), "summary first"
assert t.count('class="change unasked"') == 4 and t.count("<tr><td>Hash/") == 4
assert t.count('class="segment"') == 3 + 3 + 1 + 1, t.count('class="segment"')
PY
	then
		ok "--format html: a summary of what changed first, series in their parameters' order, a level per segment"
	else
		not_ok "--format html's summary, order and segments"
	fi
}

if [ "${HISTORY_ONLY:-}" = synthetic ]; then
	synthetic
	finish
	exit
fi
synthetic

STEP=$TMP/step.db
AA=$TMP/aa.db

if series "$STEP" c 2040 && grep -q "run 30 added to $STEP: order 24, commit c24; object kept as" \
	"$TMP/err"; then
	ok "30 commits, one run each, stored with their objects (run --store --keep-object)"
else
	not_ok "30 commits stored"
fi

# ---- the step -----------------------------------------------------------------

run_cb history --format json -o "$TMP/step.json" "$STEP"
if [ "$rc" -eq 0 ] && python3 - "$TMP/step.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
b = {x["name"]: x for x in r["benchmarks"]}
assert set(b) == {"Chain", "Steady", "Imul"}, b.keys()
for x in b.values():
    assert x["runs"] == 30 and x["object"] == "history.so" and x["backend"] == "user", x
    assert x["metric"] == "est-cycles", x["metric"]
cps = b["Chain"]["change_points"]
# The step: the change point nearest 16.  Any other, on any series, is one
# run's excursion on a busy host (an imul chain's est-cycles/op read 1.6 %
# low for a run whose reference another tenant slowed throughout), which the
# audit refutes: the confirmed ones are checked below.
c = min(cps, key=lambda x: abs(x["order"] - 16))
# At 16 plus or minus 1; or, where runs next to the step were measured too
# noisily to tell their side (a busy host), between the clear runs either
# side of them, and no wider than those runs.
before = c["last_before"]["order"]
# Runs between set aside alone (a busy moment) are listed apart from the unclear ones.
aside = sum(1 for x in b["Chain"].get("excursions", []) if before < x["order"] < c["order"])
if not 15 <= c["order"] <= 17:
    assert before < 16 <= c["order"] and c["untested"] == 0, c
    assert c["unclear"] + aside == c["order"] - before - 1, c
assert c["commit"] == "c%d" % c["order"], c
# +2 % by construction (2040 adds against 2000): the interval holds it or
# lies near it, and the estimate is within a tenth of it.
assert 1.8 < c["change_pct"] < 2.2 and c["lower"] < c["change_pct"] < c["upper"], c
assert c["confirmed"] is False and c["confirmation"] == "not asked", c
assert c["untested"] == 0 and before == c["order"] - 1 - c["unclear"] - aside, c
for k in ("order", "commit", "change_pct", "lower", "upper", "confirmed"):
    assert k in c, k
PY
then
	ok "history --format json: the +2 % step at order 16 (+-1), for Chain only"
else
	not_ok "history names the step at order 16 for Chain only"
fi
# Chain's series, for whoever reads a failure below.
python3 - "$TMP/step.json" >"$TMP/chain.txt" <<'PY'
import json, sys
for b in json.load(open(sys.argv[1]))["benchmarks"]:
    if b["name"] == "Chain":
        print(" ".join("%d:%.5f" % (p["order"], p["value"]) for p in b["points"]))
        print(b["change_points"] and {k: b["change_points"][0][k] for k in ("order", "change_pct", "p")})
PY

run_cb history --confirm --format json -o "$TMP/confirm.json" "$STEP"
if [ "$rc" -eq 0 ] && grep -Eq 'auditing Chain, order [0-9]+ \(commit c[0-9]+\) against order [0-9]+ \(commit c[0-9]+\)$' \
	"$TMP/err" && python3 - "$TMP/confirm.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["config"]["confirm"] is True and r["confirmed_slower"] == 1, r
cps = [x for x in r["benchmarks"] if x["name"] == "Chain"][0]["change_points"]
c = min(cps, key=lambda x: abs(x["order"] - 16))
assert c["confirmed"] is True and c["confirmation"] == "confirmed", c
# Nothing else confirmed, on any series.
others = [(x["name"], o["order"]) for x in r["benchmarks"] for o in x["change_points"]
          if o["confirmed"] and o is not c]
assert not others, others
assert c["audit"]["verdict"] == "slower" and c["audit"]["lower"] > 0, c
PY
then
	ok "history --confirm: the audit of the kept objects confirms it"
else
	not_ok "history --confirm confirms the step"
	sed 's/^/       | /' "$TMP/chain.txt"
fi

for f in step confirm; do
	if "$SCHEMA_PY" - docs/schema/history.schema.json "$TMP/$f.json" <<'PY'
import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])))
PY
	then
		ok "$f.json is valid against docs/schema/history.schema.json"
	else
		not_ok "$f.json against docs/schema/history.schema.json"
	fi
done

# The gate names the step where history placed it (checked above: at 16
# plus or minus 1, or between the clear runs either side of runs too
# noisy to tell their side).
STEP_AT=$(python3 -c '
import json, sys
cps = {x["name"]: x for x in json.load(open(sys.argv[1]))["benchmarks"]}["Chain"]["change_points"]
print(min(cps, key=lambda x: abs(x["order"] - 16))["order"] if cps else "none")' "$TMP/step.json")
run_cb history --confirm --fail-on slower --since 12 "$STEP"
if [ "$rc" -eq 3 ] && grep -q 'gate (--fail-on slower, everything after order 12): FAILED: 1 series slower' \
	"$TMP/out" && grep -Eq "^  Chain on .*: \\+(1\\.[89]|2\\.[01])[0-9] % .* at order $STEP_AT \\(commit c$STEP_AT\\) against orders 1 to " "$TMP/out" &&
	grep -q '^    confirmed: the audit of the two objects found B slower by ' "$TMP/out"; then
	ok "history --fail-on slower --since 12: exit status 3 on the confirmed slowdown, named"
else
	not_ok "history --fail-on slower --since 12 exits 3"
fi

# An audit that cannot begin (the kept objects damaged since): its change
# point not confirmed, and the reason the audit gave (cbenchctl could not
# load the object), not a generic one.
mkdir -p "$TMP/kept.bak"
cp "$TMP"/kept/* "$TMP/kept.bak/"
for f in "$TMP"/kept/*; do
	echo "not an object" >"$f"
done
run_cb history --confirm --format json -o "$TMP/damaged.json" --filter '^Chain$' "$STEP"
cp "$TMP"/kept.bak/* "$TMP/kept/"
if [ "$rc" -eq 1 ] && python3 - "$TMP/damaged.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
cps = [c for x in r["benchmarks"] for c in x["change_points"]]
assert cps and not any(c["confirmed"] for c in cps), cps
assert all(c["reason"].startswith("the audit failed: unable to load benchmarks") for c in cps), cps
PY
then
	ok "history --confirm with damaged kept objects: not confirmed, the audit's own reason given"
else
	not_ok "history --confirm with damaged kept objects (exit $rc): $(cat "$TMP/err")"
fi

# ---- A/A ---------------------------------------------------------------------

if series "$AA" a 2000; then
	run_cb history --confirm --fail-on slower --undecided pass --format json -o "$TMP/aa.json" "$AA"
fi
if [ "$rc" -eq 0 ] && python3 - "$TMP/aa.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert len(r["benchmarks"]) == 3 and all(x["runs"] == 30 for x in r["benchmarks"]), r
assert r["confirmed"] == 0, [x["change_points"] for x in r["benchmarks"]]
PY
then
	ok "A/A series of 30: no confirmed change point, the gate passes"
else
	not_ok "A/A series of 30"
fi

# ---- reports -----------------------------------------------------------------

run_cb history --format csv --metric est-cycles -o "$TMP/report.csv" "$STEP"
if [ "$rc" -eq 0 ] &&
	[ "$(head -1 "$TMP/report.csv")" = "time,commit,order,Chain:est-cycles,Imul:est-cycles,Steady:est-cycles" ] &&
	[ "$(wc -l <"$TMP/report.csv")" -eq 31 ] && python3 - "$TMP/report.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1]), quotechar="'"))[1:]
assert [int(r[2]) for r in rows] == list(range(1, 31)), rows
assert all(r[1] == "c" + r[2] for r in rows), rows
chain = sorted(float(r[3]) for r in rows[:15]), sorted(float(r[3]) for r in rows[15:])
# The medians either side: a run on a busy moment may stray that far alone.
assert 1.018 < chain[1][7] / chain[0][7] < 1.022, chain
PY
then
	ok "--format csv: Otava's columns (time, commit, then a column per series), a row per run in order"
else
	not_ok "--format csv"
fi

# Two objects cannot share one CSV: the command says how to choose.
cp "$STEP" "$TMP/two.db"
python3 - "$TMP/c1/run.json" "$TMP/other.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r.pop("digest", None)  # edited below: read as an older report
r["config"]["so"] = r["config"]["so"].replace("history.so", "other.so")
json.dump(r, open(sys.argv[2], "w"))
PY
run_cb store add "$TMP/two.db" "$TMP/other.json" --commit c31 --order 31
if [ "$rc" -eq 0 ] && grep -q 'run 31 added' "$TMP/err" &&
	grep -q 'kept apart: the first run of other.so in this store: a series of its own, apart from those of history.so' "$TMP/err"; then
	ok "store add: a report of another object is kept apart, with the reason"
else
	not_ok "another object kept apart"
fi
expect_failure "--format csv over two objects is refused" "choose with --machine, --object and --backend" \
	history --format csv -o "$TMP/report.csv" "$TMP/two.db"

# A benchmark whose every kept trial ran on a shared core (kept for want of
# any other) is left out of the store, said so; the others go in.
cp "$STEP" "$TMP/shared.db"
python3 - "$TMP/c1/run.json" "$TMP/shared.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r.pop("digest", None)  # edited below: read as an older report
r["config"]["run_id"] = "shared-" + r["config"].get("run_id", "x")
for t in r["benchmarks"][0]["trials"]:
    if t["status"] == "ok":
        t["cause"] = "shared"
json.dump(r, open(sys.argv[2], "w"))
PY
run_cb store add "$TMP/shared.db" "$TMP/shared.json" --commit c32 --order 32
if [ "$rc" -eq 0 ] &&
   grep -q "note: .*1 benchmark left out ($(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["benchmarks"][0]["name"][9:])' "$TMP/shared.json")): every trial kept ran on a core another thread shared" "$TMP/err" &&
   python3 - "$TMP/shared.db" "$TMP/shared.json" <<'PY'
import json, sqlite3, sys
r = json.load(open(sys.argv[2]))
names = {b["name"][9:] for b in r["benchmarks"]}
db = sqlite3.connect(sys.argv[1])
got = {n for (n,) in db.execute("SELECT DISTINCT benchmark FROM result JOIN run ON run.id = result.run WHERE run.commit_id = 'c32'")}
assert got == names - {r["benchmarks"][0]["name"][9:]} and got, (got, names)
PY
then
	ok "store add: a benchmark whose kept trials all ran on a shared core is left out, said so"
else
	not_ok "a benchmark kept on a shared core only (exit $rc): $(cat "$TMP/err")"
fi

run_cb history --format html -o "$TMP/report.html" "$STEP"
if [ "$rc" -eq 0 ] && [ "$(grep -c '<svg ' "$TMP/report.html")" -eq 3 ] &&
	[ "$(grep -c 'class="change unasked"' "$TMP/report.html")" -ge 1 ] &&
	grep -q '<h2>Chain <small>history.so on ' "$TMP/report.html" &&
	python3 -c 'import sys, html.parser
p = html.parser.HTMLParser(); p.feed(open(sys.argv[1]).read()); p.close()' "$TMP/report.html"; then
	ok "--format html: a plot per series, the change point marked"
else
	not_ok "--format html"
fi

# ---- bisection ----------------------------------------------------------------

# Only orders 1-10 and 20-30 measured (taken through LNT, which also tests
# the round trip): the change lies between 10 and 20, nine commits untested.
run_cb store export "$STEP" --format lnt -o "$TMP/lnt"
rm -f "$TMP/gap.db"
for n in $(seq 1 10) $(seq 20 30); do
	"$CB" store import "$TMP/gap.db" "$TMP/lnt/run-$(run_of "$n").lnt.json" --format lnt 2>>"$TMP/import.err" ||
		echo "import of run $n failed" >>"$TMP/import.err"
done
seq 1 30 | sed 's/.*/& c&/' >"$TMP/commits"
run_cb history --next --commits "$TMP/commits" "$TMP/gap.db"
# (Runs at 9, 10 or 20 measured on a busy moment widen the span, as too
# noisy to tell their side, and move the middle by a commit or two.)
if [ "$rc" -eq 0 ] && ! grep -q failed "$TMP/import.err" &&
	grep -Eq '^1[3-6] c1[3-6]  Chain on .*: \+(1\.[89]|2\.[01])[0-9] % between order ([7-9]|10) \(c([7-9]|10)\) and (2[0-3]) \(c(2[0-3])\), 9 untested$' \
	"$TMP/out"; then
	ok "history --next: measure order 15 (c15), halfway between 10 and 20"
else
	not_ok "history --next"
fi
run_cb history "$TMP/gap.db"
if [ "$rc" -eq 0 ] &&
	grep -Eq '(9|1[0-4]) commits between \(orders ([89]|1[01]) to (19|2[0-2])\), 9 untested(, [1-5] runs? between too noisy to tell its side)?: measure order 1[3-6] next' "$TMP/out"; then
	ok "the text report names the untested commits between"
else
	not_ok "untested commits in the text report"
fi

# ---- LNT and Bencher round trips -------------------------------------------------

rm -f "$TMP/lnt.db"
for n in $(seq 1 30); do
	"$CB" store import "$TMP/lnt.db" "$TMP/lnt/run-$n.lnt.json" --format lnt 2>>"$TMP/import.err"
done
run_cb history --format json -o "$TMP/lnt.json" "$TMP/lnt.db"
if [ "$rc" -eq 0 ] && python3 - "$TMP/step.json" "$TMP/lnt.json" <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
def key(r):
    return {(x["name"], x["machine"], x["metric"]): [(p["order"], p["commit"], p["value"])
            for p in x["points"]] for x in r["benchmarks"]}
ka, kb = key(a), key(b)
assert ka.keys() == kb.keys(), (ka.keys(), kb.keys())
for k in ka:
    # LNT's ps and per-1000-op figures scale back to the last bit or two.
    assert [p[:2] for p in ka[k]] == [p[:2] for p in kb[k]], k
    assert all(abs(p[2] - q[2]) <= 1e-12 * p[2] for p, q in zip(ka[k], kb[k])), k
ca = [x["change_points"] for x in a["benchmarks"]]
cb = [x["change_points"] for x in b["benchmarks"]]
assert [[c["order"] for c in l] for l in ca] == [[c["order"] for c in l] for l in cb]
PY
then
	ok "store export and import (LNT): the same series, the same change point"
else
	not_ok "LNT round trip"
fi
python3 - "$TMP/lnt/run-$(run_of 16).lnt.json" <<'PY' || not_ok "the exported LNT report"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["format_version"] == "2" and r["run"]["llvm_project_revision"] == "16.c16", r["run"]
assert r["machine"]["cpu_model"].startswith(("GenuineIntel", "AuthenticAMD")), r["machine"]
t = {x["name"]: x for x in r["tests"]}
# Each kept trial's value: 3, or 2 where a core another thread shared
# took trials the replacements could not make up (stats/trials.h: half kept).
assert 2 <= len(t["Chain"]["ps_per_op"]) <= 3 and t["Chain"]["ps_per_op_estimate"] > 0, t
PY

run_cb store export "$STEP" --format bmf -o "$TMP/bmf"
rm -f "$TMP/bmf.db"
for n in $(seq 1 30); do
	"$CB" store import "$TMP/bmf.db" "$TMP/bmf/run-$(run_of "$n").bmf.json" --format bmf --machine bench-1 \
		--commit "c$n" --order "$n" --name history.so 2>>"$TMP/import.err"
done
run_cb history --format json -o "$TMP/bmf.json" "$TMP/bmf.db"
if [ "$rc" -eq 0 ] && "$SCHEMA_PY" - docs/lnt/bmf.schema.json "$TMP/bmf/run-1.bmf.json" <<'PY' &&
import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])))
PY
	python3 - "$TMP/bmf.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
b = {x["name"]: x for x in r["benchmarks"]}
assert all(x["machine"] == "bench-1" and x["runs"] == 30 for x in b.values()), b
assert any(15 <= c["order"] <= 17 and c["change_pct"] > 1.5 for c in b["Chain"]["change_points"]), b["Chain"]
PY
then
	ok "store export and import (Bencher): valid BMF, the same change point"
else
	not_ok "Bencher round trip"
fi
expect_failure "a Bencher report without --machine is refused" "give --machine, --commit and --order" \
	store import "$TMP/bmf.db" "$TMP/bmf/run-1.bmf.json" --format bmf --commit x --order 99

# ---- bad input ------------------------------------------------------------------

# A report of history.so from another machine joins no series of this one.
cp "$STEP" "$TMP/mixed.db"
python3 - "$TMP/c30/run.json" "$TMP/elsewhere.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r.pop("digest", None)  # edited below: read as an older report
r["config"]["machine"] = "elsewhere"
json.dump(r, open(sys.argv[2], "w"))
PY
run_cb store add "$TMP/mixed.db" "$TMP/elsewhere.json" --commit c31 --order 31
if [ "$rc" -eq 0 ] && grep -q 'kept apart: the first run of history.so on elsewhere (.*, user backend): a series of its own, apart from its runs on ' "$TMP/err"; then
	run_cb history --format json -o "$TMP/mixed.json" "$TMP/mixed.db"
	if [ "$rc" -eq 0 ] && python3 - "$TMP/mixed.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
runs = sorted((x["machine"], x["name"], x["runs"]) for x in r["benchmarks"])
assert [n for m, _, n in runs if m == "elsewhere"] == [1, 1, 1], runs
assert [n for m, _, n in runs if m != "elsewhere"] == [30, 30, 30], runs
PY
	then
		ok "a report of another machine is kept apart, with the reason; the series stays 30 runs"
	else
		not_ok "another machine's run kept apart in history"
	fi
else
	not_ok "another machine's run kept apart"
fi

# redate N: run N's report as if measured again, into $TMP/again-N.json.
redate() {
	python3 - "$TMP/c$1/run.json" "$TMP/again-$1.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r.pop("digest", None)  # edited below: read as an older report
r["config"]["date"] = "2026-01-01T00:00:00Z"
r["config"]["run_id"] = "0" * 31 + "a"  # another run
json.dump(r, open(sys.argv[2], "w"))
PY
}
redate 30
redate 17
expect_failure "an order the store has for another commit is refused" \
	"order 16 of history.so is commit c16 in this store, not c99" \
	store add "$TMP/mixed.db" "$TMP/again-30.json" --commit c99 --order 16
expect_failure "a commit the store has at another order is refused" \
	"commit c30 is order 30 in this store, not 40" \
	store add "$TMP/mixed.db" "$TMP/again-30.json" --commit c30 --order 40
expect_failure "another build for a commit measured already is refused" \
	"commit c16 of history.so was measured here as build .*: another object under the same name" \
	store add "$TMP/mixed.db" "$TMP/again-17.json" --commit c16 --order 16
run_cb store add "$TMP/mixed.db" "$TMP/again-30.json" --commit c30 --order 30
if [ "$rc" -eq 0 ] && grep -q 'run 32 added to .*: order 30, commit c30$' "$TMP/err"; then
	ok "a commit measured again is a second run at its order"
else
	not_ok "a commit measured again"
fi
expect_failure "the same run twice is refused" "this run is in the store already \(run $(run_of 30)," \
	store add "$TMP/mixed.db" "$TMP/c30/run.json" --commit c30 --order 30
expect_failure "a stale object is not kept" "is build .*, not the build the run measured" \
	store add "$TMP/mixed.db" "$TMP/c30/run.json" --commit c30 --order 30 --keep-object "$TMP/kept" \
	--object "$TMP/c1/history.so"

head -c 2000 "$TMP/c1/run.json" >"$TMP/cut.json"
expect_failure "a truncated report is refused" "not JSON, or cut short" \
	store add "$TMP/mixed.db" "$TMP/cut.json" --commit c41 --order 41
run_cb audit build/examples/audit.so --a chain_1000 --b chain_1000_again --budget 1 --format json \
	-o "$TMP/audit.json"
expect_failure "an audit's report is refused" "an audit's report, not a run's" \
	store add "$TMP/mixed.db" "$TMP/audit.json" --commit c41 --order 41
expect_failure "an LNT report given to store add is refused" "an LNT report: add it with 'store import --format lnt'" \
	store add "$TMP/mixed.db" "$TMP/lnt/run-1.lnt.json" --commit c41 --order 41
echo 'BenchmarkChain 100 1.0 ns/op' >"$TMP/go.txt"
expect_failure "a Go report is refused" "not JSON, or cut short" \
	store add "$TMP/mixed.db" "$TMP/go.txt" --commit c41 --order 41
python3 - "$TMP/c1/run.json" "$TMP/stopped.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r.pop("digest", None)  # edited below: read as an older report
r["config"]["interrupted"] = {"signal": "SIGINT", "trials_kept": 1, "trials_asked": 3,
                             "benchmarks_not_run": 0}
json.dump(r, open(sys.argv[2], "w"))
PY
expect_failure "an interrupted run is refused" "an interrupted run \(SIGINT\)" \
	store add "$TMP/mixed.db" "$TMP/stopped.json" --commit c41 --order 41
expect_failure "run --store without --commit is refused" "--store wants --commit ID" \
	run --store "$TMP/mixed.db" --order 1 "$TMP/c1/history.so"
expect_failure "run --store with an order that is no number is refused" "--store wants --commit ID" \
	run --store "$TMP/mixed.db" --commit c1 --order 1042.3f2a1c "$TMP/c1/history.so"
expect_failure "--commit without --store is refused" "--commit and --keep-object go with --store" \
	run --commit c1 "$TMP/c1/history.so"
expect_failure "history --since without --fail-on is refused" "give --fail-on too" \
	history --since 3 "$STEP"

# The store file itself: cut short, another application's, not SQLite at all.
size=$(wc -c <"$STEP")
head -c $((size / 2)) "$STEP" >"$TMP/cut.db"
cp "$TMP/cut.db" "$TMP/cut.copy"
expect_failure "a truncated store is refused (list)" "cut.db is not a cbench store, or is damaged|malformed" \
	store list "$TMP/cut.db"
expect_failure "a truncated store is refused (history)" "malformed" history "$TMP/cut.db"
expect_failure "a truncated store is refused (add), and left as it was" "malformed" \
	store add "$TMP/cut.db" "$TMP/c1/run.json" --commit c1 --order 1
cmp -s "$TMP/cut.db" "$TMP/cut.copy" || not_ok "the truncated store was changed"
python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("create table t (x)"); c.commit()' \
	"$TMP/foreign.db"
expect_failure "another application's SQLite database is refused" \
	"foreign.db is another application's SQLite database, not a cbench store" \
	store add "$TMP/foreign.db" "$TMP/c1/run.json" --commit c1 --order 1
cp "$TMP/c1/run.json" "$TMP/json.db"
expect_failure "a file that is not SQLite is refused, and left as it was" "is not a cbench store" \
	store add "$TMP/json.db" "$TMP/c1/run.json" --commit c1 --order 1
cmp -s "$TMP/json.db" "$TMP/c1/run.json" || not_ok "the foreign file was changed"
expect_failure "a store that does not exist is not made by list" "there is no store .*nothing.db" \
	store list "$TMP/nothing.db"
[ -e "$TMP/nothing.db" ] && not_ok "store list made a store"

# Concurrent writers: 12 adds at once, each its own commit; none is lost.
rm -f "$TMP/busy.db"
python3 - "$TMP/c1/run.json" "$TMP" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r.pop("digest", None)  # made anew below: read as older reports
for i in range(12):
    r["config"]["date"] = "2026-01-01T00:00:%02dZ" % i
    r["config"]["run_id"] = "%032x" % (i + 1)
    json.dump(r, open("%s/busy%d.json" % (sys.argv[2], i), "w"))
PY
for i in $(seq 0 11); do
	"$CB" store add "$TMP/busy.db" "$TMP/busy$i.json" --commit "b$i" --order "$i" 2>"$TMP/busy$i.err" &
done
wait
run_cb store list --format json "$TMP/busy.db"
if [ "$rc" -eq 0 ] && [ "$(cat "$TMP"/busy*.err | grep -c 'added to')" -eq 12 ] &&
	python3 - "$TMP/out" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert sorted(x["order"] for x in r["runs"]) == list(range(12)), r["runs"]
assert all(x["benchmarks"] == 3 for x in r["runs"]), r["runs"]
PY
then
	ok "12 concurrent writers: every run added, none lost"
else
	not_ok "concurrent writers"
	cat "$TMP"/busy*.err | grep -v 'added to' | head -5
fi

finish
