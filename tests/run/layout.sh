#!/bin/sh
# Integration tests of code layout on the user backend: audits that lay
# each side's code out anew every round (the loop of tests/fixtures/layout.c
# with identical bytes 16 bytes further must not be called different, one
# jump more must be found), what the reports say where the code cannot
# move and with --fixed-layout, `cbenchctl layout` in its three formats and
# replayed from its seed, `cbenchctl run` at sampled layouts (a benchmark
# whose speed its own address decides, and one whose speed its worker
# decides), and bad input.
# Nothing here asserts speed: budgets are generous upper bounds.
#
# Usage: tests/run/layout.sh   (from the top of the tree, after make itest's deps)
set -u

. tests/run/lib.sh

L=build/tests/layout
PLAIN=build/tests/fixtures/layout.so
# by_address: 1 to 4 times the work by where in a cache line its code lies;
# by_memory: twice the work in every other worker (CBENCH_LAYOUT_COUNTER).
ADDR=$L/address.so
ADDR_PLAIN=build/tests/fixtures/layout_address.so
OUTPUT_GLOB='report* .report*'

# ---- audits -----------------------------------------------------------------

# The same loop 16 bytes further: layouts sampled, no verdict either way.
# At confidence 0.9999 a false one comes about once in ten thousand runs.
run_cb audit --backend user --budget 10 --confidence 0.9999 "$L/shift0.so" "$L/shift16.so"
if [ "$rc" -eq 0 ] && grep -q '^layout_jumps: ' "$TMP/out" && ! grep -Eq '^layout_jumps: B (faster|slower)' "$TMP/out" &&
   grep -Eq '^    code layout: [0-9]+ A / [0-9]+ B, new for each side every round \(3 functions, each moved on its own by its alignment\)' "$TMP/out"; then
	ok "shifted copy: not called different ($(sed -n 's/^layout_jumps: //p' "$TMP/out"))"
else
	not_ok "shifted copy: not called different, code layout sampled"
fi

# One taken jump more (about 8 % more work) is still found.
run_cb audit --backend user --budget 30 "$L/shift0.so" "$L/jumps13.so"
if [ "$rc" -eq 0 ] && grep -q '^layout_jumps: B slower by ' "$TMP/out"; then
	ok "one jump more: $(sed -n 's/^layout_jumps: //p' "$TMP/out")"
else
	not_ok "one jump more found as B slower"
fi

# --fixed-layout: the code stays, and the report says so.
run_cb audit --backend user --budget 2 --fixed-layout "$L/shift0.so" "$L/shift16.so"
if [ "$rc" -eq 0 ] && grep -q "^    code layout: where it was loaded, so what suits one side's layout counts as its speed: fixed (--fixed-layout)" "$TMP/out"; then
	ok "--fixed-layout: said"
else
	not_ok "--fixed-layout: said"
fi

# An object linked without -Wl,-q: audited as before, the reason and the
# flags in every format.
run_cb audit --backend user --budget 2 -o "$TMP/report.json" "$PLAIN" "$PLAIN"
if [ "$rc" -eq 0 ] &&
   grep -q "code layout: where it was loaded.*not moved: it keeps no relocations for its code; build it with -ffunction-sections and link it with -Wl,-q" "$TMP/err" &&
   python3 -c '
import json, sys
a = json.load(open(sys.argv[1]))["audits"][0]["code_layout"]
assert a["sampled"] is False and a["a"] == 0 and a["a_moves"] == "none", a
assert "-Wl,-q" in a["note"], a
' "$TMP/report.json"; then
	ok "no relocations: not sampled, why and how to build, text and JSON"
else
	not_ok "no relocations: not sampled, why and how to build"
fi
run_cb audit --backend user --budget 2 --format go "$PLAIN" "$PLAIN"
if [ "$rc" -eq 0 ] && grep -q '^# BenchmarkLayoutJumps: code layout: .*-ffunction-sections' "$TMP/out"; then
	ok "no relocations: the Go report's comment"
else
	not_ok "no relocations: the Go report's comment"
fi

# ---- cbenchctl layout -------------------------------------------------------

run_cb layout --seed 3 --layouts 6 "$L/shift16.so"
if [ "$rc" -eq 0 ] && grep -q '^moves: 3 functions, each moved on its own' "$TMP/out" &&
   grep -q '^backend: user$' "$TMP/out" &&
   grep -Eq '^layout_jumps: (not )?layout-sensitive: layouts spread [0-9.e+-]+ % \[' "$TMP/out" &&
   grep -Eq '^    fastest [0-9.e+-]+ ns/op, layout [1-6] \(run\(\) at page offset 0x[0-9a-f]+, line offset [0-9]+\)' "$TMP/out" &&
   grep -q '^    slowest ' "$TMP/out" && grep -q '^    as loaded ' "$TMP/out" &&
   grep -q '^replay: --seed 3 ' "$TMP/out"; then
	ok "layout: text"
else
	not_ok "layout: text"
fi

# JSON twice from one seed: the same layouts (the run function's offsets).
run_cb layout --seed 3 --layouts 6 -o "$TMP/a.json" "$L/shift16.so"
rc_a=$rc
run_cb layout --seed 3 --layouts 6 -o "$TMP/b.json" "$L/shift16.so"
if [ "$rc_a" -eq 0 ] && [ "$rc" -eq 0 ] && python3 -c '
import json, sys
a, b = (json.load(open(p))["benchmarks"][0] for p in sys.argv[1:3])
assert a["run_offsets"] == b["run_offsets"], (a["run_offsets"], b["run_offsets"])
assert len(a["ns_per_op"]) == 7 and a["layouts"] == 6
assert json.load(open(sys.argv[1]))["config"]["backend"] == "user"
for k in ("spread_pct", "spread_lower_pct", "spread_upper_pct", "median_ns_per_op", "layout_sensitive"):
    assert k in a, k
f = a["fastest"]
names = {u["name"]: u["offset"] for u in f["functions"]}
assert names["layout_jumps"] == f["run_offset"] == a["run_offsets"][f["index"]], f
assert all(u["offset"] % 16 == 0 for u in f["functions"]), f
' "$TMP/a.json" "$TMP/b.json"; then
	ok "layout: JSON, the same layouts from the same seed"
else
	not_ok "layout: JSON, the same layouts from the same seed"
fi

run_cb layout --seed 3 --layouts 3 -o "$TMP/report.html" "$L/shift16.so"
if [ "$rc" -eq 0 ] && grep -q '<svg' "$TMP/report.html" && grep -q 'as loaded' "$TMP/report.html"; then
	ok "layout: HTML plot"
else
	not_ok "layout: HTML plot"
fi

# ---- run ------------------------------------------------------------------------

# A benchmark whose speed its code's address decides: trials at 6 layouts,
# two each; the trials at one layout agree, so the spread is the layout's
# and the median is over layouts.
run_cb run --keep-shared --backend user --seed 5 --trials 12 --filter by_address -o "$TMP/report.json" "$ADDR"
if [ "$rc" -eq 0 ] &&
   grep -Eq '^  layout-sensitive: trials spread [0-9.]+% by code layout .*the median of trials, quoted, is the median over 6 layouts' "$TMP/err" &&
   grep -q '^code layout: laid out anew for every two trials, at layouts drawn from seed 5 (3 functions, each moved on its own by its alignment)' "$TMP/err" &&
   "$SCHEMA_PY" - docs/schema/run.schema.json "$TMP/report.json" <<'PY'
import json, statistics, sys, jsonschema
r = json.load(open(sys.argv[2]))
jsonschema.validate(r, json.load(open(sys.argv[1])))
c = r["config"]["code_layout"]
assert c["sampled"] is True and c["seed"] == 5 and c["moves"] == "functions", c
b = r["benchmarks"][0]
ok = [t for t in b["trials"] if t["status"] == "ok"]
lay = {}
for t in ok:
    lay.setdefault(t["code_layout"], set()).add(t["run_offset"])
# Two trials a layout, one place of the run function in each.
assert all(len(v) == 1 for v in lay.values()), lay
assert sorted(lay) == list(range(1, 7)), lay
# The fixture's work by where in a line run() lies: more than one.
assert len({(next(iter(v)) >> 4) & 3 for v in lay.values()}) > 1, lay
assert b["layouts"] == 6 and b["layout_sensitive"] is True and b["placement_sensitive"] is True, b
assert b["layout_share"] > 0.5 and b["quote_over"] == "layouts", b
assert abs(b["quote_ns_per_op"] - statistics.median(t["ns_per_op"] for t in ok)) < 1e-9 * b["quote_ns_per_op"]
PY
then
	ok "run: layout-sensitive, the median over layouts quoted, text and JSON"
else
	not_ok "run: layout-sensitive, the median over layouts quoted"
fi
cp "$TMP/report.json" "$TMP/first.json"

# The same seed draws the same layouts.
run_cb run --keep-shared --backend user --seed 5 --trials 12 --filter by_address -o "$TMP/report.json" "$ADDR"
if [ "$rc" -eq 0 ] && python3 - "$TMP/first.json" "$TMP/report.json" <<'PY'
import json, sys
a, b = ([(t["code_layout"], t["run_offset"]) for t in json.load(open(p))["benchmarks"][0]["trials"]
         if t["status"] != "failed" and not t.get("replacement")] for p in sys.argv[1:3])
assert a == b, (a, b)
PY
then
	ok "run: a seed replays its layouts"
else
	not_ok "run: a seed replays its layouts"
fi

# A stopped run goes on at the layouts its seed drew: its report, stopped
# after ten of twelve trials, resumed without --seed.
python3 - "$TMP/first.json" "$TMP/stopped.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d.pop("digest", None)
d["config"]["interrupted"] = {"signal": "SIGINT", "trials_kept": 10, "trials_asked": 12,
                             "benchmarks_not_run": 0}
b = d["benchmarks"][0]
b["trials"] = [t for t in b["trials"] if not t.get("replacement")][:10]
json.dump(d, open(sys.argv[2], "w"))
PY
run_cb run --keep-shared --backend user --trials 12 --filter by_address --resume "$TMP/stopped.json" -o "$TMP/resumed.json" "$ADDR"
if [ "$rc" -eq 0 ] && python3 - "$TMP/first.json" "$TMP/resumed.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert b["config"]["code_layout"]["seed"] == 5, b["config"]["code_layout"]
layouts = [[t["code_layout"] for t in r["benchmarks"][0]["trials"] if not t.get("replacement")] for r in (a, b)]
assert layouts[0] == layouts[1], layouts
PY
then
	ok "run --resume: the layouts of the stopped run's seed"
else
	not_ok "run --resume: the layouts of the stopped run's seed (exit $rc)"
	sed 's/^/       | /' "$TMP/err"
fi

# A benchmark whose speed its worker decides: trials at one layout differ
# as much as any, so it is memory's placement, not the code's layout.
echo 0 >"$TMP/counter"
CBENCH_LAYOUT_COUNTER=$TMP/counter run_cb run --keep-shared --backend user --seed 5 --trials 12 --filter by_memory \
	-o "$TMP/report.json" "$ADDR"
if [ "$rc" -eq 0 ] &&
   grep -Eq '^  placement-sensitive: trials spread [0-9.]+% by placement of memory, not of code' "$TMP/err" &&
   python3 -c '
import json, sys
b = json.load(open(sys.argv[1]))["benchmarks"][0]
assert b["placement_sensitive"] is True and b["layout_sensitive"] is False, b
assert b["quote_over"] == "placements" and b["layouts"] == 6, b
' "$TMP/report.json"; then
	ok "run: placement of memory told from code layout"
else
	not_ok "run: placement of memory told from code layout"
fi

# The Go report: the config line (runs at sampled layouts and runs as
# loaded land in other benchstat tables), the seed and each benchmark's
# layouts as comments.
run_cb run --keep-shared --backend user --seed 5 --trials 4 --filter by_address --format go "$ADDR"
if [ "$rc" -eq 0 ] && grep -q '^code-layout: sampled$' "$TMP/out" &&
   grep -q '^# code-layout: laid out anew for every two trials, at layouts drawn from seed 5 ' "$TMP/out" &&
   grep -Eq '^# BenchmarkByAddress: 2 code layouts, two trials each: ' "$TMP/out"; then
	ok "run: the Go report's code-layout line and comments"
else
	not_ok "run: the Go report's code-layout line and comments"
fi

# No relocations: the code stays, the report says why and how to build.
run_cb run --keep-shared --backend user --trials 4 --filter by_address -o "$TMP/report.json" "$ADDR_PLAIN"
if [ "$rc" -eq 0 ] &&
   grep -q "^code layout: where it was loaded, so each benchmark's figure is that layout's: not moved: it keeps no relocations for its code; build it with -ffunction-sections and link it with -Wl,-q" "$TMP/err" &&
   ! grep -q 'layout-sensitive' "$TMP/err" &&
   python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
c = r["config"]["code_layout"]
assert c["sampled"] is False and c["moves"] == "none" and "seed" not in c and "-Wl,-q" in c["note"], c
b = r["benchmarks"][0]
assert "layouts" not in b and "layout_sensitive" not in b, b
assert all("code_layout" not in t for t in b["trials"]), b["trials"]
' "$TMP/report.json"; then
	ok "run: no relocations: layout not sampled, why and how to build, text and JSON"
else
	not_ok "run: no relocations: layout not sampled, why and how to build"
fi

# --fixed-layout: the code stays where it was loaded, and the report says so.
run_cb run --keep-shared --backend user --fixed-layout --trials 4 --filter by_address -o "$TMP/report.json" "$ADDR"
if [ "$rc" -eq 0 ] && grep -q "^code layout: where it was loaded, so each benchmark's figure is that layout's: fixed (--fixed-layout)" "$TMP/err" &&
   python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
assert r["config"]["code_layout"]["sampled"] is False and r["config"]["code_layout"]["moves"] == "functions"
assert all("code_layout" not in t for t in r["benchmarks"][0]["trials"])
' "$TMP/report.json"; then
	ok "run: --fixed-layout"
else
	not_ok "run: --fixed-layout"
fi

# ---- bad input ----------------------------------------------------------------

expect_failure "run: --seed with --backend both" 'run --backend both measures the code where it was loaded' \
	run --backend both --seed 5 "$ADDR"
expect_failure "run: --seed -1" "--seed wants an unsigned 64-bit number, not '-1'" run --seed -1 -o "$TMP/report.json" "$ADDR"

expect_failure "layout: an object without relocations names the flags" \
	'unable to lay out .*keeps no relocations.*-ffunction-sections and link it with -Wl,-q' \
	layout -o "$TMP/report.json" "$PLAIN"
expect_failure "layout: no such object" 'unable to lay out .*No such file' layout -o "$TMP/report.txt" "$TMP/none.so"
expect_failure "layout: --layouts 2" '--layouts wants a whole number from 3 to 10000' layout --layouts 2 "$L/shift0.so"
expect_failure "layout: ring 0 without cbench.ko or for an object ring 0 cannot take" 'unable to use the kmod backend' \
	layout --backend kmod "$L/shift0.so"
expect_failure "layout: two objects" 'layout wants one object' layout "$L/shift0.so" "$L/shift16.so"
expect_failure "layout: a filter that matches nothing" 'no benchmark in .* matches' \
	layout --filter nothing -o "$TMP/report.json" "$L/shift0.so"

finish
