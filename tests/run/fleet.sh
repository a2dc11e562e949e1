#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Integration tests of the store on PostgreSQL and of the lab's queue, on a
# real server (tests/run/pg-server.sh: Debian's postgresql, initdb in a
# scratch directory, a Unix socket only):
#
#  - the same made-up runs into a SQLite store and a PostgreSQL one give
#    the same list, the same history (JSON and CSV), the same LNT export,
#    the same refusals; a store of schema 1 is migrated, on both;
#  - bad input: a server that is not there, a database that is not a
#    store, a store of a newer schema, a URL with a password in it;
#  - the queue: two workers drain 20 jobs (18 runs, 2 confirmations), one
#    killed (SIGKILL) in the middle of a job, a third added later: every
#    job done exactly once, the killed one's results absent, the third
#    takes its share; a worker whose machine fits no job says so and
#    changes nothing.
#
# Nothing here is timed: the runs measure, but only their count and their
# place in the store are checked.
#
# Usage: tests/run/fleet.sh   (from the top of the tree, after make cbenchctl)
set -u

. tests/run/lib.sh

OUTPUT_GLOB='report*'
CC=${CC:-cc}
# Not under $TMP: the server's user must reach it, and $TMP is ours alone.
PGDIR=$(mktemp -d /tmp/cbench-pg.XXXXXX)
trap 'tests/run/pg-server.sh stop "$PGDIR"; rm -rf "$TMP" "$PGDIR"' EXIT INT TERM

URL=$(tests/run/pg-server.sh start "$PGDIR")
rc=$?
if [ "$rc" -eq 77 ]; then
	# CI installs everything: a server missing there is a failure.
	[ "${CI:-}" = true ] && { echo "FAILED: no PostgreSQL server in CI"; exit 1; }
	echo "SKIP: no PostgreSQL server here (sh scripts/install-deps.sh --all installs one)"
	exit 77
fi
[ "$rc" -eq 0 ] || { echo "FAILED: cannot start PostgreSQL"; exit 1; }
PSQL=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)/psql

# newdb NAME: an empty database on the server, its URL.
newdb() {
	tests/run/pg-server.sh db "$PGDIR" "$1"
}

sql() {
	"$PSQL" -qAt -v ON_ERROR_STOP=1 "$@"
}

# build DIR COMMIT ADDS: tests/fixtures/history.c as COMMIT's build, into DIR/history.so.
build() {
	mkdir -p "$1" &&
	$CC -O2 -fPIC -shared -Iinclude -DHISTORY_ADDS="$3" -DHISTORY_COMMIT="\"$2\"" \
		-o "$1/history.so" tests/fixtures/history.c
}

# ---- the same store on both databases ------------------------------------
# Runs here keep trials on a shared core (--keep-shared): a run whose every
# trial was shared has no figure for a store, and what these checks count
# must not hang on the host's neighbours.
build "$TMP/tmpl" t 2000
run_cb run --backend user --keep-shared --trials 3 --trial-time 0.002 --format json -o "$TMP/tmpl/run.json" \
	"$TMP/tmpl/history.so"
[ "$rc" -eq 0 ] || { not_ok "a template run"; finish; exit; }

PGSTORE=$(newdb same)
LITE=$TMP/same.db
# Commits 1-12, 6-9 slower on two of the four series (a reverted regression).
for i in $(seq 1 12); do
	f=1
	[ "$i" -ge 6 ] && [ "$i" -le 9 ] && f=2.35
	python3 tests/run/history_reports.py "$TMP/tmpl/run.json" "$TMP/r$i.json" "$i" "$((12 + i))" \
		0.0005 "BenchmarkHash/len=64=1" "BenchmarkHash/len=512=$f" "BenchmarkHash/len=4096=$f" \
		"BenchmarkHash/algo=xxh64=1" || not_ok "made-up report $i"
	for s in "$LITE" "$PGSTORE"; do
		"$CB" store add "$s" "$TMP/r$i.json" --commit "c$i" --order "$i" 2>>"$TMP/add.err" ||
			not_ok "store add $i into $s"
	done
done
same() {
	what=$1
	shift
	"$CB" "$@" "$LITE" >"$TMP/lite.out" 2>"$TMP/lite.err"
	a=$?
	"$CB" "$@" "$PGSTORE" >"$TMP/pg.out" 2>"$TMP/pg.err"
	b=$?
	sed -i "s|$LITE|STORE|g" "$TMP/lite.out" "$TMP/lite.err"
	sed -i "s|$PGSTORE|STORE|g" "$TMP/pg.out" "$TMP/pg.err"
	if [ "$a" -eq "$b" ] && cmp -s "$TMP/lite.out" "$TMP/pg.out" && cmp -s "$TMP/lite.err" "$TMP/pg.err"; then
		ok "SQLite and PostgreSQL: the same $what (exit $a)"
	else
		not_ok "SQLite and PostgreSQL differ on $what (exit $a and $b)"
		diff "$TMP/lite.out" "$TMP/pg.out" | head -10
		diff "$TMP/lite.err" "$TMP/pg.err" | head -10
	fi
}
same "store list (JSON)" store list --format json
same "store list (text)" store list
same "history (JSON)" history --format json
same "history (CSV)" history --format csv
same "history gate" history --fail-on slower --since c9
same "history --next" history --next
grep -q '"change_points"' "$TMP/pg.out" 2>/dev/null || true
"$CB" history --format json "$PGSTORE" >"$TMP/h.json" 2>/dev/null
python3 - "$TMP/h.json" <<'PY' && ok "PostgreSQL's history finds the 4 change points" || not_ok "history on PostgreSQL"
import json, sys
r = json.load(open(sys.argv[1]))
cps = sorted((b["name"], c["order"]) for b in r["benchmarks"] for c in b["change_points"])
want = sorted((n, o) for n in ("BenchmarkHash/len=512", "BenchmarkHash/len=4096") for o in (6, 10))
sys.exit(0 if [(n.split("/", 1)[-1], o) for n, o in cps] == [(n.split("/", 1)[-1], o) for n, o in want] else 1)
PY
rm -rf "$TMP/lnt-a" "$TMP/lnt-b"
"$CB" store export "$LITE" --format lnt -o "$TMP/lnt-a" 2>/dev/null &&
	"$CB" store export "$PGSTORE" --format lnt -o "$TMP/lnt-b" 2>/dev/null &&
	diff -r "$TMP/lnt-a" "$TMP/lnt-b" >/dev/null &&
	ok "SQLite and PostgreSQL: the same LNT export" || not_ok "the LNT exports differ"

# The same refusals, and nothing changed by them.
python3 tests/run/history_reports.py "$TMP/tmpl/run.json" "$TMP/r40.json" 40 52 0.0005 \
	"BenchmarkHash/len=64=1" || not_ok "made-up report 40"
before=$(sql "$PGSTORE" -c "SELECT count(*) FROM run")
for s in "$LITE" "$PGSTORE"; do
	: >"$TMP/refused"
	run_cb store add "$s" "$TMP/r3.json" --commit c3 --order 3
	sed "s|$s|STORE|" "$TMP/err" >>"$TMP/refused"
	run_cb store add "$s" "$TMP/r40.json" --commit c2 --order 40
	sed "s|$s|STORE|" "$TMP/err" >>"$TMP/refused"
	run_cb store add "$s" "$TMP/r40.json" --commit c40 --order 2
	sed "s|$s|STORE|" "$TMP/err" >>"$TMP/refused"
	mv "$TMP/refused" "$TMP/refused-$([ "$s" = "$LITE" ] && echo lite || echo pg)"
done
if grep -q "this run is in the store already (run 3," "$TMP/refused-pg" &&
   grep -q "commit c2 is order 2 in this store, not 40" "$TMP/refused-pg" &&
   grep -q "order 2 of history.so is commit c2 in this store, not c40" "$TMP/refused-pg" &&
   cmp -s "$TMP/refused-lite" "$TMP/refused-pg"; then
	ok "SQLite and PostgreSQL: the same refusals, the same words"
else
	not_ok "the refusals differ"
	diff "$TMP/refused-lite" "$TMP/refused-pg"
fi
[ "$(sql "$PGSTORE" -c "SELECT count(*) FROM run")" = "$before" ] &&
	ok "refused runs left the PostgreSQL store as it was" || not_ok "a refused run changed the store"
run_cb store remove "$PGSTORE" --commit c12
[ "$rc" -eq 0 ] && [ "$(sql "$PGSTORE" -c "SELECT count(*) FROM run")" = $((before - 1)) ] &&
	[ "$(sql "$PGSTORE" -c "SELECT count(*) FROM trial WHERE run NOT IN (SELECT id FROM run)")" = 0 ] &&
	ok "store remove on PostgreSQL: the run and its trials go" || not_ok "store remove on PostgreSQL"

# run --store into PostgreSQL, the object kept in the store.
run_cb run --backend user --keep-shared --trials 2 --trial-time 0.002 --store "$PGSTORE" --commit c13 --order 13 \
	--keep-object store "$TMP/tmpl/history.so"
copy=$(sql "$PGSTORE" -c "SELECT object_copy FROM run WHERE commit_id = 'c13'")
[ "$rc" -eq 0 ] && [ "$copy" = "store:$(sql "$PGSTORE" -c "SELECT build_id FROM run WHERE commit_id = 'c13'")" ] &&
	[ "$(sql "$PGSTORE" -c "SELECT count(*) FROM object")" = 1 ] &&
	ok "run --store postgresql://... --keep-object store: the run, its object in the store" ||
	not_ok "run --store on PostgreSQL (rc $rc, copy '$copy')"
build "$TMP/other" other 2001
expect_failure "--keep-object store of another build than the run's" "is build .*, not the build the run measured" \
	store add "$PGSTORE" "$TMP/r40.json" --commit c41 --order 41 --keep-object store --object "$TMP/other/history.so"
[ "$(sql "$PGSTORE" -c "SELECT count(*) FROM object")" = 1 ] &&
	ok "the refused object is not kept" || not_ok "a refused object stayed in the store"

# history --confirm audits objects kept in the store itself (store:ID):
# commits 4-6 are 20 % slower (2,400 adds for 2,000).
C=$(newdb confirm)
for i in 1 2 3 4 5 6; do
	adds=2000
	[ "$i" -ge 4 ] && adds=2400
	build "$TMP/k$i" "k$i" "$adds" &&
	"$CB" run --backend user --keep-shared --trials 3 --trial-time 0.005 --store "$C" --commit "k$i" --order "$i" \
		--keep-object store -o "$TMP/k$i/r.json" "$TMP/k$i/history.so" >/dev/null 2>>"$TMP/k.err" ||
		not_ok "run k$i into the store"
done
rm -rf "$TMP"/k[1-6]
run_cb history --confirm --budget 5 --filter Chain "$C"
grep -q "confirmed: the audit of the two objects found B slower" "$TMP/out" &&
	ok "history --confirm audits the objects the store keeps (their files gone)" ||
	{ not_ok "history --confirm with objects in the store"; cat "$TMP/out" | head; }

# A confirmation of two objects the store keeps already.
run_cb lab queue confirm --store "$PGSTORE" "$copy" "$copy"
[ "$rc" -eq 0 ] && [ "$(sql "$PGSTORE" -c "SELECT kind || ' ' || state FROM job")" = "confirm queued" ] &&
	ok "queue confirm of objects kept in the store (store:ID)" || not_ok "queue confirm store:ID"
expect_failure "queue confirm of an object the store does not keep" "the store keeps no object store:0000" \
	lab queue confirm --store "$PGSTORE" "$copy" store:0000

# Schema 1, as an older cbenchctl left it, is migrated on both.
cp "$LITE" "$TMP/old.db"
sqlite3 "$TMP/old.db" "DROP TABLE build; DROP TABLE job; DROP TABLE object; PRAGMA user_version = 1;" 2>/dev/null ||
	python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.executescript('DROP TABLE build; DROP TABLE job; DROP TABLE object; PRAGMA user_version = 1;')" "$TMP/old.db"
OLDPG=$(newdb old)
"$CB" store add "$OLDPG" "$TMP/r1.json" --commit c1 --order 1 2>/dev/null
sql "$OLDPG" -c "DROP TABLE build; DROP TABLE job; DROP TABLE object; UPDATE cbench_store SET schema_version = 1"
for s in "$TMP/old.db" "$OLDPG"; do
	run_cb lab queue list --store "$s"
	r1=$rc
	run_cb store add "$s" "$TMP/r2.json" --commit c2 --order 2
	run_cb lab queue list --store "$s"
	[ "$r1" -ne 0 ] && [ "$rc" -eq 0 ] && grep -q ": 0 jobs" "$TMP/out" &&
		ok "schema 1 read as it is, migrated to 2 by a write ($(echo "$s" | cut -c1-10)...)" ||
		not_ok "migration of $s"
done

# ---- bad input ------------------------------------------------------------
expect_failure "a server that is not there" "cannot connect to the store postgresql:///x\?host=$TMP/none" \
	store list "postgresql:///x?host=$TMP/none"
expect_failure "a URL with a password" "carries a password: leave it out" \
	store list "postgresql://u:secret@localhost/x"
FOREIGN=$(newdb foreign)
sql "$FOREIGN" -c "CREATE TABLE accounts (id int)"
expect_failure "a database that is not a store" "is another application's PostgreSQL database, not a cbench store" \
	store add "$FOREIGN" "$TMP/r1.json" --commit c1 --order 1
[ "$(sql "$FOREIGN" -c "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")" = 1 ] &&
	ok "the foreign database is as it was" || not_ok "the foreign database changed"
NEWER=$(newdb newer)
"$CB" store add "$NEWER" "$TMP/r1.json" --commit c1 --order 1 2>/dev/null
sql "$NEWER" -c "UPDATE cbench_store SET schema_version = 99"
expect_failure "a store of a newer schema" "is a store of schema 99; this cbenchctl knows schema 2 \(a newer cbenchctl wrote it\)" \
	store add "$NEWER" "$TMP/r2.json" --commit c2 --order 2
expect_failure "a queue in a store of a newer schema" "schema 99" lab queue list --store "$NEWER"
[ "$(sql "$NEWER" -c "SELECT count(*) FROM run")" = 1 ] && ok "the newer store is as it was" ||
	not_ok "the newer store changed"

# ---- the queue ------------------------------------------------------------
Q=$(newdb queue)
build "$TMP/a" a 2000
build "$TMP/b" b 2010
for i in $(seq 1 18); do
	run_cb lab queue add --store "$Q" "$TMP/a/history.so" --commit "q$i" --order "$i" -- \
		--keep-shared --trials 3 --trial-time 0.005
	[ "$rc" -eq 0 ] || not_ok "queue add $i"
	if [ "$i" -eq 9 ] || [ "$i" -eq 18 ]; then
		run_cb lab queue confirm --store "$Q" "$TMP/a/history.so" "$TMP/b/history.so" -- --budget 2 \
			--min-effect 0.5
		[ "$rc" -eq 0 ] || not_ok "queue confirm"
	fi
done
[ "$(sql "$Q" -c "SELECT count(*) FROM job WHERE state = 'queued'")" = 20 ] &&
	[ "$(sql "$Q" -c "SELECT count(*) FROM object")" = 2 ] &&
	ok "20 jobs queued, their 2 objects kept once each by build ID" || not_ok "the queue's 20 jobs"

"$CB" lab worker --store "$Q" --drain --lease 3 --poll 1 --name w1 2>"$TMP/w1.err" &
w1=$!
"$CB" lab worker --store "$Q" --drain --lease 30 --poll 1 --name w2 2>"$TMP/w2.err" &
w2=$!
# w1 in the middle of a job: its job running, its run started.
for _ in $(seq 600); do
	[ -n "$(sql "$Q" -c "SELECT id FROM job WHERE state = 'running' AND worker = 'w1'")" ] &&
		pgrep -P "$w1" >/dev/null && break
	sleep 0.05
done
kill -KILL "$w1"
wait "$w1" 2>/dev/null
killed=$(sql "$Q" -c "SELECT id FROM job WHERE state = 'running' AND worker = 'w1'")
"$CB" lab worker --store "$Q" --drain --lease 30 --poll 1 --name w3 2>"$TMP/w3.err" &
w3=$!
wait "$w2"
wait "$w3"
# Had the others drained before the killed job's lease ran out, one more takes it.
if [ "$(sql "$Q" -c "SELECT count(*) FROM job WHERE state <> 'done'")" != 0 ]; then
	sleep 4
	"$CB" lab worker --store "$Q" --drain --lease 3 --name w4 2>"$TMP/w4.err"
fi
[ -n "$killed" ] && ok "w1 killed in the middle of job $killed" || not_ok "w1 never held a job"
[ -z "$(ls -d /tmp/cbench-job."$w1".* 2>/dev/null)" ] &&
	ok "the killed worker's scratch directory removed by the next worker" || not_ok "w1's scratch directory left"
[ "$(sql "$Q" -c "SELECT count(*) FROM job WHERE state = 'done'")" = 20 ] &&
	ok "every job done" || { not_ok "jobs not done"; sql "$Q" -c "SELECT id, state, worker, error FROM job WHERE state <> 'done'"; }
[ "$(sql "$Q" -c "SELECT count(*) FROM run")" = 18 ] &&
	[ "$(sql "$Q" -c "SELECT count(DISTINCT commit_id) FROM run")" = 18 ] &&
	[ "$(sql "$Q" -c "SELECT count(*) FROM job j JOIN run r ON r.id = j.run AND r.commit_id = j.commit_id")" = 18 ] &&
	ok "each run job's run stored exactly once, at its commit" || not_ok "runs lost or twice"
[ "$(sql "$Q" -c "SELECT claims FROM job WHERE id = ${killed:-0}")" = 2 ] &&
	[ "$(sql "$Q" -c "SELECT worker FROM job WHERE id = ${killed:-0}")" != w1 ] &&
	ok "the killed job taken again when its lease ran out, by another worker" ||
	not_ok "the killed job: claims $(sql "$Q" -c "SELECT claims, worker FROM job WHERE id = ${killed:-0}")"
[ "$(sql "$Q" -c "SELECT count(*) FROM run r JOIN job j ON r.commit_id = j.commit_id WHERE j.id = ${killed:-0}")" -le 1 ] &&
	[ "$(sql "$Q" -c "SELECT count(*) FROM run r JOIN job j ON r.commit_id = j.commit_id AND r.id <> j.run WHERE j.id = ${killed:-0}")" = 0 ] &&
	ok "the killed worker's half-done job left nothing in the store" || not_ok "w1's partial results"
[ "$(sql "$Q" -c "SELECT count(*) FROM job WHERE worker = 'w3'")" -ge 1 ] &&
	ok "the worker added later took its share ($(sql "$Q" -c "SELECT count(*) FROM job WHERE worker = 'w3'") jobs)" ||
	not_ok "w3 took nothing"
[ "$(sql "$Q" -c "SELECT count(*) FROM job WHERE kind = 'confirm' AND result LIKE '%\"audits\"%'")" = 2 ] &&
	ok "both confirmations hold their audit's report" || not_ok "confirmations without reports"
run_cb history --format json "$Q"
[ "$rc" -eq 0 ] && ok "history over the fleet's store" || not_ok "history over the queue's runs"

# A worker that stalls past its lease (stopped), while another takes its job
# and ends it: when it comes back, its results are refused.
S=$(newdb stall)
run_cb lab queue add --store "$S" "$TMP/a/history.so" --commit s1 --order 1 -- --keep-shared --trials 10 --trial-time 0.05
"$CB" lab worker --store "$S" --drain --lease 3 --name w6 2>"$TMP/w6.err" &
w6=$!
for _ in $(seq 600); do
	[ "$(sql "$S" -c "SELECT state || ' ' || worker FROM job")" = "running w6" ] && pgrep -P "$w6" >/dev/null && break
	sleep 0.05
done
kill -STOP "$w6"
sleep 4
run_cb lab worker --store "$S" --drain --lease 30 --name w7
kill -CONT "$w6"
wait "$w6"
[ "$(sql "$S" -c "SELECT state || ' ' || worker || ' ' || claims FROM job")" = "done w7 2" ] &&
	[ "$(sql "$S" -c "SELECT count(*) FROM run")" = 1 ] && grep -q "job 1 (run history.so) lost" "$TMP/w6.err" &&
	ok "a worker back after its lease ran out: its results refused, the job done once" ||
	{ not_ok "a stalled worker's results"; cat "$TMP/w6.err"; sql "$S" -c "SELECT state, worker, claims FROM job"; }

# SIGTERM: the job at hand goes back to the queue, unclaimed, nothing stored.
T=$(newdb term)
run_cb lab queue add --store "$T" "$TMP/a/history.so" --commit t1 --order 1 -- --keep-shared --trials 50 --trial-time 0.05
"$CB" lab worker --store "$T" --drain --name w8 2>"$TMP/w8.err" &
w8=$!
for _ in $(seq 600); do
	[ "$(sql "$T" -c "SELECT worker FROM job")" = w8 ] && pgrep -P "$w8" >/dev/null && break
	sleep 0.05
done
kill -TERM "$w8"
wait "$w8"
[ "$(sql "$T" -c "SELECT state || ' ' || coalesce(worker, '-') || ' ' || claims FROM job")" = "queued - 1" ] &&
	[ "$(sql "$T" -c "SELECT count(*) FROM run")" = 0 ] && grep -q "put back in the queue" "$TMP/w8.err" &&
	ok "SIGTERM puts the worker's job back in the queue" ||
	{ not_ok "SIGTERM to a worker"; cat "$TMP/w8.err"; }

# history --next as jobs: a step between orders 12 and 14 of a series
# measured at even orders; the build of order 13 kept, queued, measured.
N=$(newdb next)
for i in $(seq 1 12); do
	f=1
	[ "$i" -ge 7 ] && f=1.05
	python3 tests/run/history_reports.py "$TMP/tmpl/run.json" "$TMP/n$i.json" "$((100 + i))" "$i" 0.0005 \
		"BenchmarkHash/len=64=$f" && "$CB" store add "$N" "$TMP/n$i.json" --commit "n$((2 * i))" \
		--order "$((2 * i))" 2>>"$TMP/add.err" || not_ok "store add n$((2 * i))"
done
run_cb lab queue next --store "$N"
grep -q "order 13 of history.so: no build kept" "$TMP/out" && [ "$(sql "$N" -c "SELECT count(*) FROM job")" = 0 ] &&
	ok "queue next names the order to build, and queues nothing without it" ||
	{ not_ok "queue next without a build"; cat "$TMP/out"; }
build "$TMP/n13" n13 2000
run_cb lab queue keep --store "$N" "$TMP/n13/history.so" --commit n13 --order 13
run_cb lab queue next --store "$N" -- --keep-shared --trials 3 --trial-time 0.005
run_cb lab queue next --store "$N"
[ "$(sql "$N" -c "SELECT kind || ' ' || commit_id || ' ' || ord || ' ' || host FROM job")" = "run n13 13 $(hostname)" ] &&
	ok "queue next queues the kept build of order 13 on the series' machine, once" ||
	not_ok "queue next with a build: $(sql "$N" -c "SELECT kind, commit_id, ord, host FROM job")"
run_cb lab worker --store "$N" --drain
[ "$rc" -eq 0 ] && [ "$(sql "$N" -c "SELECT count(*) FROM run WHERE commit_id = 'n13' AND ord = 13")" = 1 ] &&
	ok "the worker measures it into its series" || not_ok "the narrowing job's run"
expect_failure "queue keep of another build at a kept order" "order 13 of history.so is kept as commit and build n13" \
	lab queue keep --store "$N" "$TMP/a/history.so" --commit n13 --order 13

# A run set aside (order 12 alone, 30 % apart from the runs around it) is
# measured once more: queued once its build is kept, not twice while the
# job waits, and not again once its order has a second run.
X=$(newdb aside)
for i in $(seq 1 12); do
	f=1
	[ "$i" -eq 6 ] && f=1.3
	python3 tests/run/history_reports.py "$TMP/tmpl/run.json" "$TMP/x$i.json" "$((200 + i))" "$i" 0.0005 \
		"BenchmarkHash/len=64=$f" && "$CB" store add "$X" "$TMP/x$i.json" --commit "x$((2 * i))" \
		--order "$((2 * i))" 2>>"$TMP/add.err" || not_ok "store add x$((2 * i))"
done
run_cb lab queue next --store "$X"
grep -q "order 12 of history.so: no build kept (measuring again Hash/len=64's run set aside" "$TMP/out" &&
	[ "$(sql "$X" -c "SELECT count(*) FROM job")" = 0 ] &&
	ok "queue next names the build a run set aside needs, and queues nothing without it" ||
	{ not_ok "queue next of a run set aside, without its build"; cat "$TMP/out" "$TMP/err"; }
# The template is the build every run of this series names.
run_cb lab queue keep --store "$X" "$TMP/tmpl/history.so" --commit x12 --order 12
run_cb lab queue next --store "$X" -- --keep-shared --trials 3 --trial-time 0.005
grep -q "queued: order 12 (commit x12) of history.so on .*, measuring again Hash/len=64's run set aside" "$TMP/out" ||
	not_ok "queue next: no job for the run set aside: $(cat "$TMP/out" "$TMP/err")"
run_cb lab queue next --store "$X"
[ "$(sql "$X" -c "SELECT kind || ' ' || commit_id || ' ' || ord || ' ' || host FROM job")" = "run x12 12 $(hostname)" ] &&
	[ "$(sql "$X" -c "SELECT position('--backend' in args) || ' ' || position('user' in args) FROM job")" = "1 11" ] &&
	ok "queue next queues a run set aside measured again, once while it waits, on the series' backend" ||
	not_ok "queue next of a run set aside: $(sql "$X" -c "SELECT kind, commit_id, ord, host, state FROM job")"
expect_failure "queue next with an option run refuses, before reading the store" \
	"a run job's options are run's, which refuses these" lab queue next --store "$X" -- --trails 3
[ "$rc" -eq 2 ] || not_ok "queue next with a mistyped option: exit $rc, not 2"
run_cb lab worker --store "$X" --drain
run_cb lab queue next --store "$X"
[ "$(sql "$X" -c "SELECT count(*) FROM run WHERE ord = 12")" = 2 ] &&
	[ "$(sql "$X" -c "SELECT count(*) FROM job")" = 1 ] &&
	ok "a run set aside measured again is not queued again" ||
	not_ok "after the run set aside was measured again: $(sql "$X" -c "SELECT kind, ord, state FROM job")"

# A worker that fits no job: says so, takes nothing, changes nothing.
run_cb lab queue add --store "$Q" "$TMP/a/history.so" --commit q19 --order 19 --cpu "no such CPU"
expect_failure "a worker whose machine fits no job" "1 queued job, none for this machine \(the first wants cpu no such CPU, host any\)" \
	lab worker --store "$Q" --drain --name w5
[ "$(sql "$Q" -c "SELECT state || claims FROM job WHERE commit_id = 'q19'")" = queued0 ] &&
	ok "the job that fits no machine is still queued, unclaimed" || not_ok "the unfit job was touched"
expect_failure "a job may not say where its results go" "may not name --store" \
	lab queue add --store "$Q" "$TMP/a/history.so" --commit q20 --order 20 -- --store x
# What the worker's run or audit would refuse is refused when queued.
jobs_before=$(sql "$Q" -c "SELECT count(*) FROM job")
expect_failure "a run job's option run does not take" "unknown or incomplete option '--trails'.*|a run job's options are run's, which refuses these \(above\)" \
	lab queue add --store "$Q" "$TMP/a/history.so" --commit q21 --order 21 -- --trails 3
grep -q "a run job's options are run's, which refuses these (above)" "$TMP/err" ||
	not_ok "queue add of a mistyped option: the lab's words missing: $(cat "$TMP/err")"
expect_failure "a run job's options run refuses together" "--warmup \(20s\) plus --trial-time" \
	lab queue add --store "$Q" "$TMP/a/history.so" --commit q21 --order 21 -- --warmup 20
expect_failure "a confirm job's option audit refuses" "--budget wants a positive number" \
	lab queue confirm --store "$Q" "$TMP/a/history.so" "$TMP/a/history.so" -- --budget x
[ "$(sql "$Q" -c "SELECT count(*) FROM job")" = "$jobs_before" ] &&
	ok "jobs whose options their command refuses are not queued" ||
	not_ok "a job with options its command refuses was queued"
expect_failure "queue add without --commit" "queue add takes --commit ID and --order N" \
	lab queue add --store "$Q" "$TMP/a/history.so"
expect_failure "a queue on a server that is not there" "cannot connect" \
	lab worker --store "postgresql:///x?host=$TMP/none" --drain

# The same queue in a SQLite file, for one machine.
run_cb lab queue add --store "$TMP/q.db" "$TMP/a/history.so" --commit s1 --order 1 -- --keep-shared --trials 2 --trial-time 0.002
run_cb lab worker --store "$TMP/q.db" --drain
[ "$rc" -eq 0 ] && "$CB" store list "$TMP/q.db" 2>/dev/null | grep -q "s1 " &&
	ok "the queue in a SQLite store: the job done, its run stored" || not_ok "the queue on SQLite"

# A run job whose every trial ran on a core another thread shared: the
# store would take none of it, so its worker measures it again, three
# times in all, then fails the job with the store's reason.  The cache
# says the CPU's core is 50 adds a cycle wide, wider than any today, so
# every trial is narrower (tests/run/run.sh does the same).
export XDG_CACHE_HOME="$TMP/narrow"
run_cb run --backend user --trials 1 --trial-time 0.002 --shared-wait 0 -o /dev/null "$TMP/a/history.so"
sed -i 's/^\([0-9a-f]*\) [0-9]* core width on CPU/\1 50000 core width on CPU/' "$XDG_CACHE_HOME/cbench/tuning"
run_cb lab queue add --store "$TMP/narrow.db" "$TMP/a/history.so" --commit n1 --order 1 -- \
	--shared-wait 0 --trials 2 --trial-time 0.002
run_cb lab worker --store "$TMP/narrow.db" --drain
"$CB" lab queue list --store "$TMP/narrow.db" --format json >"$TMP/narrow.json" 2>/dev/null
if grep -q "every benchmark ran on a core another thread shared; measuring it again (2 of 3)$" "$TMP/err" &&
   grep -q "measuring it again (3 of 3)$" "$TMP/err" && ! grep -q "(4 of 3)" "$TMP/err" &&
   python3 - "$TMP/narrow.json" <<'PY'
import json, sys
(j,) = json.load(open(sys.argv[1]))["jobs"]
assert j["state"] == "failed" and j["claims"] == 1, j
assert "every trial kept ran on a core another thread shared" in j["error"], j
assert j["error"].endswith("; measured 3 times"), j
PY
then
	ok "a run job whose every trial ran shared: measured three times, then failed with the store's reason"
else
	not_ok "a run job on a shared core: $(cat "$TMP/err") $(cat "$TMP/narrow.json")"
fi
[ "$("$CB" store list "$TMP/narrow.db" --format json 2>/dev/null | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["runs"]))')" = 0 ] &&
	ok "nothing of it in the store" || not_ok "a shared run job left something in the store"

finish
