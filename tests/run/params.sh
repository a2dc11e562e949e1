#!/bin/sh
# Named parameters end to end in user mode (the VM tests run the same
# fixture in ring 0): objects written as docs/parameters.md says, with two
# and three keys, ranges, strings and listed sets; their names, the values
# each benchmark sees (its setup() refuses any other), JSON and CSV, Go
# names as benchstat splits them, an audit matched by full name, and bad
# declarations refused with the declaration named.
. "$(dirname "$0")/lib.sh"

KFIX=build/tests/kfixtures
FIX=build/tests/fixtures
SUITE=build/examples/suite.so
export XDG_CACHE_HOME="$TMP/cache"
# --keep-shared: what a run keeps must not hang on whether another thread
# shares the host's core (stats/trials.h; tested in test_report.c).
FAST="--keep-shared --trials 1 --trial-time 0.005 --warmup 0.001"

# The benchmarks in source order (the compiler lays the section out
# backwards), their sets in declaration order: the product with the last
# key fastest, CBENCH_SETS in its own order, a .param_name sweep as before.
run_cb list "$KFIX/params.so"
cat >"$TMP/want" <<'WANT'
copy/size=64/mode=aligned/align=0 BenchmarkCopy/size=64/mode=aligned/align=0 arena=4096
copy/size=64/mode=aligned/align=8 BenchmarkCopy/size=64/mode=aligned/align=8 arena=4096
copy/size=64/mode=odd/align=0 BenchmarkCopy/size=64/mode=odd/align=0 arena=4096
copy/size=64/mode=odd/align=8 BenchmarkCopy/size=64/mode=odd/align=8 arena=4096
copy/size=512/mode=aligned/align=0 BenchmarkCopy/size=512/mode=aligned/align=0 arena=4096
copy/size=512/mode=aligned/align=8 BenchmarkCopy/size=512/mode=aligned/align=8 arena=4096
copy/size=512/mode=odd/align=0 BenchmarkCopy/size=512/mode=odd/align=0 arena=4096
copy/size=512/mode=odd/align=8 BenchmarkCopy/size=512/mode=odd/align=8 arena=4096
hash/len=8/algo=crc32c BenchmarkHash/len=8/algo=crc32c
hash/len=64/algo=fnv1a BenchmarkHash/len=64/algo=fnv1a
sweep/n=3 BenchmarkSweep/n=3
sweep/n=-1 BenchmarkSweep/n=-1
WANT
# Benchmarks in source order, each one's sets in declaration order.
if [ "$rc" -eq 0 ] && [ "$(cat "$TMP/out")" = "$(cat "$TMP/want")" ]; then
	ok "list: source order, keys' product last key fastest, CBENCH_SETS in order, names in key order"
else
	not_ok "list of params.so (exit $rc): $(diff "$TMP/want" "$TMP/out" | head -5)"
fi

# Every benchmark's setup() checks the values it gets: a failed trial is a
# value wrong or out of place.
run_cb run $FAST --format json -o "$TMP/params.json" --samples "$TMP/params.csv" "$KFIX/params.so"
if [ "$rc" -eq 0 ] && "$SCHEMA_PY" - "$TMP/params.json" "$TMP/params.csv" docs/schema/run.schema.json <<'PY'
import csv, json, sys
import jsonschema
report = json.load(open(sys.argv[1]))
jsonschema.validate(report, json.load(open(sys.argv[3])))
benchmarks = report["benchmarks"]
assert len(benchmarks) == 12, len(benchmarks)
for b in benchmarks:
    assert b["failed_trials"] == 0, (b["name"], b["trials"])
    params = "/".join(f"{k}={v}" for k, v in b["params"].items())
    assert b["name"].split("/", 1)[1] == params, (b["name"], b["params"])
    assert b["id"].split("/", 1)[1] == params, (b["id"], b["params"])
copy = next(b for b in benchmarks if b["id"] == "copy/size=512/mode=odd/align=8")
assert copy["params"] == {"size": 512, "mode": "odd", "align": 8}, copy["params"]
assert list(copy["params"]) == ["size", "mode", "align"]
assert next(b for b in benchmarks if b["id"] == "sweep/n=-1")["params"] == {"n": -1}
rows = list(csv.DictReader(open(sys.argv[2])))
assert {r["params"] for r in rows if r["base"] == "BenchmarkCopy"} == \
    {b["name"].split("/", 1)[1] for b in benchmarks if b["name"].startswith("BenchmarkCopy/")}
PY
then
	ok "run: every set sees its values (setup checks them); JSON params in key order; CSV base and params"
else
	not_ok "run of params.so (exit $rc)"
fi

# The example suite's two-key benchmark, read the way benchstat reads Go
# names (golang.org/x/perf benchfmt: a trailing -N is GOMAXPROCS, then
# /key=value parts): grouped by either key, nothing left over.
run_cb run $FAST --filter '^hash/' -o "$TMP/hash.txt" "$SUITE"
if [ "$rc" -eq 0 ] && python3 - "$TMP/hash.txt" <<'PY'
import collections, re, sys
by = collections.defaultdict(set)
for line in open(sys.argv[1]):
    if not line.startswith("Benchmark"):
        continue
    name, iters, *rest = line.split()
    assert int(iters) > 0
    assert not re.search(r"-[0-9]+$", name), name      # would be GOMAXPROCS
    base, *parts = name.split("/")
    assert base == "BenchmarkHash", name
    keys = [p.split("=", 1) for p in parts]
    assert [k for k, _ in keys] == ["algo", "len"], name
    for k, v in keys:
        by[k].add(v)
assert by["algo"] == {"fnv1a", "djb2"}, by
assert by["len"] == {"16", "256", "4096"}, by
PY
then
	ok "example suite: hash by algo x len, names benchstat splits into both keys"
else
	not_ok "example suite's hash (exit $rc)"
fi

# An audit of a set against itself: sides are matched by the full name.
run_cb audit --filter '^copy/size=64/mode=odd/align=8$' --budget 5 --format json -o "$TMP/audit.json" \
	"$KFIX/params.so" "$KFIX/params.so"
if [ "$rc" -eq 0 ] && python3 - "$TMP/audit.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
pairs = report["audits"] if "audits" in report else report["pairs"]
assert [p["id"] for p in pairs] == ["copy/size=64/mode=odd/align=8"], pairs
assert pairs[0]["a"] == pairs[0]["b"] == "copy/size=64/mode=odd/align=8"
PY
then
	ok "audit: one parameter set against itself, matched by full name"
else
	not_ok "audit of one parameter set (exit $rc)"
fi

# Bad declarations: refused at load with the declaration named, nothing run.
OUTPUT_GLOB="report*"
expect_failure "a key declared twice" "benchmark run declares key size twice" \
	run $FAST -o "$TMP/report.txt" "$FIX/bad_keys_twice.so"
expect_failure "a range that never ends" "key size is CBENCH_RANGE\(8, 4096, 1\), which never ends" \
	run $FAST -o "$TMP/report.txt" "$FIX/bad_keys_range.so"
expect_failure "a string that would break a Go name" "key path's value \"a/b\" would break its Go benchmark name" \
	list "$FIX/bad_keys_string.so"
expect_failure "a product over the limit" "more than 4096 combinations; list the ones to run with CBENCH_SETS" \
	list "$FIX/bad_keys_product.so"

finish
