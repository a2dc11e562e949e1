#!/bin/sh
# What a run tells about compute-only kernels (bench/headline.c: a 64-value
# sweep of one kernel, four independent add chains, a hash of an L1-resident
# buffer), none of which is sensitive to where memory lies.  Prints, from
# runs on this machine:
#   - per run, how many of the 70 benchmarks were flagged unstable or
#     placement-sensitive, and how many trials were set aside as disturbed
#     (by cause);
#   - for each pair of runs, how many headlines of one run lie in the other
#     run's interval, and the headlines' median and largest difference,
#     beside the least trials';
#   - the independent-add benchmark's flags over RUNS runs;
#   - est-cycles/op against ns/op times the trials' median core clock, the
#     largest gap of each run and of EST_RUNS runs of independent_adds, and
#     whether every row apart by more than 0.5 % says why;
#   - a run with a busy moment made on purpose: a SCHED_FIFO hog on the
#     measuring CPU for half a second, a few seconds in; what the run says
#     of the trials it slowed.
# Not a test: nothing here passes or fails on a number.  Run by `make bench`.
set -eu

. bench/lib.sh

RUNS=${RUNS:-4}
EST_RUNS=${EST_RUNS:-20}
SO=$TMP/headline.so
${CC:-gcc} -O2 -fPIC -shared -Iinclude -o "$SO" bench/headline.c
export XDG_CACHE_HOME="$TMP/cache"
echo "headline: $RUNS runs of bench/headline.c (70 benchmarks) on $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), CPU $CPU" >&2

i=0
while [ "$i" -lt "$RUNS" ]; do
	"$CB" run --cpu "$CPU" -o "$TMP/h$i.json" "$SO" 2>/dev/null
	i=$((i + 1))
done

i=0
while [ "$i" -lt "$EST_RUNS" ]; do
	"$CB" run --cpu "$CPU" --filter '^independent_adds$' -o "$TMP/e$i.json" "$SO" 2>/dev/null
	i=$((i + 1))
done

# A busy moment: a real-time hog on the measuring CPU for half a second.
( sleep 3; timeout 0.5 chrt -f 99 taskset -c "$CPU" sh -c 'while :; do :; done' ) 2>/dev/null &
hog=$!
"$CB" run --cpu "$CPU" -o "$TMP/hog.json" "$SO" 2>/dev/null
wait "$hog" 2>/dev/null || true

python3 - "$TMP" "$RUNS" "$EST_RUNS" <<'PY'
import itertools, json, statistics, sys

tmp, runs, est_runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
reports = [json.load(open(f"{tmp}/h{i}.json")) for i in range(runs)]

def causes(rep):
    c = {}
    for b in rep["benchmarks"]:
        for t in b["trials"]:
            if t["status"] == "set_aside":
                c[t["cause"]] = c.get(t["cause"], 0) + 1
    return c

print("per run: flagged unstable / placement-sensitive of 70, trials set aside by cause")
for i, rep in enumerate(reports):
    b = rep["benchmarks"]
    print(f"  run {i + 1}: {sum(x['unstable'] for x in b)} / "
          f"{sum(x['placement_sensitive'] for x in b)}, set aside {causes(rep) or 'none'}")

print("pairs of runs: headlines of one within the other's interval (of 70); |difference| median, largest")
for a, b in itertools.combinations(range(runs), 2):
    A = {x["name"]: x for x in reports[a]["benchmarks"]}
    B = {x["name"]: x for x in reports[b]["benchmarks"]}
    inside = sum(B[n]["ns_per_op_lower"] <= A[n]["ns_per_op"] <= B[n]["ns_per_op_upper"] for n in A)
    d = [abs(A[n]["ns_per_op"] / B[n]["ns_per_op"] - 1) * 100 for n in A]
    dl = [abs(A[n]["least_trial_ns_per_op"] / B[n]["least_trial_ns_per_op"] - 1) * 100 for n in A]
    print(f"  runs {a + 1}, {b + 1}: {inside}/70 in; median {statistics.median(d):.4f}%, "
          f"largest {max(d):.3f}% (least trials: {statistics.median(dl):.4f}%, {max(dl):.3f}%)")

flags = [next(x for x in r["benchmarks"] if x["id"] == "independent_adds") for r in reports]
print(f"independent_adds: unstable in {sum(f['unstable'] for f in flags)} of {runs} runs, "
      f"placement-sensitive in {sum(f['placement_sensitive'] for f in flags)}, "
      f"headlines {', '.join('%.5g' % f['ns_per_op'] for f in flags)} ns/op")

def gaps(rep):
    """est-cycles/op against ns/op x the kept trials' median core clock, in
    percent, and whether a row apart by more than 0.5 % says why."""
    out = []
    for b in rep["benchmarks"]:
        ghz = [t["core_ghz"] for t in b["trials"] if t["status"] == "ok" and "core_ghz" in t]
        if ghz and "est_cycles_per_op" in b:
            g = abs(b["est_cycles_per_op"] / (b["ns_per_op"] * statistics.median(ghz)) - 1) * 100
            out.append((g, "est_cycles_note" in b))
    return out

print("est-cycles/op against ns/op x the kept trials' median core clock: largest gap per run")
for i, rep in enumerate(reports):
    g = gaps(rep)
    print(f"  run {i + 1}: {max(x for x, _ in g):.3f}% (median {statistics.median(x for x, _ in g):.4f}%); "
          f"{sum(x > 0.5 for x, _ in g)} rows beyond 0.5%, {sum(x > 0.5 and n for x, n in g)} saying why")
est = [gaps(json.load(open(f"{tmp}/e{i}.json"))) for i in range(est_runs)]
flat = [x for g in est for x in g]
if flat:
    print(f"independent_adds over {est_runs} runs: gap largest {max(x for x, _ in flat):.4f}%, "
          f"median {statistics.median(x for x, _ in flat):.4f}%; "
          f"{sum(x > 0.5 for x, _ in flat)} runs beyond 0.5%, {sum(x > 0.5 and n for x, n in flat)} saying why")

hog = json.load(open(f"{tmp}/hog.json"))
b = hog["benchmarks"]
print(f"with a SCHED_FIFO hog on the CPU for 0.5 s: set aside {causes(hog) or 'none'}; "
      f"unstable {sum(x['unstable'] for x in b)}, placement-sensitive "
      f"{sum(x['placement_sensitive'] for x in b)} of 70")
for x in b:
    if x.get("set_aside_note"):
        print(f"  {x['name']}: {x['set_aside_note']}")
PY
