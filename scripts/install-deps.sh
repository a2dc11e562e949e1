#!/bin/sh
# Install the Debian packages cbench needs, on Debian bookworm, as root.
# Idempotent: running it twice changes nothing.
#
#   sh scripts/install-deps.sh          what building and running cbenchctl
#                                       in user mode needs, nothing more:
#                                       the packages in USER_PACKAGES below
#   sh scripts/install-deps.sh --all    also what `make test` and `make bench`
#                                       need: the kernels and headers the
#                                       module is built and tested against
#                                       (6.1, and 6.12 from bookworm-backports,
#                                       which it adds), QEMU, the debug
#                                       kernel's source, dkms, sparse,
#                                       cppcheck, CUnit, Google Benchmark and
#                                       a headless browser for plot's tests
#
# For cbench.ko on a lab machine, the running kernel's headers are enough:
# apt-get install linux-headers-$(uname -r) (docs/lab.md).
set -eu

usage() {
	echo "usage: sh scripts/install-deps.sh [--all]" >&2
	exit 2
}

all=
case "${1:-}" in
"") ;;
--all) all=1 ;;
-h | --help)
	sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'
	exit 0
	;;
*)
	echo "install-deps: unknown option '$1'" >&2
	usage
	;;
esac
[ $# -le 1 ] || usage

# cbenchctl and the example benchmarks: a C compiler, libnl's generic
# netlink (the module's protocol), libelf and libdw (objects, profiles),
# libsqlite3 and libpq (the results store, in a file or on a PostgreSQL server).
USER_PACKAGES="build-essential pkg-config libnl-3-dev libnl-genl-3-dev libelf-dev libdw-dev libsqlite3-dev libpq-dev"

export DEBIAN_FRONTEND=noninteractive

die() {
	echo "install-deps: $*" >&2
	exit 1
}

[ "$(id -u)" = 0 ] || die "run me as root (apt-get needs it)"
grep -qs 'bookworm' /etc/os-release || die "this script targets Debian bookworm"

if [ -z "$all" ]; then
	apt-get update -qq
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $USER_PACKAGES
	echo "install-deps: ready for cbenchctl in user mode (sh scripts/install-deps.sh --all for the tests)"
	exit 0
fi

# The first URI of a deb822 or one-line source that carries the bookworm suite.
bookworm_uri() {
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk 'BEGIN { RS = ""; FS = "\n" }
		     /(^|\n)Suites:[^\n]*[ \t]bookworm([ \t]|$|\n)/ || /(^|\n)Suites:[ \t]*bookworm([ \t]|$|\n)/ {
			for (i = 1; i <= NF; i++)
				if ($i ~ /^URIs:/) { split($i, a, /[ \t]+/); print a[2]; exit }
		     }' "$f"
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		awk '$1 == "deb" && $0 ~ /[ \t]bookworm[ \t]/ {
			for (i = 2; i <= NF; i++) if ($i ~ /:\/\//) { print $i; exit }
		     }' "$f"
	done
}

backports=/etc/apt/sources.list.d/cbench-backports.sources
if ! grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
	uri=$(bookworm_uri | head -n 1)
	[ -n "$uri" ] || die "no bookworm archive found in /etc/apt/sources.list*; add one first"
	cat >"$backports" <<SRC
Types: deb
URIs: $uri
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
fi

apt-get update -qq

# Build and test tools for the user side.
packages="$USER_PACKAGES libcunit1-dev libbenchmark-dev sparse cppcheck python3
	qemu-system-x86 busybox-static cpio gzip kmod"

# glibc's debug symbols, so that the profile tests see memcpy named.
packages="$packages libc6-dbg"

# make install's checks (man pages, completion), make dkms-check, and the
# headless browser that renders `cbenchctl plot`'s HTML in the tests.
packages="$packages man-db groff-base bash-completion dkms chromium"

# The 6.1 kernel, image and headers.
packages="$packages linux-image-amd64 linux-headers-amd64"

# The 6.12 kernel from backports.  We install the versioned packages the
# backports meta-package points at, so the stable 6.1 meta-package stays.
bpo_version=$(apt-cache madison linux-image-amd64 | awk '/bookworm-backports/ { print $3; exit }')
[ -n "$bpo_version" ] || die "bookworm-backports has no linux-image-amd64; check apt sources"
bpo_image=$(apt-cache depends "linux-image-amd64=$bpo_version" |
	awk '/Depends: linux-image-[0-9]/ { print $2; exit }')
[ -n "$bpo_image" ] || die "cannot resolve the backports kernel image package"
bpo_headers=$(echo "$bpo_image" | sed 's/^linux-image-/linux-headers-/')
packages="$packages $bpo_image $bpo_headers"

# 6.12's module build runs pahole (BTF); backports carries a new enough one.
packages="$packages dwarves"

# The VM tests' debug kernel (scripts/debug-kernel.sh): Debian's 6.1 source
# (an xz tarball) and what building it needs: kconfig's parser generators,
# bc for the timeconst header, libelf for objtool, OpenSSL's headers for
# the certificate tools.
packages="$packages linux-source-6.1 xz-utils flex bison bc libelf-dev libssl-dev"

# The LNT and Bencher reports' tests: a schema validator, and a real LNT
# (llvm-lnt, from PyPI) in a virtual environment of its own.
packages="$packages python3-jsonschema python3-venv"

# The store's and the lab queue's tests on PostgreSQL: a real server,
# started in a temporary directory by tests/run/pg-server.sh.
packages="$packages postgresql"

# The JUnit report's test: xmllint checks it against tests/schema/junit.xsd.
packages="$packages libxml2-utils"

# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $packages
apt-get install -y -qq --no-install-recommends -t bookworm-backports dwarves

LNT_VENV=/opt/cbench-lnt
if ! "$LNT_VENV/bin/lnt" --version >/dev/null 2>&1; then
	python3 -m venv "$LNT_VENV" && "$LNT_VENV/bin/pip" install -q 'llvm-lnt==0.4.20' ||
		die "cannot install llvm-lnt from PyPI into $LNT_VENV"
fi

# Apache Otava, the change-point detector history follows, for make bench's
# comparison (bench/changepoints.sh), in a virtual environment of its own.
OTAVA_VENV=/opt/cbench-otava
if ! "$OTAVA_VENV/bin/python" -c 'import otava' >/dev/null 2>&1; then
	python3 -m venv "$OTAVA_VENV" && "$OTAVA_VENV/bin/pip" install -q 'apache-otava==0.8.0' ||
		die "cannot install apache-otava from PyPI into $OTAVA_VENV"
fi

echo "install-deps: ready ($bpo_image beside $(dpkg-query -W -f='${Depends}' linux-image-amd64 | sed 's/[ ,(].*//'))"
