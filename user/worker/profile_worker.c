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
 * Every object gets its functions named (symbols.h): the benchmark's own,
 * libc's and the user's libraries (a library's group is "library", with its
 * file name), and PLT stubs.  The harness, cbenchctl's own code, stays one
 * group: its functions are nobody's concern but ours.  With stacks, each
 * sample is also unwound (unwind.h) into a folded stack of those names.  The
 * sampler pauses while we drain it, so our own work (reading a library's
 * symbols, unwinding) is not in the profile.
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
#include "worker/unwind.h"
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
/* With stacks: bytes of user stack copied per sample (perf's default for
 * --call-graph dwarf), frames followed, and other objects whose symbols we
 * keep open. */
#define STACK_BYTES 8192
#define FRAMES_MAX 64
#define OTHERS_MAX 64
/* Distinct stacks kept; the rest are counted as one. */
#define STACK_SLOTS (2 * CBENCH_PROFILE_STACKS_MAX)

struct ip_slot {
	uint64_t ip;			/* 0: empty (no sample has IP 0) */
	size_t group;
};

/* Another mapped object, its symbols read on first use. */
struct other {
	struct link_map *map;
	struct cbench_symbols *symbols;	/* NULL: unreadable (the vdso) */
};

/* A folded stack and its count. */
struct stack_slot {
	char *frames;			/* NULL: free */
	uint64_t count;
};

/* Where an address is: a group's identity, or a frame of a stack. */
struct place {
	uint32_t where;			/* enum cbench_profile_where */
	char name[200];
	char object[64];		/* LIBRARY */
	const char *file;		/* FUNCTION with lines */
	int line;
	bool harness;			/* cbenchctl's own code */
};

struct profile {
	const struct cbench_profile_job *job;
	struct cbench_symbols *symbols;
	struct link_map *object;	/* the benchmark's object */
	const char *object_name;	/* its file name, for outside groups */
	struct other others[OTHERS_MAX];
	size_t nothers;
	struct cbench_unwinder *unwinder;	/* with stacks */
	struct stack_slot *stacks;	/* STACK_SLOTS, open addressing */
	size_t nstacks;
	uint64_t other_stacks;		/* samples whose stack did not fit */
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
static size_t group_of(struct profile *p, const struct place *pl)
{
	const char *file = pl->file ? pl->file : "";
	struct cbench_profile_group *g;

	for (size_t i = 0; i < p->ngroups; i++) {
		g = &p->groups[i];
		if (g->where == pl->where && g->line == (uint32_t)pl->line &&
		    !strncmp(g->name, pl->name, sizeof(g->name) - 1) &&
		    !strncmp(g->file, file, sizeof(g->file) - 1) &&
		    !strncmp(g->object, pl->object, sizeof(g->object) - 1))
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
	g->where = pl->where;
	g->line = (uint32_t)pl->line;
	snprintf(g->name, sizeof(g->name), "%s", pl->name);
	snprintf(g->file, sizeof(g->file), "%s", file);
	snprintf(g->object, sizeof(g->object), "%s", pl->object);
	p->counts[p->ngroups] = 0;
	return p->ngroups++;
}

/* The symbols of another object, read the first time it is seen; NULL
 * where its file cannot be read (the vdso) or too many are open. */
static struct cbench_symbols *other_symbols(struct profile *p, struct link_map *map, const char *path)
{
	char err[256];

	for (size_t i = 0; i < p->nothers; i++)
		if (p->others[i].map == map)
			return p->others[i].symbols;
	if (p->nothers == OTHERS_MAX)
		return NULL;
	p->others[p->nothers].map = map;
	if (path[0] != '/' || cbench_symbols_open(&p->others[p->nothers].symbols, path, false, err, sizeof(err)))
		p->others[p->nothers].symbols = NULL;
	return p->others[p->nothers++].symbols;
}

/* A library's function at ip, or its code in no symbol. */
static void place_library(struct profile *p, struct place *pl, struct link_map *map, const char *path,
			  uint64_t ip)
{
	struct cbench_symbols *syms = other_symbols(p, map, path);
	const char *func = syms ? cbench_symbols_function(syms, ip - map->l_addr, NULL) : NULL;

	if (func) {
		pl->where = CBENCH_PROFILE_LIBRARY;
		snprintf(pl->name, sizeof(pl->name), "%s", func);
		snprintf(pl->object, sizeof(pl->object), "%s", base_name(path));
		return;
	}
	pl->where = CBENCH_PROFILE_OUTSIDE;
	snprintf(pl->name, sizeof(pl->name), "[%s, no symbol%s]", base_name(path),
		 syms && cbench_symbols_stripped(syms) ? ": stripped, and no debug file" : "");
}

/* Where ip is.  lines: the source line too, in the benchmark's object. */
static void place_of(struct profile *p, uint64_t ip, bool lines, struct place *pl)
{
	struct link_map *map = NULL;
	const char *func;
	Dl_info info;
	size_t cwd_len = strlen(p->cwd);

	memset(pl, 0, sizeof(*pl));
	if (!dladdr1((void *)(uintptr_t)ip, &info, (void **)&map, RTLD_DL_LINKMAP) || !map) {
		pl->where = CBENCH_PROFILE_OUTSIDE;
		snprintf(pl->name, sizeof(pl->name), "[outside %s: unknown]", p->object_name);
		return;
	}
	if (map != p->object) {
		/* The main program's link map has an empty name: the harness. */
		if (!map->l_name || !map->l_name[0]) {
			pl->where = CBENCH_PROFILE_OUTSIDE;
			pl->harness = true;
			snprintf(pl->name, sizeof(pl->name), "[outside %s: %s]", p->object_name,
				 program_invocation_short_name);
			return;
		}
		place_library(p, pl, map, map->l_name, ip);
		return;
	}
	func = cbench_symbols_function(p->symbols, ip - map->l_addr, NULL);
	if (!func) {
		pl->where = CBENCH_PROFILE_NO_SYMBOL;
		snprintf(pl->name, sizeof(pl->name), "[%s, no symbol]", p->object_name);
		return;
	}
	pl->where = CBENCH_PROFILE_FUNCTION;
	snprintf(pl->name, sizeof(pl->name), "%s", func);
	if (lines)
		pl->line = cbench_symbols_line(p->symbols, ip - map->l_addr, &pl->file);
	/* Paths under our directory are shown relative to it. */
	if (pl->file && cwd_len && !strncmp(pl->file, p->cwd, cwd_len) && pl->file[cwd_len] == '/')
		pl->file += cwd_len + 1;
}

/* Where a sample at ip belongs; SIZE_MAX without memory. */
static size_t classify(struct profile *p, uint64_t ip, bool kernel)
{
	struct place pl;

	if (kernel) {
		memset(&pl, 0, sizeof(pl));
		pl.where = CBENCH_PROFILE_KERNEL;
		strcpy(pl.name, "[kernel]");
	} else {
		place_of(p, ip, p->job->by_line, &pl);
	}
	return group_of(p, &pl);
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

/* A frame of a folded stack: a library's function is "lib`name"; the
 * format's separators become harmless. */
static void frame_text(const struct place *pl, char *buf, size_t len)
{
	if (pl->where == CBENCH_PROFILE_LIBRARY)
		snprintf(buf, len, "%s`%s", pl->object, pl->name);
	else
		snprintf(buf, len, "%s", pl->name);
	for (; *buf; buf++)
		*buf = *buf == ';' ? ':' : *buf == '\n' ? ' ' : *buf;
}

/*
 * rec's stack, folded into out (outermost frame first): its frames up to
 * the harness, which is the root only of a stack with no frame of the
 * benchmark's object (the harness's own calls into libc, say); "[kernel]"
 * on top of a kernel sample's user frames; with lines, the leaf's source
 * line on top of its function.  Cut at the outer end to fit.
 */
static void fold_stack(struct profile *p, const struct cbench_sampler_rec *rec, char *out, size_t len)
{
	char text[FRAMES_MAX + 2][272];
	uint64_t pcs[FRAMES_MAX];
	size_t n = 0, nf, used = 0, keep;
	bool in_object = false;
	struct place pl;

	if (rec->kernel)
		strcpy(text[n++], "[kernel]");
	nf = cbench_unwind(p->unwinder, rec, pcs, FRAMES_MAX);
	if (!nf && !rec->kernel)
		pcs[nf++] = rec->ip;
	for (size_t i = 0; i < nf; i++) {
		bool leaf_line = i == 0 && !rec->kernel && p->job->by_line;

		place_of(p, pcs[i], leaf_line, &pl);
		if (pl.harness) {
			if (!in_object)
				frame_text(&pl, text[n++], sizeof(text[0]));
			break;
		}
		in_object |= pl.where == CBENCH_PROFILE_FUNCTION || pl.where == CBENCH_PROFILE_NO_SYMBOL;
		if (leaf_line && pl.where == CBENCH_PROFILE_FUNCTION)
			snprintf(text[n++], sizeof(text[0]), "%s:%d", pl.file ? pl.file : "?", pl.line);
		frame_text(&pl, text[n++], sizeof(text[0]));
	}
	/* The innermost frames that fit, with room for "...;". */
	for (keep = 0; keep < n && used + strlen(text[keep]) + 1 + 4 < len; keep++)
		used += strlen(text[keep]) + 1;
	if (keep == n - 1 && used + strlen(text[keep]) < len)
		keep = n;
	out[0] = '\0';
	if (keep < n)
		strcat(out, "...;");
	while (keep--) {
		strcat(out, text[keep]);
		if (keep)
			strcat(out, ";");
	}
}

static void count_stack(struct profile *p, const char *frames)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	for (const char *c = frames; *c; c++)
		h = (h ^ (unsigned char)*c) * 0x100000001b3ULL;
	for (i = (size_t)h & (STACK_SLOTS - 1); p->stacks[i].frames; i = (i + 1) & (STACK_SLOTS - 1)) {
		if (!strcmp(p->stacks[i].frames, frames)) {
			p->stacks[i].count++;
			return;
		}
	}
	if (p->nstacks == CBENCH_PROFILE_STACKS_MAX) {
		p->other_stacks++;
		return;
	}
	p->stacks[i].frames = strdup(frames);
	if (!p->stacks[i].frames) {
		p->error = -ENOMEM;
		return;
	}
	p->stacks[i].count = 1;
	p->nstacks++;
}

static void on_sample(void *arg, const struct cbench_sampler_rec *rec)
{
	struct profile *p = arg;
	uint64_t ip = rec->ip;
	bool kernel = rec->kernel;
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
	if (p->unwinder) {
		char frames[CBENCH_PROFILE_STACK_CHARS];

		fold_stack(p, rec, frames, sizeof(frames));
		count_stack(p, frames);
	}
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
	for (size_t i = 0; !ret && p->stacks && i < STACK_SLOTS; i++) {
		if (!p->stacks[i].frames)
			continue;
		memset(&m, 0, sizeof(m));
		m.type = CBENCH_MSG_PROFILE_STACK;
		m.u.stack.count = p->stacks[i].count;
		snprintf(m.u.stack.frames, sizeof(m.u.stack.frames), "%s", p->stacks[i].frames);
		ret = cbench_worker_send(fd, &m);
	}
	if (!ret && p->other_stacks) {
		memset(&m, 0, sizeof(m));
		m.type = CBENCH_MSG_PROFILE_STACK;
		m.u.stack.count = p->other_stacks;
		strcpy(m.u.stack.frames, "[other stacks]");
		ret = cbench_worker_send(fd, &m);
	}
	return ret;
}

/* The sampled calls, until the job's target, the time limit or an error. */
static int sample_calls(struct cbench_backend *b, struct cbench_sampler *s, struct profile *p, uint64_t reps,
			double until, struct cbench_profile_info *info)
{
	const struct cbench_profile_job *pj = p->job;
	uint64_t rng = (uint64_t)cbench_now_ns() ^ (uint64_t)getpid();
	struct cbench_sample sample;
	double enabled = cbench_now_ns(), call_total = 0;
	int ret = cbench_sampler_enable(s);

	while (!ret) {
		double call = cbench_now_ns();

		ret = b->ops->measure(b, reps, &sample);
		if (ret)
			break;
		call_total += cbench_now_ns() - call;
		info->calls++;
		/* Paused: naming a library's functions the first time (reading
		 * its symbol table, sorting it) and unwinding take far longer
		 * than the harness between calls, and are not its work. */
		ret = cbench_sampler_disable(s);
		cbench_sampler_drain(s, on_sample, p);
		/* Judged paused: samples taken after the judgement would move
		 * the shares the report gives past the width it met. */
		if (ret || p->error || enough(p))
			break;
		if (cbench_now_ns() > until) {
			info->time_limited = true;
			break;
		}
		ret = cbench_sampler_enable(s);
		if (!ret)
			ret = cbench_sampler_period(s, pj->period_ns / 2 +
						       rng_next(&rng) % (pj->period_ns + 1));
	}
	cbench_sampler_disable(s);
	info->sampling_ns = cbench_now_ns() - enabled;
	/* What came between the last drain and the disable is the harness's. */
	cbench_sampler_drain(s, on_sample, p);
	info->call_ns = info->calls ? call_total / (double)info->calls : 0;
	return ret ? ret : p->error;
}

/* The sampler's account, for the report. */
static void describe_sampling(const struct cbench_sampler *s, const struct profile *p, uint64_t reps,
			      struct cbench_profile_info *info)
{
	snprintf(info->event, sizeof(info->event), "%s", s->event);
	snprintf(info->period_unit, sizeof(info->period_unit), "%s", s->period_unit);
	info->period = (uint64_t)((double)p->job->period_ns * s->units_per_ns);
	info->period_ns = p->job->period_ns;
	info->kernel_excluded = s->kernel_excluded;
	info->paranoid = s->paranoid;
	info->hw_error = s->hw_error;
	info->lost = s->lost;
	info->throttled = s->throttled;
	info->samples = p->total;
	info->reps_per_call = reps;
}

static void profile_free(struct profile *p)
{
	cbench_symbols_close(p->symbols);
	for (size_t i = 0; i < p->nothers; i++)
		cbench_symbols_close(p->others[i].symbols);
	cbench_unwind_close(p->unwinder);
	for (size_t i = 0; p->stacks && i < STACK_SLOTS; i++)
		free(p->stacks[i].frames);
	free(p->stacks);
	free(p->slots);
	free(p->groups);
	free(p->counts);
}

int cbench_worker_profile(struct cbench_backend *b, const struct cbench_worker_job *job, int fd)
{
	const struct cbench_profile_job *pj = job->profile;
	double until = cbench_now_ns() + job->time_limit_ns * TIME_SHARE;
	struct cbench_profile_info info = { 0 };
	struct profile p = { .job = pj };
	struct cbench_sampler s;
	struct cbench_sample sample;
	uint64_t reps;
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
	if (pj->stacks) {
		/* After the calls above: a library the benchmark's setup
		 * loaded is mapped by now. */
		p.stacks = calloc(STACK_SLOTS, sizeof(*p.stacks));
		ret = p.stacks ? cbench_unwind_open(&p.unwinder, b->error, sizeof(b->error)) : -ENOMEM;
		if (ret)
			goto out;
	}
	ret = cbench_sampler_open(&s, pj->period_ns, pj->stacks ? STACK_BYTES : 0, b->error, sizeof(b->error));
	if (ret)
		goto out;
	ret = sample_calls(b, &s, &p, reps, until, &info);
	describe_sampling(&s, &p, reps, &info);
	cbench_sampler_close(&s);
	if (!ret)
		ret = send_results(&p, &info, fd);
out:
	profile_free(&p);
	return ret;
}
