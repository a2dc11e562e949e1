#!/bin/sh
# Integration tests of `cbenchctl doctor` and `cbenchctl lab` on a fake root:
# a temporary tree of plain files laid out as procfs and sysfs are, which
# both read through --root.  What doctor finds there is known, so each
# verdict is checked; lab setup then reset must leave every file
# byte-identical, and a failing step must roll back what setup changed.
# The measured checks (timer step, clock drift) run once on this machine,
# and only the structure of their output is checked, never a value.
#
# Usage: tests/run/lab.sh   (from the top of the tree, as root for lab)
set -u

. tests/run/lib.sh

R=$TMP/root
CPU=/sys/devices/system/cpu
SB=sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-e98c0f8e4aa8


# A machine that needs every fix: 4 CPUs, CPU 1's sibling is CPU 3.
make_root() {
	rm -rf "$R"
	for c in 0 1 2 3; do
		mkdir -p "$R$CPU/cpu$c/topology"
		echo 1 >"$R$CPU/cpu$c/online"
	done
	echo 0,2 >"$R$CPU/cpu0/topology/thread_siblings_list"
	echo 1,3 >"$R$CPU/cpu1/topology/thread_siblings_list"
	mkdir -p "$R$CPU/cpu1/cpufreq" "$R$CPU/cpufreq" "$R$CPU/intel_pstate"
	echo schedutil >"$R$CPU/cpu1/cpufreq/scaling_governor"
	echo intel_cpufreq >"$R$CPU/cpu1/cpufreq/scaling_driver"
	echo 0 >"$R$CPU/intel_pstate/no_turbo"
	echo 1 >"$R$CPU/cpufreq/boost"
	echo 1 >"$R$CPU/cpu1/cpufreq/boost"
	echo >"$R$CPU/isolated"
	echo '(null)' >"$R$CPU/nohz_full"
	mkdir -p "$R/proc/sys/kernel" "$R/proc/4242" "$R/lib/modules/6.1.0-test/build"
	echo 'BOOT_IMAGE=/vmlinuz root=/dev/vda1 ro quiet' >"$R/proc/cmdline"
	echo 6.1.0-test >"$R/proc/sys/kernel/osrelease"
	echo 1 >"$R/proc/sys/kernel/nmi_watchdog"
	echo 3 >"$R/proc/sys/kernel/perf_event_paranoid"
	echo 4224 >"$R/proc/sys/kernel/tainted"
	echo irqbalance >"$R/proc/4242/comm"
	for irq in 0:0-3 1:1 24:1,3 30:0; do
		mkdir -p "$R/proc/irq/${irq%%:*}"
		echo "${irq#*:}" >"$R/proc/irq/${irq%%:*}/smp_affinity_list"
	done
	printf '           CPU0       CPU1       CPU2       CPU3\n  0:         10         20         30         40   IO-APIC   2-edge      timer\n LOC:        100        200        300        400   Local timer interrupts\n ERR:          0\n' \
		>"$R/proc/interrupts"
	mkdir -p "$R/sys/kernel/mm/transparent_hugepage" "$R/sys/kernel/security" "$R/$(dirname $SB)"
	echo 'always madvise [never]' >"$R/sys/kernel/mm/transparent_hugepage/enabled"
	echo '[always] defer defer+madvise madvise never' >"$R/sys/kernel/mm/transparent_hugepage/defrag"
	printf 'none [integrity] confidentiality\n' >"$R/sys/kernel/security/lockdown"
	printf '\006\000\000\000\001' >"$R/$SB"
}

# status NAME: a check's status in $TMP/out (doctor --json).
json_status() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join(c["name"] + "=" + c["status"] for c in d["checks"]))' "$TMP/out"
}

has_status() {
	echo " $(json_status) " | grep -q " $1 "
}

# ---- doctor ---------------------------------------------------------------

make_root
run_cb doctor --root "$R" --cpu 1 --no-measure --json
if [ "$rc" -ne 0 ]; then
	not_ok "doctor on a fake root: exit status $rc with no failing check"
elif ! python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert d["cpu"] == 1
assert d["ok"] + d["warn"] + d["fail"] == len(d["checks"]) and d["fail"] == 0
for c in d["checks"]:
    assert c["status"] in ("ok", "warn", "fail"), c
    assert isinstance(c["detail"], str) and c["detail"], c
    assert c["status"] == "ok" or c["fix"] is None or c["fix"], c
irqs = [c for c in d["checks"] if c["name"] == "irqs"][0]
assert irqs["routed"] == 3 and irqs["irqs"] == 4 and irqs["taken"] == 220, irqs
assert type(irqs["taken"]) is int
assert [c for c in d["checks"] if c["name"] == "perf_event_paranoid"][0]["value"] == 3
' "$TMP/out" 2>"$TMP/err"; then
	not_ok "doctor --json on a fake root: structure"
else
	ok "doctor --json on a fake root parses, exact integers"
fi
want="cpu=ok headers=ok secure_boot=warn lockdown=warn taint=warn governor=warn boost=warn smt=warn isolation=warn irqs=warn irqbalance=warn thp=ok thp_defrag=warn perf_event_paranoid=warn"
missing=
for w in $want; do
	has_status "$w" || missing="$missing $w"
done
if [ -z "$missing" ]; then
	ok "doctor on a machine needing every fix warns for each"
else
	not_ok "doctor verdicts: want$missing, got $(json_status)"
fi

# The same machine, fixed: every check that reads a file says ok.
echo performance >"$R$CPU/cpu1/cpufreq/scaling_governor"
echo 1 >"$R$CPU/intel_pstate/no_turbo"
echo 0 >"$R$CPU/cpufreq/boost"
echo 0 >"$R$CPU/cpu1/cpufreq/boost"
echo 0 >"$R$CPU/cpu3/online"
echo 1-3 >"$R$CPU/isolated"
echo 1-3 >"$R$CPU/nohz_full"
echo 'ro quiet isolcpus=nohz,domain,1-3 nohz_full=1-3 rcu_nocbs=1-3' >"$R/proc/cmdline"
for irq in 0 24; do echo 0 >"$R/proc/irq/$irq/smp_affinity_list"; done
rm -rf "$R/proc/irq/1" "$R/proc/4242" "$R/sys/firmware"
echo 0 >"$R/proc/sys/kernel/nmi_watchdog"
echo 2 >"$R/proc/sys/kernel/perf_event_paranoid"
echo 4096 >"$R/proc/sys/kernel/tainted"
echo 'always [madvise] never' >"$R/sys/kernel/mm/transparent_hugepage/defrag"
echo '[none] integrity confidentiality' >"$R/sys/kernel/security/lockdown"
run_cb doctor --root "$R" --cpu 1 --no-measure --json
missing=
for w in cpu=ok headers=ok secure_boot=ok lockdown=ok taint=ok nmi_watchdog=ok governor=ok boost=ok smt=ok \
	isolation=ok irqs=ok irqbalance=ok thp=ok thp_defrag=ok perf_event_paranoid=ok; do
	has_status "$w" || missing="$missing $w"
done
if [ "$rc" -eq 0 ] && [ -z "$missing" ]; then
	ok "doctor on a fixed machine says ok"
else
	not_ok "doctor on a fixed machine: want$missing, got $(json_status) (exit $rc)"
fi

run_cb doctor --root "$R" --cpu 1 --no-measure
if [ "$rc" -eq 0 ] && grep -Eq '^  ok    governor +performance \(intel_cpufreq\)$' "$TMP/out" &&
   grep -Eq '^[0-9]+ checks: [0-9]+ ok, [0-9]+ warn, 0 fail$' "$TMP/out"; then
	ok "doctor text output"
else
	not_ok "doctor text output"
fi

# Absent knobs (a VM: no cpufreq, no EFI, no THP): ok with the reason.
rm -rf "$R$CPU/cpu1/cpufreq" "$R$CPU/cpufreq" "$R$CPU/intel_pstate" "$R/sys/kernel" "$R/lib"
run_cb doctor --root "$R" --cpu 1 --no-measure
if [ "$rc" -eq 0 ] && grep -q 'no cpufreq on CPU 1' "$TMP/out" && grep -q 'no boost control exposed' "$TMP/out" &&
   grep -q 'no transparent huge pages' "$TMP/out" && grep -Eq '^  warn  kernel headers .*/lib/modules/6.1.0-test/build is missing' "$TMP/out"; then
	ok "doctor says what is absent"
else
	not_ok "doctor with absent knobs"
fi

# The fixes doctor gives work where they are given: a kernel that is not
# Debian's gets no apt-get line for headers that do not exist, a Debian one
# does; a module DKMS installed is loaded with modprobe, an installed
# cbenchctl (not in its build tree) is pointed at DKMS.
run_cb doctor --root "$R" --cpu 1 --no-measure
hint1=$rc
grep -q 'fix: 6.1.0-test is not a Debian kernel: install the headers its builder ships' "$TMP/out" || hint1=x
grep -q 'fix: make dkms-install in the cbench source tree (builds cbench.ko for 6.1.0-test), then modprobe cbench' "$TMP/out" || hint1=y
echo 6.1.0-99-amd64 >"$R/proc/sys/kernel/osrelease"
mkdir -p "$R/lib/modules/6.1.0-99-amd64/updates/dkms"
: >"$R/lib/modules/6.1.0-99-amd64/updates/dkms/cbench.ko.xz"
run_cb doctor --root "$R" --cpu 1 --no-measure
hint2=$rc
grep -q 'fix: apt-get install linux-headers-6.1.0-99-amd64$' "$TMP/out" || hint2=x
grep -q 'fix: modprobe cbench (DKMS installed it for 6.1.0-99-amd64)$' "$TMP/out" || hint2=y
echo 6.1.0-test >"$R/proc/sys/kernel/osrelease"
rm -rf "$R/lib/modules/6.1.0-99-amd64"
if [ "$hint1/$hint2" = 0/0 ]; then
	ok "doctor's fixes: headers only for a Debian kernel, modprobe for a DKMS module, else DKMS"
else
	not_ok "doctor's fixes: $hint1/$hint2"
fi

run_cb doctor --root "$R" --cpu 9 --no-measure
if [ "$rc" -eq 1 ] && grep -Eq '^  fail  CPU +CPU 9 does not exist' "$TMP/out"; then
	ok "doctor: a missing CPU fails, exit status 1"
else
	not_ok "doctor: a missing CPU (exit $rc)"
fi
run_cb doctor --cpu x
if [ "$rc" -ne 0 ] && grep -q -- "--cpu wants a CPU number, not 'x'" "$TMP/err"; then
	ok "doctor: bad --cpu"
else
	not_ok "doctor: bad --cpu"
fi

# On this machine, measured: only the structure, never a value.
run_cb doctor --json
if python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
names = [c["name"] for c in d["checks"]]
assert "timer_step" in names and "clock_drift" in names, names
step = [c for c in d["checks"] if c["name"] == "timer_step"][0]
assert type(step["step_ticks"]) is int and step["step_ticks"] >= 1, step
drift = [c for c in d["checks"] if c["name"] == "clock_drift"][0]
assert drift["status"] in ("ok", "warn"), drift
assert type(drift["readings"]) is int and drift["readings"] >= 1, drift
assert drift["ghz_min"] <= drift["ghz_max"] and drift["spread"] >= 0, drift
assert (sys.argv[2] == "0") == (d["fail"] == 0)
' "$TMP/out" "$rc" 2>"$TMP/err"; then
	ok "doctor on this machine: timer step and clock drift measured"
	# For the log only: what this machine measured.
	python3 -c 'import json, sys
for c in json.load(open(sys.argv[1]))["checks"]:
    if c["name"] in ("timer_step", "clock_drift"):
        print("       | %-5s %s: %s" % (c["status"], c["name"], c["detail"]))' "$TMP/out"
else
	not_ok "doctor on this machine: measured checks"
fi

# ---- lab setup / reset ------------------------------------------------------

if [ "$(id -u)" != 0 ]; then
	echo "skip   lab (not root)"
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit
fi

# systemctl stand-in: logs what it is asked.
cat >"$TMP/systemctl" <<EOF
#!/bin/sh
echo "\$*" >>"$TMP/systemctl.log"
EOF
chmod +x "$TMP/systemctl"
export CBENCH_SYSTEMCTL="$TMP/systemctl"

snapshot() {
	(cd "$R" && find . -path ./run -prune -o -type f -print | sort | xargs sha256sum)
}

make_root
snapshot >"$TMP/before"
rm -f "$TMP/systemctl.log"
run_cb lab setup --cpu 1 --root "$R"
if [ "$rc" -ne 0 ]; then
	not_ok "lab setup: exit status $rc"
elif [ "$(cat "$R$CPU/cpu1/cpufreq/scaling_governor")" != performance ] ||
     [ "$(cat "$R$CPU/intel_pstate/no_turbo")" != 1 ] || [ "$(cat "$R$CPU/cpufreq/boost")" != 0 ] ||
     [ "$(cat "$R$CPU/cpu1/cpufreq/boost")" != 0 ] || [ "$(cat "$R$CPU/cpu3/online")" != 0 ] ||
     [ "$(cat "$R$CPU/cpu2/online")" != 1 ] || [ "$(cat "$R/proc/sys/kernel/nmi_watchdog")" != 0 ] ||
     [ "$(cat "$R/proc/irq/0/smp_affinity_list")" != 0,2-3 ] ||
     [ "$(cat "$R/proc/irq/24/smp_affinity_list")" != 3 ] ||
     [ "$(cat "$R/proc/irq/1/smp_affinity_list")" != 1 ] ||
     [ "$(cat "$R/proc/irq/30/smp_affinity_list")" != 0 ]; then
	not_ok "lab setup: the knobs are not as set up"
elif [ "$(cat "$TMP/systemctl.log")" != "stop irqbalance" ]; then
	not_ok "lab setup: irqbalance not stopped: $(cat "$TMP/systemctl.log")"
elif [ ! -f "$R/run/cbench/lab.state" ] || ls "$R/run/cbench/" | grep -q 'lab.state.'; then
	not_ok "lab setup: no state file, or a temporary one left"
else
	ok "lab setup applies every fix, stops irqbalance, saves the state"
fi
cp "$R/run/cbench/lab.state" "$TMP/state1"

run_cb lab setup --cpu 1 --root "$R"
if [ "$rc" -eq 0 ] && cmp -s "$R/run/cbench/lab.state" "$TMP/state1" && grep -q 'performance already' "$TMP/out"; then
	ok "lab setup twice: the original values are saved once"
else
	not_ok "lab setup twice (exit $rc)"
fi

run_cb lab setup --cpu 2 --root "$R"
if [ "$rc" -ne 0 ] && grep -q 'it is set up for CPU 1; run .*lab reset. first' "$TMP/err"; then
	ok "lab setup for another CPU is refused until reset"
else
	not_ok "lab setup for another CPU (exit $rc)"
fi

run_cb lab reset --root "$R"
snapshot >"$TMP/after"
if [ "$rc" -ne 0 ]; then
	not_ok "lab reset: exit status $rc"
elif ! diff -u "$TMP/before" "$TMP/after" >"$TMP/err"; then
	not_ok "lab reset: files differ from before setup"
elif [ -e "$R/run/cbench/lab.state" ]; then
	not_ok "lab reset: the state file stayed"
elif [ "$(tail -n 1 "$TMP/systemctl.log")" != "start irqbalance" ]; then
	not_ok "lab reset: irqbalance not started again"
else
	ok "lab setup then reset: every touched file byte-identical, irqbalance started again"
fi

run_cb lab reset --root "$R"
if [ "$rc" -eq 0 ] && grep -q 'nothing to reset' "$TMP/out"; then
	ok "lab reset with nothing set up"
else
	not_ok "lab reset with nothing set up"
fi

# A step that fails (root writes through chmod 0444, so a directory stands
# where the NMI watchdog's file should be): setup puts back what it changed.
make_root
rm "$R/proc/sys/kernel/nmi_watchdog"
mkdir "$R/proc/sys/kernel/nmi_watchdog"
snapshot >"$TMP/before"
rm -f "$TMP/systemctl.log"
run_cb lab setup --cpu 1 --root "$R"
snapshot >"$TMP/after"
if [ "$rc" -eq 0 ]; then
	not_ok "lab setup with a failing step: exit status 0"
elif ! grep -q 'unable to set up the lab' "$TMP/err"; then
	not_ok "lab setup with a failing step: no message"
elif ! diff -u "$TMP/before" "$TMP/after" >"$TMP/err"; then
	not_ok "lab setup with a failing step: not rolled back"
elif [ -e "$R/run/cbench/lab.state" ]; then
	not_ok "lab setup with a failing step: a state file stayed"
elif [ "$(cat "$TMP/systemctl.log" | tr '\n' ' ')" != "stop irqbalance start irqbalance " ]; then
	not_ok "lab setup with a failing step: irqbalance not started again"
else
	ok "lab setup with a failing step rolls back every change"
fi

# On a fake root, the real machine's irqbalance is never touched.
make_root
snapshot >"$TMP/before"
CBENCH_SYSTEMCTL= "$CB" lab setup --cpu 1 --root "$R" >"$TMP/out" 2>"$TMP/err"
rc=$?
snapshot >"$TMP/after"
if [ "$rc" -ne 0 ] && grep -q "unable to stop irqbalance: not this machine's service" "$TMP/err" &&
   diff -u "$TMP/before" "$TMP/after" >/dev/null && [ ! -e "$R/run/cbench/lab.state" ]; then
	ok "lab setup on a fake root leaves this machine's services alone, and rolls back"
else
	not_ok "lab setup on a fake root without a systemctl stand-in (exit $rc)"
fi

# A machine with none of the knobs: each is skipped, and said so.
rm -rf "$R"
mkdir -p "$R$CPU/cpu1"
run_cb lab setup --cpu 1 --root "$R"
if [ "$rc" -eq 0 ] && grep -q 'skip  governor' "$TMP/out" && grep -q 'skip  boost' "$TMP/out" &&
   grep -q 'skip  NMI watchdog' "$TMP/out" && grep -q 'nothing to change' "$TMP/out" && [ ! -e "$R/run/cbench/lab.state" ]; then
	ok "lab setup skips absent knobs"
else
	not_ok "lab setup skips absent knobs (exit $rc)"
fi

mkdir -p "$R/run/cbench"
echo garbage >"$R/run/cbench/lab.state"
run_cb lab reset --root "$R"
if [ "$rc" -ne 0 ] && grep -q 'not a lab state file' "$TMP/err"; then
	ok "lab reset refuses a corrupt state file"
else
	not_ok "lab reset with a corrupt state file"
fi

run_cb lab frobnicate
if [ "$rc" -eq 2 ] && grep -q "^cbenchctl lab: no action 'frobnicate': setup, reset, queue or worker; see 'cbenchctl lab --help'$" "$TMP/err" &&
   ! grep -q 'Usage:' "$TMP/err"; then
	ok "lab: unknown action"
else
	not_ok "lab: unknown action"
fi

if command -v runuser >/dev/null && runuser -u nobody -- test -x "$CB" 2>/dev/null; then
	runuser -u nobody -- "$CB" lab setup --cpu 1 --root "$R" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ "$rc" -ne 0 ] && grep -q 'unable to set up the lab: only root may change these settings' "$TMP/err"; then
		ok "lab setup as a user is refused"
	else
		not_ok "lab setup as a user (exit $rc)"
	fi
fi

finish
