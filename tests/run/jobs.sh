#!/bin/sh
# Integration tests of `cbenchctl run --jobs` and `--cpus`: benchmarks
# measured on several CPUs at once agree with a run on one (in cycles: a
# VM's host moves its clock with how many of its cores are busy, which
# ns/op follows); each benchmark's last trial runs alone; each trial says
# its CPU; CPUs that cannot be had are refused before anything measures;
# Ctrl-C keeps nothing half-done.  Nothing here asserts speed.
#
# Usage: tests/run/jobs.sh   (from the top of the tree, after make itest's deps)
set -u

. tests/run/lib.sh

FIX=build/tests/fixtures
SUITE=build/examples/suite.so
export XDG_CACHE_HOME="$TMP/cache"
mkdir -p "$TMP/locks"
export CBENCH_LOCK_DIR="$TMP/locks"
FILTER='^(add|imul)_chain$'
CPUS=$(nproc)

if [ "$CPUS" -lt 2 ]; then
	ok "one CPU here: --jobs 2 is not tried (skipped)"
	run_cb run --jobs 2 "$SUITE"
	if [ "$rc" -eq 1 ] && grep -q 'ask --jobs 1 or less' "$TMP/err"; then
		ok "--jobs 2 on one CPU is refused, saying how many it allows"
	else
		not_ok "--jobs 2 on one CPU: exit $rc: $(cat "$TMP/err")"
	fi
	finish
	exit
fi

# --keep-shared: which trials ran beside which is what is checked, and a
# core the host shares would set some aside (stats/trials.h).
run_cb run --keep-shared --filter "$FILTER" --format json -o "$TMP/one.json" "$SUITE"
rc_one=$rc
run_cb run --keep-shared --jobs 2 --filter "$FILTER" --format json -o "$TMP/two.json" "$SUITE"
if [ "$rc_one" -eq 0 ] && [ "$rc" -eq 0 ] && "$SCHEMA_PY" - "$TMP/one.json" "$TMP/two.json" 2>>"$TMP/err" <<'PY'
import json, sys
one, two = (json.load(open(p)) for p in sys.argv[1:3])
c = two["config"]
assert c["jobs"] == 2 and len(set(c["worker_cpus"])) == 2, c
assert "jobs" not in one["config"], one["config"]
# Each trial with a core width counted once, beside others or alone; under
# --keep-shared none is judged shared, so nothing is said of the CPUs.
bo = c["beside_others"]
wide = [t for b in two["benchmarks"] for t in b["trials"]
        if t["status"] != "failed" and t.get("core_width")]
assert bo["trials"] == sum(not t["solo"] for t in wide), (bo, len(wide))
assert bo["alone_trials"] == sum(t["solo"] for t in wide), (bo, len(wide))
assert bo["shared"] == bo["alone_shared"] == 0 and not bo["shares_core"], bo
assert "beside_others" not in one["config"], one["config"]
for a, b in zip(one["benchmarks"], two["benchmarks"]):
    assert a["name"] == b["name"]
    # One figure of the same work in cycles (the chains are 1 and 3 cycles
    # an op on every recent core): a CPU's reference mistaken for another's
    # or a lane's trials mixed up would part them by far more than 3 %; a
    # host whose other tenant contends for the ALUs parted them by 1.5 %
    # once, which is the host's, not cbench's (bench/clock.sh measures it).
    gap = b["est_cycles_per_op"] / a["est_cycles_per_op"] - 1
    assert abs(gap) < 0.03, (b["name"], gap)
    ok = [t for t in b["trials"] if t["status"] != "failed"]
    assert all(t["cpu"] in c["worker_cpus"] for t in ok), b["name"]
    assert {t["cpu"] for t in ok if not t["solo"]} == set(c["worker_cpus"]), b["name"]
    # The last round ran alone; whether it measured differently is the
    # host's (a VM's two CPUs may be one core's two threads, or share it
    # with another tenant: test_report_jobs.c tests the verdict), but a
    # verdict that they differ must rest on a gap past the least named.
    # Stopped by precision (the default, on several CPUs too; precise or
    # not, as the host allows), a trial alone follows the rounds.
    assert b["stopped"]["why"] in ("precise", "budget", "most"), b["stopped"]
    # Whether a trial ran alone is read from when the trials ran: a
    # benchmark's rounds after the other stopped ran alone too.
    rounds = [t for t in b["trials"] if not t.get("replacement")]
    assert rounds[-1]["solo"] and sum(not t["solo"] for t in rounds[:-1]) >= 4, b["name"]
    assert "parallel_gap_pct" in b, b["name"]
    assert not b["parallel_differs"] or b["parallel_gap_pct"] > 1, b
    assert "cpu" not in a["trials"][0] and "parallel_differs" not in a
import jsonschema
for d in (one, two):
    jsonschema.validate(d, json.load(open("docs/schema/run.schema.json")))
PY
then
	ok "--jobs 2: each benchmark on both CPUs, its last trial alone, the same cycles as on one CPU"
else
	not_ok "--jobs 2 against one CPU: exit statuses $rc_one/$rc: $(cat "$TMP/err")"
fi

# One benchmark on two CPUs under the default: each round is one trial,
# so no trial ran beside another, and each says so (report_jobs.c reads
# it from when they ran); nothing is judged of measuring beside others.
run_cb run --keep-shared --jobs 2 --filter '^add_chain$' --format json -o "$TMP/lone.json" "$SUITE"
if [ "$rc" -eq 0 ] && python3 - "$TMP/lone.json" <<'PY'
import json, sys
b, = json.load(open(sys.argv[1]))["benchmarks"]
assert all(t["solo"] for t in b["trials"]), [t["solo"] for t in b["trials"]]
assert b["parallel_differs"] is False and "parallel_gap_pct" not in b, b
PY
then
	ok "--jobs 2 with one benchmark: every trial alone, as they ran"
else
	not_ok "--jobs 2 with one benchmark: exit $rc: $(cat "$TMP/err")"
fi

# Asking for more CPUs than fit, or for two that cannot be had.
run_cb run --jobs "$((CPUS + 1))" "$SUITE"
if [ "$rc" -eq 1 ] && grep -q "ask --jobs [0-9]* or less" "$TMP/err" && [ ! -s "$TMP/out" ]; then
	ok "--jobs over the CPUs that fit is refused, saying how many it allows"
else
	not_ok "--jobs $((CPUS + 1)): exit $rc: $(cat "$TMP/err")"
fi
for bad in "x" "$CPUS" "0-$CPUS"; do
	run_cb run --cpus "$bad" "$SUITE"
	if [ "$rc" -eq 1 ] && grep -q -- "--cpus" "$TMP/err" && [ ! -s "$TMP/out" ]; then
		ok "--cpus $bad is refused, naming what is wrong"
	else
		not_ok "--cpus $bad: exit $rc: $(cat "$TMP/err")"
	fi
done
run_cb run --cpu 0 --jobs 2 "$SUITE"
if [ "$rc" -eq 2 ] && grep -q -- "--cpu names one CPU" "$TMP/err"; then
	ok "--cpu with --jobs is refused: --cpus names several"
else
	not_ok "--cpu with --jobs: exit $rc: $(cat "$TMP/err")"
fi
run_cb run --jobs 0 "$SUITE"
if [ "$rc" -eq 2 ] && grep -q -- "--jobs" "$TMP/err"; then
	ok "--jobs 0 is refused"
else
	not_ok "--jobs 0: exit $rc: $(cat "$TMP/err")"
fi

# --cpus alone takes every CPU it names.
run_cb run --cpus 0-1 --trials 3 --filter '^add_chain$' --format json -o "$TMP/cpus.json" "$SUITE"
if [ "$rc" -eq 0 ] && "$SCHEMA_PY" - "$TMP/cpus.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["config"]["jobs"] == 2 and sorted(d["config"]["worker_cpus"]) == [0, 1], d["config"]
# --trials 3: two rounds on both CPUs, the last round alone.
t = d["benchmarks"][0]["trials"]
assert [x["solo"] for x in t[:3]] == [False, False, True], t
PY
then
	ok "--cpus 0-1 measures on both, the last of --trials alone"
else
	not_ok "--cpus 0-1: exit $rc: $(cat "$TMP/err")"
fi

# Stopped while both CPUs' first trial workers are in setup (the reps come
# from the cache, so trials start at once): nothing kept, no file, no
# worker left, exit status 130.
"$CB" run --trials 1 --filter '^by_worker$' -o "$TMP/tuned.txt" "$FIX/placed.so" 2>/dev/null
echo 0 >"$TMP/counter"
CBENCH_PLACED_COUNTER=$TMP/counter CBENCH_PLACED_HOLD=1 "$CB" run --jobs 2 --precision off \
	--filter '^by_worker$' -o "$TMP/none.txt" "$FIX/placed.so" >"$TMP/out" 2>"$TMP/err" &
pid=$!
wait_count "$TMP/counter" 1
kill -INT "$pid"
wait "$pid"
rc=$?
if [ "$rc" -eq 130 ] && [ ! -e "$TMP/none.txt" ] && ! pgrep -f "$FIX/placed.so" >/dev/null; then
	ok "Ctrl-C during a --jobs 2 run: nothing kept, no file, no worker left, exit status 130"
else
	not_ok "Ctrl-C during --jobs 2: exit $rc: $(cat "$TMP/err")"
fi

finish
