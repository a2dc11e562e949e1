/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the kmod backend's files share (kmod.h is what the rest of cbenchctl
 * sees): its state (backend_kmod.c), one run of cbench.ko and a failed
 * run's account (kmod_run.c), the reference image and the calibration
 * (kmod_calibrate.c).
 */
#ifndef _CBENCH_BACKEND_KMOD_PARTS_H
#define _CBENCH_BACKEND_KMOD_PARTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backend/types.h"
#include "backend/netlink.h"
#include "backend/protocol.h"
#include "backend/rehearse.h"
#include "object/kimage.h"
#include "object/kimage_layout.h"
#include "object/kstack.h"

/* Distinct run shapes a worker remembers as rehearsed; past that, the oldest
 * is forgotten (and rehearsed again if it comes back). */
#define REHEARSED_MAX 64

/* Samples of one run, handed out one at a time. */
struct batch {
	struct cbench_ksample *s;
	uint32_t n, next;
	uint64_t reps, step;
	struct cbench_ksample overhead;	/* of the run that took the batch */
	uint32_t counters;		/* CBENCH_COUNTER_F_* of that run */
	uint64_t last_reps;
	bool too_long;			/* the last refill: every try outlasted the budget */
	/* With timing points: each sample's records, as the dump left them
	 * (tp.records 0: the batch has none). */
	struct cbench_proto_tp tp;
};

/* An image of ours on our socket: its id, and which layout of the image
 * it is (0: the image as built); have false: none uploaded. */
struct kmod_upload {
	uint32_t id;
	uint32_t gen;
	bool have;
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

	/* The benchmark's current batch, the reference chain's and the wide
	 * reference's. */
	struct batch bench, ref, wide;
	/* The reference image (reference.S), uploaded for trials. */
	struct cbench_kimage ref_image;
	uint32_t ref_image_id;
	bool have_ref_image;
	struct cbench_proto_info info;	/* the module's, at open */
	/* What every run and audit is sent with (cbench_kmod_pick_settings()):
	 * the quiet mode, -1 none (a module without LVT mode); the CPU to
	 * watch the calls, -1 the module's choice. */
	int quiet, watcher;
	uint64_t budget_ns;		/* the module's, for messages */
	uint64_t arena_max_bytes;	/* the module's; 0 if it did not say */
	const struct cbench_experiment *exp;
	/* Run shapes user mode has rehearsed (cbench_kmod_rehearse()): only
	 * those reach ring 0. */
	struct cbench_kmod_shape rehearsed[REHEARSED_MAX];
	uint32_t nrehearsed;
	/* The image our runs use now (the image as built, or the current
	 * layout's), and an audit's side B's, uploaded again on our socket
	 * (which alone may use what it made) from the B instance's. */
	struct kmod_upload runs, b;
	/* Code layouts in ring 0 (kmod_layout.c): the object's, read at the
	 * first placement that asks for one (NULL before); the image laid
	 * out at the current one (have_laid), laid_gen its number. */
	struct cbench_kimage_layout *klay;
	struct cbench_kimage laid;
	bool have_laid;
	uint32_t laid_gen;
	/* Stack checks (kmod_stack.c): the object's code read for its stack
	 * (have_stack); the image as built with checks (have_checked), its
	 * stubs, and the stubs of the image laid out now; how many checks the
	 * benchmark's calls reach. */
	struct cbench_kstack stack;
	bool have_stack;
	struct cbench_kimage checked;
	bool have_checked;
	struct cbench_kstack_stubs stubs, laid_stubs;
	uint32_t stack_checks;
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

/*
 * Waits for run id, reads its samples into out (room for max; an audit
 * run's sides into sides, if not NULL; its timing points into tp, if not
 * NULL) and deletes it.  Returns the number of samples or -errno; *st is
 * the run's state when it ended.
 */
int cbench_kmod_run_finish(struct cbench_nl *nl, uint32_t id, struct cbench_ksample *out, uint8_t *sides,
			   struct cbench_proto_tp *tp, uint32_t max, struct cbench_proto_run_state *st);

/* Starts run r with k's quiet mode and watcher, then cbench_kmod_run_finish(). */
int cbench_kmod_run_once(const struct kmod_backend *k, const struct cbench_proto_run *r,
			 struct cbench_ksample *out, struct cbench_proto_tp *tp,
			 struct cbench_proto_run_state *st);

/* k's quiet mode and watcher, from what b asks and what the module says
 * it has (k->info); -EOPNOTSUPP with b->error if it cannot give them. */
int cbench_kmod_pick_settings(struct cbench_backend *b, struct kmod_backend *k);

/* CBENCH_HAVE_* of a run's CBENCH_COUNTER_F_* counters. */
uint32_t cbench_kmod_have(uint32_t counters);

/*
 * A FAILED run's error; where a per-rep hook failed, or cbench.ko ended a
 * call, its account in error.  image: the run's (NULL: an audit's, of
 * either side), to place an exception in its object.
 */
int cbench_kmod_run_failed(const struct cbench_proto_run_state *res, uint32_t call_ms, const char *name,
			   const struct cbench_kimage *image, const char *object, char *error,
			   size_t error_bytes);

/*
 * The code laid out anew in ring 0 (kimage_layout.h), at a layout drawn
 * from pl, where the object lets it move: the next runs use that image
 * (cbench_kmod_upload()), b->code_layouts and b->code_offset say so.  0,
 * or -errno with b->error.
 */
int cbench_kmod_place_code(struct cbench_backend *b, struct cbench_placement *pl);

/* The image of from (k itself, or an audit's side B) that runs now, on
 * k's socket, into *id: uploaded where u holds an older one, which is
 * deleted.  0 or -errno. */
int cbench_kmod_upload(struct kmod_backend *k, const struct kmod_backend *from, struct kmod_upload *u,
		       uint32_t *id);

/*
 * Where a trap a run reports (res->trap_offset, an offset of the image it
 * ran) lies in the image as built: a faulting instruction's own offset,
 * or a return address (res->trap_from_caller), placed by the call before
 * it, which may end its unit.
 */
uint64_t cbench_kmod_built_trap(const struct kmod_backend *k, const struct cbench_proto_run_state *res);

/* What cbench_kmod_place_code() allocated. */
void cbench_kmod_layout_free(struct kmod_backend *k);

/*
 * k->image read for its stack (kmod_stack.c): refused for ring 0 where the
 * benchmark's calls reach code whose stack cannot be bounded, or need
 * checks a module without an aligned stack cannot run; with checks put
 * into k->checked where its calls form cycles.  0, or -errno with error.
 */
int cbench_kmod_stack_prepare(struct kmod_backend *k, char *error, size_t error_bytes);

/* *laid (k->image laid out at k->klay's layout) with the checks too; 0 or -errno with error. */
int cbench_kmod_stack_laid(struct kmod_backend *k, struct cbench_kimage *laid, char *error,
			   size_t error_bytes);

/* How k's runs are rehearsed: on the image with checks, where k has one. */
struct cbench_kmod_rehearsal cbench_kmod_rehearsal_of(const struct kmod_backend *k);

/* The image k's runs use: laid out, with checks, or as built. */
const struct cbench_kimage *cbench_kmod_runs_image(const struct kmod_backend *k);

/*
 * Where res is a call a stack check ended (the ud2 of a stub of the image
 * k ran), its account in error and -E2BIG; else 0.
 */
int cbench_kmod_stack_ended(const struct kmod_backend *k, const struct cbench_proto_run_state *res,
			    const char *name, char *error, size_t error_bytes);

/* What cbench_kmod_stack_prepare() and _laid() allocated. */
void cbench_kmod_stack_free(struct kmod_backend *k);

/* The reference image: reference.S's bytes on their own pages. */
int cbench_kmod_ref_image(struct cbench_kimage *image);

/* Where fn (an entry of reference.S) lies in the reference image. */
uint64_t cbench_kmod_ref_offset(void (*fn)(struct cbench_ctx *, uint64_t));

/* The calibrate op (struct cbench_backend_ops). */
int cbench_kmod_calibrate(struct cbench_backend *b, struct cbench_timer *t);

#endif /* _CBENCH_BACKEND_KMOD_PARTS_H */
