// SPDX-License-Identifier: GPL-2.0
/*
 * The kmod backend: measurements taken by cbench.ko in ring 0, interrupts
 * off, on the worker's CPU.  Same pipeline as the user backend (tuning,
 * trials, reports); only measure() differs: it asks the module.
 *
 * The object is checked by kimage and uploaded once per worker; every run
 * is first rehearsed in a user-mode child (rehearse.c), so a benchmark that
 * crashes dies there and never reaches ring 0.  A run in the module costs a
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
#include "backend/rehearse.h"
#include "machine/clock.h"
#include "machine/probe.h"
#include "object/kimage.h"
#include "backend/protocol.h"
#include "machine/reference.h"
#include "stats/stats.h"
#include "stats/tune.h"

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
/* MIN_TIMING in ring 0: samples of back-to-back timing points
 * (cbench_ref_tpoints), each of this many. */
#define MIN_TIMING_SAMPLES 10
#define MIN_TIMING_POINTS 1024

/* Samples of one run, handed out one at a time. */
struct batch {
	struct cbench_ksample *s;
	uint32_t n, next;
	uint64_t reps, step;
	struct cbench_ksample overhead;	/* of the run that took the batch */
	uint32_t counters;		/* CBENCH_COUNTER_F_* of that run */
	uint64_t last_reps;
	/* With timing points: each sample's records, as the dump left them
	 * (tp.records 0: the batch has none). */
	struct cbench_proto_tp tp;
};

struct kmod_backend {
	struct cbench_nl *nl;
	int cpu;
	struct cbench_kimage image;
	bool have_image;
	uint32_t image_id;
	const struct cbench_kimage_entry *entry;
	int64_t param;
	uint32_t nargs;			/* of exp's args, sent to the module */
	uint64_t arena_bytes;

	/* The benchmark's current batch, and the reference chain's. */
	struct batch bench, ref;
	/* The reference image (reference.S), uploaded for trials. */
	struct cbench_kimage ref_image;
	uint32_t ref_image_id;
	bool have_ref_image;
	struct cbench_proto_info info;	/* the module's, at open */
	uint64_t budget_ns;		/* the module's, for messages */
	uint64_t arena_max_bytes;	/* the module's; 0 if it did not say */
	const struct cbench_experiment *exp;
	/* Run shapes user mode has rehearsed (cbench_kmod_rehearse()): only
	 * those reach ring 0. */
	struct cbench_kmod_shape rehearsed[REHEARSED_MAX];
	uint32_t nrehearsed;
	/* An audit's side B, uploaded again on our socket (which alone may
	 * use what it made) from the B instance's image. */
	uint32_t b_image_id;
	bool have_b_image;
	/* Loop timing points asked for (the tpoints op): the caller's buffer,
	 * and the records per call we ask the module for, at most the
	 * caller's capacity and the module's limit; tp_records 0: none. */
	struct cbench_tp_record *tp_buf;
	uint64_t tp_capacity, tp_every;
	uint32_t tp_records, tp_samples;
	/* CPUID.80000001H:EDX[27]: timing points execute RDTSCP, which would
	 * raise #UD in ring 0 (the rehearsal stops a benchmark's; we must not
	 * run our own reference points). */
	bool rdtscp;
};

/* ---- one run: start it, wait for it, read it, delete it ------------------ */

/*
 * Starts a run, waits for it, reads its samples into out (room for
 * r->samples) and, with tp, their timing points (tp's room and arrays set)
 * and deletes it.  Returns the number of samples or -errno; *st is the
 * run's state when it ended.
 */
/*
 * Waits for run id, reads its samples into out (room for max; an audit
 * run's sides into sides, if not NULL; its timing points into tp, if not
 * NULL) and deletes it.  Returns the number of samples or -errno; *st is
 * the run's state when it ended.
 */
static int run_finish(struct cbench_nl *nl, uint32_t id, struct cbench_ksample *out, uint8_t *sides,
		      struct cbench_proto_tp *tp, uint32_t max, struct cbench_proto_run_state *st)
{
	double deadline = cbench_now_s() + RUN_TIMEOUT_S;
	uint32_t n = 0;
	int ret, del;

	for (;;) {
		ret = cbench_proto_run_get(nl, id, st);
		if (ret || st->state != CBENCH_RUN_RUNNING)
			break;
		if (cbench_now_s() > deadline) {
			ret = -ETIMEDOUT;
			break;
		}
		usleep(POLL_US);
	}
	if (!ret)
		ret = sides ? cbench_proto_audit_samples(nl, id, out, sides, max, &n) :
			      cbench_proto_samples(nl, id, out, max, &n);
	if (!ret && tp) {
		tp->id = id;
		ret = cbench_proto_tpoints(nl, tp);
		/* Every sample the samples dump gave has its records. */
		if (!ret && tp->n < n)
			ret = -EPROTO;
	}
	/* Deleting cancels a run still going; the module stops it in the background. */
	del = cbench_proto_run_del(nl, id);
	return ret ? ret : del ? del : (int)n;
}

/* The quiet mode asked for (cbench_backend_kmod_set_quiet()); -1: the module's. */
static int quiet_asked = -1;
/* The mode every run of this process is sent with, once kmod_open() has
 * read the module's; -1: none sent (a module without LVT mode). */
static int quiet_sent = -1;

void cbench_backend_kmod_set_quiet(int quiet)
{
	quiet_asked = quiet;
}

const char *cbench_quiet_name(int quiet)
{
	return quiet == CBENCH_QUIET_CLI ? "cli" : quiet == CBENCH_QUIET_LVT ? "lvt" : NULL;
}

static int run_once(struct cbench_nl *nl, const struct cbench_proto_run *r, struct cbench_ksample *out,
		    struct cbench_proto_tp *tp, struct cbench_proto_run_state *st)
{
	struct cbench_proto_run req = *r;
	uint32_t id;
	int ret;

	memset(st, 0, sizeof(*st));
	req.has_quiet = quiet_sent >= 0;
	req.quiet = (uint32_t)quiet_sent;
	ret = cbench_proto_run_start(nl, &req, &id);
	return ret ? ret : run_finish(nl, id, out, NULL, tp, r->samples, st);
}

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

/* The quiet mode runs are sent with, or why the module cannot give it. */
static int pick_quiet(struct cbench_backend *b, const struct cbench_proto_info *info)
{
	if (!info->has_quiet) {
		quiet_sent = -1;
		if (quiet_asked == CBENCH_QUIET_LVT) {
			snprintf(b->error, sizeof(b->error), "this cbench.ko (%s) has no LVT mode: load the "
				 "module built with this cbenchctl, or leave out --quiet-mode", info->version);
			return -EOPNOTSUPP;
		}
		strcpy(b->env.quiet, "cli");
		return 0;
	}
	quiet_sent = quiet_asked >= 0 ? quiet_asked : (int)info->quiet;
	snprintf(b->env.quiet, sizeof(b->env.quiet), "%s",
		 cbench_quiet_name(quiet_sent) ? cbench_quiet_name(quiet_sent) : "?");
	return 0;
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
	if (!k->bench.s || !k->ref.s)
		return -ENOMEM;
	ret = cbench_nl_open(&k->nl);
	if (ret)
		return ret == -ENOENT ? -ENODEV : ret;
	ret = cbench_proto_info(k->nl, &k->info);
	if (ret)
		return ret;
	ret = pick_quiet(b, &k->info);
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
	if (k->have_image)
		cbench_kimage_free(&k->image);
	if (k->have_ref_image)
		cbench_kimage_free(&k->ref_image);
	free(k->bench.s);
	free(k->ref.s);
	tp_batch_free(&k->bench);
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

static uint64_t ref_offset(void (*fn)(struct cbench_ctx *, uint64_t))
{
	return (uint64_t)((uintptr_t)fn - (uintptr_t)cbench_ref_begin);
}

/* The valid samples' tsc deltas of a run of the reference image's fn. */
static int ref_run(struct kmod_backend *k, uint32_t image_id, void (*fn)(struct cbench_ctx *, uint64_t),
		   uint64_t reps, uint64_t step, uint32_t samples, double *v, uint64_t *raw,
		   struct cbench_proto_run_state *res)
{
	struct cbench_proto_run r = {
		.image_id = image_id, .entry = ref_offset(fn), .reps = reps, .reps_step = step,
		.samples = samples, .cpu = (uint32_t)k->cpu,
	};
	struct cbench_ksample *s = calloc(samples, sizeof(*s));
	int n, valid = 0;

	if (!s)
		return -ENOMEM;
	n = run_once(k->nl, &r, s, NULL, res);
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
	struct cbench_proto_run_state res;
	uint32_t image_id;
	uint64_t *raw = calloc(SPIN_SAMPLES, sizeof(*raw));
	double *v = calloc(CALIBRATION_SAMPLES, sizeof(*v)), ticks;
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
	ret = ref_image_make(&image);
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
		t->counter_overhead[j] = res.counters & (1u << j) && res.has_overhead ?
					 (double)res.overhead.counters[j] : 0;

	/* The module takes its least empty-call cost off every sample. */
	n = ref_run(k, image_id, cbench_ref_add_chain, CHAIN_REPS, 0, CHAIN_SAMPLES, v, NULL, &res);
	ticks = n > 0 ? cbench_stats_floor_mean(v, (size_t)n, t->step_ticks) : 0;
	if (n > 0 && res.has_overhead)
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

static int kmod_prepare(struct cbench_backend *b, const struct cbench_experiment *e)
{
	struct kmod_backend *k = b->priv;
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
	ret = cbench_kmod_rehearse(e, NULL, cbench_kmod_stack_rehearsed(k->info.stack_bytes),
				   &setup_ns, b->error, sizeof(b->error));
	if (ret)
		return ret;
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
	k->param = e->param;
	/* A module of ABI 2 knows no RUN_ARGS; its objects read no ctx->args. */
	k->nargs = k->info.abi >= 3 ? e->nargs : 0;
	k->arena_bytes = e->desc->arena_bytes;
	/* vmalloc's arena, base pages whatever was asked. */
	b->env.arena_bytes = e->desc->arena_bytes;
	b->env.arena_huge_bytes = 0;
	ret = cbench_proto_image_upload(k->nl, &k->image, k->info.image_crc, &k->image_id);
	if (ret)
		return ret;
	/* Trials interleave the reference chain (worker.c). */
	ret = ref_image_make(&k->ref_image);
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

/* An x86 exception vector, as the SDM names it. */
static const char *trap_name(int32_t vector)
{
	static const char *const names[] = {
		[0] = "a divide error (#DE)",
		[1] = "a single step (#DB): it set the trap flag, TF,",
		[3] = "a breakpoint, int3 (#BP)",
		[4] = "an overflow trap (#OF)",
		[5] = "a BOUND range exceeded (#BR)",
		[6] = "an invalid opcode (#UD)",
		[10] = "an invalid TSS (#TS)",
		[11] = "a segment not present (#NP)",
		[12] = "a stack-segment fault (#SS)",
		[13] = "a general-protection fault (#GP)",
		[14] = "a page fault (#PF)",
		[16] = "an x87 floating-point error (#MF)",
		[17] = "an alignment check, a split lock (#AC)",
		[19] = "a SIMD floating-point exception (#XM)",
		[20] = "a virtualization exception (#VE)",
	};

	if (vector >= 0 && (size_t)vector < sizeof(names) / sizeof(names[0]) && names[vector])
		return names[vector];
	return "an exception";
}

/* What a page fault's error code says was done at its address (x86 #PF bits). */
static const char *fault_access(uint32_t error)
{
	if (error & 0x10)
		return "fetching an instruction at";
	return error & 0x2 ? "writing" : "reading";
}

/*
 * "raised <what> in ring 0 at <where>" for a run whose call cbench.ko
 * ended on an exception, into error; returns the length written.  at is
 * the object's (placed) or the image's address of the instruction, or of
 * the return address for a fetch outside the image.
 */
static int fault_account(const struct cbench_proto_run_state *res, bool placed, uint64_t at,
			 char *error, size_t error_bytes)
{
	const char *in = placed ? "object" : "image";
	int len;

	if (res->trap == 14 && res->trap_from_caller)
		len = snprintf(error, error_bytes, "raised a page fault (#PF) in ring 0 %s 0x%" PRIx64
			       ", outside its code: it was called or jumped to from just before "
			       "%s0x%" PRIx64 " of its %s", fault_access(res->fault_error),
			       res->fault_addr, placed ? "" : "offset ", at, in);
	else if (res->trap == 14)
		len = snprintf(error, error_bytes, "raised a page fault (#PF) in ring 0 %s 0x%" PRIx64
			       " (%s) at %s0x%" PRIx64 " of its %s", fault_access(res->fault_error),
			       res->fault_addr, res->fault_error & 1 ? "not permitted" : "not mapped",
			       placed ? "" : "offset ", at, in);
	else
		len = snprintf(error, error_bytes, "raised %s in ring 0 at %s0x%" PRIx64 " of its %s",
			       trap_name(res->trap), placed ? "" : "offset ", at, in);
	if (len >= 0 && (size_t)len < error_bytes && res->oopsed)
		len += snprintf(error + len, error_bytes - (size_t)len, " (the kernel printed an "
				"oops for it first and is tainted from now on: 'cbenchctl doctor' "
				"says so)");
	return len;
}

/* The RFLAGS bits a call left changed, in words ("turned interrupts on"). */
static void flags_account(uint32_t changed, const char *fn, const char *name, char *error,
			  size_t error_bytes)
{
	static const struct { uint32_t bit; const char *what; } names[] = {
		{ 0x200, "turned interrupts on or off (sti, cli or popf changed IF)" },
		{ 0x100, "set the trap flag (TF)" },
		{ 0x400, "left the direction flag set (std without cld)" },
		{ 0x40000, "changed the alignment-check flag (AC: stac or clac)" },
		{ 0x4000, "changed the nested-task flag (NT)" },
		{ 0x3000, "changed the I/O privilege level (IOPL)" },
	};
	const char *what = "changed RFLAGS bits it must leave alone";

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (changed & names[i].bit) {
			what = names[i].what;
			break;
		}
	}
	snprintf(error, error_bytes, "%s: the benchmark's %s() %s in ring 0 (RFLAGS bits 0x%" PRIx32
		 "); cbench.ko put them back and refused the run's samples: benchmark code must "
		 "leave the flags as it found them", name, fn, what, changed);
}

/*
 * A FAILED run's error; where a per-rep hook failed, or cbench.ko ended a
 * call, its account in error.  image: the run's (NULL: an audit's, of
 * either side), to place an exception in its object.
 */
static int failed(const struct cbench_proto_run_state *res, uint32_t call_ms, const char *name,
		  const struct cbench_kimage *image, const char *object, char *error,
		  size_t error_bytes)
{
	const char *hook = res->failed_in == CBENCH_STAGE_BEFORE_REP ? "before_rep" :
			   res->failed_in == CBENCH_STAGE_AFTER_REP ? "after_rep" : NULL;
	const char *fn = hook ? hook : res->failed_in == CBENCH_STAGE_SETUP ? "setup" : "run";

	if (res->recovered && res->trap >= 0) {
		/* In the object where we know which, else in the image. */
		bool placed = image && object;
		uint64_t at = placed ? image->base + res->trap_offset : res->trap_offset;
		int len = snprintf(error, error_bytes, "%s: the benchmark's %s() ", name, fn);

		if (len >= 0 && (size_t)len < error_bytes)
			len += fault_account(res, placed, at, error + len, error_bytes - (size_t)len);
		if (len >= 0 && (size_t)len < error_bytes)
			len += snprintf(error + len, error_bytes - (size_t)len, "; the CPU was "
					"recovered (cbench.ko ended the call)");
		if (placed && len >= 0 && (size_t)len < error_bytes)
			snprintf(error + len, error_bytes - (size_t)len, ". It ran in the user-mode "
				 "rehearsal: see where with 'addr2line -f -i -e %s 0x%" PRIx64 "' and "
				 "look for what differs in ring 0", object, at);
		return -EFAULT;
	}
	if (res->recovered) {
		snprintf(error, error_bytes, "%s: the benchmark's %s() did not return within %" PRIu32
			 " ms in ring 0; the CPU was recovered (cbench.ko's watchdog ended the call). "
			 "It returned in the user-mode rehearsal: look for a loop on the TSC, on "
			 "the number of calls, or on anything else that differs in ring 0",
			 name, fn, call_ms);
		return -ETIMEDOUT;
	}
	if (res->error == -EPERM && res->flags_changed) {
		flags_account(res->flags_changed, fn, name, error, error_bytes);
		return -EPERM;
	}
	if (hook && res->error == -ETIME)
		snprintf(error, error_bytes, "%s: a call of %s() took over %.0f ms in ring 0, where "
			 "it runs with preemption off: make it cheaper, or measure with --backend user",
			 name, hook, (double)CBENCH_HOOK_MAX_NS * 1e-6);
	else if (hook)
		snprintf(error, error_bytes, "%s: the benchmark's %s() returned %d in ring 0", name,
			 hook, res->error);
	return res->error ? res->error : -EIO;
}

/* Takes a batch of samples of r into bt; a failure's account in error. */
static int refill(struct kmod_backend *k, struct batch *bt, const struct cbench_proto_run *r,
		  const char *name, char *error, size_t error_bytes)
{
	struct cbench_proto_run_state res = { 0 };
	int n, tries = 0;

	bt->n = bt->next = 0;
	do {
		n = run_once(k->nl, r, bt->s, r->tp_records ? &bt->tp : NULL, &res);
		if (n < 0)
			return n;
	} while (n == 0 && res.state == CBENCH_RUN_TOO_LONG && ++tries < TOO_LONG_TRIES);
	if (res.state == CBENCH_RUN_FAILED)
		return failed(&res, k->info.call_ms, name, bt == &k->bench ? &k->image : NULL,
			      bt == &k->bench ? k->exp->lib->path : NULL, error, error_bytes);
	if (n == 0 && res.state == CBENCH_RUN_TOO_LONG) {
		/* The errno alone would not say which limit. */
		snprintf(error, error_bytes, "%s: %" PRIu64 " reps outlast cbench.ko's interrupts-off "
			 "budget (%" PRIu64 " ns, module parameter irqoff_budget_ns)",
			 name, r->reps + (uint64_t)(r->samples - 1) * r->reps_step, k->budget_ns);
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
	s->have = have_of(counters);
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
	uint64_t setup_ns;
	int ret;

	for (uint32_t i = 0; i < k->nrehearsed && i < REHEARSED_MAX; i++) {
		const struct cbench_kmod_shape *x = &k->rehearsed[i];

		if (x->reps == shape->reps && x->step == shape->step && x->samples == shape->samples &&
		    x->tp_records == shape->tp_records && x->tp_every == shape->tp_every)
			return 0;
	}
	ret = cbench_kmod_rehearse(k->exp, shape, cbench_kmod_stack_rehearsed(k->info.stack_bytes),
				   &setup_ns, b->error, sizeof(b->error));
	if (ret)
		return ret;
	k->rehearsed[k->nrehearsed++ % REHEARSED_MAX] = *shape;
	return 0;
}

static bool per_rep(const struct kmod_backend *k)
{
	return k->entry->has_before_rep || k->entry->has_after_rep;
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
			.image_id = k->image_id, .entry = k->entry->run,
			.has_setup = k->entry->has_setup, .setup = k->entry->setup,
			.has_before_rep = k->entry->has_before_rep, .before_rep = k->entry->before_rep,
			.has_after_rep = k->entry->has_after_rep, .after_rep = k->entry->after_rep,
			.reps = reps, .reps_step = reps == k->bench.last_reps + 1 && !per_rep(k) ? 1 : 0,
			.samples = k->tp_records ? k->tp_samples : BATCH_SAMPLES, .cpu = (uint32_t)k->cpu,
			.arena_bytes = k->arena_bytes, .param = k->param,
			.args = k->exp->args, .nargs = k->nargs,
			.tp_records = k->tp_records, .tp_every = k->tp_every,
		};
		struct cbench_kmod_shape shape = { r.reps, r.reps_step, r.samples, r.tp_records,
						   r.tp_every };

		ret = rehearsed(b, &shape);
		if (!ret)
			ret = tp_batch_alloc(&k->bench, r.samples, r.tp_records);
		if (ret)
			return ret;
		ret = refill(k, &k->bench, &r, k->entry->name, b->error, sizeof(b->error));
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

/* The reference chain in its own image, batch by batch beside the benchmark's. */
static int kmod_measure_ref(struct cbench_backend *b, uint64_t reps, struct cbench_sample *s)
{
	struct kmod_backend *k = b->priv;
	int ret;

	if (!k->have_ref_image)
		return -ENOENT;
	if (!ready(&k->ref, reps)) {
		struct cbench_proto_run r = {
			.image_id = k->ref_image_id, .entry = ref_offset(cbench_ref_add_chain),
			.reps = reps, .samples = BATCH_SAMPLES, .cpu = (uint32_t)k->cpu,
		};

		ret = refill(k, &k->ref, &r, "the reference chain", b->error, sizeof(b->error));
		if (ret)
			return ret;
	}
	take(&k->ref, reps, s);
	return 0;
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
 * Starts an audit run, waits for it, reads it and deletes it, as refill()
 * does a run: TOO_LONG without a sample is believed only when repeated.
 */
static int audit_run(struct cbench_backend *b, const struct cbench_proto_audit *r,
		     struct cbench_ksample *ks, uint8_t *sides, struct cbench_proto_run_state *res)
{
	struct kmod_backend *k = b->priv;
	uint32_t n = r->rounds * CBENCH_AUDIT_SIDES * r->per_side, id;
	int got, tries = 0;

	do {
		memset(res, 0, sizeof(*res));
		got = cbench_proto_audit_start(k->nl, r, &id);
		got = got ? got : run_finish(k->nl, id, ks, sides, NULL, n, res);
		if (got < 0)
			return got;
	} while (got == 0 && res->state == CBENCH_RUN_TOO_LONG && ++tries < TOO_LONG_TRIES);
	if (res->state == CBENCH_RUN_FAILED)
		return failed(res, k->info.call_ms, "A or B", NULL, NULL, b->error,
			      sizeof(b->error));
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
					.has_quiet = quiet_sent >= 0, .quiet = (uint32_t)quiet_sent };
	uint32_t n = rounds * CBENCH_AUDIT_SIDES * per_side;
	struct cbench_proto_run_state res;
	struct cbench_ksample *ks;
	int ret;

	if (!k->have_image || !kb->have_image)
		return -ENOENT;
	ret = rehearsed(b, &a_shape);
	if (!ret && (ret = rehearsed(other, &b_shape)))
		snprintf(b->error, sizeof(b->error), "B: %.500s", other->error);
	if (!ret && !k->have_b_image) {
		ret = cbench_proto_image_upload(k->nl, &kb->image, k->info.image_crc, &k->b_image_id);
		k->have_b_image = !ret;
	}
	if (ret)
		return ret;
	r.side[0] = side_of(k, k->image_id, reps);
	r.side[1] = side_of(kb, k->b_image_id, reps_other);
	ks = calloc(n, sizeof(*ks));
	if (!ks)
		return -ENOMEM;
	ret = audit_run(b, &r, ks, sides, &res);
	for (uint32_t i = 0; !ret && i < n; i++)
		convert(&ks[i], &res.overhead, res.counters, sides[i] ? reps_other : reps, &s[i]);
	free(ks);
	return ret;
}

/*
 * A new placement: every run of cbench.ko vmallocs its arenas and runs
 * setup() on them, so the next measurement starts a new run (rehearsed as
 * the shape's first was).  An audit run (measure_audit()) is always new.
 */
static int kmod_place(struct cbench_backend *b, struct cbench_placement *pl)
{
	struct kmod_backend *k = b->priv;

	(void)pl;
	k->bench.n = k->bench.next = 0;
	return 0;
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
		.image_id = k->ref_image_id, .entry = ref_offset(cbench_ref_tpoints),
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
	n = d ? run_once(k->nl, &r, s, &bt.tp, &res) : -ENOMEM;
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
	.calibrate = kmod_calibrate,
	.prepare = kmod_prepare,
	.measure = kmod_measure,
	.measure_ref = kmod_measure_ref,
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
