#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# `cbenchctl insn`: an instruction's latency and throughput measured from
# the assembly given (built at run time by cc and as), the chain and the
# copies it ran reported with the unrolls and the loop's cost; a table of
# several from --file, text and JSON; --copies; and every refusal with its
# reason: a privileged instruction in user mode, one that would leave the
# harness, an instruction the assembler does not know, no compiler, wrong
# arguments.  Whether the figures match a table is not asserted here (that
# is a measurement: docs/results.md); that they are there and positive is.
set -u

. tests/run/lib.sh

OUTPUT_GLOB="report*"

run_cb insn --trials 1 'imul %rbx, %rax'
if [ "$rc" -eq 0 ] && grep -Eq '^imul %rbx, %rax +[0-9.]+ +[0-9.]+$' "$TMP/out" &&
   grep -q '^backend user; ' "$TMP/out" &&
   grep -q "latency: its destination is a source too: repeated as given; 100 and 200 a loop iteration" "$TMP/out" &&
   grep -Eq 'throughput: [0-9]+ copies, the registers each writes renamed apart' "$TMP/out" &&
   grep -q 'imul %rbx, %rax; imul %rbx, %rcx' "$TMP/out"; then
	ok "insn: imul's latency and throughput, the chain, the copies and the unrolls said"
else
	not_ok "insn imul (exit $rc)"
fi

cat >"$TMP/table" <<'TABLE'
# a table: one sequence a line, its init after '|'
popcnt %rbx, %rax
div %rcx | xor %edx, %edx; mov $1, %eax; mov $1, %ecx
rdmsr
TABLE
run_cb insn --trials 1 --file "$TMP/table" --format json -o "$TMP/report.json"
if [ "$rc" -eq 1 ] && python3 - "$TMP/report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["backend"] == "user" and r["cpu_vendor"], r
s = r["sequences"]
assert [x["asm"] for x in s] == ["popcnt %rbx, %rax", "div %rcx", "rdmsr"], s
p, d, m = s
assert p["latency"] > 0 and p["throughput"] > 0 and p["copies"] >= 2, p
assert p["latency_run"]["code"] == "popcnt %rax, %rax\n", p
assert p["latency_run"]["unroll_short"] == 100 and p["latency_run"]["unroll_long"] == 200, p
assert "loop_overhead" in p["latency_run"] and "counted_cycles" in p["latency_run"], p
assert d["init"] == "xor %edx, %edx; mov $1, %eax; mov $1, %ecx" and d["latency"] > 0, d
assert d["throughput"] is None and "--copies" in d["throughput_run"]["not_measured"], d
assert "privileged" in m["refused"] and "--backend kmod" in m["refused"], m
PY
then
	ok "insn --file --format json: a row per line, init after '|', a refused line says why, exit 1"
else
	not_ok "insn --file (exit $rc)"
fi

run_cb insn --trials 1 --copies 2 --keep "$TMP/kept" 'add %rbx, %rax; add %rbx, %rcx'
if [ "$rc" -eq 0 ] && grep -Eq '^add %rbx, %rax; add %rbx, %rcx +- +[0-9.]+$' "$TMP/out" &&
   grep -q 'latency: not measured: --copies: the sequence is 2 independent copies' "$TMP/out" &&
   [ -s "$TMP/kept/insn.c" ] && [ -s "$TMP/kept/insn.so" ]; then
	ok "insn --copies 2 --keep: the throughput of copies as given, the source kept"
else
	not_ok "insn --copies (exit $rc)"
fi

# Built here, measured where no compiler is (the VM tests' guests): the
# kept object of the same source is used as it is.
run_cb insn --build-only --keep "$TMP/built" 'add %rbx, %rax'
built=$rc
CC=/nonexistent/cc run_cb insn --trials 1 --keep "$TMP/built" 'add %rbx, %rax'
if [ "$built" -eq 0 ] && [ "$rc" -eq 0 ] && grep -Eq '^add %rbx, %rax +[0-9.]+ +[0-9.]+$' "$TMP/out"; then
	ok "insn --build-only, then --keep without a compiler: the kept object measured"
else
	not_ok "insn --build-only and --keep (exit $built, then $rc)"
fi
expect_failure "insn: --build-only without --keep" "--build-only builds into --keep DIR" \
	insn --build-only 'nop'

expect_failure "insn: a privileged instruction in user mode" \
	"refused: 'rdmsr' is privileged: it faults in user mode; measure it in ring 0" insn rdmsr
expect_failure "insn: an instruction that leaves the harness" \
	"refused: 'push %rax' would leave the harness's stack or control flow" insn 'push %rax'
expect_failure "insn: %rsp" "the sequence names %rsp" insn 'mov %rsp, %rax'
expect_failure "insn: an instruction the assembler does not know" \
	"refused: the assembler: Error: no such instruction: .foo %rax'" insn 'foo %rax'
CC=/nonexistent/cc run_cb insn 'add %rbx, %rax'
if [ "$rc" -eq 1 ] && grep -q "no C compiler runs as '/nonexistent/cc'.*install gcc (or clang) and binutils" "$TMP/err"; then
	ok "insn: no compiler: refused, saying what to install"
else
	not_ok "insn without a compiler (exit $rc)"
fi
expect_failure "insn: no sequence" "give one sequence, quoted" insn
expect_failure "insn: a sequence and --file" "--file takes the sequences" insn --file "$TMP/table" 'add %rbx, %rax'
expect_failure "insn: --init with --file" "--init is for one sequence" insn --file "$TMP/table" --init 'nop'
expect_failure "insn: --backend both" "--backend must be user or kmod" insn --backend both 'nop'
expect_failure "insn: --copies 0" "--copies wants a count from 1 to 64" insn --copies 0 'nop'
expect_failure "insn: an unwritable -o" "unable to write $TMP/none/report.json" \
	insn --trials 1 -o "$TMP/none/report.json" 'add %rbx, %rax'

finish
