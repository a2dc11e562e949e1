#!/bin/sh
# Integration tests of `cbenchctl run --resume`: a run stopped by SIGINT in
# a known place (tests/fixtures/resume.c blocks the last benchmark's second
# trial until the signal comes, so no host is too fast or too slow for it),
# resumed: every benchmark present, those it finished carried over as they
# were, the rest measured, marked resumed; and every refusal, each before
# anything is measured, with no output file left.
#
# Usage: tests/run/resume.sh   (from the top of the tree, after make itest's deps)
set -u

. tests/run/lib.sh

FIX=build/tests/fixtures
SO=$FIX/resume.so
export XDG_CACHE_HOME="$TMP/cache"
# Our own lock directory: other runs on this machine must not make us wait.
mkdir -p "$TMP/locks"
export CBENCH_LOCK_DIR="$TMP/locks"
# A time limit far beyond what the blocked trial waits for the signal.
# --keep-shared: what a run keeps must not hang on whether another thread
# shares the host's core (stats/trials.h; tested in test_report.c).
OPTS="--keep-shared --trials 2 --trial-time 0.005 --warmup 0.001 --time-limit 60"
OUTPUT_GLOB="report*"

# The run, stopped in stop's second trial (its second setup): first and
# second have both their trials, stop one of two.
# `cbenchctl run ARGS`, stopped by SIGINT once stop's second setup blocks;
# rc its exit status.
stopped_run() {
	echo 0 >"$TMP/counter"
	CBENCH_RESUME_COUNTER=$TMP/counter CBENCH_RESUME_STOP_AT=2 "$CB" run "$@" \
		>"$TMP/out" 2>"$TMP/err" &
	pid=$!
	for _ in $(seq 1200); do
		[ "$(cat "$TMP/counter")" -ge 2 ] && break
		sleep 0.05
	done
	kill -INT "$pid"
	wait "$pid"
	rc=$?
}

# shellcheck disable=SC2086
stopped_run $OPTS -o "$TMP/int.json" -o "$TMP/int.txt" "$SO"
if [ "$rc" -eq 130 ] && "$SCHEMA_PY" - "$TMP/int.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["config"]["interrupted"]["signal"] == "SIGINT", d["config"]
assert d["config"]["run_options"]["trials"] == 2, d["config"]
assert [(b["id"], len(b["trials"])) for b in d["benchmarks"]] == [("first", 2), ("second", 2), ("stop", 1)]
PY
then
	ok "a run stopped in the last benchmark's second trial: first and second finished, stop not"
else
	not_ok "the run to resume (exit $rc)"
fi

# Resumed: first and second carried over (their JSON members as written,
# their Go lines too), stop's finished trial carried and its second
# measured, marked resumed in JSON, Go and JUnit; no interrupted marker
# left; the JSON valid against its schema.
# shellcheck disable=SC2086
run_cb run $OPTS --resume "$TMP/int.json" -o "$TMP/res.json" -o "$TMP/res.txt" -o "$TMP/res.junit.xml" "$SO"
if [ "$rc" -eq 0 ] && grep -q "^# resumed-from: $TMP/int.json ([0-9T:Z-]*): 2 benchmarks carried over, and 1 trial of benchmarks it had begun$" "$TMP/res.txt" &&
   [ "$(grep -E '^Benchmark(First|Second) ' "$TMP/int.txt")" = "$(grep -E '^Benchmark(First|Second) ' "$TMP/res.txt")" ] &&
   [ "$(grep -c '^BenchmarkStop ' "$TMP/res.txt")" -eq 2 ] &&
   grep -q '<property name="benchmarks_carried_over" value="2"/>' "$TMP/res.junit.xml" &&
   grep -q '<property name="trials_carried_over" value="1"/>' "$TMP/res.junit.xml" &&
   "$SCHEMA_PY" - "$TMP/int.json" "$TMP/res.json" <<'PY'
import json, sys
old, new = (json.load(open(p)) for p in sys.argv[1:3])
c = new["config"]
assert "interrupted" not in c, c
r = c["resumed_from"]
assert r["path"] == sys.argv[1] and r["date"] == old["config"]["date"] and r["benchmarks_carried_over"] == 2, r
assert r["trials_carried_over"] == 1, r
assert [b["id"] for b in new["benchmarks"]] == ["first", "second", "stop"]
assert new["benchmarks"][:2] == old["benchmarks"][:2], "carried benchmarks changed"
stop, was = new["benchmarks"][2]["trials"], old["benchmarks"][2]["trials"]
assert len(stop) == 2, stop
assert all(t["status"] != "failed" for t in stop)
# Its finished trial carried as it was, the second measured now.
assert stop[0].get("carried") is True and stop[0]["ns_per_op"] == was[0]["ns_per_op"], (stop[0], was[0])
assert not stop[1].get("carried"), stop[1]
assert new["benchmarks"][2]["ns_per_op_lower"] <= min(t["ns_per_op"] for t in stop), new["benchmarks"][2]
import jsonschema
jsonschema.validate(new, json.load(open("docs/schema/run.schema.json")))
PY
then
	ok "resumed: all benchmarks, the finished ones carried over exactly, marked resumed (JSON, Go, JUnit)"
else
	not_ok "resume (exit $rc)"
fi
# The carried JSON members are the same bytes, not only the same values.
if python3 - "$TMP/int.json" "$TMP/res.json" <<'PY'
import sys
old, new = (open(p).read() for p in sys.argv[1:3])
def carried(s):
    return s[s.index('"benchmarks":['):s.index('{"name":"BenchmarkStop"')]
assert len(carried(old)) > 100 and carried(old) == carried(new)
PY
then
	ok "resumed: the carried benchmarks' JSON text is the old report's, byte for byte"
else
	not_ok "resumed: the carried JSON differs"
fi

# A complete report: nothing to do, said, exit 0, no file written.
rm -f "$TMP"/report*
# shellcheck disable=SC2086
run_cb run $OPTS --resume "$TMP/res.json" -o "$TMP/report.json" "$SO"
if [ "$rc" -eq 0 ] && grep -q "nothing to resume: $TMP/res.json is a complete run (every benchmark has its 2 trials)" "$TMP/err" &&
   [ ! -e "$TMP/report.json" ]; then
	ok "resuming a complete run: nothing to do, said, exit status 0, nothing written"
else
	not_ok "resuming a complete run (exit $rc)"
fi

# Refusals, each naming what differs and how to fix it, nothing written.
# shellcheck disable=SC2086
expect_failure "resume: other options" \
	"unable to resume .*int.json: it was measured with --trials 2, this run asks for --trials 3: give the options it was run with \(cbenchctl run --keep-shared --trials 2 " \
	run --trials 3 --trial-time 0.005 --warmup 0.001 --time-limit 60 --resume "$TMP/int.json" -o "$TMP/report.json" "$SO"
expect_failure "resume: without --keep-shared" \
	"unable to resume .*int.json: it was measured with --keep-shared, this run does not: give the options it was run with" \
	run --trials 2 --trial-time 0.005 --warmup 0.001 --time-limit 60 --resume "$TMP/int.json" -o "$TMP/report.json" "$SO"
# shellcheck disable=SC2086
expect_failure "resume: another --filter" \
	"it measured every benchmark \(no --filter\), this run asks for --filter 'first'" \
	run $OPTS --filter first --resume "$TMP/int.json" -o "$TMP/report.json" "$SO"
# shellcheck disable=SC2086
expect_failure "resume: another object" \
	"unable to resume .*int.json: it was measured on an object of build ID [0-9a-f]+, this run on an object of build ID [0-9a-f]+: the object changed since; measure it anew" \
	run $OPTS --resume "$TMP/int.json" -o "$TMP/report.json" "$FIX/crash.so"
sed 's/"machine":"[^"]*"/"machine":"lab-7"/' "$TMP/int.json" >"$TMP/other-machine.json"
# shellcheck disable=SC2086
expect_failure "resume: another machine" \
	"it was measured on machine lab-7, this run on machine .*: resume it where it ran" \
	run $OPTS --resume "$TMP/other-machine.json" -o "$TMP/report.json" "$SO"
sed 's/"kernel":"[^"]*"/"kernel":"5.10.0-old"/' "$TMP/int.json" >"$TMP/other-kernel.json"
# shellcheck disable=SC2086
expect_failure "resume: another kernel" "it was measured under kernel 5.10.0-old, this run under kernel " \
	run $OPTS --resume "$TMP/other-kernel.json" -o "$TMP/report.json" "$SO"
# shellcheck disable=SC2086
expect_failure "resume: a Go report" "unable to resume .*int.txt: it is not JSON .*give the JSON report of the run to resume" \
	run $OPTS --resume "$TMP/int.txt" -o "$TMP/report.json" "$SO"
echo '{"format_version": "2", "machine": {}, "run": {}, "tests": []}' >"$TMP/lnt.json"
# shellcheck disable=SC2086
expect_failure "resume: not a cbench report" "unable to resume .*lnt.json: not a cbench run report" \
	run $OPTS --resume "$TMP/lnt.json" -o "$TMP/report.json" "$SO"
# shellcheck disable=SC2086
expect_failure "resume: no such file" "unable to resume $TMP/missing.json: No such file or directory" \
	run $OPTS --resume "$TMP/missing.json" -o "$TMP/report.json" "$SO"
# shellcheck disable=SC2086
expect_failure "resume: raw measurements" "run --resume cannot write the raw measurements" \
	run $OPTS --resume "$TMP/int.json" -o "$TMP/report.json" -o "$TMP/report.csv" "$SO"

# On two CPUs: rounds start one benchmark further on each time (so no
# benchmark keeps to one CPU), and a stop keeps what started before the
# caught trial in that order.  Round 1 runs second, stop, first: stop
# blocks in it, first's trial there is dropped even if it finished.
if [ "$(nproc)" -ge 2 ]; then
	stopped_run --keep-shared --trials 3 --jobs 2 --trial-time 0.005 --warmup 0.001 \
		--time-limit 60 -o "$TMP/jobs.json" "$SO"
	rc_stop=$rc
	run_cb run --keep-shared --trials 3 --jobs 2 --trial-time 0.005 --warmup 0.001 \
		--time-limit 60 --resume "$TMP/jobs.json" -o "$TMP/jobs-res.json" "$SO"
	if [ "$rc_stop" -eq 130 ] && [ "$rc" -eq 0 ] && "$SCHEMA_PY" - "$TMP/jobs.json" "$TMP/jobs-res.json" <<'PY'
import json, sys
old, new = (json.load(open(p)) for p in sys.argv[1:3])
assert [(b["id"], len(b["trials"])) for b in old["benchmarks"]] == [("first", 1), ("second", 2), ("stop", 1)], old["benchmarks"]
assert new["config"]["resumed_from"]["trials_carried_over"] == 4, new["config"]
for a, b in zip(old["benchmarks"], new["benchmarks"]):
    t = b["trials"]
    assert len(t) == 3 and all(x["status"] != "failed" for x in t), b["id"]
    # Carried trials keep what the stopped run said of running alone
    # (read from when they ran: report_jobs.c); the last round ran alone.
    assert [x["solo"] for x in t[:len(a["trials"])]] == [x["solo"] for x in a["trials"]], b["id"]
    assert t[2]["solo"], b["id"]
PY
	then
		ok "--jobs 2 stopped in round 1's second place: the trials before it kept, resumed to 3 each"
	else
		not_ok "--jobs 2 stop and resume (exit $rc): $(cat "$TMP/err")"
	fi
fi

finish
