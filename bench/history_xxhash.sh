#!/bin/sh
# history's detector on real code's series (issue 41's held-out case):
# xxHash's header from the `xxhash` package's sources (pip download, into a
# scratch directory; nothing of it is kept), bench/xxhash.c over 12
# parameter sets, one run a commit (run's defaults) into a store, three
# stores: 12 commits with the vector path off at 6-9 (twice), and 30 with it
# off at 14-17.  The slowdown and its undoing are the true change points
# (on XXH3's sets of 512 bytes and more: 6); prints for each store what
# `history` finds by default (found, missed, false) beside Apache Otava's
# defaults on the same series (history --format csv into
# otava.analysis.compute_change_points(), as bench/changepoints.py runs it).
# Measures: takes the lock.  Not a test: nothing here passes or fails.
# Run by `make bench`.
set -eu

. bench/lib.sh

OTAVA=${OTAVA:-/opt/cbench-otava/bin/python}
mkdir -p "$TMP/src"
if ! (cd "$TMP/src" && pip download -q --no-binary :all: --no-deps xxhash >/dev/null 2>&1); then
	echo "history_xxhash: cannot fetch the xxhash package's sources from PyPI: skipped" >&2
	exit 0
fi
tar xzf "$TMP"/src/xxhash-*.tar.gz -C "$TMP/src"
XXH=$(dirname "$(find "$TMP/src" -name xxhash.h -path '*deps*' | head -n 1)")
export XDG_CACHE_HOME="$TMP/cache"
echo "history_xxhash: xxHash from $(ls "$TMP"/src/*.tar.gz | sed 's|.*/||'), CPU $CPU" >&2

# store NAME COMMITS FIRST LAST: commits 1..COMMITS, the vector path off
# from FIRST to LAST, one run each into $TMP/NAME.db.
store() {
	i=1
	while [ "$i" -le "$2" ]; do
		vec=
		[ "$i" -ge "$3" ] && [ "$i" -le "$4" ] && vec=-DXXH_VECTOR=0
		${CC:-cc} -O2 -fPIC -shared -Iinclude -I"$XXH" $vec -DBENCH_COMMIT="\"$1-$i\"" \
			-o "$TMP/xxhash.so" bench/xxhash.c
		"$CB" run --cpu "$CPU" --store "$TMP/$1.db" --commit "c$i" --order "$i" -o /dev/null \
			"$TMP/xxhash.so" 2>/dev/null
		i=$((i + 1))
	done
	"$CB" history --format json -o "$TMP/$1.json" "$TMP/$1.db"
	"$CB" history --format csv -o "$TMP/$1.csv" "$TMP/$1.db"
	echo "$1 $2 $3 $4" >>"$TMP/stores"
}
store a 12 6 9
store b 12 6 9
store c 30 14 17

python3 - "$TMP" "$OTAVA" <<'PY'
import csv, json, subprocess, sys

tmp, otava = sys.argv[1:3]


def truth(name, first, last):
    algo = name.split("algo=")[1].split(",")[0].split("/")[0]
    length = int(name.split("len=")[1].split(",")[0].split("/")[0])
    return {first, last + 1} if algo == "xxh3" and length >= 512 else set()


def otava_points(path):
    rows = list(csv.reader(open(path), quotechar="'"))
    cols = rows[0][3:]
    script = ("import sys\nfrom otava.analysis import compute_change_points\n"
              "for line in sys.stdin:\n"
              "    ys = [float(t) for t in line.split()]\n"
              "    cps, _ = compute_change_points(ys, window_len=50, max_pvalue=0.001, min_magnitude=0.0)\n"
              "    print(' '.join(str(c.index) for c in cps))\n")
    lines = "\n".join(" ".join(r[3 + k] for r in rows[1:]) for k in range(len(cols))) + "\n"
    out = subprocess.run([otava, "-c", script], input=lines, capture_output=True, text=True,
                         check=True).stdout.splitlines()
    orders = [int(r[2]) for r in rows[1:]]
    return {c.split(":")[0]: {orders[int(i)] for i in o.split()} for c, o in zip(cols, out)}


for line in open(f"{tmp}/stores"):
    name, commits, first, last = line.split()
    first, last = int(first), int(last)
    report = json.load(open(f"{tmp}/{name}.json"))
    ours = {b["name"]: {c["order"] for c in b["change_points"]} for b in report["benchmarks"]}
    theirs = otava_points(f"{tmp}/{name}.csv")
    for who, found in (("cbench", ours), ("Otava", theirs)):
        f = m = x = 0
        for series, got in found.items():
            t = truth(series, first, last)
            hit = {o for o in got if any(abs(o - k) <= 1 for k in t)}
            f += len({k for k in t if any(abs(o - k) <= 1 for o in got)})
            m += len({k for k in t if not any(abs(o - k) <= 1 for o in got)})
            x += len(got - hit)
        print(f"store {name} ({commits} commits, vector path off at {first}-{last}), {who:6} "
              f"default: {f} found, {m} missed, {x} false")
PY
