#!/bin/sh
# history's detector against Apache Otava's on synthetic series: each shape
# (A/A, a step in the middle, at the 3rd, 2nd last and last run, a slowdown
# undone after 1 commit or 20, two steps in a row, a drift that is no step,
# a step among noisy runs that say so) at 8, 30, 200 and 2,000 runs, and 100
# A/A series of 30; found, missed and false change points for both
# (bench/changepoints.py).  Otava runs from the virtual environment
# scripts/install-deps.sh --all makes (OTAVA=/opt/cbench-otava/bin/python).
# Nothing is measured: no lock needed, but it is taken as every bench takes it.
# Not a test: nothing here passes or fails.  Run by `make bench`.
set -eu

. bench/lib.sh

OTAVA=${OTAVA:-/opt/cbench-otava/bin/python}
REPEATS=${REPEATS:-20}
${CC:-cc} -O2 -Iuser -o "$TMP/changepoints" bench/changepoints.c user/stats/changepoint.c \
	user/stats/stats.c -lm
if ! "$OTAVA" -c 'import otava' 2>/dev/null; then
	echo "changepoints: Otava is not installed ($OTAVA): scripts/install-deps.sh --all" >&2
	exit 1
fi
python3 bench/changepoints.py "$TMP/changepoints" "$OTAVA" "$REPEATS"
