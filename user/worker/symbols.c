// SPDX-License-Identifier: GPL-2.0
/* Functions and source lines of an object's addresses; see symbols.h. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <elfutils/libdw.h>

#include "worker/symbols.h"

struct function {
	uint64_t start, end;
	char *name;
};

struct cbench_symbols {
	struct function *functions;	/* sorted by start, not overlapping */
	size_t nfunctions;
	int dwarf_fd;
	Dwarf *dwarf;			/* NULL unless lines were asked for */
};

static int by_start(const void *a, const void *b)
{
	const struct function *x = a, *y = b;

	if (x->start != y->start)
		return (x->start > y->start) - (x->start < y->start);
	/* Aliases: the longer one first, then by name, so the pick does not
	 * depend on the order of the table. */
	if (x->end != y->end)
		return (x->end < y->end) - (x->end > y->end);
	return strcmp(x->name, y->name);
}

/* Adds the sized functions of one symbol table section. */
static int read_table(Elf *elf, Elf_Scn *scn, const GElf_Shdr *shdr, struct cbench_symbols *s)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t count = shdr->sh_entsize ? shdr->sh_size / shdr->sh_entsize : 0, cap = 0;

	for (size_t i = 0; data && i < count; i++) {
		GElf_Sym sym;
		const char *name;

		if (!gelf_getsym(data, (int)i, &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
		    sym.st_shndx == SHN_UNDEF || !sym.st_size)
			continue;
		name = elf_strptr(elf, shdr->sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		if (s->nfunctions == cap) {
			size_t ncap = cap ? 2 * cap : 64;
			struct function *n = realloc(s->functions, ncap * sizeof(*n));

			if (!n)
				return -ENOMEM;
			s->functions = n;
			cap = ncap;
		}
		s->functions[s->nfunctions].start = sym.st_value;
		s->functions[s->nfunctions].end = sym.st_value + sym.st_size;
		s->functions[s->nfunctions].name = strdup(name);
		if (!s->functions[s->nfunctions].name)
			return -ENOMEM;
		s->nfunctions++;
	}
	return 0;
}

static int read_functions(const char *path, struct cbench_symbols *s, char *err, size_t errlen)
{
	Elf_Scn *scn = NULL, *symtab = NULL, *dynsym = NULL;
	GElf_Shdr shdr;
	size_t kept = 0;
	Elf *elf;
	int fd, ret = -ENOEXEC;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return ret;
	}
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		snprintf(err, errlen, "%s is not an ELF object", path);
		goto out;
	}
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &shdr))
			continue;
		if (shdr.sh_type == SHT_SYMTAB)
			symtab = scn;
		else if (shdr.sh_type == SHT_DYNSYM)
			dynsym = scn;
	}
	/* .symtab has the static functions too; a stripped object keeps only
	 * .dynsym, whose exported functions are better than nothing. */
	scn = symtab ? symtab : dynsym;
	ret = 0;
	if (scn && gelf_getshdr(scn, &shdr))
		ret = read_table(elf, scn, &shdr, s);
	if (ret) {
		snprintf(err, errlen, "out of memory reading the symbols of %s", path);
		goto out;
	}
	qsort(s->functions, s->nfunctions, sizeof(*s->functions), by_start);
	/* Keep one of each set of aliases, and clip overlaps so that lookup
	 * by binary search stays right. */
	for (size_t i = 0; i < s->nfunctions; i++) {
		if (kept && s->functions[i].start < s->functions[kept - 1].end) {
			free(s->functions[i].name);
			continue;
		}
		s->functions[kept++] = s->functions[i];
	}
	s->nfunctions = kept;
out:
	if (elf)
		elf_end(elf);
	close(fd);
	return ret;
}

int cbench_symbols_open(struct cbench_symbols **out, const char *path, bool lines, char *err, size_t errlen)
{
	struct cbench_symbols *s = calloc(1, sizeof(*s));
	int ret;

	*out = NULL;
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	s->dwarf_fd = -1;
	ret = read_functions(path, s, err, errlen);
	if (ret)
		goto fail;
	if (lines) {
		Dwarf_Off off = 0, next;
		size_t header;

		s->dwarf_fd = open(path, O_RDONLY | O_CLOEXEC);
		if (s->dwarf_fd < 0) {
			ret = -errno;
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			goto fail;
		}
		s->dwarf = dwarf_begin(s->dwarf_fd, DWARF_C_READ);
		/* No compilation unit at all is as good as no DWARF. */
		if (!s->dwarf || dwarf_nextcu(s->dwarf, off, &next, &header, NULL, NULL, NULL) != 0) {
			snprintf(err, errlen, "%s has no debug information, so samples cannot be mapped to "
				 "source lines: rebuild it with -g (and do not strip it), or profile --by function",
				 path);
			ret = -ENOENT;
			goto fail;
		}
	}
	*out = s;
	return 0;
fail:
	cbench_symbols_close(s);
	return ret;
}

void cbench_symbols_close(struct cbench_symbols *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nfunctions; i++)
		free(s->functions[i].name);
	free(s->functions);
	if (s->dwarf)
		dwarf_end(s->dwarf);
	if (s->dwarf_fd >= 0)
		close(s->dwarf_fd);
	free(s);
}

const char *cbench_symbols_function(const struct cbench_symbols *s, uint64_t vaddr, size_t *index)
{
	size_t lo = 0, hi = s->nfunctions;

	/* The last function starting at or before vaddr. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->functions[mid].start <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || vaddr >= s->functions[lo - 1].end)
		return NULL;
	if (index)
		*index = lo - 1;
	return s->functions[lo - 1].name;
}

int cbench_symbols_line(struct cbench_symbols *s, uint64_t vaddr, const char **file)
{
	Dwarf_Die cu;
	Dwarf_Line *line;
	int lineno = 0;

	*file = NULL;
	if (!s->dwarf || !dwarf_addrdie(s->dwarf, vaddr, &cu))
		return 0;
	line = dwarf_getsrc_die(&cu, vaddr);
	if (!line || dwarf_lineno(line, &lineno))
		return 0;
	*file = dwarf_linesrc(line, NULL, NULL);
	return *file ? lineno : 0;
}
