// SPDX-License-Identifier: GPL-2.0
/*
 * Runs: benchmark code called from ring 0 in a kernel thread bound to one
 * CPU.
 *
 * Never inside the netlink doit: generic netlink holds a lock there, and a
 * long run would stall every generic-netlink user on the machine.  The doit
 * starts the thread; the client polls RUN_GET and reads samples with a dump.
 *
 * A sample is one function, measure(), so the interrupts-off section is
 * never split: kernel_fpu_begin_mask() with interrupts on (it may have to
 * save the FPU state), interrupts off, edge, call, edge, interrupts on,
 * kernel_fpu_end().  In LVT mode (quiet.c) interrupts stay on and the local
 * APIC's entries are masked and restored in their place.  Interrupts stay off for one call only and we never
 * turn them off for a call we have not first timed with them on: a call
 * longer than the budget ends the run as TOO_LONG instead (so does a run of
 * samples over it).
 */
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/overflow.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <asm/fpu/api.h>
#include <asm/hardirq.h>
#include <asm/msr.h>
#include <asm/tsc.h>

#include "args.h"
#include "audit.h"
#include "guard.h"
#include "limits.h"
#include "quiet.h"
#include "run.h"
#include "tpoints.h"
#include "trampoline.h"

/* Empty calls measured to find the cost of the measurement itself. */
#define CALIBRATION_SAMPLES 64

/*
 * Samples in a row over the IRQ-off budget that end a run as TOO_LONG.  One
 * alone is a disturbance (a host preempting a VM, an SMI); several in a row
 * mean the benchmark itself is too long.
 */
#define OVER_BUDGET_IN_A_ROW 3

/*
 * One rep's cost times reps may exceed the budget this many times before we
 * refuse without trying all the reps: the per-call cost in one rep makes
 * that product an overestimate.
 */
#define PROBE_SLACK 4

/* Empty interrupts-on calls timed to find what timing a probe costs. */
#define PROBE_OVERHEAD_CALLS 8

/*
 * The one place the measured region is made quiet, by the run's mode (enum
 * cbench_quiet): interrupts off, or (quiet.c) interrupts on with the local
 * APIC's own sources masked.
 */
struct quiet {
	unsigned long flags;
	struct cbench_lvt_state lvt;
};

static __always_inline void quiet_begin(const struct cbench_run *run, struct quiet *q)
{
	if (run->config.quiet == CBENCH_QUIET_LVT)
		cbench_lvt_mask(&q->lvt);
	else
		local_irq_save(q->flags);
}

static __always_inline void quiet_end(const struct cbench_run *run, const struct quiet *q)
{
	if (run->config.quiet == CBENCH_QUIET_LVT)
		cbench_lvt_restore(&q->lvt);
	else
		local_irq_restore(q->flags);
}

/*
 * The edges of a sample, outermost first: interrupt, NMI and SMI counts and
 * the CPU, then the counters, then the TSC, so the TSC brackets the call
 * most tightly and the disturbance counts bracket everything.  Interrupts
 * are counted in LVT mode only: with them off none can arrive.
 */
static __always_inline void edge_begin(struct cbench_run *run, struct cbench_edge *edge)
{
	edge->irq_count = run->config.quiet == CBENCH_QUIET_LVT ? cbench_irq_count() : 0;
	edge->nmi_count = this_cpu_read(irq_stat.__nmi_count);
	edge->smi_count = 0;
	if (run->has_smi)
		rdmsrl(MSR_SMI_COUNT, edge->smi_count);
	edge->cpu = smp_processor_id();
	cbench_pmu_read(&run->pmu, edge, false);
	edge->tsc = rdtsc_ordered();
}

static __always_inline void edge_end(struct cbench_run *run, struct cbench_edge *edge)
{
	edge->tsc = rdtsc_ordered();
	cbench_pmu_read(&run->pmu, edge, true);
	edge->cpu = smp_processor_id();
	edge->smi_count = 0;
	if (run->has_smi)
		rdmsrl(MSR_SMI_COUNT, edge->smi_count);
	edge->nmi_count += this_cpu_read(irq_stat.__nmi_count);
	edge->irq_count = run->config.quiet == CBENCH_QUIET_LVT ? cbench_irq_count() : 0;
}

/* One sample of fn.  Interrupts are off from the first edge to the last. */
static void measure(struct cbench_run *run, void *fn, struct cbench_kctx *ctx, u64 reps,
		    struct cbench_ksample *sample)
{
	struct cbench_edge before = { 0 }, after = { 0 };
	struct quiet q;

	kernel_fpu_begin_mask(KFPU_387 | KFPU_MXCSR);
	quiet_begin(run, &q);
	edge_begin(run, &before);
	cbench_guarded_call(&run->guard, fn, ctx, reps);
	edge_end(run, &after);
	quiet_end(run, &q);
	kernel_fpu_end();
	cbench_sample_make(&run->rules, &before, &after, sample);
}

static bool should_stop(struct cbench_run *run)
{
	return kthread_should_stop() || READ_ONCE(run->cancel) || fatal_signal_pending(current);
}

/* Publishes the end: whoever reads the state with acquire sees all we wrote. */
static void finish(struct cbench_run *run, u32 state, s32 error)
{
	run->error = error;
	run->stack_used = cbench_stack_used(&run->stack);
	smp_store_release(&run->state, state);
}

/* Ends the run as FAILED in stage (enum cbench_run_stage) with error. */
static void fail(struct cbench_run *run, u32 stage, s32 error)
{
	run->failed_in = stage;
	finish(run, CBENCH_RUN_FAILED, error < 0 ? error : -EINVAL);
}

/*
 * Whether the safety net ended the last call (guard.c): then the run fails
 * in stage, with -ETIMEDOUT if the watchdog ended a call that did not
 * return, -EFAULT if the call raised an exception; and the image whose
 * code it was takes no more runs.  A call that returned with RFLAGS bits
 * changed that it must leave alone (interrupts turned on or off, the trap
 * or direction flag set) fails the run too, with -EPERM: whatever it
 * measured is not what the sample says.
 */
static bool recovered(struct cbench_run *run, u32 stage)
{
	unsigned int which = READ_ONCE(run->guard.recovered);
	unsigned int trap = READ_ONCE(run->guard.fault.trap);
	struct cbench_image *image;

	if (likely(!which)) {
		unsigned long changed = cbench_guard_flags_changed(&run->guard);

		if (likely(!changed))
			return false;
		run->flags_changed = changed;
		fail(run, stage, -EPERM);
		return true;
	}
	run->recovered_side = run->calling_side;
	image = which == 2 && run->audit ? run->audit->image : run->image;
	if (trap)
		WRITE_ONCE(image->trapped, true);
	else
		WRITE_ONCE(image->stuck, true);
	run->recovered = true;
	fail(run, stage, trap ? -EFAULT : -ETIMEDOUT);
	return true;
}

/*
 * A per-rep hook (Caliper's macrobenchmark instrument) around a call of
 * run(), outside the sample: interrupts on and preemption off, as for
 * setup().  User mode has rehearsed it; a hook that fails, or whose call
 * overran CBENCH_HOOK_MAX_NS here, ends the run as FAILED.  Returns true to
 * go on.
 */
static bool hook(struct cbench_run *run, void *fn, struct cbench_kctx *ctx, u32 stage)
{
	u64 t0, ticks;
	s32 ret;

	if (!fn)
		return true;
	kernel_fpu_begin_mask(KFPU_387 | KFPU_MXCSR);
	t0 = rdtsc_ordered();
	ret = (s32)cbench_guarded_call(&run->guard, fn, ctx, 0);
	ticks = rdtsc_ordered() - t0;
	kernel_fpu_end();
	if (recovered(run, stage))
		return false;
	if (ret) {
		fail(run, stage, ret);
		return false;
	}
	if (ticks > run->hook_max_tsc) {
		fail(run, stage, -ETIME);
		return false;
	}
	return true;
}

/* Every call of a side's code starts with this, or with call_setup(). */
static bool before_rep(struct cbench_run *run, const struct cbench_pick *side)
{
	run->calling_side = side->side;
	return hook(run, side->before_rep, side->ctx, CBENCH_STAGE_BEFORE_REP);
}

static bool after_rep(struct cbench_run *run, const struct cbench_pick *side)
{
	return hook(run, side->after_rep, side->ctx, CBENCH_STAGE_AFTER_REP);
}

/* The run has ended already (a hook failed it). */
static bool ended(struct cbench_run *run)
{
	return READ_ONCE(run->state) != CBENCH_RUN_RUNNING;
}

/* TSC ticks of one interrupts-on call of fn; preemption is off during it. */
static u64 time_call(struct cbench_run *run, void *fn, struct cbench_kctx *ctx, u64 reps)
{
	u64 t0, t1;

	kernel_fpu_begin_mask(KFPU_387 | KFPU_MXCSR);
	t0 = rdtsc_ordered();
	cbench_guarded_call(&run->guard, fn, ctx, reps);
	t1 = rdtsc_ordered();
	kernel_fpu_end();
	cond_resched();
	return t1 - t0;
}

/*
 * Would a call of target reps take at most limit ticks, judging by one of
 * reps reps that took ticks?  The fixed cost of a timed call, overhead, is
 * no rep's: we take it off (down to 0) and scale the rest up to target,
 * rounding up and saturating.
 */
static bool projected_within(u64 ticks, u64 overhead, u64 reps, u64 target, u64 limit)
{
	u64 net = ticks > overhead ? ticks - overhead : 0;
	u64 cost;

	if (check_mul_overflow(net, div64_u64(target + reps - 1, reps), &cost))
		return false;
	return cost <= limit;
}

/*
 * The least TSC ticks of up to a few interrupts-on calls of side's entry
 * at reps reps, stopping at one whose projection to target reps is within
 * limit; U64_MAX if stopped.
 */
static u64 probe(struct cbench_run *run, const struct cbench_pick *side, u64 reps, u64 overhead,
		 u64 target, u64 limit)
{
	u64 least = U64_MAX;
	u32 i;

	for (i = 0; i < OVER_BUDGET_IN_A_ROW; i++) {
		if (should_stop(run) || !before_rep(run, side))
			return U64_MAX;
		/* With timing points, the probe's calls record as a sample's do. */
		cbench_tp_arm(run, 0);
		least = min(least, time_call(run, side->entry, side->ctx, reps));
		cbench_tp_disarm(run);
		if (recovered(run, CBENCH_STAGE_RUN))
			return U64_MAX;
		if (!after_rep(run, side))
			return U64_MAX;
		if (projected_within(least, overhead, reps, target, limit))
			break;
	}
	return least;
}

/*
 * Calls with interrupts on tell us whether the budget allows the benchmark
 * at the most reps any sample does, the last sample's: a call's cost grows
 * with its reps, so that covers every sample.  Preemption is off during
 * them (the FPU is ours), so no call may run long either.  We time one
 * rep, then CBENCH_PROBE_RAMP times more at each step up to all of them
 * (cbench_probe_next(), which cbenchctl's user-mode rehearsal follows), and
 * refuse at once when the next step would plainly take far too long: each
 * call is bounded by the one before (never a single rep projected to 2^48:
 * the benchmark's own fixed cost per call would be multiplied with it).
 * The call of all the reps is the judge.  Interrupts, cold caches (or, in a
 * VM, the host) can stretch one call, so only the least of a few counts.
 * An audit run probes each side at its own reps (side->reps, the most any
 * of its samples does).  Returns true if the samples may go ahead.
 */
static bool probe_budget(struct cbench_run *run, const struct cbench_pick *side)
{
	u64 last = side->reps, budget = run->rules.budget_tsc;
	u64 overhead = U64_MAX, reps, next;
	u32 i;

	/*
	 * The fixed cost of a timed call (two rdtsc_ordered, the trampoline,
	 * a retpoline thunk) is tens of ticks: projected over a million reps
	 * it alone would outgrow any budget.
	 */
	for (i = 0; i < PROBE_OVERHEAD_CALLS; i++) {
		if (should_stop(run))
			return false;
		overhead = min(overhead, time_call(run, cbench_empty, side->ctx, 0));
	}
	for (reps = 1; reps < last; reps = next) {
		next = cbench_probe_next(reps, last);
		run->probe_tsc = probe(run, side, reps, overhead, next, PROBE_SLACK * budget);
		if (!projected_within(run->probe_tsc, overhead, reps, next, PROBE_SLACK * budget))
			return false;
	}
	run->probe_tsc = probe(run, side, last, 0, last, budget);
	return run->probe_tsc <= budget;
}

/* setup() with interrupts on (it may use SIMD too): 0 or its refusal. */
static s32 call_setup(struct cbench_run *run, const struct cbench_pick *side)
{
	s32 ret;

	run->calling_side = side->side;
	if (!side->setup)
		return 0;
	kernel_fpu_begin_mask(KFPU_387 | KFPU_MXCSR);
	ret = (s32)cbench_guarded_call(&run->guard, side->setup, side->ctx, 0);
	kernel_fpu_end();
	/* An audit run's second setup() would otherwise follow without a break. */
	cond_resched();
	return ret;
}

static void run_samples(struct cbench_run *run)
{
	struct cbench_pick side[CBENCH_AUDIT_SIDES], pick;
	struct cbench_ksample sample;
	u32 i, s, nsides, over = 0;
	u64 probe_tsc = 0;

	/* An audit run's sides, A then B; a single run has one (audit.c). */
	nsides = cbench_run_sides(run, side);
	for (s = 0; s < nsides; s++) {
		s32 ret = call_setup(run, &side[s]);

		if (recovered(run, CBENCH_STAGE_SETUP))
			return;
		if (ret) {
			fail(run, CBENCH_STAGE_SETUP, ret);
			return;
		}
	}
	for (s = 0; s < nsides; s++) {
		if (!probe_budget(run, &side[s])) {
			if (!ended(run))
				finish(run, READ_ONCE(run->cancel) ? CBENCH_RUN_CANCELLED :
				       CBENCH_RUN_TOO_LONG, 0);
			return;
		}
		probe_tsc = max(probe_tsc, run->probe_tsc);
	}
	run->probe_tsc = probe_tsc;

	for (i = 0; i < CALIBRATION_SAMPLES && !should_stop(run); i++) {
		measure(run, cbench_empty, side[0].ctx, 0, &sample);
		if (recovered(run, CBENCH_STAGE_RUN))
			return;
		if (sample.flags)
			continue;
		if (!run->calibrated)
			run->overhead = sample;
		cbench_sample_least(&run->overhead, &sample);
		run->calibrated = true;
		cond_resched();
	}

	for (i = 0; i < run->config.samples; i++) {
		if (should_stop(run)) {
			finish(run, CBENCH_RUN_CANCELLED, 0);
			return;
		}
		cbench_run_pick(run, i, &pick);
		if (!before_rep(run, &pick))
			return;
		cbench_tp_arm(run, i);
		measure(run, pick.entry, pick.ctx, pick.reps, &run->samples[i]);
		if (recovered(run, CBENCH_STAGE_RUN))
			return;
		cbench_tp_collect(run, i);
		if (!after_rep(run, &pick))
			return;
		if (run->samples[i].flags)
			run->disturbed++;
		smp_store_release(&run->done, i + 1);
		over = run->samples[i].flags & CBENCH_SAMPLE_F_OVER_BUDGET ? over + 1 : 0;
		if (over == OVER_BUDGET_IN_A_ROW) {
			finish(run, CBENCH_RUN_TOO_LONG, 0);
			return;
		}
		cond_resched();
	}
	finish(run, CBENCH_RUN_DONE, 0);
}

static int run_thread(void *data)
{
	struct cbench_run *run = data;
	struct cbench_image *b = run->audit ? run->audit->image : NULL;

	cbench_guard_start(&run->guard, run->config.cpu, run->watcher, &run->stack, run->image->bytes,
			   run->image->image_bytes, b ? b->bytes : NULL, b ? b->image_bytes : 0);
	run_samples(run);
	cbench_guard_stop(&run->guard);
	return 0;
}

struct cbench_run *cbench_run_new(struct cbench_image *image,
				  const struct cbench_run_config *config)
{
	struct cbench_run *run;

	run = kzalloc(sizeof(*run), GFP_KERNEL);
	if (!run)
		return NULL;
	run->image = image;
	run->config = *config;
	run->watcher = -1;
	run->samples = kvcalloc(config->samples, sizeof(*run->samples), GFP_KERNEL);
	if (!run->samples)
		goto fail;
	if (config->arena_bytes) {
		run->arena = vzalloc(config->arena_bytes);
		if (!run->arena)
			goto fail;
	}
	if (cbench_tp_alloc(run) || cbench_stack_new(&run->stack))
		goto fail;
	run->ctx.arena = (u64)(unsigned long)run->arena;
	run->ctx.arena_bytes = config->arena_bytes;
	run->ctx.param = (u64)config->param;
	cbench_args_set(&run->args, &run->ctx, config->args);
	run->config.args = NULL;	/* the request's, gone after this */
	run->state = CBENCH_RUN_RUNNING;
	mutex_init(&run->stop_lock);
	refcount_set(&run->refs, 1);
	cbench_image_get(image);
	atomic_inc(&cbench_live.runs);
	return run;
fail:
	cbench_stack_free(&run->stack);
	cbench_tp_free(run);
	vfree(run->arena);
	kvfree(run->samples);
	kfree(run);
	return NULL;
}

int cbench_run_start(struct cbench_run *run)
{
	struct task_struct *task;
	int ret;
	u64 smi;

	ret = cbench_pmu_open(&run->pmu, run->config.cpu);
	if (ret)
		return ret;
	run->rules.cpu = run->config.cpu;
	run->rules.counters = run->pmu.counters;
	memcpy(run->rules.width_bits, run->pmu.width_bits, sizeof(run->rules.width_bits));
	run->rules.budget_tsc = div_u64(run->config.budget_ns * (tsc_khz ? tsc_khz : 1000000),
					 1000000);
	run->hook_max_tsc = div_u64(CBENCH_HOOK_MAX_NS * (tsc_khz ? tsc_khz : 1000000), 1000000);
	/*
	 * QEMU answers 0 for MSRs it does not know, so a read that does not
	 * fault proves nothing: we read MSR_SMI_COUNT on Intel only.
	 */
	run->has_smi = boot_cpu_data.x86_vendor == X86_VENDOR_INTEL &&
		       !rdmsrl_safe(MSR_SMI_COUNT, &smi);

	task = kthread_create_on_cpu(run_thread, run, run->config.cpu, "cbench/%u");
	if (IS_ERR(task)) {
		cbench_pmu_close(&run->pmu);
		return PTR_ERR(task);
	}
	get_task_struct(task);
	run->task = task;
	wake_up_process(task);
	return 0;
}

void cbench_run_stop(struct cbench_run *run)
{
	mutex_lock(&run->stop_lock);
	if (run->task) {
		WRITE_ONCE(run->cancel, true);
		/* The thread may have returned already; our reference keeps it valid. */
		kthread_stop(run->task);
		put_task_struct(run->task);
		run->task = NULL;
		/* A thread that died in a call left its watcher's timer armed:
		 * stopped before the run ends, so the CPUs are free only then. */
		cbench_guard_stop(&run->guard);
		if (READ_ONCE(run->state) == CBENCH_RUN_RUNNING)
			finish(run, CBENCH_RUN_CANCELLED, 0);
		cbench_pmu_close(&run->pmu);
	}
	mutex_unlock(&run->stop_lock);
}

void cbench_run_get(struct cbench_run *run)
{
	refcount_inc(&run->refs);
}

void cbench_run_put(struct cbench_run *run)
{
	if (!refcount_dec_and_test(&run->refs))
		return;
	/* The thread runs the image's code until it stops: stop, then release. */
	cbench_run_stop(run);
	/* Whatever ended the thread, nothing that reaches the guard outlives it. */
	cbench_guard_release(&run->guard);
	cbench_pmu_close(&run->pmu);
	cbench_audit_free(run->audit);
	cbench_image_put(run->image);
	vfree(run->arena);
	cbench_tp_free(run);
	cbench_stack_free(&run->stack);
	kvfree(run->samples);
	kfree(run);
	atomic_dec(&cbench_live.runs);
}
