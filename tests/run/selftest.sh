#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# `cbenchctl selftest`: every known-answer check is measured and judged
# against this core's row or its vendor line's, or says why not; the
# command says how many were judged; --core judges as another core (the
# Intel Core line's values only, on any x86 host); a wrong expectation
# fails, naming the check; JSON says the same; bad arguments and missing
# kernels are refused.  Whether every check passes on this host is not
# asserted here (that is a measurement: docs/results.md, make bench); a
# value 25 % off its expectation fails on any host.
set -u

. tests/run/lib.sh

OUTPUT_GLOB="report*"
CHECKS="add imul crc32 popcnt lzcnt lea lea-scaled div addpd mulpd fma paddq l1 store-load
	add-throughput imul-throughput load-throughput l2 l3 memory tlb-miss branch-mispredict"
VERDICTS="pass|FAIL|not judged|not measured|not supported|not run"

run_cb selftest --trials 2
missing=
for c in $CHECKS; do
	grep -Eq "^$c +.* ($VERDICTS) " "$TMP/out" || missing="$missing $c"
done
if { [ "$rc" -eq 0 ] || [ "$rc" -eq 1 ]; } && [ -z "$missing" ] &&
   grep -q "^backend user: timer tsc at [0-9]* MHz, step .* overhead .*core clock" "$TMP/out" &&
   grep -Eq "^core: .*\(.*\)$" "$TMP/out" && grep -Eq "^caches: " "$TMP/out" &&
   grep -Eq "^user: 2[0-9] checks, [0-9]+ judged \([0-9]+ passed, [0-9]+ failed\), [0-9]+ not judged" "$TMP/out"; then
	ok "selftest: every check measured, judged or not with a reason, the core and the count said"
else
	not_ok "selftest (exit $rc, missing:$missing)"
fi
# A check that is not judged says why, on the line below it.
if awk '/ (not judged|not supported|not run) / { want = 1; next } want && !/^ +[a-z0-9-]+: / { bad = 1 } { want = 0 } END { exit bad }' "$TMP/out"; then
	ok "selftest: each check not judged says why"
else
	not_ok "selftest: a check not judged without its reason"
fi

# The Intel Core line's values alone, on whatever x86 this is: a core the
# table lacks is still judged on them.
run_cb selftest --trials 1 --core intel-core --format json -o "$TMP/line.json"
if { [ "$rc" -eq 0 ] || [ "$rc" -eq 1 ]; } && python3 - "$TMP/line.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["core"]["uarch"] == "unknown" and r["core"]["line"] == "intel-core", r["core"]
assert r["core"]["how"].startswith("as --core says (an Intel Core)"), r["core"]
(b,) = r["backends"]
judged = {c["name"] for c in b["checks"] if c["verdict"] in ("pass", "fail")}
assert {"add", "imul", "crc32", "popcnt", "paddq", "mulpd"} <= judged, judged
assert b["judged"] == len([c for c in b["checks"] if c["verdict"] in ("pass", "fail")]), b
lea = [c for c in b["checks"] if c["name"] == "lea"][0]
assert lea["verdict"] == "not judged" and "a core the table lacks" in lea["cause"], lea
PY
then
	ok "selftest --core intel-core: the line's values judged on a core the table lacks, the rest say why"
else
	not_ok "selftest --core intel-core (exit $rc)"
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
assert len(checks) >= 20, checks
assert set(checks) >= {"add", "imul", "crc32", "popcnt", "l1", "add-throughput", "l2", "l3",
                       "memory", "tlb-miss", "branch-mispredict", "store-load"}, checks
t = checks["add-throughput"]
assert t["verdict"] == "fail" and t["expected"] == 0.125 and t["source"] == "--expect", t
assert "off 0.125" in t["cause"], t
for c in checks.values():
    assert c["verdict"] in ("pass", "fail", "not judged", "not supported", "not run"), c
    assert c["verdict"] in ("not supported", "not run") or c["measured"] > 0, c
    assert c["verdict"] in ("pass", "fail") or c["cause"], c
assert b["checks"] and b["judged"] + b["not_judged"] + b["failed"] - (b["judged"] - b["passed"]) == len(b["checks"]), b
for key in ("uarch", "line", "how", "l1d_bytes", "l2_bytes", "l3_bytes", "stlb_entries"):
    assert key in r["core"], r["core"]
PY
then
	ok "selftest --format json -o: every check with expected, measured, source and verdict"
else
	not_ok "selftest JSON (exit $rc)"
fi

expect_failure "selftest: an unknown check" "no check named 'foo'" selftest --expect foo=2
expect_failure "selftest: an unknown core" "--core: no core named 'pentium'" selftest --core pentium
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
