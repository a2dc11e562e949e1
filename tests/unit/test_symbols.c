// SPDX-License-Identifier: GPL-2.0
/* Addresses to functions and lines, on examples/profile.so (built with -g). */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "worker/symbols.h"

#define PROFILE_SO CBENCH_EXAMPLE_DIR "/profile.so"

/* The address of a function, read with libelf independently of symbols.c. */
static uint64_t address_of(const char *name, uint64_t *size)
{
	int fd = open(PROFILE_SO, O_RDONLY);
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

static CU_TestInfo symbols_tests[] = {
	{ "functions from .symtab", functions },
	{ "source lines from DWARF", lines },
	{ "not an object", not_an_object },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_symbols_suites[] = {
	{ "symbols", NULL, NULL, NULL, NULL, symbols_tests },
	CU_SUITE_INFO_NULL,
};
