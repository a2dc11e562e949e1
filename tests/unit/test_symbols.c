// SPDX-License-Identifier: GPL-2.0
/*
 * Addresses to functions and lines, on examples/profile.so (built with -g),
 * and on the symbols fixtures (tests/fixtures/symbols/plt.c): PLT stubs in
 * both layouts, and stripped objects whose debug file is found by build ID
 * or by .gnu_debuglink.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "worker/symbols.h"

#define PROFILE_SO CBENCH_EXAMPLE_DIR "/profile.so"

#define SYMBOLS_DIR CBENCH_SYMBOLS_DIR

/* The address of a function in path's .symtab, read with libelf
 * independently of symbols.c. */
static uint64_t address_in(const char *path, const char *name, uint64_t *size)
{
	int fd = open(path, O_RDONLY);
	Elf_Scn *scn = NULL;
	uint64_t found = 0;
	Elf *elf;

	if (fd < 0)
		return 0;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	while (elf && !found && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr shdr;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_SYMTAB)
			continue;
		data = elf_getdata(scn, NULL);
		for (size_t i = 0; data && i < shdr.sh_size / shdr.sh_entsize; i++) {
			GElf_Sym sym;
			const char *n;

			if (!gelf_getsym(data, (int)i, &sym))
				continue;
			n = elf_strptr(elf, shdr.sh_link, sym.st_name);
			if (n && !strcmp(n, name)) {
				found = sym.st_value;
				*size = sym.st_size;
				break;
			}
		}
	}
	if (elf)
		elf_end(elf);
	close(fd);
	return found;
}

static uint64_t address_of(const char *name, uint64_t *size)
{
	return address_in(PROFILE_SO, name, size);
}

static void functions(void)
{
	struct cbench_symbols *s;
	uint64_t heavy_size = 0, light_size = 0;
	uint64_t heavy = address_of("heavy", &heavy_size), light = address_of("light", &light_size);
	size_t a = 0, b = 0;
	char err[256];

	CU_ASSERT_FATAL(heavy && light && heavy_size && light_size);
	CU_ASSERT_FATAL(cbench_symbols_open(&s, PROFILE_SO, false, err, sizeof(err)) == 0);
	CU_ASSERT_STRING_EQUAL(cbench_symbols_function(s, heavy, &a), "heavy");
	CU_ASSERT_STRING_EQUAL(cbench_symbols_function(s, heavy + heavy_size - 1, &b), "heavy");
	CU_ASSERT_EQUAL(a, b);
	CU_ASSERT_STRING_EQUAL(cbench_symbols_function(s, light + 7, &b), "light");
	CU_ASSERT_NOT_EQUAL(a, b);
	/* The ELF header is code of no function. */
	CU_ASSERT_PTR_NULL(cbench_symbols_function(s, 0, NULL));
	CU_ASSERT_PTR_NULL(cbench_symbols_function(s, UINT64_MAX, NULL));
	cbench_symbols_close(s);
}

static void lines(void)
{
	struct cbench_symbols *s;
	uint64_t size = 0, heavy = address_of("heavy", &size);
	const char *file;
	char err[256];
	int line;

	CU_ASSERT_FATAL(cbench_symbols_open(&s, PROFILE_SO, true, err, sizeof(err)) == 0);
	/* An add in the middle of heavy's asm statement. */
	line = cbench_symbols_line(s, heavy + size / 2, &file);
	CU_ASSERT(line > 0);
	CU_ASSERT(file && strstr(file, "examples/profile.c"));
	CU_ASSERT_EQUAL(cbench_symbols_line(s, 0, &file), 0);
	CU_ASSERT_PTR_NULL(file);
	cbench_symbols_close(s);
}

static void not_an_object(void)
{
	struct cbench_symbols *s;
	char err[256];

	CU_ASSERT_EQUAL(cbench_symbols_open(&s, "Makefile", false, err, sizeof(err)), -ENOEXEC);
	CU_ASSERT_PTR_NULL(s);
	CU_ASSERT(strstr(err, "not an ELF object") != NULL);
	CU_ASSERT_EQUAL(cbench_symbols_open(&s, "build/absent.so", false, err, sizeof(err)), -ENOENT);
}

/*
 * Every .rela.plt relocation's stub, placed by the x86-64 ABI's layout (the
 * classic .plt: PLT0, then 16-byte entries in relocation order; IBT's
 * .plt.sec: the entries from its start), is named "symbol@plt".  Returns
 * how many were checked.
 */
static size_t check_plt(const char *path, const char *stubs, size_t first)
{
	int fd = open(path, O_RDONLY);
	Elf_Scn *scn = NULL, *rela = NULL, *sec = NULL;
	GElf_Shdr rsh = { 0 }, ssh = { 0 }, dsh;
	struct cbench_symbols *s;
	size_t shstrndx, checked = 0;
	char err[256], want[256];
	Elf *elf;

	CU_ASSERT_FATAL(fd >= 0);
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	CU_ASSERT_FATAL(elf && !elf_getshdrstrndx(elf, &shstrndx));
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *n;

		if (!gelf_getshdr(scn, &sh) || !(n = elf_strptr(elf, shstrndx, sh.sh_name)))
			continue;
		if (!strcmp(n, ".rela.plt"))
			rela = scn, rsh = sh;
		else if (!strcmp(n, stubs))
			sec = scn, ssh = sh;
	}
	CU_ASSERT_FATAL(rela && sec);
	CU_ASSERT_FATAL(cbench_symbols_open(&s, path, false, err, sizeof(err)) == 0);
	gelf_getshdr(elf_getscn(elf, rsh.sh_link), &dsh);
	for (size_t i = 0; i < rsh.sh_size / rsh.sh_entsize; i++) {
		Elf_Data *rd = elf_getdata(rela, NULL), *dd = elf_getdata(elf_getscn(elf, rsh.sh_link), NULL);
		GElf_Rela r;
		GElf_Sym sym;
		const char *got;

		CU_ASSERT_FATAL(gelf_getrela(rd, (int)i, &r) && gelf_getsym(dd, (int)GELF_R_SYM(r.r_info), &sym));
		snprintf(want, sizeof(want), "%s@plt", elf_strptr(elf, dsh.sh_link, sym.st_name));
		got = cbench_symbols_function(s, ssh.sh_addr + 16 * (first + i) + 3, NULL);
		CU_ASSERT_PTR_NOT_NULL(got);
		if (got)
			CU_ASSERT_STRING_EQUAL(got, want);
		checked++;
	}
	/* PLT0, which every lazy binding jumps to, is no function's. */
	if (first)
		CU_ASSERT_PTR_NULL(cbench_symbols_function(s, ssh.sh_addr, NULL));
	cbench_symbols_close(s);
	elf_end(elf);
	close(fd);
	return checked;
}

static void plt_stubs(void)
{
	/* memcpy and strlen at least, in each layout. */
	CU_ASSERT(check_plt(SYMBOLS_DIR "/plt.so", ".plt", 1) >= 2);
	CU_ASSERT(check_plt(SYMBOLS_DIR "/plt_ibt.so", ".plt.sec", 0) >= 2);
}

/* The one debug file under the build-ID directory. */
static void build_id_debug_file(char *path, size_t len)
{
	const char *top = SYMBOLS_DIR "/debug/.build-id";
	struct dirent *d, *e;
	DIR *dir = opendir(top), *sub;

	path[0] = '\0';
	while (dir && (d = readdir(dir)) && !path[0]) {
		char subdir[512];

		if (d->d_name[0] == '.')
			continue;
		snprintf(subdir, sizeof(subdir), "%s/%s", top, d->d_name);
		sub = opendir(subdir);
		while (sub && (e = readdir(sub)))
			if (strstr(e->d_name, ".debug"))
				snprintf(path, len, "%s/%s", subdir, e->d_name);
		if (sub)
			closedir(sub);
	}
	if (dir)
		closedir(dir);
}

static void debug_files(void)
{
	char debug[1024], err[256];
	uint64_t size = 0, helper, linked_helper, exported;
	struct cbench_symbols *s;

	build_id_debug_file(debug, sizeof(debug));
	CU_ASSERT_FATAL(debug[0]);
	helper = address_in(debug, "static_helper", &size);
	exported = address_in(debug, "exported", &size);
	linked_helper = address_in(SYMBOLS_DIR "/linked.so.debug", "static_helper", &size);
	CU_ASSERT_FATAL(helper && exported && linked_helper);

	/* By build ID under CBENCH_DEBUG_DIR: the static function is named. */
	setenv("CBENCH_DEBUG_DIR", "/nonexistent:" SYMBOLS_DIR "/debug", 1);
	CU_ASSERT_FATAL(cbench_symbols_open(&s, SYMBOLS_DIR "/stripped.so", false, err, sizeof(err)) == 0);
	CU_ASSERT_STRING_EQUAL(cbench_symbols_function(s, helper + 1, NULL), "static_helper");
	CU_ASSERT_FALSE(cbench_symbols_stripped(s));
	cbench_symbols_close(s);

	/* No debug file: .dynsym names the exported function only. */
	setenv("CBENCH_DEBUG_DIR", SYMBOLS_DIR "/nowhere", 1);
	CU_ASSERT_FATAL(cbench_symbols_open(&s, SYMBOLS_DIR "/stripped.so", false, err, sizeof(err)) == 0);
	CU_ASSERT_PTR_NULL(cbench_symbols_function(s, helper + 1, NULL));
	CU_ASSERT_STRING_EQUAL(cbench_symbols_function(s, exported + 1, NULL), "exported");
	CU_ASSERT_TRUE(cbench_symbols_stripped(s));
	cbench_symbols_close(s);

	/* By .gnu_debuglink, beside the object. */
	CU_ASSERT_FATAL(cbench_symbols_open(&s, SYMBOLS_DIR "/linked.so", false, err, sizeof(err)) == 0);
	CU_ASSERT_STRING_EQUAL(cbench_symbols_function(s, linked_helper + 1, NULL), "static_helper");
	CU_ASSERT_FALSE(cbench_symbols_stripped(s));
	cbench_symbols_close(s);
	unsetenv("CBENCH_DEBUG_DIR");
}

static CU_TestInfo symbols_tests[] = {
	{ "functions from .symtab", functions },
	{ "source lines from DWARF", lines },
	{ "not an object", not_an_object },
	{ "PLT stubs, classic and IBT", plt_stubs },
	{ "stripped objects' debug files", debug_files },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_symbols_suites[] = {
	{ "symbols", NULL, NULL, NULL, NULL, symbols_tests },
	CU_SUITE_INFO_NULL,
};
