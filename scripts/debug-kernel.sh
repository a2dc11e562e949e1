#!/bin/sh
# Builds the VM tests' debug kernel: Debian's linux-source-6.1, configured
# from tinyconfig plus tests/vm/debug.config (KASAN, kmemleak, lockdep,
# DEBUG_ATOMIC_SLEEP, DEBUG_LIST), out of tree under build/debug-kernel/.
# Debian's own kernels have none of these checks, so a use-after-free, a
# leak or a lock inversion in cbench.ko passes the other VM tests silently.
#
#   build/debug-kernel/src/linux-source-6.1     the unpacked source
#   build/debug-kernel/<kver>/build             the build tree: bzImage, and
#                                               KDIR for `make module`
#   build/debug-kernel/release                  <kver>, once it is built
#
# It fetches nothing: the source is the linux-source-6.1 package
# (scripts/install-deps.sh --all installs it).  It rebuilds only when the fragment,
# the package or the compiler changes (a stamp holds their hash), so the
# usual run costs nothing.  Prints the time a build took.
#
# Usage: scripts/debug-kernel.sh            build if needed
#        scripts/debug-kernel.sh --kdir     print KDIR of the built kernel
set -eu

cd "$(dirname "$0")/.."
FRAGMENT=tests/vm/debug.config
TOP=build/debug-kernel
TARBALL=/usr/src/linux-source-6.1.tar.xz
MAKE=${MAKE:-make}
JOBS=$(nproc)

die() {
	echo "debug-kernel: $*" >&2
	exit 1
}

if [ "${1:-}" = --kdir ]; then
	[ -f "$TOP/release" ] || die "not built yet: run scripts/debug-kernel.sh"
	echo "$TOP/$(cat "$TOP/release")/build"
	exit 0
fi

version=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null) && [ -f "$TARBALL" ] ||
	die "linux-source-6.1 is not installed: run scripts/install-deps.sh --all"
for tool in tar xz gcc flex bison bc perl; do
	command -v "$tool" >/dev/null || die "$tool is missing: run scripts/install-deps.sh --all"
done
# objtool (the ORC unwinder) needs libelf's headers.
[ -f /usr/include/gelf.h ] || die "libelf-dev is missing: run scripts/install-deps.sh --all"

# What the build depends on beyond the source itself.  A different compiler
# would build a module the kernel was not built with.
stamp=$( { echo "linux-source-6.1 $version"; gcc --version | head -n 1; cat "$FRAGMENT"; } |
	sha256sum | cut -d' ' -f1)

# The release string: the source's version and the fragment's LOCALVERSION.
src=$TOP/src/linux-source-6.1
release() {
	localversion=$(sed -n 's/^CONFIG_LOCALVERSION="\(.*\)"$/\1/p' "$FRAGMENT")
	awk -v lv="$localversion" '
		$1 == "VERSION" { v = $3 } $1 == "PATCHLEVEL" { p = $3 }
		$1 == "SUBLEVEL" { s = $3 } $1 == "EXTRAVERSION" { e = $3 }
		$1 == "NAME" { exit }
		END { printf "%s.%s.%s%s%s\n", v, p, s, e, lv }' "$1/Makefile"
}

if [ -f "$TOP/release" ]; then
	obj=$TOP/$(cat "$TOP/release")/build
	if [ "$(cat "$obj/.cbench-stamp" 2>/dev/null)" = "$stamp" ] && [ -f "$obj/arch/x86/boot/bzImage" ]; then
		echo "debug-kernel: $(cat "$TOP/release") is up to date ($obj)"
		exit 0
	fi
fi

start=$(date +%s)
rm -f "$TOP/release"

# A new package gets a fresh source tree and a fresh build tree.
if [ "$(cat "$TOP/src/.version" 2>/dev/null)" != "$version" ]; then
	echo "debug-kernel: unpacking linux-source-6.1 $version"
	rm -rf "$TOP"
	mkdir -p "$TOP/src"
	tar -xJf "$TARBALL" -C "$TOP/src"
	echo "$version" >"$TOP/src/.version"
fi

kver=$(release "$src")
obj=$TOP/$kver/build
mkdir -p "$obj"
# Kbuild wants absolute paths for O=; the module build needs them too.
obj=$(cd "$obj" && pwd)

echo "debug-kernel: configuring $kver: tinyconfig + $FRAGMENT"
# LOCALVERSION set (empty) keeps setlocalversion from appending a "+".
kmake() {
	$MAKE -C "$src" O="$obj" LOCALVERSION= "$@"
}
# Their chatter (every option the fragment overrides) goes to config.log.
log=$obj/config.log
{ kmake -s tinyconfig &&
	"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "$FRAGMENT" &&
	kmake -s olddefconfig; } >"$log" 2>&1 || { cat "$log" >&2; die "configuring failed"; }

# Every option the fragment asks for must have survived olddefconfig: a
# missing dependency drops an option without a word.
missing=$(sed -n 's/^\(CONFIG_[A-Z0-9_]*=.*\)$/\1/p' "$FRAGMENT" | while read -r line; do
	grep -qxF "$line" "$obj/.config" || echo "  $line (.config: $(grep -E "^(# )?${line%%=*}[= ]" "$obj/.config" || echo absent))"
done)
unwanted=$(sed -n 's/^# \(CONFIG_[A-Z0-9_]*\) is not set$/\1/p' "$FRAGMENT" | while read -r opt; do
	grep -q "^$opt=" "$obj/.config" && echo "  $opt is set"
done || true)
if [ -n "$missing$unwanted" ]; then
	printf '%s\n' "debug-kernel: the configuration is not what $FRAGMENT asks for:" \
		"$missing" "$unwanted" >&2
	exit 1
fi

echo "debug-kernel: building $kver with $JOBS jobs (a few minutes)"
# `modules` writes Module.symvers, which the out-of-tree build of cbench.ko
# reads (modules_prepare alone leaves only vmlinux.symvers).  -s: warnings
# only, not one line per file.
kmake -s -j"$JOBS" bzImage modules
built=$(kmake -s kernelrelease)
[ "$built" = "$kver" ] || die "built $built, expected $kver"
[ -f "$obj/Module.symvers" ] || die "no Module.symvers in $obj"

echo "$stamp" >"$obj/.cbench-stamp"
echo "$kver" >"$TOP/release"
echo "debug-kernel: built $kver in $(($(date +%s) - start)) s ($obj)"
