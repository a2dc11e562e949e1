// SPDX-License-Identifier: GPL-2.0
/*
 * The safety net: a call of benchmark code that never returns is ended
 * from another CPU, one that faults is ended where it faulted, and the CPU
 * comes back.
 *
 * cbenchctl rehearses every call in user mode first, but a raw client
 * skips that, and code can behave otherwise in ring 0 (a loop on the TSC,
 * on a value only ring 0 sees, on the number of calls so far).  Such a call
 * would hold its CPU with preemption, and perhaps interrupts, off until the
 * machine is rebooted, or kill the kernel with an exception.
 *
 * Each call goes through the trampoline, which leaves in the run's guard
 * the stack pointer and frame at the call and the flags at entry.  A
 * hard-interrupt timer on another CPU watches the guard's call count; when
 * one call has lasted call_limit_ms, it sends the measuring CPU an NMI, the
 * one interrupt that reaches code running with interrupts off.  The NMI
 * handler, finding that CPU inside the call (its instruction pointer in the
 * run's image, its stack the benchmark's), returns from the NMI to the
 * trampoline's exit instead, with the trampoline's stack, frame and flags:
 * the trampoline then restores the callee-saved registers it pushed and
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
 * than reported as unknown (which may panic).  The handler ends a call
 * only when the watcher has asked it to.
 *
 * Exceptions.  Before it dies of an exception in kernel code that no fixup
 * claims, the kernel asks the die notifiers: for int3 (DIE_INT3), #GP
 * (DIE_GPF), the traps that go through do_error_trap() or math_error()
 * (DIE_TRAP: #DE, #UD, #OF, #BR, #TS, #NP, #SS, #AC, #MF, #XM) and a
 * single step (DIE_DEBUG).  Ours, finding the faulting instruction in the
 * image of this CPU's current call and its stack the benchmark's, resumes
 * at the trampoline's exit as the NMI handler does (an exception's return
 * frame is its pt_regs alone) and the run fails naming the exception.  It
 * leaves alone what cannot be resumed (a double fault, a machine check) and
 * what is not the call's.  A single step is the benchmark's own doing (it
 * set the trap flag): we clear the flag and end the call, or, if the call
 * had already returned, let the trampoline finish and fail the run.
 * int3 has two encodings, cc and cd 03; the kernel reports the address after
 * either, and we find which from the bytes before it.  On 6.1, kprobes
 * take a cd 03 for a breakpoint removed under them and run it again from
 * its second byte, before any notifier is asked; cbenchctl refuses images
 * with cd 03 (and int1, which the kernel ignores in ring 0) before upload.
 *
 * Page faults ask no notifier until the oops.  The kernel's page-fault
 * handler calls its page_fault_kernel tracepoint first, with the fault's
 * registers, and later looks the faulting instruction up in the exception
 * tables.  Our probe on that tracepoint (the page-fault net), finding the
 * fault in the call, records it and points the registers at the
 * trampoline's landing, whose exception-table entry the handler then finds
 * and follows to the trampoline's exit: the call ends as from an NMI, and
 * nothing is printed.  A fault at a user address (a null pointer, the
 * user's %fs base) is refused early by SMAP unless the flags say AC, so we
 * set AC in the frame (the trampoline puts the entry flags back).  The one
 * page fault that takes no fixup is an instruction fetch at a user address
 * (a call through a null pointer): the kernel prints an oops for it
 * whatever we do.  So does any die() we did not prevent; before it kills
 * the thread it asks the notifiers with DIE_OOPS, and ours ends the call
 * then (the oops net): the kernel survives, tainted, and the run says an
 * oops was printed.  docs/trust-model.md says why each way is safe.
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
#include <linux/rcupdate.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <asm/apic.h>
#include <asm/cpufeature.h>
#include <asm/debugreg.h>
#include <asm/nmi.h>
#include <asm/page.h>
#include <asm/trap_pf.h>
#include <asm/trapnr.h>
#include <asm/ptrace.h>

#include <uapi/linux/cbench.h>

#include "guard.h"
#include "limits.h"
#include "planted.h"

/* trampoline.S writes these. */
static_assert(offsetof(struct cbench_guard, sp) == 0);
static_assert(offsetof(struct cbench_guard, bp) == 8);
static_assert(offsetof(struct cbench_guard, flags) == 16);
static_assert(offsetof(struct cbench_guard, inside) == 24);
static_assert(offsetof(struct cbench_guard, stack) == 32);
static_assert(offsetof(struct cbench_guard, flags_after) == 40);

/* How long after sending an NMI a CPU's unclaimed NMIs are taken as ours. */
#define CLAIM_JIFFIES (2 * HZ)

DEFINE_PER_CPU(struct cbench_guard *, cbench_guard_here);
static DEFINE_PER_CPU(unsigned long, claim_until);

/* The page_fault_kernel tracepoint, if the kernel has it and our probe is on it. */
static struct tracepoint *fault_tracepoint;

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

/* Whether regs are on the benchmark's stack, at or below the call's stack pointer. */
static bool on_call_stack(const struct cbench_guard *guard, const struct pt_regs *regs)
{
	return regs->sp <= guard->sp && regs->sp >= guard->stack_lo;
}

/* Whether regs are those of kernel code inside guard's call, on its stack. */
static bool in_call(const struct cbench_guard *guard, const struct pt_regs *regs)
{
	return READ_ONCE(guard->inside) && (READ_ONCE(guard->calls) & 1) &&
	       regs->cs == __KERNEL_CS && on_call_stack(guard, regs);
}

/*
 * The image whose code faulted at regs->ip, and the offset there; or, for
 * an instruction fetch outside both images (fetched, a jump or call out of
 * one), the image of the return address at the top of the stack, with
 * from_caller set.  -1 if neither is in an image.
 */
static int locate(const struct cbench_guard *guard, const struct pt_regs *regs, bool fetched,
		  struct cbench_guard_fault *fault)
{
	unsigned long ret;
	int image = image_at(guard, regs->ip);

	if (image >= 0) {
		fault->offset = regs->ip - guard->image[image].lo;
		return image;
	}
	if (!fetched)
		return -1;
	/* regs->sp is on the benchmark's stack (in_call()): readable. */
	if (regs->sp + sizeof(ret) > guard->sp)
		return -1;
	ret = *(const unsigned long *)regs->sp;
	image = image_at(guard, ret);
	if (image >= 0) {
		fault->offset = ret - guard->image[image].lo;
		fault->from_caller = true;
	}
	return image;
}

/*
 * Ends guard's call of code in image: regs, the frame the interrupted CPU
 * returns through, now return to ip in the trampoline with its stack,
 * frame and flags, and the run learns the call was ended (and how, from
 * fault, if not by the watchdog).
 */
static void end_call_at(struct pt_regs *regs, struct cbench_guard *guard, int image,
			const struct cbench_guard_fault *fault, const void *ip)
{
	regs->ip = (unsigned long)ip;
	regs->sp = guard->sp;
	regs->bp = guard->bp;
	regs->flags = guard->flags;
	regs->ax = 0;
	if (fault)
		guard->fault = *fault;
	WRITE_ONCE(guard->inside, 0);
	WRITE_ONCE(guard->recovered, image + 1);
}

static void end_call(struct pt_regs *regs, struct cbench_guard *guard, int image,
		     const struct cbench_guard_fault *fault)
{
	end_call_at(regs, guard, image, fault, cbench_trampoline_resume);
}

/* end_call() from the NMI handler, and its "iret" copy; see the comment at the top. */
static void nmi_end_call(struct pt_regs *regs, struct cbench_guard *guard, int image)
{
	unsigned long *iret = (unsigned long *)(regs + 1);
	bool copy = !fred_frame() && iret[0] == regs->ip && iret[1] == regs->cs &&
		    iret[2] == regs->flags && iret[3] == regs->sp && iret[4] == regs->ss;

	end_call(regs, guard, image, NULL);
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
 * The traps of DIE_TRAP and DIE_GPF whose handlers return to the frame
 * the notifier leaves: not a double fault or a machine check, which the
 * kernel never resumes from, nor anything we do not know.
 */
static bool resumable(int trapnr)
{
	switch (trapnr) {
	case X86_TRAP_DE: case X86_TRAP_OF: case X86_TRAP_BR: case X86_TRAP_UD:
	case X86_TRAP_TS: case X86_TRAP_NP: case X86_TRAP_SS: case X86_TRAP_GP:
	case X86_TRAP_AC: case X86_TRAP_MF: case X86_TRAP_XF:
		return true;
	}
	return false;
}

/*
 * int3 reports the address after itself: after cc, or after cd 03, whose
 * last byte is not int3's.  The offset of the one that trapped, in image.
 */
static unsigned long int3_offset(const struct cbench_guard *guard, int image, unsigned long ip)
{
	const u8 *lo = (const u8 *)guard->image[image].lo, *after = (const u8 *)ip;

	if (after - lo >= 2 && after[-1] == 0x03 && after[-2] == 0xcd)
		return after - 2 - lo;
	return after - 1 - lo;
}

/*
 * The handlers of #GP, #MF and #XM turn interrupts on before asking us if
 * the code ran with them on, and off again on the way out only if the
 * frame they return to had them on.  Returning to a call made with
 * interrupts off, we turn them off ourselves, as they would have.
 */
static void irqs_as_at_call(const struct cbench_guard *guard)
{
	if (!(guard->flags & X86_EFLAGS_IF) && !irqs_disabled())
		local_irq_disable();
}

static int trap(struct die_args *args, struct cbench_guard *guard, unsigned long val)
{
	struct pt_regs *regs = args->regs;
	struct cbench_guard_fault fault = { .trap = args->trapnr + 1 };
	/* int3 reports the address after itself. */
	int image = image_at(guard, val == DIE_INT3 ? regs->ip - 1 : regs->ip);

	if (image < 0)
		return NOTIFY_DONE;
	if (val == DIE_INT3) {
		fault.trap = X86_TRAP_BP + 1;
		fault.offset = int3_offset(guard, image, regs->ip);
	} else {
		fault.offset = regs->ip - guard->image[image].lo;
	}
	irqs_as_at_call(guard);
	end_call(regs, guard, image, &fault);
	return NOTIFY_STOP;
}

/*
 * A single step: benchmark code set the trap flag.  Inside the call we end
 * it there; in the trampoline, after the call returned (popf; ret), we let
 * the trampoline finish and the run fails for the flag.
 */
static int step(struct die_args *args, struct cbench_guard *guard)
{
	unsigned long *dr6 = (unsigned long *)args->err;
	struct pt_regs *regs = args->regs;
	struct cbench_guard_fault fault = { .trap = X86_TRAP_DB + 1 };
	unsigned long ip = regs->ip;
	int image;

	if (!(*dr6 & DR_STEP))
		return NOTIFY_DONE;
	image = image_at(guard, ip);
	if (image < 0) {
		if (ip < (unsigned long)cbench_trampoline_landing ||
		    ip > (unsigned long)cbench_trampoline_ret)
			return NOTIFY_DONE;
		regs->flags &= ~X86_EFLAGS_TF;
		*dr6 &= ~DR_STEP;
		WRITE_ONCE(guard->stepped, true);
		return NOTIFY_STOP;
	}
	fault.offset = ip - guard->image[image].lo;
	*dr6 &= ~DR_STEP;
	end_call(regs, guard, image, &fault);
	return NOTIFY_STOP;
}

/* The oops net: see the comment at the top. */
static int oops(struct die_args *args, struct cbench_guard *guard)
{
	struct pt_regs *regs = args->regs;
	struct cbench_guard_fault fault = { .trap = args->trapnr + 1, .oopsed = true };
	/* page_fault_oops() and pgtable_bad() die as "Oops" and "Bad pagetable". */
	bool page_fault = args->str && (!strcmp(args->str, "Oops") ||
					!strcmp(args->str, "Bad pagetable"));
	int image;

	if (args->trapnr == X86_TRAP_DF || args->trapnr == X86_TRAP_MC)
		return NOTIFY_DONE;
	if (page_fault) {
		fault.trap = X86_TRAP_PF + 1;
		fault.address = read_cr2();
		fault.error_code = args->err;
	}
	image = locate(guard, regs, page_fault && (args->err & X86_PF_INSTR), &fault);
	if (image < 0)
		return NOTIFY_DONE;
	pr_warn("CPU %u: benchmark code caused the oops above; its call was ended and its run failed\n",
		guard->cpu);
	irqs_as_at_call(guard);
	end_call(regs, guard, image, &fault);
	return NOTIFY_STOP;
}

/*
 * The die notifier: an exception in the benchmark's code ends its call;
 * see the comment at the top.  Anything else is left to the kernel.
 */
static int cbench_die(struct notifier_block *nb, unsigned long val, void *data)
{
	struct die_args *args = data;
	struct cbench_guard *guard = this_cpu_read(cbench_guard_here);

	if (!guard || !args->regs || !in_call(guard, args->regs))
		return NOTIFY_DONE;
	if (val == DIE_OOPS && cbench_planted_no_net())
		return NOTIFY_DONE;
	switch (val) {
	case DIE_INT3:
		return trap(args, guard, val);
	case DIE_GPF:
	case DIE_TRAP:
		return resumable(args->trapnr) ? trap(args, guard, val) : NOTIFY_DONE;
	case DIE_DEBUG:
		return step(args, guard);
	case DIE_OOPS:
		return oops(args, guard);
	}
	return NOTIFY_DONE;
}

static struct notifier_block cbench_die_nb = {
	.notifier_call = cbench_die,
	/* First: it acts only on the image's code, which no other knows. */
	.priority = INT_MAX,
};

/*
 * The page-fault net: our probe on the page_fault_kernel tracepoint, called
 * first thing in every kernel-mode page fault; see the comment at the top.
 * The handler goes on with the frame we leave: it finds the landing's
 * exception-table entry (kernelmode_fixup_or_oops()), or, for a spurious
 * fault, simply returns to it.
 */
static void cbench_page_fault(void *data, unsigned long address, struct pt_regs *regs,
			      unsigned long error_code)
{
	struct cbench_guard *guard = this_cpu_read(cbench_guard_here);
	struct cbench_guard_fault fault = {
		.trap = X86_TRAP_PF + 1, .address = address, .error_code = error_code,
	};
	int image;

	if (!guard || !in_call(guard, regs))
		return;
	/* An instruction fetch at a user address oopses whatever frame we leave. */
	if ((error_code & X86_PF_INSTR) && address < TASK_SIZE_MAX)
		return;
	image = locate(guard, regs, error_code & X86_PF_INSTR, &fault);
	if (image < 0)
		return;
	end_call_at(regs, guard, image, &fault, cbench_trampoline_landing);
	regs->flags |= X86_EFLAGS_AC;
}

static void find_fault_tracepoint(struct tracepoint *tp, void *found)
{
	if (!strcmp(tp->name, "page_fault_kernel"))
		*(struct tracepoint **)found = tp;
}

/* Puts our probe on page_fault_kernel, where the kernel has it; else the oops net alone. */
static void fault_net_init(void)
{
	struct tracepoint *tp = NULL;
	int ret;

	if (cbench_limits.fault_net != CBENCH_FAULT_NET_QUIET || cbench_planted_no_net())
		return;
	for_each_kernel_tracepoint(find_fault_tracepoint, &tp);
	if (!tp) {
		pr_info("no page_fault_kernel tracepoint: a page fault in benchmark code is ended after an oops\n");
		return;
	}
	ret = tracepoint_probe_register(tp, (void *)cbench_page_fault, NULL);
	if (ret) {
		pr_warn("page_fault_kernel tracepoint refused our probe (%d): a page fault in benchmark code is ended after an oops\n",
			ret);
		return;
	}
	fault_tracepoint = tp;
}

static void fault_net_exit(void)
{
	if (!fault_tracepoint)
		return;
	tracepoint_probe_unregister(fault_tracepoint, (void *)cbench_page_fault, NULL);
	/* No probe call still running, on any CPU, before our code goes. */
	tracepoint_synchronize_unregister();
	fault_tracepoint = NULL;
}

unsigned int cbench_guard_fault_net(void)
{
	return fault_tracepoint ? CBENCH_FAULT_NET_QUIET : CBENCH_FAULT_NET_OOPS;
}

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

void cbench_guard_start(struct cbench_guard *guard, unsigned int cpu, int watcher,
			const struct cbench_stack *stack, const void *a, u64 a_bytes,
			const void *b, u64 b_bytes)
{
	unsigned int other;

	memset(guard, 0, sizeof(*guard));
	guard->cpu = cpu;
	guard->stack = stack->top;
	guard->stack_lo = stack->lo;
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
	guard->started = true;
	WRITE_ONCE(guard->watching, true);
	if (watcher >= 0 && !smp_call_function_single(watcher, start_watch, guard, 1)) {
		guard->watcher = watcher;
		return;
	}
	/* Went offline since: any other online CPU rather than none. */
	for_each_online_cpu(other) {
		if (other == cpu)
			continue;
		if (!smp_call_function_single(other, start_watch, guard, 1)) {
			guard->watcher = other;
			return;
		}
	}
	/* No other CPU: cbench_guard_can_watch() said so before the run began. */
}

void cbench_guard_stop(struct cbench_guard *guard)
{
	if (!guard->started)
		return;
	WRITE_ONCE(guard->watching, false);
	/* Waits for a running watch(); it re-arms no more. */
	hrtimer_cancel(&guard->timer);
}

void cbench_guard_release(struct cbench_guard *guard)
{
	struct cbench_guard **here;

	if (!guard->started)
		return;
	cbench_guard_stop(guard);
	/*
	 * A thread that died inside a call (an oops no net caught) left its
	 * CPU pointing at us: unhook, then wait for the handlers that may
	 * have read the pointer, NMIs included (each is a read-side critical
	 * section of RCU's, as unregister_nmi_handler() relies on too).
	 */
	here = per_cpu_ptr(&cbench_guard_here, guard->cpu);
	if (READ_ONCE(*here) == guard && cmpxchg(here, guard, NULL) == guard)
		synchronize_rcu();
}

int cbench_guard_init(void)
{
	int ret = register_nmi_handler(NMI_LOCAL, cbench_nmi, 0, "cbench");

	if (ret)
		return ret;
	ret = register_die_notifier(&cbench_die_nb);
	if (ret) {
		unregister_nmi_handler(NMI_LOCAL, "cbench");
		return ret;
	}
	fault_net_init();
	return 0;
}

void cbench_guard_exit(void)
{
	/* Every run has stopped: no guard is in use. */
	fault_net_exit();
	unregister_die_notifier(&cbench_die_nb);
	unregister_nmi_handler(NMI_LOCAL, "cbench");
}
