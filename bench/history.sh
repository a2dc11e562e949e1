#!/bin/sh
# Known answers for `cbenchctl history`: histories replayed from real runs.
#
# tests/fixtures/history.c is built as BUILDS commits of unchanged code
# (each its own build ID, as each commit's build would be) and as three
# builds whose "chain" benchmark is 0.25 %, 0.5 % and 1 % slower (2005,
# 2010 and 2020 adds a rep against 2000: real code changes); "steady" and
# "imul" never change.  ROUNDS rounds each run every kind once (the base
# rotating over its builds, the order of kinds rotating too), one
# `cbenchctl run` each, as a CI job would.  Then, replayed in time order
# through `store add` and `history` as CI would call them after every
# commit:
#
#   - A/A: every window of 30 consecutive base runs (STRIDE apart) is a
#     series of 30 commits; each change point history reports at any
#     commit is audited once (`history --confirm`, at the commit where it
#     first appeared): false confirmed alerts per benchmark-commit;
#   - steps: the same windows with the step's runs from commit 16 on;
#     after each commit from 16 on, whether history names the step (at
#     order 16 plus or minus 1) for chain; how many commits after the step
#     it is found (1: at the step's own commit), and whether `--confirm`
#     confirms it then.
#
# The windows overlap (they share runs), so the benchmark-commits are not
# independent draws: the figures say how the detector fares over this
# machine's real run-to-run noise, in every position a window can take.
# Not a test: nothing here passes or fails.  Run by `make bench`.
#
#   ROUNDS=142 STRIDE=1 BUILDS=10 sh bench/history.sh
#
# WORK=DIR keeps the objects and the runs in DIR (default: a scratch
# directory); a DIR that holds ROUNDS rounds already is replayed without
# measuring again.
set -eu

. bench/lib.sh

ROUNDS=${ROUNDS:-142}
STRIDE=${STRIDE:-1}
BUILDS=${BUILDS:-10}
FIXTURE=tests/fixtures/history.c
WORK=${WORK:-$TMP}
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)

build() {
	mkdir -p "$WORK/obj/$1"
	${CC:-cc} -O2 -fPIC -shared -Iinclude -DHISTORY_ADDS="$2" -DHISTORY_COMMIT="\"$1\"" \
		-o "$WORK/obj/$1/history.so" "$FIXTURE"
}

if [ "$(cat "$WORK/runs/rounds" 2>/dev/null)" = "$ROUNDS $BUILDS" ]; then
	echo "history replay: the $ROUNDS rounds measured in $WORK/runs" >&2
else

rm -rf "$WORK/runs" "$WORK/obj"
b=0
while [ "$b" -lt "$BUILDS" ]; do
	build "base$b" 2000
	b=$((b + 1))
done
build s025 2005
build s05 2010
build s1 2020

echo "history replay: $ROUNDS rounds of 4 runs (--trials 3 --trial-time 0.005) on CPU $CPU of" \
	"$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(date -u +%Y-%m-%dT%H:%MZ)" >&2
mkdir -p "$WORK/runs"
r=0
while [ "$r" -lt "$ROUNDS" ]; do
	set -- "base$((r % BUILDS))" s025 s05 s1
	# Rotate the kinds' order from round to round.
	k=0
	while [ "$k" -lt $((r % 4)) ]; do
		first=$1
		shift
		set -- "$@" "$first"
		k=$((k + 1))
	done
	for kind in "$@"; do
		name=$kind
		case $kind in base*) name=base ;; esac
		"$CB" run --backend user --cpu "$CPU" --trials 3 --trial-time 0.005 --format json \
			-o "$WORK/runs/$name-$r.json" "$WORK/obj/$kind/history.so" 2>/dev/null
	done
	r=$((r + 1))
done
echo "$ROUNDS $BUILDS" >"$WORK/runs/rounds"
fi

python3 - "$TMP" "$CB" "$ROUNDS" "$STRIDE" "$WORK" <<'PY'
import json, os, shutil, subprocess, sys

tmp, cb, rounds, stride, work = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
keep = os.path.join(tmp, "kept")
SERIES = 30
STEP_AT = 16          # the first commit of the step's runs (order)

def cbench(*args):
    p = subprocess.run([cb] + list(args), capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr

def add(store, kind, r, order):
    rc, _, err = cbench("store", "add", store, "%s/runs/%s-%d.json" % (work, kind, r),
                        "--commit", "r%d-%s" % (r, kind), "--order", str(order),
                        "--keep-object", keep)
    if rc:
        sys.exit("store add failed: " + err)

def history(store, confirm=None):
    args = ["history", "--format", "json", store]
    if confirm:
        args[1:1] = ["--confirm", "--filter", "^%s$" % confirm]
    rc, out, err = cbench(*args)
    if rc not in (0, 3):
        sys.exit("history failed: " + err)
    return {b["name"]: b for b in json.loads(out)["benchmarks"]}

def change_points(store, confirm=None):
    return {n: b["change_points"] for n, b in history(store, confirm).items()}

def confirmed(store, name, order, what):
    cps = change_points(store, confirm=name).get(name, [])
    for c in cps:
        if c["order"] == order:
            if not c["confirmed"]:
                print("  (%s, %s at order %d: not confirmed: %s)" % (what, name, order, c["reason"]))
            return c["confirmed"]
    print("  (%s, %s at order %d: gone with --confirm)" % (what, name, order))
    return False

windows = list(range(0, rounds - SERIES + 1, stride))
if not windows:
    sys.exit("ROUNDS must be %d or more" % SERIES)

# ---- A/A --------------------------------------------------------------------
bc = alerts = false_confirmed = 0
at_end = 0
apart = {}
for w in windows:
    store = os.path.join(tmp, "aa.db")
    if os.path.exists(store):
        os.remove(store)
    seen = set()
    for i in range(SERIES):
        add(store, "base", w + i, i + 1)
        bc += 3
        if i < 2:
            continue
        cps = change_points(store)
        for name, l in cps.items():
            for c in l:
                if (name, c["order"]) in seen:
                    continue
                seen.add((name, c["order"]))
                alerts += 1
                false_confirmed += confirmed(store, name, c["order"], "A/A window %d" % w)
    final = history(store)
    at_end += sum(len(b["change_points"]) for b in final.values())
    for name, b in final.items():
        apart.setdefault(name, []).append(b["between_runs_sd_pct"])
print("A/A: %d windows of %d commits over %d rounds (%d apart), 3 benchmarks: %d benchmark-commits"
      % (len(windows), SERIES, rounds, stride, bc))
print("  runs apart beyond their own spread (est-cycles, median over windows): %s"
      % ", ".join("%s %.4f %%" % (n, sorted(v)[len(v) // 2]) for n, v in sorted(apart.items())))
print("  change points history reported at some commit: %d (at the last commit: %d)" % (alerts, at_end))
print("  confirmed by the audit (false confirmed alerts): %d, %.2g per benchmark-commit"
      % (false_confirmed, false_confirmed / bc))

# ---- steps ------------------------------------------------------------------
for kind, size in (("s025", "0.25"), ("s05", "0.5"), ("s1", "1")):
    delays, confirms, others = [], 0, 0
    for w in windows:
        store = os.path.join(tmp, "step.db")
        if os.path.exists(store):
            os.remove(store)
        found = None
        for i in range(SERIES):
            add(store, "base" if i + 1 < STEP_AT else kind, w + i, i + 1)
            if i + 1 < STEP_AT:
                continue
            cps = change_points(store)
            hit = [c for c in cps.get("Chain", []) if abs(c["order"] - STEP_AT) <= 1]
            if hit:
                found = i + 2 - STEP_AT
                confirms += confirmed(store, "Chain", hit[0]["order"],
                                      "+%s %% window %d" % (size, w))
                others += sum(len(cps.get(n, [])) for n in ("Steady", "Imul"))
                break
        delays.append(found)
    n = len(delays)
    within = {d: sum(1 for x in delays if x is not None and x <= d) for d in (1, 2, 3, 5, 15)}
    print("step +%s %% from commit %d, %d series: found within 1, 2, 3, 5, 15 commits: %s of %d;"
          " confirmed when found: %d; never found: %d; change points in steady/imul then: %d"
          % (size, STEP_AT, n, ", ".join(str(within[d]) for d in (1, 2, 3, 5, 15)), n, confirms,
             sum(1 for x in delays if x is None), others))
PY
