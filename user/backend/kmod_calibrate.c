// SPDX-License-Identifier: GPL-2.0
/*
 * The reference image (reference.S) in ring 0, and the timer calibrated
 * with it.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/kmod_parts.h"
#include "machine/reference.h"
#include "stats/stats.h"
#include "stats/tune.h"

/* Samples of the empty entry that calibrate the timer. */
#define CALIBRATION_SAMPLES 1024
/* Samples of a spin sweep (reps SPIN_FIRST, SPIN_FIRST + 1, ...) that show
 * the timer's step. */
#define SPIN_SAMPLES 1024
#define SPIN_FIRST 16
/* Reps of the reference chain per calibration sample (100000 adds), and samples. */
#define CHAIN_REPS 100
#define CHAIN_SAMPLES 64

/*
 * The reference image: reference.S's bytes, which are position-independent
 * and relocation-free, on their own pages.  Its entries are the empty
 * function, the add chain and the spin, at their offsets from
 * cbench_ref_begin.
 */
int cbench_kmod_ref_image(struct cbench_kimage *image)
{
	size_t bytes = (size_t)((uintptr_t)cbench_ref_end - (uintptr_t)cbench_ref_begin);
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

uint64_t cbench_kmod_ref_offset(void (*fn)(struct cbench_ctx *, uint64_t))
{
	return (uint64_t)((uintptr_t)fn - (uintptr_t)cbench_ref_begin);
}

/* The valid samples' tsc deltas of a run of the reference image's fn. */
static int ref_run(struct kmod_backend *k, uint32_t image_id, void (*fn)(struct cbench_ctx *, uint64_t),
		   uint64_t reps, uint64_t step, uint32_t samples, double *v, uint64_t *raw,
		   struct cbench_proto_run_state *res)
{
	struct cbench_proto_run r = {
		.image_id = image_id, .entry = cbench_kmod_ref_offset(fn), .reps = reps, .reps_step = step,
		.samples = samples, .cpu = (uint32_t)k->cpu,
	};
	struct cbench_ksample *s = calloc(samples, sizeof(*s));
	int n, valid = 0;

	if (!s)
		return -ENOMEM;
	n = cbench_kmod_run_once(k, &r, s, NULL, res);
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

/*
 * The timer in ring 0: the TSC at the kernel's tsc_khz; its step from a
 * sweep of spins of growing length (reference.S); the overhead and spread
 * of a measurement from runs of the empty entry; cycles per tick from the
 * add chain.  All of it at the floor level, as trials are estimated.
 */
int cbench_kmod_calibrate(struct cbench_backend *b, struct cbench_timer *t)
{
	struct kmod_backend *k = b->priv;
	struct cbench_kimage image;
	struct cbench_proto_run_state res;
	uint32_t image_id;
	uint64_t *raw = calloc(SPIN_SAMPLES, sizeof(*raw));
	double *v = calloc(CALIBRATION_SAMPLES, sizeof(*v)), ticks, ref_ns = CBENCH_REF_MIN_NS;
	int ret, n;

	memset(t, 0, sizeof(*t));
	memset(&image, 0, sizeof(image));
	ret = -ENOMEM;
	if (!raw || !v)
		goto out;
	ret = -EOPNOTSUPP;	/* the kernel does not know its TSC's frequency */
	if (!k->info.has_tsc_khz || !k->info.tsc_khz)
		goto out;
	t->tsc_hz = (double)k->info.tsc_khz * 1e3;
	ret = cbench_kmod_ref_image(&image);
	ret = ret ? ret : cbench_proto_image_upload(k->nl, &image, k->info.image_crc, &image_id);
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
	qsort(v, (size_t)n, sizeof(*v), cbench_stats_compare);
	snprintf(t->name, sizeof(t->name), "tsc in ring 0 (cbench.ko)");
	/* What the module subtracts is each run's least empty-call cost; this
	 * is for the report and the error bound. */
	t->overhead_ticks = cbench_stats_floor_mean(v, (size_t)n, t->step_ticks);
	t->precision_ns = t->step_ticks * 1e9 / t->tsc_hz;
	/* As the user backend: the read cost's spread to its 99.9th
	 * percentile, and a step at each end. */
	t->accuracy_ns = (v[n * 999 / 1000] - v[0] + 2 * t->step_ticks) * 1e9 / t->tsc_hz;
	t->counters = cbench_kmod_have(res.counters);
	/* The counters' least cost around an empty call is subtracted run by
	 * run by measure(); the report shows the calibration's. */
	for (int j = 0; j < CBENCH_COUNTERS; j++)
		t->counter_overhead[j] = res.counters & (1u << j) && res.has_overhead ?
					 (double)res.overhead.counters[j] : 0;

	/* The module takes its least empty-call cost off every sample. */
	n = ref_run(k, image_id, cbench_ref_add_chain, CHAIN_REPS, 0, CHAIN_SAMPLES, v, NULL, &res);
	ticks = n > 0 ? cbench_stats_floor_mean(v, (size_t)n, t->step_ticks) : 0;
	if (n > 0 && res.has_overhead)
		ticks -= (double)res.overhead.tsc;
	if (ticks > 0)
		t->est_cycles_per_tick = (double)CBENCH_REF_ADDS_PER_REP * CHAIN_REPS / ticks;
	/* A reference measurement runs with interrupts off: within half the
	 * module's budget for that (irqoff_budget_ns), loaded low or not. */
	if (k->info.irqoff_ns && (double)k->info.irqoff_ns / 2 < ref_ns)
		ref_ns = (double)k->info.irqoff_ns / 2;
	t->ref_reps = cbench_tune_ref_reps(t->step_ticks, t->tsc_hz, t->est_cycles_per_tick,
					   CBENCH_REF_ADDS_PER_REP, ref_ns);
	ret = 0;
out:
	cbench_kimage_free(&image);
	free(raw);
	free(v);
	return ret;
}
