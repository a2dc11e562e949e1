// SPDX-License-Identifier: GPL-2.0
/*
 * The stack bound and checks of kernel images (object/kstack*.c): one
 * instruction's effect on the stack; which functions of the recursion
 * fixtures (tests/kfixtures/recursion.c) are checked, and why; that the
 * patched image is the image as built but for the checks and the direct
 * calls led to them (and that the check says so when it is not); that it runs as built, here in a child on
 * a stack aligned as cbench.ko's, and stops with ud2 in the right stub
 * before the stack's end where the same image unchecked overflows; frames
 * of run-time size refused with the function named; and no check, and no
 * refusal, in any other object the tree builds for ring 0.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include <cbench.h>

#include "machine/arena.h"
#include "object/kimage_layout.h"
#include "object/kstack_parts.h"
#include "object/x86insn.h"
#include "../kmod/lib/reloc.h"

#define FIXTURE(name) CBENCH_FIXTURE_DIR "/" name ".so"
#define STACK_BYTES (256u << 10)

/* callstack_call.S: fn(a, b) with the stack pointer at top. */
long cbench_callstack_call_on(uintptr_t top, const void *fn, void *a, uint64_t b);

static const struct cbench_kstack_limits limits = {
	.stack_bytes = STACK_BYTES, .reserve_bytes = 16 << 10, .aligned = true,
};

/* ---- one instruction --------------------------------------------------- */

static size_t unhex(const char *hex, uint8_t *out)
{
	size_t n = 0;

	for (unsigned int b; hex[0] && hex[1] && sscanf(hex, "%2x", &b) == 1; hex += 2)
		out[n++] = (uint8_t)b;
	return n;
}

/* The effect of each instruction of hex (concatenated) from st; -1 if one was refused. */
static int effects(const char *const *hex, size_t n, struct kstack_state *st, char *why, size_t why_bytes)
{
	for (size_t i = 0; i < n; i++) {
		uint8_t code[16];
		struct cbench_x86_insn insn;
		size_t len = unhex(hex[i], code);

		if (!cbench_x86_decode(code, len, &insn) || cbench_kstack_effect(&insn, st, why, why_bytes))
			return -1;
	}
	return 0;
}

static void one_instruction(void)
{
	static const char *const prologue[] = {
		"55", "4889e5", "4154", "53", "4883ec20",	/* push rbp; mov rsp,rbp; push r12, rbx; sub 32 */
	};
	static const char *const epilogue[] = { "4883c420", "5b", "415c", "5d" };
	static const char *const aligned[] = { "55", "4889e5", "4883e4c0", "4881ec00010000", "c9" };
	static const char *const lea_back[] = { "55", "4889e5", "53", "4883ec40", "488d65f8", "5b", "5d" };
	static const char *const refused[] = {
		"4889c4",	/* mov %rax, %rsp */
		"4829c4",	/* sub %rax, %rsp */
		"5c",		/* pop %rsp */
		"c8100000",	/* enter */
		"83ec10",	/* sub $16, %esp */
		"488d2404",	/* lea (%rsp,%rax), %rsp */
		"4883cc08",	/* or $8, %rsp */
	};
	struct kstack_state st = { 0 };
	char why[256];

	CU_ASSERT_EQUAL(effects(prologue, 5, &st, why, sizeof(why)), 0);
	CU_ASSERT(st.lo == 56 && st.hi == 56 && st.bp_known && st.bp == 8);
	CU_ASSERT_EQUAL(effects(epilogue, 4, &st, why, sizeof(why)), 0);
	CU_ASSERT(st.lo == 0 && st.hi == 0);
	memset(&st, 0, sizeof(st));
	CU_ASSERT_EQUAL(effects(aligned, 4, &st, why, sizeof(why)), 0);
	CU_ASSERT(st.lo == 8 + 256 && st.hi == 8 + 63 + 256);
	CU_ASSERT_EQUAL(effects(aligned + 4, 1, &st, why, sizeof(why)), 0);
	CU_ASSERT(st.lo == 0 && st.hi == 0 && !st.bp_known);
	memset(&st, 0, sizeof(st));
	CU_ASSERT_EQUAL(effects(lea_back, 7, &st, why, sizeof(why)), 0);
	CU_ASSERT(st.lo == 0 && st.hi == 0);
	/* leave with %rbp not from %rsp. */
	memset(&st, 0, sizeof(st));
	CU_ASSERT_EQUAL(effects((const char *const[]){ "c9" }, 1, &st, why, sizeof(why)), -1);
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		memset(&st, 0, sizeof(st));
		st.lo = st.hi = 64;
		why[0] = '\0';
		CU_ASSERT_EQUAL(effects(&refused[i], 1, &st, why, sizeof(why)), -1);
		CU_ASSERT(why[0] != '\0');
	}
	memset(&st, 0, sizeof(st));
	CU_ASSERT_EQUAL(effects((const char *const[]){ "4829c4" }, 1, &st, why, sizeof(why)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "run-time size"));
}

static void powers(void)
{
	CU_ASSERT_EQUAL(cbench_kstack_log2(&limits, 16 << 10), 14);
	CU_ASSERT_EQUAL(cbench_kstack_log2(&limits, (16 << 10) + 1), 15);
	CU_ASSERT_EQUAL(cbench_kstack_log2(&limits, 128 << 10), 17);
	/* More than half the stack: it asks for all of it, and always traps. */
	CU_ASSERT_EQUAL(cbench_kstack_log2(&limits, (128 << 10) + 1), 18);
	CU_ASSERT_EQUAL(cbench_kstack_log2(&limits, 1ULL << 30), 18);
}

/* ---- the recursion fixtures --------------------------------------------- */

static bool analyze(const char *path, struct cbench_kimage *image, struct cbench_kstack *ks)
{
	char why[512];

	if (cbench_kimage_load(path, image, why, sizeof(why))) {
		fprintf(stderr, "\n%s\n", why);
		return false;
	}
	if (cbench_kstack_analyze(image, &limits, ks)) {
		cbench_kimage_free(image);
		return false;
	}
	return true;
}

static const struct cbench_kstack_check *check_of(const struct cbench_kstack *ks, const char *name)
{
	for (uint32_t i = 0; i < ks->nchecks; i++)
		if (!strcmp(ks->checks[i].name, name))
			return &ks->checks[i];
	return NULL;
}

static void checked(void)
{
	static const char *const cycles[] = { "down", "via_pointer", "via_arena", "quick", "walk", "wide" };
	struct cbench_kimage image;
	struct cbench_kstack ks;
	const struct cbench_kstack_check *c;

	if (!analyze(FIXTURE("recursion"), &image, &ks)) {
		CU_FAIL("recursion.so");
		return;
	}
	for (size_t i = 0; i < sizeof(cycles) / sizeof(cycles[0]); i++) {
		c = check_of(&ks, cycles[i]);
		CU_ASSERT_PTR_NOT_NULL(c);
		if (!c) {
			fprintf(stderr, "\nno check on %s\n", cycles[i]);
			continue;
		}
		CU_ASSERT_EQUAL(c->reason, CBENCH_KSTACK_CYCLE);
		CU_ASSERT(c->log2 < 18 && c->need_bytes > limits.reserve_bytes);
		CU_ASSERT_PTR_NOT_NULL(strstr(c->path, cycles[i]));
	}
	/* One of the pair, its cycle named through the other. */
	c = check_of(&ks, "ping") ? check_of(&ks, "ping") : check_of(&ks, "pong");
	CU_ASSERT(c && (!check_of(&ks, "ping") || !check_of(&ks, "pong")));
	CU_ASSERT(c && strstr(c->path, "ping") && strstr(c->path, "pong"));
	/* The 1 MiB frame can never run: its check always traps. */
	c = check_of(&ks, "big_frame");
	CU_ASSERT(c && c->reason == CBENCH_KSTACK_DEEP && c->log2 == 18);
	/* Nothing else (wide, on its cycle, is the eighth): the benchmarks' own functions are on none. */
	CU_ASSERT_EQUAL(ks.nchecks, 8);
	for (uint32_t i = 0; i < image.nentries; i++) {
		uint32_t n = 0;
		char why[600];

		CU_ASSERT_EQUAL(cbench_kstack_verdict(&ks, &image.entries[i], "recursion.so", &n, NULL, why,
						      sizeof(why)), 0);
		CU_ASSERT(n > 0);
	}
	cbench_kstack_free(&ks);
	cbench_kimage_free(&image);
}

/* The patched image is the image but for the checks; a byte more and the check says so. */
static void patched(void)
{
	struct cbench_kimage image, out;
	struct cbench_kstack_stubs stubs;
	struct cbench_kstack ks;
	char why[512];

	if (!analyze(FIXTURE("recursion"), &image, &ks)) {
		CU_FAIL("recursion.so");
		return;
	}
	CU_ASSERT_EQUAL_FATAL(cbench_kstack_patch(&ks, &image, NULL, NULL, &out, &stubs, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(stubs.nstubs, ks.nchecks);
	for (uint32_t i = 0; i < stubs.nstubs; i++) {
		const struct cbench_kstack_check *c = &ks.checks[stubs.check[i]];

		CU_ASSERT_PTR_EQUAL(cbench_kstack_stub_at(&ks, &stubs, stubs.stub[i] + 9), c);
		/* The endbr64 stays where there was one. */
		CU_ASSERT(c->patch_at == c->at || cbench_kstack_endbr(&out, c->at));
		/* A stub byte changed, the entry's jump moved: the check refuses both. */
		out.bytes[stubs.stub[i] + 2] ^= 0x10;
		CU_ASSERT_EQUAL(cbench_kstack_patch_check(&ks, &image, &out, &stubs, why, sizeof(why)), -EINVAL);
		out.bytes[stubs.stub[i] + 2] ^= 0x10;
		out.bytes[c->patch_at + 1] ^= 1;
		CU_ASSERT_EQUAL(cbench_kstack_patch_check(&ks, &image, &out, &stubs, why, sizeof(why)), -EINVAL);
		out.bytes[c->patch_at + 1] ^= 1;
	}
	/* Direct calls of checked functions (down's of itself, ping's of pong, ...) reach their stubs. */
	CU_ASSERT(stubs.nled >= 4);
	for (uint32_t i = 0; i < stubs.nled; i++) {
		CU_ASSERT_EQUAL(out.bytes[stubs.led[i]], 0xe8);
		out.bytes[stubs.led[i] + 1] ^= 1;
		CU_ASSERT_EQUAL(cbench_kstack_patch_check(&ks, &image, &out, &stubs, why, sizeof(why)), -EINVAL);
		out.bytes[stubs.led[i] + 1] ^= 1;
	}
	CU_ASSERT_EQUAL(cbench_kstack_patch_check(&ks, &image, &out, &stubs, why, sizeof(why)), 0);
	out.bytes[16] ^= 1;
	CU_ASSERT_EQUAL(cbench_kstack_patch_check(&ks, &image, &out, &stubs, why, sizeof(why)), -EINVAL);
	cbench_kstack_stubs_free(&stubs);
	cbench_kimage_free(&out);
	cbench_kstack_free(&ks);
	cbench_kimage_free(&image);
}

/* ---- running it ---------------------------------------------------------- */

/* What a child that ran an image says. */
struct ran {
	int signal;			/* 0: it returned */
	uint64_t trap;			/* SIGILL, SIGSEGV: the faulting instruction's image offset */
	uint64_t value;			/* what it returned */
	uint64_t arena[2 * 4096];	/* the benchmark's arena, after */
};

static struct ran *shared;
static uintptr_t mapped;

static void on_signal(int sig, siginfo_t *info, void *uc)
{
	shared->signal = sig;
	shared->trap = (uint64_t)((ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP] - mapped;
	(void)info;
	_exit(9);
}

/* A stack of STACK_BYTES aligned to its size, unmapped below: its top. */
static uintptr_t aligned_stack(void)
{
	uint8_t *m = mmap(NULL, 3 * STACK_BYTES, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	uintptr_t lo;

	if (m == MAP_FAILED)
		return 0;
	lo = ((uintptr_t)m + 2 * STACK_BYTES - 1) / STACK_BYTES * STACK_BYTES;
	if (mprotect((void *)lo, STACK_BYTES, PROT_READ | PROT_WRITE))
		return 0;
	return lo + STACK_BYTES;
}

/*
 * In a child, as cbench.ko would but on an aligned stack of STACK_BYTES:
 * setup() and run(ctx, 1) of benchmark name with ctx->param param, or,
 * with fn, fn(param) alone.  Returns what it did in shared memory.
 */
static struct ran *run(const struct cbench_kimage *image, const char *name, const char *fn, int64_t param)
{
	static char alt[64 << 10];
	struct ran *r = mmap(NULL, sizeof(*r), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int status;
	pid_t pid;

	if (r == MAP_FAILED)
		return NULL;
	memset(r, 0, sizeof(*r));
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		const struct cbench_kimage_entry *e = name ? cbench_kimage_find(image, name) : NULL;
		uint8_t *p = mmap(NULL, image->image_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
				  -1, 0);
		struct cbench_ctx ctx = { .arena = r->arena, .arena_bytes = sizeof(r->arena), .param = param };
		stack_t ss = { .ss_sp = alt, .ss_size = sizeof(alt) };
		struct sigaction sa = { .sa_sigaction = on_signal, .sa_flags = SA_SIGINFO | SA_ONSTACK };
		uintptr_t top = aligned_stack();

		if (p == MAP_FAILED || !top)
			_exit(1);
		shared = r;
		mapped = (uintptr_t)p;
		memcpy(p, image->bytes, image->image_bytes);
		cbench_reloc_apply(p, (uint64_t)(uintptr_t)p, image->relocs, image->nrelocs);
		for (uint32_t i = 0; i < image->ntext; i++)
			mprotect(p + image->text[i].start, image->text[i].bytes, PROT_READ | PROT_EXEC);
		sigaltstack(&ss, NULL);
		sigaction(SIGILL, &sa, NULL);
		sigaction(SIGSEGV, &sa, NULL);
		for (uint32_t i = 0; fn && i < image->nfuncs; i++)
			if (!strcmp(image->funcs[i].name, fn))
				r->value = (uint64_t)cbench_callstack_call_on(top, p + image->funcs[i].offset,
									     (void *)(uintptr_t)param, 0);
		if (e && e->has_setup && cbench_callstack_call_on(top, p + e->setup, &ctx, 0))
			_exit(2);
		if (e)
			cbench_callstack_call_on(top, p + e->run, &ctx, 1);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || (WIFEXITED(status) && WEXITSTATUS(status) &&
							   WEXITSTATUS(status) != 9)) {
		munmap(r, sizeof(*r));
		return NULL;
	}
	return r;
}

/* Whether shared memory r says the stub of check name trapped. */
static bool trapped_in(const struct cbench_kstack *ks, const struct cbench_kstack_stubs *stubs,
		       const struct ran *r, const char *name)
{
	const struct cbench_kstack_check *c = r ? cbench_kstack_stub_at(ks, stubs, r->trap) : NULL;

	if (!r || r->signal != SIGILL || !c) {
		fprintf(stderr, "\n%s: signal %d at 0x%llx\n", name, r ? r->signal : -1,
			r ? (unsigned long long)r->trap : 0ULL);
		return false;
	}
	return !strcmp(c->name, name) || (!strcmp(name, "ping") && !strcmp(c->name, "pong")) ||
	       (!strcmp(name, "pong") && !strcmp(c->name, "ping"));
}

static void runs(void)
{
	static const struct {
		const char *bench, *stub;
	} deep[] = {
		{ "direct_ring0", "down" }, { "mutual_ring0", "ping" }, { "pointer_ring0", "via_pointer" },
		{ "arena_ring0", "via_arena" },
	};
	struct cbench_kimage image, out;
	struct cbench_kstack_stubs stubs;
	struct cbench_kstack ks;
	struct ran *r;
	char why[512];

	if (!analyze(FIXTURE("recursion"), &image, &ks)) {
		CU_FAIL("recursion.so");
		return;
	}
	CU_ASSERT_EQUAL_FATAL(cbench_kstack_patch(&ks, &image, NULL, NULL, &out, &stubs, why, sizeof(why)), 0);
	/* Checked code computes what the code as built does. */
	r = run(&out, NULL, "down", 100);
	CU_ASSERT(r && !r->signal && r->value == 5050);
	/* ping(n) = n + pong(n - 1), pong(n) = 2n + ping(n - 1): 51 odd n, 50 even doubled. */
	r = run(&out, NULL, "ping", 101);
	CU_ASSERT(r && !r->signal && r->value == 51 * 51 + 2 * 50 * 51);
	for (size_t i = 0; i < sizeof(deep) / sizeof(deep[0]); i++) {
		/* Shallow: it returns.  Deep: the check traps, in its own stub,
		 * where the code as built overflows the stack. */
		r = run(&out, deep[i].bench, NULL, 10);
		CU_ASSERT(r && !r->signal);
		r = run(&out, deep[i].bench, NULL, 100000);
		CU_ASSERT(trapped_in(&ks, &stubs, r, deep[i].stub));
		r = run(&image, deep[i].bench, NULL, 100000);
		CU_ASSERT(r && r->signal == SIGSEGV);
	}
	/* Well-behaved recursion runs, and sorts. */
	r = run(&out, "quicksort", NULL, 0);
	CU_ASSERT(r && !r->signal);
	if (r) {
		/* The fixture sorts SORT_N (64) numbers, its copy after the input. */
		const uint32_t *sorted = (const uint32_t *)r->arena + 64;
		bool ordered = sorted[63] != 0;

		for (int i = 1; i < 64; i++)
			ordered &= sorted[i - 1] <= sorted[i];
		CU_ASSERT(ordered);
	}
	r = run(&out, "tree_walk", NULL, 0);
	CU_ASSERT(r && !r->signal);
	/* The 1 MiB frame: its check always traps. */
	r = run(&out, NULL, "big_frame", 1);
	CU_ASSERT(trapped_in(&ks, &stubs, r, "big_frame"));
	cbench_kstack_stubs_free(&stubs);
	cbench_kimage_free(&out);
	cbench_kstack_free(&ks);
	cbench_kimage_free(&image);
}

static uint64_t draw(void *pl, uint64_t n)
{
	return cbench_placement_draw(pl, n);
}

static uint64_t moved(void *kl, uint64_t offset)
{
	return cbench_kimage_layout_moved(kl, offset);
}

/* Laid out anew, the code carries its checks in both copies, and they trap in the moved one. */
static void laid_out(void)
{
	struct cbench_kimage image, laid, out;
	struct cbench_kimage_layout kl;
	struct cbench_kstack_stubs stubs;
	struct cbench_placement pl;
	struct cbench_kstack ks;
	struct ran *r;
	char why[512];

	if (!analyze(FIXTURE("layout_recursion"), &image, &ks)) {
		CU_FAIL("layout_recursion.so");
		return;
	}
	CU_ASSERT_EQUAL_FATAL(cbench_kimage_layout_init(&kl, FIXTURE("layout_recursion"), &image, why,
							sizeof(why)), 0);
	CU_ASSERT_EQUAL_FATAL(kl.lay.mode, CBENCH_LAYOUT_FUNCTIONS);
	cbench_placement_init(&pl, 3);
	CU_ASSERT_EQUAL_FATAL(cbench_kimage_layout_next(&kl, &image, draw, &pl, &laid, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL_FATAL(cbench_kstack_patch(&ks, &laid, moved, &kl, &out, &stubs, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(stubs.nstubs, 2 * ks.nchecks);
	/* Run with the code as built wiped, as the layout tests do: only the moved copy runs. */
	for (uint32_t i = 0; i < kl.lay.nunits; i++)
		memset(out.bytes + (kl.lay.units[i].addr - kl.base), 0xcc, kl.lay.units[i].bytes);
	r = run(&out, "direct_ring0", NULL, 10);
	CU_ASSERT(r && !r->signal);
	r = run(&out, "direct_ring0", NULL, 100000);
	CU_ASSERT(trapped_in(&ks, &stubs, r, "down"));
	CU_ASSERT(r && r->trap >= kl.region && r->trap < stubs.region + stubs.region_bytes);
	r = run(&out, "quicksort", NULL, 0);
	CU_ASSERT(r && !r->signal);
	cbench_placement_free(&pl);
	cbench_kstack_stubs_free(&stubs);
	cbench_kimage_free(&out);
	cbench_kimage_free(&laid);
	cbench_kimage_layout_free(&kl);
	cbench_kstack_free(&ks);
	cbench_kimage_free(&image);
}

/* ---- refusals, and the rest of the tree ------------------------------------ */

static void run_time_frames(void)
{
	struct cbench_kimage image;
	struct cbench_kstack ks;
	char why[600];
	uint32_t n;

	if (!analyze(FIXTURE("stack_vla"), &image, &ks)) {
		CU_FAIL("stack_vla.so");
		return;
	}
	CU_ASSERT_EQUAL(cbench_kstack_verdict(&ks, cbench_kimage_find(&image, "vla"), "stack_vla.so", &n, NULL, why,
					      sizeof(why)), -EINVAL);
	CU_ASSERT(strstr(why, "vla calls vla -> sum_vla") && strstr(why, "run-time size") &&
		  strstr(why, "--backend user"));
	CU_ASSERT_EQUAL(cbench_kstack_verdict(&ks, cbench_kimage_find(&image, "grow"), "stack_vla.so", &n, NULL, why,
					      sizeof(why)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "grow"));
	CU_ASSERT_EQUAL(cbench_kstack_verdict(&ks, cbench_kimage_find(&image, "plain"), "stack_vla.so", &n, NULL, why,
					      sizeof(why)), 0);
	CU_ASSERT_EQUAL(n, 0);
	cbench_kstack_free(&ks);
	cbench_kimage_free(&image);
}

/* The probe loop of -fstack-clash-protection: one frame, followed whole. */
static void probe_loops(void)
{
	static const char *const loop = "4c8d9c2400c0ffff"	/* lea -0x4000(%rsp), %r11 */
					"4881ec00100000"	/* sub $0x1000, %rsp */
					"48830c2400"		/* orq $0, (%rsp) */
					"4c39dc"		/* cmp %r11, %rsp */
					"75ef";			/* jne to the sub */
	struct cbench_kimage image;
	struct cbench_kstack ks;
	uint8_t code[64];
	size_t n = unhex(loop, code);
	int64_t frame = 0;
	char why[600];
	uint32_t checks;

	CU_ASSERT_EQUAL(cbench_kstack_probe_loop(code, n, &frame), n);
	CU_ASSERT_EQUAL(frame, 0x4000);
	/* Probing by another step than N's multiple, or looping elsewhere: not the idiom. */
	code[n - 1] ^= 1;
	CU_ASSERT_EQUAL(cbench_kstack_probe_loop(code, n, &frame), 0);
	n = unhex(loop, code);
	code[12] = 0x20;
	CU_ASSERT_EQUAL(cbench_kstack_probe_loop(code, n, &frame), 0);
	if (!analyze(FIXTURE("stack_clash"), &image, &ks)) {
		CU_FAIL("stack_clash.so");
		return;
	}
	CU_ASSERT_EQUAL(cbench_kstack_verdict(&ks, cbench_kimage_find(&image, "frame_32k"), "stack_clash.so",
					      &checks, NULL, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(checks, 0);
	CU_ASSERT_EQUAL(cbench_kstack_verdict(&ks, cbench_kimage_find(&image, "frame_512k"), "stack_clash.so",
					      &checks, NULL, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(checks, 1);
	CU_ASSERT(check_of(&ks, "fill_512k") && check_of(&ks, "fill_512k")->reason == CBENCH_KSTACK_DEEP &&
		  check_of(&ks, "fill_512k")->need_bytes > (512 << 10));
	cbench_kstack_free(&ks);
	cbench_kimage_free(&image);
}

/* Checks every entry of path: refusals and checks reached, counted. */
static void survey(const char *path, uint32_t *refused, uint32_t *checks, uint32_t *objects)
{
	struct cbench_kimage image;
	struct cbench_kstack ks;
	char why[600];

	/* Objects cbenchctl takes for ring 0 at all (not hazards.so's int $3). */
	if (cbench_kimage_load(path, &image, why, sizeof(why)))
		return;
	if (cbench_kimage_check_code(&image, path, why, sizeof(why))) {
		cbench_kimage_free(&image);
		return;
	}
	(*objects)++;
	CU_ASSERT_EQUAL_FATAL(cbench_kstack_analyze(&image, &limits, &ks), 0);
	for (uint32_t i = 0; i < image.nentries; i++) {
		uint32_t n = 0;

		if (cbench_kstack_verdict(&ks, &image.entries[i], path, &n, NULL, why, sizeof(why))) {
			fprintf(stderr, "\n%s\n", why);
			(*refused)++;
		}
		if (n)
			fprintf(stderr, "\n%s: %s reaches %u checks\n", path, image.entries[i].name, n);
		*checks += n;
	}
	cbench_kstack_free(&ks);
	cbench_kimage_free(&image);
}

/* Every other kernel object of the tree: no refusal, no check but deep_stack's. */
static void the_rest(void)
{
	static const char *const dirs[] = { CBENCH_FIXTURE_DIR, CBENCH_EXAMPLE_DIR };
	uint32_t refused = 0, checks = 0, objects = 0;

	for (size_t d = 0; d < sizeof(dirs) / sizeof(dirs[0]); d++) {
		DIR *dir = opendir(dirs[d]);
		struct dirent *de;

		CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
		while ((de = readdir(dir))) {
			char path[512];
			size_t len = strlen(de->d_name);

			if (len < 3 || strcmp(de->d_name + len - 3, ".so") || strstr(de->d_name, "recursion") ||
			    strstr(de->d_name, "stack_vla") || strstr(de->d_name, "deep_stack") ||
			    strstr(de->d_name, "stack_clash") ||
			    (d == 1 && !strstr(de->d_name, ".kernel.so")))
				continue;
			snprintf(path, sizeof(path), "%s/%s", dirs[d], de->d_name);
			survey(path, &refused, &checks, &objects);
		}
		closedir(dir);
	}
	/* 12 fixtures and 7 examples, as the tree has them now. */
	CU_ASSERT(objects >= 19);
	CU_ASSERT_EQUAL(refused, 0);
	CU_ASSERT_EQUAL(checks, 0);
}

static CU_TestInfo kstack_tests[] = {
	{ "one instruction's effect on the stack", one_instruction },
	{ "a check asks for a power of two, or the whole stack", powers },
	{ "recursion of every shape is checked, on one function of each cycle", checked },
	{ "the checks are all that changed", patched },
	{ "checked code runs as built and traps in its stub before the stack's end", runs },
	{ "laid out anew, the moved code carries the checks", laid_out },
	{ "frames of run-time size are refused, naming the function", run_time_frames },
	{ "stack-clash probe loops are one frame", probe_loops },
	{ "no check and no refusal in the tree's other kernel objects", the_rest },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_kstack_suites[] = {
	{ "kernel images' stack bound and checks", NULL, NULL, NULL, NULL, kstack_tests },
	CU_SUITE_INFO_NULL,
};
