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
	size_t nfunctions, cap;
	bool stripped;			/* only .dynsym: no .symtab, no debug file */
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

static int add_function(struct cbench_symbols *s, uint64_t start, uint64_t size, const char *name)
{
	if (s->nfunctions == s->cap) {
		size_t ncap = s->cap ? 2 * s->cap : 64;
		struct function *n = realloc(s->functions, ncap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		s->functions = n;
		s->cap = ncap;
	}
	s->functions[s->nfunctions].start = start;
	s->functions[s->nfunctions].end = start + size;
	s->functions[s->nfunctions].name = strdup(name);
	if (!s->functions[s->nfunctions].name)
		return -ENOMEM;
	s->nfunctions++;
	return 0;
}

/* Adds the sized functions of one symbol table section. */
static int read_table(Elf *elf, Elf_Scn *scn, const GElf_Shdr *shdr, struct cbench_symbols *s)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t count = shdr->sh_entsize ? shdr->sh_size / shdr->sh_entsize : 0;

	for (size_t i = 0; data && i < count; i++) {
		GElf_Sym sym;
		const char *name;

		if (!gelf_getsym(data, (int)i, &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
		    sym.st_shndx == SHN_UNDEF || !sym.st_size)
			continue;
		name = elf_strptr(elf, shdr->sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		if (add_function(s, sym.st_value, sym.st_size, name))
			return -ENOMEM;
	}
	return 0;
}

/* The first section of this type, or NULL. */
static Elf_Scn *section_of_type(Elf *elf, uint32_t type, GElf_Shdr *shdr)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, shdr) && shdr->sh_type == type)
			return scn;
	return NULL;
}

/* The section called name, or NULL. */
static Elf_Scn *section_named(Elf *elf, const char *name, GElf_Shdr *shdr)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	const char *n;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, shdr))
			continue;
		n = elf_strptr(elf, shstrndx, shdr->sh_name);
		if (n && !strcmp(n, name))
			return scn;
	}
	return NULL;
}

/*
 * Where a stripped object's separate debug file may be, as GDB and
 * elfutils look: DEBUG/.build-id/xx/rest.debug by the build ID note, then
 * the .gnu_debuglink name beside the object, in its .debug directory and
 * under DEBUG with the object's directory.  DEBUG is CBENCH_DEBUG_DIR (a
 * colon-separated list), else /usr/lib/debug.  Returns an open fd or -1.
 */
static int open_debug_file(Elf *elf, const char *path)
{
	const char *dirs = getenv("CBENCH_DEBUG_DIR");
	char id[128] = "", link[256] = "", dir[1024], cand[2048];
	GElf_Shdr shdr;
	Elf_Scn *scn;
	Elf_Data *data;
	const char *slash;

	if (!dirs || !*dirs)
		dirs = "/usr/lib/debug";
	scn = section_named(elf, ".note.gnu.build-id", &shdr);
	data = scn ? elf_getdata(scn, NULL) : NULL;
	if (data) {
		GElf_Nhdr nhdr;
		size_t name_off, desc_off;

		if (gelf_getnote(data, 0, &nhdr, &name_off, &desc_off) && nhdr.n_type == NT_GNU_BUILD_ID &&
		    nhdr.n_descsz >= 2 && nhdr.n_descsz <= 60) {
			const unsigned char *d = (const unsigned char *)data->d_buf + desc_off;

			for (size_t i = 0; i < nhdr.n_descsz; i++)
				snprintf(id + strlen(id), sizeof(id) - strlen(id), "%s%02x", i == 1 ? "/" : "", d[i]);
		}
	}
	scn = section_named(elf, ".gnu_debuglink", &shdr);
	data = scn ? elf_getdata(scn, NULL) : NULL;
	if (data && data->d_size > 1)
		snprintf(link, sizeof(link), "%.*s", (int)strnlen(data->d_buf, data->d_size), (char *)data->d_buf);
	if (strchr(link, '/'))
		link[0] = '\0';
	slash = strrchr(path, '/');
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
	for (const char *d = dirs; *d; ) {
		size_t len = strcspn(d, ":");
		int fd;

		if (id[0]) {
			snprintf(cand, sizeof(cand), "%.*s/.build-id/%s.debug", (int)len, d, id);
			if ((fd = open(cand, O_RDONLY | O_CLOEXEC)) >= 0)
				return fd;
		}
		if (link[0]) {
			snprintf(cand, sizeof(cand), "%.*s%s/%s", (int)len, d, dir[0] == '/' ? dir : "", link);
			if ((fd = open(cand, O_RDONLY | O_CLOEXEC)) >= 0)
				return fd;
		}
		d += len;
		d += *d == ':';
	}
	if (link[0]) {
		snprintf(cand, sizeof(cand), "%s/%s", dir, link);
		/* Not the object itself (a link naming its own file). */
		if (strcmp(cand, path)) {
			int fd = open(cand, O_RDONLY | O_CLOEXEC);

			if (fd >= 0)
				return fd;
		}
		snprintf(cand, sizeof(cand), "%s/.debug/%s", dir, link);
		return open(cand, O_RDONLY | O_CLOEXEC);
	}
	return -1;
}

/* The .symtab of path's separate debug file, if there is one that has it. */
static int read_debug_file(Elf *elf, const char *path, struct cbench_symbols *s, bool *found)
{
	int fd = open_debug_file(elf, path), ret = 0;
	GElf_Shdr shdr;
	Elf_Scn *scn;
	Elf *dbg;

	*found = false;
	if (fd < 0)
		return 0;
	dbg = elf_begin(fd, ELF_C_READ, NULL);
	scn = dbg && elf_kind(dbg) == ELF_K_ELF ? section_of_type(dbg, SHT_SYMTAB, &shdr) : NULL;
	if (scn) {
		ret = read_table(dbg, scn, &shdr, s);
		*found = true;
	}
	if (dbg)
		elf_end(dbg);
	close(fd);
	return ret;
}

/* The GOT slot that a PLT entry at vaddr with these bytes jumps through, or
 * 0: "jmp *disp(%rip)" (ff 25), after an endbr64 (f3 0f 1e fa) and a bnd
 * prefix (f2), each optional.  PLT0 and lazy-binding entries do not match. */
static uint64_t plt_slot(const unsigned char *e, size_t size, uint64_t vaddr)
{
	size_t at = 0;
	int32_t disp;

	if (size >= 4 && e[0] == 0xf3 && e[1] == 0x0f && e[2] == 0x1e && e[3] == 0xfa)
		at = 4;
	if (at < size && e[at] == 0xf2)
		at++;
	if (at + 6 > size || e[at] != 0xff || e[at + 1] != 0x25)
		return 0;
	memcpy(&disp, e + at + 2, sizeof(disp));
	return vaddr + at + 6 + (uint64_t)(int64_t)disp;
}

/* A relocated GOT slot and the name of the symbol it is for. */
struct slot {
	uint64_t offset;
	const char *name;		/* in the ELF's string table */
};

static int by_offset(const void *a, const void *b)
{
	const struct slot *x = a, *y = b;

	return (x->offset > y->offset) - (x->offset < y->offset);
}

/* Every relocation of elf that names a symbol, sorted by the slot it
 * fills: read once, then searched for each PLT entry.  NULL with *n 0 for
 * none; -ENOMEM without memory. */
static int read_slots(Elf *elf, struct slot **out, size_t *n)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr shdr, symsh;
	size_t cap = 0;

	*out = NULL;
	*n = 0;
	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *data, *syms;
		Elf_Scn *symscn;
		size_t count;

		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_RELA || !shdr.sh_entsize)
			continue;
		data = elf_getdata(scn, NULL);
		symscn = elf_getscn(elf, shdr.sh_link);
		syms = symscn && gelf_getshdr(symscn, &symsh) ? elf_getdata(symscn, NULL) : NULL;
		count = shdr.sh_size / shdr.sh_entsize;
		for (size_t i = 0; data && syms && i < count; i++) {
			GElf_Rela r;
			GElf_Sym sym;
			const char *name;

			if (!gelf_getrela(data, (int)i, &r) || !GELF_R_SYM(r.r_info) ||
			    !gelf_getsym(syms, (int)GELF_R_SYM(r.r_info), &sym))
				continue;
			name = elf_strptr(elf, symsh.sh_link, sym.st_name);
			if (!name || !*name)
				continue;
			if (*n == cap) {
				size_t ncap = cap ? 2 * cap : 64;
				struct slot *ns = realloc(*out, ncap * sizeof(*ns));

				if (!ns)
					return -ENOMEM;
				*out = ns;
				cap = ncap;
			}
			(*out)[(*n)++] = (struct slot){ r.r_offset, name };
		}
	}
	qsort(*out, *n, sizeof(**out), by_offset);
	return 0;
}

/*
 * PLT stubs as functions called "name@plt": the entries of .plt, .plt.sec
 * and .plt.got whose jump goes through a GOT slot that a relocation ties to
 * a symbol.  They are in no symbol table, and a call through one is a cost
 * of its own (an indirect jump, and lazy binding the first time).
 */
static int read_plt(Elf *elf, struct cbench_symbols *s)
{
	static const char *const names[] = { ".plt", ".plt.sec", ".plt.got" };
	struct slot *slots;
	char name[256];
	size_t nslots;
	int ret = read_slots(elf, &slots, &nslots);

	for (size_t k = 0; !ret && nslots && k < sizeof(names) / sizeof(names[0]); k++) {
		GElf_Shdr shdr;
		Elf_Scn *scn = section_named(elf, names[k], &shdr);
		Elf_Data *data = scn && shdr.sh_type == SHT_PROGBITS ? elf_getdata(scn, NULL) : NULL;
		size_t entry = shdr.sh_entsize == 8 || shdr.sh_entsize == 16 ? shdr.sh_entsize : 16;

		for (size_t off = 0; !ret && data && off + entry <= data->d_size; off += entry) {
			struct slot key = { plt_slot((const unsigned char *)data->d_buf + off, entry,
						     shdr.sh_addr + off), NULL };
			const struct slot *hit = key.offset ?
				bsearch(&key, slots, nslots, sizeof(*slots), by_offset) : NULL;

			if (!hit)
				continue;
			snprintf(name, sizeof(name), "%s@plt", hit->name);
			ret = add_function(s, shdr.sh_addr + off, entry, name);
		}
	}
	free(slots);
	return ret;
}

static int read_functions(const char *path, struct cbench_symbols *s, char *err, size_t errlen)
{
	Elf_Scn *scn;
	GElf_Shdr shdr;
	size_t kept = 0;
	bool found;
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
	/* .symtab has the static functions too; a stripped object may have
	 * it in a separate debug file (Debian's -dbg and -dbgsym packages);
	 * else only .dynsym, whose exported functions are better than
	 * nothing. */
	ret = 0;
	scn = section_of_type(elf, SHT_SYMTAB, &shdr);
	if (scn) {
		ret = read_table(elf, scn, &shdr, s);
	} else {
		ret = read_debug_file(elf, path, s, &found);
		scn = !ret && !found ? section_of_type(elf, SHT_DYNSYM, &shdr) : NULL;
		if (scn) {
			ret = read_table(elf, scn, &shdr, s);
			s->stripped = true;
		}
	}
	if (!ret)
		ret = read_plt(elf, s);
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

bool cbench_symbols_stripped(const struct cbench_symbols *s)
{
	return s->stripped;
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
