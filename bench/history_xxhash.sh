#!/bin/sh
# history's detector on real code's series (issue 41's held-out case):
# xxHash's header from the `xxhash` package's sources (pip download, into a
# scratch directory; nothing of it is kept), bench/xxhash.c over 12
# parameter sets, one run a commit (run's defaults) into a store, three
# stores: 12 commits with the vector path off at 6-9 (twice), and 30 with it
# off at 14-17.  The slowdown and its undoing are the true change points
# (on the series that compare of the two builds, three runs a side, calls
# slower or faster: XXH3's sets of 512 bytes and more, and any other the
# build moves); prints for each store what
# `history` finds by default (found, missed, false) beside Apache Otava's
# defaults on the same series (history --format csv into
# otava.analysis.compute_change_points(), as bench/changepoints.py runs it),
# and how many runs history set aside as one run's excursion.
# With CONFIRM=1 each run keeps its object in the store (--keep-object
# store) and `history --confirm` audits the objects either side of each
# change point: the confirmed ones are counted too (what a lab gates on).
# BUSY=1 copies 256 MiB over and over on another CPU while the stores are
# measured and confirmed (not the truth): a neighbour that takes memory
# bandwidth (two CPUs or more).
# KEEP=DIR keeps the three stores and the truth there (a.db, b.db, c.db,
# truth.json); REPLAY=DIR runs history again on what KEEP kept, measuring
# nothing but CONFIRM's audits (another cbenchctl's detector on the same
# runs).
# Measures: takes the lock.  Not a test: nothing here passes or fails.
# Run by `make bench`.
set -eu

. bench/lib.sh

OTAVA=${OTAVA:-/opt/cbench-otava/bin/python}
if [ -z "${REPLAY:-}" ]; then
	mkdir -p "$TMP/src"
	if ! (cd "$TMP/src" && pip download -q --no-binary :all: --no-deps xxhash >/dev/null 2>&1); then
		echo "history_xxhash: cannot fetch the xxhash package's sources from PyPI: skipped" >&2
		exit 0
	fi
	tar xzf "$TMP"/src/xxhash-*.tar.gz -C "$TMP/src"
	XXH=$(dirname "$(find "$TMP/src" -name xxhash.h -path '*deps*' | head -n 1)")
	echo "history_xxhash: xxHash from $(ls "$TMP"/src/*.tar.gz | sed 's|.*/||'), CPU $CPU" >&2
fi
export XDG_CACHE_HOME="$TMP/cache"

# build FILE [FLAGS] COMMIT: the object as a commit builds it.
build() {
	${CC:-cc} -O2 -fPIC -shared -Iinclude -I"$XXH" $2 -DBENCH_COMMIT="\"$3\"" -o "$1" bench/xxhash.c
}

# store NAME COMMITS FIRST LAST: commits 1..COMMITS, the vector path off
# from FIRST to LAST, one run each into $TMP/NAME.db.
store() {
	i=1
	while [ "$i" -le "$2" ]; do
		vec=
		[ "$i" -ge "$3" ] && [ "$i" -le "$4" ] && vec=-DXXH_VECTOR=0
		build "$TMP/xxhash.so" "$vec" "$1-$i"
		# A run none of whose benchmarks has a figure to store (every
		# trial they kept ran on a shared core) is refused: that commit
		# has no run, as a lab's would not.
		"$CB" run --cpu "$CPU" --store "$TMP/$1.db" --commit "c$i" --order "$i" -o /dev/null \
			${CONFIRM:+--keep-object store} "$TMP/xxhash.so" 2>"$TMP/run.err" ||
			echo "history_xxhash: store $1, commit $i: $(tail -n 1 "$TMP/run.err")" >&2
		i=$((i + 1))
	done
}

# The truth, measured apart from history: which series the vector path's
# absence changes (compare of three runs a side of ten trials each,
# alternately, at the default --min-effect: slower or faster), into
# $TMP/truth.json.  Ten each, not run's default, which stops a benchmark
# at five where its interval is narrow: at a busy moment three such runs
# a side missed two series the stores showed changed.
truth() {
	build "$TMP/ship.so" "" truth-ship
	build "$TMP/scalar.so" -DXXH_VECTOR=0 truth-scalar
	for k in 1 2 3; do
		"$CB" run --cpu "$CPU" --precision off -o "$TMP/ship$k.txt" "$TMP/ship.so" 2>/dev/null
		"$CB" run --cpu "$CPU" --precision off -o "$TMP/scalar$k.txt" "$TMP/scalar.so" 2>/dev/null
	done
	"$CB" compare --format json "$TMP"/ship?.txt -- "$TMP"/scalar?.txt >"$TMP/truth.json"
}

# Each store: NAME COMMITS FIRST LAST.
STORES="a 12 6 9
b 12 6 9
c 30 14 17"
if [ -n "${REPLAY:-}" ]; then
	# The stores (and truth.json) a KEEP=DIR run kept: history again, nothing measured.
	cp "$REPLAY"/a.db "$REPLAY"/b.db "$REPLAY"/c.db "$REPLAY"/truth.json "$TMP"/
else
	truth
	if [ -n "${BUSY:-}" ]; then
		taskset -c "$(((CPU + 1) % $(getconf _NPROCESSORS_ONLN)))" python3 -c '
b = bytearray(256 << 20)
while True:
    c = bytes(b)' &
		HOG=$!
		trap 'kill "$HOG" 2>/dev/null || :; rm -rf "$TMP"' EXIT INT TERM
	fi
	echo "$STORES" | while read -r s; do
		# shellcheck disable=SC2086
		store $s </dev/null
	done
fi
echo "$STORES" | while read -r s; do
	# shellcheck disable=SC2086
	set -- $s
	"$CB" history --format json -o "$TMP/$1.json" "$TMP/$1.db" </dev/null
	if [ -n "${CONFIRM:-}" ]; then
		"$CB" history --confirm --cpu "$CPU" --format json -o "$TMP/$1.confirmed.json" \
			"$TMP/$1.db" </dev/null
	fi
	"$CB" history --format csv -o "$TMP/$1.csv" "$TMP/$1.db" </dev/null
	echo "$s" >>"$TMP/stores"
done
if [ -n "${HOG:-}" ]; then
	kill "$HOG" 2>/dev/null || :
	wait "$HOG" 2>/dev/null || :
	HOG=
fi
if [ -n "${KEEP:-}" ]; then
	mkdir -p "$KEEP"
	cp "$TMP"/a.db "$TMP"/b.db "$TMP"/c.db "$TMP"/truth.json "$KEEP"/
fi

python3 - "$TMP" "$OTAVA" <<'PY'
import csv, json, os, subprocess, sys

tmp, otava = sys.argv[1:3]


def bare(name):
    return name[len("Benchmark"):] if name.startswith("Benchmark") else name


# The series the vector path's absence changes, as compare measured them.
CHANGED = {bare(b["name"]) for b in json.load(open(f"{tmp}/truth.json"))["benchmarks"]
           if b["verdict"] in ("slower", "faster")}


def truth(name, first, last):
    return {first, last + 1} if bare(name) in CHANGED else set()


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


print("history_xxhash: the series the vector path changes (compare, 3 runs a side): "
      + ", ".join(sorted(CHANGED)))
for line in open(f"{tmp}/stores"):
    name, commits, first, last = line.split()
    first, last = int(first), int(last)
    report = json.load(open(f"{tmp}/{name}.json"))
    ours = {b["name"]: {c["order"] for c in b["change_points"]} for b in report["benchmarks"]}
    aside = sum(len(b.get("excursions", [])) for b in report["benchmarks"])
    theirs = otava_points(f"{tmp}/{name}.csv")
    whos = [("cbench", ours)]
    if os.path.exists(f"{tmp}/{name}.confirmed.json"):
        confirmed = json.load(open(f"{tmp}/{name}.confirmed.json"))
        whos.append(("cbench --confirm", {b["name"]: {c["order"] for c in b["change_points"]
                                                      if c["confirmed"]}
                                          for b in confirmed["benchmarks"]}))
    for who, found in whos + [("Otava", theirs)]:
        f = m = x = 0
        wrong = []
        for series, got in found.items():
            t = truth(series, first, last)
            hit = {o for o in got if any(abs(o - k) <= 1 for k in t)}
            f += len({k for k in t if any(abs(o - k) <= 1 for o in got)})
            m += len({k for k in t if not any(abs(o - k) <= 1 for o in got)})
            x += len(got - hit)
            wrong += [f"{bare(series)} at {o}" for o in sorted(got - hit)]
        print(f"store {name} ({commits} commits, vector path off at {first}-{last}), {who:6} "
              f"default: {f} found, {m} missed, {x} false"
              + (f" ({', '.join(wrong)})" if wrong else "")
              + (f"; {aside} runs set aside alone" if who == "cbench" else ""))
PY
