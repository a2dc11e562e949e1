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
 * the stack pointer and frame at the call and the flags at entry.  A timer
 * on another CPU watches the guard's call count; when one call has lasted
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
 */
#include <linux/build_bug.h>
#include <linux/cpumask.h>
#include <linux/jiffies.h>
#include <linux/minmax.h>
#include <linux/printk.h>
#include <linux/stddef.h>
#include <asm/apic.h>
#include <asm/cpufeature.h>
#include <asm/nmi.h>
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

static unsigned long limit_jiffies(void)
{
	return msecs_to_jiffies(cbench_limits.call_ms);
}

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

/* Makes the NMI return to the trampoline's exit; see the comment at the top. */
static void resume_at_exit(struct pt_regs *regs, const struct cbench_guard *guard)
{
	unsigned long *iret = (unsigned long *)(regs + 1);
	bool copy = !fred_frame() && iret[0] == regs->ip && iret[1] == regs->cs &&
		    iret[2] == regs->flags && iret[3] == regs->sp && iret[4] == regs->ss;

	regs->ip = (unsigned long)cbench_trampoline_resume;
	regs->sp = guard->sp;
	regs->bp = guard->bp;
	regs->flags = guard->flags;
	regs->ax = 0;
	if (copy) {
		iret[0] = regs->ip;
		iret[2] = regs->flags;
		iret[3] = regs->sp;
	}
}

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
	/* In the benchmark's code, on the stack the trampoline called it on. */
	image = image_at(guard, regs->ip);
	if (image < 0 || regs->cs != __KERNEL_CS || regs->sp >= guard->sp ||
	    guard->sp - regs->sp > THREAD_SIZE)
		return ours;
	resume_at_exit(regs, guard);
	WRITE_ONCE(guard->inside, 0);
	WRITE_ONCE(guard->recovered, image + 1);
	return NMI_HANDLED;
}

/* Adds the watcher's timer on the next online CPU but the guarded one. */
static void watch_from_another(struct cbench_guard *guard)
{
	unsigned int cpu = guard->watcher, i;

	for (i = 0; i < 2; i++) {
		cpu = cpumask_next(cpu, cpu_online_mask);
		if (cpu >= nr_cpu_ids)
			cpu = cpumask_first(cpu_online_mask);
		if (cpu != guard->cpu)
			break;
	}
	if (cpu >= nr_cpu_ids || cpu == guard->cpu)
		return;		/* no other CPU: cbench_guard_can_watch() said so */
	guard->watcher = cpu;
	guard->timer.expires = jiffies + max(1UL, limit_jiffies() / 4);
	add_timer_on(&guard->timer, cpu);
}

static void watch(struct timer_list *timer)
{
	struct cbench_guard *guard = container_of(timer, struct cbench_guard, timer);
	unsigned long calls = READ_ONCE(guard->calls), now = jiffies;

	if (!(calls & 1) || calls != guard->seen_calls) {
		guard->seen_calls = calls;
		guard->seen_at = now;
	} else if (time_after_eq(now, guard->seen_at + limit_jiffies())) {
		if (READ_ONCE(guard->kill) != calls)
			pr_warn("CPU %u: a call of benchmark code has not returned after %u ms; ending it by NMI\n",
				guard->cpu, cbench_limits.call_ms);
		WRITE_ONCE(per_cpu(claim_until, guard->cpu), now + CLAIM_JIFFIES);
		WRITE_ONCE(guard->kill, calls);
		/* The handler must see both before the NMI lands. */
		smp_mb();
		apic->send_IPI(guard->cpu, NMI_VECTOR);
	}
	if (READ_ONCE(guard->watching))
		watch_from_another(guard);
}

bool cbench_guard_can_watch(unsigned int cpu)
{
	return cbench_limits.unwatched || cpumask_any_but(cpu_online_mask, cpu) < nr_cpu_ids;
}

void cbench_guard_start(struct cbench_guard *guard, unsigned int cpu, const void *a, u64 a_bytes,
			const void *b, u64 b_bytes)
{
	memset(guard, 0, sizeof(*guard));
	guard->cpu = cpu;
	guard->watcher = cpu;
	if (a) {
		guard->image[0].lo = (unsigned long)a;
		guard->image[0].hi = (unsigned long)a + a_bytes;
	}
	if (b) {
		guard->image[1].lo = (unsigned long)b;
		guard->image[1].hi = (unsigned long)b + b_bytes;
	}
	timer_setup(&guard->timer, watch, 0);
	WRITE_ONCE(guard->watching, true);
	watch_from_another(guard);
}

void cbench_guard_stop(struct cbench_guard *guard)
{
	WRITE_ONCE(guard->watching, false);
	/* Waits for a running watch(), and deletes what it re-added. */
	del_timer_sync(&guard->timer);
}

int cbench_guard_init(void)
{
	return register_nmi_handler(NMI_LOCAL, cbench_nmi, 0, "cbench");
}

void cbench_guard_exit(void)
{
	/* Every run has stopped: no guard is in use. */
	unregister_nmi_handler(NMI_LOCAL, "cbench");
}
