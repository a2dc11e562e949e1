/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a backend is and gives (backend.h says how it is called): a sample
 * of one measurement, the timer it was read with, the environment it ran
 * in, and the ops every backend implements.
 */
#ifndef _CBENCH_BACKEND_TYPES_H
#define _CBENCH_BACKEND_TYPES_H

#include <stdbool.h>
#include <stdint.h>

#include "object/loader.h"

/* Which optional fields of a sample hold a measured value. */
#define CBENCH_HAVE_INSTRUCTIONS	(1u << 0)
#define CBENCH_HAVE_CYCLES		(1u << 1)
#define CBENCH_HAVE_REF_CYCLES		(1u << 2)

/* Counter names, by the bit above (cbench.ko's CBENCH_COUNTER_F_* are the
 * same bits): "instructions", "cycles", "ref-cycles". */
#define CBENCH_COUNTER_KINDS 3
extern const char *const cbench_counter_names[CBENCH_COUNTER_KINDS];

/* Why a sample is disturbed (and so discarded). */
#define CBENCH_DISTURB_CSWITCH		(1u << 0)	/* context switch */
#define CBENCH_DISTURB_MIGRATION	(1u << 1)	/* moved to another CPU */
#define CBENCH_DISTURB_FAULT		(1u << 2)	/* page fault */
#define CBENCH_DISTURB_COUNTER		(1u << 3)	/* a counter was descheduled */
#define CBENCH_DISTURB_NMI		(1u << 4)	/* an NMI (kmod) */
#define CBENCH_DISTURB_OVER_BUDGET	(1u << 5)	/* past the IRQ-off budget (kmod) */
#define CBENCH_DISTURB_IRQ		(1u << 6)	/* an interrupt (kmod, LVT mode) */
#define CBENCH_DISTURB_SMI		(1u << 7)	/* an SMI (kmod, Intel) */
/* Their names, by bit: "context-switch", "migration", "page-fault",
 * "counter-descheduled", "nmi", "over-budget", "interrupt", "smi". */
#define CBENCH_DISTURB_KINDS 8
extern const char *const cbench_disturb_names[CBENCH_DISTURB_KINDS];

/* One measurement of `reps` repetitions. */
struct cbench_sample {
	uint64_t reps;
	/* TSC ticks of the region, timer overhead already subtracted (>= 0). */
	uint64_t ticks;
	/* Counters over the region, valid where `have` says so. */
	uint64_t instructions;
	uint64_t cycles;
	uint64_t ref_cycles;
	uint32_t have;
	/* CBENCH_DISTURB_* bits; 0 for a clean sample. */
	uint32_t disturbed;
	/* Timing points the call recorded (those the buffer dropped too);
	 * 0 without timing points (see cbench_backend_ops.tpoints). */
	uint64_t tpoints;
	/* The TSC when the region began (a per-rep sum's: its first call's);
	 * 0 where the backend does not say.  A trial's measurements and its
	 * reference's are matched by it (stats/levels.h). */
	uint64_t start_ticks;
};

/* Adds one to sum: a per-rep benchmark's measurement of several calls,
 * each timed alone (sum starts zeroed). */
void cbench_sample_add(struct cbench_sample *sum, const struct cbench_sample *one);

/* The timer, as calibrated in the worker that will measure. */
struct cbench_timer {
	char name[48];			/* e.g. "tsc (lfence;rdtsc / rdtscp;lfence)" */
	double tsc_hz;			/* ticks per second, vs CLOCK_MONOTONIC_RAW */
	double overhead_ticks;		/* back-to-back start/stop, subtracted */
	/* The step the counter advances in, learnt from reads at spread-out
	 * moments (cbench_stats_step): 1 on most hosts, 26 on some EPYC VMs. */
	double step_ticks;
	double precision_ns;		/* tau_prec of Chen and Revels */
	double accuracy_ns;		/* tau_acc of Chen and Revels, an upper bound */
	/* Core cycles per tick from a dependent-add chain (1 cycle per add),
	 * at calibration; 0 when not calibrated.  Trials measure their own
	 * (ref_reps), since the core clock drifts. */
	double est_cycles_per_tick;
	/* Reps of the reference add chain (reference.h) per reference
	 * measurement: long enough that a timer step is under 1/2000 of it. */
	uint64_t ref_reps;
	uint32_t counters;		/* CBENCH_HAVE_* the backend can measure */
	/* What the counters count around an empty region (the reads and the
	 * TSC fences themselves), subtracted like overhead_ticks; indexed
	 * instructions, cycles, ref-cycles. */
	double counter_overhead[3];
};

/* How the worker's environment turned out; each error is 0 or -errno. */
struct cbench_backend_env {
	int cpu;			/* the CPU measured on */
	unsigned int core_type;		/* its core type on a hybrid part
					 * (cbench_core_type_on()); 0 otherwise */
	int pin_error;
	int mlock_error;
	int fifo_error;			/* SCHED_FIFO refused (or not asked for:
					 * -EBUSY, the runner shares the CPU) */
	/* Where disturbances are counted: "perf" (software events),
	 * "getrusage" (perf_event_open refused), or "none". */
	char disturb_source[16];
	int perf_hw_error;		/* why no hardware counters; 0 if some */
	bool rdpmc;			/* counters read with RDPMC */
	uint64_t irqoff_budget_ns;	/* kmod: interrupts-off budget per sample */
	char quiet[8];			/* kmod: "cli" or "lvt" (enum cbench_quiet) */
	/* After prepare(): the arena, and how much of it huge pages back
	 * (0 in ring 0, where it is vmalloc's). */
	uint64_t arena_bytes;
	uint64_t arena_huge_bytes;
};

struct cbench_backend;
struct cbench_placement;

struct cbench_backend_ops {
	const char *name;		/* "user", "kmod" */
	int (*open)(struct cbench_backend *b, int cpu);
	int (*calibrate)(struct cbench_backend *b, struct cbench_timer *timer);
	int (*prepare)(struct cbench_backend *b, const struct cbench_experiment *e);
	int (*measure)(struct cbench_backend *b, uint64_t reps, struct cbench_sample *s);
	/* The reference add chain (reference.h), timed exactly as measure()
	 * times the benchmark, on the same CPU. */
	int (*measure_ref)(struct cbench_backend *b, uint64_t reps, struct cbench_sample *s);
	/* Optional: the wide reference (reference.h's cbench_ref_wide), timed
	 * the same way: how many ALUs the core had free (worker.c). */
	int (*measure_wide)(struct cbench_backend *b, uint64_t reps, struct cbench_sample *s);
	/*
	 * Optional: rounds of an audit (audit_worker.c) taken in one go, b's
	 * benchmark at reps as side A and other's (a second instance of the
	 * same ops, prepared with B) at reps_other as side B, per_side of
	 * each per round, in the order kmod/lib/order.c draws from seed
	 * (rounds in a row, the state carried over).  s and sides get
	 * rounds * 2 * per_side samples and their sides (0 A, 1 B), in that
	 * order.  Without it, an audit calls measure() on each side in turn.
	 */
	int (*measure_audit)(struct cbench_backend *b, struct cbench_backend *other, uint64_t reps,
			     uint64_t reps_other, uint32_t per_side, uint32_t rounds, uint64_t seed,
			     struct cbench_sample *s, uint8_t *sides);
	void (*close)(struct cbench_backend *b);
	/*
	 * Optional: undoes prepare() (the arena gone, the code placed anew
	 * freed, timing points off, the env's arena fields cleared), so that
	 * prepare() can take another experiment in the same worker (run's
	 * trials of a round, phase.h's standing workers).  NULL: a worker
	 * prepares one experiment.
	 */
	void (*release)(struct cbench_backend *b);
	/*
	 * Optional: a new placement of the prepared benchmark for the
	 * measurements that follow (audit_worker.c, docs/placement.md), drawn
	 * from pl: its arena on other pages, at another address and offset,
	 * zeroed and set up again, and its calls on a stack shifted anew; with
	 * pl->code, its code laid out anew where the object allows it.
	 * Returns 0, -ECANCELED if setup() refused, or -errno.  A backend that
	 * takes audit rounds itself gives every such run fresh arenas.  NULL:
	 * the placement stays as prepare() made it.
	 */
	int (*place)(struct cbench_backend *b, struct cbench_placement *pl);
	/*
	 * Loop timing points (cbench.h) for the measure() calls that follow:
	 * each call records into buf (capacity records, from the start) every
	 * every-th point, and the sample says how many it took (never more
	 * than min(that, capacity) records are read from buf).  buf NULL turns
	 * them off (the default).  NULL where the backend cannot collect them.
	 */
	void (*tpoints)(struct cbench_backend *b, struct cbench_tp_record *buf, uint64_t capacity,
			uint64_t every);
	/*
	 * MIN_TIMING (Lau et al.): the least cost in ticks of a timing point,
	 * back to back, where measure() runs the benchmark, given the timer's
	 * step; NAN if it cannot be had.  NULL: the worker's own, measured in
	 * user mode (cbench_tp_min_timing()).
	 */
	double (*tp_min_timing)(struct cbench_backend *b, double step_ticks);
};

struct cbench_backend {
	const struct cbench_backend_ops *ops;
	/* Set by the pipeline before open(): no real-time priority.  We use
	 * it when the runner shares the worker's only CPU, where a SCHED_FIFO
	 * benchmark that never returns could starve the runner that must
	 * kill it. */
	bool no_fifo;
	/* Set by the pipeline before open(): CPU seconds the worker may run
	 * at real-time priority without blocking (RLIMIT_RTTIME), so the
	 * kernel kills a runaway real-time worker even if the runner cannot;
	 * 0 for no limit. */
	double rt_limit_s;
	/* Set by the pipeline before open(), for cbench.ko's runs: how it
	 * keeps the samples quiet (enum cbench_quiet; has_quiet false: its
	 * quiet_mode parameter's), and the CPU whose timer watches the calls
	 * where several CPUs measure at once (has_watcher false: the
	 * module's choice).  User mode has neither. */
	bool has_quiet, has_watcher;
	unsigned int quiet, watcher;
	/* Set by the pipeline before measure(): the calibration to apply. */
	struct cbench_timer timer;
	struct cbench_backend_env env;
	/* Set by place(): the code layouts it has placed (object/codeplace.h);
	 * 0 where the code stays where it was loaded. */
	uint32_t code_layouts;
	/* And where the benchmark's run function lies in the current one's
	 * region (page aligned): its offset in a page and a cache line. */
	uint64_t code_offset;
	/* Set by an op that fails, where -errno alone would not say what
	 * failed and how to fix it; the worker reports it. */
	char error[1024];
	void *priv;
};
#endif /* _CBENCH_BACKEND_TYPES_H */
