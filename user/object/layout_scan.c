// SPDX-License-Identifier: GPL-2.0
/*
 * An object's code as read for code layouts (layout_parts.h): its
 * sections, its functions, the relocations the linker kept (-Wl,-q), and
 * every function decoded, each PC-relative field a site, checked against
 * those relocations (layout.c says why we trust neither alone).
 */
#include <errno.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "object/elffile.h"
#include "object/layout_parts.h"
#include "object/x86insn.h"

void cbench_layout_set_why(struct cbench_layout *lay, enum cbench_layout_mode mode, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(lay->why, sizeof(lay->why), fmt, ap);
	va_end(ap);
	lay->mode = mode;
}

/* Sections that hold code but never a benchmark's: the PLT's stubs jump
 * through the GOT, and .init/.fini run before any measurement. */
static bool movable_name(const char *name)
{
	return strcmp(name, ".init") && strcmp(name, ".fini") && strncmp(name, ".plt", 4) &&
	       strcmp(name, ".iplt");
}

int cbench_scan_sections(struct cbench_scan *s, char *err, size_t errlen)
{
	size_t shstrndx, n;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(s->elf, &shstrndx) < 0 || elf_getshdrnum(s->elf, &n) < 0) {
		snprintf(err, errlen, "%s has no section names: %s", s->path, elf_errmsg(-1));
		return -ENOEXEC;
	}
	s->secs = calloc(n ? n : 1, sizeof(*s->secs));
	if (!s->secs)
		return -ENOMEM;
	s->nsecs = n;
	while ((scn = elf_nextscn(s->elf, scn))) {
		size_t i = elf_ndxscn(scn);
		struct cbench_scan_sec *x = &s->secs[i];
		const char *name;
		GElf_Shdr sh;
		Elf_Data *d;

		if (i >= n || !gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(s->elf, shstrndx, sh.sh_name);
		snprintf(x->name, sizeof(x->name), "%s", name ? name : "?");
		x->addr = sh.sh_addr;
		x->bytes = sh.sh_size;
		x->align = sh.sh_addralign ? sh.sh_addralign : 1;
		x->alloc = sh.sh_flags & SHF_ALLOC;
		x->code = sh.sh_type == SHT_PROGBITS && (sh.sh_flags & SHF_ALLOC) &&
			  (sh.sh_flags & SHF_EXECINSTR) && movable_name(x->name);
		d = sh.sh_type == SHT_PROGBITS ? elf_getdata(scn, NULL) : NULL;
		x->data = d && d->d_buf && d->d_size == sh.sh_size ? d->d_buf : NULL;
		if (x->code && !x->data)
			x->code = false;
		if (sh.sh_type == SHT_SYMTAB && !s->symtab)
			s->symtab = i;
		if (sh.sh_type == SHT_RELA && !(sh.sh_flags & SHF_ALLOC))
			s->kept_relocs = true;
	}
	return 0;
}

static int by_addr(const void *a, const void *b)
{
	const struct cbench_scan_func *x = a, *y = b;

	return (x->addr > y->addr) - (x->addr < y->addr);
}

/* One function symbol into s->funcs, if it is code that may move. */
static void take_func(struct cbench_scan *s, const GElf_Sym *sym, const char *name)
{
	const struct cbench_scan_sec *x;

	if (GELF_ST_TYPE(sym->st_info) != STT_FUNC || !sym->st_size || sym->st_shndx >= s->nsecs)
		return;
	x = &s->secs[sym->st_shndx];
	if (!x->code || sym->st_value < x->addr || sym->st_size > x->bytes ||
	    sym->st_value - x->addr > x->bytes - sym->st_size)
		return;
	s->funcs[s->nfuncs] = (struct cbench_scan_func){ .addr = sym->st_value, .bytes = sym->st_size,
					     .sec = sym->st_shndx };
	snprintf(s->funcs[s->nfuncs].name, sizeof(s->funcs[0].name), "%s", name ? name : "?");
	s->nfuncs++;
}

/* The functions of movable code, by address, overlapping ones merged. */
int cbench_scan_functions(struct cbench_scan *s)
{
	Elf_Scn *scn = elf_getscn(s->elf, s->symtab);
	Elf_Data *d = scn ? elf_getdata(scn, NULL) : NULL;
	GElf_Shdr sh;
	size_t n, k = 0;

	if (!d || !gelf_getshdr(scn, &sh) || !sh.sh_entsize)
		return 0;
	n = sh.sh_size / sh.sh_entsize;
	if (n > CBENCH_LAYOUT_UNITS_MAX * 4)
		return -E2BIG;
	s->funcs = calloc(n ? n : 1, sizeof(*s->funcs));
	if (!s->funcs)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		GElf_Sym sym;

		if (gelf_getsym(d, (int)i, &sym))
			take_func(s, &sym, elf_strptr(s->elf, sh.sh_link, sym.st_name));
	}
	qsort(s->funcs, s->nfuncs, sizeof(*s->funcs), by_addr);
	for (size_t i = 0; i < s->nfuncs; i++) {
		struct cbench_scan_func *last = k ? &s->funcs[k - 1] : NULL;

		if (last && s->funcs[i].addr < last->addr + last->bytes && s->funcs[i].sec == last->sec) {
			uint64_t end = s->funcs[i].addr + s->funcs[i].bytes;

			if (end > last->addr + last->bytes)
				last->bytes = end - last->addr;
			continue;
		}
		s->funcs[k++] = s->funcs[i];
	}
	s->nfuncs = k;
	return k > CBENCH_LAYOUT_UNITS_MAX ? -E2BIG : 0;
}

/* Relocation types whose field is a 32-bit displacement from the
 * instruction's end. */
static bool pc_relative(uint32_t type)
{
	switch (type) {
	case R_X86_64_PC32: case R_X86_64_PLT32: case R_X86_64_GOTPCREL: case R_X86_64_GOTPC32:
	case R_X86_64_TLSGD: case R_X86_64_TLSLD: case R_X86_64_GOTTPOFF:
	case R_X86_64_GOTPC32_TLSDESC: case R_X86_64_GOTPCRELX: case R_X86_64_REX_GOTPCRELX:
	case 43: case 44: case 45:	/* APX's CODE_4_GOTPCRELX, _GOTTPOFF, _GOTPC32_TLSDESC */
		return true;
	}
	return false;
}

/* Relocation types whose field holds no address (an offset into TLS, a
 * size) or none at all (a marker): nothing to patch where code moves. */
static bool addressless(uint32_t type)
{
	switch (type) {
	case R_X86_64_NONE: case R_X86_64_DTPOFF32: case R_X86_64_TPOFF32: case R_X86_64_DTPOFF64:
	case R_X86_64_TPOFF64: case R_X86_64_SIZE32: case R_X86_64_SIZE64:
	case R_X86_64_TLSDESC_CALL:
		return true;
	}
	return false;
}

static int by_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* A kept relocation of code section x, into s->relocs; 1 with why in lay
 * where the code holds what cannot move. */
static int take_code_reloc(struct cbench_scan *s, const struct cbench_scan_sec *x, const GElf_Rela *r, size_t *cap,
			   Elf_Data *symtab, struct cbench_layout *lay)
{
	GElf_Sym sym;
	uint32_t type = (uint32_t)GELF_R_TYPE(r->r_info);

	if (r->r_offset < x->addr || r->r_offset - x->addr >= x->bytes) {
		cbench_layout_set_why(lay, CBENCH_LAYOUT_NONE, "a relocation of its %s lies outside it (0x%" PRIx64
			"): the object is malformed", x->name, r->r_offset);
		return 1;
	}
	if (addressless(type))
		return 0;
	if (!pc_relative(type)) {
		cbench_layout_set_why(lay, CBENCH_LAYOUT_NONE, "its code holds an absolute address (relocation type "
			"%" PRIu32 " at 0x%" PRIx64 "), which moved code would keep: build it with -fPIC",
			type, r->r_offset);
		return 1;
	}
	if (s->nrelocs == *cap) {
		size_t ncap = *cap ? 2 * *cap : 256;
		struct cbench_scan_reloc *n = ncap > CBENCH_LAYOUT_FIXUPS_MAX ? NULL :
				  realloc(s->relocs, ncap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		s->relocs = n;
		*cap = ncap;
	}
	s->relocs[s->nrelocs] = (struct cbench_scan_reloc){ .at = r->r_offset, .type = type };
	/* A function of ours reached through the PLT or the GOT (it is
	 * exported): the stub leads to its moved copy (stub_of()). */
	if (symtab && gelf_getsym(symtab, (int)GELF_R_SYM(r->r_info), &sym) &&
	    GELF_ST_TYPE(sym.st_info) == STT_FUNC && sym.st_shndx < s->nsecs && s->secs[sym.st_shndx].code)
		s->relocs[s->nrelocs].fn = sym.st_value;
	s->nrelocs++;
	return 0;
}

/* Whether symbol index sym of the symbol table lies in moving code. */
static bool symbol_in_code(const struct cbench_scan *s, Elf_Data *symtab, size_t sym)
{
	GElf_Sym st;

	return symtab && gelf_getsym(symtab, (int)sym, &st) && st.st_shndx < s->nsecs &&
	       s->secs[st.st_shndx].code;
}

/*
 * The kept relocations: those of movable code into s->relocs, checked; of
 * allocated data, a count of references to code (lay->data_refs).
 * Returns 0, 1 with why in lay where the code cannot move, or -errno.
 */
int cbench_scan_relocs(struct cbench_scan *s, struct cbench_layout *lay)
{
	Elf_Scn *scn = NULL, *symscn = elf_getscn(s->elf, s->symtab);
	Elf_Data *symtab = symscn ? elf_getdata(symscn, NULL) : NULL;
	size_t cap = 0;
	int ret = 0;

	while (!ret && (scn = elf_nextscn(s->elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		const struct cbench_scan_sec *x;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA || (sh.sh_flags & SHF_ALLOC) ||
		    sh.sh_info >= s->nsecs || !sh.sh_entsize || !(d = elf_getdata(scn, NULL)))
			continue;
		x = &s->secs[sh.sh_info];
		/* Unwind tables refer to every function: not a call into it. */
		if (!x->alloc || !strcmp(x->name, ".eh_frame"))
			continue;
		for (size_t i = 0; !ret && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Rela r;

			if (!gelf_getrela(d, (int)i, &r))
				continue;
			if (x->code)
				ret = take_code_reloc(s, x, &r, &cap, symtab, lay);
			else
				lay->data_refs += symbol_in_code(s, symtab, GELF_R_SYM(r.r_info));
		}
	}
	qsort(s->relocs, s->nrelocs, sizeof(*s->relocs), by_u64);
	return ret;
}

static int add_site(struct cbench_scan *s, const struct cbench_scan_site *site, size_t *cap)
{
	if (s->nsites == *cap) {
		size_t ncap = *cap ? 2 * *cap : 1024;
		struct cbench_scan_site *n = ncap > CBENCH_LAYOUT_FIXUPS_MAX ? NULL : realloc(s->sites, ncap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		s->sites = n;
		*cap = ncap;
	}
	s->sites[s->nsites++] = *site;
	return 0;
}

/* The field's value, sign-extended from its bytes. */
int64_t cbench_scan_field_value(const uint8_t *p, uint8_t bytes)
{
	if (bytes == 1)
		return (int8_t)p[0];
	if (bytes == 2)
		return (int16_t)(p[0] | p[1] << 8);
	return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
}

/* Whether control never goes on past insn: a return, a jump, a trap, or a
 * call (the last instruction of a function is a call only to one that
 * does not return). */
static bool ends_flow(const struct cbench_x86_insn *insn)
{
	if (insn->vex)
		return false;
	if (insn->map == CBENCH_X86_MAP_0F)
		return insn->opcode == 0x0b;	/* ud2 */
	if (insn->map != CBENCH_X86_MAP_ONE)
		return false;
	switch (insn->opcode) {
	case 0xc3: case 0xc2: case 0xe9: case 0xeb: case 0xe8: case 0xcc: case 0xf4:
		return true;
	case 0xff:
		return insn->reg == 2 || insn->reg == 4 || insn->reg == 5;
	}
	return false;
}

/* Every function decoded, each PC-relative field a site; 1 with why in lay
 * where one does not decode to its end. */
int cbench_scan_decode(struct cbench_scan *s, struct cbench_layout *lay)
{
	size_t cap = 0;

	for (size_t f = 0; f < s->nfuncs; f++) {
		const struct cbench_scan_func *fn = &s->funcs[f];
		const uint8_t *code = s->secs[fn->sec].data + (fn->addr - s->secs[fn->sec].addr);
		uint64_t off = 0;

		while (off < fn->bytes) {
			struct cbench_x86_insn insn;
			size_t len = cbench_x86_decode(code + off, fn->bytes - off, &insn);
			struct cbench_scan_site site;
			int ret;

			if (!len) {
				cbench_layout_set_why(lay, CBENCH_LAYOUT_NONE, "its function %s does not decode as code "
					"at 0x%" PRIx64 " (data in the code?), so we cannot find what it "
					"refers to", fn->name, fn->addr + off);
				return 1;
			}
			if (insn.pcrel_bytes) {
				site = (struct cbench_scan_site){ .at = fn->addr + off + insn.pcrel_at,
						      .end = fn->addr + off + len, .bytes = insn.pcrel_bytes,
						      .func = (uint32_t)f };
				site.target = site.end + (uint64_t)cbench_scan_field_value(code + off + insn.pcrel_at,
									       insn.pcrel_bytes);
				ret = add_site(s, &site, &cap);
				if (ret)
					return ret;
			}
			off += len;
			s->funcs[f].runs_on = !ends_flow(&insn);
		}
	}
	return 0;
}

/* The function holding addr, or -1 (functions are by address, apart). */
long cbench_scan_func_of(const struct cbench_scan *s, uint64_t addr)
{
	size_t lo = 0, hi = s->nfuncs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (addr < s->funcs[mid].addr)
			hi = mid;
		else if (addr - s->funcs[mid].addr >= s->funcs[mid].bytes)
			lo = mid + 1;
		else
			return (long)mid;
	}
	return -1;
}

/* The kept relocation at at, or NULL. */
const struct cbench_scan_reloc *cbench_scan_reloc_at(const struct cbench_scan *s, uint64_t at)
{
	return bsearch(&at, s->relocs, s->nrelocs, sizeof(*s->relocs), by_u64);
}

/*
 * Every kept relocation in a function must sit on a 4-byte field we
 * decoded, or what we decoded is not the code the linker saw.  1 with why
 * in lay if one does not.
 */
int cbench_scan_check_relocs(const struct cbench_scan *s, struct cbench_layout *lay)
{
	size_t k = 0;

	for (size_t i = 0; i < s->nrelocs; i++) {
		uint64_t at = s->relocs[i].at;

		if (cbench_scan_func_of(s, at) < 0)
			continue;
		while (k < s->nsites && s->sites[k].at < at)
			k++;
		if (k == s->nsites || s->sites[k].at != at || s->sites[k].bytes != 4) {
			cbench_layout_set_why(lay, CBENCH_LAYOUT_NONE, "a relocation of its code at 0x%" PRIx64 " is not "
				"on an instruction's displacement as we decode it, so we cannot move it "
				"safely", at);
			return 1;
		}
	}
	return 0;
}
