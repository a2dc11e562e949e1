// SPDX-License-Identifier: GPL-2.0
/*
 * Choosing the kmod backend: what `--backend kmod|auto` do where cbench.ko
 * is not loaded (as on every build machine), and the object check that
 * decides whether an object may go to ring 0.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "backend/backend.h"
#include "backend/rehearse.h"
#include "object/kimage.h"
#include "object/loader.h"

#define FIXTURE(name) CBENCH_FIXTURE_DIR "/" name ".so"
/* What the rehearsal gives a call under cbench.ko's default stack: the object as loaded. */
#define STACK (&(const struct cbench_kmod_rehearsal){ .stack_bytes = cbench_kmod_stack_rehearsed(256 << 10) })

/* The rule, with and without the module, whatever this machine has. */
static void backend_choice(void)
{
	const struct cbench_backend_ops *ops = NULL;

	CU_ASSERT_EQUAL(cbench_backend_choose(CBENCH_BACKEND_KMOD, false, &ops), -ENODEV);
	CU_ASSERT_EQUAL(cbench_backend_choose(CBENCH_BACKEND_AUTO, false, &ops), 0);
	CU_ASSERT_PTR_EQUAL(ops, &cbench_backend_user);
	CU_ASSERT_EQUAL(cbench_backend_choose(CBENCH_BACKEND_USER, false, &ops), 0);
	CU_ASSERT_PTR_EQUAL(ops, &cbench_backend_user);
	CU_ASSERT_EQUAL(cbench_backend_choose(CBENCH_BACKEND_KMOD, true, &ops), 0);
	CU_ASSERT_PTR_EQUAL(ops, &cbench_backend_kmod);
	CU_ASSERT_EQUAL(cbench_backend_choose(CBENCH_BACKEND_AUTO, true, &ops), 0);
	CU_ASSERT_PTR_EQUAL(ops, &cbench_backend_kmod);
	CU_ASSERT_EQUAL(cbench_backend_choose(CBENCH_BACKEND_USER, true, &ops), 0);
	CU_ASSERT_PTR_EQUAL(ops, &cbench_backend_user);
	/* And select() follows the rule with what this machine has. */
	CU_ASSERT_EQUAL(cbench_backend_select(CBENCH_BACKEND_AUTO, &ops), 0);
	CU_ASSERT_PTR_EQUAL(ops, cbench_backend_kmod_available() ? &cbench_backend_kmod :
							      &cbench_backend_user);
}

static void object_check(void)
{
	char why[512];

	CU_ASSERT_EQUAL(cbench_backend_kmod_check(FIXTURE("good"), why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(cbench_backend_kmod_check(FIXTURE("bad_libc_call"), why, sizeof(why)),
			-EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "strlen"));
}

/* setup() runs with preemption off in ring 0: a slow one never gets there. */
static void slow_setup_refused(void)
{
	struct cbench_library lib;
	char err[512];
	int seen = 0;

	CU_ASSERT_EQUAL_FATAL(cbench_library_load(&lib, FIXTURE("slow_setup"), err, sizeof(err)), 0);
	for (size_t i = 0; i < lib.nexperiments; i++) {
		const struct cbench_experiment *e = &lib.experiments[i];
		uint64_t setup_ns = 0;
		char why[512];
		int ret = cbench_kmod_rehearse(e, NULL, STACK, &setup_ns, why, sizeof(why));

		if (!strcmp(e->desc->name, "slow_setup")) {
			CU_ASSERT_EQUAL(ret, -ETIME);
			CU_ASSERT(setup_ns > CBENCH_KMOD_SETUP_MAX_NS);
			seen++;
		} else if (!strcmp(e->desc->name, "quick_setup")) {
			CU_ASSERT_EQUAL(ret, 0);
			CU_ASSERT(setup_ns < CBENCH_KMOD_SETUP_MAX_NS);
			seen++;
		}
	}
	CU_ASSERT_EQUAL(seen, 2);
	cbench_library_close(&lib);
}

/*
 * A setup() slow once, as a trivial one is when its host stalls, is
 * rehearsed again and judged by its quickest call; a slow one is refused
 * after CBENCH_KMOD_SETUP_TRIES rehearsals.
 */
static void setup_slow_once_passes(void)
{
	char counter[] = "/tmp/cbench-slow-once.XXXXXX", why[512], err[512];
	struct cbench_library lib;
	uint64_t setup_ns = 0;
	unsigned int calls = 0;
	FILE *f;
	int fd = mkstemp(counter);

	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	setenv("CBENCH_SLOW_ONCE_COUNTER", counter, 1);
	CU_ASSERT_EQUAL_FATAL(cbench_library_load(&lib, CBENCH_FIXTURES_DIR "/slow_once.so", err,
						  sizeof(err)), 0);
	CU_ASSERT_EQUAL(cbench_kmod_rehearse(&lib.experiments[0], NULL, STACK, &setup_ns, why,
					     sizeof(why)), 0);
	CU_ASSERT(setup_ns > 0 && setup_ns < CBENCH_KMOD_SETUP_MAX_NS);
	f = fopen(counter, "r");
	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT_EQUAL(fscanf(f, "%u", &calls), 1);
	fclose(f);
	/* Loading the object calls no setup(); the first rehearsal's was slow. */
	CU_ASSERT_EQUAL(calls, 2);
	cbench_library_close(&lib);
	unsetenv("CBENCH_SLOW_ONCE_COUNTER");
	unlink(counter);
}

/* The experiment named name in lib, or NULL. */
static const struct cbench_experiment *find(const struct cbench_library *lib, const char *name)
{
	for (size_t i = 0; i < lib->nexperiments; i++) {
		if (!strcmp(lib->experiments[i].desc->name, name))
			return &lib->experiments[i];
	}
	return NULL;
}

/*
 * Ring 0 runs only what user mode has rehearsed: every reps count of the
 * run, the probe's included, on an arena of the same size between guard
 * pages.  Each hostile benchmark dies in the rehearsal, which names how and
 * at which reps.
 */
static void rehearsal_catches_hostile(void)
{
	const struct cbench_kmod_shape trial = { .reps = 1000, .step = 0, .samples = 4 };
	const struct cbench_kmod_shape small = { .reps = 10, .step = 1, .samples = 40 };
	const struct cbench_experiment *e;
	struct cbench_library lib;
	uint64_t setup_ns;
	char err[512], why[512];

	CU_ASSERT_EQUAL_FATAL(cbench_library_load(&lib, FIXTURE("hostile"), err, sizeof(err)), 0);

	/* One rep is fine; the run's reps are not, and a sweep 10..49 is. */
	e = find(&lib, "overrun_at_reps");
	CU_ASSERT_FATAL(e != NULL);
	CU_ASSERT_EQUAL(cbench_kmod_rehearse(e, NULL, STACK, &setup_ns, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(cbench_kmod_rehearse(e, &small, STACK, &setup_ns, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(cbench_kmod_rehearse(e, &trial, STACK, &setup_ns, why, sizeof(why)), -EFAULT);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "SIGSEGV"));
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "never reached cbench.ko"));

	/* Only the probe's 256 reps overrun: the rehearsal makes that call too. */
	e = find(&lib, "overrun_in_probe");
	CU_ASSERT_FATAL(e != NULL);
	CU_ASSERT_EQUAL(cbench_kmod_rehearse(e, NULL, STACK, &setup_ns, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(cbench_kmod_rehearse(e, &trial, STACK, &setup_ns, why, sizeof(why)), -EFAULT);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "the budget probe's call of 256 reps"));

	e = find(&lib, "null_deref");
	CU_ASSERT_FATAL(e != NULL);
	CU_ASSERT_EQUAL(cbench_kmod_rehearse(e, NULL, STACK, &setup_ns, why, sizeof(why)), -EFAULT);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "SIGSEGV"));

	e = find(&lib, "ud2");
	CU_ASSERT_FATAL(e != NULL);
	CU_ASSERT_EQUAL(cbench_kmod_rehearse(e, NULL, STACK, &setup_ns, why, sizeof(why)), -EFAULT);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "SIGILL"));

	/* An arena user mode cannot have is said so, with its size. */
	e = find(&lib, "arena_1tib");
	CU_ASSERT_FATAL(e != NULL);
	CU_ASSERT_EQUAL(cbench_kmod_rehearse(e, NULL, STACK, &setup_ns, why, sizeof(why)), -ENOMEM);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "1099511627776 bytes"));
	cbench_library_close(&lib);
}

/*
 * With loop timing points the rehearsal gives each call a buffer of the
 * run's records, set as cbench.ko sets it, against a guard page: a
 * benchmark that raises its own capacity and writes past the buffer dies
 * there; one that only scribbles on ctx->tp, or records within it, passes.
 */
static void rehearsal_with_tpoints(void)
{
	const struct cbench_kmod_shape plain = { .reps = 1, .samples = 2 };
	const struct cbench_kmod_shape tp = { .reps = 1, .samples = 2, .tp_records = 65536,
					      .tp_every = 1 };
	const struct cbench_kmod_shape few = { .reps = 1, .samples = 2, .tp_records = 100,
					       .tp_every = 7 };
	const struct cbench_experiment *e;
	struct cbench_library lib;
	uint64_t setup_ns;
	char err[512], why[512];

	CU_ASSERT_EQUAL_FATAL(cbench_library_load(&lib, FIXTURE("tp_hostile"), err, sizeof(err)), 0);
	e = find(&lib, "tp_capacity_lie");
	CU_ASSERT_FATAL(e != NULL);
	CU_ASSERT_EQUAL(cbench_kmod_rehearse(e, &plain, STACK, &setup_ns, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(cbench_kmod_rehearse(e, &tp, STACK, &setup_ns, why, sizeof(why)), -EFAULT);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "SIGSEGV"));
	CU_ASSERT_EQUAL(cbench_kmod_rehearse(e, &few, STACK, &setup_ns, why, sizeof(why)), -EFAULT);
	e = find(&lib, "tp_scribble");
	CU_ASSERT_FATAL(e != NULL);
	CU_ASSERT_EQUAL(cbench_kmod_rehearse(e, &tp, STACK, &setup_ns, why, sizeof(why)), 0);
	cbench_library_close(&lib);

	CU_ASSERT_EQUAL_FATAL(cbench_library_load(&lib, FIXTURE("tpoints"), err, sizeof(err)), 0);
	e = find(&lib, "looped");
	CU_ASSERT_FATAL(e != NULL);
	CU_ASSERT_EQUAL(cbench_kmod_rehearse(e, &few, STACK, &setup_ns, why, sizeof(why)), 0);
	cbench_library_close(&lib);
}

/*
 * Ring 0 calls benchmark code on cbench.ko's stack, not a user thread's 8
 * MiB: the rehearsal makes every call on three quarters of it, so code that
 * needs more is refused here, saying how much it had, and code that fits
 * (a 64 KiB frame, which overflowed a kernel thread's 16 KiB) passes.
 */
static void rehearsal_stack(void)
{
	const struct cbench_kmod_shape shape = { .reps = 1, .samples = 2 };
	static const char *const refused[] = { "recurse_10k", "frame_1m" };
	const struct cbench_experiment *e;
	struct cbench_library lib;
	uint64_t setup_ns;
	char err[512], why[600];

	CU_ASSERT_EQUAL(cbench_kmod_stack_rehearsed(256 << 10), 192 << 10);
	CU_ASSERT_EQUAL(cbench_kmod_stack_rehearsed(64 << 10), 48 << 10);
	CU_ASSERT_EQUAL(cbench_kmod_stack_rehearsed(0), CBENCH_KMOD_STACK_OLD);
	CU_ASSERT_EQUAL_FATAL(cbench_library_load(&lib, FIXTURE("deep_stack"), err, sizeof(err)), 0);
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		e = find(&lib, refused[i]);
		CU_ASSERT_FATAL(e != NULL);
		CU_ASSERT_EQUAL(cbench_kmod_rehearse(e, &shape, STACK, &setup_ns, why, sizeof(why)),
				-E2BIG);
		CU_ASSERT_PTR_NOT_NULL(strstr(why, "needs more than 192 KiB of stack"));
		CU_ASSERT_PTR_NOT_NULL(strstr(why, "never reached cbench.ko"));
	}
	e = find(&lib, "frame_64k");
	CU_ASSERT_FATAL(e != NULL);
	CU_ASSERT_EQUAL(cbench_kmod_rehearse(e, &shape, STACK, &setup_ns, why, sizeof(why)), 0);
	/* On an old module's thread stack it would not fit. */
	CU_ASSERT_EQUAL(cbench_kmod_rehearse(e, &shape, &(const struct cbench_kmod_rehearsal){
						     .stack_bytes = cbench_kmod_stack_rehearsed(0) },
					     &setup_ns, why, sizeof(why)), -E2BIG);
	cbench_library_close(&lib);
}

/*
 * With an image with stack checks, the rehearsal runs it, on a stack aligned
 * as ring 0's: a recursion deep enough for a check to end it in ring 0 is
 * ended here first, naming the function; shallow, it runs; a frame only
 * ring 0 reaches is left to ring 0; one no stack of ring 0's could hold,
 * reached here, is refused saying so.
 */
static void rehearsal_checked(void)
{
	const struct cbench_kstack_limits limits = {
		.stack_bytes = 256 << 10, .reserve_bytes = 16 << 10, .aligned = true,
	};
	const struct cbench_kmod_shape shape = { .reps = 1, .samples = 2 };
	static const char *const objects[] = { "recursion", "deep_stack" };
	struct cbench_library lib[2];
	struct cbench_kimage image[2], checked[2];
	struct cbench_kstack ks[2];
	struct cbench_kstack_stubs stubs[2];
	struct cbench_kmod_rehearsal how[2];
	struct cbench_experiment deep;
	uint64_t setup_ns;
	char err[600], why[800];

	for (int i = 0; i < 2; i++) {
		CU_ASSERT_EQUAL_FATAL(cbench_library_load(&lib[i], i ? FIXTURE("deep_stack") : FIXTURE("recursion"),
							  err, sizeof(err)), 0);
		CU_ASSERT_EQUAL_FATAL(cbench_kimage_load(lib[i].path, &image[i], err, sizeof(err)), 0);
		CU_ASSERT_EQUAL_FATAL(cbench_kstack_analyze(&image[i], &limits, &ks[i]), 0);
		CU_ASSERT_EQUAL_FATAL(cbench_kstack_patch(&ks[i], &image[i], NULL, NULL, &checked[i], &stubs[i], err,
							  sizeof(err)), 0);
		how[i] = (struct cbench_kmod_rehearsal){
			.stack_bytes = cbench_kmod_stack_rehearsed(256 << 10), .stack_align = 256 << 10,
			.image = &checked[i], .ks = &ks[i], .stubs = &stubs[i],
		};
		(void)objects[i];
	}
	/* down()'s check asks for 32 KiB: the rehearsal's stack, 64 KiB short
	 * of ring 0's, ends first, as for the object as loaded. */
	deep = *find(&lib[0], "direct_ring0");
	CU_ASSERT_EQUAL(cbench_kmod_rehearse(&deep, &shape, &how[0], &setup_ns, why, sizeof(why)), 0);
	deep.param = 7000;
	CU_ASSERT_EQUAL(cbench_kmod_rehearse(&deep, &shape, &how[0], &setup_ns, why, sizeof(why)), -E2BIG);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "needs more than 192 KiB of stack"));
	/* wide()'s asks for 128 KiB: called a fourth time (144 KiB in) it
	 * ends the call, in its stub, before the rehearsal's stack ends; three
	 * times, it runs. */
	deep = *find(&lib[0], "wide_frames");
	deep.param = 2;
	CU_ASSERT_EQUAL(cbench_kmod_rehearse(&deep, &shape, &how[0], &setup_ns, why, sizeof(why)), 0);
	deep.param = 3;
	CU_ASSERT_EQUAL(cbench_kmod_rehearse(&deep, &shape, &how[0], &setup_ns, why, sizeof(why)), -E2BIG);
	CU_ASSERT(strstr(why, "wide_frames would run out of stack in ring 0") &&
		  strstr(why, "called wide with less than 128 KiB of the 256 KiB stack left (wide -> wide)") &&
		  strstr(why, "never reached cbench.ko"));
	/* As loaded, on the rehearsal's 192 KiB, its 4 levels do not fit either. */
	CU_ASSERT_EQUAL(cbench_kmod_rehearse(&deep, &shape, STACK, &setup_ns, why, sizeof(why)), -E2BIG);
	CU_ASSERT_EQUAL(cbench_kmod_rehearse(find(&lib[0], "frame_ring0"), &shape, &how[0], &setup_ns, why,
					     sizeof(why)), 0);
	CU_ASSERT_EQUAL(cbench_kmod_rehearse(find(&lib[0], "quicksort"), &shape, &how[0], &setup_ns, why,
					     sizeof(why)), 0);
	CU_ASSERT_EQUAL(cbench_kmod_rehearse(find(&lib[1], "frame_1m"), &shape, &how[1], &setup_ns, why,
					     sizeof(why)), -E2BIG);
	CU_ASSERT(strstr(why, "frame_1m needs more stack than ring 0 gives") && strstr(why, "called fill") &&
		  strstr(why, "never reached cbench.ko"));
	for (int i = 0; i < 2; i++) {
		cbench_kstack_stubs_free(&stubs[i]);
		cbench_kimage_free(&checked[i]);
		cbench_kstack_free(&ks[i]);
		cbench_kimage_free(&image[i]);
		cbench_library_close(&lib[i]);
	}
}

static CU_TestInfo backend_kmod_tests[] = {
	{ "the rehearsal runs ring 0's stack checks", rehearsal_checked },
	{ "the rehearsal gives each call ring 0's stack", rehearsal_stack },
	{ "the rehearsal gives timing points the module's buffer", rehearsal_with_tpoints },
	{ "the user-mode rehearsal stops hostile benchmarks", rehearsal_catches_hostile },
	{ "a setup() too slow for ring 0 is refused in user mode", slow_setup_refused },
	{ "a setup() slow once is rehearsed again and passes", setup_slow_once_passes },
	{ "kmod, auto and user, with and without cbench.ko", backend_choice },
	{ "objects checked before ring 0", object_check },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_backend_kmod_suites[] = {
	{ "backend_kmod", NULL, NULL, NULL, NULL, backend_kmod_tests },
	CU_SUITE_INFO_NULL,
};
