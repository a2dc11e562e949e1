// SPDX-License-Identifier: GPL-2.0
/*
 * The safety net: a call of benchmark code that never returns is ended
 * from another CPU, and the CPU comes back.
 *
 * cbenchctl rehearses every call in user mode first, but a raw client
 * skips that, and code can behave otherwise in ring 0 (a loop on the TSC,
 * on a value only ring 0 sees, on the number of calls so far).  Such a call
 * would hold its CPU with preemption, and perhaps interrupts, off until the
 * machine is rebooted.
 *
 * Each call goes through the trampoline, which leaves in the run's guard
 * the stack pointer and frame at the call and the flags at entry.  A
 * hard-interrupt timer on another CPU watches the guard's call count; when one call has lasted
 * call_limit_ms, it sends the measuring CPU an NMI, the one interrupt that
 * reaches code running with interrupts off.  The NMI handler, finding that
 * CPU inside the call (its instruction pointer in the run's image, its
 * stack below the trampoline's), returns from the NMI to the trampoline's
 * exit instead, with the trampoline's stack, frame and flags: the
 * trampoline then restores the callee-saved registers it pushed and
 * returns as from any call.  The run fails saying so, and the image is
 * refused from then on.  Where the NMI lands outside the call (in an
 * interrupt handler, say), it does nothing and the timer sends another.
 *
 * The NMI's return frame.  Without FRED, the kernel's NMI entry keeps two
 * copies of the interrupted context's return frame on the NMI stack: the
 * "outermost" one, which is the tail of the pt_regs handlers get, and the
 * "iret" one just above it, which the final IRETQ reads (nested NMIs
 * rewrite it to repeat the handler; entry_64.S).  Changing regs alone
 * would be undone, so we change both, and the "iret" copy only when it is
 * word for word the "outermost" one: if it is not (a nested NMI pointed it
 * at repeat_nmi, which copies "outermost" over it anyway, or a layout we
 * do not know), we leave it alone.  With FRED, regs is the return frame.
 *
 * NMIs can merge and arrive late: for two seconds after sending one, any
 * NMI on that CPU that no other handler claims is taken as ours, rather
 * than reported as unknown (which may panic).
 *
 * Exceptions.  Code that is fine in user mode can fault in ring 0 (a
 * raw client's upload was never rehearsed; ring 0 reads other values), and
 * an exception in kernel code that no fixup claims kills the kernel: an
 * oops with the CPU's preemption count, FPU and run all held.  Before it
 * dies, the kernel asks the die notifiers: for int3 (DIE_INT3), #GP
 * (DIE_GPF), and the traps that go through do_error_trap() or
 * math_error() (DIE_TRAP: #DE, #UD, #OF, #BR, #TS, #NP, #SS, #AC, #MF,
 * #XM).  The one-byte int3 only: the kprobes handler takes `int $3`.
 * Ours, finding the faulting instruction in the image of this CPU's
 * current call and its stack below the trampoline's, resumes at the
 * trampoline's exit as the NMI handler does (an exception's return frame
 * is its pt_regs alone) and the run fails naming the exception.  Page
 * faults ask no notifier before the oops: a benchmark that touches memory
 * it may not is stopped by the rehearsal or not at all
 * (docs/trust-model.md).
 */
#include <linux/build_bug.h>
#include <linux/cpumask.h>
#include <linux/hrtimer.h>
#include <linux/irqflags.h>
#include <linux/jiffies.h>
#include <linux/kdebug.h>
#include <linux/smp.h>
#include <linux/minmax.h>
#include <linux/printk.h>
#include <linux/stddef.h>
#include <asm/apic.h>
#include <asm/cpufeature.h>
#include <asm/nmi.h>
#include <asm/trapnr.h>
#include <asm/ptrace.h>

#include "guard.h"
#include "limits.h"

/* trampoline.S writes these. */
static_assert(offsetof(struct cbench_guard, sp) == 0);
static_assert(offsetof(struct cbench_guard, bp) == 8);
static_assert(offsetof(struct cbench_guard, flags) == 16);
static_assert(offsetof(struct cbench_guard, inside) == 24);

/* How long after sending an NMI a CPU's unclaimed NMIs are taken as ours. */
#define CLAIM_JIFFIES (2 * HZ)

DEFINE_PER_CPU(struct cbench_guard *, cbench_guard_here);
static DEFINE_PER_CPU(unsigned long, claim_until);

/* Which of guard's images ip is in, or -1. */
static int image_at(const struct cbench_guard *guard, unsigned long ip)
{
	int i;

	for (i = 0; i < CBENCH_GUARD_IMAGES; i++)
		if (ip >= guard->image[i].lo && ip < guard->image[i].hi)
			return i;
	return -1;
}

static bool fred_frame(void)
{
#ifdef X86_FEATURE_FRED
	return cpu_feature_enabled(X86_FEATURE_FRED);
#else
	return false;
#endif
}

/* Whether regs are on the stack guard's call was made on, below the trampoline's frame. */
static bool on_call_stack(const struct cbench_guard *guard, const struct pt_regs *regs)
{
	return regs->sp < guard->sp && guard->sp - regs->sp <= THREAD_SIZE;
}

/*
 * Ends guard's call of code in image: regs, the frame the interrupted CPU
 * returns through, now return to the trampoline's exit with its stack,
 * frame and flags, and the run learns the call was ended.
 */
static void end_call(struct pt_regs *regs, struct cbench_guard *guard, int image)
{
	regs->ip = (unsigned long)cbench_trampoline_resume;
	regs->sp = guard->sp;
	regs->bp = guard->bp;
	regs->flags = guard->flags;
	regs->ax = 0;
	WRITE_ONCE(guard->inside, 0);
	WRITE_ONCE(guard->recovered, image + 1);
}

/* end_call() from the NMI handler, and its "iret" copy; see the comment at the top. */
static void nmi_end_call(struct pt_regs *regs, struct cbench_guard *guard, int image)
{
	unsigned long *iret = (unsigned long *)(regs + 1);
	bool copy = !fred_frame() && iret[0] == regs->ip && iret[1] == regs->cs &&
		    iret[2] == regs->flags && iret[3] == regs->sp && iret[4] == regs->ss;

	end_call(regs, guard, image);
	if (copy) {
		iret[0] = regs->ip;
		iret[2] = regs->flags;
		iret[3] = regs->sp;
	}
}

/* Why an NMI left a call it was sent to end alone (the watcher says so). */
enum cbench_guard_miss { MISS_NONE, MISS_OUTSIDE_IMAGE, MISS_STACK };
static const char *const miss_text[] = {
	[MISS_NONE] = "none of them arrived",
	[MISS_OUTSIDE_IMAGE] = "the last found the CPU outside the benchmark's code",
	[MISS_STACK] = "the last found the CPU on another stack than the call's",
};

static int cbench_nmi(unsigned int type, struct pt_regs *regs)
{
	struct cbench_guard *guard = this_cpu_read(cbench_guard_here);
	int ours = time_before(jiffies, this_cpu_read(claim_until)) ? NMI_HANDLED : NMI_DONE;
	unsigned long calls;
	int image;

	if (!guard || !READ_ONCE(guard->inside))
		return ours;
	calls = READ_ONCE(guard->calls);
	if (!(calls & 1) || READ_ONCE(guard->kill) != calls)
		return ours;
	WRITE_ONCE(guard->nmi_ip, regs->ip);
	/* In the benchmark's code, on the stack the trampoline called it on. */
	image = image_at(guard, regs->ip);
	if (image < 0 || regs->cs != __KERNEL_CS) {
		WRITE_ONCE(guard->nmi_why, MISS_OUTSIDE_IMAGE);
		return ours;
	}
	if (!on_call_stack(guard, regs)) {
		WRITE_ONCE(guard->nmi_why, MISS_STACK);
		return ours;
	}
	nmi_end_call(regs, guard, image);
	return NMI_HANDLED;
}

/*
 * The die notifier: an exception in the benchmark's code ends its call;
 * see the comment at the top.  Anything else is left to the kernel.
 */
static int cbench_die(struct notifier_block *nb, unsigned long val, void *data)
{
	struct die_args *args = data;
	struct pt_regs *regs = args->regs;
	struct cbench_guard *guard;
	unsigned long ip;
	int image;

	if ((val != DIE_INT3 && val != DIE_GPF && val != DIE_TRAP) || !regs || user_mode(regs))
		return NOTIFY_DONE;
	guard = this_cpu_read(cbench_guard_here);
	if (!guard || !READ_ONCE(guard->inside) || !(READ_ONCE(guard->calls) & 1))
		return NOTIFY_DONE;
	/* int3 reports the address after itself. */
	ip = val == DIE_INT3 ? regs->ip - 1 : regs->ip;
	image = image_at(guard, ip);
	if (image < 0 || regs->cs != __KERNEL_CS || !on_call_stack(guard, regs))
		return NOTIFY_DONE;
	/*
	 * The handlers of #GP, #MF and #XM turn interrupts on before asking
	 * us if the code ran with them on, and off again on the way out only
	 * if the frame they return to had them on.  Returning to a call made
	 * with interrupts off, we turn them off ourselves, as they would have.
	 */
	if (!(guard->flags & X86_EFLAGS_IF) && !irqs_disabled())
		local_irq_disable();
	WRITE_ONCE(guard->trap, args->trapnr + 1);
	WRITE_ONCE(guard->trap_offset, ip - guard->image[image].lo);
	end_call(regs, guard, image);
	return NOTIFY_STOP;
}

static struct notifier_block cbench_die_nb = {
	.notifier_call = cbench_die,
	/* First: it acts only on the image's code, which no other knows. */
	.priority = INT_MAX,
};

static u64 limit_ns(void)
{
	return (u64)cbench_limits.call_ms * NSEC_PER_MSEC;
}

/*
 * The watcher: a hard-interrupt hrtimer pinned to another CPU, every
 * quarter of the limit.  Hard, not a timer_list: a softirq may wait for
 * ksoftirqd, which cannot run while that CPU spins in a cross-CPU call
 * waiting for the stuck one (a TLB flush, an expedited grace period); its
 * hard interrupt still fires, and the NMI it sends frees both.
 */
static enum hrtimer_restart watch(struct hrtimer *timer)
{
	struct cbench_guard *guard = container_of(timer, struct cbench_guard, timer);
	unsigned long calls = READ_ONCE(guard->calls);
	u64 now = ktime_get_ns();

	if (!READ_ONCE(guard->watching))
		return HRTIMER_NORESTART;
	if (!(calls & 1) || calls != guard->seen_calls) {
		guard->seen_calls = calls;
		guard->seen_at = now;
	} else if (now - guard->seen_at >= limit_ns()) {
		if (READ_ONCE(guard->kill) != calls) {
			pr_warn("CPU %u: a call of benchmark code has not returned after %u ms; ending it by NMI\n",
				guard->cpu, cbench_limits.call_ms);
			guard->resent = 0;
			WRITE_ONCE(guard->nmi_why, MISS_NONE);
		} else if (++guard->resent == 16) {
			unsigned int why = READ_ONCE(guard->nmi_why);

			pr_warn("CPU %u: %u NMIs have not ended the call: %s (at %pS)\n",
				guard->cpu, guard->resent, why < ARRAY_SIZE(miss_text) ?
				miss_text[why] : "?", (void *)READ_ONCE(guard->nmi_ip));
		}
		WRITE_ONCE(per_cpu(claim_until, guard->cpu), jiffies + CLAIM_JIFFIES);
		WRITE_ONCE(guard->kill, calls);
		/* The handler must see both before the NMI lands. */
		smp_mb();
		apic->send_IPI(guard->cpu, NMI_VECTOR);
	}
	hrtimer_forward_now(timer, ns_to_ktime(limit_ns() / 4));
	return HRTIMER_RESTART;
}

/* On the watcher's CPU: starts its pinned timer there. */
static void start_watch(void *data)
{
	struct cbench_guard *guard = data;

	hrtimer_start(&guard->timer, ns_to_ktime(limit_ns() / 4), HRTIMER_MODE_REL_PINNED_HARD);
}

bool cbench_guard_can_watch(unsigned int cpu)
{
	return cbench_limits.unwatched || cpumask_any_but(cpu_online_mask, cpu) < nr_cpu_ids;
}

void cbench_guard_start(struct cbench_guard *guard, unsigned int cpu, const void *a, u64 a_bytes,
			const void *b, u64 b_bytes)
{
	unsigned int watcher;

	memset(guard, 0, sizeof(*guard));
	guard->cpu = cpu;
	if (a) {
		guard->image[0].lo = (unsigned long)a;
		guard->image[0].hi = (unsigned long)a + a_bytes;
	}
	if (b) {
		guard->image[1].lo = (unsigned long)b;
		guard->image[1].hi = (unsigned long)b + b_bytes;
	}
	hrtimer_init(&guard->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	guard->timer.function = watch;
	WRITE_ONCE(guard->watching, true);
	/* Any other online CPU: the next one up from ours, round the mask. */
	for_each_online_cpu(watcher) {
		if (watcher == cpu)
			continue;
		if (!smp_call_function_single(watcher, start_watch, guard, 1)) {
			guard->watcher = watcher;
			return;
		}
	}
	/* No other CPU: cbench_guard_can_watch() said so before the run began. */
}

void cbench_guard_stop(struct cbench_guard *guard)
{
	WRITE_ONCE(guard->watching, false);
	/* Waits for a running watch(); it re-arms no more. */
	hrtimer_cancel(&guard->timer);
}

int cbench_guard_init(void)
{
	int ret = register_nmi_handler(NMI_LOCAL, cbench_nmi, 0, "cbench");

	if (ret)
		return ret;
	ret = register_die_notifier(&cbench_die_nb);
	if (ret)
		unregister_nmi_handler(NMI_LOCAL, "cbench");
	return ret;
}

void cbench_guard_exit(void)
{
	/* Every run has stopped: no guard is in use. */
	unregister_die_notifier(&cbench_die_nb);
	unregister_nmi_handler(NMI_LOCAL, "cbench");
}
