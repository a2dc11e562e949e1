// SPDX-License-Identifier: GPL-2.0
/*
 * The kmod backend: measurements taken by cbench.ko in ring 0, interrupts
 * off, on the worker's CPU.  Same pipeline as the user backend (tuning,
 * trials, reports); only measure() differs: it asks the module.
 *
 * The object is checked by kimage and uploaded once per worker, and again
 * at each code layout (kmod_layout.c); every run is first rehearsed in a
 * user-mode child (rehearse.c), so a benchmark that crashes dies there and
 * never reaches ring 0.  A run in the module costs a
 * thread and a few round trips, so measure() takes samples in batches: a
 * run of many samples at the same reps for trials, or a sweep reps, reps +
 * 1, ... when the tuner scans upwards, and hands them out one at a time.
 * The reference chain (reference.S) has an image and batches of its own.
 * Requests go through protocol.c.
 */
#include <cpuid.h>
#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/kmod.h"
#include "backend/kmod_parts.h"
#include "backend/rehearse.h"
#include "machine/arena.h"
#include "machine/clock.h"
#include "machine/probe.h"
#include "object/kimage.h"
#include "backend/protocol.h"
#include "machine/reference.h"
#include "stats/stats.h"
#include "stats/tune.h"

/* Samples per run: enough to amortize starting a run, few enough to waste little. */
#define BATCH_SAMPLES 256
/* How often we ask whether a run has ended. */
#define POLL_US 200
/*
 * Runs that end TOO_LONG without a sample before we believe it: a host
 * preempting a VM can stretch the calls that probe the duration.
 */
#define TOO_LONG_TRIES 3
/* A run that has not ended after this long is cancelled. */
#define RUN_TIMEOUT_S 60
/* MIN_TIMING in ring 0: samples of back-to-back timing points
 * (cbench_ref_tpoints), each of this many. */
#define MIN_TIMING_SAMPLES 10
#define MIN_TIMING_POINTS 1024



/* ---- loop timing points: a batch's records ------------------------------- */

static void tp_batch_free(struct batch *bt)
{
	free(bt->tp.out);
	free(bt->tp.taken);
	free(bt->tp.kept);
	memset(&bt->tp, 0, sizeof(bt->tp));
}

/* Room in bt for samples calls' records, records each; none if records is 0. */
static int tp_batch_alloc(struct batch *bt, uint32_t samples, uint32_t records)
{
	if (bt->tp.samples == samples && bt->tp.records == records)
		return 0;
	tp_batch_free(bt);
	if (!records)
		return 0;
	bt->tp.out = calloc((size_t)samples * records, sizeof(*bt->tp.out));
	bt->tp.taken = calloc(samples, sizeof(*bt->tp.taken));
	bt->tp.kept = calloc(samples, sizeof(*bt->tp.kept));
	if (!bt->tp.out || !bt->tp.taken || !bt->tp.kept) {
		tp_batch_free(bt);
		return -ENOMEM;
	}
	bt->tp.samples = samples;
	bt->tp.records = records;
	return 0;
}

/* ---- the ops ----------------------------------------------------------- */

static bool has_rdtscp(void)
{
	unsigned int a, b, c, d;

	return __get_cpuid(0x80000001, &a, &b, &c, &d) && (d & (1u << 27));
}


static int kmod_open(struct cbench_backend *b, int cpu)
{
	struct kmod_backend *k = calloc(1, sizeof(*k));
	int ret;

	if (!k)
		return -ENOMEM;
	b->priv = k;
	k->cpu = cpu;
	b->env.cpu = cpu;
	b->env.core_type = cbench_core_type_on(cpu);
	strcpy(b->env.disturb_source, "kmod");
	k->bench.s = calloc(BATCH_SAMPLES, sizeof(*k->bench.s));
	k->ref.s = calloc(BATCH_SAMPLES, sizeof(*k->ref.s));
	k->wide.s = calloc(BATCH_SAMPLES, sizeof(*k->wide.s));
	if (!k->bench.s || !k->ref.s || !k->wide.s)
		return -ENOMEM;
	ret = cbench_nl_open(&k->nl);
	if (ret)
		return ret == -ENOENT ? -ENODEV : ret;
	ret = cbench_proto_info(k->nl, &k->info);
	if (ret)
		return ret;
	ret = cbench_kmod_pick_settings(b, k);
	if (ret)
		return ret;
	/* The budget runs get: we never ask for less than the module's. */
	b->env.irqoff_budget_ns = k->info.irqoff_ns;
	k->budget_ns = k->info.irqoff_ns;
	k->arena_max_bytes = k->info.has_limits ? k->info.arena_bytes : 0;
	b->env.rdpmc = k->info.counters != 0;
	k->rdtscp = has_rdtscp();
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
	cbench_kmod_layout_free(k);
	cbench_kmod_stack_free(k);
	if (k->have_image)
		cbench_kimage_free(&k->image);
	if (k->have_ref_image)
		cbench_kimage_free(&k->ref_image);
	free(k->bench.s);
	free(k->ref.s);
	free(k->wide.s);
	tp_batch_free(&k->bench);
	free(k);
	b->priv = NULL;
}



static int kmod_prepare(struct cbench_backend *b, const struct cbench_experiment *e)
{
	struct kmod_backend *k = b->priv;
	struct cbench_kmod_rehearsal how;
	uint64_t setup_ns;
	char why[600];
	int ret;

	if (k->arena_max_bytes && e->desc->arena_bytes > k->arena_max_bytes) {
		snprintf(b->error, sizeof(b->error), "%s: its arena of %" PRIu64 " bytes exceeds "
			 "cbench.ko's arena_max_bytes (%" PRIu64 "): reload the module with a larger "
			 "arena_max_bytes, or measure it with --backend user", e->id,
			 e->desc->arena_bytes, k->arena_max_bytes);
		return -E2BIG;
	}
	/* The object's own file (an ABI 1 descriptor is a copy on the heap). */
	if (!e->lib || !e->lib->path[0])
		return -ENOENT;
	if (e->desc->abi_version > k->info.abi) {
		snprintf(b->error, sizeof(b->error), "unable to run in ring 0: benchmark %s is built for "
			 "cbench ABI %u, and the cbench.ko loaded runs ABI %u: load the cbench.ko built "
			 "with this cbenchctl", e->id, e->desc->abi_version, k->info.abi);
		return -EPROTO;
	}
	ret = cbench_kimage_load(e->lib->path, &k->image, why, sizeof(why));
	if (ret) {
		snprintf(b->error, sizeof(b->error), "unable to run in ring 0: %s", why);
		return ret;
	}
	k->have_image = true;
	ret = cbench_kimage_check_code(&k->image, e->lib->path, why, sizeof(why));
	if (ret) {
		snprintf(b->error, sizeof(b->error), "unable to run in ring 0: %s", why);
		return ret;
	}
	k->entry = cbench_kimage_find(&k->image, e->desc->name);
	if (!k->entry)
		return -ENOENT;
	k->exp = e;
	ret = cbench_kmod_stack_prepare(k, b->error, sizeof(b->error));
	if (ret)
		return ret;
	how = cbench_kmod_rehearsal_of(k);
	ret = cbench_kmod_rehearse(e, NULL, &how, &setup_ns, b->error, sizeof(b->error));
	if (ret)
		return ret;
	k->param = e->param;
	/* A module of ABI 2 knows no RUN_ARGS; its objects read no ctx->args. */
	k->nargs = k->info.abi >= 3 ? e->nargs : 0;
	k->arena_bytes = e->desc->arena_bytes;
	/* vmalloc's arena, base pages whatever was asked. */
	b->env.arena_bytes = e->desc->arena_bytes;
	b->env.arena_huge_bytes = 0;
	ret = cbench_proto_image_upload(k->nl, cbench_kmod_runs_image(k), k->info.image_crc, &k->image_id);
	if (ret)
		return ret;
	k->runs = (struct kmod_upload){ .id = k->image_id, .have = true };
	/* Trials interleave the reference chain (worker.c). */
	ret = cbench_kmod_ref_image(&k->ref_image);
	if (ret)
		return ret;
	k->have_ref_image = true;
	return cbench_proto_image_upload(k->nl, &k->ref_image, k->info.image_crc,
					 &k->ref_image_id);
}

static uint64_t minus(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}


/* Takes a batch of samples of r into bt; a failure's account in error. */
static int refill(struct kmod_backend *k, struct batch *bt, const struct cbench_proto_run *r,
		  const char *name, char *error, size_t error_bytes)
{
	struct cbench_proto_run_state res = { 0 };
	int n, ret, tries = 0;

	bt->n = bt->next = 0;
	bt->too_long = false;
	do {
		n = cbench_kmod_run_once(k, r, bt->s, r->tp_records ? &bt->tp : NULL, &res);
		if (n < 0)
			return n;
	} while (n == 0 && res.state == CBENCH_RUN_TOO_LONG && ++tries < TOO_LONG_TRIES);
	if (res.state == CBENCH_RUN_FAILED) {
		ret = bt == &k->bench ? cbench_kmod_stack_ended(k, &res, name, error, error_bytes) : 0;
		if (ret)
			return ret;
		/* A trap in a laid-out image, placed in the code as built. */
		if (bt == &k->bench && res.trap >= 0)
			res.trap_offset = cbench_kmod_built_trap(k, &res);
		return cbench_kmod_run_failed(&res, k->info.call_ms, name, bt == &k->bench ? &k->image : NULL,
			      bt == &k->bench ? k->exp->lib->path : NULL, error, error_bytes);
	}
	if (n == 0 && res.state == CBENCH_RUN_TOO_LONG) {
		/* The errno alone would not say which limit. */
		snprintf(error, error_bytes, "%s: %" PRIu64 " reps outlast cbench.ko's interrupts-off "
			 "budget (%" PRIu64 " ns, module parameter irqoff_budget_ns)",
			 name, r->reps + (uint64_t)(r->samples - 1) * r->reps_step, k->budget_ns);
		bt->too_long = true;
		return -E2BIG;
	}
	if (n == 0)
		return -EIO;
	bt->n = (uint32_t)n;
	bt->reps = r->reps;
	bt->step = r->reps_step;
	bt->counters = res.counters;
	memset(&bt->overhead, 0, sizeof(bt->overhead));
	if (res.has_overhead)
		bt->overhead = res.overhead;
	return 0;
}

/* A sample of a run, as a cbench_sample, less the run's own overhead. */
static void convert(const struct cbench_ksample *ks, const struct cbench_ksample *overhead,
		    uint32_t counters, uint64_t reps, struct cbench_sample *s)
{
	memset(s, 0, sizeof(*s));
	s->reps = reps;
	/* The module's least cost of an empty call, measured in the same run. */
	s->ticks = minus(ks->tsc, overhead->tsc);
	s->have = cbench_kmod_have(counters);
	s->instructions = minus(ks->counters[CBENCH_COUNTER_INSTRUCTIONS],
				overhead->counters[CBENCH_COUNTER_INSTRUCTIONS]);
	s->cycles = minus(ks->counters[CBENCH_COUNTER_CYCLES],
			  overhead->counters[CBENCH_COUNTER_CYCLES]);
	s->ref_cycles = minus(ks->counters[CBENCH_COUNTER_REF_CYCLES],
			      overhead->counters[CBENCH_COUNTER_REF_CYCLES]);
	if (ks->flags & CBENCH_SAMPLE_F_NMI)
		s->disturbed |= CBENCH_DISTURB_NMI;
	if (ks->flags & CBENCH_SAMPLE_F_SMI)
		s->disturbed |= CBENCH_DISTURB_SMI;
	if (ks->flags & CBENCH_SAMPLE_F_CPU)
		s->disturbed |= CBENCH_DISTURB_MIGRATION;
	if (ks->flags & CBENCH_SAMPLE_F_UNSCHEDULED)
		s->disturbed |= CBENCH_DISTURB_COUNTER;
	if (ks->flags & CBENCH_SAMPLE_F_OVER_BUDGET)
		s->disturbed |= CBENCH_DISTURB_OVER_BUDGET;
	if (ks->flags & CBENCH_SAMPLE_F_IRQ)
		s->disturbed |= CBENCH_DISTURB_IRQ;
}

/* The next sample of bt, as a cbench_sample. */
static void take(struct batch *bt, uint64_t reps, struct cbench_sample *s)
{
	bt->last_reps = reps;
	convert(&bt->s[bt->next++], &bt->overhead, bt->counters, reps, s);
}

/*
 * The timing points of sample index of the benchmark's batch, copied into
 * the caller's buffer from offset on (a per-rep benchmark's calls append),
 * and their count in s->tpoints.  Where we asked the module for fewer
 * records than the caller's buffer holds (its tpoints_max_records is
 * smaller), points past them are not counted: the caller would take the
 * slots they leave empty for records.
 */
static void tp_take(struct kmod_backend *k, uint32_t index, uint64_t offset, struct cbench_sample *s)
{
	const struct cbench_proto_tp *tp = &k->bench.tp;
	uint64_t kept, room, taken;

	if (!tp->records || !k->tp_buf || index >= tp->n)
		return;
	kept = tp->kept[index];
	room = offset < k->tp_capacity ? k->tp_capacity - offset : 0;
	memcpy(k->tp_buf + offset, tp->out + (size_t)index * tp->records,
	       (size_t)(kept < room ? kept : room) * sizeof(*k->tp_buf));
	taken = tp->taken[index];
	if (tp->records < k->tp_capacity && taken > tp->records)
		taken = tp->records;
	s->tpoints = taken;
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
	struct cbench_kmod_rehearsal how;
	uint64_t setup_ns;
	int ret;

	for (uint32_t i = 0; i < k->nrehearsed && i < REHEARSED_MAX; i++) {
		const struct cbench_kmod_shape *x = &k->rehearsed[i];

		if (x->reps == shape->reps && x->step == shape->step && x->samples == shape->samples &&
		    x->tp_records == shape->tp_records && x->tp_every == shape->tp_every)
			return 0;
	}
	how = cbench_kmod_rehearsal_of(k);
	ret = cbench_kmod_rehearse(k->exp, shape, &how, &setup_ns, b->error, sizeof(b->error));
	if (ret)
		return ret;
	k->rehearsed[k->nrehearsed++ % REHEARSED_MAX] = *shape;
	return 0;
}

static bool per_rep(const struct kmod_backend *k)
{
	return k->entry->has_before_rep || k->entry->has_after_rep;
}

/* A batch of the benchmark's samples as r asks, rehearsed first. */
static int bench_batch(struct cbench_backend *b, struct cbench_proto_run *r)
{
	struct kmod_backend *k = b->priv;
	struct cbench_kmod_shape shape = { r->reps, r->reps_step, r->samples, r->tp_records,
					   r->tp_every };
	int ret;

	k->bench.too_long = false;
	/* The image as built, or laid out anew (kmod_layout.c): the same
	 * code either way, so one rehearsal stands for both. */
	ret = cbench_kmod_upload(k, k, &k->runs, &r->image_id);
	if (ret)
		snprintf(b->error, sizeof(b->error), "unable to upload its image to cbench.ko: %s",
			 strerror(-ret));
	ret = ret ? ret : rehearsed(b, &shape);
	if (!ret)
		ret = tp_batch_alloc(&k->bench, r->samples, r->tp_records);
	return ret ? ret : refill(k, &k->bench, r, k->entry->name, b->error, sizeof(b->error));
}

/* One sample of reps, from the current batch or a new run; its timing
 * points, if asked for, into the caller's buffer from tp_offset on. */
static int bench_sample(struct cbench_backend *b, uint64_t reps, struct cbench_sample *s,
			uint64_t tp_offset)
{
	struct kmod_backend *k = b->priv;
	int ret;

	if (!ready(&k->bench, reps)) {
		/*
		 * The tuner asks for 1, 2, 3, ...: take the sweep in one run.  A
		 * warm-up or a trial asks for the same reps again and again.
		 */
		struct cbench_proto_run r = {
			.entry = k->entry->run,
			.has_setup = k->entry->has_setup, .setup = k->entry->setup,
			.has_before_rep = k->entry->has_before_rep, .before_rep = k->entry->before_rep,
			.has_after_rep = k->entry->has_after_rep, .after_rep = k->entry->after_rep,
			.reps = reps, .reps_step = reps == k->bench.last_reps + 1 && !per_rep(k) ? 1 : 0,
			.samples = k->tp_records ? k->tp_samples : BATCH_SAMPLES, .cpu = (uint32_t)k->cpu,
			.arena_bytes = k->arena_bytes, .param = k->param,
			.args = k->exp->args, .nargs = k->nargs,
			.tp_records = k->tp_records, .tp_every = k->tp_every,
		};
		/* A sweep whose longest call outlasts the interrupts-off budget
		 * (a slow benchmark, a slow host) is taken in shorter sweeps. */
		for (;;) {
			ret = bench_batch(b, &r);
			if (ret != -E2BIG || !k->bench.too_long || !r.reps_step || r.samples <= 1)
				break;
			r.samples /= 2;
		}
		if (ret)
			return ret;
	}
	take(&k->bench, reps, s);
	tp_take(k, k->bench.next - 1, tp_offset, s);
	return 0;
}

/*
 * A per-rep benchmark runs one rep per call, between its hooks (which the
 * module calls around each sample): reps such samples, added up.
 */
static int kmod_measure(struct cbench_backend *b, uint64_t reps, struct cbench_sample *s)
{
	struct kmod_backend *k = b->priv;
	struct cbench_sample one;
	int ret;

	if (!per_rep(k))
		return bench_sample(b, reps, s, 0);
	memset(s, 0, sizeof(*s));
	for (uint64_t i = 0; i < reps; i++) {
		ret = bench_sample(b, 1, &one, s->tpoints);
		if (ret)
			return ret;
		cbench_sample_add(s, &one);
		/* The calls' timing points follow each other in the buffer. */
		s->tpoints = one.tpoints > UINT64_MAX - s->tpoints ? UINT64_MAX : s->tpoints + one.tpoints;
	}
	return 0;
}

/* A function of the reference image, batch by batch beside the benchmark's. */
static int measure_in_ref_image(struct cbench_backend *b, struct batch *bt,
				void (*fn)(struct cbench_ctx *, uint64_t), const char *name,
				uint64_t reps, struct cbench_sample *s)
{
	struct kmod_backend *k = b->priv;
	int ret;

	if (!k->have_ref_image)
		return -ENOENT;
	if (!ready(bt, reps)) {
		struct cbench_proto_run r = {
			.image_id = k->ref_image_id, .entry = cbench_kmod_ref_offset(fn),
			.reps = reps, .samples = BATCH_SAMPLES, .cpu = (uint32_t)k->cpu,
		};

		ret = refill(k, bt, &r, name, b->error, sizeof(b->error));
		if (ret)
			return ret;
	}
	take(bt, reps, s);
	return 0;
}

static int kmod_measure_ref(struct cbench_backend *b, uint64_t reps, struct cbench_sample *s)
{
	struct kmod_backend *k = b->priv;

	return measure_in_ref_image(b, &k->ref, cbench_ref_add_chain, "the reference chain", reps, s);
}

static int kmod_measure_wide(struct cbench_backend *b, uint64_t reps, struct cbench_sample *s)
{
	struct kmod_backend *k = b->priv;

	return measure_in_ref_image(b, &k->wide, cbench_ref_wide, "the wide reference", reps, s);
}

static struct cbench_proto_side side_of(const struct kmod_backend *k, uint32_t image_id,
				       uint64_t reps)
{
	return (struct cbench_proto_side){
		.image_id = image_id, .entry = k->entry->run, .has_setup = k->entry->has_setup,
		.setup = k->entry->setup, .reps = reps, .arena_bytes = k->arena_bytes,
		.param = k->param, .args = k->exp->args, .nargs = k->nargs,
		.has_before_rep = k->entry->has_before_rep, .before_rep = k->entry->before_rep,
		.has_after_rep = k->entry->has_after_rep, .after_rep = k->entry->after_rep,
	};
}

/*
 * A FAILED audit run's error: where cbench.ko ended a call, named for its
 * side and placed in that side's object, as a run's is; else "A or B".
 */
static int audit_failed(struct cbench_backend *b, struct cbench_backend *other,
			struct cbench_proto_run_state *res)
{
	struct kmod_backend *k = b->priv;
	struct kmod_backend *side = res->recovered_side == 1 ? other->priv : k;
	char name[160];
	int ret;

	if (res->recovered_side < 0)
		return cbench_kmod_run_failed(res, k->info.call_ms, "A or B", NULL, NULL, b->error,
					      sizeof(b->error));
	snprintf(name, sizeof(name), "%s (%s)", res->recovered_side ? "B" : "A", side->entry->name);
	ret = cbench_kmod_stack_ended(side, res, name, b->error, sizeof(b->error));
	if (ret)
		return ret;
	/* A trap in a laid-out image, placed in the code as built. */
	if (res->trap >= 0)
		res->trap_offset = cbench_kmod_built_trap(side, res);
	return cbench_kmod_run_failed(res, k->info.call_ms, name, &side->image, side->exp->lib->path,
				      b->error, sizeof(b->error));
}

/*
 * Starts an audit run, waits for it, reads it and deletes it, as refill()
 * does a run: TOO_LONG without a sample is believed only when repeated.
 */
static int audit_run(struct cbench_backend *b, struct cbench_backend *other,
		     const struct cbench_proto_audit *r, struct cbench_ksample *ks, uint8_t *sides,
		     struct cbench_proto_run_state *res)
{
	struct kmod_backend *k = b->priv;
	uint32_t n = r->rounds * CBENCH_AUDIT_SIDES * r->per_side, id;
	int got, tries = 0;

	do {
		memset(res, 0, sizeof(*res));
		got = cbench_proto_audit_start(k->nl, r, &id);
		got = got ? got : cbench_kmod_run_finish(k->nl, id, ks, sides, NULL, n, res);
		if (got < 0)
			return got;
	} while (got == 0 && res->state == CBENCH_RUN_TOO_LONG && ++tries < TOO_LONG_TRIES);
	if (res->state == CBENCH_RUN_FAILED)
		return audit_failed(b, other, res);
	if (got == 0 && res->state == CBENCH_RUN_TOO_LONG) {
		snprintf(b->error, sizeof(b->error), "A (%" PRIu64 " reps) or B (%" PRIu64 " reps) "
			 "outlasts cbench.ko's interrupts-off budget (%" PRIu64 " ns, module parameter "
			 "irqoff_budget_ns)", r->side[0].reps, r->side[1].reps, k->budget_ns);
		return -E2BIG;
	}
	/* Cancelled, or ended early: an audit wants every round whole. */
	return res->state == CBENCH_RUN_DONE && (uint32_t)got == n ? 0 : -EIO;
}

/*
 * Rounds of an audit in one run of cbench.ko (CBENCH_CMD_AUDIT_START), our
 * benchmark as side A and other's as side B, each rehearsed in user mode
 * first as a run of all its samples would be: the sides have an arena and
 * an image each, so neither sees the other's calls.
 */
static int kmod_measure_audit(struct cbench_backend *b, struct cbench_backend *other, uint64_t reps,
			      uint64_t reps_other, uint32_t per_side, uint32_t rounds, uint64_t seed,
			      struct cbench_sample *s, uint8_t *sides)
{
	struct kmod_backend *k = b->priv, *kb = other->priv;
	struct cbench_kmod_shape a_shape = { .reps = reps, .samples = rounds * per_side };
	struct cbench_kmod_shape b_shape = { .reps = reps_other, .samples = rounds * per_side };
	struct cbench_proto_audit r = { .cpu = (uint32_t)k->cpu, .seed = seed,
					.per_side = per_side, .rounds = rounds,
					.has_quiet = k->quiet >= 0, .quiet = (uint32_t)k->quiet,
					.has_watcher = k->watcher >= 0,
					.watcher = (uint32_t)k->watcher };
	uint32_t n = rounds * CBENCH_AUDIT_SIDES * per_side;
	struct cbench_proto_run_state res;
	struct cbench_ksample *ks;
	uint32_t ids[2];
	int ret;

	if (!k->have_image || !kb->have_image)
		return -ENOENT;
	ret = rehearsed(b, &a_shape);
	if (!ret && (ret = rehearsed(other, &b_shape)))
		snprintf(b->error, sizeof(b->error), "B: %.500s", other->error);
	if (!ret && (ret = cbench_kmod_upload(k, k, &k->runs, &ids[0])))
		snprintf(b->error, sizeof(b->error), "unable to upload A's image: %s", strerror(-ret));
	if (!ret && (ret = cbench_kmod_upload(k, kb, &k->b, &ids[1])))
		snprintf(b->error, sizeof(b->error), "unable to upload B's image: %s", strerror(-ret));
	if (ret)
		return ret;
	r.side[0] = side_of(k, ids[0], reps);
	r.side[1] = side_of(kb, ids[1], reps_other);
	ks = calloc(n, sizeof(*ks));
	if (!ks)
		return -ENOMEM;
	ret = audit_run(b, other, &r, ks, sides, &res);
	for (uint32_t i = 0; !ret && i < n; i++)
		convert(&ks[i], &res.overhead, res.counters, sides[i] ? reps_other : reps, &s[i]);
	free(ks);
	return ret;
}

/*
 * A new placement: every run of cbench.ko vmallocs its arenas and runs
 * setup() on them, so the next measurement starts a new run (rehearsed as
 * the shape's first was).  An audit run (measure_audit()) is always new.
 * With pl->code, the image is laid out anew too (kmod_layout.c).
 */
static int kmod_place(struct cbench_backend *b, struct cbench_placement *pl)
{
	struct kmod_backend *k = b->priv;

	k->bench.n = k->bench.next = 0;
	return pl->code ? cbench_kmod_place_code(b, pl) : 0;
}

/*
 * Loop timing points in ring 0: the next measure()s ask the module for
 * records of each call, as many as buf holds and the module allows per
 * run, in runs of as few samples as that many records need.
 */
static void kmod_tpoints(struct cbench_backend *b, struct cbench_tp_record *buf, uint64_t capacity,
			 uint64_t every)
{
	struct kmod_backend *k = b->priv;
	uint64_t limit = k->info.tp_records, records = capacity;

	if (records > limit)
		records = limit;
	/* Without RDTSCP a point would raise #UD: the rehearsal would stop
	 * every such benchmark, so we record none (and the points never run). */
	if (!k->rdtscp)
		records = 0;
	if (records > UINT32_MAX)
		records = UINT32_MAX;
	k->tp_buf = buf;
	k->tp_capacity = buf ? capacity : 0;
	k->tp_every = every < 1 ? 1 : every > CBENCH_TP_EVERY_MAX ? CBENCH_TP_EVERY_MAX : every;
	/* A module without timing points (no limit) gives calls that took none. */
	k->tp_records = buf ? (uint32_t)records : 0;
	k->tp_samples = k->tp_records ? (uint32_t)(limit / records) : 0;
	if (k->tp_samples > BATCH_SAMPLES)
		k->tp_samples = BATCH_SAMPLES;
	/* The batch at hand was taken with other timing points, or none. */
	k->bench.n = k->bench.next = 0;
}

/*
 * MIN_TIMING where the benchmark runs: back-to-back timing points
 * (reference.S's cbench_ref_tpoints) in ring 0, each consecutive pair of
 * records one timing of a point's own cost, at the floor level as the user
 * backend's is.  NAN if the module cannot record them.
 */
static double kmod_tp_min_timing(struct cbench_backend *b, double step_ticks)
{
	struct kmod_backend *k = b->priv;
	struct cbench_proto_run r = {
		.image_id = k->ref_image_id, .entry = cbench_kmod_ref_offset(cbench_ref_tpoints),
		.reps = MIN_TIMING_POINTS, .samples = MIN_TIMING_SAMPLES, .cpu = (uint32_t)k->cpu,
		.tp_records = MIN_TIMING_POINTS, .tp_every = 1,
	};
	struct cbench_ksample s[MIN_TIMING_SAMPLES];
	struct cbench_proto_run_state res;
	struct batch bt = { 0 };
	double *d = NULL, least = NAN;
	size_t nd = 0;
	int n;

	if (!k->rdtscp || !k->have_ref_image ||
	    k->info.tp_records < (uint64_t)r.samples * r.tp_records ||
	    tp_batch_alloc(&bt, r.samples, r.tp_records))
		return NAN;
	d = calloc((size_t)r.samples * r.tp_records, sizeof(*d));
	n = d ? cbench_kmod_run_once(k, &r, s, &bt.tp, &res) : -ENOMEM;
	for (int i = 0; i < n && res.state == CBENCH_RUN_DONE; i++) {
		const struct cbench_tp_krecord *rec = bt.tp.out + (size_t)i * r.tp_records;

		for (uint32_t j = 1; !s[i].flags && j < bt.tp.kept[i]; j++) {
			if (rec[j].tsc >= rec[j - 1].tsc && rec[j].count > rec[j - 1].count)
				d[nd++] = (double)(rec[j].tsc - rec[j - 1].tsc);
		}
	}
	if (nd)
		least = cbench_stats_floor_mean(d, nd, step_ticks);
	free(d);
	tp_batch_free(&bt);
	return least;
}

const struct cbench_backend_ops cbench_backend_kmod = {
	.name = "kmod",
	.open = kmod_open,
	.calibrate = cbench_kmod_calibrate,
	.prepare = kmod_prepare,
	.measure = kmod_measure,
	.measure_ref = kmod_measure_ref,
	.measure_wide = kmod_measure_wide,
	.measure_audit = kmod_measure_audit,
	.close = kmod_close,
	.place = kmod_place,
	.tpoints = kmod_tpoints,
	.tp_min_timing = kmod_tp_min_timing,
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

	if (ret)
		return ret;
	ret = cbench_kimage_check_code(&image, path, why, why_bytes);
	cbench_kimage_free(&image);
	return ret;
}

