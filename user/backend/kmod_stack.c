// SPDX-License-Identifier: GPL-2.0
/*
 * Stack checks in ring 0 (object/kstack.h): before the kmod backend
 * uploads an object, its code is read for how deep it can go on cbench.ko's
 * stack; code whose stack cannot be bounded is refused, and where calls
 * form cycles (recursion) the image uploaded carries checks that end a
 * call going too deep while the kernel can still take the ud2 that ends
 * it.  A laid-out image (kmod_layout.c) gets the same checks, in both
 * copies of the code.  A run a check ended is told in words here.
 *
 * The checks are proved to be all that changed in the image
 * (cbench_kstack_patch_check()), and the user-mode rehearsal runs the image
 * with them, on a stack aligned as ring 0's, so a check that would end a
 * call in ring 0 ends it there first; a laid-out image is proved, not
 * rehearsed again, as its layout is.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "backend/kmod_parts.h"

/* A module that says nothing runs benchmark code on its 16 KiB thread stack. */
#define THREAD_STACK_BYTES (16ULL << 10)

static struct cbench_kstack_limits limits_of(const struct cbench_proto_info *info)
{
	uint64_t bytes = info->stack_bytes ? info->stack_bytes : THREAD_STACK_BYTES;

	return (struct cbench_kstack_limits){
		.stack_bytes = bytes,
		.reserve_bytes = info->stack_reserve_bytes ? info->stack_reserve_bytes : THREAD_STACK_BYTES,
		.aligned = info->stack_reserve_bytes && !(bytes & (bytes - 1)),
	};
}

int cbench_kmod_stack_prepare(struct kmod_backend *k, char *error, size_t error_bytes)
{
	struct cbench_kstack_limits limits = limits_of(&k->info);
	const char *path = k->exp->lib->path;
	const struct cbench_kstack_check *first;
	char why[800];
	int ret = cbench_kstack_analyze(&k->image, &limits, &k->stack);

	if (ret) {
		snprintf(error, error_bytes, "unable to read its code's stack: %s", strerror(-ret));
		return ret;
	}
	k->have_stack = true;
	ret = cbench_kstack_verdict(&k->stack, k->entry, path, &k->stack_checks, &first, why, sizeof(why));
	if (ret) {
		snprintf(error, error_bytes, "unable to run in ring 0: %s", why);
		return ret;
	}
	if (first && !limits.aligned) {
		snprintf(error, error_bytes, "unable to run in ring 0: %s: %s calls %s (%s), which ring 0 "
			 "must check for stack overflow, and the cbench.ko loaded cannot run such checks: "
			 "load the cbench.ko built with this cbenchctl, or measure it with --backend user",
			 path, k->entry->name, first->name, first->path);
		return -EOPNOTSUPP;
	}
	if (!k->stack.nchecks)
		return 0;
	ret = cbench_kstack_patch(&k->stack, &k->image, NULL, NULL, &k->checked, &k->stubs, why, sizeof(why));
	if (ret) {
		snprintf(error, error_bytes, "unable to put stack checks into its image: %s: %s", path, why);
		return ret;
	}
	k->have_checked = true;
	return 0;
}

static uint64_t moved(void *klay, uint64_t offset)
{
	return cbench_kimage_layout_moved(klay, offset);
}

int cbench_kmod_stack_laid(struct kmod_backend *k, struct cbench_kimage *laid, char *error,
			   size_t error_bytes)
{
	struct cbench_kimage out;
	char why[600];
	int ret;

	cbench_kstack_stubs_free(&k->laid_stubs);
	if (!k->have_stack || !k->stack.nchecks)
		return 0;
	ret = cbench_kstack_patch(&k->stack, laid, moved, k->klay, &out, &k->laid_stubs, why, sizeof(why));
	if (ret) {
		snprintf(error, error_bytes, "unable to put stack checks into its image laid out anew: %s",
			 why);
		return ret;
	}
	cbench_kimage_free(laid);
	*laid = out;
	return 0;
}

struct cbench_kmod_rehearsal cbench_kmod_rehearsal_of(const struct kmod_backend *k)
{
	return (struct cbench_kmod_rehearsal){
		.stack_bytes = cbench_kmod_stack_rehearsed(k->info.stack_bytes),
		.stack_align = k->have_checked ? k->info.stack_bytes : 0,
		.image = k->have_checked ? &k->checked : NULL,
		.ks = &k->stack,
		.stubs = &k->stubs,
	};
}

const struct cbench_kimage *cbench_kmod_runs_image(const struct kmod_backend *k)
{
	if (k->have_laid)
		return &k->laid;
	return k->have_checked ? &k->checked : &k->image;
}

int cbench_kmod_stack_ended(const struct kmod_backend *k, const struct cbench_proto_run_state *res,
			    const char *name, char *error, size_t error_bytes)
{
	const struct cbench_kstack_stubs *stubs = k->have_laid ? &k->laid_stubs : &k->stubs;
	const struct cbench_kstack_limits *l = &k->stack.limits;
	const struct cbench_kstack_check *c;
	const char *fn = res->failed_in == CBENCH_STAGE_SETUP ? "setup" :
			 res->failed_in == CBENCH_STAGE_BEFORE_REP ? "before_rep" :
			 res->failed_in == CBENCH_STAGE_AFTER_REP ? "after_rep" : "run";

	/* 6: #UD, the stub's ud2. */
	if (!res->recovered || res->trap != 6 || !k->have_stack || res->trap_from_caller)
		return 0;
	c = cbench_kstack_stub_at(&k->stack, stubs, res->trap_offset);
	if (!c)
		return 0;
	if ((1ULL << c->log2) >= l->stack_bytes) {
		snprintf(error, error_bytes, "%s: the benchmark's %s() called %s in ring 0, which %s, more "
			 "than ring 0's stack of %" PRIu64 " KiB has beside the %" PRIu64 " KiB the "
			 "kernel keeps; cbench.ko ended the call at its check, before the stack's end, "
			 "and the CPU was recovered. The rehearsal never called it: look for what "
			 "differs in ring 0, load cbench.ko with a larger call_stack_bytes, or measure "
			 "it with --backend user", name, fn, c->name, c->path, l->stack_bytes >> 10,
			 l->reserve_bytes >> 10);
		return -E2BIG;
	}
	snprintf(error, error_bytes, "%s: the benchmark's %s() ran out of stack in ring 0: %s was "
		 "called with less than %" PRIu64 " KiB of the %" PRIu64 " KiB stack left (what it may "
		 "use before the next check, and the %" PRIu64 " KiB the kernel keeps), in a recursion "
		 "deeper there than in the user-mode rehearsal (%s); cbench.ko ended the call at the "
		 "check, before the stack's end, and the CPU was recovered. Bound the recursion's "
		 "depth, load cbench.ko with a larger call_stack_bytes, or measure it with --backend "
		 "user", name, fn, c->name, ((uint64_t)1 << c->log2) >> 10, l->stack_bytes >> 10,
		 l->reserve_bytes >> 10, c->path);
	return -E2BIG;
}

void cbench_kmod_stack_free(struct kmod_backend *k)
{
	if (k->have_checked)
		cbench_kimage_free(&k->checked);
	cbench_kstack_stubs_free(&k->stubs);
	cbench_kstack_stubs_free(&k->laid_stubs);
	if (k->have_stack)
		cbench_kstack_free(&k->stack);
	k->have_checked = k->have_stack = false;
}
