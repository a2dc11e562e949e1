#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Lists functions of cbenchctl and cbench.ko that nothing calls: each
# function defined outside a `static` in the given C files whose name
# appears nowhere else in user/, kmod/ or include/ but in its own
# definition and its declaration.  A unit test is not a caller: a function
# only tests call is dead code the tests keep alive.  Exits 1 if there is one.  `make check`
# runs it.
#
#   scripts/dead-functions.sh user/*.c user/*/*.c kmod/*.c kmod/lib/*.c
set -eu

dead=0
for f in "$@"; do
	# A definition starts a line with its type and has its name before '(':
	# "int cbench_x(" or "const char *cbench_y(".
	for name in $(grep -E '^[a-z][a-z0-9_ ]*[ *]\**(cbench_[a-z0-9_]+)\(' "$f" |
		grep -v '^static' | sed -E 's/^[^(]*[ *](cbench_[a-z0-9_]+)\(.*/\1/' | sort -u); do
		uses=$(grep -rwho --include="*.[chS]" -e "$name" user kmod include | wc -l)
		decls=$(grep -rwl --include='*.h' -e "$name" user kmod include | wc -l)
		# The definition, and one declaration a header holds.
		if [ "$uses" -le $((1 + decls)) ]; then
			echo "dead-functions: $f: $name() is defined but nothing calls it" >&2
			dead=1
		fi
	done
done
exit "$dead"
