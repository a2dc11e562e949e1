#!/bin/sh
# cbenchctl insn beside uops.info: the latency and reciprocal throughput of
# eleven instructions, measured RUNS times on this host (est-cycles without
# a PMU), each against uops.info's figure for the host's core where the
# table below has it: Golden Cove (uops.info's ADL-P, the same core as
# Sapphire and Emerald Rapids') and Zen 3 / Zen 4 (ZEN3, ZEN4), as those
# tables list them for the same operand forms.  '-' where no figure is kept
# here.  Prints each measurement, its median and its distance from uops.info's
# figure.  Not a test.  RUNS=3 by default.
set -eu

. bench/lib.sh

RUNS=${RUNS:-3}
core=$($CB insn --format json 'add %rbx, %rax' | python3 -c 'import json,sys; print(json.load(sys.stdin)["core"])')
case "$core" in
Golden\ Cove*) fam=glc ;;
Zen\ 3*) fam=zen3 ;;
Zen\ 4*) fam=zen4 ;;
*) fam=none ;;
esac
# asm | Golden Cove lat TP | Zen 3 lat TP | Zen 4 lat TP (uops.info)
cat > "$TMP/table" <<'TABLE'
add %rbx, %rax|1 0.20|1 0.25|1 0.25
imul %rbx, %rax|3 1.00|3 1.00|3 1.00
crc32 %rbx, %rax|3 1.00|3 1.00|3 1.00
popcnt %rbx, %rax|3 1.00|1 0.25|1 0.25
lzcnt %rbx, %rax|3 1.00|1 0.25|1 0.25
mov (%rax), %rax|5 0.333|- 0.333|- 0.333
vaddpd %ymm1, %ymm0, %ymm0|2 0.50|3 0.50|3 0.50
vmulpd %ymm1, %ymm0, %ymm0|4 0.50|3 0.50|3 0.50
vfmadd231pd %ymm1, %ymm2, %ymm0|4 0.50|4 0.50|4 0.50
paddq %xmm1, %xmm0|1 0.333|1 0.25|1 0.25
lea 8(%rax,%rbx), %rax|1 -|- -|- -
TABLE
cut -d'|' -f1 "$TMP/table" > "$TMP/file"
echo "insn: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), core $core, CPU $CPU, $RUNS runs, $(date -u +%Y-%m-%d)"
i=1
while [ "$i" -le "$RUNS" ]; do
	$CB insn --cpu "$CPU" --format json --file "$TMP/file" > "$TMP/run$i.json"
	i=$((i + 1))
done
python3 - "$fam" "$TMP/table" "$TMP"/run*.json <<'PY'
import json, statistics, sys
fam, table, runs = sys.argv[1], sys.argv[2], sys.argv[3:]
col = {"glc": 1, "zen3": 2, "zen4": 3}.get(fam)
want = {}
for line in open(table):
    f = line.rstrip("\n").split("|")
    want[f[0]] = f[col].split() if col else ["-", "-"]
got = {}
for r in runs:
    for s in json.load(open(r))["sequences"]:
        got.setdefault(s["asm"], []).append((s.get("latency"), s.get("throughput")))
print(f"{'instruction':34} {'lat':>7} {'uops.info':>9} {'off':>7}   {'TP':>7} {'uops.info':>9} {'off':>7}   each run (lat/TP)")
worst = 0.0
for asm, w in want.items():
    row = [f"{asm:34}"]
    for k in (0, 1):
        vals = [v[k] for v in got.get(asm, []) if v[k] is not None]
        m = statistics.median(vals) if vals else None
        ref = None if w[k] == "-" else float(w[k])
        off = (m / ref - 1) * 100 if m is not None and ref else None
        if off is not None:
            worst = max(worst, abs(off))
        row.append(f"{m:7.3f}" if m is not None else f"{'-':>7}")
        row.append(f"{w[k]:>9}")
        row.append(f"{off:+6.2f}%" if off is not None else f"{'-':>7}")
        row.append(" ")
    each = " ".join(f"{a:.3f}/{b:.3f}" if a is not None and b is not None else "-" for a, b in got.get(asm, []))
    print(" ".join(row), each)
print(f"largest distance from uops.info's figures: {worst:.2f} %" if col else
      "no uops.info figures kept here for this core: measured only")
PY
