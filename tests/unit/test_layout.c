// SPDX-License-Identifier: GPL-2.0
/*
 * Code layout (object/layout.c, object/codeplace.c): what can move in real
 * objects built every way, drawn layouts that keep alignments and replay
 * from their seed, moved code that runs and computes what the object's own
 * does (static calls, a PLT call, a call through the GOT, data), and
 * objects whose kept relocations lie or are missing.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dlfcn.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "object/codeplace.h"
#include "object/layout.h"
#include "object/loader.h"
#include "machine/arena.h"

#define FUNCTIONS CBENCH_LAYOUT_DIR "/calls_functions.so"
#define SECTIONS CBENCH_LAYOUT_DIR "/calls_sections.so"
#define SHIFT16 CBENCH_LAYOUT_DIR "/shift16.so"

static const struct cbench_layout_unit *unit_named(const struct cbench_layout *lay, const char *name)
{
	for (uint32_t i = 0; i < lay->nunits; i++) {
		if (!strcmp(lay->units[i].name, name))
			return &lay->units[i];
	}
	return NULL;
}

/* Every build: functions apart, sections whole, nothing (with why). */
static void modes(void)
{
	struct cbench_layout lay;
	char err[512], text[600];

	CU_ASSERT_EQUAL_FATAL(cbench_layout_scan(FUNCTIONS, &lay, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(lay.mode, CBENCH_LAYOUT_FUNCTIONS);
	CU_ASSERT_PTR_NOT_NULL(unit_named(&lay, "layout_exported"));
	CU_ASSERT_PTR_NOT_NULL(unit_named(&lay, "calls"));
	/* The call through the PLT and the load from the GOT each get a stub. */
	CU_ASSERT(lay.nstubs >= 2);
	CU_ASSERT(lay.region_bytes > 4096);
	cbench_layout_describe(&lay, text, sizeof(text));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "each moved on its own"));
	cbench_layout_free(&lay);

	/* Without -ffunction-sections a static call carries no relocation. */
	CU_ASSERT_EQUAL_FATAL(cbench_layout_scan(SECTIONS, &lay, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(lay.mode, CBENCH_LAYOUT_SECTIONS);
	CU_ASSERT_PTR_NOT_NULL(strstr(lay.why, "without a relocation"));
	CU_ASSERT_PTR_NOT_NULL(unit_named(&lay, ".text"));
	cbench_layout_describe(&lay, text, sizeof(text));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "-ffunction-sections"));
	cbench_layout_free(&lay);

	/* Without -Wl,-q nothing moves, and the reason names the flags. */
	CU_ASSERT_EQUAL_FATAL(cbench_layout_scan(CBENCH_FIXTURES_DIR "/layout.so", &lay, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(lay.mode, CBENCH_LAYOUT_NONE);
	CU_ASSERT_EQUAL(lay.nunits, 0);
	cbench_layout_describe(&lay, text, sizeof(text));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "keeps no relocations"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "-Wl,-q"));
	cbench_layout_free(&lay);

	/* Not an object at all: an error, not a layout. */
	CU_ASSERT_EQUAL(cbench_layout_scan(CBENCH_LAYOUT_DIR "/none.so", &lay, err, sizeof(err)), -ENOENT);
	CU_ASSERT_NOT_EQUAL(cbench_layout_scan("tests/unit/test_layout.c", &lay, err, sizeof(err)), 0);
}

/* Functions move by 16 bytes (what compilers give them), never by more
 * than their address allows. */
static void alignments(void)
{
	struct cbench_layout lay;
	const struct cbench_layout_unit *u;
	char err[512];

	CU_ASSERT_EQUAL_FATAL(cbench_layout_scan(SHIFT16, &lay, err, sizeof(err)), 0);
	u = unit_named(&lay, "layout_loop");
	CU_ASSERT_PTR_NOT_NULL_FATAL(u);
	CU_ASSERT_EQUAL(u->align, 16);
	for (uint32_t i = 0; i < lay.nunits; i++) {
		CU_ASSERT_EQUAL(lay.units[i].addr % lay.units[i].align, 0);
		CU_ASSERT(lay.units[i].align <= 16);
	}
	cbench_layout_free(&lay);
}

static uint64_t draw(void *pl, uint64_t n)
{
	return cbench_placement_draw(pl, n);
}

/* Layouts keep every alignment, never overlap, fit the region, and replay. */
static void draws(void)
{
	struct cbench_layout lay;
	struct cbench_placement pl;
	uint64_t a[64], b[64], bytes, moved = 0;
	char err[512];

	CU_ASSERT_EQUAL_FATAL(cbench_layout_scan(FUNCTIONS, &lay, err, sizeof(err)), 0);
	CU_ASSERT_FATAL(cbench_layout_slots(&lay) <= 64);
	for (uint64_t seed = 1; seed <= 50; seed++) {
		cbench_placement_init(&pl, seed);
		CU_ASSERT_EQUAL(cbench_layout_draw(&lay, draw, &pl, a, &bytes), 0);
		CU_ASSERT(bytes <= lay.region_bytes);
		for (uint32_t i = 0; i < lay.nunits; i++) {
			CU_ASSERT_EQUAL(a[i] % lay.units[i].align, 0);
			for (uint32_t j = 0; j < lay.nunits; j++)
				CU_ASSERT(i == j || a[i] + lay.units[i].bytes <= a[j] ||
					  a[j] + lay.units[j].bytes <= a[i]);
		}
		cbench_placement_init(&pl, seed);
		cbench_layout_draw(&lay, draw, &pl, b, &bytes);
		CU_ASSERT_EQUAL(memcmp(a, b, cbench_layout_slots(&lay) * sizeof(*a)), 0);
		cbench_placement_init(&pl, seed + 1000);
		cbench_layout_draw(&lay, draw, &pl, b, &bytes);
		moved += memcmp(a, b, lay.nunits * sizeof(*a)) != 0;
	}
	CU_ASSERT(moved >= 45);
	cbench_layout_free(&lay);
}

/* Loads path here and finds its one benchmark. */
static const struct cbench_experiment *load(struct cbench_library *lib, const char *path)
{
	char err[512];

	if (cbench_library_load(lib, path, err, sizeof(err))) {
		fprintf(stderr, "\n%s\n", err);
		return NULL;
	}
	return lib->nexperiments ? &lib->experiments[0] : NULL;
}

/*
 * The moved code runs where it was laid out and computes what the object's
 * own code does, layout after layout: static calls, the PLT call, the call
 * through the GOT and the data all reached.
 */
static void runs(const char *path, uint32_t layouts)
{
	struct cbench_library lib;
	const struct cbench_experiment *e = load(&lib, path);
	uint64_t *result = e ? dlsym(lib.handle, "layout_result") : NULL;
	uintptr_t *where = e ? dlsym(lib.handle, "layout_where") : NULL;
	struct cbench_ctx ctx = { .param = 5 };
	struct cbench_code_place c;
	struct cbench_placement pl;
	uint64_t want;
	char why[512] = "";

	CU_ASSERT_PTR_NOT_NULL_FATAL(result);
	CU_ASSERT_PTR_NOT_NULL_FATAL(where);
	e->desc->run(&ctx, 1000);
	want = *result;
	CU_ASSERT_EQUAL_FATAL(cbench_code_place_init(&c, e, why, sizeof(why)), 0);
	CU_ASSERT_NOT_EQUAL(c.lay.mode, CBENCH_LAYOUT_NONE);
	cbench_placement_init(&pl, 7);
	for (uint32_t i = 0; i < layouts; i++) {
		CU_ASSERT_EQUAL_FATAL(cbench_code_place_next(&c, &pl, why, sizeof(why)), 0);
		CU_ASSERT((uintptr_t)c.desc.run != (uintptr_t)e->desc->run);
		*result = 0;
		*where = 0;
		c.desc.run(&ctx, 1000);
		CU_ASSERT_EQUAL(*result, want);
		/* layout_here() ran in the region, not where it was loaded. */
		CU_ASSERT(*where >= (uintptr_t)c.map && *where < (uintptr_t)c.map + c.map_bytes);
		CU_ASSERT(cbench_code_place_run_offset(&c) < c.map_bytes);
	}
	CU_ASSERT_EQUAL(c.count, layouts);
	cbench_code_place_free(&c);
	cbench_library_close(&lib);
}

static void runs_functions(void)
{
	runs(FUNCTIONS, 40);
}

static void runs_sections(void)
{
	runs(SECTIONS, 10);
}

/*
 * A copy of src at dst with the last relocation of .rela.text (in the
 * benchmark's code: crt's comes first) moved by delta bytes, or (huge) far
 * outside its section.
 */
static int corrupt(const char *src, const char *dst, int64_t delta, int huge)
{
	char cmd[1024];
	int fd, ret = -1;
	Elf *elf;
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	snprintf(cmd, sizeof(cmd), "cp %s %s", src, dst);
	if (system(cmd))
		return -1;
	elf_version(EV_CURRENT);
	fd = open(dst, O_RDWR);
	elf = fd < 0 ? NULL : elf_begin(fd, ELF_C_RDWR, NULL);
	if (!elf || elf_getshdrstrndx(elf, &shstrndx))
		goto out;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		GElf_Rela r;
		Elf_Data *d;
		const char *name;

		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(elf, shstrndx, sh.sh_name)) ||
		    strcmp(name, ".rela.text") || !sh.sh_entsize || !(d = elf_getdata(scn, NULL)) ||
		    !gelf_getrela(d, (int)(sh.sh_size / sh.sh_entsize) - 1, &r))
			continue;
		r.r_offset = huge ? 0x7fffffff : r.r_offset + (uint64_t)delta;
		gelf_update_rela(d, (int)(sh.sh_size / sh.sh_entsize) - 1, &r);
		elf_flagdata(d, ELF_C_SET, ELF_F_DIRTY);
		elf_flagelf(elf, ELF_C_SET, ELF_F_LAYOUT);
		ret = elf_update(elf, ELF_C_WRITE) < 0 ? -1 : 0;
		break;
	}
out:
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
	return ret;
}

/* Relocations that lie: nothing moves, and the reason says so. */
static void lies(void)
{
	char path[] = "/tmp/cbench-layout-XXXXXX";
	struct cbench_layout lay;
	char err[512], file[64];
	int fd = mkstemp(path);

	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	snprintf(file, sizeof(file), "%s", path);
	/* A relocation one byte off a displacement: the code is not what we decoded. */
	CU_ASSERT_EQUAL_FATAL(corrupt(FUNCTIONS, file, 1, 0), 0);
	CU_ASSERT_EQUAL(cbench_layout_scan(file, &lay, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(lay.mode, CBENCH_LAYOUT_NONE);
	CU_ASSERT_PTR_NOT_NULL(strstr(lay.why, "not on an instruction's displacement"));
	cbench_layout_free(&lay);
	/* One outside its section. */
	CU_ASSERT_EQUAL_FATAL(corrupt(FUNCTIONS, file, 0, 1), 0);
	CU_ASSERT_EQUAL(cbench_layout_scan(file, &lay, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(lay.mode, CBENCH_LAYOUT_NONE);
	CU_ASSERT_PTR_NOT_NULL(strstr(lay.why, "lies outside"));
	cbench_layout_free(&lay);
	/* Cut short: refused before anything is read. */
	CU_ASSERT_EQUAL(truncate(file, 2000), 0);
	CU_ASSERT(cbench_layout_scan(file, &lay, err, sizeof(err)) < 0);
	unlink(file);
}

/* A region that cannot reach the object: refused, nothing patched wrong. */
static void out_of_reach(void)
{
	struct cbench_layout lay;
	struct cbench_placement pl;
	uint64_t off[64], bytes;
	uint8_t *dst;
	char err[512], why[256] = "";

	CU_ASSERT_EQUAL_FATAL(cbench_layout_scan(FUNCTIONS, &lay, err, sizeof(err)), 0);
	cbench_placement_init(&pl, 3);
	cbench_layout_draw(&lay, draw, &pl, off, &bytes);
	dst = malloc(bytes);
	CU_ASSERT_PTR_NOT_NULL_FATAL(dst);
	/* The code read from a file-sized buffer is not needed: the fixups
	 * fail before anything runs.  Bias 8 GiB away: no displacement fits. */
	{
		uint8_t *code = calloc(1, 1 << 20);

		CU_ASSERT_PTR_NOT_NULL_FATAL(code);
		CU_ASSERT_EQUAL(cbench_layout_apply(&lay, off, code, 0, 8ULL << 30, dst, bytes, 0, why,
						    sizeof(why)), -ERANGE);
		CU_ASSERT_PTR_NOT_NULL(strstr(why, "cannot reach"));
		/* A region too small for the layout. */
		CU_ASSERT_EQUAL(cbench_layout_apply(&lay, off, code, 0, 0, dst, 16, 0, why, sizeof(why)),
				-ERANGE);
		free(code);
	}
	free(dst);
	cbench_layout_free(&lay);
}

static CU_TestInfo layout_tests[] = {
	{ "what moves: functions, sections, nothing", modes },
	{ "a function's own alignment", alignments },
	{ "drawn layouts keep alignments and replay", draws },
	{ "moved functions run and compute the same", runs_functions },
	{ "moved sections run and compute the same", runs_sections },
	{ "relocations that lie, a file cut short", lies },
	{ "displacements that cannot reach", out_of_reach },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_layout_suites[] = {
	{ "code layout", NULL, NULL, NULL, NULL, layout_tests },
	CU_SUITE_INFO_NULL,
};
