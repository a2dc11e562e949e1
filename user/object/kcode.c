// SPDX-License-Identifier: GPL-2.0
/*
 * What a kernel image's code may not do (kimage.h: cbench_kimage_check_code()).
 *
 * The user-mode rehearsal stops what faults in user mode, but code can take
 * another path in ring 0 (it can ask which ring it runs in), and there
 * instructions that user mode refuses run with the kernel's privileges: a
 * syscall from ring 0 enters the kernel's entry code with the kernel's own
 * GS base, wrgsbase replaces it, a move to CR0 or a wrmsr rewires the CPU.
 * Others the kernel does not stop in ring 0: int1, which it ignores, and
 * int $3 in its two-byte encoding, which 6.1's kprobes resume at its second
 * byte.  None has a place in a benchmark, so we walk every instruction of
 * every function, as the compiler laid them out, and refuse the object
 * that has one.  Bytes we cannot decode end the walk of that function.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "object/kimage.h"
#include "object/x86insn.h"

int cbench_kimage_check_code(const struct cbench_kimage *image, const char *path, char *why,
			     size_t why_bytes)
{
	for (uint32_t i = 0; i < image->nfuncs; i++) {
		const struct cbench_kimage_func *f = &image->funcs[i];
		uint64_t at = f->offset, end = f->offset + f->bytes;

		while (at < end && end <= image->image_bytes) {
			struct cbench_x86_insn insn;
			size_t n = cbench_x86_decode(image->bytes + at, (size_t)(end - at), &insn);
			char hazard[256];

			if (!n)
				break;
			if (cbench_x86_ring0_hazard(&insn, hazard, sizeof(hazard))) {
				snprintf(why, why_bytes, "%s: %s() has %s, at 0x%" PRIx64 " of the "
					 "object: cbench.ko would run it in ring 0, and the user-mode "
					 "rehearsal cannot stop code that avoids it there; remove it, "
					 "or measure with --backend user", path, f->name, hazard,
					 image->base + at);
				return -EINVAL;
			}
			at += n;
		}
	}
	return 0;
}
