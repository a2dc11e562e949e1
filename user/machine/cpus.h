/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CPUs a run measures on at once (run --jobs, --cpus): those we may
 * use, isolated ones first (isolcpus, nohz_full), then the others from the
 * last down, never two SMT siblings of one core, which would measure each
 * other.  cbenchctl keeps off the chosen CPUs where any other is left to it;
 * a run of as many jobs as CPUs leaves none (then cbenchctl sleeps on its
 * workers' CPUs while they measure, and reads their pipes between
 * measurements).
 */
#ifndef _CBENCH_CPUS_H
#define _CBENCH_CPUS_H

#include <stdbool.h>
#include <stddef.h>

/* Most CPUs a run measures on at once. */
#define CBENCH_JOBS_MAX 64

struct cbench_cpu_choice {
	int cpu[CBENCH_JOBS_MAX];
	size_t n;
	/* CPUs fit to measure on (allowed, online, one per core), and how
	 * many of them are isolated. */
	size_t fit, isolated;
};

/*
 * Fills c with the fit CPUs, in the order they are taken.  0, or -errno.
 */
int cbench_cpus_fit(struct cbench_cpu_choice *c);

/*
 * Chooses jobs CPUs (jobs >= 1), or those of list (a kernel CPU list such
 * as "2,4-5"; then jobs 0 takes them all, else jobs must not exceed them).
 * 0, or -EINVAL with a sentence in err naming what is wrong and what to
 * ask instead.
 */
int cbench_cpus_choose(struct cbench_cpu_choice *c, size_t jobs, const char *list, char *err,
		       size_t errlen);

/*
 * The online CPUs that c does not measure on, lowest first, into out (at
 * most max of them): those that can watch ring 0's runs (cbench.ko ends a
 * call that never returns from another CPU).  How many, or -errno.
 */
int cbench_cpus_others(const struct cbench_cpu_choice *c, int *out, size_t max);

/* How many of c's fit CPUs may measure at once in ring 0, each with
 * another online CPU to watch it: at most half of those online. */
size_t cbench_cpus_ring0_jobs(const struct cbench_cpu_choice *c);

#endif /* _CBENCH_CPUS_H */
