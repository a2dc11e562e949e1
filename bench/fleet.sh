#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The lab queue's cost (docs/lab.md, "A fleet"): N jobs (default 20), each a
# run of tests/fixtures/history.c with --trials 3 --trial-time 0.005,
# drained by one worker from a SQLite store and from a PostgreSQL one (a
# local server in a scratch directory, tests/run/pg-server.sh), against
# the same N runs by `cbenchctl run --store` one after the other.  Prints
# jobs a minute per worker and the queue's own cost per job: the worker's
# time less the runs' own, over N.
set -eu
. bench/lib.sh

N=${N:-20}
CC=${CC:-cc}
PGDIR=$(mktemp -d /tmp/cbench-pg.XXXXXX)
trap 'tests/run/pg-server.sh stop "$PGDIR"; rm -rf "$TMP" "$PGDIR"' EXIT INT TERM
URL=$(tests/run/pg-server.sh start "$PGDIR")
$CC -O2 -fPIC -shared -Iinclude -DHISTORY_ADDS=2000 -DHISTORY_COMMIT='"f"' -o "$TMP/history.so" \
	tests/fixtures/history.c

now() { date +%s.%N; }

queue() {
	for i in $(seq 1 "$N"); do
		"$CB" lab queue add --store "$1" "$TMP/history.so" --commit "c$i" --order "$i" -- \
			--cpu "$CPU" --trials 3 --trial-time 0.005 2>/dev/null
	done
}

t0=$(now)
for i in $(seq 1 "$N"); do
	"$CB" run --cpu "$CPU" --trials 3 --trial-time 0.005 --store "$TMP/direct.db" --commit "c$i" \
		--order "$i" -o "$TMP/r.json" "$TMP/history.so" >/dev/null 2>&1
done
direct=$(echo "$(now) - $t0" | bc -l)

queue "$TMP/q.db"
t0=$(now)
"$CB" lab worker --store "$TMP/q.db" --drain 2>/dev/null
lite=$(echo "$(now) - $t0" | bc -l)

queue "$URL"
t0=$(now)
"$CB" lab worker --store "$URL" --drain 2>/dev/null
pg=$(echo "$(now) - $t0" | bc -l)

echo "lab queue: $N jobs (a run of one benchmark, 3 trials of 5 ms each), one worker, CPU $CPU"
printf '  %-34s %8.2f s   %6.1f jobs/min\n' "run --store, one after another" "$direct" \
	"$(echo "60 * $N / $direct" | bc -l)"
printf '  %-34s %8.2f s   %6.1f jobs/min   queue %+6.1f ms/job\n' "lab worker, SQLite store" "$lite" \
	"$(echo "60 * $N / $lite" | bc -l)" "$(echo "1000 * ($lite - $direct) / $N" | bc -l)"
printf '  %-34s %8.2f s   %6.1f jobs/min   queue %+6.1f ms/job\n' "lab worker, PostgreSQL store" "$pg" \
	"$(echo "60 * $N / $pg" | bc -l)" "$(echo "1000 * ($pg - $direct) / $N" | bc -l)"
