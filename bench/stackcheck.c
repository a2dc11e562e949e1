// SPDX-License-Identifier: GPL-2.0
/*
 * What the stack checks (user/object/kstack.h) cost a measurement, for
 * bench/stackcheck.sh.  Not a benchmark object: a program built against
 * cbenchctl's objects, which reads a kernel-safe object as the kmod
 * backend does, puts the checks into its image, and runs the image with
 * and without them here, in user mode, on a stack aligned as cbench.ko's
 * (ring 0 runs the same instructions; the guests that run ring 0 here are
 * emulated, and time nothing).  For each benchmark named, rounds of
 * run(ctx, reps) alternate between the two images; the least time a rep of
 * each is printed, and the difference.
 *
 *   stackcheck OBJECT NAME[:PARAM[:CALLS]] ...
 *
 * PARAM: ctx->param; CALLS: calls of checked functions one rep makes, for
 * the cost per call.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <cbench.h>

#include "object/kstack.h"
#include "../kmod/lib/reloc.h"

#define STACK_BYTES (256u << 10)
#define ROUNDS 41
#define ARENA_BYTES (1u << 20)

/* callstack_call.S: fn(a, b) with the stack pointer at top. */
long cbench_callstack_call_on(uintptr_t top, const void *fn, void *a, uint64_t b);

static uint8_t *map_image(const struct cbench_kimage *image)
{
	uint8_t *p = mmap(NULL, image->image_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	memcpy(p, image->bytes, image->image_bytes);
	cbench_reloc_apply(p, (uint64_t)(uintptr_t)p, image->relocs, image->nrelocs);
	for (uint32_t i = 0; i < image->ntext; i++)
		mprotect(p + image->text[i].start, image->text[i].bytes, PROT_READ | PROT_EXEC);
	return p;
}

static uintptr_t aligned_stack(void)
{
	uint8_t *m = mmap(NULL, 3 * STACK_BYTES, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	uintptr_t lo;

	if (m == MAP_FAILED)
		return 0;
	lo = ((uintptr_t)m + 2 * STACK_BYTES - 1) / STACK_BYTES * STACK_BYTES;
	if (mprotect((void *)lo, STACK_BYTES, PROT_READ | PROT_WRITE))
		return 0;
	memset((void *)lo, 0, STACK_BYTES);
	return lo + STACK_BYTES;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* One round: run(ctx, reps) of entry e of the image at p; ns a rep. */
static double round_ns(uintptr_t top, const uint8_t *p, const struct cbench_kimage_entry *e,
		       struct cbench_ctx *ctx, uint64_t reps)
{
	double t0 = now_ns();

	cbench_callstack_call_on(top, p + e->run, ctx, reps);
	return (now_ns() - t0) / (double)reps;
}

static int measure(const struct cbench_kimage *plain, const struct cbench_kimage *checked, const char *spec,
		   uintptr_t top)
{
	char name[CBENCH_NAME_MAX];
	const char *colon = strchr(spec, ':'), *second = colon ? strchr(colon + 1, ':') : NULL;
	double calls = second ? atof(second + 1) : 0;
	const struct cbench_kimage_entry *e;
	const uint8_t *p[2] = { map_image(plain), map_image(checked) };
	struct cbench_ctx ctx = { .arena = aligned_alloc(4096, ARENA_BYTES), .arena_bytes = ARENA_BYTES,
				  .param = colon ? atoll(colon + 1) : 0 };
	double best[2] = { 1e300, 1e300 };
	uint64_t reps = 1;

	snprintf(name, sizeof(name), "%.*s", colon ? (int)(colon - spec) : (int)strlen(spec), spec);
	e = cbench_kimage_find(plain, name);
	if (!e || !p[0] || !p[1] || !ctx.arena) {
		fprintf(stderr, "stackcheck: no benchmark %s\n", name);
		return 1;
	}
	if (e->has_setup && cbench_callstack_call_on(top, p[0] + e->setup, &ctx, 0))
		return 1;
	/* About a millisecond a round. */
	while (round_ns(top, p[0], e, &ctx, reps) * (double)reps < 1e6 && reps < (1u << 30))
		reps *= 2;
	for (int r = 0; r < ROUNDS; r++) {
		for (int k = 0; k < 2; k++) {
			double ns = round_ns(top, p[(r + k) & 1], e, &ctx, reps);

			if (ns < best[(r + k) & 1])
				best[(r + k) & 1] = ns;
		}
	}
	printf("%-24s %12.2f %12.2f %+8.2f %%", spec, best[0], best[1], 100 * (best[1] - best[0]) / best[0]);
	if (calls > 0)
		printf(" %10.3f", (best[1] - best[0]) / calls);
	printf("\n");
	return 0;
}

int main(int argc, char **argv)
{
	const struct cbench_kstack_limits limits = {
		.stack_bytes = STACK_BYTES, .reserve_bytes = 16 << 10, .aligned = true,
	};
	struct cbench_kimage image, checked;
	struct cbench_kstack_stubs stubs;
	struct cbench_kstack ks;
	uintptr_t top = aligned_stack();
	char why[600];
	int ret = 0;

	if (argc < 3 || !top) {
		fprintf(stderr, "usage: stackcheck OBJECT NAME[:PARAM[:CALLS]] ...\n");
		return 2;
	}
	if (cbench_kimage_load(argv[1], &image, why, sizeof(why)) || cbench_kstack_analyze(&image, &limits, &ks) ||
	    cbench_kstack_patch(&ks, &image, NULL, NULL, &checked, &stubs, why, sizeof(why))) {
		fprintf(stderr, "stackcheck: %s: %s\n", argv[1], why);
		return 1;
	}
	printf("%-24s %12s %12s %9s %10s\n", "benchmark", "ns/rep", "checked", "cost", "ns/call");
	for (int i = 2; i < argc; i++)
		ret |= measure(&image, &checked, argv[i], top);
	return ret;
}
