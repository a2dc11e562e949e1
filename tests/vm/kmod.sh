#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The kernel backend's checks, run inside the test VM as root (by
# guest.sh) with cbench.ko at $1, cbench-kmodtest on PATH and the
# kernel-safe objects good.so, suite.kernel.so and audit.kernel.so in $2.
# Prints one line per check and ends with "kmod: PASSED" or "kmod: FAILED";
# exits 0 only then.
#
#   kmod.sh /cbench.ko /kmod
#
# Every run keeps trials on a shared core (--keep-shared): under TCG a core's
# width is the emulator's, and what is checked here is not the neighbours.

ko=$1
dir=$2
t=cbench-kmodtest
good=$dir/good.so
suite=$dir/suite.kernel.so
audit=$dir/audit.kernel.so
failed=0

fail() {
	echo "FAIL: $*"
	failed=1
}

step() {
	echo "== $*"
}

# hold_started PID: waits until the holding client (output in /tmp/hold.out)
# says its run is measuring; fails if it died first.  No sleep assumes how
# fast the host is: the run lasts hours on any host (kmod_test.c).
hold_started() {
	for _ in $(seq 1 600); do
		grep -q "^holding run" /tmp/hold.out 2>/dev/null && return 0
		kill -0 "$1" 2>/dev/null || break
		sleep 0.1
	done
	fail "the holding client never started its run: $(cat /tmp/hold.out 2>/dev/null)"
	return 1
}

# live_is WANT WHAT: the live objects ("images runs") come to WANT within
# 5 s; else fails saying what it saw first and last.
live_is() {
	first=
	for _ in $(seq 1 50); do
		got=$($t live 2>&1)
		[ -n "$first" ] || first=$got
		[ "$got" = "$1" ] && return 0
		sleep 0.1
	done
	fail "$2: live objects '$first', then '$got' (want '$1')"
}

# side_by_side FILE WHAT: FILE shows what ring 0 in LVT mode removes against
# user mode, and the disturbances each saw (report/backends.c); printed.
side_by_side() {
	grep -q "^what kmod (lvt) removes against user" "$1" ||
		fail "$2: no side-by-side comparison: $(cat "$1")"
	grep -q "^disturbances seen" "$1" || fail "$2: no disturbance counts: $(cat "$1")"
	sed -n '/^what kmod/,$p' "$1"
}

live_is_zero() {
	# The release work runs asynchronously after a socket closes: we wait
	# for it, up to a bound no host should need.
	for _ in $(seq 1 60); do
		[ "$($t live)" = "0 0" ] && return 0
		sleep 0.5
	done
	fail "live objects left: $($t live) ($*)"
}

step "load"
# Two runs at once, for the concurrency check; the default is one.  TCG
# on a shared host stretches calls, so the budget is the hard cap.
params="runs_max=2 irqoff_budget_ns=10000000"
insmod "$ko" $params || fail "insmod"

# The protocol fuzzer (tests/vm/fuzz.c) for cbench_fuzz= seconds: random
# and corrupted requests from privileged and unprivileged clients killed
# at random.  What must hold afterwards: no live object, and (checked at
# the end) a clean kernel log.
fuzz_seconds=$(sed -n 's/.*cbench_fuzz=\([0-9]*\).*/\1/p' /proc/cmdline)
fuzz() {
	step "protocol fuzzer: ${fuzz_seconds:-120} s"
	ended=$(dmesg | grep -c "ending it by NMI")
	cbench-fuzz --seconds "${fuzz_seconds:-120}" --clients 5 >/tmp/fuzz.out 2>&1 ||
		fail "fuzzer: $(tail -3 /tmp/fuzz.out)"
	head -1 /tmp/fuzz.out
	tail -2 /tmp/fuzz.out
	# The fuzzer's code returns at once for any reps the probe allows, and
	# an upload it changes never maps (the CRC-32): a call the watchdog had
	# to end is a wedge.  (One seen on 6.1 under another fuzzer is most
	# likely a changed upload of this loop: tests/kfixtures/stuck.c's
	# fuzzed_loop gives the same reports.)
	[ "$(dmesg | grep -c "ending it by NMI")" = "$ended" ] ||
		fail "the watchdog ended a fuzzer's call: $(dmesg | grep -B2 -A20 'ending it by NMI' | tail -40)"
	live_is_zero "after the fuzzer (seeds: $(grep -c 'client seed' /tmp/fuzz.out) in /tmp/fuzz.out)"
}
if grep -qw cbench_fuzz_only /proc/cmdline; then
	fuzz
	rmmod cbench || fail "rmmod after the fuzzer"
	dmesg | grep -Eq "WARNING|BUG|Oops|Call Trace|cbench: .*(error|leak)" && fail "kernel log not clean"
	[ $failed = 0 ] && echo "kmod: PASSED" || echo "kmod: FAILED"
	exit $failed
fi

step "the example suite, every benchmark"
$t suite "$suite" || fail "example suite"

step "cbenchctl run --backend kmod: the example suite through the pipeline"
if cbenchctl run --keep-shared --backend kmod --trials 2 --trial-time 0.01 --warmup 0.001 \
	--filter 'add_chain|imul_chain|copy/size=64$' "$suite" >/tmp/kmod-run.out 2>&1; then
	cat /tmp/kmod-run.out
	grep -q "^backend: kmod" /tmp/kmod-run.out || fail "report does not say backend: kmod"
	grep -q "^irqoff-budget: 10000000 ns" /tmp/kmod-run.out || fail "report has no IRQ-off budget"
	grep -q "^counters: none: TSC only" /tmp/kmod-run.out || fail "report does not say TSC only"
	grep -q "^BenchmarkAddChain " /tmp/kmod-run.out || fail "no AddChain result"
	grep -q "measurements discarded" /tmp/kmod-run.out || fail "no discarded fraction"
	grep -q "^# est-cycles-per-tick: " /tmp/kmod-run.out || fail "no add-chain cycle estimate"
	grep -q "est-cycles/op" /tmp/kmod-run.out || fail "no est-cycles/op"
else
	cat /tmp/kmod-run.out
	fail "cbenchctl run --backend kmod"
fi
live_is_zero "after cbenchctl run"

step "cbenchctl run --backend kmod --jobs 2: each CPU measuring watched from another"
# Four vCPUs: two measure at once, each watched from one of the other two
# (runs_max=2 above).  Two: refused, naming the CPUs it would take.
jobs_run() {
	cbenchctl run --keep-shared --backend kmod --jobs 2 --trials 2 --trial-time 0.01 --warmup 0.001 \
		--filter 'add_chain|imul_chain|copy/size=64$' -o /tmp/kmod-jobs.json \
		-o /tmp/kmod-jobs.txt "$suite" >/tmp/kmod-jobs.out 2>&1
}
if [ "$(grep -c '^processor' /proc/cpuinfo)" -ge 4 ]; then
	if jobs_run; then
		cat /tmp/kmod-jobs.out /tmp/kmod-jobs.txt
		grep -q '^cpus-measured: [0-3],[0-3] (each watched from [0-3],[0-3])$' /tmp/kmod-jobs.txt ||
			fail "the report does not name the CPUs measured and watching"
		for b in AddChain ImulChain Copy/size=64; do
			grep -q "^Benchmark$b " /tmp/kmod-jobs.txt || fail "no $b result with --jobs 2"
		done
		grep -q '"watcher_cpus":\[[0-3],[0-3]\]' /tmp/kmod-jobs.json ||
			fail "no watcher_cpus in the JSON report"
		grep -q '"solo":false' /tmp/kmod-jobs.json || fail "no trial measured beside another"
	else
		cat /tmp/kmod-jobs.out
		fail "cbenchctl run --backend kmod --jobs 2"
	fi
	# Three at once would need six CPUs, and a module that takes three.
	if cbenchctl run --keep-shared --backend kmod --cpus 0-2 "$suite" >/tmp/kmod-jobs.out 2>&1 ||
		! grep -q "cbench.ko takes 2 runs at once (its runs_max): load it with runs_max=3" \
			/tmp/kmod-jobs.out; then
		cat /tmp/kmod-jobs.out
		fail "three CPUs in ring 0 with runs_max=2 not refused with the reason"
	fi
elif jobs_run || ! grep -q "in ring 0 each CPU measuring needs another to watch its calls: 2 CPUs at once need 4 online, and 2 are" \
	/tmp/kmod-jobs.out; then
	cat /tmp/kmod-jobs.out
	fail "--jobs 2 in ring 0 on two CPUs not refused with the reason"
fi
cbenchctl doctor >/tmp/kmod-doctor.out 2>&1
grep -Eq "run --jobs [0-9]+ at most, --jobs [0-9]+ in ring 0" /tmp/kmod-doctor.out ||
	fail "doctor does not say how many CPUs ring 0 measures on at once: $(grep jobs /tmp/kmod-doctor.out)"
live_is_zero "after cbenchctl run --jobs 2"

step "named parameters in ring 0"
# Each benchmark's setup() refuses any value other than its name promises:
# two and three keys, a range, strings, listed sets and a .param_name sweep.
if cbenchctl run --keep-shared --backend kmod --trials 1 --trial-time 0.01 --warmup 0.001 \
	--filter 'copy/size=512|hash/|sweep/' "$dir/params.so" >/tmp/kmod-run.out 2>&1; then
	for name in Copy/size=512/mode=aligned/align=0 Copy/size=512/mode=odd/align=8 \
		Hash/len=8/algo=crc32c Hash/len=64/algo=fnv1a Sweep/n=3 Sweep/n=-1; do
		grep -q "^Benchmark$name [0-9]" /tmp/kmod-run.out || fail "no $name: $(cat /tmp/kmod-run.out)"
	done
	grep -q "failed" /tmp/kmod-run.out && fail "parameters: $(grep failed /tmp/kmod-run.out)"
else
	cat /tmp/kmod-run.out
	fail "cbenchctl run --backend kmod of named parameters"
fi
if cbenchctl audit --backend kmod --budget 5 --filter '^hash/len=64/algo=fnv1a$' \
	"$dir/params.so" "$dir/params.so" >/tmp/kmod-run.out 2>&1; then
	grep -q "hash/len=64/algo=fnv1a" /tmp/kmod-run.out || fail "audit of a parameter set: $(cat /tmp/kmod-run.out)"
else
	cat /tmp/kmod-run.out
	fail "cbenchctl audit --backend kmod of a parameter set"
fi
$t args "$dir/params.so" || fail "RUN_ARGS sent by hand"
if cbenchctl run --keep-shared --backend kmod "$dir/bad_keys_twice.so" >/tmp/kmod-run.out 2>&1 ||
	! grep -q "declares key size twice" /tmp/kmod-run.out; then
	fail "a bad declaration was not refused: $(cat /tmp/kmod-run.out)"
fi
live_is_zero "after the parameter runs"

step "loop timing points in ring 0"
# cbench.ko records each call's timing points: the report has the
# per-iteration distribution, and looped marks 16 iterations per point, so
# the iterations are 16 times the stride times the timings.  One trial:
# each tunes its own stride, and the report gives medians over trials.
if cbenchctl run --keep-shared --backend kmod --trials 1 --trial-time 0.01 --warmup 0.001 \
	"$dir/tpoints.so" >/tmp/kmod-run.out 2>&1; then
	grep -q "^BenchmarkLooped [0-9].* ns/iter" /tmp/kmod-run.out || fail "no Looped ns/iter: $(cat /tmp/kmod-run.out)"
	grep -q "^BenchmarkAbi1 " /tmp/kmod-run.out || fail "no ABI 1 result: $(cat /tmp/kmod-run.out)"
	grep "^# BenchmarkLooped: ns/iter" /tmp/kmod-run.out
	counts=$(sed -n 's/^# BenchmarkLooped: ns\/iter .*; \([0-9]*\) iterations in \([0-9]*\) timings, stride \([0-9]*\);.*/\1 \2 \3/p' /tmp/kmod-run.out)
	set -- $counts
	[ -n "$3" ] && [ "$1" -gt 0 ] && [ "$1" -eq $(($2 * $3 * 16)) ] ||
		fail "Looped: iterations not 16 x timings x stride: '$counts'"
	grep -q "MIN_TIMING [0-9.]* ns" /tmp/kmod-run.out || fail "no ring-0 MIN_TIMING"
	grep -q "^# BenchmarkAbi1: ns/iter" /tmp/kmod-run.out && fail "ns/iter for an ABI 1 object"
else
	cat /tmp/kmod-run.out
	fail "cbenchctl run --backend kmod of timing points"
fi
$t tpoints "$dir/tpoints.so" || fail "timing points in the module"
$t tp-hostile "$dir/tp_hostile.so" || fail "a benchmark scribbling on ctx->tp"
# A generous --time-limit: on the debug kernel the tuning before the
# rehearsal can outlast the default 10 s, and the crash is what is checked.
if cbenchctl run --keep-shared --backend kmod --trials 1 --trial-time 0.01 --warmup 0.001 --time-limit 60 \
	--filter '^tp_capacity_lie$' "$dir/tp_hostile.so" >/tmp/kmod-run.out 2>&1 ||
	! grep -q "crashed (SIGSEGV) in .*, rehearsed in user mode before ring 0" /tmp/kmod-run.out; then
	fail "tp_capacity_lie was not stopped in user mode: $(cat /tmp/kmod-run.out)"
fi
live_is_zero "after the timing-point run"
if cbenchctl run --keep-shared --backend kmod "$dir/bad_libc_call.so" >/tmp/kmod-run.out 2>&1; then
	fail "a libc-calling object reached the kmod backend"
else
	grep -q "undefined symbol 'strlen'" /tmp/kmod-run.out || fail "no kimage reason: $(cat /tmp/kmod-run.out)"
fi

step "hostile benchmarks are stopped before ring 0"
# Each would oops or be refused by the module; cbenchctl must stop it in
# user mode (the rehearsal of the run's exact calls, or the module's
# limits) and say why.  The kernel log is checked at the end.
hostile_refused() {
	if cbenchctl run --keep-shared --backend kmod --trials 1 --filter "^$1\$" "$dir/hostile.so" >/tmp/hostile.out 2>&1; then
		fail "$1 ran in ring 0"
	elif ! grep -q "$2" /tmp/hostile.out; then
		fail "$1: no '$2' in: $(cat /tmp/hostile.out)"
	fi
}
hostile_refused overrun_at_reps "crashed (SIGSEGV) in .* reps, rehearsed in user mode before ring 0"
hostile_refused overrun_in_probe "in the budget probe's call of 256 reps"
hostile_refused null_deref "crashed (SIGSEGV)"
hostile_refused ud2 "crashed (SIGILL)"
hostile_refused arena_1tib "exceeds cbench.ko's arena_max_bytes"
hostile_refused arena_300mib "exceeds cbench.ko's arena_max_bytes"
live_is_zero "after hostile benchmarks"

step "per-rep hooks in ring 0"
# fresh_input fails its trial unless each call ran between its own hooks.
if cbenchctl run --keep-shared --backend kmod --trials 2 --trial-time 0.01 --warmup 0.001 \
	--filter '^fresh_input$' "$dir/per_rep.so" >/tmp/kmod-run.out 2>&1; then
	grep -q "^# tuning: per-rep" /tmp/kmod-run.out || fail "per-rep: not measured one call at a time"
	grep -Eq "^BenchmarkFreshInput [0-9]+ " /tmp/kmod-run.out || fail "per-rep: no result"
	grep -q "failed" /tmp/kmod-run.out && fail "per-rep: $(grep failed /tmp/kmod-run.out)"
else
	cat /tmp/kmod-run.out
	fail "cbenchctl run --backend kmod of a per-rep benchmark"
fi
$t hooks "$dir/per_rep.so" || fail "hooks in ring 0"
hook_refused() {
	if cbenchctl run --keep-shared --backend kmod --trials 1 --time-limit 5 --filter "^$1\$" "$dir/per_rep.so" \
		>/tmp/hook.out 2>&1; then
		fail "$1 ran in ring 0"
	elif ! grep -Eq "$2" /tmp/hook.out; then
		fail "$1: no '$2' in: $(cat /tmp/hook.out)"
	fi
}
hook_refused after_fails "after_rep\(\) returned -5, rehearsed in user mode"
hook_refused before_crashes "crashed \(SIG(SEGV|ILL)\) in before_rep\(\)"
hook_refused before_slow "a call of before_rep\(\) takes .* ms in user mode"
hook_refused before_hangs "timeout after 5"
live_is_zero "after per-rep hooks"

# Benchmark $1 of object $2 passes the user-mode rehearsal; run by
# cbenchctl in ring 0 it must fail saying what matches $3.
fails_in_ring0() {
	if cbenchctl run --keep-shared --backend kmod --trials 1 --filter "^$1\$" "$2" >/tmp/kmod-run.out 2>&1; then
		fail "$1 ran to the end"
	elif ! grep -q "$3" /tmp/kmod-run.out; then
		fail "$1: no '$3' in: $(cat /tmp/kmod-run.out)"
	fi
}

step "the watchdog ends calls that never return"
# Sent raw (no rehearsal): run() looping with interrupts on, with
# interrupts turned off by the code, in a sample after returning for a
# while, setup(), a per-rep hook, an audit's side B; each is ended, the run
# fails saying so and the CPU measures again (kmod_endings.c).
$t stuck "$dir/stuck.so" || fail "calls that never return in ring 0"
# Through cbenchctl: it returns in the user-mode rehearsal, loops in ring 0.
fails_in_ring0 forever_in_ring0 "$dir/stuck.so" \
	"forever_in_ring0: the benchmark's run() did not return within [0-9]* ms in ring 0; the CPU was recovered"
cbenchctl info >/tmp/kmod-info.out 2>&1
grep -q "watchdog: *a call of benchmark code is ended after [0-9]* ms" /tmp/kmod-info.out ||
	fail "info does not show the watchdog: $(cat /tmp/kmod-info.out)"
# INFO says this module takes an upload's CRC-32 (CBENCH_A_LIMIT_IMAGE_CRC32),
# and so cbenchctl sends it with each map (backend_kmod.c reads the same).
grep -q "uploads: *mapped only if their bytes give cbenchctl's CRC-32" /tmp/kmod-info.out ||
	fail "info does not say uploads are checked: $(cat /tmp/kmod-info.out)"
# One CPU online: none can watch, so runs are refused.
# others_online 0|1: every CPU but 0 offline, or back online.
others_online() {
	for c in /sys/devices/system/cpu/cpu[1-9]*; do
		echo "$1" >"$c/online" || return 1
	done
}
if others_online 0; then
	$t unwatched "$dir/stuck.so" || fail "a run with no CPU to watch it"
	cbenchctl info >/tmp/kmod-info.out 2>&1
	grep -q "one CPU is online, so none can watch: runs are refused" /tmp/kmod-info.out ||
		fail "info does not say runs are refused: $(cat /tmp/kmod-info.out)"
	others_online 1 || fail "the other CPUs back online"
else
	fail "could not take the CPUs but 0 offline"
fi
live_is_zero "after the watchdog"

step "exceptions in benchmark code end its call, not the kernel"
# Sent raw: int3, #UD, #DE, #GP and #XM in run(), with interrupts on, off
# by the code, in a sample, turned on by the code before a #GP; in setup(),
# each hook, an audit's side B, LVT mode.  Each run fails naming the
# exception and where; the CPU measures again (kmod_endings.c: faulting).
$t faulting "$dir/faulting.so" || fail "calls that raise exceptions in ring 0"
# Through cbenchctl: it returns in the user-mode rehearsal, #UD in ring 0.
fails_in_ring0 ud2_in_ring0 "$dir/faulting.so" \
	"ud2_in_ring0: the benchmark's run() raised an invalid opcode (#UD) in ring 0 at 0x[0-9a-f]* of its object; the CPU was recovered.*addr2line -f -i -e $dir/faulting.so 0x"
live_is_zero "after exceptions"

step "page faults, int3 in both encodings, int1, into, the trap flag, flags left changed"
# Sent raw: reads of user and kernel addresses, a write to the image's own
# code, a call into the (not executable) arena, on one side of an audit and
# in LVT mode; cd 03, int1, into; the trap flag set inside the call and as
# it returns; sti, cli and std left behind.  Each is ended or refused, says
# what and where, with no oops; the CPU measures again (kmod_endings.c: hazards).
$t hazards "$dir/hazards.so" || fail "hazards in ring 0"
# Through cbenchctl: each behaves in the user-mode rehearsal, not in ring 0.
fails_in_ring0 pf_in_ring0 "$dir/ring0_only.so" \
	"pf_in_ring0: the benchmark's run() raised a page fault (#PF) in ring 0 reading 0x1000 (not mapped) at 0x[0-9a-f]* of its object; the CPU was recovered.*addr2line"
fails_in_ring0 tf_in_ring0 "$dir/ring0_only.so" \
	"tf_in_ring0: the benchmark's run() raised a single step (#DB): it set the trap flag, TF, in ring 0 at 0x[0-9a-f]* of its object"
fails_in_ring0 sti_in_ring0 "$dir/ring0_only.so" \
	"sti_in_ring0: the benchmark's run() turned interrupts on or off (sti, cli or popf changed IF) in ring 0 (RFLAGS bits 0x200); cbench.ko put them back and refused the run's samples"
# What only ring 0 would run, and the kernel would not stop there: refused
# by cbenchctl's code check before upload.
for bad in int3_long:"int \$3 (cd 03)" syscall:"syscall, a system instruction"; do
	if cbenchctl run --keep-shared --backend kmod --trials 1 "$dir/bad_${bad%%:*}.so" >/tmp/kmod-run.out 2>&1; then
		fail "bad_${bad%%:*} ran in ring 0"
	elif ! grep -q "in_ring0() has ${bad#*:}.*cbench.ko would run it in ring 0" /tmp/kmod-run.out; then
		fail "bad_${bad%%:*}: no code-check refusal in: $(cat /tmp/kmod-run.out)"
	fi
done
live_is_zero "after hazards"

step "a stack of the benchmark's own"
# cbench.ko calls benchmark code on a stack of call_stack_bytes (256 KiB);
# cbenchctl rehearses every call on three quarters of it.  What needs more
# is refused in user mode (the 1 MiB frame by its stack check, which the
# rehearsal runs); a 64 KiB frame, which overflowed a kernel thread's 16 KiB
# stack, runs, and the run says how deep it went.
cbenchctl info >/tmp/kmod-info.out 2>&1
grep -q "stack: *benchmark code runs on 256 KiB of its own" /tmp/kmod-info.out ||
	fail "info does not show the benchmark stack: $(cat /tmp/kmod-info.out)"
grep -q "page faults: *ended before the kernel's oops" /tmp/kmod-info.out ||
	fail "info does not show the page-fault net: $(cat /tmp/kmod-info.out)"
for name in recurse_10k frame_1m; do
	if cbenchctl run --keep-shared --backend kmod --trials 1 --filter "^$name\$" "$dir/deep_stack.so" \
		>/tmp/kmod-run.out 2>&1; then
		fail "$name ran in ring 0"
	elif ! grep -q "$name needs more .*stack.*never reached cbench.ko" /tmp/kmod-run.out; then
		fail "$name: no stack refusal in: $(cat /tmp/kmod-run.out)"
	fi
done
$t stack "$dir/deep_stack.so" || fail "a 64 KiB frame in ring 0"
if cbenchctl run --keep-shared --backend kmod --trials 2 --trial-time 0.01 --warmup 0.001 \
	--filter '^frame_64k$' "$dir/deep_stack.so" >/tmp/kmod-run.out 2>&1; then
	grep -Eq "^BenchmarkFrame64k [0-9]+ " /tmp/kmod-run.out || fail "frame_64k: no result"
else
	cat /tmp/kmod-run.out
	fail "cbenchctl run --backend kmod of a 64 KiB frame"
fi
live_is_zero "after the stack"

step "recursion deeper in ring 0 than in user mode: ended by its stack check"
# tests/kfixtures/recursion.c recurses 10 deep in user mode, 10,000 deep
# (32 bytes a frame, 320 KiB) in ring 0, in four shapes.  Unchecked, each
# overflows the 256 KiB stack into its guard pages: a double fault, a
# panic.  cbenchctl checks one function of every cycle of calls (object/
# kstack.h), and the check ends the call with ud2 before the stack's end:
# the run fails naming the function and the cycle, and the CPU measures
# again.  A 1 MiB frame only ring 0 reaches is checked the same way; frames
# of run-time size are refused before upload; a quicksort and a tree walk
# still run in ring 0, checked, and so does the recursion laid out anew.
cbenchctl info >/tmp/kmod-info.out 2>&1
grep -q "recursion: *checked: a call that goes deeper in ring 0 is ended while [0-9]* KiB are left" \
	/tmp/kmod-info.out || fail "info does not say recursion is checked: $(cat /tmp/kmod-info.out)"
ran_out() {
	fails_in_ring0 "$1" "$3" "$1: the benchmark's run() ran out of stack in ring 0: $2 was called with less than [0-9]* KiB of the 256 KiB stack left.*in a recursion deeper there than in the user-mode rehearsal (.*$2.*); cbench.ko ended the call at the check, before the stack's end, and the CPU was recovered"
}
ran_out direct_ring0 down "$dir/recursion.so"
ran_out mutual_ring0 'p[io]ng' "$dir/recursion.so"
ran_out pointer_ring0 via_pointer "$dir/recursion.so"
ran_out arena_ring0 via_arena "$dir/recursion.so"
# The image laid out anew for each trial: the checks are in the moved code.
ran_out mutual_ring0 'p[io]ng' "$dir/layout_recursion.so"
live_is_zero "after recursion deeper in ring 0"
fails_in_ring0 frame_ring0 "$dir/recursion.so" \
	"frame_ring0: the benchmark's run() called big_frame in ring 0, which needs [0-9]* KiB before any check, more than ring 0's stack of 256 KiB has.*ended the call at its check"
# A variable-length array; alloca() in a loop, whose stack grows each time round.
for refused in vla:"which has a stack frame of run-time size" grow:"which leaves the stack deeper each time round a loop"; do
	name=${refused%%:*}
	if cbenchctl run --keep-shared --backend kmod --trials 1 --filter "^$name\$" "$dir/stack_vla.so" >/tmp/kmod-run.out 2>&1; then
		fail "$name ran in ring 0"
	elif ! grep -q "$name calls .*, ${refused#*:}.* at 0x[0-9a-f]* of the object: cbench cannot bound its stack in ring 0" \
		/tmp/kmod-run.out; then
		fail "$name: no refusal of its frame in: $(cat /tmp/kmod-run.out)"
	fi
done
for run in recursion:quicksort recursion:tree_walk stack_vla:plain layout_recursion:tree_walk; do
	if cbenchctl run --keep-shared --backend kmod --trials 2 --trial-time 0.01 --warmup 0.001 --time-limit 60 \
		--filter "^${run#*:}\$" "$dir/${run%:*}.so" >/tmp/kmod-run.out 2>&1; then
		grep -Eq "^Benchmark[A-Za-z]+ [0-9]+ " /tmp/kmod-run.out || fail "$run: no result: $(cat /tmp/kmod-run.out)"
	else
		fail "cbenchctl run --backend kmod of $run: $(cat /tmp/kmod-run.out)"
	fi
done
# An audit whose side B recurses too deep in ring 0: its tuning there ends.
if cbenchctl audit --backend kmod --budget 2 --a quicksort --b direct_ring0 "$dir/recursion.so" \
	>/tmp/kmod-audit.out 2>&1; then
	fail "an audit of direct_ring0 ran to its end"
elif ! grep -q "tuning B failed: .*direct_ring0: the benchmark's run() ran out of stack in ring 0: down" \
	/tmp/kmod-audit.out; then
	fail "audit: no stack check of side B in: $(cat /tmp/kmod-audit.out)"
fi
live_is_zero "after recursion"

step "LVT mode: entries masked and restored, the timer alive afterwards"
# 2000 runs of 100 samples on CPU 1 in LVT mode, a bad mode refused, one
# cancelled mid-way (kmod_test.c: lvt_mode); the module checks each entry it
# restores (a mismatch warns, and the kernel log step fails).  Then CPU 1's
# local timer must still fire: a sleep pinned there ends, and its count of
# local timer interrupts grows meanwhile.
loc1() { awk '/^ *LOC:/ { print $3 }' /proc/interrupts; }
if $t lvt "$good" add_chain 1 2000; then :; else fail "LVT mode"; fi
before=$(loc1)
if timeout 20 taskset -c 1 sleep 0.5; then
	after=$(loc1)
	[ "$after" -gt "$before" ] || fail "CPU 1's local timer count did not grow: $before, then $after"
	echo "CPU 1's timer alive after the LVT-mode runs: LOC $before, then $after"
else
	fail "a sleep on CPU 1 did not end within 20 s after the LVT-mode runs: its timer is dead"
fi
# A phase's time limit far above what it needs: the debug kernel under
# TCG once took over the default 10 s to tune copy in ring 0.
if cbenchctl run --keep-shared --backend kmod --quiet-mode lvt --filter '^(add_chain|copy/size=4096)$' \
	--trials 2 --time-limit 60 --format json -o /tmp/lvt.json "$suite" 2>/tmp/lvt.err; then
	grep -q '"quiet_mode":"lvt"' /tmp/lvt.json || fail "cbenchctl run --quiet-mode lvt: no quiet_mode lvt in the report"
else
	fail "cbenchctl run --quiet-mode lvt: $(cat /tmp/lvt.err)"
fi
live_is_zero "after LVT mode"

step "run --backend both: user mode, then ring 0, in one Go report"
if cbenchctl run --keep-shared --backend both --quiet-mode lvt --filter '^(add_chain|copy/size=4096)$' --trials 2 \
	--time-limit 60 -o /tmp/both.txt "$suite" 2>/tmp/both.err; then
	[ "$(grep -c '^backend: user$' /tmp/both.txt)" = 1 ] && [ "$(grep -c '^backend: kmod$' /tmp/both.txt)" = 1 ] ||
		fail "run --backend both: not one section per backend: $(grep '^backend' /tmp/both.txt)"
	# Each benchmark's two trials under each backend's section.
	[ "$(sed -n '/^backend: user$/,/^backend: kmod$/p' /tmp/both.txt | grep -c '^BenchmarkAddChain')" = 2 ] &&
		[ "$(sed -n '/^backend: kmod$/,$p' /tmp/both.txt | grep -c '^BenchmarkAddChain')" = 2 ] ||
		fail "run --backend both: trials not under their backends: $(cat /tmp/both.txt)"
	grep -q '^quiet-mode: lvt' /tmp/both.txt || fail "run --backend both: the kmod section has no quiet-mode line"
	side_by_side /tmp/both.err "run --backend both"
else
	fail "run --backend both: $(cat /tmp/both.err)"
fi
live_is_zero "after run --backend both"

step "selftest in ring 0, and both backends side by side"
# TCG emulates the CPU, which the selftest identifies and judges nothing
# on (each check saying why: tests/unit/test_known.c); with --core it
# expects what a core the table has does, for at least 15 of its 20-odd
# checks, in user mode and in ring 0 alike (the emulator's timings fail most
# of them: exit 1).  A kernel ring 0 has no room for under TCG (its setup, its reps within
# the interrupts-off budget) is not run, saying why, not failed.
CBENCH_KNOWN_SO=$dir/known.so cbenchctl selftest --backend both --quiet-mode lvt --trials 1 \
	--core golden-cove-sp -o /tmp/selftest.out 2>/tmp/selftest.err
# What --core decides is which checks have an expected value: those not
# "not judged".  Whether a trial under TCG forms est-cycles/op (the emulated
# clock holding still) or tunes within its time-out depends on how fast the
# host is, so a check "not measured" counts here: it was to be judged.
for b in user kmod; do
	grep -Eq "^backend $b( \(quiet mode [a-z]+\))?: timer tsc" /tmp/selftest.out || fail "selftest: no $b backend: $(cat /tmp/selftest.out /tmp/selftest.err)"
	line=$(grep -E "^$b: [0-9]+ checks, [0-9]+ judged" /tmp/selftest.out)
	checks=$(echo "$line" | sed -E 's/^[a-z]+: ([0-9]+) checks.*/\1/')
	unjudged=$(echo "$line" | sed -nE 's/.*, ([0-9]+) not judged.*/\1/p')
	[ -n "$checks" ] && [ "$checks" -ge 20 ] && [ $((checks - ${unjudged:-0})) -ge 15 ] ||
		fail "selftest --core golden-cove-sp: $b: fewer than 15 of 20-odd checks with an expected value: $(cat /tmp/selftest.out /tmp/selftest.err)"
done
# A check not measured says why: a failed trial's reason, or what its trials
# lacked (under TCG, est-cycles/op where the emulated clock never held).
if grep -q ': no trial measured it$' /tmp/selftest.out; then
	fail "selftest: a check not measured without saying why: $(grep ': no trial measured it$' /tmp/selftest.out)"
fi
# In ring 0 (interrupts off) est-cycles/op forms: some are measured and judged.
grep -Eq "^kmod: 2[0-9] checks, ([5-9]|1[0-9]|2[0-9]) judged" /tmp/selftest.out ||
	fail "selftest --core golden-cove-sp: kmod: fewer than 5 checks judged: $(cat /tmp/selftest.out /tmp/selftest.err)"
grep -q "^core: Golden Cove (server: Sapphire Rapids, Emerald Rapids) (as --core says (.*); CPUID said: QEMU's TCG emulates" /tmp/selftest.out ||
	fail "selftest --core: the core not said: $(cat /tmp/selftest.out)"
grep -q "^backend kmod (quiet mode lvt)" /tmp/selftest.out ||
	fail "selftest: the kmod backend's quiet mode is not said: $(cat /tmp/selftest.out)"
side_by_side /tmp/selftest.out "selftest"
live_is_zero "after the selftest"

step "insn in ring 0: an object built on the host, a privileged instruction"
# The guest has no compiler: the host built the object (insn --build-only,
# scripts/vm-test.sh) and insn uses it as kept.  rdmsr is refused in user
# mode and runs in ring 0, its loop skipped by the user-mode rehearsal.
if cbenchctl insn rdmsr >/tmp/insn.out 2>&1; then
	fail "insn ran rdmsr in user mode: $(cat /tmp/insn.out)"
fi
grep -q "refused: 'rdmsr' is privileged: it faults in user mode" /tmp/insn.out ||
	fail "insn rdmsr in user mode: no refusal: $(cat /tmp/insn.out)"
if cbenchctl insn --backend kmod --trials 1 --keep /insn --file /insn.txt >/tmp/insn.out 2>/tmp/insn.err; then
	grep -Eq '^imul %rbx, %rax +[0-9.]+ +[0-9.]+$' /tmp/insn.out ||
		fail "insn in ring 0: no imul row: $(cat /tmp/insn.out)"
	grep -Eq '^rdmsr +[0-9.]+ +-$' /tmp/insn.out ||
		fail "insn in ring 0: no rdmsr row: $(cat /tmp/insn.out)"
	grep -q "privileged: the user-mode rehearsal skips its loop; only ring 0 ran it" /tmp/insn.out ||
		fail "insn in ring 0: rdmsr's note: $(cat /tmp/insn.out)"
	grep -q "^backend kmod; " /tmp/insn.out || fail "insn in ring 0: the backend not said: $(cat /tmp/insn.out)"
else
	fail "insn --backend kmod: $(cat /tmp/insn.err /tmp/insn.out 2>/dev/null)"
fi
live_is_zero "after insn"

step "measure the fixture benchmarks"
$t run "$good" add_chain 1000 100 || fail "add_chain"
$t run "$good" call_global 200 10 || fail "call_global with setup"
live_is_zero "after runs"

step "many cheap reps: the probe discounts the cost of timing a call"
# Reps that fill half the budget at this host's own cost per rep, while
# each rep timed alone, times the reps, is many budgets (kmod_test.c).
$t cheap "$good" add_chain || fail "many cheap reps"

step "a benchmark longer than the IRQ-off budget"
$t run "$good" add_chain 10 100000000 1000 3 || fail "too-long run"

step "hostile input"
$t hostile "$good" || fail "hostile"
live_is_zero "after hostile input"

step "each command takes its own attributes"
$t policy || fail "policy"
live_is_zero "after the policy checks"

step "audit runs: two sides in a seeded random order, each sample marked"
$t audit "$audit" "$good" || fail "audit runs"
live_is_zero "after audit runs"

step "bad audit schedules are refused"
$t audit-hostile "$audit" || fail "audit hostile"
live_is_zero "after bad audit schedules"

step "a client killed mid audit run"
$t audit-hold "$audit" >/tmp/hold.out 2>&1 &
pid=$!
hold_started $pid
[ "$($t live)" = "2 1" ] || fail "held audit run not live with its two images: $($t live)"
kill -9 $pid
wait $pid 2>/dev/null
live_is_zero "after the auditing client was killed"

step "cbenchctl audit --backend kmod: two variants of one kernel, interleaved in ring 0"
# Any verdict will do, inconclusive included: TCG's timings say nothing of
# a 1 % change.  What must hold: the audit ran in cbench.ko, both sides
# have timings, and the rounds' sides were the seeded order (a backend
# that took them otherwise fails the audit: audit_worker.c).  Each round
# is a run of its own, on fresh arenas: a placement for each side, as
# many as the rounds measured (those that counted, and any a disturbance
# left without a quartile).
if cbenchctl audit --backend kmod --budget 4 --seed 7 --a chain_1000 --b chain_1010 \
	--format json -o /tmp/kmod-audit.json "$audit" >/tmp/kmod-audit.out 2>&1; then
	cat /tmp/kmod-audit.out
	cp /tmp/kmod-audit.out /tmp/kmod-audit-first.out
	grep -q "backend kmod" /tmp/kmod-audit.out || fail "audit report does not say backend kmod"
	grep -Eq "^chain_1000 vs chain_1010: (B faster|B slower|equivalent|inconclusive)" \
		/tmp/kmod-audit.out || fail "no verdict"
	grep -Eq "timings [1-9][0-9]* A / [1-9][0-9]* B, rounds [0-9]+" /tmp/kmod-audit.out ||
		fail "no timings of both sides"
	grep -q '"backend": *"kmod"' /tmp/kmod-audit.json || fail "JSON does not say kmod"
	rounds=$(sed -n 's/.*rounds \([0-9]*\), wall.*/\1/p' /tmp/kmod-audit.out)
	placed=$(sed -n 's/^    placements \([0-9]*\) A \/ \([0-9]*\) B, new for each side every round.*/\1 \2/p' \
		/tmp/kmod-audit.out)
	pa=${placed% *}
	pb=${placed#* }
	[ -n "$rounds" ] && [ -n "$placed" ] && [ "$pa" -eq "$pb" ] && [ "$pa" -ge "$rounds" ] &&
		[ "$pa" -ge 1 ] || fail "placements not one per round: '$placed' for $rounds rounds"
	grep -q '"redrawn": *true' /tmp/kmod-audit.json || fail "JSON does not say placements were drawn"
else
	cat /tmp/kmod-audit.out
	fail "cbenchctl audit --backend kmod"
fi
live_is_zero "after cbenchctl audit"
if cbenchctl audit --backend kmod --budget 2 --seed 7 --a chain_1000 --b chain_1010 \
	--fixed-placement "$audit" >/tmp/kmod-audit.out 2>&1; then
	grep -q "^    placement: fixed (--fixed-placement)" /tmp/kmod-audit.out ||
		fail "--fixed-placement not reported: $(cat /tmp/kmod-audit.out)"
	grep -Eq "^chain_1000 vs chain_1010: (B faster|B slower|equivalent|inconclusive)" \
		/tmp/kmod-audit.out || fail "--fixed-placement: no verdict"
else
	fail "cbenchctl audit --backend kmod --fixed-placement: $(cat /tmp/kmod-audit.out)"
fi
live_is_zero "after cbenchctl audit --fixed-placement"
# Per-rep hooks on both sides of an audit run: fresh_input fails the audit
# unless each of its calls, on either side, ran between its own hooks.
if cbenchctl audit --backend kmod --budget 4 --seed 7 --a fresh_input --b fresh_input \
	"$dir/per_rep.so" >/tmp/kmod-audit.out 2>&1; then
	grep -Eq "^fresh_input: (B faster|B slower|equivalent|inconclusive)" /tmp/kmod-audit.out ||
		fail "per-rep audit: no verdict: $(cat /tmp/kmod-audit.out)"
	grep -q "backend kmod" /tmp/kmod-audit.out || fail "per-rep audit not in ring 0"
else
	fail "cbenchctl audit --backend kmod of a per-rep benchmark: $(cat /tmp/kmod-audit.out)"
fi
live_is_zero "after a per-rep audit"
if cbenchctl audit --backend kmod "$dir/bad_libc_call.so" "$dir/bad_libc_call.so" \
	>/tmp/kmod-audit.out 2>&1; then
	fail "a libc-calling object was audited in ring 0"
else
	grep -q "unable to use the kmod backend: .*undefined symbol 'strlen'" /tmp/kmod-audit.out ||
		fail "no kimage reason: $(cat /tmp/kmod-audit.out)"
fi
if cbenchctl audit --backend kmod --budget 2 --a overrun_at_reps --b ud2 "$dir/hostile.so" \
	>/tmp/kmod-audit.out 2>&1; then
	fail "hostile benchmarks were audited in ring 0"
else
	grep -q "rehearsed in user mode before ring 0" /tmp/kmod-audit.out ||
		fail "hostile audit not stopped in user mode: $(cat /tmp/kmod-audit.out)"
fi
live_is_zero "after refused cbenchctl audits"

step "code laid out anew in ring 0: audits and runs"
# tests/kfixtures/layout.so moves function by function (-ffunction-sections
# -Wl,-q), layout_whole.so section by section: every round each side's
# image is laid out anew before its upload, checked first to be the image
# as built, moved (object/kimage_layout.c; the unit test runs laid-out
# images with the code as built wiped).  What must hold here: cbench.ko
# ran them (its checks refuse a bad text range, slot or entry point), the
# report says the layouts were sampled in ring 0 and how, and every round
# completed: a layout for each side every placement, a placement at least
# every round.
laid_rounds() {
	rounds=$(sed -n 's/.*rounds \([0-9]*\), wall.*/\1/p' "$1")
	placed=$(sed -n 's/^    placements \([0-9]*\) A \/ \([0-9]*\) B, new for each side every round.*/\1 \2/p' "$1")
	laid=$(sed -n 's/^    code layout: \([0-9]*\) A \/ \([0-9]*\) B, new for each side every round, in ring 0.*/\1 \2/p' "$1")
	[ -n "$rounds" ] && [ "$rounds" -ge 1 ] && [ -n "$laid" ] && [ "$laid" = "$placed" ] &&
		[ "${laid% *}" = "${laid#* }" ] && [ "${laid% *}" -ge "$rounds" ] ||
		fail "$2: layouts '$laid' not one a side every placement ('$placed') of $rounds rounds"
}
for obj in layout:functions layout_whole:sections; do
	so=$dir/${obj%:*}.so
	if cbenchctl audit --backend kmod --budget 3 --seed 11 --a calls --b chain --format json \
		-o /tmp/kmod-laid.json "$so" >/tmp/kmod-laid.out 2>&1; then
		grep -Eq "^calls vs chain: (B faster|B slower|equivalent|inconclusive)" /tmp/kmod-laid.out ||
			fail "$so: no verdict: $(cat /tmp/kmod-laid.out)"
		grep -q "new for each side every round, in ring 0: each side's image laid out anew before its upload" \
			/tmp/kmod-laid.out || fail "$so: layouts not sampled in ring 0: $(cat /tmp/kmod-laid.out)"
		grep -q '"a_moves": *"'"${obj#*:}"'"' /tmp/kmod-laid.json ||
			fail "$so: JSON does not say ${obj#*:} moved"
		grep -q '"sampled": *true' /tmp/kmod-laid.json || fail "$so: JSON does not say sampled"
		laid_rounds /tmp/kmod-laid.out "$so"
		grep -E "^calls vs chain|^    (placements|code layout)" /tmp/kmod-laid.out
	else
		fail "cbenchctl audit --backend kmod of $so: $(cat /tmp/kmod-laid.out)"
	fi
	live_is_zero "after laying out $so in ring 0"
done
# The audit of audit.kernel.so above: its code cannot move (no -Wl,-q),
# and the report says why and how to build it, as in user mode.
grep -q "code layout: where it was loaded, so what suits one side's layout counts as its speed: not moved: it keeps no relocations for its code; build it with -ffunction-sections and link it with -Wl,-q" \
	/tmp/kmod-audit-first.out || fail "an object that cannot move: $(grep 'code layout' /tmp/kmod-audit-first.out)"
# --fixed-layout: the image as uploaded, and the report's old line.
if cbenchctl audit --backend kmod --budget 2 --seed 11 --a calls --b chain --fixed-layout \
	"$dir/layout.so" >/tmp/kmod-laid.out 2>&1; then
	grep -q "^    code layout: where it was loaded, so what suits one side's layout counts as its speed: fixed (--fixed-layout)$" \
		/tmp/kmod-laid.out || fail "--fixed-layout in ring 0: $(cat /tmp/kmod-laid.out)"
	grep -q "in ring 0: each side's image" /tmp/kmod-laid.out && fail "--fixed-layout laid the code out"
else
	fail "cbenchctl audit --backend kmod --fixed-layout: $(cat /tmp/kmod-laid.out)"
fi
live_is_zero "after cbenchctl audit --fixed-layout"
# run: a layout for every two trials, each trial's image laid out in ring 0.
if cbenchctl run --keep-shared --backend kmod --trials 4 --trial-time 0.01 --warmup 0.001 --seed 5 \
	--filter '^calls$' "$dir/layout.so" >/tmp/kmod-laid.out 2>&1; then
	grep -q "^# code-layout: laid out anew for every two trials, at layouts drawn from seed 5 (.* functions, each moved on its own by its alignment), in ring 0: each trial's image laid out anew before its upload" \
		/tmp/kmod-laid.out || fail "run in ring 0 did not sample layouts: $(cat /tmp/kmod-laid.out)"
	grep -q "^code-layout: sampled" /tmp/kmod-laid.out || fail "run's config line: $(cat /tmp/kmod-laid.out)"
	[ "$(grep -c '^BenchmarkCalls ' /tmp/kmod-laid.out)" -eq 4 ] || fail "run in ring 0: not 4 trials"
else
	fail "cbenchctl run --backend kmod of laid-out code: $(cat /tmp/kmod-laid.out)"
fi
live_is_zero "after cbenchctl run of laid-out code"
# layout: the code as built, then each drawn layout, in ring 0.
if cbenchctl layout --backend kmod --layouts 3 --seed 5 --filter '^calls$' "$dir/layout.so" \
	>/tmp/kmod-laid.out 2>&1; then
	grep -q "^backend: kmod (in ring 0: each layout's image laid out anew before its upload)" \
		/tmp/kmod-laid.out || fail "layout in ring 0 does not say so: $(cat /tmp/kmod-laid.out)"
	grep -q "over 3 layouts" /tmp/kmod-laid.out || fail "layout in ring 0: not 3 layouts: $(cat /tmp/kmod-laid.out)"
else
	fail "cbenchctl layout --backend kmod: $(cat /tmp/kmod-laid.out)"
fi
live_is_zero "after cbenchctl layout in ring 0"

step "a run deleted during its samples dump"
$t dump-interrupted "$good" add_chain || fail "dump interrupted"
live_is_zero "after the interrupted dump"

step "object ids"
$t ids "$good" || fail "ids"
live_is_zero "after the id checks"

step "a new socket on a closed socket's port id"
$t port-reuse || fail "port reuse"
live_is_zero "after port id reuse"

step "two clients at once"
$t concurrent "$good" add_chain || fail "concurrent"
live_is_zero "after two clients"

step "each run with a CPU of its own to watch it"
$t watchers "$good" add_chain || fail "watchers"
live_is_zero "after the watchers' checks"

step "a run cancelled mid-way"
$t cancel "$good" add_chain || fail "cancel"
live_is_zero "after cancel"

step "a client killed mid-run"
$t hold "$good" add_chain >/tmp/hold.out 2>&1 &
pid=$!
hold_started $pid
live_is "1 1" "the held run"
kill -9 $pid
wait $pid 2>/dev/null
live_is_zero "after the client was killed"

step "synthetic PMU: wraps, NMIs, unscheduled counters"
rmmod cbench || fail "rmmod"
insmod "$ko" $params synthetic_pmu=1 || fail "insmod synthetic_pmu=1"
out=$($t run "$good" add_chain 500 100)
echo "$out"
echo "$out" | grep -q "^PASSED" || fail "synthetic run"
echo "$out" | grep -q "counters 0x7" || fail "synthetic counters not reported"
echo "$out" | grep -Eq "samples, ([1-9][0-9]*) disturbed" || fail "no disturbed samples"
# The fake counters are 16 bits wide and move (c + 1) * 10007 in every
# sample, wrapping in many: each delta must be exactly that.
echo "$out" | grep -q "dump: 0, 500 samples, .*, 500 with the synthetic deltas" ||
	fail "synthetic deltas not all exact"
# Through the whole pipeline, the counters become columns of the report.
if cbenchctl run --keep-shared --backend kmod --trials 2 --trial-time 0.01 --warmup 0.001 \
	--filter 'add_chain' "$suite" >/tmp/kmod-run.out 2>&1; then
	grep -E "^(counters: |Benchmark|# Benchmark)" /tmp/kmod-run.out
	grep -q "^counters: instructions cycles ref-cycles via rdpmc" /tmp/kmod-run.out ||
		fail "report does not name the synthetic counters"
	grep -Eq "^BenchmarkAddChain .* instructions/op .* cycles/op .* ref-cycles/op" /tmp/kmod-run.out ||
		fail "no instructions/cycles/ref-cycles columns"
else
	cat /tmp/kmod-run.out
	fail "cbenchctl run --backend kmod with the synthetic PMU"
fi

step "privilege: CAP_SYS_MODULE, lockdown"
# Running code in ring 0 is loading kernel code: CAP_SYS_ADMIN alone is
# refused; a kernel locked down refuses it as it refuses unsigned modules.
$t privilege "$good" allowed || fail "an upload with every capability"
$t privilege "$good" nomodule || fail "an upload without CAP_SYS_MODULE was not refused"
live_is_zero "after the privilege checks"

fuzz

step "rmmod during a run"
rmmod cbench && insmod "$ko" $params || fail "reload"
$t hold "$good" add_chain >/tmp/hold.out 2>&1 &
pid=$!
hold_started $pid
rmmod cbench || fail "rmmod during a run"
kill -9 $pid
wait $pid 2>/dev/null
insmod "$ko" || fail "insmod after rmmod during a run"
live_is_zero "after reload"
rmmod cbench || fail "final rmmod"

# The oops net: a call through a null pointer (a fetch at a user address)
# is oopsed on by the kernel whatever a module does; the die notifier ends
# the call then, and the kernel carries on, tainted.  With fault_net=0 a
# page fault at a data address takes the same way.  The oops is expected
# between the markers (the host's scan and the kernel log step skip it);
# kmod_test.c checks each run says an oops was printed and the CPU
# measures again; doctor reports the taint.  Lockdep turns itself off at an
# oops: nothing after this depends on it.
step "an oops in benchmark code is survived (the oops net)"
echo "<4>cbench-expected-oops: begin" >/dev/kmsg
insmod "$ko" $params || fail "insmod for the oops net"
$t oops-net "$dir/hazards.so" quiet || fail "a call through a null pointer in ring 0"
rmmod cbench || fail "rmmod after the oops net"
insmod "$ko" $params fault_net=0 || fail "insmod fault_net=0"
cbenchctl info >/tmp/kmod-info.out 2>&1
grep -q "page faults: *ended after the kernel's oops" /tmp/kmod-info.out ||
	fail "info does not say fault_net=0: $(cat /tmp/kmod-info.out)"
$t oops-net "$dir/hazards.so" oops || fail "page faults in ring 0 with fault_net=0"
fails_in_ring0 pf_in_ring0 "$dir/ring0_only.so" \
	"pf_in_ring0: the benchmark's run() raised a page fault (#PF) in ring 0 reading 0x1000 .*the kernel printed an oops for it first and is tainted"
rmmod cbench || fail "rmmod after fault_net=0"
echo "<4>cbench-expected-oops: end" >/dev/kmsg
cbenchctl doctor >/tmp/doctor.out 2>&1
grep -Eq "warn +kernel taint +tainted by an oops \(D\)" /tmp/doctor.out ||
	fail "doctor does not report the oops's taint: $(cat /tmp/doctor.out)"

# Last: lockdown cannot be lowered once raised (for the rest of this boot).
step "lockdown"
[ -d /sys/kernel/security ] && ! [ -e /sys/kernel/security/lockdown ] &&
	mount -t securityfs securityfs /sys/kernel/security 2>/dev/null
if [ -w /sys/kernel/security/lockdown ]; then
	insmod "$ko" $params || fail "insmod before lockdown"
	echo integrity >/sys/kernel/security/lockdown || fail "raising lockdown to integrity"
	$t privilege "$good" lockdown || fail "an upload under lockdown was not refused"
	step "lockdown: integrity raised, the upload refused naming it"
	live_is_zero "after lockdown"
	rmmod cbench || fail "rmmod under lockdown"
else
	step "lockdown: skipped, this kernel has no lockdown LSM"
fi

step "kernel log"
# Less the oops net's, between its markers.
dmesg | sed '/cbench-expected-oops: begin/,/cbench-expected-oops: end/d' >/tmp/dmesg.out
if grep -Eq "WARNING|BUG|Oops|Call Trace|cbench: .*(error|leak)" /tmp/dmesg.out; then
	grep -E -A5 "WARNING|BUG|Oops|Call Trace|cbench" /tmp/dmesg.out
	fail "kernel log not clean"
fi

if [ $failed = 0 ]; then
	echo "kmod: PASSED"
else
	echo "kmod: FAILED"
fi
[ $failed = 0 ]
