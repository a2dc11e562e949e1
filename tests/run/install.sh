#!/bin/sh
# `make install` into a scratch DESTDIR: every file is where a Debian user
# expects it, the pkg-config files build a benchmark with the installed
# header, the man pages render without a warning, the completion completes.
#
# Usage: tests/run/install.sh   (from the top of the tree; make install-check)
set -u

. tests/run/lib.sh

MAKE=${MAKE:-make}
# The scratch directory: $TMP, whose err not_ok prints.
D=$TMP

if $MAKE --no-print-directory -s install PREFIX=/usr DESTDIR="$D/root" >"$D/out" 2>"$D/err"; then
	ok "make install PREFIX=/usr DESTDIR=..."
else
	not_ok "make install"
fi

missing=
for f in usr/bin/cbenchctl usr/include/cbench.h usr/lib/pkgconfig/cbench.pc \
	usr/lib/pkgconfig/cbench-kernel.pc usr/share/man/man1/cbenchctl.1 \
	usr/share/man/man3/cbench.h.3 usr/share/bash-completion/completions/cbenchctl \
	usr/lib/cbench/known.so; do
	[ -f "$D/root/$f" ] || missing="$missing $f"
done
if [ -z "$missing" ] && [ -x "$D/root/usr/bin/cbenchctl" ]; then
	ok "every file installed"
else
	not_ok "files missing:$missing"
fi
extra=$(cd "$D/root" && find . -type f | grep -Ev '^\./usr/(bin|include|lib/pkgconfig|lib/cbench|share/man/man[13]|share/bash-completion/completions)/[^/]+$')
if [ -z "$extra" ]; then
	ok "nothing installed outside its place"
else
	not_ok "unexpected files: $extra"
fi

# The installed cbenchctl looks for the selftest's kernels where make
# install put them under its PREFIX (here under DESTDIR, so it says they
# are missing there).
"$D/root/usr/bin/cbenchctl" selftest >"$D/out" 2>"$D/err"
if grep -q "the known-answer kernels are missing (/usr/lib/cbench/known.so)" "$D/err"; then
	ok "cbenchctl selftest looks for its kernels in PREFIX/lib/cbench"
else
	not_ok "selftest's kernels: not looked for in /usr/lib/cbench"
fi

# The .pc files name their prefix, and the version is VERSION's number.
if grep -qx 'prefix=/usr' "$D/root/usr/lib/pkgconfig/cbench.pc" &&
   grep -qx 'includedir=${prefix}/include' "$D/root/usr/lib/pkgconfig/cbench.pc" &&
   grep -q "^Version: $(cat VERSION)" "$D/root/usr/lib/pkgconfig/cbench-kernel.pc" &&
   "$D/root/usr/bin/cbenchctl" --version | grep -q "^cbenchctl $(cat VERSION)"; then
	ok "the .pc files name prefix=; --version and Version: are VERSION's"
else
	not_ok "prefix= and the version: $(cat "$D/root/usr/lib/pkgconfig/cbench.pc")"
fi

# The installed .pc files, used as pkg-config would on the target system.
export PKG_CONFIG_SYSROOT_DIR="$D/root" PKG_CONFIG_LIBDIR="$D/root/usr/lib/pkgconfig"
if [ "$(echo $(pkg-config --cflags cbench))" = "-fPIC -I$D/root/usr/include" ] &&
   pkg-config --cflags cbench-kernel | grep -q -- '-ffreestanding' &&
   [ -n "$(pkg-config --modversion cbench)" ]; then
	ok "pkg-config cbench and cbench-kernel"
else
	pkg-config --cflags cbench >"$D/err" 2>&1
	not_ok "pkg-config cbench and cbench-kernel"
fi
# shellcheck disable=SC2046
if cc -O2 $(pkg-config --cflags --libs cbench) -o "$D/suite.so" examples/suite.c 2>"$D/err" &&
   cc -O2 $(pkg-config --cflags --libs cbench-kernel) -o "$D/suite.kernel.so" examples/suite.c 2>>"$D/err" &&
   "$D/root/usr/bin/cbenchctl" list "$D/suite.so" >"$D/out" 2>"$D/err" &&
   grep -q '^add_chain BenchmarkAddChain' "$D/out"; then
	ok "a benchmark builds with the installed header and pkg-config files"
else
	not_ok "a benchmark builds with the installed header and pkg-config files"
fi
unset PKG_CONFIG_SYSROOT_DIR PKG_CONFIG_LIBDIR

for page in man1/cbenchctl.1 man3/cbench.h.3; do
	f=$D/root/usr/share/man/$page
	if MANWIDTH=80 man -l --warnings=w "$f" >"$D/out" 2>"$D/err" && [ ! -s "$D/err" ] &&
	   groff -man -ww -z "$f" 2>"$D/err" && [ ! -s "$D/err" ] && [ -s "$D/out" ]; then
		ok "man -l $page renders without warnings"
	else
		not_ok "man -l $page renders without warnings"
	fi
done

# make uninstall takes back every file make install put there.
if $MAKE --no-print-directory -s install PREFIX=/opt/cb DESTDIR="$D/un" >"$D/out" 2>"$D/err" &&
   [ -n "$(find "$D/un" -type f)" ] &&
   $MAKE --no-print-directory -s uninstall PREFIX=/opt/cb DESTDIR="$D/un" >"$D/out" 2>"$D/err" &&
   [ -z "$(find "$D/un" -type f)" ]; then
	ok "make uninstall removes what make install installed"
else
	find "$D/un" -type f >>"$D/err"
	not_ok "make uninstall"
fi

# cbenchctl(1) names every subcommand, and every option each --help lists.
page=$(MANWIDTH=200 man -l "$D/root/usr/share/man/man1/cbenchctl.1" 2>/dev/null)
missing=
for cmd in $(build/cbenchctl --help | awk '/^Available commands:/ { on = 1; next } on && !NF { exit } on { print $1 }'); do
	echo "$page" | grep -Eq "^ +(cbenchctl )?$cmd( |$)" || missing="$missing $cmd"
	for opt in $(build/cbenchctl $cmd --help 2>/dev/null | grep -Eo -- '--[a-z][a-z-]+' | sort -u); do
		[ "$opt" = --help ] && continue
		echo "$page" | grep -q -- "$opt" || missing="$missing $cmd:$opt"
	done
done
if [ -z "$missing" ]; then
	ok "cbenchctl(1) covers every subcommand and option"
else
	not_ok "cbenchctl(1) misses:$missing"
fi

# The completion, in bash with bash-completion's helpers.
if [ -f /usr/share/bash-completion/bash_completion ] && command -v bash >/dev/null; then
	got=$(bash -c '. /usr/share/bash-completion/bash_completion
		. "$1"
		COMP_WORDS=(cbenchctl do); COMP_CWORD=1; COMP_LINE="cbenchctl do"; COMP_POINT=12
		_cbenchctl; echo "${COMPREPLY[*]}"
		COMP_WORDS=(cbenchctl lab ""); COMP_CWORD=2; COMP_LINE="cbenchctl lab "; COMP_POINT=14
		_cbenchctl; echo "${COMPREPLY[*]}"
		COMP_WORDS=(cbenchctl run --backend ""); COMP_CWORD=3; COMP_LINE="cbenchctl run --backend "; COMP_POINT=24
		_cbenchctl; echo "${COMPREPLY[*]}"
		COMP_WORDS=(cbenchctl list --f); COMP_CWORD=2; COMP_LINE="cbenchctl list --f"; COMP_POINT=18
		_cbenchctl; echo "${COMPREPLY[*]}"
		COMP_WORDS=(cbenchctl plot --y-scale ""); COMP_CWORD=3; COMP_LINE="cbenchctl plot --y-scale "; COMP_POINT=25
		_cbenchctl; echo "${COMPREPLY[*]}"' _ "$D/root/usr/share/bash-completion/completions/cbenchctl" 2>"$D/err")
	if [ "$got" = "$(printf 'doctor\nsetup reset queue worker --help\nauto user kmod both\n--filter\nauto linear log')" ]; then
		ok "bash completion completes commands, lab actions and option values"
	else
		echo "$got" >>"$D/err"
		not_ok "bash completion"
	fi
else
	echo "skip   bash completion (no bash-completion)"
fi

finish
