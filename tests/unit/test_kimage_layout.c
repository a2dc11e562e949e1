// SPDX-License-Identifier: GPL-2.0
/*
 * Code layouts in ring 0 (object/kimage_layout.c) against kernel-safe
 * fixtures built to move (tests/kfixtures/layout.c, layout_whole.c):
 * every pointer and displacement of a laid-out image lands where its
 * target went, alignments are kept, a seed replays its image, the image
 * runs (here, in a child, with the code as built turned to int3) and
 * computes what the image as built does, the check refuses an image that
 * is not the image as built, moved, and an object that cannot move says
 * why.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include <cbench.h>

#include "machine/arena.h"
#include "object/kimage_layout.h"
#include "object/x86insn.h"
#include "../kmod/lib/reloc.h"

#define FIXTURE(name) CBENCH_FIXTURE_DIR "/" name ".so"

static const uint8_t endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };

static uint64_t draw(void *pl, uint64_t n)
{
	return cbench_placement_draw(pl, n);
}

/* The object at path as built and its layout; false if either fails. */
static bool open_both(const char *path, struct cbench_kimage *image, struct cbench_kimage_layout *kl)
{
	char why[512];

	if (cbench_kimage_load(path, image, why, sizeof(why))) {
		fprintf(stderr, "\n%s\n", why);
		return false;
	}
	if (cbench_kimage_layout_init(kl, path, image, why, sizeof(why))) {
		fprintf(stderr, "\n%s\n", why);
		cbench_kimage_free(image);
		return false;
	}
	return true;
}

/* image laid out at the layout seed draws, into out; 0 or -errno. */
static int lay(struct cbench_kimage_layout *kl, const struct cbench_kimage *image, uint64_t seed,
	       struct cbench_kimage *out)
{
	struct cbench_placement pl;
	char why[512];
	int ret;

	cbench_placement_init(&pl, seed);
	ret = cbench_kimage_layout_next(kl, image, draw, &pl, out, why, sizeof(why));
	if (ret)
		fprintf(stderr, "\n%s\n", why);
	cbench_placement_free(&pl);
	return ret;
}

static uint64_t load64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* The unit of kl holding image offset off, or -1. */
static long unit_at(const struct cbench_kimage_layout *kl, uint64_t off)
{
	uint32_t u = cbench_layout_unit_of(&kl->lay, off + kl->base);

	return u == CBENCH_LAYOUT_STAYS ? -1 : (long)u;
}

/* Where off went, computed here from the unit's drawn offset. */
static uint64_t went(const struct cbench_kimage_layout *kl, uint64_t off)
{
	long u = unit_at(kl, off);

	return u < 0 ? off : kl->region + kl->offsets[u] + (off + kl->base - kl->lay.units[u].addr);
}

/* Every slot: into a moved unit it leads to the moved copy (same bytes
 * there), elsewhere it is as built. */
static void slots_follow(const struct cbench_kimage_layout *kl, const struct cbench_kimage *image,
			 const struct cbench_kimage *out, uint32_t *into_code)
{
	for (uint32_t i = 0; i < image->nrelocs; i++) {
		uint64_t was = load64(image->bytes + image->relocs[i]), now = load64(out->bytes + out->relocs[i]);

		CU_ASSERT_EQUAL(out->relocs[i], image->relocs[i]);
		CU_ASSERT_EQUAL(now, went(kl, was));
		if (unit_at(kl, was) < 0)
			continue;
		(*into_code)++;
		CU_ASSERT(now >= kl->region);
		CU_ASSERT_EQUAL(memcmp(out->bytes + now, image->bytes + was, 4), 0);
	}
}

/* Every PC-relative field of the moved code: to a moved unit's copy (the
 * same bytes there), or to what stays, as built. */
static void fields_follow(const struct cbench_kimage_layout *kl, const struct cbench_kimage *image,
			  const struct cbench_kimage *out, uint32_t *across)
{
	for (uint32_t u = 0; u < kl->lay.nunits; u++) {
		const struct cbench_layout_unit *unit = &kl->lay.units[u];
		const uint8_t *code = out->bytes + kl->region + kl->offsets[u];
		uint64_t at = 0;

		while (at < unit->bytes) {
			struct cbench_x86_insn insn;
			size_t n = cbench_x86_decode(code + at, unit->bytes - at, &insn);
			uint64_t was_end, now_end;
			int32_t was, now;

			if (!n)
				break;
			at += n;
			if (insn.pcrel_bytes != 4)
				continue;
			memcpy(&now, code + at - n + insn.pcrel_at, 4);
			memcpy(&was, image->bytes + (unit->addr - kl->base) + at - n + insn.pcrel_at, 4);
			was_end = unit->addr - kl->base + at;
			now_end = kl->region + kl->offsets[u] + at;
			CU_ASSERT_EQUAL(now_end + (uint64_t)(int64_t)now, went(kl, was_end + (uint64_t)(int64_t)was));
			*across += unit_at(kl, was_end + (uint64_t)(int64_t)was) != (long)u;
		}
	}
}

/* A laid-out image of the fixture whose functions move apart. */
static void follows(void)
{
	struct cbench_kimage image, out;
	struct cbench_kimage_layout kl;
	uint32_t into_code = 0, across = 0;
	const struct cbench_kimage_entry *calls, *was;

	CU_ASSERT_FATAL(open_both(FIXTURE("layout"), &image, &kl));
	CU_ASSERT_EQUAL(kl.lay.mode, CBENCH_LAYOUT_FUNCTIONS);
	CU_ASSERT_EQUAL(kl.lay.nstubs, 0);
	CU_ASSERT(kl.lay.nunits >= 5);
	CU_ASSERT_EQUAL_FATAL(lay(&kl, &image, 3, &out), 0);
	CU_ASSERT_EQUAL(kl.region, image.image_bytes);
	CU_ASSERT_EQUAL(kl.region % 4096, 0);
	CU_ASSERT(out.image_bytes > image.image_bytes);
	for (uint32_t i = 0; i < kl.lay.nunits; i++)
		CU_ASSERT_EQUAL((kl.region + kl.offsets[i]) % kl.lay.units[i].align, 0);
	slots_follow(&kl, &image, &out, &into_code);
	/* The descriptors' run and setup, the table's three, the GOT's slot. */
	CU_ASSERT(into_code >= 7);
	fields_follow(&kl, &image, &out, &across);
	/* Static calls, the GOT load, the PLT call's way back in... */
	CU_ASSERT(across >= 2);
	calls = cbench_kimage_find(&out, "calls");
	was = cbench_kimage_find(&image, "calls");
	CU_ASSERT_PTR_NOT_NULL_FATAL(calls);
	CU_ASSERT(calls->run >= kl.region && calls->setup >= kl.region);
	CU_ASSERT_EQUAL(calls->run, went(&kl, was->run));
	CU_ASSERT_EQUAL(memcmp(out.bytes + calls->run, endbr64, 4), 0);
	CU_ASSERT_EQUAL(memcmp(out.bytes + calls->setup, endbr64, 4), 0);
	CU_ASSERT_EQUAL(cbench_kimage_layout_origin(&kl, calls->run), was->run);
	CU_ASSERT_EQUAL(cbench_kimage_layout_moved(&kl, was->run), calls->run);
	CU_ASSERT_EQUAL(cbench_kimage_check_code(&out, FIXTURE("layout"), (char[256]){ 0 }, 256), 0);
	cbench_kimage_free(&out);
	cbench_kimage_layout_free(&kl);
	cbench_kimage_free(&image);
}

/*
 * Runs benchmark name of image in a child, as cbench.ko would: relocated
 * where it is mapped, its text executable, setup() then run() of reps on
 * an arena; with wipe, every unit of the code as built turned to int3
 * first, so the moved code cannot reach it unnoticed.  Returns the arena's
 * first word, or 0 where the child did not finish.
 */
static uint64_t run_in_child(const struct cbench_kimage *image, const struct cbench_kimage_layout *wipe,
			     const char *name, uint64_t reps)
{
	uint64_t *result = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	uint64_t value = 0;
	int status;
	pid_t pid;

	if (result == MAP_FAILED)
		return 0;
	pid = fork();
	if (pid == 0) {
		const struct cbench_kimage_entry *e = cbench_kimage_find(image, name);
		uint8_t *p = mmap(NULL, image->image_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
				  -1, 0);
		struct cbench_ctx ctx = { .arena = result + 1, .arena_bytes = 1024 };

		if (!e || p == MAP_FAILED)
			_exit(1);
		memcpy(p, image->bytes, image->image_bytes);
		for (uint32_t i = 0; wipe && i < wipe->lay.nunits; i++)
			memset(p + (wipe->lay.units[i].addr - wipe->base), 0xcc, wipe->lay.units[i].bytes);
		cbench_reloc_apply(p, (uint64_t)(uintptr_t)p, image->relocs, image->nrelocs);
		for (uint32_t i = 0; i < image->ntext; i++)
			mprotect(p + image->text[i].start, image->text[i].bytes, PROT_READ | PROT_EXEC);
		if (e->has_setup && ((cbench_setup_fn)(uintptr_t)(p + e->setup))(&ctx))
			_exit(2);
		((cbench_run_fn)(uintptr_t)(p + e->run))(&ctx, reps);
		result[0] = result[1];
		_exit(0);
	}
	if (pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && !WEXITSTATUS(status))
		value = result[0];
	munmap(result, 4096);
	return value;
}

/* The laid-out image computes what the image as built does, layout after
 * layout, with the code as built gone. */
static void runs(const char *path, enum cbench_layout_mode mode)
{
	struct cbench_kimage image, out;
	struct cbench_kimage_layout kl;
	uint64_t want;

	CU_ASSERT_FATAL(open_both(path, &image, &kl));
	CU_ASSERT_EQUAL(kl.lay.mode, mode);
	want = run_in_child(&image, NULL, "calls", 1000);
	CU_ASSERT_NOT_EQUAL(want, 0);
	/* The wipe is felt: the image as built without its code cannot run. */
	CU_ASSERT_EQUAL(run_in_child(&image, &kl, "calls", 1000), 0);
	for (uint64_t seed = 1; seed <= 8; seed++) {
		CU_ASSERT_EQUAL_FATAL(lay(&kl, &image, seed, &out), 0);
		CU_ASSERT_EQUAL(run_in_child(&out, &kl, "calls", 1000), want);
		cbench_kimage_free(&out);
	}
	CU_ASSERT_EQUAL(kl.count, 8);
	cbench_kimage_layout_free(&kl);
	cbench_kimage_free(&image);
}

static void runs_functions(void)
{
	runs(FIXTURE("layout"), CBENCH_LAYOUT_FUNCTIONS);
}

static void runs_sections(void)
{
	runs(FIXTURE("layout_whole"), CBENCH_LAYOUT_SECTIONS);
}

/* A seed replays its image; other seeds draw other images. */
static void replays(void)
{
	struct cbench_kimage image, a, b;
	struct cbench_kimage_layout kl;
	int other = 0;

	CU_ASSERT_FATAL(open_both(FIXTURE("layout"), &image, &kl));
	for (uint64_t seed = 1; seed <= 20; seed++) {
		CU_ASSERT_EQUAL_FATAL(lay(&kl, &image, seed, &a), 0);
		CU_ASSERT_EQUAL_FATAL(lay(&kl, &image, seed, &b), 0);
		CU_ASSERT(a.image_bytes == b.image_bytes && !memcmp(a.bytes, b.bytes, a.image_bytes));
		cbench_kimage_free(&b);
		CU_ASSERT_EQUAL_FATAL(lay(&kl, &image, seed + 1000, &b), 0);
		other += a.image_bytes != b.image_bytes || memcmp(a.bytes, b.bytes, a.image_bytes);
		cbench_kimage_free(&a);
		cbench_kimage_free(&b);
	}
	CU_ASSERT(other >= 18);
	cbench_kimage_layout_free(&kl);
	cbench_kimage_free(&image);
}

/* The offsets are those a user-mode placement draws from the same seed
 * (codeplace.c draws the layout first), though user mode has stubs. */
static void user_mode_draws(void)
{
	struct cbench_kimage image, out;
	struct cbench_kimage_layout kl;
	struct cbench_layout user;
	struct cbench_placement pl;
	uint64_t off[64], bytes;
	char why[512];

	CU_ASSERT_FATAL(open_both(FIXTURE("layout"), &image, &kl));
	CU_ASSERT_EQUAL_FATAL(cbench_layout_scan(FIXTURE("layout"), &user, why, sizeof(why)), 0);
	CU_ASSERT(user.nstubs >= 1);
	CU_ASSERT_FATAL(cbench_layout_slots(&user) <= 64 && user.nunits == kl.lay.nunits);
	for (uint64_t seed = 1; seed <= 10; seed++) {
		cbench_placement_init(&pl, seed);
		CU_ASSERT_EQUAL(cbench_layout_draw(&user, draw, &pl, off, &bytes), 0);
		cbench_placement_free(&pl);
		CU_ASSERT_EQUAL_FATAL(lay(&kl, &image, seed, &out), 0);
		CU_ASSERT_EQUAL(memcmp(off, kl.offsets, kl.lay.nunits * sizeof(*off)), 0);
		cbench_kimage_free(&out);
	}
	cbench_layout_free(&user);
	cbench_kimage_layout_free(&kl);
	cbench_kimage_free(&image);
}

/* check() on out with one byte at off changed names what differs. */
static void changed(const struct cbench_kimage_layout *kl, const struct cbench_kimage *image,
		    struct cbench_kimage *out, uint64_t off, const char *word)
{
	char why[512] = "";

	out->bytes[off] ^= 0x40;
	CU_ASSERT_EQUAL(cbench_kimage_layout_check(kl, image, out, why, sizeof(why)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, word));
	if (!strstr(why, word))
		fprintf(stderr, "\n%s\n", why);
	out->bytes[off] ^= 0x40;
	CU_ASSERT_EQUAL(cbench_kimage_layout_check(kl, image, out, why, sizeof(why)), 0);
}

/* The check refuses any byte that is not the image as built, moved. */
static void check_refuses(void)
{
	struct cbench_kimage image, out;
	struct cbench_kimage_layout kl;
	const struct cbench_layout_fixup *f;
	const struct cbench_kimage_entry *e;

	CU_ASSERT_FATAL(open_both(FIXTURE("layout"), &image, &kl));
	CU_ASSERT_EQUAL_FATAL(lay(&kl, &image, 9, &out), 0);
	CU_ASSERT_FATAL(kl.lay.nfixups > 0);
	e = cbench_kimage_find(&out, "calls");
	/* A byte of moved code, a patched displacement, a gap, a pointer, the image's code. */
	changed(&kl, &image, &out, e->run + 5, "not its code as built");
	f = &kl.lay.fixups[0];
	changed(&kl, &image, &out, kl.region + kl.offsets[f->unit] + (f->at - kl.lay.units[f->unit].addr),
		"does not reach");
	changed(&kl, &image, &out, out.image_bytes - 1, "of no unit");
	changed(&kl, &image, &out, image.relocs[0] + 1, "does not reach where its target went");
	changed(&kl, &image, &out, image.text[0].start + 1, "changed");
	/* An entry point that stayed behind. */
	out.entries[0].run = image.entries[0].run;
	CU_ASSERT_EQUAL(cbench_kimage_layout_check(&kl, &image, &out, (char[512]){ 0 }, 512), -EINVAL);
	cbench_kimage_free(&out);
	cbench_kimage_layout_free(&kl);
	cbench_kimage_free(&image);
}

/* An object whose code cannot move says why, in user mode's words. */
static void cannot_move(void)
{
	struct cbench_kimage image, out;
	struct cbench_kimage_layout kl;
	char why[512];

	CU_ASSERT_EQUAL_FATAL(cbench_kimage_load(FIXTURE("good"), &image, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL_FATAL(cbench_kimage_layout_init(&kl, FIXTURE("good"), &image, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(kl.lay.mode, CBENCH_LAYOUT_NONE);
	CU_ASSERT_PTR_NOT_NULL(strstr(kl.lay.why, "keeps no relocations"));
	CU_ASSERT_EQUAL(cbench_kimage_layout_next(&kl, &image, draw, NULL, &out, why, sizeof(why)), -EINVAL);
	CU_ASSERT_PTR_NULL(out.bytes);
	cbench_kimage_layout_free(&kl);
	/* Another object's image is not this object's code. */
	CU_ASSERT_NOT_EQUAL(cbench_kimage_layout_init(&kl, FIXTURE("layout"), &image, why, sizeof(why)), 0);
	cbench_kimage_free(&image);
}

static CU_TestInfo kimage_layout_tests[] = {
	{ "every pointer and displacement follows the moved code", follows },
	{ "laid-out functions run as built", runs_functions },
	{ "laid-out sections run as built", runs_sections },
	{ "a seed replays its image", replays },
	{ "the offsets user mode draws from a seed", user_mode_draws },
	{ "the check refuses what is not the image, moved", check_refuses },
	{ "code that cannot move says why", cannot_move },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_kimage_layout_suites[] = {
	{ "kimage_layout", NULL, NULL, NULL, NULL, kimage_layout_tests },
	CU_SUITE_INFO_NULL,
};
