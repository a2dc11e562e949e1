#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# `cbenchctl selftest`: every known-answer check is measured and judged
# against this CPU's table row (or measured only); a wrong expectation
# fails, naming the check; JSON says the same; bad arguments and missing
# kernels are refused.  Whether every check passes on this host is not
# asserted here (that is a measurement: docs/results.md, make bench); a
# value 25 % off its expectation fails on any host.
set -u

. tests/run/lib.sh

OUTPUT_GLOB="report*"
CHECKS="add imul crc32 popcnt l1 add-throughput"

run_cb selftest --trials 2
missing=
for c in $CHECKS; do
	grep -Eq "^$c +.* (pass|FAIL|measured only|not supported) " "$TMP/out" || missing="$missing $c"
done
if { [ "$rc" -eq 0 ] || [ "$rc" -eq 1 ]; } && [ -z "$missing" ] &&
   grep -q "^backend user: timer tsc at [0-9]* MHz, step .* overhead .*core clock" "$TMP/out"; then
	ok "selftest: every check measured and judged, the timer and the core clock reported"
else
	not_ok "selftest (exit $rc, missing:$missing)"
fi

# A wrong expectation: imul is 3 cycles on every core the table knows.
run_cb selftest --trials 2 --expect imul=4
if [ "$rc" -eq 1 ] && grep -Eq "^imul +dependent imul .* 4 .* FAIL +--expect" "$TMP/out" &&
   grep -Eq "imul: [0-9.]+ cycles is -2[0-9]\.[0-9]% off 4 \(tolerance 2%\)" "$TMP/out"; then
	ok "selftest --expect imul=4: the check fails, named, with its cause; exit status 1"
else
	not_ok "a wrong expectation did not fail (exit $rc)"
fi

run_cb selftest --trials 2 --expect add-throughput=0.125 --format json -o "$TMP/report.json"
if [ "$rc" -eq 1 ] && python3 - "$TMP/report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
(b,) = r["backends"]
assert b["backend"] == "user" and r["passed"] is False
checks = {c["name"]: c for c in b["checks"]}
assert set(checks) >= {"add", "imul", "crc32", "popcnt", "l1", "add-throughput"}, checks
t = checks["add-throughput"]
assert t["verdict"] == "fail" and t["expected"] == 0.125 and t["source"] == "--expect", t
assert "off 0.125" in t["cause"], t
for c in checks.values():
    assert c["verdict"] in ("pass", "fail", "measured only", "not supported"), c
    assert c["verdict"] == "not supported" or c["measured"] > 0, c
PY
then
	ok "selftest --format json -o: every check with expected, measured, source and verdict"
else
	not_ok "selftest JSON (exit $rc)"
fi

expect_failure "selftest: an unknown check" "no check named 'foo'" selftest --expect foo=2
expect_failure "selftest: --expect without a value" "--expect wants NAME=VALUE" selftest --expect imul
expect_failure "selftest: an object" "it takes no object" selftest build/examples/suite.so
expect_failure "selftest: --backend fast" "--backend must be user, kmod or both" selftest --backend fast
expect_failure "selftest: --quiet-mode in user mode" "--quiet-mode is how cbench.ko keeps its samples quiet" \
	selftest --quiet-mode lvt
expect_failure "selftest: --quiet-mode nonsense" "--quiet-mode must be cli or lvt, not 'off'" \
	selftest --backend kmod --quiet-mode off
CBENCH_KNOWN_SO=$TMP/none.so run_cb selftest
if [ "$rc" -eq 1 ] && grep -q "the known-answer kernels are missing" "$TMP/err"; then
	ok "selftest: missing kernels are named, with what to do"
else
	not_ok "selftest without its kernels (exit $rc)"
fi
expect_failure "selftest: an unwritable -o" "unable to write $TMP/none/report.json" \
	selftest --trials 1 -o "$TMP/none/report.json"

finish
