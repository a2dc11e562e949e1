#!/bin/sh
# VM tests of cbench.ko: for every installed Debian kernel (headers under
# /usr/src/linux-headers-<kver> and an image /boot/vmlinuz-<kver>), build
# cbench.ko against it, pack an initramfs with busybox, cbench.ko, cbenchctl
# and tests/vm/guest.sh, and boot it under QEMU (TCG).
#
# The verdict comes back on a second serial port (ttyS1, a file here) that
# the kernel's console never writes to: the guest's /init writes
# "cbench-vmtest PASS <token>" there only if every check passed, with a
# token made fresh for each boot, so neither console output nor a stale
# file can pass a test.
#
# Environment: CI=true makes fewer than two kernels an error;
# VMTEST_KERNELS="<kver> ..." picks kernels; VMTEST_TIMEOUT (seconds, per
# boot, default 180).
set -eu

cd "$(dirname "$0")/.."
BUILD=build
MAKE=${MAKE:-make}
TIMEOUT=${VMTEST_TIMEOUT:-180}

die() {
	echo "vm-test: $*" >&2
	exit 1
}

for tool in qemu-system-x86_64 busybox cpio gzip ldd timeout; do
	command -v "$tool" >/dev/null || die "$tool is missing: run scripts/install-deps.sh"
done
# busybox must be static: the initramfs has no loader for it.
ldd "$(command -v busybox)" >/dev/null 2>&1 && die "busybox is dynamic: install busybox-static"
for tool in cbenchctl tests/vm/cbench-nlcheck tests/vm/cbench-kmodtest tests/kfixtures/good.so \
	examples/suite.kernel.so; do
	[ -x "$BUILD/$tool" ] || die "$BUILD/$tool is missing: run make vmtest"
done

kernels=${VMTEST_KERNELS:-}
if [ -z "$kernels" ]; then
	for headers in /usr/src/linux-headers-*-amd64; do
		[ -d "$headers" ] || continue
		kver=${headers#/usr/src/linux-headers-}
		[ -f "/boot/vmlinuz-$kver" ] && kernels="$kernels $kver"
	done
fi
count=$(echo $kernels | wc -w)
[ "$count" -ge 1 ] || die "no kernel with both headers and an image: run scripts/install-deps.sh"
if [ "${CI:-}" = true ] && [ "$count" -lt 2 ]; then
	die "CI needs the 6.1 and 6.12 kernels, found only:$kernels"
fi

# Copies a dynamically linked program and the libraries it needs into root.
copy_with_libs() {
	install -D -m 0755 "$1" "$2/$3"
	for lib in $(ldd "$1" | awk '/=> \// { print $3 } /^\t\// { print $1 }'); do
		install -D -m 0755 "$lib" "$2/$lib"
	done
}

# make_initramfs KVER DIR: the guest's root file system, as DIR/initramfs.gz.
make_initramfs() {
	root=$2/root
	rm -rf "$root"
	mkdir -p "$root/bin" "$root/etc" "$root/tmp"
	install -m 0755 "$(command -v busybox)" "$root/bin/busybox"
	install -m 0755 tests/vm/init "$root/init"
	install -m 0755 tests/vm/guest.sh "$root/guest.sh"
	install -m 0644 "$BUILD/kmod-$1/cbench.ko" "$root/cbench.ko"
	copy_with_libs "$BUILD/cbenchctl" "$root" bin/cbenchctl
	copy_with_libs "$BUILD/tests/vm/cbench-nlcheck" "$root" bin/cbench-nlcheck
	copy_with_libs "$BUILD/tests/vm/cbench-kmodtest" "$root" bin/cbench-kmodtest
	install -m 0755 tests/vm/kmod.sh "$root/kmod.sh"
	install -D -m 0644 "$BUILD/tests/kfixtures/good.so" "$root/kmod/good.so"
	install -D -m 0644 "$BUILD/tests/kfixtures/bad_libc_call.so" "$root/kmod/bad_libc_call.so"
	install -D -m 0644 "$BUILD/tests/kfixtures/hostile.so" "$root/kmod/hostile.so"
	install -D -m 0644 "$BUILD/examples/suite.kernel.so" "$root/kmod/suite.kernel.so"
	echo 'root:x:0:0:root:/:/bin/sh' >"$root/etc/passwd"
	echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >>"$root/etc/passwd"
	printf 'root:x:0:\nnogroup:x:65534:\n' >"$root/etc/group"
	chmod 1777 "$root/tmp"
	(cd "$root" && find . | cpio -o -H newc -R 0:0 --quiet) | gzip -1 >"$2/initramfs.gz"
}

# boot KVER: 0 if the guest passed.
boot() {
	dir=$BUILD/vm-$1
	mkdir -p "$dir"
	echo "==== vm-test: $1: building cbench.ko"
	$MAKE --no-print-directory -s module KDIR="/usr/src/linux-headers-$1" W=1 ||
		{ echo "vm-test: $1: FAIL: cbench.ko does not build"; return 1; }
	make_initramfs "$1" "$dir"

	token=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
	rm -f "$dir/result"
	echo "==== vm-test: $1: booting (timeout ${TIMEOUT}s)"
	status=0
	# Single-threaded TCG: with one host thread per vCPU (MTTCG), the 6.12
	# guest took int3 oopses in __schedule when perf flipped a static key
	# while cbench.ko was being loaded (text_poke_bp seen half-done by the
	# other vCPU); one thread keeps both vCPUs coherent, and shares the
	# host better.
	timeout -k 10 "$TIMEOUT" qemu-system-x86_64 \
		-accel tcg,thread=single -m 512M -smp 2 \
		-nographic -no-reboot -monitor none \
		-kernel "/boot/vmlinuz-$1" -initrd "$dir/initramfs.gz" \
		-append "console=ttyS0 loglevel=5 panic_on_warn=1 panic=-1 oops=panic cbench_token=$token" \
		-serial stdio -serial "file:$dir/result" </dev/null || status=$?
	[ "$status" = 124 ] && echo "vm-test: $1: the guest ran out of time"

	# The last line of the result port must be this boot's token; what
	# came before it is `cbenchctl info --json`, which must parse.
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
	echo "vm-test: $1: PASS"
}

failed=
for kver in $kernels; do
	boot "$kver" || failed="$failed $kver"
done
echo "==== vm-test: kernels:$kernels"
[ -z "$failed" ] || die "FAILED on:$failed"
echo "vm-test: all passed"
