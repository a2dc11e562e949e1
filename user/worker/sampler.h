/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sampling this thread's instruction pointer with perf_event_open: hardware
 * cycles where the PMU is exposed, else the cpu-clock software event (a
 * hrtimer, which works in VMs).  Samples go to an mmap'd ring buffer that
 * the caller drains between calls of the benchmark.
 */
#ifndef _CBENCH_SAMPLER_H
#define _CBENCH_SAMPLER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/perf_event.h>

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
};

/*
 * Opens a sampling event on this thread, every period_ns on average,
 * disabled.  Returns 0 or -errno with a sentence in err (perf_event_paranoid
 * refusing says so, with the sysctl that allows it).
 */
int cbench_sampler_open(struct cbench_sampler *s, uint64_t period_ns, char *err, size_t errlen);
void cbench_sampler_close(struct cbench_sampler *s);
int cbench_sampler_enable(struct cbench_sampler *s);
int cbench_sampler_disable(struct cbench_sampler *s);

/* Sets the sampling interval to period_ns from the next sample on. */
int cbench_sampler_period(struct cbench_sampler *s, uint64_t period_ns);

/* Calls fn for every sample in the ring buffer and frees its space.
 * kernel: the sample was taken in the kernel.  Returns how many. */
uint64_t cbench_sampler_drain(struct cbench_sampler *s, void (*fn)(void *arg, uint64_t ip, bool kernel),
			      void *arg);

#endif /* _CBENCH_SAMPLER_H */
