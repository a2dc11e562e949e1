/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The few types kmod/lib/ needs, from the kernel when it is built into
 * cbench.ko and from libc when it is built into cbenchctl and the unit tests.
 * Files in kmod/lib/ include nothing else, so they stay pure logic.
 */
#ifndef _CBENCH_LIB_TYPES_H
#define _CBENCH_LIB_TYPES_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
typedef uint8_t u8;
typedef uint32_t u32;
typedef uint64_t u64;
#endif

/* The protocol's structures and flags; by relative path, so neither build needs an -I for it. */
#include "../../include/uapi/linux/cbench.h"

#endif /* _CBENCH_LIB_TYPES_H */
