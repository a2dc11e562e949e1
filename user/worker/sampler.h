/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sampling this thread's instruction pointer with perf_event_open: hardware
 * cycles where the PMU is exposed, else the cpu-clock software event (a
 * hrtimer, which works in VMs).  With stacks, each sample also carries the
 * user registers and a copy of the top of the user stack, for unwinding
 * (unwind.h).  Samples go to an mmap'd ring buffer that the caller drains
 * between calls of the benchmark.
 */
#ifndef _CBENCH_SAMPLER_H
#define _CBENCH_SAMPLER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/perf_event.h>

/* The user registers a sample carries, in perf's order (asm/perf_regs.h):
 * AX BX CX DX SI DI BP SP IP, then R8 to R15. */
#define CBENCH_SAMPLER_NREGS 17

/* One sample, as the drain hands it over; valid during the call only. */
struct cbench_sampler_rec {
	uint64_t ip;
	bool kernel;			/* taken in the kernel */
	bool have_regs;			/* regs and stack are the thread's user
					 * state (at kernel entry for a kernel
					 * sample) */
	uint64_t regs[CBENCH_SAMPLER_NREGS];
	const unsigned char *stack;	/* a copy of memory from regs' SP up */
	uint64_t stack_size;		/* bytes of it that are valid */
};

struct cbench_sampler {
	int fd;
	struct perf_event_mmap_page *page;
	size_t map_bytes;
	char event[24];			/* "cycles", "cpu-clock" */
	char period_unit[8];		/* "cycles", "ns" */
	double units_per_ns;		/* period units per ns: 1 for cpu-clock */
	bool kernel_excluded;		/* perf_event_paranoid refused the kernel */
	int paranoid;			/* perf_event_paranoid; -9 if unreadable */
	int hw_error;			/* why not cycles (-errno), 0 if cycles */
	uint64_t lost;			/* samples the ring buffer lost */
	uint64_t throttled;		/* times the kernel throttled us */
	uint32_t stack_bytes;		/* user stack copied per sample, 0: none */
	unsigned char *rec;		/* one record, whole (stacks only) */
};

/*
 * Opens a sampling event on this thread, every period_ns on average,
 * disabled; with stack_bytes, samples carry the user registers and that
 * much of the user stack (a multiple of 8, at most CBENCH_SAMPLER_STACK_MAX).
 * Returns 0 or -errno with a sentence in err (perf_event_paranoid refusing
 * says so, with the sysctl that allows it).
 */
#define CBENCH_SAMPLER_STACK_MAX 32768
int cbench_sampler_open(struct cbench_sampler *s, uint64_t period_ns, uint32_t stack_bytes, char *err,
			size_t errlen);
void cbench_sampler_close(struct cbench_sampler *s);
int cbench_sampler_enable(struct cbench_sampler *s);
int cbench_sampler_disable(struct cbench_sampler *s);

/* Sets the sampling interval to period_ns from the next sample on. */
int cbench_sampler_period(struct cbench_sampler *s, uint64_t period_ns);

/* Calls fn for every sample in the ring buffer and frees its space.
 * Returns how many. */
uint64_t cbench_sampler_drain(struct cbench_sampler *s,
			      void (*fn)(void *arg, const struct cbench_sampler_rec *rec), void *arg);

#endif /* _CBENCH_SAMPLER_H */
