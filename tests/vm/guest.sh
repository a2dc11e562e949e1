#!/bin/sh
# Runs inside the test VM (see scripts/vm-test.sh), as root, from /init.
# Exercises cbench.ko through cbenchctl and prints PASS/FAIL per check on
# the console.  Exits 0 only if every check passed.
#
# Usage: guest.sh RESULT-TTY
#   RESULT-TTY gets the JSON of `cbenchctl info --json`, which the host
#   parses; the verdict itself is written there by /init.
set -u

result_tty=$1
failures=0
checks=0
out=/tmp/out
err=/tmp/err

pass() {
	checks=$((checks + 1))
	echo "vmtest: PASS: $*"
}

fail() {
	checks=$((checks + 1))
	failures=$((failures + 1))
	echo "vmtest: FAIL: $*"
	echo "---- stdout"
	cat "$out" 2>/dev/null
	echo "---- stderr"
	cat "$err" 2>/dev/null
	echo "----"
}

# check DESCRIPTION COMMAND...: passes if the command succeeds.
check() {
	desc=$1
	shift
	if "$@"; then pass "$desc"; else fail "$desc"; fi
}

# run COMMAND...: runs it with stdout in $out and stderr in $err.
run() {
	"$@" >"$out" 2>"$err"
}

has() {
	grep -q -- "$1" "$2"
}

# The debug kernel's boot with the no-fault-net build: that scenario alone.
if grep -qw cbench_scenario=killed /proc/cmdline; then
	exec sh /killed.sh "$result_tty"
fi

echo "vmtest: kernel $(uname -r), $(grep -c ^processor /proc/cpuinfo) CPUs"

# A bad module parameter is refused, and the refused load leaves nothing.
check "insmod refuses irqoff_budget_ns=0" \
	sh -c '! insmod /cbench.ko irqoff_budget_ns=0 2>/dev/null && ! grep -q "^cbench " /proc/modules'
check "a refused load says why" sh -c 'dmesg | grep -q "cbench: irqoff_budget_ns=0: must be"'

# Without the module, info says so plainly and still describes the machine.
run cbenchctl info
check "info without cbench.ko says it is not loaded" has "cbench.ko is not loaded" "$out"
check "info without cbench.ko shows the user backend" has "perf hardware:" "$out"

check "insmod cbench.ko" insmod /cbench.ko
check "cbench is in /proc/modules" grep -q "^cbench " /proc/modules
check "load message" sh -c 'dmesg | grep -q "cbench: version .* loaded"'

check "info exits 0" run cbenchctl info
sed 's/^/  /' "$out"
check "info: module answers" has "ring-0 measurement available" "$out"
check "info: TSC frequency reported" grep -Eq "TSC: +[0-9]+\.[0-9]{3} MHz" "$out"
# QEMU's TCG CPU has no PMU: the truth is "none", never a zero count.
check "info: no PMU reported" has "no PMU: CPUID enumerates no performance counters" "$out"
check "info: TSC only" has "none usable: TSC only" "$out"
check "info: no zero counter widths" sh -c "! grep -Eq '(counters|bits) of 0|^ *0 (general|fixed)' $out"
check "info: limits" grep -Eq "limits: +image 16 MiB, arena 256 MiB, 1048576 samples per run" "$out"
check "info: live objects" grep -Eq "in use: +0 images, 0 runs" "$out"

check "info --json exits 0" run cbenchctl info --json
check "info --json: module loaded" has '"loaded": true' "$out"
check "info --json: TSC kHz" grep -Eq '"khz": [1-9][0-9]*' "$out"
check "info --json: pmu is null" has '"pmu": null' "$out"
# The host parses the JSON it receives on the result channel.
cat "$out" >"$result_tty"

check "info --probe as root exits 0" run cbenchctl info --probe
check "info --probe as root: every CPU probed" \
	test "$(grep -Ec "counters, CPU [0-9]+ +none usable \(now\)" "$out")" = "$(grep -c ^processor /proc/cpuinfo)"

# Bad input is refused with the kernel's extended-ack text.
if run cbenchctl info --probe=4096; then
	fail "probe of an offline CPU refused"
else
	check "probe of an offline CPU refused with the kernel's reason" \
		grep -q "unable to probe counters on CPU 4096: Invalid argument (CPU .*is not online)" "$err"
fi

# Requests cbenchctl never sends: unknown, misplaced and malformed attributes.
if run cbench-nlcheck; then
	pass "malformed requests answered as specified"
	sed 's/^/  /' "$out"
else
	fail "malformed requests answered as specified"
fi

# An unprivileged user may ask for INFO, not for a privileged command.
if run su -s /bin/sh nobody -c "cbenchctl info"; then
	pass "unprivileged info"
else
	fail "unprivileged info"
fi
if run su -s /bin/sh nobody -c "cbenchctl info --probe=0"; then
	fail "unprivileged probe refused"
else
	check "unprivileged probe refused with EPERM" \
		has "unable to probe counters on CPU 0: Operation not permitted" "$err"
fi
if run su -s /bin/sh nobody -c "cbenchctl info --probe"; then
	fail "unprivileged probe of every CPU (a dump) refused"
else
	check "unprivileged probe of every CPU (a dump) refused with EPERM" \
		has "unable to probe counters: Operation not permitted" "$err"
fi

check "rmmod cbench" rmmod cbench
check "cbench is gone" sh -c '! grep -q "^cbench " /proc/modules'
run cbenchctl info
check "info after rmmod says not loaded" has "cbench.ko is not loaded" "$out"

# Unloading and reloading while clients keep asking must be safe: the
# family goes away under them, and they see either an answer or "not loaded".
check "insmod again" insmod /cbench.ko
client() {
	i=0
	while [ $i -lt 40 ]; do
		cbenchctl info >/dev/null 2>>/tmp/client.err || true
		i=$((i + 1))
	done
}
client &
client1=$!
client &
client2=$!
reloads=0
for i in 1 2 3 4 5 6 7 8; do
	rmmod cbench && insmod /cbench.ko && reloads=$((reloads + 1))
done
wait $client1 $client2
check "8 unloads and reloads under 2 busy clients" test "$reloads" = 8
echo "vmtest: $(wc -l </tmp/client.err) of 80 client requests raced an unload"
check "clients saw no error but an absent module" \
	sh -c "! grep -v 'unable to query cbench.ko: No such file or directory' /tmp/client.err | grep -q ."
check "rmmod cbench at last" rmmod cbench

# lab setup then reset leaves every knob it may touch as it was; the guest
# lacks most of them (no cpufreq, no SMT), and setup must say it skips them.
lab_knobs() {
	for f in /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor \
		/sys/devices/system/cpu/cpufreq/boost /sys/devices/system/cpu/cpu*/cpufreq/boost \
		/sys/devices/system/cpu/intel_pstate/no_turbo /sys/devices/system/cpu/cpu*/online \
		/proc/irq/*/smp_affinity_list /proc/sys/kernel/nmi_watchdog; do
		[ -f "$f" ] && echo "$f: $(od -An -c "$f" | tr -s ' ')"
	done
}
lab_knobs >/tmp/lab.before
check "lab setup --cpu 1" run cbenchctl lab setup --cpu 1
sed 's/^/  /' "$out"
check "lab setup: absent knobs skipped" has "skip  governor" "$out"
check "lab setup: state saved" test -f /run/cbench/lab.state
check "lab reset" run cbenchctl lab reset
lab_knobs >/tmp/lab.after
check "lab setup then reset: every knob as before" cmp /tmp/lab.before /tmp/lab.after

# The kernel backend: images, runs, samples, hostile input, cleanup.
if sh /kmod.sh /cbench.ko /kmod >"$out" 2>&1; then
	pass "kernel backend (kmod.sh)"
	grep -E "^(==|FAIL|fuzz: |what kmod removes|backend: |counters: |irqoff-budget: |timer: |Benchmark|# Benchmark|    placements? |    code layout: )" "$out" | sed 's/^/  /'
else
	fail "kernel backend (kmod.sh)"
fi

# Less the oops kmod.sh provoked on purpose (the oops net), between markers.
dmesg | sed '/cbench-expected-oops: begin/,/cbench-expected-oops: end/d' >"$out"
check "no WARN, BUG, oops or call trace in dmesg" \
	sh -c "! grep -Eq 'WARNING:|BUG:|Oops|Call Trace|general protection' $out"

echo "vmtest: $checks checks, $failures failed on $(uname -r)"
[ "$failures" = 0 ]
