#!/bin/sh
# What the stack checks cost (user/object/kstack.h, docs/trust-model.md):
# the recursion fixture's benchmarks (tests/kfixtures/recursion.c) run
# with and without the checks cbenchctl puts into their image, here in user
# mode on a stack aligned as cbench.ko's, rounds alternating (bench/
# stackcheck.c).  Prints each one's least ns a rep both ways, the
# difference, and per call of a checked function where the count is known:
# down(n) is n + 1 calls a rep, the tree walk 255 (127 nodes, 128 empty
# children).  Not a test.
set -eu

. bench/lib.sh

OBJ=build/tests/kfixtures/recursion.so
[ -f "$OBJ" ] || { echo "stackcheck: $OBJ is missing: run make kfixtures" >&2; exit 1; }
${CC:-gcc} -O2 -D_GNU_SOURCE -Iinclude -Iuser -o "$TMP/stackcheck" bench/stackcheck.c \
	build/user/object/kstack*.o build/user/object/x86*.o build/user/object/kimage_load.o \
	build/user/object/kimage_descs.o build/user/object/elffile.o build/user/machine/callstack_call.o \
	build/kmod/lib/*.o -lelf
echo "stackcheck: $OBJ on $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), CPU $CPU, $(date -u +%Y-%m-%d)"
taskset -c "$CPU" "$TMP/stackcheck" "$OBJ" direct_ring0:1:2 direct_ring0:10:11 direct_ring0:100:101 \
	direct_ring0:1000:1001 tree_walk:0:255 quicksort
