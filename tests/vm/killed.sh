#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The debug kernel's guest with a test build of cbench.ko that has no fault
# net (CBENCH_PLANT_BUG=nonet, kmod/planted.h), booted without oops=panic:
# a page fault in benchmark code oopses and kills the measuring thread with
# its run's watchdog armed.  The run's release must wait for the watchdog
# and the NMI handler: after it, nothing may touch the freed run (the host
# scans the log for KASAN), no object may be left, and the module must
# unload.  Run by guest.sh in place of the usual checks; prints PASS/FAIL
# per check and exits 0 only if all passed.
#
#   killed.sh RESULT-TTY

failed=0
fail() {
	echo "vmtest: FAIL: $*"
	failed=1
}

echo "vmtest: kernel $(uname -r): a thread killed in a call (no fault net)"
insmod /cbench.ko || fail "insmod"
cbench-kmodtest killed /kmod/hazards.so || fail "the killed thread's run"
dmesg | grep -q "Oops" || fail "no oops: the fault did not kill the thread"
# "KASAN" alone is in every oops's header of this kernel: the report says "BUG: KASAN".
dmesg | grep -q "BUG: KASAN" && fail "KASAN reported"
# INFO with the module still loaded: nothing of the dead run is left.
cbenchctl info --json >/tmp/info.json 2>&1 || fail "cbenchctl info --json"
cat /tmp/info.json >"$1"
tr -d ' \n' </tmp/info.json | grep -q '"live":{"images":0,"runs":0}' ||
	fail "live objects: $(cat /tmp/info.json)"
rmmod cbench || fail "rmmod after the thread died"
[ $failed = 0 ] && echo "vmtest: PASS: a thread killed in a call leaves nothing behind"
[ $failed = 0 ]
