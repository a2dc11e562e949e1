#!/bin/sh
# Does LNT, fed cbench's reports, see a 1 % slowdown that cbench's audit
# sees?  Prints, from R rounds on this machine: an old and a new build of
# one benchmark (a chain of 1000 dependent adds, and of 1010: 1 % more
# work per declared op, tests/fixtures/chain_adds.h), each run with
# --format lnt and imported into a fresh LNT instance in order (old,
# new); how often LNT's own comparison calls the new one a regression,
# on ps_per_op and on est_cycles_per_kop, with its percentages; and how
# often `cbenchctl audit` of the two objects says "B slower".  An A/A round
# (old against old) shows what LNT says of no change.
# Not a test: nothing here passes or fails on a number.  Needs llvm-lnt
# (scripts/install-deps.sh --all).  Run by `make bench-lnt`.
set -eu

. bench/lib.sh

R=${R:-5}
LNT_VENV=${CBENCH_LNT_VENV:-/opt/cbench-lnt}
CFLAGS="-O2 -fPIC -shared -Iinclude -Itests/fixtures"

for adds in 1000 1010; do
	printf '#define CHAIN_ADDS %s\n#include "chain_adds.h"\n' "$adds" >"$TMP/chain$adds.c"
	${CC:-cc} $CFLAGS -o "$TMP/chain$adds.so" "$TMP/chain$adds.c"
done

# lnt_round OLD.so NEW.so: LNT's verdicts on ps_per_op and est_cycles_per_kop.
lnt_round() {
	rm -rf "$TMP/lnt"
	"$LNT_VENV/bin/lnt" create "$TMP/lnt" >/dev/null 2>&1
	mkdir -p "$TMP/lnt/schemas" && cp docs/lnt/cbench.yaml "$TMP/lnt/schemas/"
	"$CB" run --cpu "$CPU" --order 1 -o "$TMP/a.lnt.json" "$1" 2>/dev/null
	"$CB" run --cpu "$CPU" --order 2 -o "$TMP/b.lnt.json" "$2" 2>/dev/null
	for r in a b; do
		"$LNT_VENV/bin/lnt" import "$TMP/lnt" --testsuite cbench "$TMP/$r.lnt.json" >/dev/null 2>&1
	done
	"$LNT_VENV/bin/python" tests/run/lnt_query.py "$TMP/lnt" | grep '^compare'
}

flagged_ps=0 flagged_cyc=0 found=0 aa_flagged=0
for i in $(seq 1 "$R"); do
	lnt_round "$TMP/chain1000.so" "$TMP/chain1010.so" >"$TMP/v"
	sed "s/^/  round $i: /" "$TMP/v"
	grep -q "ps_per_op REGRESSED" "$TMP/v" && flagged_ps=$((flagged_ps + 1))
	grep -q "est_cycles_per_kop REGRESSED" "$TMP/v" && flagged_cyc=$((flagged_cyc + 1))
	"$CB" audit --cpu "$CPU" "$TMP/chain1000.so" "$TMP/chain1010.so" 2>/dev/null |
		grep -q "^chain: B slower" && found=$((found + 1))
	lnt_round "$TMP/chain1000.so" "$TMP/chain1000.so" >"$TMP/v"
	sed "s/^/  A\/A round $i: /" "$TMP/v"
	grep -Eq "(REGRESSED|IMPROVED)" "$TMP/v" && aa_flagged=$((aa_flagged + 1))
done
echo "1 % slowdown: LNT flagged ps_per_op $flagged_ps/$R, est_cycles_per_kop $flagged_cyc/$R; audit found it $found/$R"
echo "no change (A/A): LNT flagged a change in $aa_flagged/$R"
