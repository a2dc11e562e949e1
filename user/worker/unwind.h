/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Call stacks of this thread's own samples (sampler.h, with stacks): DWARF
 * call frame information (.eh_frame, else .debug_frame) through elfutils'
 * libdwfl, from the user registers and the copy of the stack each sample
 * carries; never from the live stack, which has moved on since.  Frame
 * pointers are not needed, so objects built with -O2 unwind too.  The
 * modules are those mapped when the unwinder opens.
 */
#ifndef _CBENCH_UNWIND_H
#define _CBENCH_UNWIND_H

#include <stddef.h>
#include <stdint.h>

#include "worker/sampler.h"

struct cbench_unwinder;

/* Reads this process's mappings.  Returns 0 or -errno with a sentence. */
int cbench_unwind_open(struct cbench_unwinder **out, char *err, size_t errlen);
void cbench_unwind_close(struct cbench_unwinder *u);

/*
 * The user-mode frames of rec, innermost first: the PC where the thread was
 * (for a kernel sample, where it entered the kernel), then each caller's
 * return address less one, so that every address falls inside the calling
 * function.  Returns how many were put in pcs, at most max; 0 when the
 * sample has no registers.
 */
size_t cbench_unwind(struct cbench_unwinder *u, const struct cbench_sampler_rec *rec, uint64_t *pcs,
		     size_t max);

#endif /* _CBENCH_UNWIND_H */
