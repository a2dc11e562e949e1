// SPDX-License-Identifier: GPL-2.0
/*
 * Loop timing points (cbench.h's cbench_tpoint()) in ring 0.
 *
 * The benchmark owns its context while it runs and may have written
 * anything into ctx.tp: a huge next or capacity, a buf pointing anywhere.
 * So we set every field again before each call, read back next alone, as a
 * number we clamp before it indexes anything, and read records only from
 * our own buffer, never through ctx.tp.buf.  The buffer is zeroed when
 * allocated, so records a lying call claims but never wrote read as zero,
 * never as stale kernel memory.
 */
#include <linux/minmax.h>
#include <linux/slab.h>

#include "tpoints.h"

int cbench_tp_alloc(struct cbench_run *run)
{
	size_t n = (size_t)run->config.samples * run->config.tp_records;

	if (!run->config.tp_records)
		return 0;
	/* netlink_run.c has bounded n by the module's tp_records. */
	run->tp_buf = kvcalloc(n, sizeof(*run->tp_buf), GFP_KERNEL);
	run->tp_taken = kvcalloc(run->config.samples, sizeof(*run->tp_taken), GFP_KERNEL);
	if (!run->tp_buf || !run->tp_taken) {
		cbench_tp_free(run);
		return -ENOMEM;
	}
	return 0;
}

void cbench_tp_free(struct cbench_run *run)
{
	kvfree(run->tp_buf);
	kvfree(run->tp_taken);
	run->tp_buf = NULL;
	run->tp_taken = NULL;
}

void cbench_tp_arm(struct cbench_run *run, u32 sample)
{
	struct cbench_ktp_state *tp = &run->ctx.tp;

	if (!run->tp_buf) {
		cbench_tp_disarm(run);
		return;
	}
	tp->buf = (u64)(unsigned long)&run->tp_buf[(size_t)sample * run->config.tp_records];
	tp->capacity = run->config.tp_records;
	tp->next = 0;
	tp->every = run->config.tp_every;
	/* cbench_tpoint() counts down before it records: the every-th point records first. */
	tp->countdown = run->config.tp_every;
}

void cbench_tp_disarm(struct cbench_run *run)
{
	memset(&run->ctx.tp, 0, sizeof(run->ctx.tp));
}

void cbench_tp_collect(struct cbench_run *run, u32 sample)
{
	if (run->tp_taken)
		run->tp_taken[sample] = READ_ONCE(run->ctx.tp.next);
	cbench_tp_disarm(run);
}

u32 cbench_tp_kept(const struct cbench_run *run, u32 sample)
{
	return (u32)min_t(u64, run->tp_taken[sample], run->config.tp_records);
}
