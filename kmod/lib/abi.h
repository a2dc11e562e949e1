/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The benchmark ABI as cbench.ko sees it.  include/cbench.h needs
 * <stdint.h>, which a kernel build does not have, so the module mirrors the
 * one structure it hands a benchmark; user/kimage.c checks the mirror
 * against the header field by field, at compile time.
 */
#ifndef _CBENCH_LIB_ABI_H
#define _CBENCH_LIB_ABI_H

#include "types.h"

/* The cbench.h ABI version this mirror follows. */
#define CBENCH_KABI_VERSION 2

/*
 * struct cbench_tp_state of cbench.h.  The module sets it before each call
 * of run() of a run with timing points (kmod/tpoints.c) and zeroes it
 * otherwise; the benchmark may write anything into it, so the module reads
 * back nothing but next, and only as a count.
 */
struct cbench_ktp_state {
	u64 buf;		/* struct cbench_tp_record *; 0: record nothing */
	u64 capacity;
	u64 next;
	u64 every;
	u64 countdown;
};

/* struct cbench_ctx of cbench.h, CBENCH_ABI_VERSION 2 (and 1, where tp stays zero). */
struct cbench_kctx {
	u64 arena;		/* void *arena */
	u64 arena_bytes;
	u64 param;		/* int64_t param, two's complement */
	struct cbench_ktp_state tp;
};

#endif /* _CBENCH_LIB_ABI_H */
