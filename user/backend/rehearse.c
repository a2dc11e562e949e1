// SPDX-License-Identifier: GPL-2.0
/*
 * The user-mode rehearsal of a run in cbench.ko (backend.h,
 * cbench_kmod_rehearse()): ring 0 runs only what user mode has already run
 * the same way.  Where ring 0 will run an image with stack checks
 * (object/kstack.h), that image runs here too, in the object's place, on a
 * stack aligned as ring 0's: a check that would end a call there ends the
 * rehearsal here.  A crash in this child costs nothing; the same crash in
 * ring 0 is an oops.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "error.h"
#include "../../kmod/lib/sample.h"
#include "machine/arena.h"
#include "backend/rehearse.h"
#include "backend/types.h"
#include "machine/callstack.h"
#include "machine/clock.h"
#include "object/loader.h"
#include "../../kmod/lib/reloc.h"

/* What the rehearsing child got to, in memory its parent reads after it
 * ends, however it ends. */
struct rehearsal {
	uint64_t setup_ns;
	/* The quickest call of each per-rep hook (before, after; 0: none
	 * made): a hook that is slow every time is the benchmark's to fix;
	 * one call stretched by a preempting host is not, and cbench.ko stops
	 * a hook that overruns in ring 0 (CBENCH_HOOK_MAX_NS). */
	uint64_t hook_min_ns[2];
	uint64_t reps;			/* of the call under way */
	uint32_t stage;			/* REHEARSE_* */
	uint32_t hook;			/* REHEARSE_BEFORE_REP/AFTER_REP: the one under way */
	int32_t error;			/* -errno of a failed arena map; a hook's value */
	uint64_t trap;			/* the image offset of a stack check's ud2 that trapped */
	uint32_t tries;			/* the parent's: rehearsals setup_ns is the least of */
};

/* The child's: the stack its calls run on (and the SIGSEGV handler checks);
 * the image it runs, if any: where it lies, and its stubs. */
static struct cbench_callstack call_stack;
static uintptr_t image_at, stubs_lo, stubs_hi;
static volatile struct rehearsal *child_r;

enum {
	REHEARSE_ARENA = 1, REHEARSE_SETUP, REHEARSE_PROBE, REHEARSE_SAMPLES, REHEARSE_DONE,
	REHEARSE_BEFORE_REP, REHEARSE_AFTER_REP,
};

static const char *const stage_names[] = {
	[REHEARSE_ARENA] = "mapping the arena", [REHEARSE_SETUP] = "setup()",
	[REHEARSE_PROBE] = "the budget probe's call", [REHEARSE_SAMPLES] = "a sample's call",
	[REHEARSE_BEFORE_REP] = "before_rep()", [REHEARSE_AFTER_REP] = "after_rep()",
};

/*
 * In the child: a fault in the gap below the call stack is a call that
 * needed more stack than ring 0 gives (status 5); any other ends the child
 * by the signal, as before this handler.  It runs on an alternate stack:
 * the overflowing one cannot take its frame.
 */
static void on_segv(int sig, siginfo_t *info, void *uc)
{
	if (cbench_callstack_overflow(&call_stack, (uintptr_t)info->si_addr))
		_exit(5);
	signal(sig, SIG_DFL);
}

/*
 * In the child: ud2 in a stack check's stub is a call that would have run
 * out of ring 0's stack (status 6, the offset in trap); any other SIGILL
 * ends the child by the signal.
 */
static void on_ill(int sig, siginfo_t *info, void *uc)
{
	uintptr_t at = (uintptr_t)info->si_addr;

	if (at >= stubs_lo && at < stubs_hi) {
		child_r->trap = at - image_at;
		_exit(6);
	}
	signal(sig, SIG_DFL);
}

/* The call stack and the handlers that tell an overflow and a check; 0 or -errno. */
static int rehearse_stack(const struct cbench_kmod_rehearsal *how)
{
	static char alt[64 << 10] __attribute__((aligned(16)));
	stack_t ss = { .ss_sp = alt, .ss_size = sizeof(alt) };
	struct sigaction sa = { .sa_sigaction = on_segv, .sa_flags = SA_SIGINFO | SA_ONSTACK };
	struct sigaction ill = { .sa_sigaction = on_ill, .sa_flags = SA_SIGINFO | SA_ONSTACK };
	int ret = how->stack_bytes > SIZE_MAX || how->stack_align > SIZE_MAX ? -ENOMEM :
		  cbench_callstack_map(&call_stack, (size_t)how->stack_bytes, (size_t)how->stack_align);

	if (ret)
		return ret;
	sigemptyset(&sa.sa_mask);
	sigemptyset(&ill.sa_mask);
	if (sigaltstack(&ss, NULL) || sigaction(SIGSEGV, &sa, NULL) || sigaction(SIGILL, &ill, NULL))
		return -errno;
	return 0;
}

/*
 * In the child: image mapped as cbench.ko maps it (relocated where it
 * lies, its text executable), and *d the benchmark's descriptor with its
 * entry points there; 0 or -errno.
 */
static int rehearse_image(const struct cbench_kmod_rehearsal *how, const char *name, struct cbench_desc *d)
{
	const struct cbench_kimage *image = how->image;
	const struct cbench_kimage_entry *e = cbench_kimage_find(image, name);
	uint8_t *p = mmap(NULL, image->image_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (!e || p == MAP_FAILED)
		return p == MAP_FAILED ? -ENOMEM : -ENOENT;
	memcpy(p, image->bytes, image->image_bytes);
	cbench_reloc_apply(p, (uint64_t)(uintptr_t)p, image->relocs, image->nrelocs);
	for (uint32_t i = 0; i < image->ntext; i++)
		if (mprotect(p + image->text[i].start, image->text[i].bytes, PROT_READ | PROT_EXEC))
			return -errno;
	image_at = (uintptr_t)p;
	stubs_lo = image_at + how->stubs->region;
	stubs_hi = stubs_lo + how->stubs->region_bytes;
	d->run = (cbench_run_fn)(uintptr_t)(p + e->run);
	d->setup = e->has_setup ? (cbench_setup_fn)(uintptr_t)(p + e->setup) : NULL;
	d->before_rep = e->has_before_rep ? (cbench_hook_fn)(uintptr_t)(p + e->before_rep) : NULL;
	d->after_rep = e->has_after_rep ? (cbench_hook_fn)(uintptr_t)(p + e->after_rep) : NULL;
	return 0;
}

/* A per-rep hook, timed; a non-zero value ends the child (status 4). */
static void rehearse_hook(cbench_hook_fn fn, uint32_t which, struct cbench_ctx *ctx,
			  volatile struct rehearsal *r)
{
	uint64_t t0, ns;
	int ret;

	if (!fn)
		return;
	r->hook = which;
	t0 = cbench_now_ns();
	ret = (int)cbench_callstack_call(&call_stack, (const void *)fn, ctx, 0);
	ns = cbench_now_ns() - t0;
	which -= REHEARSE_BEFORE_REP;
	if (!r->hook_min_ns[which] || ns < r->hook_min_ns[which])
		r->hook_min_ns[which] = ns ? ns : 1;
	if (ret) {
		r->error = ret;
		_exit(4);
	}
	r->hook = 0;
}

/*
 * One call of run(), between the per-rep hooks if it has them; ctx->tp set
 * from tp for it alone, as cbench.ko sets it (kmod/tpoints.c), and zero
 * around it.
 */
static void rehearse_call(const struct cbench_desc *d, struct cbench_ctx *ctx, uint64_t reps,
			  const struct cbench_tp_state *tp, volatile struct rehearsal *r)
{
	r->reps = reps;
	rehearse_hook(d->before_rep, REHEARSE_BEFORE_REP, ctx, r);
	ctx->tp = *tp;
	cbench_callstack_call(&call_stack, (const void *)d->run, ctx, reps);
	memset(&ctx->tp, 0, sizeof(ctx->tp));
	rehearse_hook(d->after_rep, REHEARSE_AFTER_REP, ctx, r);
}

/*
 * The timing-point state of the shape's calls: a buffer of its tp_records
 * records ending at a guard page (a record written past it faults), or
 * zero.  Returns 0 or -errno.
 */
static int rehearse_tp(const struct cbench_kmod_shape *shape, struct cbench_arena *buf,
		       struct cbench_tp_state *tp)
{
	size_t bytes, page = (size_t)sysconf(_SC_PAGESIZE);
	int ret;

	memset(tp, 0, sizeof(*tp));
	if (!shape || !shape->tp_records)
		return 0;
	bytes = (size_t)shape->tp_records * sizeof(struct cbench_tp_record);
	ret = cbench_arena_map(buf, (bytes + page - 1) / page * page, CBENCH_ARENA_PAGES_BASE);
	if (ret)
		return ret;
	tp->buf = (struct cbench_tp_record *)((char *)buf->base + buf->bytes - bytes);
	tp->capacity = shape->tp_records;
	tp->every = shape->tp_every;
	tp->countdown = shape->tp_every;
	return 0;
}

/* The child: the run's calls in cbench.ko's order (kmod/measure.c run_thread). */
static void __attribute__((noreturn)) rehearse_child(const struct cbench_experiment *e,
						     const struct cbench_kmod_shape *shape,
						     const struct cbench_kmod_rehearsal *how,
						     volatile struct rehearsal *r)
{
	struct cbench_desc image_desc = *e->desc;
	const struct cbench_desc *d = &image_desc;
	struct cbench_ctx ctx = { .param = e->param, .args = e->nargs ? e->args : NULL, .nargs = e->nargs };
	struct cbench_arena arena, tp_buf;
	struct cbench_tp_state tp;
	uint64_t t0, last;
	int ret;

	r->stage = REHEARSE_ARENA;
	child_r = r;
	ret = d->arena_bytes > SIZE_MAX ? -ENOMEM : cbench_arena_map(&arena, (size_t)d->arena_bytes,
								     CBENCH_ARENA_PAGES_BASE);
	if (!ret)
		ret = rehearse_tp(shape, &tp_buf, &tp);
	if (!ret)
		ret = rehearse_stack(how);
	if (!ret && how->image)
		ret = rehearse_image(how, d->name, &image_desc);
	if (ret) {
		r->error = ret;
		_exit(2);
	}
	ctx.arena = arena.base;
	ctx.arena_bytes = d->arena_bytes;
	r->stage = REHEARSE_SETUP;
	t0 = cbench_now_ns();
	if (d->setup && (int)cbench_callstack_call(&call_stack, (const void *)d->setup, &ctx, 0))
		_exit(3);
	r->setup_ns = cbench_now_ns() - t0;
	if (!shape) {
		r->stage = REHEARSE_SAMPLES;
		rehearse_call(d, &ctx, 1, &tp, r);
		r->stage = REHEARSE_DONE;
		_exit(0);
	}
	last = shape->reps + (uint64_t)(shape->samples - 1) * shape->step;
	r->stage = REHEARSE_PROBE;
	for (uint64_t reps = 1; reps < last; reps = cbench_probe_next(reps, last))
		rehearse_call(d, &ctx, reps, &tp, r);
	rehearse_call(d, &ctx, last, &tp, r);
	r->stage = REHEARSE_SAMPLES;
	for (uint32_t i = 0; i < shape->samples; i++)
		rehearse_call(d, &ctx, shape->reps + i * shape->step, &tp, r);
	r->stage = REHEARSE_DONE;
	_exit(0);
}

/* A call a stack check ended in the rehearsal (status 6), in words: -E2BIG. */
static int checked_out(const struct cbench_experiment *e, const struct cbench_kmod_rehearsal *how,
		       const volatile struct rehearsal *r, const char *stage, char *why, size_t why_bytes)
{
	const struct cbench_kstack_check *c = cbench_kstack_stub_at(how->ks, how->stubs, r->trap);

	if (!c) {
		snprintf(why, why_bytes, "%s: a stack check ended %s of %" PRIu64 " reps, rehearsed in "
			 "user mode: it never reached cbench.ko", e->id, stage, r->reps);
	} else if (((uint64_t)1 << c->log2) >= how->stack_align) {
		snprintf(why, why_bytes, "%s needs more stack than ring 0 gives: %s of %" PRIu64 " reps, "
			 "rehearsed in user mode with ring 0's stack checks, called %s, which %s, more "
			 "than the %" PRIu64 " KiB stack has beside the %" PRIu64 " KiB the kernel keeps; "
			 "it never reached cbench.ko: make its frames smaller, load cbench.ko with a larger "
			 "call_stack_bytes, or measure it with --backend user", e->id, stage, r->reps,
			 c->name, c->path, how->stack_align >> 10, how->ks->limits.reserve_bytes >> 10);
	} else {
		snprintf(why, why_bytes, "%s would run out of stack in ring 0: %s of %" PRIu64 " reps, "
			 "rehearsed in user mode with ring 0's stack checks, called %s with less than "
			 "%" PRIu64 " KiB of the %" PRIu64 " KiB stack left (%s); it never reached cbench.ko: "
			 "bound the recursion's depth, load cbench.ko with a larger call_stack_bytes, or "
			 "measure it with --backend user", e->id, stage, r->reps, c->name,
			 ((uint64_t)1 << c->log2) >> 10, how->stack_align >> 10, c->path);
	}
	return -E2BIG;
}

/* Why the child ended as it did, for a user who must fix the benchmark. */
static int rehearsal_verdict(const struct cbench_experiment *e, const struct cbench_kmod_rehearsal *how,
			     const volatile struct rehearsal *r, int status, char *why, size_t why_bytes)
{
	uint32_t at = r->hook ? r->hook : r->stage;
	const char *stage = at < sizeof(stage_names) / sizeof(stage_names[0]) &&
			    stage_names[at] ? stage_names[at] : "loading";

	if (WIFEXITED(status) && WEXITSTATUS(status) == 3)
		return -ECANCELED;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 4 && r->hook) {
		snprintf(why, why_bytes, "%s: the benchmark's %s returned %d, rehearsed in user mode "
			 "before ring 0", e->id, stage, r->error);
		return -ECANCELED;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 2 && r->stage == REHEARSE_ARENA) {
		snprintf(why, why_bytes, "%s: cannot map its arena of %" PRIu64 " bytes, its timing-point buffer or its stack, in user mode (%s)",
			 e->id, e->desc->arena_bytes, strerror(-r->error));
		return -ENOMEM;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 6 && how->image)
		return checked_out(e, how, r, stage, why, why_bytes);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 5) {
		snprintf(why, why_bytes, "%s needs more than %" PRIu64 " KiB of stack: %s of %" PRIu64
			 " reps overflowed the stack ring 0 gives benchmark code (three quarters of "
			 "cbench.ko's call_stack_bytes: the rest is kept for interrupts), rehearsed "
			 "in user mode: it never reached cbench.ko; make its frames smaller or its "
			 "recursion shallower, load cbench.ko with a larger call_stack_bytes, or "
			 "measure it with --backend user", e->id, how->stack_bytes >> 10, stage, r->reps);
		return -E2BIG;
	}
	if (WIFSIGNALED(status)) {
		const char *abbrev = sigabbrev_np(WTERMSIG(status));

		snprintf(why, why_bytes, "%s crashed (SIG%s) in %s of %" PRIu64 " reps, rehearsed in "
			 "user mode before ring 0: it never reached cbench.ko; fix the benchmark "
			 "(an arena overrun at some reps?) and try it with --backend user",
			 e->id, abbrev ? abbrev : "?", stage, r->reps);
		return -EFAULT;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) || r->stage != REHEARSE_DONE) {
		snprintf(why, why_bytes, "%s exited (status %d) in %s, rehearsed in user mode: a "
			 "benchmark for ring 0 may not call exit()", e->id,
			 WIFEXITED(status) ? WEXITSTATUS(status) : -1, stage);
		return -EFAULT;
	}
	if (r->setup_ns > CBENCH_KMOD_SETUP_MAX_NS) {
		snprintf(why, why_bytes, "%s: setup() takes %.1f ms in user mode (the quickest of "
			 "%u rehearsal%s); in ring 0 it runs with preemption off, which cbench.ko keeps "
			 "under %.0f ms: make setup() cheaper or measure it with --backend user", e->id,
			 (double)r->setup_ns * 1e-6, r->tries, r->tries == 1 ? "" : "s",
			 (double)CBENCH_KMOD_SETUP_MAX_NS * 1e-6);
		return -ETIME;
	}
	for (int i = 0; i < 2; i++) {
		if (r->hook_min_ns[i] <= CBENCH_KMOD_SETUP_MAX_NS)
			continue;
		snprintf(why, why_bytes, "%s: a call of %s takes %.1f ms in user mode; in ring 0 it "
			 "runs with preemption off, which cbench.ko keeps under %.0f ms, as for setup(): "
			 "make it cheaper or measure it with --backend user", e->id,
			 stage_names[REHEARSE_BEFORE_REP + i], (double)r->hook_min_ns[i] * 1e-6,
			 (double)CBENCH_KMOD_SETUP_MAX_NS * 1e-6);
		return -ETIME;
	}
	return 0;
}

uint64_t cbench_kmod_stack_rehearsed(uint64_t module_bytes)
{
	uint64_t margin = module_bytes / 4;

	if (margin < CBENCH_KMOD_STACK_MARGIN)
		margin = CBENCH_KMOD_STACK_MARGIN;
	if (module_bytes <= 2 * margin)
		return CBENCH_KMOD_STACK_OLD;
	return module_bytes - margin;
}

/*
 * One rehearsal in a child; r gets what it got to, *status how it ended.
 * 0 or -errno (no child could be had).
 */
static int rehearse_once(const struct cbench_experiment *e, const struct cbench_kmod_shape *shape,
			 const struct cbench_kmod_rehearsal *how, volatile struct rehearsal *r,
			 int *status)
{
	pid_t pid;

	memset((void *)r, 0, sizeof(*r));
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0)
		rehearse_child(e, shape, how, r);
	while (waitpid(pid, status, 0) < 0) {
		if (errno != EINTR)
			return -errno;
	}
	return 0;
}

/* The least of two times, 0 standing for none. */
static uint64_t least_ns(uint64_t a, uint64_t b)
{
	return !a || (b && b < a) ? b : a;
}

int cbench_kmod_rehearse(const struct cbench_experiment *e, const struct cbench_kmod_shape *shape,
			 const struct cbench_kmod_rehearsal *how, uint64_t *setup_ns, char *why,
			 size_t why_bytes)
{
	volatile struct rehearsal *r;
	uint64_t setup_least = 0, hook_least[2] = { 0, 0 }, worst;
	uint32_t tries;
	int status, ret;

	*setup_ns = 0;
	if (why_bytes)
		why[0] = '\0';
	/* Shared, so what the child got to survives its crash. */
	r = mmap(NULL, sizeof(*r), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (r == MAP_FAILED)
		return -errno;
	/*
	 * setup() runs once a worker, so a slow one is tried again in a fresh
	 * child, and judged by its quickest call as the hooks are: one call
	 * stretched by a stalled host is not the benchmark's to fix.
	 */
	for (tries = 0; tries < CBENCH_KMOD_SETUP_TRIES; ) {
		ret = rehearse_once(e, shape, how, r, &status);
		tries++;
		if (ret) {
			munmap((void *)r, sizeof(*r));
			return ret;
		}
		setup_least = least_ns(setup_least, r->setup_ns);
		worst = setup_least;
		for (int i = 0; i < 2; i++) {
			hook_least[i] = least_ns(hook_least[i], r->hook_min_ns[i]);
			worst = hook_least[i] > worst ? hook_least[i] : worst;
		}
		/* Ten times over is the code's own: refused without a second look. */
		if (!WIFEXITED(status) || WEXITSTATUS(status) || r->stage != REHEARSE_DONE ||
		    worst <= CBENCH_KMOD_SETUP_MAX_NS || worst > 10 * CBENCH_KMOD_SETUP_MAX_NS)
			break;
	}
	r->tries = tries;
	r->setup_ns = setup_least;
	r->hook_min_ns[0] = hook_least[0];
	r->hook_min_ns[1] = hook_least[1];
	*setup_ns = r->setup_ns;
	ret = rehearsal_verdict(e, how, r, status, why, why_bytes);
	munmap((void *)r, sizeof(*r));
	return ret;
}
