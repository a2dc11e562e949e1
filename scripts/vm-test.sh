#!/bin/sh
# VM tests of cbench.ko: for every installed Debian kernel (headers under
# /usr/src/linux-headers-<kver> and an image /boot/vmlinuz-<kver>), and for
# the debug kernel scripts/debug-kernel.sh builds (KASAN, kmemleak, lockdep),
# build cbench.ko against it, pack an initramfs with busybox, cbench.ko,
# cbenchctl and tests/vm/guest.sh, and boot it under QEMU (TCG).
#
# The verdict comes back on a second serial port (ttyS1, a file here) that
# the kernel's console never writes to: the guest's /init writes
# "cbench-vmtest PASS <token>" there only if every check passed, with a
# token made fresh for each boot, so neither console output nor a stale
# file can pass a test.  The console goes to the terminal and to
# build/vm-<kver>/console.log, which we scan for what the kernel reported
# (KASAN, lockdep, sleeping in atomic context, list corruption, WARN, BUG,
# kmemleak's unreferenced objects): a report fails the boot and says what
# it was, even when a panic left no verdict.
#
# Usage: scripts/vm-test.sh              every kernel
#        scripts/vm-test.sh --planted    the debug kernel only, once per
#            planted bug (CBENCH_PLANT_BUG, kmod/planted.c): passes only if
#            each boot fails and the report names the planted kind
#
# Environment: CI=true makes fewer than two Debian kernels, or no debug
# kernel, an error; VMTEST_KERNELS="<kver> ..." picks kernels ("debug" is
# the debug kernel, "killed" its killed-thread boot alone); VMTEST_DEBUG=0 skips the debug kernel (not in CI);
# VMTEST_TIMEOUT (seconds, per boot, default 600; 2700 for the debug
# kernel, whose checks slow it down under TCG; the fuzzer's time on top of
# either: here the boots took 290-430 s and 934 s alone, and the debug
# kernel's ran out of 1020 s and then of 1620 s on a host whose other
# tenant took its share: single-threaded TCG runs on one host core); VMTEST_PLANTED="<kind> ..."
# picks the planted bugs.
set -eu

cd "$(dirname "$0")/.."
BUILD=build
MAKE=${MAKE:-make}
# The protocol fuzzer's time in each guest (tests/vm/fuzz.c), on top.  The
# selftest's 22 checks in both backends take about 50 s of the boot under
# TCG (the 6.12 guest took 205 s with a 10 s fuzz).
FUZZ_SECONDS=${VMTEST_FUZZ_SECONDS:-120}
TIMEOUT=${VMTEST_TIMEOUT:-$((600 + FUZZ_SECONDS))}
DEBUG_TIMEOUT=${VMTEST_TIMEOUT:-$((2700 + FUZZ_SECONDS))}
PLANTED=
[ "${1:-}" = --planted ] && PLANTED=${VMTEST_PLANTED:-uaf lockinv atomic_sleep leak}

die() {
	echo "vm-test: $*" >&2
	exit 1
}

for tool in qemu-system-x86_64 busybox cpio gzip ldd timeout; do
	command -v "$tool" >/dev/null || die "$tool is missing: run scripts/install-deps.sh --all"
done
# busybox must be static: the initramfs has no loader for it.
ldd "$(command -v busybox)" >/dev/null 2>&1 && die "busybox is dynamic: install busybox-static"
for tool in cbenchctl tests/vm/cbench-nlcheck tests/vm/cbench-kmodtest tests/vm/cbench-fuzz tests/kfixtures/good.so \
	examples/suite.kernel.so examples/audit.kernel.so; do
	[ -x "$BUILD/$tool" ] || die "$BUILD/$tool is missing: run make vmtest"
done

# The debug kernel: on by default, required in CI, and the only kernel of
# --planted.  VMTEST_KERNELS names it "debug" (or by its release).
kernels=${VMTEST_KERNELS:-}
debug=
if [ -n "$PLANTED" ]; then
	debug=1
elif [ -n "$kernels" ]; then
	for kver in $kernels; do
		case $kver in debug | killed | *-cbench-debug) debug=1 ;; esac
	done
elif [ "${VMTEST_DEBUG:-1}" != 0 ]; then
	debug=1
elif [ "${CI:-}" = true ]; then
	die "CI needs the debug kernel: VMTEST_DEBUG=0 is for local runs only"
fi

# It is built here rather than by make: a build takes minutes and is
# skipped when up to date, which the script knows best.
debug_build_s=0
if [ -n "$debug" ]; then
	start=$(date +%s)
	scripts/debug-kernel.sh || die "the debug kernel does not build"
	debug_build_s=$(($(date +%s) - start))
	debug_kver=$(cat "$BUILD/debug-kernel/release")
fi

if [ -n "$PLANTED" ]; then
	kernels=$debug_kver
elif [ -n "$kernels" ]; then
	named=$kernels
	kernels=
	for kver in $named; do
		[ "$kver" = debug ] && kver=$debug_kver
		kernels="$kernels $kver"
	done
else
	for headers in /usr/src/linux-headers-*-amd64; do
		[ -d "$headers" ] || continue
		kver=${headers#/usr/src/linux-headers-}
		[ -f "/boot/vmlinuz-$kver" ] && kernels="$kernels $kver"
	done
	count=$(echo $kernels | wc -w)
	if [ "${CI:-}" = true ] && [ "$count" -lt 2 ]; then
		die "CI needs the 6.1 and 6.12 kernels, found only:$kernels"
	fi
	[ -n "$debug" ] && kernels="$kernels $debug_kver"
fi
[ -n "$kernels" ] || die "no kernel with both headers and an image: run scripts/install-deps.sh --all"

is_debug() {
	[ -n "$debug" ] && [ "$1" = "$debug_kver" ]
}

# The build tree cbench.ko is built against, and the image QEMU boots.
kdir_of() {
	if is_debug "$1"; then scripts/debug-kernel.sh --kdir; else echo "/usr/src/linux-headers-$1"; fi
}
image_of() {
	if is_debug "$1"; then echo "$(kdir_of "$1")/arch/x86/boot/bzImage"; else echo "/boot/vmlinuz-$1"; fi
}

# Copies a dynamically linked program and the libraries it needs into root.
copy_with_libs() {
	install -D -m 0755 "$1" "$2/$3"
	for lib in $(ldd "$1" | awk '/=> \// { print $3 } /^\t\// { print $1 }'); do
		install -D -m 0755 "$lib" "$2/$lib"
	done
}

# make_initramfs KO DIR: the guest's root file system, with the module KO,
# as DIR/initramfs.gz.
make_initramfs() {
	root=$2/root
	rm -rf "$root"
	mkdir -p "$root/bin" "$root/etc" "$root/tmp"
	install -m 0755 "$(command -v busybox)" "$root/bin/busybox"
	install -m 0755 tests/vm/init "$root/init"
	install -m 0755 tests/vm/guest.sh "$root/guest.sh"
	install -m 0644 "$1" "$root/cbench.ko"
	copy_with_libs "$BUILD/cbenchctl" "$root" bin/cbenchctl
	copy_with_libs "$BUILD/tests/vm/cbench-nlcheck" "$root" bin/cbench-nlcheck
	copy_with_libs "$BUILD/tests/vm/cbench-kmodtest" "$root" bin/cbench-kmodtest
	copy_with_libs "$BUILD/tests/vm/cbench-fuzz" "$root" bin/cbench-fuzz
	install -m 0755 tests/vm/kmod.sh "$root/kmod.sh"
	install -m 0755 tests/vm/killed.sh "$root/killed.sh"
	install -D -m 0644 "$BUILD/tests/kfixtures/good.so" "$root/kmod/good.so"
	install -D -m 0644 "$BUILD/tests/kfixtures/bad_libc_call.so" "$root/kmod/bad_libc_call.so"
	install -D -m 0644 "$BUILD/tests/kfixtures/hostile.so" "$root/kmod/hostile.so"
	install -D -m 0644 "$BUILD/tests/kfixtures/per_rep.so" "$root/kmod/per_rep.so"
	install -D -m 0644 "$BUILD/tests/kfixtures/tpoints.so" "$root/kmod/tpoints.so"
	install -D -m 0644 "$BUILD/tests/kfixtures/tp_hostile.so" "$root/kmod/tp_hostile.so"
	install -D -m 0644 "$BUILD/tests/kfixtures/stuck.so" "$root/kmod/stuck.so"
	install -D -m 0644 "$BUILD/tests/kfixtures/faulting.so" "$root/kmod/faulting.so"
	install -D -m 0644 "$BUILD/tests/kfixtures/hazards.so" "$root/kmod/hazards.so"
	install -D -m 0644 "$BUILD/tests/kfixtures/deep_stack.so" "$root/kmod/deep_stack.so"
	install -D -m 0644 "$BUILD/tests/kfixtures/recursion.so" "$root/kmod/recursion.so"
	install -D -m 0644 "$BUILD/tests/kfixtures/layout_recursion.so" "$root/kmod/layout_recursion.so"
	install -D -m 0644 "$BUILD/tests/kfixtures/stack_vla.so" "$root/kmod/stack_vla.so"
	install -D -m 0644 "$BUILD/tests/kfixtures/ring0_only.so" "$root/kmod/ring0_only.so"
	install -D -m 0644 "$BUILD/tests/kfixtures/bad_int3_long.so" "$root/kmod/bad_int3_long.so"
	install -D -m 0644 "$BUILD/tests/kfixtures/bad_syscall.so" "$root/kmod/bad_syscall.so"
	install -D -m 0644 "$BUILD/tests/kfixtures/params.so" "$root/kmod/params.so"
	install -D -m 0644 "$BUILD/tests/kfixtures/layout.so" "$root/kmod/layout.so"
	install -D -m 0644 "$BUILD/tests/kfixtures/layout_whole.so" "$root/kmod/layout_whole.so"
	install -D -m 0644 "$BUILD/tests/fixtures/bad_keys_twice.so" "$root/kmod/bad_keys_twice.so"
	install -D -m 0644 "$BUILD/examples/known.kernel.so" "$root/kmod/known.so"
	# insn's object, built here: the guest has no compiler (kmod.sh).
	install -m 0644 tests/vm/insn.txt "$root/insn.txt"
	"$BUILD/cbenchctl" insn --backend kmod --build-only --keep "$root/insn" --file tests/vm/insn.txt \
		>/dev/null || die "insn --build-only failed for the guest"
	install -D -m 0644 "$BUILD/examples/suite.kernel.so" "$root/kmod/suite.kernel.so"
	install -D -m 0644 "$BUILD/examples/audit.kernel.so" "$root/kmod/audit.kernel.so"
	echo 'root:x:0:0:root:/:/bin/sh' >"$root/etc/passwd"
	echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >>"$root/etc/passwd"
	printf 'root:x:0:\nnogroup:x:65534:\n' >"$root/etc/group"
	chmod 1777 "$root/tmp"
	(cd "$root" && find . | cpio -o -H newc -R 0:0 --quiet) | gzip -1 >"$2/initramfs.gz"
}

# What the kernel reported, one line per report, "<kind>: <first line>",
# from a console log; nothing if it reported nothing.  The kinds are what
# vmtest-planted matches: KASAN, lockdep, atomic-sleep, list, WARN, BUG,
# and panic (which follows one of the others).
# A report printed twice (the guest's own dmesg check prints it again) is
# listed once.  Between the guest's "cbench-expected-oops" markers (kmod.sh:
# the oops net) an oops is what is tested, and only a "BUG" report there
# counts, and only if cbench.ko did not say it ended the call.
findings() {
	tr -d '\r' <"$1" | sed 's/^\[ *[0-9.]*\] //' | awk '
		/cbench-kmemleak: begin/ { skip = 1 } /cbench-kmemleak: end/ { skip = 0 }
		skip { next }
		/cbench-expected-oops: begin/ { expect = 1; bugs = ""; next }
		/cbench-expected-oops: end/ { expect = 0; if (!ended) printf "%s", bugs; ended = 0; next }
		expect && /benchmark code caused the oops above; its call was ended/ { ended = 1 }
		/BUG: KASAN: / { k = "KASAN" }
		/WARNING: possible (circular|recursive) locking|WARNING: inconsistent lock state|WARNING: possible irq lock inversion|WARNING: bad unlock balance|WARNING: lock held when returning|WARNING: held lock freed|WARNING: suspicious RCU usage|WARNING: Nested lock was not taken|BUG: Invalid wait context|BUG: MAX_LOCK/ { k = "lockdep" }
		/BUG: sleeping function called from invalid context|BUG: scheduling while atomic/ { k = "atomic-sleep" }
		/(h?list_[a-z_]+|list) corruption/ { k = "list" }
		/WARNING: CPU: [0-9]+ PID: / { k = "WARN" }
		!k && /BUG: |kernel BUG at|Oops: |general protection fault/ { k = "BUG" }
		/Kernel panic - not syncing/ { k = "panic" }
		expect && k == "BUG" { if (!seen[$0]++) bugs = bugs k ": " $0 "\n"; k = ""; next }
		k && !seen[$0]++ { print k ": " $0 }
		{ k = "" }
		END { if (expect) printf "%s", bugs }'
}

# kmemleak's report, which the debug kernel's /init prints on the console
# between two markers after the tests.  An object "names cbench" if its
# backtrace does: a symbol in [cbench], or an address in module space that
# no longer resolves, since cbench.ko is the only module the guest loads
# and it is unloaded by the time we scan.  Prints a summary line, then the
# objects that name cbench; fails if there are any, or no report.
kmemleak_check() {
	tr -d '\r' <"$1" | awk '
		/cbench-kmemleak: unavailable/ { sub(/.*cbench-kmemleak: unavailable: */, ""); print "kmemleak is unavailable in the guest: " $0; bad = 1 }
		/cbench-kmemleak: begin/ { on = 1; seen = 1; next }
		/cbench-kmemleak: end/ { on = 0; done = 1 }
		!on { next }
		/^unreferenced object / { flush(); obj = $0 "\n"; next }
		obj != "" {
			obj = obj $0 "\n"
			if ($0 ~ /\[cbench\]|cbench_/ || $0 ~ /\] 0xffffffff[a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]$/) names = 1
		}
		function flush() {
			if (obj == "") return
			all++
			if (names) { ours++; text = text obj }
			obj = ""; names = 0
		}
		END {
			flush()
			if (!seen || !done) { print "no kmemleak report from the guest"; exit 1 }
			printf "kmemleak: %d unreferenced objects naming cbench (%d in all)\n", ours, all
			if (ours) { printf "%s", text; exit 1 }
			exit bad
		}'
}

# boot KVER [PLANT]: 0 if the guest passed and the kernel reported nothing;
# PLANT builds cbench.ko with that planted bug.  Sets $reported to what the
# kernel reported.
boot() {
	dir=$BUILD/vm-$1${2:+-planted-$2}
	kdir=$(kdir_of "$1")
	mkdir -p "$dir"
	reported=
	echo "==== vm-test: $1: building cbench.ko${2:+ with the planted bug $2}"
	$MAKE --no-print-directory -s module KDIR="$kdir" W=1 ${2:+CBENCH_PLANT_BUG=$2} ||
		{ echo "vm-test: $1: FAIL: cbench.ko does not build"; return 1; }
	make_initramfs "$BUILD/kmod-$1${2:+-planted-$2}/cbench.ko" "$dir"

	token=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
	append="console=ttyS0 loglevel=5 panic_on_warn=1 panic=-1 oops=panic cbench_token=$token"
	# The no-fault-net build kills a thread on purpose: that oops must not
	# panic, and the guest runs that scenario alone (tests/vm/killed.sh).
	[ "${2:-}" = nonet ] &&
		append="console=ttyS0 loglevel=5 panic_on_warn=1 panic=-1 cbench_token=$token cbench_scenario=killed"
	append="$append cbench_fuzz=$FUZZ_SECONDS${VMTEST_FUZZ_ONLY:+ cbench_fuzz_only}"
	timeout=$TIMEOUT
	if is_debug "$1"; then
		# kmemleak stays off unless asked for (tests/vm/debug.config).
		append="$append kmemleak=on"
		timeout=$DEBUG_TIMEOUT
	fi
	# Two vCPUs, where ring 0 measures on one CPU at a time (the other
	# watches it); the newer Debian kernel boots with four, so two runs
	# measure at once, each watched from a CPU of its own (kmod.sh).
	smp=2
	case "$1" in
	6.1.*|*debug*) ;;
	*) smp=4 ;;
	esac
	rm -f "$dir/result" "$dir/console.log"
	echo "==== vm-test: $1: booting with $smp vCPUs (timeout ${timeout}s)"
	start=$(date +%s)
	status=0
	# Single-threaded TCG: with one host thread per vCPU (MTTCG), the 6.12
	# guest took int3 oopses in __schedule when perf flipped a static key
	# while cbench.ko was being loaded (text_poke_bp seen half-done by the
	# other vCPU); one thread keeps the vCPUs coherent, and shares the
	# host better.  The console goes to the terminal and, through the
	# chardev's log, to console.log.  qemu64 lacks RDTSCP, which loop
	# timing points (cbench.h) execute, in ring 0 too: we add it; and
	# POPCNT, CRC32 (SSE4.2) and LZCNT (ABM), which TCG emulates, so that
	# selftest's checks of them run (without, 15 of its 22 could be
	# judged at best, 14 when ring 0 had no room for one under load),
	# with SSSE3 and SSE4.1, which a CPU with SSE4.2 has: the C library's
	# string functions chosen for SSE4.2 use them (init died of SIGILL).
	timeout -k 10 "$timeout" qemu-system-x86_64 \
		-accel tcg,thread=single -m 512M -smp "$smp" -cpu qemu64,+rdtscp,+ssse3,+sse4.1,+sse4.2,+popcnt,+abm \
		-nographic -no-reboot -monitor none \
		-kernel "$(image_of "$1")" -initrd "$dir/initramfs.gz" \
		-append "$append" \
		-chardev "stdio,id=console,logfile=$dir/console.log" -serial chardev:console \
		-serial "file:$dir/result" </dev/null || status=$?
	boot_s=$(($(date +%s) - start))
	[ "$status" = 124 ] && echo "vm-test: $1: the guest ran out of time"

	ok=1
	reported=$(findings "$dir/console.log")
	if [ -n "$reported" ]; then
		if [ "${2:-}" = nonet ]; then
			echo "vm-test: $1: the kernel reported (the killed-thread boot wants its oops and nothing else):"
		else
			echo "vm-test: $1: FAIL: the kernel reported:"
		fi
		echo "$reported" | sed 's/^/  /'
		echo "---- the reports ($dir/console.log)"
		tr -d '\r' <"$dir/console.log" | sed 's/^\[ *[0-9.]*\] //' |
			grep -E -A 40 'BUG: |WARNING: |corruption|Oops: |general protection fault' | head -n 200
		echo "----"
		ok=
	fi
	if is_debug "$1"; then
		if ! kmemleak_check "$dir/console.log" >"$dir/kmemleak.txt"; then
			ok=
			reported="$reported${reported:+
}$(head -n 1 "$dir/kmemleak.txt")"
		fi
		cat "$dir/kmemleak.txt"
	fi

	# The last line of the result port must be this boot's token; what
	# came before it is `cbenchctl info --json`, which must parse.
	verdict=
	if ! tr -d '\r' <"$dir/result" | tail -n 1 | grep -qx "cbench-vmtest PASS $token"; then
		echo "vm-test: $1: FAIL: no verdict from the guest (qemu exit $status)"
		return 1
	fi
	if ! tr -d '\r' <"$dir/result" | sed '$d' | python3 -c '
import json, sys
info = json.load(sys.stdin)
m = info["module"]
assert m["loaded"] is True, "module not loaded"
assert isinstance(m["tsc"]["khz"], int) and m["tsc"]["khz"] > 0, "no TSC frequency"
assert m["pmu"] is None, "a PMU where QEMU has none"
assert m["counters"]["usable"] == [], "counters where QEMU has none"
assert m["live"] == {"images": 0, "runs": 0}, "live objects"
assert info["user"]["perf_hardware"] is False, "perf hardware events in QEMU"
'; then
		echo "vm-test: $1: FAIL: cbenchctl info --json from the guest is wrong"
		return 1
	fi
	verdict=1
	[ -n "$ok" ] || return 1
	echo "vm-test: $1: PASS (boot and tests: ${boot_s}s)"
}

# The kind of report each planted bug must produce (see findings()).
expected_kind() {
	case $1 in
	uaf) echo KASAN ;;
	lockinv) echo lockdep ;;
	atomic_sleep) echo atomic-sleep ;;
	leak) echo kmemleak ;;
	*) die "no such planted bug: $1" ;;
	esac
}

if [ -n "$PLANTED" ]; then
	missed=
	for bug in $PLANTED; do
		kind=$(expected_kind "$bug")
		if boot "$debug_kver" "$bug"; then
			echo "vm-test: planted $bug: MISSED: the boot passed"
			missed="$missed $bug"
		elif line=$(echo "$reported" | grep -m 1 "^$kind: "); then
			echo "vm-test: planted $bug: detected: $line"
		else
			echo "vm-test: planted $bug: MISSED: no $kind report (the boot failed otherwise)"
			missed="$missed $bug"
		fi
	done
	[ -z "$missed" ] || die "planted bugs the debug kernel did not report:$missed"
	echo "vm-test: every planted bug was reported:$PLANTED"
	exit 0
fi

# A measuring thread killed in a call, on the debug kernel: the test build
# with no fault net (CBENCH_PLANT_BUG=nonet) lets a page fault oops and kill
# it with its run's watchdog armed.  The guest must pass (tests/vm/killed.sh)
# and the kernel must report that oops and nothing else: no KASAN report,
# which a run freed under its armed timer gives within a second, no leak.
killed_thread() {
	killed_boot "$1" && return 0
	# The thread dies with interrupts off: now and then the console then
	# loses what the guest writes after it (the guest's own PASS line and
	# kmemleak's report with it) while the kernel's messages still come.
	# The verdict port was fine: that is the console, not cbench.ko, so the
	# boot is tried once more.
	if [ "$lost_console" ]; then
		echo "vm-test: killed thread: the console lost the guest's output after the oops" \
			"(no kmemleak report): booting it once more"
		killed_boot "$1"
		return
	fi
	return 1
}

killed_boot() {
	lost_console=
	if boot "$1" nonet; then
		echo "vm-test: killed thread: FAIL: no oops in the log: the fault did not kill the thread"
		return 1
	fi
	if [ -z "$verdict" ]; then
		echo "vm-test: killed thread: FAIL: the guest did not pass"
		return 1
	fi
	if echo "$reported" | grep -qv '^BUG: '; then
		echo "vm-test: killed thread: FAIL: the kernel reported more than the oops"
		if [ "$(echo "$reported" | grep -v '^BUG: ')" = "no kmemleak report from the guest" ] &&
		   ! grep -q "vmtest: PASS: a thread killed in a call" "$dir/console.log"; then
			lost_console=1
		fi
		return 1
	fi
	echo "vm-test: killed thread: PASS: the oops killed it, and nothing freed was touched"
}

failed=
for kver in $kernels; do
	if [ "$kver" = killed ]; then
		killed_thread "$debug_kver" || failed="$failed $debug_kver(killed thread)"
		continue
	fi
	boot "$kver" || failed="$failed $kver"
	if is_debug "$kver"; then
		debug_boot_s=$boot_s
		killed_thread "$kver" || failed="$failed $kver(killed thread)"
	fi
done
echo "==== vm-test: kernels:$kernels"
if [ -n "${debug_boot_s:-}" ]; then
	echo "vm-test: the debug kernel added $((debug_build_s + debug_boot_s))s: build ${debug_build_s}s (0 when up to date), boot and tests ${debug_boot_s}s"
fi
[ -z "$failed" ] || die "FAILED on:$failed"
echo "vm-test: all passed"
