// SPDX-License-Identifier: GPL-2.0
/*
 * The user backend: the benchmark runs in this (worker) process, timed with
 * serialized TSC reads; perf software events count what would disturb a
 * measurement; hardware counters come from perf, read with RDPMC through
 * the event's mmap page where the kernel allows it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/perf_event.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "machine/alloc.h"
#include "machine/arena.h"
#include "backend/user.h"
#include "object/codeplace.h"
#include "machine/probe.h"
#include "machine/reference.h"
#include "stats/stats.h"
#include "machine/tsc.h"
#include "stats/tune.h"

/* SCHED_FIFO priority of a worker: above every SCHED_OTHER task, below the
 * kernel's own high-priority threads (which run at 50 and up). */
#define WORKER_FIFO_PRIORITY 40

/* Back-to-back timer reads taken to learn overhead and accuracy. */
#define CALIB_TIMER_PAIRS 20000
/* Reads around spins of spread-out length, to learn the timer's step. */
#define CALIB_STEP_READS 20000
/* The longest spin, in reps of cbench_ref_spin (a prime, so lengths do not
 * line up with any step). */
#define CALIB_STEP_SPREAD 1009
/* How long we let the TSC run against CLOCK_MONOTONIC_RAW, in ns. */
#define CALIB_FREQ_SPAN_NS 60000000LL
/* Reps of the reference chain per calibration measurement (100000 adds),
 * and measurements taken. */
#define CALIB_ADD_REPS 100
#define CALIB_ADD_TRIES 1000

enum { SW_CSWITCH, SW_MIGRATION, SW_FAULT, SW_COUNT };
enum { HW_INSTRUCTIONS, HW_CYCLES, HW_REF_CYCLES, HW_COUNT };

struct user_backend {
	int sw_fd[SW_COUNT];
	bool use_rusage;
	int hw_fd[HW_COUNT];
	struct perf_event_mmap_page *hw_page[HW_COUNT];
	uint32_t hw_have;
	const struct cbench_desc *desc;
	struct cbench_ctx ctx;
	struct cbench_arena arena;
	struct cbench_tp_state tp;	/* what each measure() starts ctx.tp from */
	/* Bytes the stack is lowered by before each call, a multiple of 16
	 * below a page: part of a placement (user_place()); 0 until then. */
	size_t stack_shift;
	/* The experiment, and its code placed anew (user_place() with
	 * pl->code; NULL until then): desc then points into code. */
	const struct cbench_experiment *exp;
	struct cbench_code_place *code;
};

static long perf_open(struct perf_event_attr *attr, int group_fd)
{
	return syscall(SYS_perf_event_open, attr, 0, -1, group_fd, PERF_FLAG_FD_CLOEXEC);
}

/* The kinds the session holds open (machine/probe.h), in its order. */
_Static_assert(SW_COUNT == CBENCH_SW_HELD, "the session holds the events a trial counts");

static int open_sw(struct user_backend *u)
{
	for (int i = 0; i < SW_COUNT; i++) {
		struct perf_event_attr attr = {
			.type = PERF_TYPE_SOFTWARE,
			.size = sizeof(attr),
			.config = cbench_sw_event_configs[i],
			.read_format = PERF_FORMAT_GROUP,
		};
		long fd = perf_open(&attr, i ? u->sw_fd[0] : -1);

		if (fd < 0)
			return -errno;
		u->sw_fd[i] = (int)fd;
	}
	return 0;
}

static int open_hw(struct user_backend *u)
{
	static const uint64_t configs[HW_COUNT] = {
		PERF_COUNT_HW_INSTRUCTIONS,
		PERF_COUNT_HW_CPU_CYCLES,
		PERF_COUNT_HW_REF_CPU_CYCLES,
	};
	long page = sysconf(_SC_PAGESIZE);
	int first_error = 0;

	for (int i = 0; i < HW_COUNT; i++) {
		struct perf_event_attr attr = {
			.type = PERF_TYPE_HARDWARE,
			.size = sizeof(attr),
			.config = configs[i],
			.exclude_kernel = 1,
			.exclude_hv = 1,
			.pinned = 1,
		};
		long fd = perf_open(&attr, -1);
		void *p;

		if (fd < 0) {
			if (!first_error)
				first_error = -errno;
			continue;
		}
		u->hw_fd[i] = (int)fd;
		u->hw_have |= 1u << i;
		p = mmap(NULL, (size_t)page, PROT_READ, MAP_SHARED, (int)fd, 0);
		if (p != MAP_FAILED) {
			u->hw_page[i] = p;
			if (!u->hw_page[i]->cap_user_rdpmc) {
				munmap(p, (size_t)page);
				u->hw_page[i] = NULL;
			}
		}
	}
	return u->hw_have ? 0 : first_error;
}

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -errno : 0;
}

static int user_open(struct cbench_backend *b, int cpu)
{
	struct user_backend *u = calloc(1, sizeof(*u));
	struct sched_param sp = { .sched_priority = WORKER_FIFO_PRIORITY };
	int ret;

	if (!u)
		return -ENOMEM;
	for (int i = 0; i < SW_COUNT; i++)
		u->sw_fd[i] = -1;
	for (int i = 0; i < HW_COUNT; i++)
		u->hw_fd[i] = -1;
	b->priv = u;
	b->env.cpu = cpu;
	ret = pin(cpu);
	if (ret)
		return ret;		/* measuring on a CPU we did not ask for is worse than failing */
	/* Pinned first: asking the CPU's type is then no move to it and back. */
	b->env.core_type = cbench_core_type_on(cpu);
	/* MCL_CURRENT only: with MCL_FUTURE an unprivileged worker's arena
	 * mmap would fail outright past RLIMIT_MEMLOCK.  prepare() locks the
	 * arena itself, best effort.  MCL_ONFAULT (Linux 4.4): the pages the
	 * warm-up touches stay, without faulting in every page of cbenchctl
	 * and its libraries first (4 ms a worker). */
	b->env.mlock_error = mlockall(MCL_CURRENT | MCL_ONFAULT) ? -errno : 0;
	if (b->env.mlock_error == -EINVAL)
		b->env.mlock_error = mlockall(MCL_CURRENT) ? -errno : 0;
	if (b->rt_limit_s > 0) {
		struct rlimit rt = { .rlim_cur = (rlim_t)(b->rt_limit_s * 1e6) };

		rt.rlim_max = rt.rlim_cur;
		setrlimit(RLIMIT_RTTIME, &rt);
	}
	if (b->no_fifo)
		b->env.fifo_error = -EBUSY;
	else
		/* RESET_ON_FORK: what a benchmark forks runs as SCHED_OTHER. */
		b->env.fifo_error = sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &sp) ?
				    -errno : 0;

	ret = open_sw(u);
	if (ret) {
		for (int i = 0; i < SW_COUNT; i++) {
			if (u->sw_fd[i] >= 0)
				close(u->sw_fd[i]);
			u->sw_fd[i] = -1;
		}
		u->use_rusage = true;
		strcpy(b->env.disturb_source, "getrusage");
	} else {
		strcpy(b->env.disturb_source, "perf");
	}
	b->env.perf_hw_error = open_hw(u);
	b->env.rdpmc = u->hw_have && u->hw_page[HW_INSTRUCTIONS];
	return 0;
}

/* Undoes prepare(), as types.h says. */
static void user_release(struct cbench_backend *b)
{
	struct user_backend *u = b->priv;

	cbench_arena_unmap(&u->arena);
	if (u->code)
		cbench_code_place_free(u->code);
	free(u->code);
	u->code = NULL;
	u->desc = NULL;
	u->exp = NULL;
	u->stack_shift = 0;
	memset(&u->ctx, 0, sizeof(u->ctx));
	memset(&u->tp, 0, sizeof(u->tp));
	b->env.arena_bytes = b->env.arena_huge_bytes = 0;
	b->code_layouts = 0;
	b->code_offset = 0;
}

static void user_close(struct cbench_backend *b)
{
	struct user_backend *u = b->priv;
	long page = sysconf(_SC_PAGESIZE);

	if (!u)
		return;
	for (int i = 0; i < SW_COUNT; i++)
		if (u->sw_fd[i] >= 0)
			close(u->sw_fd[i]);
	for (int i = 0; i < HW_COUNT; i++) {
		if (u->hw_page[i])
			munmap(u->hw_page[i], (size_t)page);
		if (u->hw_fd[i] >= 0)
			close(u->hw_fd[i]);
	}
	user_release(b);
	free(u);
	b->priv = NULL;
}

static int compare_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static int64_t now_raw_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* A (tsc, ns) pair read as close together as we can manage: the bracket
 * with the fewest ticks of five tries. */
static void paired_read(uint64_t *tsc, int64_t *ns)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < 5; i++) {
		uint64_t a = cbench_tsc_start();
		int64_t t = now_raw_ns();
		uint64_t z = cbench_tsc_stop();

		if (z - a < best) {
			best = z - a;
			*tsc = a + (z - a) / 2;
			*ns = t;
		}
	}
}

static double calibrate_frequency(void)
{
	uint64_t tsc0, tsc1;
	int64_t ns0, ns1;

	paired_read(&tsc0, &ns0);
	do {
		paired_read(&tsc1, &ns1);
	} while (ns1 - ns0 < CALIB_FREQ_SPAN_NS);
	return (double)(tsc1 - tsc0) * 1e9 / (double)(ns1 - ns0);
}

/* Core cycles per tick from the reference add chain, at the floor level of
 * its measurements; 0 if it will not say. */
static double calibrate_cycles(const struct cbench_timer *t)
{
	double *v = malloc(CALIB_ADD_TRIES * sizeof(*v)), ticks;

	if (!v)
		return 0;
	for (int i = 0; i < CALIB_ADD_TRIES; i++) {
		uint64_t start = cbench_tsc_start();

		cbench_ref_add_chain(NULL, CALIB_ADD_REPS);
		v[i] = (double)(cbench_tsc_stop() - start) - t->overhead_ticks;
	}
	ticks = cbench_stats_floor_mean(v, CALIB_ADD_TRIES, t->step_ticks);
	free(v);
	return ticks > 0 ? (double)CBENCH_REF_ADDS_PER_REP * CALIB_ADD_REPS / ticks : 0;
}

static bool read_hw(struct user_backend *u, uint64_t v[HW_COUNT]);

/* The counters' own cost: the smallest deltas around an empty region,
 * read exactly as user_measure() reads them. */
static void calibrate_counters(struct user_backend *u, struct cbench_timer *t)
{
	uint64_t best[HW_COUNT] = { UINT64_MAX, UINT64_MAX, UINT64_MAX };

	if (!u->hw_have)
		return;
	for (int k = 0; k < CALIB_TIMER_PAIRS / 10; k++) {
		uint64_t v0[HW_COUNT] = { 0 }, v1[HW_COUNT] = { 0 };
		bool ok = read_hw(u, v0);

		cbench_tsc_start();
		cbench_tsc_stop();
		ok &= read_hw(u, v1);
		for (int i = 0; ok && i < HW_COUNT; i++) {
			if (v1[i] - v0[i] < best[i])
				best[i] = v1[i] - v0[i];
		}
	}
	for (int i = 0; i < HW_COUNT; i++)
		t->counter_overhead[i] = best[i] == UINT64_MAX ? 0 : (double)best[i];
}

/*
 * The timer's step: the differences of reads around spins of spread-out
 * length are all multiples of it.  Back-to-back reads would not do: their
 * differences cluster on one or two values, whose common divisor says
 * more about the cost of the reads than about the counter.
 */
static uint64_t calibrate_step(void)
{
	uint64_t *d = malloc(CALIB_STEP_READS * sizeof(*d)), step;

	if (!d)
		return 1;
	for (uint64_t i = 0; i < CALIB_STEP_READS; i++) {
		uint64_t a = cbench_tsc_start();

		cbench_ref_spin(NULL, i * 7919 % CALIB_STEP_SPREAD);
		d[i] = cbench_tsc_stop() - a;
	}
	step = cbench_stats_step(d, CALIB_STEP_READS);
	free(d);
	return step ? step : 1;
}

static int user_calibrate(struct cbench_backend *b, struct cbench_timer *t)
{
	uint64_t *d = malloc(CALIB_TIMER_PAIRS * sizeof(*d));
	double *level = malloc(CALIB_TIMER_PAIRS * sizeof(*level));
	double err_ticks;

	if (!d || !level) {
		free(d);
		free(level);
		return -ENOMEM;
	}
	memset(t, 0, sizeof(*t));
	strcpy(t->name, "tsc");
	t->step_ticks = (double)calibrate_step();
	for (int i = 0; i < CALIB_TIMER_PAIRS; i++) {
		uint64_t a = cbench_tsc_start();
		uint64_t z = cbench_tsc_stop();

		d[i] = z - a;
	}
	qsort(d, CALIB_TIMER_PAIRS, sizeof(*d), compare_u64);
	for (int i = 0; i < CALIB_TIMER_PAIRS; i++)
		level[i] = (double)d[i];
	/* On a coarse timer the least read cost is a lucky rounding: the mean
	 * of the floor levels is the cost itself. */
	t->overhead_ticks = cbench_stats_floor_mean(level, CALIB_TIMER_PAIRS, t->step_ticks);
	/* The error of one overhead-corrected interval: how far the read cost
	 * strays above its minimum (99.9th percentile, so interrupts landing
	 * between the reads do not count), plus a step at each end. */
	err_ticks = (double)(d[CALIB_TIMER_PAIRS * 999 / 1000] - d[0]) + 2 * t->step_ticks;
	free(d);
	free(level);

	t->tsc_hz = calibrate_frequency();
	if (!(t->tsc_hz > 0))
		return -EIO;
	t->precision_ns = t->step_ticks * 1e9 / t->tsc_hz;
	t->accuracy_ns = err_ticks * 1e9 / t->tsc_hz;
	t->est_cycles_per_tick = calibrate_cycles(t);
	t->ref_reps = cbench_tune_ref_reps(t->step_ticks, t->tsc_hz, t->est_cycles_per_tick,
					   CBENCH_REF_ADDS_PER_REP, CBENCH_REF_MIN_NS);
	t->counters = ((struct user_backend *)b->priv)->hw_have;
	calibrate_counters(b->priv, t);
	return 0;
}

/* setup() on the arena as it is; 0, -ECANCELED or -EINVAL as prepare() says. */
static int set_up(struct user_backend *u)
{
	int ret = u->desc->setup ? u->desc->setup(&u->ctx) : 0;

	return !ret ? 0 : ret < 0 ? -ECANCELED : -EINVAL;
}

static int user_prepare(struct cbench_backend *b, const struct cbench_experiment *e)
{
	struct user_backend *u = b->priv;
	const struct cbench_desc *d = e->desc;

	u->desc = d;
	u->exp = e;
	memset(&u->ctx, 0, sizeof(u->ctx));
	u->ctx.param = e->param;
	u->ctx.args = e->nargs ? e->args : NULL;
	u->ctx.nargs = e->nargs;
	if (d->arena_bytes) {
		/* Prefaulted, between guard pages (arena.h); mlock keeps the
		 * pages (if RLIMIT_MEMLOCK allows: a page fault later would
		 * only discard that measurement). */
		int ret = d->arena_bytes > SIZE_MAX ? -ENOMEM :
			  cbench_arena_map(&u->arena, (size_t)d->arena_bytes,
					   cbench_arena_pages_of(d->flags));

		if (ret) {
			snprintf(b->error, sizeof(b->error), "unable to map the arena of %" PRIu64
				 " bytes: %s", d->arena_bytes, strerror(-ret));
			return ret;
		}
		if (mlock(u->arena.base, u->arena.bytes) && !b->env.mlock_error)
			b->env.mlock_error = -errno;
		u->ctx.arena = u->arena.base;
		u->ctx.arena_bytes = d->arena_bytes;
		b->env.arena_bytes = d->arena_bytes;
		b->env.arena_huge_bytes = cbench_arena_huge_bytes(&u->arena);
	}
	return set_up(u);
}

/* The code laid out anew where its object allows it; desc then runs it. */
static int place_code(struct cbench_backend *b, struct cbench_placement *pl)
{
	struct user_backend *u = b->priv;
	int ret = 0;

	if (!u->code) {
		u->code = calloc(1, sizeof(*u->code));
		ret = u->code ? cbench_code_place_init(u->code, u->exp, b->error, sizeof(b->error)) :
		      -ENOMEM;
	}
	if (ret || u->code->lay.mode == CBENCH_LAYOUT_NONE)
		return ret;
	ret = cbench_code_place_next(u->code, pl, b->error, sizeof(b->error));
	if (!ret) {
		u->desc = &u->code->desc;
		b->code_layouts = u->code->count;
		b->code_offset = cbench_code_place_run_offset(u->code);
	}
	return ret;
}

/*
 * A new placement (arena.h): the arena's chunks drawn from pl's pool while
 * the old arena still holds its own, so none of them comes back; then the
 * old one goes, the new one is set up, and the stack's shift is drawn.
 */
static int user_place(struct cbench_backend *b, struct cbench_placement *pl)
{
	struct user_backend *u = b->priv;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	if (pl->code_only)
		return place_code(b, pl);
	if (u->desc->arena_bytes) {
		struct cbench_arena fresh;
		int ret = cbench_arena_place(&fresh, pl, (size_t)u->desc->arena_bytes,
					     cbench_arena_pages_of(u->desc->flags));

		if (ret) {
			snprintf(b->error, sizeof(b->error), "unable to place the arena of %" PRIu64
				 " bytes anew: %s%s", u->desc->arena_bytes, strerror(-ret),
				 ret == -ENOMEM ? " (placements draw from a pool of 1.5 to 4 times "
				 "both sides' arenas; --fixed-placement needs none)" : "");
			return ret;
		}
		cbench_arena_unmap(&u->arena);
		u->arena = fresh;
		u->ctx.arena = fresh.base;
	}
	u->stack_shift = (size_t)cbench_placement_draw(pl, page / 16) * 16;
	if (pl->code) {
		int ret = place_code(b, pl);

		if (ret)
			return ret;
	}
	return set_up(u);
}

struct sw_counts {
	uint64_t nr;
	uint64_t v[SW_COUNT];
};

static int read_sw(struct user_backend *u, struct sw_counts *c)
{
	if (u->use_rusage) {
		struct rusage ru;

		if (getrusage(RUSAGE_THREAD, &ru))
			return -errno;
		c->v[SW_CSWITCH] = (uint64_t)(ru.ru_nvcsw + ru.ru_nivcsw);
		c->v[SW_MIGRATION] = (uint64_t)sched_getcpu();
		c->v[SW_FAULT] = (uint64_t)(ru.ru_minflt + ru.ru_majflt);
		return 0;
	}
	if (read(u->sw_fd[0], c, sizeof(*c)) != (ssize_t)sizeof(*c))
		return -EIO;
	return 0;
}

static inline uint64_t rdpmc(uint32_t counter)
{
	uint32_t lo, hi;

	__asm__ volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(counter));
	return ((uint64_t)hi << 32) | lo;
}

/* The documented perf mmap-page protocol (linux/perf_event.h).  Returns
 * false when the event is not on the PMU right now. */
static bool read_pmc(struct perf_event_mmap_page *pc, uint64_t *value)
{
	uint32_t seq, idx;
	uint64_t count;

	do {
		seq = pc->lock;
		__asm__ volatile("" ::: "memory");
		idx = pc->index;
		count = (uint64_t)pc->offset;
		if (pc->cap_user_rdpmc && idx) {
			uint16_t width = pc->pmc_width;
			int64_t pmc = (int64_t)rdpmc(idx - 1);

			pmc <<= 64 - width;
			pmc >>= 64 - width;
			count += (uint64_t)pmc;
		}
		__asm__ volatile("" ::: "memory");
	} while (pc->lock != seq);
	*value = count;
	return idx != 0;
}

static bool read_hw(struct user_backend *u, uint64_t v[HW_COUNT])
{
	bool ok = true;

	for (int i = 0; i < HW_COUNT; i++) {
		if (!(u->hw_have & (1u << i)))
			continue;
		if (u->hw_page[i])
			ok &= read_pmc(u->hw_page[i], &v[i]);
		else
			ok &= read(u->hw_fd[i], &v[i], sizeof(v[i])) == (ssize_t)sizeof(v[i]);
	}
	return ok;
}

/* A counter's delta less its calibrated overhead, never below 0. */
static uint64_t counter_delta(const struct cbench_backend *b, const uint64_t *v0, const uint64_t *v1, int i)
{
	const struct user_backend *u = b->priv;
	uint64_t d = v1[i] - v0[i], over = (uint64_t)b->timer.counter_overhead[i];

	if (!(u->hw_have & (1u << i)))
		return 0;
	return d > over ? d - over : 0;
}

/* Times run(ctx, reps) with the disturbance and hardware counters around it. */
static int timed(struct cbench_backend *b, void (*run)(struct cbench_ctx *, uint64_t),
		 struct cbench_ctx *ctx, uint64_t reps, struct cbench_sample *s)
{
	struct user_backend *u = b->priv;
	/* The call gets a copy of ctx at the bottom of this, below the
	 * placement's shift: where the context and the benchmark's frame lie
	 * moves with each placement.  Timing points come back from the copy. */
	struct { _Alignas(16) unsigned char b[16]; } below[(sizeof(*ctx) + u->stack_shift) / 16 + 1];
	struct cbench_ctx *call = ctx ? (struct cbench_ctx *)below : NULL;
	struct sw_counts sw0, sw1;
	uint64_t hw0[HW_COUNT] = { 0 }, hw1[HW_COUNT] = { 0 };
	uint64_t start, stop, ticks;
	bool hw_ok;
	int ret;

	memset(s, 0, sizeof(*s));
	s->reps = reps;
	if (ctx)
		*call = *ctx;
	ret = read_sw(u, &sw0);
	if (ret)
		return ret;
	hw_ok = read_hw(u, hw0);

	start = cbench_tsc_start();
	run(call, reps);
	stop = cbench_tsc_stop();

	if (ctx)
		ctx->tp = call->tp;

	hw_ok &= read_hw(u, hw1);
	ret = read_sw(u, &sw1);
	if (ret)
		return ret;

	ticks = stop - start;
	s->start_ticks = start;
	/* The overhead is a mean over levels, so not whole: we round. */
	s->ticks = (double)ticks > b->timer.overhead_ticks ?
		   (uint64_t)llround((double)ticks - b->timer.overhead_ticks) : 0;
	if (sw1.v[SW_CSWITCH] != sw0.v[SW_CSWITCH])
		s->disturbed |= CBENCH_DISTURB_CSWITCH;
	if (sw1.v[SW_MIGRATION] != sw0.v[SW_MIGRATION])
		s->disturbed |= CBENCH_DISTURB_MIGRATION;
	if (sw1.v[SW_FAULT] != sw0.v[SW_FAULT])
		s->disturbed |= CBENCH_DISTURB_FAULT;
	if (u->hw_have && !hw_ok)
		s->disturbed |= CBENCH_DISTURB_COUNTER;
	s->instructions = counter_delta(b, hw0, hw1, HW_INSTRUCTIONS);
	s->cycles = counter_delta(b, hw0, hw1, HW_CYCLES);
	s->ref_cycles = counter_delta(b, hw0, hw1, HW_REF_CYCLES);
	s->have = u->hw_have;
	return 0;
}

/* Calls a per-rep hook, its allocations uncounted; 0 or -ECANCELED with why. */
static int hook(struct cbench_backend *b, cbench_hook_fn fn, const char *name)
{
	struct user_backend *u = b->priv;
	bool counting;
	int ret;

	if (!fn)
		return 0;
	counting = cbench_alloc_pause();
	ret = fn(&u->ctx);
	cbench_alloc_resume(counting);
	if (!ret)
		return 0;
	snprintf(b->error, sizeof(b->error), "the benchmark's %s() returned %d", name, ret);
	return -ECANCELED;
}

/*
 * A per-rep benchmark (Caliper's macrobenchmark instrument): each rep is a
 * call of one rep between its hooks, timed alone; the sample adds them up.
 * The pipeline asks for one rep per measurement; allocation counting asks
 * for more.
 */
static int measure_per_rep(struct cbench_backend *b, uint64_t reps, struct cbench_sample *s)
{
	struct user_backend *u = b->priv;
	struct cbench_sample one;
	int ret;

	memset(s, 0, sizeof(*s));
	for (uint64_t i = 0; i < reps; i++) {
		ret = hook(b, u->desc->before_rep, "before_rep");
		if (!ret)
			ret = timed(b, u->desc->run, &u->ctx, 1, &one);
		if (!ret)
			ret = hook(b, u->desc->after_rep, "after_rep");
		if (ret)
			return ret;
		cbench_sample_add(s, &one);
	}
	return 0;
}

static int user_measure(struct cbench_backend *b, uint64_t reps, struct cbench_sample *s)
{
	struct user_backend *u = b->priv;
	int ret;

	/* ABI 1 reserved these words, always zero. */
	if (u->desc->abi_version >= 2)
		u->ctx.tp = u->tp;
	if (cbench_desc_per_rep(u->desc))
		ret = measure_per_rep(b, reps, s);
	else
		ret = timed(b, u->desc->run, &u->ctx, reps, s);
	s->tpoints = u->ctx.tp.buf ? u->ctx.tp.next : 0;
	return ret;
}

static void user_tpoints(struct cbench_backend *b, struct cbench_tp_record *buf, uint64_t capacity,
			 uint64_t every)
{
	struct user_backend *u = b->priv;

	u->tp = (struct cbench_tp_state){ .buf = buf, .capacity = buf ? capacity : 0,
					  .every = every ? every : 1, .countdown = every ? every : 1 };
	if (!buf)
		memset(&u->tp, 0, sizeof(u->tp));
}

static int user_measure_ref(struct cbench_backend *b, uint64_t reps, struct cbench_sample *s)
{
	return timed(b, cbench_ref_add_chain, NULL, reps, s);
}

static int user_measure_wide(struct cbench_backend *b, uint64_t reps, struct cbench_sample *s)
{
	return timed(b, cbench_ref_wide, NULL, reps, s);
}

const struct cbench_backend_ops cbench_backend_user = {
	.name = "user",
	.open = user_open,
	.calibrate = user_calibrate,
	.prepare = user_prepare,
	.measure = user_measure,
	.measure_ref = user_measure_ref,
	.measure_wide = user_measure_wide,
	.close = user_close,
	.release = user_release,
	.place = user_place,
	.tpoints = user_tpoints,
};
