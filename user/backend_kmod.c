// SPDX-License-Identifier: GPL-2.0
/*
 * The kmod backend: measurements taken by cbench.ko in ring 0, interrupts
 * off, on the worker's CPU.  Same pipeline as the user backend (tuning,
 * trials, reports); only measure() differs: it asks the module.
 *
 * The object is checked by kimage and uploaded once per worker; each
 * benchmark first runs once in a user-mode child, so one that crashes dies
 * there and never reaches ring 0.  A run in the module costs a thread and
 * a few round trips, so measure() takes samples in batches: a run of many
 * samples at the same reps for trials, or a sweep reps, reps + 1, ... when
 * the tuner scans upwards, and hands them out one at a time.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <netlink/attr.h>

#include "arena.h"
#include "backend.h"
#include "../kmod/lib/sample.h"
#include "kimage.h"
#include "netlink.h"
#include "reference.h"
#include "stats.h"
#include "tune.h"

/* Samples per run: enough to amortize starting a run, few enough to waste little. */
#define BATCH_SAMPLES 256
/* Samples of the empty entry that calibrate the timer. */
#define CALIBRATION_SAMPLES 1024
/* Samples of a spin sweep (reps SPIN_FIRST, SPIN_FIRST + 1, ...) that show
 * the timer's step. */
#define SPIN_SAMPLES 1024
#define SPIN_FIRST 16
/* Reps of the reference chain per calibration sample (100000 adds), and samples. */
#define CHAIN_REPS 100
#define CHAIN_SAMPLES 64
/* Distinct run shapes a worker remembers as rehearsed; past that, the oldest
 * is forgotten (and rehearsed again if it comes back). */
#define REHEARSED_MAX 64
/* How often we ask whether a run has ended. */
#define POLL_US 200
/*
 * Runs that end TOO_LONG without a sample before we believe it: a host
 * preempting a VM can stretch the calls that probe the duration.
 */
#define TOO_LONG_TRIES 3
/* A run that has not ended after this long is cancelled. */
#define RUN_TIMEOUT_S 60

/* Samples of one run, handed out one at a time. */
struct batch {
	struct cbench_ksample *s;
	uint32_t n, next;
	uint64_t reps, step;
	struct cbench_ksample overhead;	/* of the run that took the batch */
	uint32_t counters;		/* CBENCH_COUNTER_F_* of that run */
	uint64_t last_reps;
};

struct kmod_backend {
	struct cbench_nl *nl;
	int cpu;
	struct cbench_kimage image;
	bool have_image;
	uint32_t image_id;
	const struct cbench_kimage_entry *entry;
	int64_t param;
	uint64_t arena_bytes;

	/* The benchmark's current batch, and the reference chain's. */
	struct batch bench, ref;
	/* The reference image (reference.S), uploaded for trials. */
	struct cbench_kimage ref_image;
	uint32_t ref_image_id;
	bool have_ref_image;
	uint64_t budget_ns;		/* the module's, for messages */
	uint64_t arena_max_bytes;	/* the module's; 0 if it did not say */
	const struct cbench_experiment *exp;
	/* Run shapes user mode has rehearsed (cbench_kmod_rehearse()): only
	 * those reach ring 0. */
	struct cbench_kmod_shape rehearsed[REHEARSED_MAX];
	uint32_t nrehearsed;
};

/* ---- one request: attributes out, a few values back -------------------- */

enum { A_U32, A_U64, A_S64, A_BIN };

struct call {
	struct {
		int type, kind;
		uint64_t value;
		const void *data;
		uint32_t bytes;
	} attr[12];
	int nattr;
	/* Reply values, by attribute type; found[] says which came. */
	uint64_t value[CBENCH_A_MAX + 1];
	bool found[CBENCH_A_MAX + 1];
	struct cbench_ksample overhead;
	uint64_t arena_max_bytes;	/* INFO: the module's arena_max_bytes */
	/* Samples dump: where they go. */
	struct cbench_ksample *samples;
	uint32_t nsamples, max_samples;
};

static void add(struct call *c, int type, int kind, uint64_t value)
{
	c->attr[c->nattr].type = type;
	c->attr[c->nattr].kind = kind;
	c->attr[c->nattr].value = value;
	c->nattr++;
}

static void add_bin(struct call *c, int type, const void *data, uint32_t bytes)
{
	c->attr[c->nattr].type = type;
	c->attr[c->nattr].kind = A_BIN;
	c->attr[c->nattr].data = data;
	c->attr[c->nattr].bytes = bytes;
	c->nattr++;
}

static int build(struct nl_msg *msg, void *arg)
{
	const struct call *c = arg;

	for (int i = 0; i < c->nattr; i++) {
		int type = c->attr[i].type, ret;

		switch (c->attr[i].kind) {
		case A_U32:
			ret = nla_put_u32(msg, type, (uint32_t)c->attr[i].value);
			break;
		case A_BIN:
			ret = nla_put(msg, type, (int)c->attr[i].bytes, c->attr[i].data);
			break;
		default:
			ret = nla_put_u64(msg, type, c->attr[i].value);
			break;
		}
		if (ret)
			return -EMSGSIZE;
	}
	return 0;
}

static int parse(struct nlattr **attrs, void *arg)
{
	struct call *c = arg;

	for (int type = 1; type <= CBENCH_A_MAX; type++) {
		const struct nlattr *a = attrs[type];
		int len;

		if (!a)
			continue;
		len = nla_len(a);
		c->found[type] = true;
		if (type == CBENCH_A_INFO_LIMITS) {
			struct nlattr *tb[CBENCH_A_LIMIT_MAX + 1];

			if (nla_parse_nested(tb, CBENCH_A_LIMIT_MAX, (struct nlattr *)a, NULL))
				continue;
			if (tb[CBENCH_A_LIMIT_IRQOFF_NS])
				c->value[type] = nla_get_u64(tb[CBENCH_A_LIMIT_IRQOFF_NS]);
			if (tb[CBENCH_A_LIMIT_ARENA_BYTES])
				c->arena_max_bytes = nla_get_u64(tb[CBENCH_A_LIMIT_ARENA_BYTES]);
		} else if (type == CBENCH_A_RUN_OVERHEAD && len == (int)sizeof(c->overhead)) {
			memcpy(&c->overhead, nla_data(a), sizeof(c->overhead));
		} else if (type == CBENCH_A_SAMPLES) {
			uint32_t n = (uint32_t)len / sizeof(struct cbench_ksample);
			uint32_t first = attrs[CBENCH_A_SAMPLES_FIRST] ?
					 nla_get_u32(attrs[CBENCH_A_SAMPLES_FIRST]) : UINT32_MAX;

			if (len % (int)sizeof(struct cbench_ksample) || first != c->nsamples ||
			    n > c->max_samples - c->nsamples)
				return -EPROTO;
			memcpy(c->samples + c->nsamples, nla_data(a), n * sizeof(struct cbench_ksample));
			c->nsamples += n;
		} else if (len == 4) {
			c->value[type] = nla_get_u32(a);
		} else if (len == 8) {
			c->value[type] = nla_get_u64(a);
		}
	}
	return 0;
}

static int call(struct cbench_nl *nl, uint8_t cmd, bool dump, struct call *c)
{
	struct cbench_nl_request req = {
		.cmd = cmd, .dump = dump, .build = build, .parse = parse, .arg = c,
	};

	return cbench_nl_request(nl, &req);
}

/* ---- images and runs --------------------------------------------------- */

static int upload(struct cbench_nl *nl, const struct cbench_kimage *image, uint32_t *id)
{
	struct call c = { 0 };
	int ret;

	add(&c, CBENCH_A_IMAGE_BYTES, A_U64, image->image_bytes);
	ret = call(nl, CBENCH_CMD_IMAGE_NEW, false, &c);
	if (ret)
		return ret;
	if (!c.found[CBENCH_A_IMAGE_ID])
		return -EPROTO;
	*id = (uint32_t)c.value[CBENCH_A_IMAGE_ID];
	for (uint64_t off = 0; off < image->image_bytes; off += CBENCH_CHUNK_MAX_BYTES) {
		uint64_t n = image->image_bytes - off;

		memset(&c, 0, sizeof(c));
		add(&c, CBENCH_A_IMAGE_ID, A_U32, *id);
		add(&c, CBENCH_A_CHUNK_OFFSET, A_U64, off);
		add_bin(&c, CBENCH_A_CHUNK_DATA, image->bytes + off,
			(uint32_t)(n < CBENCH_CHUNK_MAX_BYTES ? n : CBENCH_CHUNK_MAX_BYTES));
		ret = call(nl, CBENCH_CMD_IMAGE_CHUNK, false, &c);
		if (ret)
			return ret;
	}
	memset(&c, 0, sizeof(c));
	add(&c, CBENCH_A_IMAGE_ID, A_U32, *id);
	add_bin(&c, CBENCH_A_IMAGE_TEXT, image->text, image->ntext * sizeof(image->text[0]));
	if (image->nrelocs)
		add_bin(&c, CBENCH_A_IMAGE_RELOCS, image->relocs, image->nrelocs * sizeof(uint64_t));
	return call(nl, CBENCH_CMD_IMAGE_MAP, false, &c);
}

struct run_request {
	uint32_t image_id;
	const struct cbench_kimage_entry *entry;
	uint64_t run_offset;		/* entry->run, or the calibration image's */
	uint64_t reps, step;
	uint32_t samples;
	int cpu;
	uint64_t arena_bytes;
	int64_t param;
};

struct run_result {
	uint32_t state;
	int32_t error;
	uint32_t counters;
	struct cbench_ksample overhead;
	bool have_overhead;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/*
 * Starts a run, waits for it, reads its samples into out (room for
 * r->samples) and deletes it.  Returns the number of samples or -errno.
 */
static int run_once(struct cbench_nl *nl, const struct run_request *r, struct cbench_ksample *out,
		    struct run_result *res)
{
	struct call c = { 0 };
	uint32_t run_id;
	double deadline;
	int ret, n;

	add(&c, CBENCH_A_IMAGE_ID, A_U32, r->image_id);
	add(&c, CBENCH_A_RUN_ENTRY, A_U64, r->run_offset);
	if (r->entry && r->entry->has_setup)
		add(&c, CBENCH_A_RUN_SETUP, A_U64, r->entry->setup);
	add(&c, CBENCH_A_RUN_REPS, A_U64, r->reps);
	if (r->step)
		add(&c, CBENCH_A_RUN_REPS_STEP, A_U64, r->step);
	add(&c, CBENCH_A_RUN_SAMPLES, A_U32, r->samples);
	add(&c, CBENCH_A_RUN_CPU, A_U32, (uint32_t)r->cpu);
	if (r->arena_bytes)
		add(&c, CBENCH_A_RUN_ARENA_BYTES, A_U64, r->arena_bytes);
	add(&c, CBENCH_A_RUN_PARAM, A_S64, (uint64_t)r->param);
	ret = call(nl, CBENCH_CMD_RUN_START, false, &c);
	if (ret)
		return ret;
	if (!c.found[CBENCH_A_RUN_ID])
		return -EPROTO;
	run_id = (uint32_t)c.value[CBENCH_A_RUN_ID];

	deadline = now_s() + RUN_TIMEOUT_S;
	for (;;) {
		memset(&c, 0, sizeof(c));
		add(&c, CBENCH_A_RUN_ID, A_U32, run_id);
		ret = call(nl, CBENCH_CMD_RUN_GET, false, &c);
		if (ret)
			return ret;
		if (c.value[CBENCH_A_RUN_STATE] != CBENCH_RUN_RUNNING)
			break;
		if (now_s() > deadline) {
			memset(&c, 0, sizeof(c));
			add(&c, CBENCH_A_RUN_ID, A_U32, run_id);
			call(nl, CBENCH_CMD_RUN_DEL, false, &c);
			return -ETIMEDOUT;
		}
		usleep(POLL_US);
	}
	res->state = (uint32_t)c.value[CBENCH_A_RUN_STATE];
	res->error = (int32_t)c.value[CBENCH_A_RUN_ERROR];
	res->counters = (uint32_t)c.value[CBENCH_A_RUN_COUNTERS];
	res->have_overhead = c.found[CBENCH_A_RUN_OVERHEAD];
	res->overhead = c.overhead;

	memset(&c, 0, sizeof(c));
	add(&c, CBENCH_A_RUN_ID, A_U32, run_id);
	c.samples = out;
	c.max_samples = r->samples;
	ret = call(nl, CBENCH_CMD_SAMPLES, true, &c);
	n = ret ? ret : (int)c.nsamples;

	memset(&c, 0, sizeof(c));
	add(&c, CBENCH_A_RUN_ID, A_U32, run_id);
	ret = call(nl, CBENCH_CMD_RUN_DEL, false, &c);
	return n < 0 ? n : ret ? ret : n;
}

/* ---- the ops ----------------------------------------------------------- */

static int kmod_open(struct cbench_backend *b, int cpu)
{
	struct kmod_backend *k = calloc(1, sizeof(*k));
	int ret;

	if (!k)
		return -ENOMEM;
	b->priv = k;
	k->cpu = cpu;
	b->env.cpu = cpu;
	strcpy(b->env.disturb_source, "kmod");
	k->bench.s = calloc(BATCH_SAMPLES, sizeof(*k->bench.s));
	k->ref.s = calloc(BATCH_SAMPLES, sizeof(*k->ref.s));
	if (!k->bench.s || !k->ref.s)
		return -ENOMEM;
	ret = cbench_nl_open(&k->nl);
	if (ret)
		return ret == -ENOENT ? -ENODEV : ret;
	{
		struct call c = { 0 };

		ret = call(k->nl, CBENCH_CMD_INFO, false, &c);
		if (ret)
			return ret;
		/* The budget runs get: we never ask for less than the module's. */
		b->env.irqoff_budget_ns = c.value[CBENCH_A_INFO_LIMITS];
		k->budget_ns = b->env.irqoff_budget_ns;
		k->arena_max_bytes = c.arena_max_bytes;
		b->env.rdpmc = c.value[CBENCH_A_INFO_COUNTERS] != 0;
	}
	return 0;
}

static void kmod_close(struct cbench_backend *b)
{
	struct kmod_backend *k = b->priv;

	if (!k)
		return;
	/* Closing the socket frees the image in the module. */
	if (k->nl)
		cbench_nl_close(k->nl);
	if (k->have_image)
		cbench_kimage_free(&k->image);
	if (k->have_ref_image)
		cbench_kimage_free(&k->ref_image);
	free(k->bench.s);
	free(k->ref.s);
	free(k);
	b->priv = NULL;
}

static uint32_t have_of(uint32_t counters)
{
	return (counters & CBENCH_COUNTER_F_INSTRUCTIONS ? CBENCH_HAVE_INSTRUCTIONS : 0) |
	       (counters & CBENCH_COUNTER_F_CYCLES ? CBENCH_HAVE_CYCLES : 0) |
	       (counters & CBENCH_COUNTER_F_REF_CYCLES ? CBENCH_HAVE_REF_CYCLES : 0);
}

/*
 * The reference image: reference.S's bytes, which are position-independent
 * and relocation-free, on their own pages.  Its entries are the empty
 * function, the add chain and the spin, at their offsets from
 * cbench_ref_begin.
 */
static int ref_image_make(struct cbench_kimage *image)
{
	size_t bytes = (size_t)(cbench_ref_end - cbench_ref_begin);
	long page = sysconf(_SC_PAGESIZE);

	memset(image, 0, sizeof(*image));
	image->image_bytes = (bytes + (size_t)page - 1) / (size_t)page * (size_t)page;
	image->bytes = calloc(1, image->image_bytes);
	if (!image->bytes)
		return -ENOMEM;
	memcpy(image->bytes, cbench_ref_begin, bytes);
	image->ntext = 1;
	image->text[0].start = 0;
	image->text[0].bytes = image->image_bytes;
	return 0;
}

static uint64_t ref_offset(void (*fn)(struct cbench_ctx *, uint64_t))
{
	return (uint64_t)((const char *)fn - cbench_ref_begin);
}

/* The valid samples' tsc deltas of a run of the reference image's fn. */
static int ref_run(struct kmod_backend *k, uint32_t image_id, void (*fn)(struct cbench_ctx *, uint64_t),
		   uint64_t reps, uint64_t step, uint32_t samples, double *v, uint64_t *raw,
		   struct run_result *res)
{
	struct run_request r = {
		.image_id = image_id, .run_offset = ref_offset(fn), .reps = reps, .step = step,
		.samples = samples, .cpu = k->cpu,
	};
	struct cbench_ksample *s = calloc(samples, sizeof(*s));
	int n, valid = 0;

	if (!s)
		return -ENOMEM;
	memset(res, 0, sizeof(*res));
	n = run_once(k->nl, &r, s, res);
	if (n >= 0 && res->state != CBENCH_RUN_DONE)
		n = res->error ? res->error : -EIO;
	for (int i = 0; i < n; i++) {
		if (s[i].flags)
			continue;
		if (v)
			v[valid] = (double)s[i].tsc;
		if (raw)
			raw[valid] = s[i].tsc;
		valid++;
	}
	if (n >= 0 && valid < 10)
		n = -EAGAIN;		/* nearly every sample disturbed */
	free(s);
	return n < 0 ? n : valid;
}

static int compare_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * The timer in ring 0: the TSC at the kernel's tsc_khz; its step from a
 * sweep of spins of growing length (reference.S); the overhead and spread
 * of a measurement from runs of the empty entry; cycles per tick from the
 * add chain.  All of it at the floor level, as trials are estimated.
 */
static int kmod_calibrate(struct cbench_backend *b, struct cbench_timer *t)
{
	struct kmod_backend *k = b->priv;
	struct cbench_kimage image;
	struct run_result res;
	uint32_t image_id;
	uint64_t *raw = calloc(SPIN_SAMPLES, sizeof(*raw));
	double *v = calloc(CALIBRATION_SAMPLES, sizeof(*v)), ticks;
	struct call c = { 0 };
	int ret, n;

	memset(t, 0, sizeof(*t));
	memset(&image, 0, sizeof(image));
	ret = -ENOMEM;
	if (!raw || !v)
		goto out;
	ret = call(k->nl, CBENCH_CMD_INFO, false, &c);
	if (ret)
		goto out;
	ret = -EOPNOTSUPP;	/* the kernel does not know its TSC's frequency */
	if (!c.value[CBENCH_A_INFO_TSC_KHZ])
		goto out;
	t->tsc_hz = (double)c.value[CBENCH_A_INFO_TSC_KHZ] * 1e3;
	ret = ref_image_make(&image);
	ret = ret ? ret : upload(k->nl, &image, &image_id);
	if (ret)
		goto out;

	n = ref_run(k, image_id, cbench_ref_spin, SPIN_FIRST, 1, SPIN_SAMPLES, NULL, raw, &res);
	if (n < 0) {
		ret = n;
		goto out;
	}
	t->step_ticks = (double)cbench_stats_step(raw, (size_t)n);
	if (!(t->step_ticks > 0))
		t->step_ticks = 1;

	n = ref_run(k, image_id, cbench_ref_empty, 1, 0, CALIBRATION_SAMPLES, v, NULL, &res);
	if (n < 0) {
		ret = n;
		goto out;
	}
	qsort(v, (size_t)n, sizeof(*v), compare_double);
	snprintf(t->name, sizeof(t->name), "tsc in ring 0 (cbench.ko)");
	/* What the module subtracts is each run's least empty-call cost; this
	 * is for the report and the error bound. */
	t->overhead_ticks = cbench_stats_floor_mean(v, (size_t)n, t->step_ticks);
	t->precision_ns = t->step_ticks * 1e9 / t->tsc_hz;
	/* As the user backend: the read cost's spread to its 99.9th
	 * percentile, and a step at each end. */
	t->accuracy_ns = (v[n * 999 / 1000] - v[0] + 2 * t->step_ticks) * 1e9 / t->tsc_hz;
	t->counters = have_of(res.counters);
	/* The counters' least cost around an empty call is subtracted run by
	 * run by measure(); the report shows the calibration's. */
	for (int j = 0; j < CBENCH_COUNTERS; j++)
		t->counter_overhead[j] = res.counters & (1u << j) && res.have_overhead ?
					 (double)res.overhead.counters[j] : 0;

	/* The module takes its least empty-call cost off every sample. */
	n = ref_run(k, image_id, cbench_ref_add_chain, CHAIN_REPS, 0, CHAIN_SAMPLES, v, NULL, &res);
	ticks = n > 0 ? cbench_stats_floor_mean(v, (size_t)n, t->step_ticks) : 0;
	if (n > 0 && res.have_overhead)
		ticks -= (double)res.overhead.tsc;
	if (ticks > 0)
		t->est_cycles_per_tick = (double)CBENCH_REF_ADDS_PER_REP * CHAIN_REPS / ticks;
	t->ref_reps = cbench_tune_ref_reps(t->step_ticks, t->tsc_hz, t->est_cycles_per_tick,
					   CBENCH_REF_ADDS_PER_REP);
	ret = 0;
out:
	cbench_kimage_free(&image);
	free(raw);
	free(v);
	return ret;
}

static uint64_t monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* What the rehearsing child got to, in memory its parent reads after it
 * ends, however it ends. */
struct rehearsal {
	uint64_t setup_ns;
	uint64_t reps;			/* of the call under way */
	uint32_t stage;			/* REHEARSE_* */
	int32_t error;			/* -errno of a failed arena map */
};

enum { REHEARSE_ARENA = 1, REHEARSE_SETUP, REHEARSE_PROBE, REHEARSE_SAMPLES, REHEARSE_DONE };

static const char *const stage_names[] = {
	[REHEARSE_ARENA] = "mapping the arena", [REHEARSE_SETUP] = "setup()",
	[REHEARSE_PROBE] = "the budget probe's call", [REHEARSE_SAMPLES] = "a sample's call",
};

/* The child: the run's calls in cbench.ko's order (kmod/run.c run_thread). */
static void __attribute__((noreturn)) rehearse_child(const struct cbench_experiment *e,
						     const struct cbench_kmod_shape *shape,
						     volatile struct rehearsal *r)
{
	const struct cbench_desc *d = e->desc;
	struct cbench_ctx ctx = { .param = e->param };
	struct cbench_arena arena;
	uint64_t t0, last;
	int ret;

	r->stage = REHEARSE_ARENA;
	ret = d->arena_bytes > SIZE_MAX ? -ENOMEM : cbench_arena_map(&arena, (size_t)d->arena_bytes);
	if (ret) {
		r->error = ret;
		_exit(2);
	}
	ctx.arena = arena.base;
	ctx.arena_bytes = d->arena_bytes;
	r->stage = REHEARSE_SETUP;
	t0 = monotonic_ns();
	if (d->setup && d->setup(&ctx))
		_exit(3);
	r->setup_ns = monotonic_ns() - t0;
	if (!shape) {
		r->stage = REHEARSE_SAMPLES;
		r->reps = 1;
		d->run(&ctx, 1);
		r->stage = REHEARSE_DONE;
		_exit(0);
	}
	last = shape->reps + (uint64_t)(shape->samples - 1) * shape->step;
	r->stage = REHEARSE_PROBE;
	for (uint64_t reps = 1; reps < last; reps = cbench_probe_next(reps, last)) {
		r->reps = reps;
		d->run(&ctx, reps);
	}
	r->reps = last;
	d->run(&ctx, last);
	r->stage = REHEARSE_SAMPLES;
	for (uint32_t i = 0; i < shape->samples; i++) {
		r->reps = shape->reps + i * shape->step;
		d->run(&ctx, r->reps);
	}
	r->stage = REHEARSE_DONE;
	_exit(0);
}

/* Why the child ended as it did, for a user who must fix the benchmark. */
static int rehearsal_verdict(const struct cbench_experiment *e, const volatile struct rehearsal *r,
			     int status, char *why, size_t why_bytes)
{
	const char *stage = r->stage < sizeof(stage_names) / sizeof(stage_names[0]) &&
			    stage_names[r->stage] ? stage_names[r->stage] : "loading";

	if (WIFEXITED(status) && WEXITSTATUS(status) == 3)
		return -ECANCELED;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 2 && r->stage == REHEARSE_ARENA) {
		snprintf(why, why_bytes, "%s: cannot map its arena of %" PRIu64 " bytes in user mode (%s)",
			 e->id, e->desc->arena_bytes, strerror(-r->error));
		return -ENOMEM;
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
		snprintf(why, why_bytes, "%s: setup() takes %.1f ms in user mode; in ring 0 it runs "
			 "with preemption off, which cbench.ko keeps under %.0f ms: make setup() "
			 "cheaper or measure it with --backend user", e->id, (double)r->setup_ns * 1e-6,
			 (double)CBENCH_KMOD_SETUP_MAX_NS * 1e-6);
		return -ETIME;
	}
	return 0;
}

int cbench_kmod_rehearse(const struct cbench_experiment *e, const struct cbench_kmod_shape *shape,
			 uint64_t *setup_ns, char *why, size_t why_bytes)
{
	volatile struct rehearsal *r;
	int status, ret;
	pid_t pid;

	*setup_ns = 0;
	if (why_bytes)
		why[0] = '\0';
	/* Shared, so what the child got to survives its crash. */
	r = mmap(NULL, sizeof(*r), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (r == MAP_FAILED)
		return -errno;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		munmap((void *)r, sizeof(*r));
		return ret;
	}
	if (pid == 0)
		rehearse_child(e, shape, r);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			ret = -errno;
			munmap((void *)r, sizeof(*r));
			return ret;
		}
	}
	*setup_ns = r->setup_ns;
	ret = rehearsal_verdict(e, r, status, why, why_bytes);
	munmap((void *)r, sizeof(*r));
	return ret;
}

int cbench_kmod_try_in_user_mode(const struct cbench_experiment *e, uint64_t *setup_ns)
{
	char why[256];

	return cbench_kmod_rehearse(e, NULL, setup_ns, why, sizeof(why));
}

static int kmod_prepare(struct cbench_backend *b, const struct cbench_experiment *e)
{
	struct kmod_backend *k = b->priv;
	uint64_t setup_ns;
	char why[400];
	Dl_info where;
	int ret;

	if (k->arena_max_bytes && e->desc->arena_bytes > k->arena_max_bytes) {
		snprintf(b->error, sizeof(b->error), "%s: its arena of %" PRIu64 " bytes exceeds "
			 "cbench.ko's arena_max_bytes (%" PRIu64 "): reload the module with a larger "
			 "arena_max_bytes, or measure it with --backend user", e->id,
			 e->desc->arena_bytes, k->arena_max_bytes);
		return -E2BIG;
	}
	ret = cbench_kmod_rehearse(e, NULL, &setup_ns, b->error, sizeof(b->error));
	if (ret)
		return ret;
	if (!dladdr(e->desc, &where) || !where.dli_fname)
		return -ENOENT;
	ret = cbench_kimage_load(where.dli_fname, &k->image, why, sizeof(why));
	if (ret) {
		snprintf(b->error, sizeof(b->error), "unable to run in ring 0: %s", why);
		return ret;
	}
	k->have_image = true;
	k->entry = cbench_kimage_find(&k->image, e->desc->name);
	if (!k->entry)
		return -ENOENT;
	k->exp = e;
	k->param = e->param;
	k->arena_bytes = e->desc->arena_bytes;
	ret = upload(k->nl, &k->image, &k->image_id);
	if (ret)
		return ret;
	/* Trials interleave the reference chain (worker.c). */
	ret = ref_image_make(&k->ref_image);
	if (ret)
		return ret;
	k->have_ref_image = true;
	return upload(k->nl, &k->ref_image, &k->ref_image_id);
}

static uint64_t minus(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

/* Takes a batch of samples of r into bt; a failure's account in error. */
static int refill(struct kmod_backend *k, struct batch *bt, struct run_request *r, const char *name,
		  char *error, size_t error_bytes)
{
	struct run_result res = { 0 };
	int n, tries = 0;

	bt->n = bt->next = 0;
	do {
		n = run_once(k->nl, r, bt->s, &res);
		if (n < 0)
			return n;
	} while (n == 0 && res.state == CBENCH_RUN_TOO_LONG && ++tries < TOO_LONG_TRIES);
	if (res.state == CBENCH_RUN_FAILED)
		return res.error ? res.error : -EIO;
	if (n == 0 && res.state == CBENCH_RUN_TOO_LONG) {
		/* The errno alone would not say which limit. */
		snprintf(error, error_bytes, "%s: %" PRIu64 " reps outlast cbench.ko's interrupts-off "
			 "budget (%" PRIu64 " ns, module parameter irqoff_budget_ns)",
			 name, r->reps + (uint64_t)(r->samples - 1) * r->step, k->budget_ns);
		return -E2BIG;
	}
	if (n == 0)
		return -EIO;
	bt->n = (uint32_t)n;
	bt->reps = r->reps;
	bt->step = r->step;
	bt->counters = res.counters;
	memset(&bt->overhead, 0, sizeof(bt->overhead));
	if (res.have_overhead)
		bt->overhead = res.overhead;
	return 0;
}

/* The next sample of bt, as a cbench_sample, less the run's own overhead. */
static void take(struct batch *bt, uint64_t reps, struct cbench_sample *s)
{
	const struct cbench_ksample *ks = &bt->s[bt->next++];

	bt->last_reps = reps;
	memset(s, 0, sizeof(*s));
	s->reps = reps;
	/* The module's least cost of an empty call, measured in the same run. */
	s->ticks = minus(ks->tsc, bt->overhead.tsc);
	s->have = have_of(bt->counters);
	s->instructions = minus(ks->counters[CBENCH_COUNTER_INSTRUCTIONS],
				bt->overhead.counters[CBENCH_COUNTER_INSTRUCTIONS]);
	s->cycles = minus(ks->counters[CBENCH_COUNTER_CYCLES],
			  bt->overhead.counters[CBENCH_COUNTER_CYCLES]);
	s->ref_cycles = minus(ks->counters[CBENCH_COUNTER_REF_CYCLES],
			      bt->overhead.counters[CBENCH_COUNTER_REF_CYCLES]);
	if (ks->flags & (CBENCH_SAMPLE_F_NMI | CBENCH_SAMPLE_F_SMI))
		s->disturbed |= CBENCH_DISTURB_NMI;
	if (ks->flags & CBENCH_SAMPLE_F_CPU)
		s->disturbed |= CBENCH_DISTURB_MIGRATION;
	if (ks->flags & CBENCH_SAMPLE_F_UNSCHEDULED)
		s->disturbed |= CBENCH_DISTURB_COUNTER;
	if (ks->flags & CBENCH_SAMPLE_F_OVER_BUDGET)
		s->disturbed |= CBENCH_DISTURB_OVER_BUDGET;
}

/* Whether bt holds the next sample for reps. */
static bool ready(const struct batch *bt, uint64_t reps)
{
	return bt->next < bt->n && bt->reps + bt->next * bt->step == reps;
}

/*
 * Ring 0 runs only what user mode has already run the same way: a run shape
 * not rehearsed yet is rehearsed first (cbench_kmod_rehearse()).
 */
static int rehearsed(struct cbench_backend *b, const struct cbench_kmod_shape *shape)
{
	struct kmod_backend *k = b->priv;
	uint64_t setup_ns;
	int ret;

	for (uint32_t i = 0; i < k->nrehearsed && i < REHEARSED_MAX; i++) {
		const struct cbench_kmod_shape *x = &k->rehearsed[i];

		if (x->reps == shape->reps && x->step == shape->step && x->samples == shape->samples)
			return 0;
	}
	ret = cbench_kmod_rehearse(k->exp, shape, &setup_ns, b->error, sizeof(b->error));
	if (ret)
		return ret;
	k->rehearsed[k->nrehearsed++ % REHEARSED_MAX] = *shape;
	return 0;
}

static int kmod_measure(struct cbench_backend *b, uint64_t reps, struct cbench_sample *s)
{
	struct kmod_backend *k = b->priv;
	int ret;

	if (!ready(&k->bench, reps)) {
		/*
		 * The tuner asks for 1, 2, 3, ...: take the sweep in one run.  A
		 * warm-up or a trial asks for the same reps again and again.
		 */
		struct run_request r = {
			.image_id = k->image_id, .entry = k->entry, .run_offset = k->entry->run,
			.reps = reps, .step = reps == k->bench.last_reps + 1 ? 1 : 0,
			.samples = BATCH_SAMPLES, .cpu = k->cpu,
			.arena_bytes = k->arena_bytes, .param = k->param,
		};
		struct cbench_kmod_shape shape = { r.reps, r.step, r.samples };

		ret = rehearsed(b, &shape);
		if (ret)
			return ret;
		ret = refill(k, &k->bench, &r, k->entry->name, b->error, sizeof(b->error));
		if (ret)
			return ret;
	}
	take(&k->bench, reps, s);
	return 0;
}

/* The reference chain in its own image, batch by batch beside the benchmark's. */
static int kmod_measure_ref(struct cbench_backend *b, uint64_t reps, struct cbench_sample *s)
{
	struct kmod_backend *k = b->priv;
	int ret;

	if (!k->have_ref_image)
		return -ENOENT;
	if (!ready(&k->ref, reps)) {
		struct run_request r = {
			.image_id = k->ref_image_id, .run_offset = ref_offset(cbench_ref_add_chain),
			.reps = reps, .samples = BATCH_SAMPLES, .cpu = k->cpu,
		};

		ret = refill(k, &k->ref, &r, "the reference chain", b->error, sizeof(b->error));
		if (ret)
			return ret;
	}
	take(&k->ref, reps, s);
	return 0;
}

const struct cbench_backend_ops cbench_backend_kmod = {
	.name = "kmod",
	.open = kmod_open,
	.calibrate = kmod_calibrate,
	.prepare = kmod_prepare,
	.measure = kmod_measure,
	.measure_ref = kmod_measure_ref,
	.close = kmod_close,
};

bool cbench_backend_kmod_available(void)
{
	struct cbench_nl *nl;

	if (geteuid() != 0 || cbench_nl_open(&nl))
		return false;
	cbench_nl_close(nl);
	return true;
}

int cbench_backend_kmod_check(const char *path, char *why, size_t why_bytes)
{
	struct cbench_kimage image;
	int ret = cbench_kimage_load(path, &image, why, why_bytes);

	if (!ret)
		cbench_kimage_free(&image);
	return ret;
}
