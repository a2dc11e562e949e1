/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _CBENCH_RUN_H
#define _CBENCH_RUN_H

#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include "guard.h"
#include "image.h"
#include "lib/abi.h"
#include "object.h"
#include "pmu.h"
#include "stack.h"

struct cbench_audit;
struct nlattr;

/* What a client asks of a run; checked by the netlink layer. */
struct cbench_run_config {
	void *entry;			/* run() in a mapped image */
	void *setup;			/* setup() or NULL */
	void *before_rep;		/* per-rep hooks or NULL; with either, */
	void *after_rep;		/* every call is of one rep */
	u64 reps;			/* of the first sample */
	u64 reps_step;			/* added for each further sample */
	u64 reps_last;			/* of the last sample, the most: reps + (samples - 1) * reps_step */
	u32 samples;
	u32 cpu;
	u64 arena_bytes;
	s64 param;
	const struct nlattr *args;	/* CBENCH_A_RUN_ARGS, checked; NULL: none.
					 * Only until cbench_run_new() copies it. */
	u64 budget_ns;			/* IRQ-off budget per sample */
	u32 tp_records;			/* timing-point records per sample; 0: none */
	u64 tp_every;			/* record every tp_every-th point */
	u32 quiet;			/* enum cbench_quiet */
	s32 watcher;			/* the CPU asked to watch it, or -1: any free */
};

/*
 * A run: a kernel thread bound to one CPU taking samples of one benchmark.
 * The thread writes the samples and publishes their count with a release
 * store; readers load it with acquire and read no further.
 */
struct cbench_run {
	struct cbench_object obj;
	struct work_struct retire;	/* stops and unlists it once deleted (client.c) */
	struct cbench_image *image;	/* a reference to it */
	struct cbench_run_config config;
	/* An audit run's side B and order (audit.h); NULL for a single run. */
	struct cbench_audit *audit;

	void *arena;			/* ours; never read back from ctx */
	struct cbench_kctx ctx;
	struct cbench_kargs args;	/* what ctx.args points to (args.h) */
	struct cbench_pmu pmu;
	struct cbench_sample_rules rules;
	bool has_smi;			/* read MSR_SMI_COUNT (Intel) */

	struct cbench_ksample *samples;
	/* With timing points (tpoints.c): config.tp_records records per
	 * sample, and what each sample's call left in ctx.tp.next. */
	struct cbench_tp_krecord *tp_buf;
	u64 *tp_taken;
	u32 done;			/* samples recorded: release/acquire */
	u32 disturbed;
	u32 state;			/* enum cbench_run_state: release/acquire */
	s32 error;
	u32 failed_in;			/* enum cbench_run_stage, once FAILED */
	u64 hook_max_tsc;		/* CBENCH_HOOK_MAX_NS in TSC ticks */
	u64 probe_tsc;			/* the interrupts-on call, TSC ticks */
	struct cbench_stack stack;	/* what its calls run on (stack.c) */
	u64 stack_used;			/* the most of it they used, once ended */
	struct cbench_guard guard;	/* the watchdog over its calls (guard.c) */
	s32 watcher;			/* the CPU reserved to watch them, or -1
					 * (client.c); fixed while it runs */
	bool recovered;			/* the safety net ended one: FAILED */
	u32 calling_side;		/* whose code the thread calls: 0 A, 1 B */
	u32 recovered_side;		/* and whose call it ended (the thread's) */
	u32 flags_changed;		/* RFLAGS bits a call left changed: FAILED */
	struct cbench_ksample overhead;	/* least cost of an empty call */
	bool calibrated;
	bool cancel;

	struct task_struct *task;	/* held with get_task_struct until stopped */
	struct mutex stop_lock;		/* one stopper at a time */
	refcount_t refs;		/* the registry's, a dump's, each stopper's */
};

/*
 * A new run of image, which it holds, with one reference (the caller's);
 * counted in INFO's live runs.
 */
struct cbench_run *cbench_run_new(struct cbench_image *image,
				  const struct cbench_run_config *config);
int cbench_run_start(struct cbench_run *run);
/*
 * Stops the thread between two samples and waits for it; idempotent, and
 * safe without the registry lock while the caller holds a reference.
 */
void cbench_run_stop(struct cbench_run *run);
void cbench_run_get(struct cbench_run *run);
/* Drops a reference; the last one stops the run, frees it and releases its image. */
void cbench_run_put(struct cbench_run *run);

#endif /* _CBENCH_RUN_H */
