// SPDX-License-Identifier: GPL-2.0
/*
 * The worker side of `cbenchctl profile`.  We call the benchmark in calls
 * of a few milliseconds, each through the backend's measure() as a trial
 * does, while perf samples our instruction pointer; between calls we drain
 * the ring buffer and put each sample in its group.  Samples landing outside
 * the benchmark's object (the harness between calls, libc, the kernel on our
 * behalf) are groups too: they are part of where the worker's time went,
 * and dropping them would inflate every share of the object.
 *
 * We draw each call's sampling period at random between half and one and a
 * half of the mean.  Wen et al.'s proof takes the sampling moments to be
 * independent of what runs; a fixed period that happened to be a multiple
 * of the benchmark's loop would sample the same point of it every time.
 */
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "machine/clock.h"
#include "worker/sampler.h"
#include "stats/share.h"
#include "worker/symbols.h"
#include "worker/profile_worker.h"

/* A call of the benchmark lasts at least this long, in ns: long enough that
 * the harness between calls is a small share of the samples, short enough
 * that we check the stopping rule often. */
#define CALL_NS 2000000.0
/* Reps per call stop growing here, whatever the call's length. */
#define REPS_MAX (1ULL << 40)
/* The worker stops sampling at this fraction of the runner's time limit, so
 * that it reports what it has before the runner gives up on it. */
#define TIME_SHARE 0.7
/* --ci-width: shares under this fraction are left out of the stopping rule
 * (share.h), and the rule waits for at least MIN_SAMPLES samples. */
#define SHARE_FLOOR 0.01
#define MIN_SAMPLES 100
/* Calls timed without sampling; the least is the call's length. */
#define UNSAMPLED_CALLS 3

struct ip_slot {
	uint64_t ip;			/* 0: empty (no sample has IP 0) */
	size_t group;
};

struct profile {
	const struct cbench_profile_job *job;
	struct cbench_symbols *symbols;
	struct link_map *object;	/* the benchmark's object */
	const char *object_name;	/* its file name, for outside groups */
	char cwd[4096];
	struct ip_slot *slots;		/* ip -> group, open addressing */
	size_t nslots, nused;
	struct cbench_profile_group *groups;
	uint64_t *counts;		/* a copy of the groups' counts, for share.h */
	size_t ngroups, cap;
	uint64_t total;
	int error;			/* -ENOMEM once memory ran out */
};

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* The group with this identity, added if new; SIZE_MAX without memory. */
static size_t group_of(struct profile *p, uint32_t where, const char *name, const char *file, int line)
{
	struct cbench_profile_group *g;

	for (size_t i = 0; i < p->ngroups; i++) {
		g = &p->groups[i];
		if (g->where == where && g->line == (uint32_t)line && !strncmp(g->name, name, sizeof(g->name) - 1) &&
		    !strncmp(g->file, file, sizeof(g->file) - 1))
			return i;
	}
	if (p->ngroups == p->cap) {
		size_t ncap = p->cap ? 2 * p->cap : 32;
		struct cbench_profile_group *ng = realloc(p->groups, ncap * sizeof(*ng));
		uint64_t *nc;

		if (!ng)
			return SIZE_MAX;
		p->groups = ng;
		nc = realloc(p->counts, ncap * sizeof(*nc));
		if (!nc)
			return SIZE_MAX;
		p->counts = nc;
		p->cap = ncap;
	}
	g = &p->groups[p->ngroups];
	memset(g, 0, sizeof(*g));
	g->where = where;
	g->line = (uint32_t)line;
	snprintf(g->name, sizeof(g->name), "%s", name);
	snprintf(g->file, sizeof(g->file), "%s", file);
	p->counts[p->ngroups] = 0;
	return p->ngroups++;
}

/* Where a sample at ip belongs; SIZE_MAX without memory. */
static size_t classify(struct profile *p, uint64_t ip, bool kernel)
{
	char name[sizeof(((struct cbench_profile_group *)0)->name)];
	struct link_map *map = NULL;
	const char *func, *file = NULL;
	Dl_info info;
	size_t cwd_len = strlen(p->cwd);
	int line = 0;

	if (kernel)
		return group_of(p, CBENCH_PROFILE_KERNEL, "[kernel]", "", 0);
	if (!dladdr1((void *)(uintptr_t)ip, &info, (void **)&map, RTLD_DL_LINKMAP) || !map) {
		snprintf(name, sizeof(name), "[outside %s: unknown]", p->object_name);
		return group_of(p, CBENCH_PROFILE_OUTSIDE, name, "", 0);
	}
	if (map != p->object) {
		/* The main program's link map has an empty name. */
		const char *other = info.dli_fname && *info.dli_fname ? base_name(info.dli_fname) :
				    program_invocation_short_name;

		snprintf(name, sizeof(name), "[outside %s: %s]", p->object_name, other);
		return group_of(p, CBENCH_PROFILE_OUTSIDE, name, "", 0);
	}
	func = cbench_symbols_function(p->symbols, ip - map->l_addr, NULL);
	if (!func) {
		snprintf(name, sizeof(name), "[%s, no symbol]", p->object_name);
		return group_of(p, CBENCH_PROFILE_NO_SYMBOL, name, "", 0);
	}
	if (p->job->by_line)
		line = cbench_symbols_line(p->symbols, ip - map->l_addr, &file);
	/* Paths under our directory are shown relative to it. */
	if (file && cwd_len && !strncmp(file, p->cwd, cwd_len) && file[cwd_len] == '/')
		file += cwd_len + 1;
	return group_of(p, CBENCH_PROFILE_FUNCTION, func, file ? file : "", line);
}

static int grow_slots(struct profile *p)
{
	size_t n = p->nslots ? 2 * p->nslots : 1024;
	struct ip_slot *slots = calloc(n, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < p->nslots; i++) {
		size_t h;

		if (!p->slots[i].ip)
			continue;
		h = (size_t)(p->slots[i].ip * 0x9e3779b97f4a7c15ULL >> 20) & (n - 1);
		while (slots[h].ip)
			h = (h + 1) & (n - 1);
		slots[h] = p->slots[i];
	}
	free(p->slots);
	p->slots = slots;
	p->nslots = n;
	return 0;
}

static void on_sample(void *arg, uint64_t ip, bool kernel)
{
	struct profile *p = arg;
	size_t h, group;

	if (p->error)
		return;
	/* Kernel samples all go to one group; user addresses are looked up
	 * once each, then found in the table (IP 0, which nothing runs at,
	 * would mark a free slot, so it is never cached). */
	if (kernel || !ip) {
		group = classify(p, ip, kernel);
	} else {
		if (2 * (p->nused + 1) > p->nslots && grow_slots(p)) {
			p->error = -ENOMEM;
			return;
		}
		h = (size_t)(ip * 0x9e3779b97f4a7c15ULL >> 20) & (p->nslots - 1);
		while (p->slots[h].ip && p->slots[h].ip != ip)
			h = (h + 1) & (p->nslots - 1);
		if (!p->slots[h].ip) {
			p->slots[h].group = classify(p, ip, false);
			if (p->slots[h].group == SIZE_MAX) {
				p->error = -ENOMEM;
				return;
			}
			p->slots[h].ip = ip;
			p->nused++;
		}
		group = p->slots[h].group;
	}
	if (group == SIZE_MAX) {
		p->error = -ENOMEM;
		return;
	}
	p->groups[group].count++;
	p->counts[group]++;
	p->total++;
}

/* Whether the job's target is met. */
static bool enough(const struct profile *p)
{
	if (p->job->width > 0)
		return p->total >= MIN_SAMPLES &&
		       cbench_share_widest(p->counts, p->ngroups, p->total, p->job->z, SHARE_FLOOR) <=
		       p->job->width;
	return p->total >= p->job->samples;
}

/* Grows reps until a call lasts CALL_NS; this doubles as the warm-up. */
static int pick_reps(struct cbench_backend *b, double until, uint64_t *reps)
{
	struct cbench_sample s;
	double start, took;
	int ret;

	for (*reps = 1;; ) {
		start = cbench_now_ns();
		ret = b->ops->measure(b, *reps, &s);
		if (ret)
			return ret;
		took = cbench_now_ns() - start;
		if (took >= CALL_NS || *reps >= REPS_MAX || cbench_now_ns() > until)
			return 0;
		*reps *= took < CALL_NS / 16 ? 16 : 2;
	}
}

static uint64_t rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static int locate(struct profile *p, const struct cbench_worker_job *job, char *err, size_t errlen)
{
	Dl_info info;
	void *run;

	/* The object is the one that holds the benchmark's code. */
	memcpy(&run, &job->exp->desc->run, sizeof(run));
	if (!dladdr1(run, &info, (void **)&p->object, RTLD_DL_LINKMAP) || !p->object) {
		snprintf(err, errlen, "cannot find the loaded object of %s", job->exp->id);
		return -ENOENT;
	}
	p->object_name = base_name(job->exp->lib->path);
	if (!getcwd(p->cwd, sizeof(p->cwd)))
		p->cwd[0] = '\0';
	return cbench_symbols_open(&p->symbols, job->exp->lib->path, job->profile->by_line, err, errlen);
}

static int send_results(const struct profile *p, struct cbench_profile_info *info, int fd)
{
	struct cbench_msg m = { .type = CBENCH_MSG_PROFILE };
	int ret;

	m.u.profile = *info;
	ret = cbench_worker_send(fd, &m);
	for (size_t i = 0; !ret && i < p->ngroups; i++) {
		memset(&m, 0, sizeof(m));
		m.type = CBENCH_MSG_PROFILE_GROUP;
		m.u.group = p->groups[i];
		ret = cbench_worker_send(fd, &m);
	}
	return ret;
}

int cbench_worker_profile(struct cbench_backend *b, const struct cbench_worker_job *job, int fd)
{
	const struct cbench_profile_job *pj = job->profile;
	double start = cbench_now_ns(), until = start + job->time_limit_ns * TIME_SHARE, enabled, call_total = 0;
	struct cbench_profile_info info = { 0 };
	struct profile p = { .job = pj };
	struct cbench_sampler s;
	struct cbench_sample sample;
	uint64_t rng = (uint64_t)start ^ (uint64_t)getpid(), reps;
	int ret;

	ret = locate(&p, job, b->error, sizeof(b->error));
	if (ret)
		goto out;
	ret = pick_reps(b, until, &reps);
	/* The call's own length, unsampled: sampling interrupts slow it down
	 * (by a fifth, at 10 kHz, in the VMs here), and R is about the code. */
	info.unsampled_call_ns = INFINITY;
	for (int i = 0; !ret && i < UNSAMPLED_CALLS; i++) {
		double call = cbench_now_ns();

		ret = b->ops->measure(b, reps, &sample);
		if (cbench_now_ns() - call < info.unsampled_call_ns)
			info.unsampled_call_ns = cbench_now_ns() - call;
	}
	if (ret)
		goto out;
	ret = cbench_sampler_open(&s, pj->period_ns, b->error, sizeof(b->error));
	if (ret)
		goto out;
	enabled = cbench_now_ns();
	ret = cbench_sampler_enable(&s);
	while (!ret) {
		double call = cbench_now_ns();

		ret = b->ops->measure(b, reps, &sample);
		if (ret)
			break;
		call_total += cbench_now_ns() - call;
		info.calls++;
		cbench_sampler_drain(&s, on_sample, &p);
		if (p.error) {
			ret = p.error;
			break;
		}
		if (enough(&p))
			break;
		if (cbench_now_ns() > until) {
			info.time_limited = true;
			break;
		}
		ret = cbench_sampler_period(&s, pj->period_ns / 2 + rng_next(&rng) % (pj->period_ns + 1));
	}
	cbench_sampler_disable(&s);
	info.sampling_ns = cbench_now_ns() - enabled;
	/* What came between the last drain and the disable is the harness's. */
	cbench_sampler_drain(&s, on_sample, &p);
	ret = ret ? ret : p.error;
	snprintf(info.event, sizeof(info.event), "%s", s.event);
	snprintf(info.period_unit, sizeof(info.period_unit), "%s", s.period_unit);
	info.period = (uint64_t)((double)pj->period_ns * s.units_per_ns);
	info.period_ns = pj->period_ns;
	info.kernel_excluded = s.kernel_excluded;
	info.paranoid = s.paranoid;
	info.hw_error = s.hw_error;
	info.lost = s.lost;
	info.throttled = s.throttled;
	info.samples = p.total;
	info.reps_per_call = reps;
	info.call_ns = info.calls ? call_total / (double)info.calls : 0;
	cbench_sampler_close(&s);
	if (!ret)
		ret = send_results(&p, &info, fd);
out:
	cbench_symbols_close(p.symbols);
	free(p.slots);
	free(p.groups);
	free(p.counts);
	return ret;
}
