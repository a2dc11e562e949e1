/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The benchmark ABI as cbench.ko sees it.  include/cbench.h needs
 * <stdint.h>, which a kernel build does not have, so the module mirrors the
 * one structure it hands a benchmark; user/object/kimage_load.c checks the mirror
 * against the header field by field, at compile time.
 */
#ifndef _CBENCH_LIB_ABI_H
#define _CBENCH_LIB_ABI_H

#include "types.h"

/* The cbench.h ABI version this mirror follows. */
#define CBENCH_KABI_VERSION 3

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

/* cbench.h's CBENCH_KEYS_MAX, CBENCH_NAME_MAX and CBENCH_STR_MAX. */
#define CBENCH_KARGS_MAX 8
#define CBENCH_KKEY_BYTES 64
#define CBENCH_KSTR_BYTES 32

/* struct cbench_arg of cbench.h: one key's value in the current set. */
struct cbench_karg {
	u64 key;		/* const char *: the key's name */
	u64 str;		/* const char *: a string value; 0 for an integer key */
	u64 i;			/* int64_t: the integer value, or the string's index */
};

/*
 * struct cbench_ctx of cbench.h, CBENCH_ABI_VERSION 3 (1 and 2 read less
 * of it; in 1, tp stays zero).
 */
struct cbench_kctx {
	u64 arena;		/* void *arena */
	u64 arena_bytes;
	u64 param;		/* int64_t param, two's complement */
	struct cbench_ktp_state tp;
	u64 args;		/* const struct cbench_arg *; 0 without */
	u32 nargs;
	u32 reserved;
};

/*
 * A run's (or an audit side's) parameter set, in the module's memory: what
 * ctx.args points to, and the strings its entries point to.  Set once
 * before the run starts; the module never reads it back.
 */
struct cbench_kargs {
	struct cbench_karg arg[CBENCH_KARGS_MAX];
	char key[CBENCH_KARGS_MAX][CBENCH_KKEY_BYTES];
	char str[CBENCH_KARGS_MAX][CBENCH_KSTR_BYTES];
};

#endif /* _CBENCH_LIB_ABI_H */
