/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CRC-32 of an image's bytes (include/uapi/linux/cbench.h,
 * CBENCH_A_IMAGE_CRC32): the same in cbenchctl, which sends it with
 * IMAGE_MAP, and in cbench.ko, which maps an image only if its bytes give
 * it.  IEEE 802.3's CRC-32, reflected, as zlib's crc32() and Ethernet
 * compute it.  Chunks out of order are refused as they come (their offset
 * must be the bytes received so far); this catches bytes changed between
 * the client's buffer and the module.  It is no defence against a client
 * that means harm (one can send any code with its right CRC).
 */
#ifndef _CBENCH_LIB_CRC32_H
#define _CBENCH_LIB_CRC32_H

#include "types.h"

/*
 * The CRC of bytes following those that gave crc: start from 0, and feed
 * the result back in to go on (cbench_crc32(cbench_crc32(0, a, n), b, m) is
 * the CRC of a then b).
 */
u32 cbench_crc32(u32 crc, const void *bytes, size_t n);

#endif /* _CBENCH_LIB_CRC32_H */
