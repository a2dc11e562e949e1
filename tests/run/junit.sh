#!/bin/sh
# Integration tests of `cbenchctl run`'s JUnit report (Jenkins, GitLab):
# valid against tests/schema/junit.xsd (xmllint, libxml2-utils), a case per
# benchmark, and a benchmark that crashes an error case while the others
# pass.  Nothing here asserts speed.
#
# Usage: tests/run/junit.sh   (from the top of the tree, after make itest's deps)
set -u

. tests/run/lib.sh

FIX=build/tests/fixtures
SUITE=build/examples/suite.so
export XDG_CACHE_HOME="$TMP/cache"
# Our own lock directory: other runs on this machine must not make us wait.
mkdir -p "$TMP/locks"
export CBENCH_LOCK_DIR="$TMP/locks"
# --keep-shared: what a run keeps must not hang on whether another thread
# shares the host's core (stats/trials.h; tested in test_report.c).
FAST="--keep-shared --trials 2 --trial-time 0.005 --warmup 0.001"
XSD=tests/schema/junit.xsd

if ! command -v xmllint >/dev/null; then
	not_ok "xmllint (libxml2-utils, scripts/install-deps.sh --all) is not installed"
	finish
	exit
fi

# The schema itself refuses what is no JUnit report.
printf '<testsuite name="x" tests="1"><testcase/></testsuite>\n' >"$TMP/bad.xml"
if ! xmllint --noout --schema "$XSD" "$TMP/bad.xml" >/dev/null 2>&1; then
	ok "the schema refuses a test case without a name"
else
	not_ok "the schema took a test case without a name"
fi

# A crashing benchmark beside a good one: exit status 1, the JSON and the
# JUnit reports from one run (.junit.xml names the format), the crash an
# <error> with the signal, the good one a case that passed with its figures.
run_cb run $FAST -o "$TMP/crash.junit.xml" -o "$TMP/crash.json" "$FIX/crash.so"
if [ "$rc" -eq 1 ] && xmllint --noout --schema "$XSD" "$TMP/crash.junit.xml" 2>"$TMP/xmllint" &&
   "$SCHEMA_PY" - "$TMP/crash.junit.xml" "$TMP/crash.json" <<'PY'
import json, sys
import xml.etree.ElementTree as ET
suite = ET.parse(sys.argv[1]).getroot()
report = json.load(open(sys.argv[2]))
assert suite.tag == "testsuite" and suite.get("name") == "crash", suite.attrib
assert (suite.get("tests"), suite.get("errors"), suite.get("failures")) == ("2", "1", "0"), suite.attrib
cases = {c.get("name"): c for c in suite.findall("testcase")}
assert set(cases) == {"good", "segfault"}, cases
assert all(c.get("classname") == "crash" for c in cases.values())
good, bad = cases["good"], cases["segfault"]
assert good.find("error") is None and good.find("failure") is None
assert float(good.get("time")) > 0
props = {p.get("name"): p.get("value") for p in good.find("properties")}
want = next(b for b in report["benchmarks"] if b["id"] == "good")
assert float(props["ns_per_op"]) == want["ns_per_op"], (props["ns_per_op"], want["ns_per_op"])
assert props["unstable"] in ("true", "false") and props["trials"] == "2"
err = bad.find("error")
assert err is not None and "SIGSEGV" in err.get("message"), ET.tostring(bad)
assert "trial 1: " in err.text and "SIGSEGV" in err.text
sprops = {p.get("name"): p.get("value") for p in suite.find("properties")}
assert sprops["so_build_id"] == report["config"]["so_build_id"]
PY
then
	ok "JUnit: valid against the schema, a crashing benchmark an error case, the good one passes with its figures"
else
	cat "$TMP/xmllint" >>"$TMP/err" 2>/dev/null
	not_ok "JUnit report of a crashing benchmark (exit $rc)"
fi

# --format junit writes JUnit whatever the name; to standard output too.
run_cb run $FAST --filter '^add_chain$' --format junit "$SUITE"
if [ "$rc" -eq 0 ] && xmllint --noout --schema "$XSD" "$TMP/out" 2>/dev/null &&
   grep -q '<testcase classname="suite" name="add_chain" time="[0-9.]*">' "$TMP/out" &&
   ! grep -q '<error' "$TMP/out"; then
	ok "--format junit to standard output: valid, one passing case"
else
	not_ok "--format junit (exit $rc)"
fi

# compare's gate in JUnit: made-up runs, three a side, X clearly slower
# (+98 %), Y the same within 0.02 %, W the same but its runs 0.4 % apart
# (an interval across --min-effect: not judged), Z only in the old ones.
# --fail-on slower: exit 3, X a failure of type slower, Y passes, W a
# failure of type undecided, Z skipped; no gate: nothing fails.
for i in 1 2 3; do
	printf 'goos: linux\nBenchmarkX 10 1.0%s ns/op\nBenchmarkY 10 5.00%s ns/op\nBenchmarkW 10 5.0%s ns/op\nBenchmarkZ 10 1 ns/op\n' \
		"$i" "$i" "$i" >"$TMP/a$i.txt"
	printf 'goos: linux\nBenchmarkX 10 2.0%s ns/op\nBenchmarkY 10 5.00%s ns/op\nBenchmarkW 10 5.0%s ns/op\n' "$i" "$i" "$i" >"$TMP/b$i.txt"
done
cases() {
	"$SCHEMA_PY" - "$TMP/out" "$@" <<'PY'
import sys, xml.etree.ElementTree as ET
suite = ET.parse(sys.argv[1]).getroot()
got = []
for case in suite.findall("testcase"):
    kids = [k for k in case if k.tag != "properties"]
    got.append(case.get("name") + ":" + (kids[0].tag + "/" + str(kids[0].get("type")) if kids else "pass"))
want = sys.argv[2:]
assert got == want, (got, want)
counts = (suite.get("tests"), suite.get("failures"), suite.get("skipped"))
assert counts == (str(len(want)), str(sum("failure" in w for w in want)),
                  str(sum("skipped" in w for w in want))), counts
PY
}
run_cb compare --fail-on slower --format junit "$TMP/a1.txt" "$TMP/a2.txt" "$TMP/a3.txt" -- \
	"$TMP/b1.txt" "$TMP/b2.txt" "$TMP/b3.txt"
if [ "$rc" -eq 3 ] && xmllint --noout --schema "$XSD" "$TMP/out" 2>/dev/null &&
   cases BenchmarkX:failure/slower BenchmarkY:pass BenchmarkW:failure/undecided BenchmarkZ:skipped/None &&
   grep -q 'gate (--fail-on slower): FAILED' "$TMP/err"; then
	ok "compare --format junit: a benchmark that fails the gate is a failing case (exit 3), one it could not judge a failure of type undecided"
else
	not_ok "compare --format junit with a failing gate (exit $rc): $(cat "$TMP/err")"
fi
run_cb compare --format junit "$TMP/a1.txt" "$TMP/a2.txt" "$TMP/a3.txt" -- "$TMP/b1.txt" "$TMP/b2.txt" "$TMP/b3.txt"
if [ "$rc" -eq 0 ] && cases BenchmarkX:pass BenchmarkY:pass BenchmarkW:pass BenchmarkZ:skipped/None; then
	ok "compare --format junit without a gate: nothing fails"
else
	not_ok "compare --format junit without a gate (exit $rc)"
fi
run_cb compare --fail-on slower --format junit "$TMP/a1.txt" "$TMP/b1.txt"
rc_one=$rc
cp "$TMP/out" "$TMP/one.xml"
if [ "$rc_one" -eq 4 ] && cases BenchmarkX:failure/undecided BenchmarkY:failure/undecided BenchmarkW:failure/undecided BenchmarkZ:skipped/None; then
	ok "compare --format junit, one run a side: undecided cases fail (exit 4)"
else
	not_ok "compare --format junit, one run a side (exit $rc_one)"
fi
run_cb compare --fail-on slower --undecided pass --format junit "$TMP/a1.txt" "$TMP/b1.txt"
if [ "$rc" -eq 0 ] && cases BenchmarkX:skipped/None BenchmarkY:skipped/None BenchmarkW:skipped/None BenchmarkZ:skipped/None; then
	ok "compare --format junit --undecided pass: undecided cases skipped (exit 0)"
else
	not_ok "compare --format junit --undecided pass (exit $rc)"
fi

# Two JUnit reports from one run are refused before anything runs.
expect_failure "-o twice for JUnit" "would both be JUnit reports" \
	run -o "$TMP/report-a.junit.xml" --format junit -o "$TMP/report-b.xml" "$SUITE"

finish
