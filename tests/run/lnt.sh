#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Reports for results servers: LNT (run --format lnt) checked by LNT's own
# checkformat and imported into a real LNT instance, whose comparison of an
# old and a new version must flag the new one's 10 % slowdown as cbench's
# audit does (bench/lnt.sh shows a 1 % one); Bencher Metric Format
# (--format bmf) validated against its schema (docs/lnt/bmf.schema.json).
# LNT is llvm-lnt from PyPI, in the virtual environment that
# scripts/install-deps.sh --all makes.

set -u

. tests/run/lib.sh

LNT_VENV=${CBENCH_LNT_VENV:-/opt/cbench-lnt}
LNT=$LNT_VENV/bin/lnt
OLD=build/tests/fixtures/lnt_old.so
NEW=build/tests/fixtures/lnt_new.so
# --keep-shared: what a run keeps must not hang on whether another thread
# shares the host's core (stats/trials.h; tested in test_report.c).
FAST="--keep-shared --trials 6 --trial-time 0.01 --warmup 0.002"

if ! "$LNT" --version >/dev/null 2>&1; then
	not_ok "LNT is not installed in $LNT_VENV: run scripts/install-deps.sh --all"
	finish
	exit 1
fi

# docs/lnt.md says where install-deps.sh --all puts LNT, and its PATH line,
# as written there, finds that lnt first.
venv=$(sed -n 's/^LNT_VENV=//p' scripts/install-deps.sh)
line=$(grep -E '^ +export PATH=' docs/lnt.md | head -1)
if [ -n "$venv" ] && grep -q "in a Python virtual environment of its own, \`$venv\`" docs/lnt.md &&
   echo "$line" | grep -q "$venv/bin" &&
   [ "$(PATH=/usr/bin:/bin sh -c "$line; command -v lnt")" = "$venv/bin/lnt" ]; then
	ok "docs/lnt.md names $venv, where install-deps.sh --all puts LNT, and its PATH line finds it"
else
	not_ok "docs/lnt.md on where LNT is ('$venv', '$line')"
fi

# The old and the new version, as a lab's CI would report two builds.
run_cb run $FAST --machine lab-1 --order 100 -o "$TMP/old.lnt.json" -o "$TMP/old.bmf.json" "$OLD"
old_rc=$rc
run_cb run $FAST --machine lab-1 --order 101 --format lnt -o "$TMP/new.json" "$NEW"
if [ "$old_rc" -eq 0 ] && [ "$rc" -eq 0 ] && "$LNT" checkformat "$TMP/old.lnt.json" >"$TMP/out" 2>&1 &&
   "$LNT" checkformat "$TMP/new.json" >>"$TMP/out" 2>&1; then
	ok "run --format lnt (and .lnt.json): LNT's checkformat takes both reports"
else
	not_ok "LNT reports (exit $old_rc, $rc)"
fi
if python3 - "$TMP/old.lnt.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["format_version"] == "2"
assert r["machine"]["name"] == "lab-1" and r["machine"]["backend"] == "user"
assert r["run"]["llvm_project_revision"] == "100"
assert r["run"]["start_time"] <= r["run"]["end_time"]
(t,) = r["tests"]
assert t["name"] == "Chain", t["name"]
assert len(t["ps_per_op"]) == 6 and len(t["est_cycles_per_kop"]) == 6
# 1000 dependent adds declared as 1000 ops: a cycle per op, in cycles per 1000 ops.
assert all(900 < c < 1100 for c in t["est_cycles_per_kop"]), t["est_cycles_per_kop"]
assert all(p > 10 for p in t["ps_per_op"])
# cbench's own figures for the run: one value each, among the trials' range.
e = t["est_cycles_per_kop_estimate"]
assert isinstance(e, float) and min(t["est_cycles_per_kop"]) <= e <= max(t["est_cycles_per_kop"]), e
p = t["ps_per_op_estimate"]
assert isinstance(p, float) and min(t["ps_per_op"]) <= p <= max(t["ps_per_op"]), p
PY
then
	ok "LNT report: machine name, order, one sample per trial in ps/op and cycles per 1000 ops, and the run's estimates"
else
	not_ok "LNT report's content"
fi

# Into a real LNT instance, with cbench's test-suite schema.
"$LNT" create "$TMP/lnt" >"$TMP/out" 2>&1
mkdir -p "$TMP/lnt/schemas" && cp docs/lnt/cbench.yaml "$TMP/lnt/schemas/"
if "$LNT" import "$TMP/lnt" --testsuite cbench "$TMP/old.lnt.json" >>"$TMP/out" 2>&1 &&
   "$LNT" import "$TMP/lnt" --testsuite cbench "$TMP/new.json" >>"$TMP/out" 2>&1 &&
   "$LNT_VENV/bin/python" tests/run/lnt_query.py "$TMP/lnt" >"$TMP/query" 2>>"$TMP/out"; then
	cat "$TMP/query" >>"$TMP/out"
	if grep -q "^run 100 Chain ps_per_op 6$" "$TMP/query" && grep -q "^run 101 Chain ps_per_op 6$" "$TMP/query" &&
	   grep -q "^run 101 Chain est_cycles_per_kop 6$" "$TMP/query" &&
	   grep -q "^run 100 Chain est_cycles_per_kop_estimate 1$" "$TMP/query" &&
	   grep -q "^run 101 Chain ps_per_op_estimate 1$" "$TMP/query"; then
		ok "LNT import: both runs come back with every trial's sample and the run's estimates"
	else
		not_ok "LNT import: runs or samples missing"
	fi
	# Per trial, LNT compares the least sample of each run, which one trial
	# of either can move by several % in wall time (a trial at a boosted
	# clock: 3 % of the 10 % was left once, and LNT called that noise), so
	# there only the direction is asked; in cycles, and on cbench's
	# estimates, LNT must flag it.
	if grep -Eq "^compare Chain ps_per_op [A-Z_]+ 0\.(0[1-9]|1[0-6])" "$TMP/query" &&
	   grep -Eq "^compare Chain est_cycles_per_kop REGRESSED 0\.(0[4-9]|1[0-6])" "$TMP/query" &&
	   grep -Eq "^compare Chain ps_per_op_estimate REGRESSED 0\.(0[8-9]|1[0-2])" "$TMP/query" &&
	   grep -Eq "^compare Chain est_cycles_per_kop_estimate REGRESSED 0\.(0[8-9]|1[0-2])" "$TMP/query"; then
		ok "LNT's own comparison flags the new version's 10 % slowdown, per trial in cycles and on the estimates"
	else
		not_ok "LNT's comparison does not flag the slowdown: $(grep '^compare Chain' "$TMP/query" | tr '\n' ';')"
	fi
else
	not_ok "LNT import or query failed"
fi
run_cb audit --budget 5 --machine lab-1 --order 102 -o "$TMP/audit.lnt.json" "$OLD" "$NEW"
if [ "$rc" -eq 0 ] && grep -q "^chain: B slower by " "$TMP/err"; then
	ok "cbench's audit finds the same slowdown"
else
	not_ok "audit of the two versions (exit $rc)"
fi
# The audit's LNT report: B's rounds as ps_per_op, A's beside, the change.
if "$LNT" checkformat "$TMP/audit.lnt.json" >"$TMP/out" 2>&1 &&
   "$LNT" import "$TMP/lnt" --testsuite cbench "$TMP/audit.lnt.json" >>"$TMP/out" 2>&1 &&
   "$LNT_VENV/bin/python" tests/run/lnt_query.py "$TMP/lnt" >"$TMP/query" 2>>"$TMP/out" &&
   grep -Eq "^run 102 Chain ps_per_op [0-9]+$" "$TMP/query" &&
   grep -Eq "^run 102 Chain audit_a_ps_per_op [0-9]+$" "$TMP/query" &&
   python3 - "$TMP/audit.lnt.json" <<'PY'
import json, sys
(t,) = json.load(open(sys.argv[1]))["tests"]
assert t["name"] == "Chain" and 700 < t["audit_change_bp"] < 1300, t["audit_change_bp"]
assert min(t["ps_per_op"]) > min(t["audit_a_ps_per_op"])
PY
then
	ok "audit -o .lnt.json: LNT takes it; B's rounds, A's beside, the change (+10 %) in basis points"
else
	cat "$TMP/query" >>"$TMP/out" 2>/dev/null
	not_ok "audit's LNT report"
fi

# Bencher Metric Format against its schema.
if "$SCHEMA_PY" - docs/lnt/bmf.schema.json "$TMP/old.bmf.json" >"$TMP/out" 2>&1 <<'PY'
import json, sys
import jsonschema
schema, report = (json.load(open(p)) for p in sys.argv[1:3])
jsonschema.validate(report, schema)
chain = report["Chain"]
lat, cyc = chain["latency"], chain["est-cycles"]
assert lat["lower_value"] <= lat["value"] <= lat["upper_value"], lat
assert 0.9 < cyc["value"] < 1.1, cyc
PY
then
	ok "run -o .bmf.json: Bencher Metric Format, valid, latency and est-cycles with the trials' range"
else
	not_ok "BMF report"
fi
echo '{"Chain": {"latency": {"value": "fast"}}}' >"$TMP/bad.bmf.json"
if "$SCHEMA_PY" -c 'import json, sys, jsonschema; jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])))' \
	docs/lnt/bmf.schema.json "$TMP/bad.bmf.json" >/dev/null 2>&1; then
	not_ok "the BMF schema takes a string value"
else
	ok "the BMF schema refuses a report that is not BMF"
fi

# The example suite, every benchmark and parameter, in both formats.
run_cb run --trials 4 --trial-time 0.005 --warmup 0.001 -o "$TMP/suite.lnt.json" \
	-o "$TMP/suite.bmf.json" build/examples/suite.so
if [ "$rc" -eq 0 ] && "$LNT" checkformat "$TMP/suite.lnt.json" >"$TMP/out" 2>&1 &&
   "$SCHEMA_PY" - docs/lnt/bmf.schema.json "$TMP/suite.bmf.json" "$TMP/suite.lnt.json" <<'PY'
import json, sys
import jsonschema
schema, bmf, lnt = (json.load(open(p)) for p in sys.argv[1:4])
jsonschema.validate(bmf, schema)
names = {t["name"] for t in lnt["tests"]}
assert names == set(bmf), (names ^ set(bmf))
assert "Copy/size=64" in names and len(names) > 10, names
# The kept trials: 4, less any a busy moment set aside, plus those
# measured again in their place (2 at most).
assert all(2 <= len(t["ps_per_op"]) <= 6 for t in lnt["tests"]), \
    [(t["name"], len(t["ps_per_op"])) for t in lnt["tests"]]
PY
then
	ok "the example suite: LNT (checkformat) and BMF (schema) reports, every benchmark, 4 samples each"
else
	not_ok "the example suite's LNT and BMF reports (exit $rc)"
fi

# Bad options: a clear message, exit status 2, no file.
OUTPUT_GLOB="report*"
expect_failure "--order without a value" "run: option '--order' requires an argument|--order" \
	run -o "$TMP/report.lnt.json" "$OLD" --order
expect_failure "--order empty" "--order wants a name of 1 to 255 characters" \
	run --order "" -o "$TMP/report.lnt.json" "$OLD"
expect_failure "an unknown format" "--format must be go, json, lnt, bmf or junit" \
	run --format xml -o "$TMP/report.txt" "$OLD"
expect_failure "two LNT reports" "would both be LNT reports" \
	run -o "$TMP/report.lnt.json" --format lnt -o "$TMP/report2.txt" "$OLD"

finish
