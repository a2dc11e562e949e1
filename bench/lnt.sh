#!/bin/sh
# Does LNT, fed cbench's reports, see a 1 % slowdown that cbench's audit
# sees?  Prints, from R rounds on this machine: an old and a new build of
# one benchmark (a chain of 1000 dependent adds, and of each ADDS in turn,
# default "1010 1012": 1.0 % and 1.2 % more work per declared op,
# tests/fixtures/chain_adds.h), each run with --format lnt and imported
# into a fresh LNT instance in order (old, new); how often LNT's own
# comparison calls the new one a regression, on ps_per_op and
# est_cycles_per_kop (a sample per trial) and on their *_estimate (one
# value a run), with its percentages; and how often `cbenchctl audit`
# of the two objects says "B slower".  LNT measures a change from the new
# run's least sample to the nearest sample of the old run (docs/lnt.md), so
# the old run's spread between trials counts against the change; each round
# prints that spread too.  An A/A round (old against old) shows what LNT
# says of no change.  Then the same through audits' LNT reports: an A/A
# audit at order 1, the old against the new at order 2, and LNT's
# comparison of their audit_change_bp.
# Not a test: nothing here passes or fails on a number.  Needs llvm-lnt
# (scripts/install-deps.sh --all).  Run by `make bench-lnt`.
set -eu

. bench/lib.sh

R=${R:-5}
# The new builds' adds per 1000-op rep: 1010 is 1.0 % slower, 1012 1.2 %.
ADDS=${ADDS:-1010 1012}
LNT_VENV=${CBENCH_LNT_VENV:-/opt/cbench-lnt}
CFLAGS="-O2 -fPIC -shared -Iinclude -Itests/fixtures"

for adds in 1000 $ADDS; do
	printf '#define CHAIN_ADDS %s\n#include "chain_adds.h"\n' "$adds" >"$TMP/chain$adds.c"
	${CC:-cc} $CFLAGS -o "$TMP/chain$adds.so" "$TMP/chain$adds.c"
done

# lnt_round OLD.so NEW.so: LNT's verdicts on every metric (ps_per_op,
# est_cycles_per_kop and their *_estimate).
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
	python3 -c 'import json, sys
old = json.load(open(sys.argv[1]))["tests"][0]["est_cycles_per_kop"]
new = json.load(open(sys.argv[2]))["tests"][0]["est_cycles_per_kop"]
print("est_cycles_per_kop: old trials %.2f %% apart; new least over old least %+.2f %%, over old greatest %+.2f %%"
      % (100 * (max(old) / min(old) - 1), 100 * (min(new) / min(old) - 1), 100 * (min(new) / max(old) - 1)))
old = json.load(open(sys.argv[1]))["tests"][0].get("est_cycles_per_kop_estimate")
new = json.load(open(sys.argv[2]))["tests"][0].get("est_cycles_per_kop_estimate")
if old and new:
    print("est_cycles_per_kop_estimate: new over old %+.3f %%" % (100 * (new / old - 1)))' \
		"$TMP/a.lnt.json" "$TMP/b.lnt.json"
}

# audit_round OLD.so NEW.so: an A/A audit of OLD at order 1, then OLD
# against NEW at order 2, imported in order: LNT's verdict on the change.
audit_round() {
	rm -rf "$TMP/lnt"
	"$LNT_VENV/bin/lnt" create "$TMP/lnt" >/dev/null 2>&1
	mkdir -p "$TMP/lnt/schemas" && cp docs/lnt/cbench.yaml "$TMP/lnt/schemas/"
	"$CB" audit --cpu "$CPU" --order 1 -o "$TMP/a.lnt.json" "$1" "$1" 2>/dev/null
	"$CB" audit --cpu "$CPU" --order 2 -o "$TMP/b.lnt.json" "$1" "$2" 2>/dev/null
	for r in a b; do
		"$LNT_VENV/bin/lnt" import "$TMP/lnt" --testsuite cbench "$TMP/$r.lnt.json" >/dev/null 2>&1
	done
	"$LNT_VENV/bin/python" tests/run/lnt_query.py "$TMP/lnt" | grep '^compare .* audit_change_bp'
}

# slowdown ADDS: R rounds of LNT's and the audit's verdicts on it.
slowdown() {
	flagged_ps=0 flagged_cyc=0 flagged_pse=0 flagged_cyce=0 found=0 aa_flagged=0 aa_cyce=0
	flagged_audit=0 aa_audit=0
	for i in $(seq 1 "$R"); do
		lnt_round "$TMP/chain1000.so" "$TMP/chain$1.so" >"$TMP/v"
		sed "s/^/  round $i: /" "$TMP/v"
		grep -q " ps_per_op REGRESSED" "$TMP/v" && flagged_ps=$((flagged_ps + 1))
		grep -q " est_cycles_per_kop REGRESSED" "$TMP/v" && flagged_cyc=$((flagged_cyc + 1))
		grep -q " ps_per_op_estimate REGRESSED" "$TMP/v" && flagged_pse=$((flagged_pse + 1))
		grep -q " est_cycles_per_kop_estimate REGRESSED" "$TMP/v" &&
			flagged_cyce=$((flagged_cyce + 1))
		"$CB" audit --cpu "$CPU" "$TMP/chain1000.so" "$TMP/chain$1.so" 2>/dev/null |
			grep -q "^chain: B slower" && found=$((found + 1))
		lnt_round "$TMP/chain1000.so" "$TMP/chain1000.so" >"$TMP/v"
		sed "s/^/  A\/A round $i: /" "$TMP/v"
		grep -Eq "(REGRESSED|IMPROVED)" "$TMP/v" && aa_flagged=$((aa_flagged + 1))
		grep -Eq " est_cycles_per_kop_estimate (REGRESSED|IMPROVED)" "$TMP/v" &&
			aa_cyce=$((aa_cyce + 1))
	done
	for i in $(seq 1 "$R"); do
		audit_round "$TMP/chain1000.so" "$TMP/chain$1.so" >"$TMP/v"
		sed "s/^/  audit round $i: /" "$TMP/v"
		grep -q "REGRESSED" "$TMP/v" && flagged_audit=$((flagged_audit + 1))
		audit_round "$TMP/chain1000.so" "$TMP/chain1000.so" >"$TMP/v"
		sed "s/^/  A\/A audit round $i: /" "$TMP/v"
		grep -Eq "(REGRESSED|IMPROVED)" "$TMP/v" && aa_audit=$((aa_audit + 1))
	done
	echo "through audits (--format lnt, audit_change_bp at order 2 against an A/A audit at order 1):" \
		"LNT flagged the slowdown $flagged_audit/$R, a change where there was none $aa_audit/$R"
	echo "$(awk -v a="$1" 'BEGIN { printf "%.1f", a / 10 - 100 }') % slowdown ($1 adds): LNT flagged ps_per_op $flagged_ps/$R, est_cycles_per_kop $flagged_cyc/$R, ps_per_op_estimate $flagged_pse/$R, est_cycles_per_kop_estimate $flagged_cyce/$R; audit found it $found/$R"
	echo "no change (A/A): LNT flagged a change of some metric in $aa_flagged/$R, of est_cycles_per_kop_estimate in $aa_cyce/$R"
}

for adds in $ADDS; do
	slowdown "$adds"
done
