#!/bin/sh
# Does `cbenchctl compare` hold its alpha here?  Prints, from one run on this
# machine:
#   - A/A pairs of separate runs of the add and imul chains
#     (examples/suite.c), K runs a side: how many of PAIRS pairs compare
#     calls faster or slower (alpha
#     0.05 allows 5 %), with the runs taken alternately (old, new, old, ...)
#     and in blocks (every old run, then every new one);
#   - one run a side: compare's verdicts (it should give none), beside what
#     a U test over the two runs' trials says (what compare did before, and
#     what benchstat does), and the share of a trial's variance that lies
#     between runs;
#   - a true 1 % slowdown (examples/audit.c: chain_1010 against chain_1000,
#     both declaring 1000 ops) through compare, K alternating runs a side:
#     how often it is found, with the right sign;
#   - the gate, compare --fail-on slower: how often it fails (exit status 3)
#     on the A/A pairs (runs alternately) and on the 1 % slowdown, and how
#     often --min-effect 2 lets the slowdown pass.
# Not a test: nothing here passes or fails on a number.  Run by
# `make bench-audit`.
set -eu

. bench/lib.sh

PAIRS=${PAIRS:-40}
POWER_PAIRS=${POWER_PAIRS:-20}
K=${K:-3}
SUITE=build/examples/suite.so
AUDIT=build/examples/audit.so

# Runs reuse one tuning, as a user's repeated runs do (the cache).
export XDG_CACHE_HOME="$TMP/cache"
run() {
	"$CB" run --cpu "$CPU" --filter "$1" -o "$2" "$3" 2>/dev/null
}
run '^(add|imul)_chain$' /dev/null "$SUITE"
run '^chain_10[01]0$' /dev/null "$AUDIT"
echo "compare on A/A pairs of separate runs: add_chain and imul_chain, CPU $CPU, $PAIRS pairs of $K runs a side" >&2

# Each pair: 2K runs in a row; the analysis assigns them alternately and in
# blocks, so both orders see the same runs.
p=0
while [ "$p" -lt "$PAIRS" ]; do
	i=0
	while [ "$i" -lt $((2 * K)) ]; do
		run '^(add|imul)_chain$' "$TMP/aa.$p.$i.txt" "$SUITE"
		i=$((i + 1))
	done
	p=$((p + 1))
done
# A true 1 % slowdown: old runs of chain_1000 and new runs of chain_1010,
# alternating, the new ones renamed so compare pairs them.
p=0
while [ "$p" -lt "$POWER_PAIRS" ]; do
	i=0
	while [ "$i" -lt "$K" ]; do
		run '^chain_1000$' "$TMP/slow.$p.old$i.txt" "$AUDIT"
		run '^chain_1010$' "$TMP/slow.$p.new$i.raw" "$AUDIT"
		sed 's/^BenchmarkChain1010 /BenchmarkChain1000 /' "$TMP/slow.$p.new$i.raw" >"$TMP/slow.$p.new$i.txt"
		i=$((i + 1))
	done
	p=$((p + 1))
done

python3 - "$TMP" "$CB" "$PAIRS" "$POWER_PAIRS" "$K" <<'PY'
import json, math, statistics, subprocess, sys

tmp, cb = sys.argv[1], sys.argv[2]
pairs, power_pairs, k = map(int, sys.argv[3:6])

def compare(old, new):
    """compare's rows: {benchmark: (change %, verdict)}; the verdict "?" for
    a row of one run a side, which compare gives none."""
    out = subprocess.run([cb, "compare", "--format", "json", *old, "--", *new],
                         capture_output=True, text=True, check=True).stdout
    rows = {}
    for b in json.loads(out)["benchmarks"]:
        one = b["runs_old"] < 2 or b["runs_new"] < 2
        v = "?" if one and b["verdict"] == "undecided" else b["verdict"]
        rows[b["name"].removeprefix("Benchmark")] = (b["change"], v)
    return rows

def gate(old, new, *opts):
    """compare --fail-on slower's exit status."""
    return subprocess.run([cb, "compare", "--fail-on", "slower", *opts, *old, "--", *new],
                          capture_output=True, text=True).returncode

def trials(path, name):
    return [float(l.split()[2]) for l in open(path) if l.startswith(f"Benchmark{name} ")]

def u_test_p(a, b):
    """Mann-Whitney U, normal approximation with tie and continuity
    corrections (R's wilcox.test(exact = FALSE)), as compare had it."""
    n = len(a) + len(b)
    r = sorted([(x, 1) for x in a] + [(x, 0) for x in b])
    rank_a = ties = 0
    i = 0
    while i < n:
        j = i
        while j + 1 < n and r[j + 1][0] == r[i][0]:
            j += 1
        rank_a += sum((i + j) / 2 + 1 for m in range(i, j + 1) if r[m][1])
        t = j - i + 1
        ties += t ** 3 - t
        i = j + 1
    u = rank_a - len(a) * (len(a) + 1) / 2
    var = len(a) * len(b) / 12 * ((n + 1) - ties / (n * (n - 1)))
    if var <= 0:
        return 1.0
    z = u - len(a) * len(b) / 2
    z = (abs(z) - 0.5) / math.sqrt(var) if z else 0
    return math.erfc(max(z, 0) / math.sqrt(2))

def run_file(p, i):
    return f"{tmp}/aa.{p}.{i}.txt"

print(f"compare, A/A pairs of separate runs ({k} runs a side, alpha 0.05 allows "
      f"{0.05 * pairs:.0f} of {pairs}):")
aa_gate = [0, 0, 0]
for p in range(pairs):
    r = [run_file(p, i) for i in range(2 * k)]
    st = gate(r[0::2], r[1::2])
    aa_gate[0 if st == 0 else 1 if st == 3 else 2] += 1
for name in ("AddChain", "ImulChain"):
    alt = block = one = u_false = 0
    changes = []
    for p in range(pairs):
        r = [run_file(p, i) for i in range(2 * k)]
        c, v = compare(r[0::2], r[1::2])[name]
        changes.append(c)
        alt += v in ("faster", "slower")
        block += compare(r[:k], r[k:])[name][1] in ("faster", "slower")
        one += compare(r[:1], r[1:2])[name][1] != "?"
        u_false += u_test_p(trials(r[0], name), trials(r[1], name)) < 0.05
    # How much of a trial's variance lies between runs (one-way ANOVA on
    # the logs of every run's trials).
    runs = [[math.log(x) for x in trials(run_file(p, i), name)]
            for p in range(pairs) for i in range(2 * k)]
    m = statistics.mean(len(x) for x in runs)
    within = statistics.mean(statistics.variance(x) for x in runs)
    between = max(statistics.variance([statistics.mean(x) for x in runs]) - within / m, 0)
    print(f"  {name}: runs taken alternately: {alt} of {pairs} called faster or slower "
          f"(changes {min(changes):+.3f}% to {max(changes):+.3f}%)")
    print(f"  {name}: runs taken in blocks:   {block} of {pairs} called faster or slower")
    print(f"  {name}: one run a side:         {one} of {pairs} decided (each should say '?')")
    print(f"  {name}: the U test over one run's trials against another's (compare before, "
          f"benchstat): {u_false} of {pairs} called different")
    print(f"  {name}: share of a trial's variance between runs: "
          f"{100 * between / (between + within):.0f}% ({len(runs)} runs)")

print(f"  the gate (--fail-on slower) on the A/A pairs, runs alternately (both chains): "
      f"failed (3) in {aa_gate[1]} of {pairs}, passed (0) in {aa_gate[0]}, other {aa_gate[2]}")

found = wrong = gated = passed2 = 0
slow = []
for p in range(power_pairs):
    c, v = compare([f"{tmp}/slow.{p}.old{i}.txt" for i in range(k)],
                   [f"{tmp}/slow.{p}.new{i}.txt" for i in range(k)])["Chain1000"]
    slow.append(c)
    found += v == "slower"
    wrong += v == "faster"
    old = [f"{tmp}/slow.{p}.old{i}.txt" for i in range(k)]
    new = [f"{tmp}/slow.{p}.new{i}.txt" for i in range(k)]
    gated += gate(old, new) == 3
    passed2 += gate(old, new, "--min-effect", "2") == 0

print(f"compare, a true 1% slowdown (chain_1010 vs chain_1000, {k} alternating runs a side): "
      f"slower in {found} of {power_pairs}, faster in {wrong}; median change "
      f"{statistics.median(slow):+.3f}%")
print(f"  the gate (--fail-on slower): failed (3) in {gated} of {power_pairs}; with "
      f"--min-effect 2 passed (0) in {passed2} of {power_pairs}")
PY
