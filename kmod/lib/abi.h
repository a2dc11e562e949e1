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
 * struct cbench_ctx of cbench.h, CBENCH_ABI_VERSION 2 (and 1).  The module
 * collects no timing points yet: tp stays zero, so a benchmark's
 * cbench_tpoint() finds no buffer and records nothing (its marker still
 * counts), and the run measures the benchmark as plain reps.
 */
struct cbench_kctx {
	u64 arena;		/* void *arena */
	u64 arena_bytes;
	u64 param;		/* int64_t param, two's complement */
	u64 tp[5];		/* struct cbench_tp_state; all zero */
};

#endif /* _CBENCH_LIB_ABI_H */
