// SPDX-License-Identifier: GPL-2.0
/*
 * kimage: turn a benchmark's shared object into an image cbench.ko can run.
 * See kimage.h for what an image is; kimage_descs.c reads its descriptors.
 *
 * We refuse rather than repair: an object built with the wrong flags has code
 * we cannot see into (a stack-protector read of %fs:0x28, a PLT call into
 * libc), so the only safe answer is the flags that rebuild it right.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <gelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cbench.h>

#include "object/elffile.h"
#include "object/kimage_parts.h"
#include "object/loader.h"
#include "../../kmod/lib/abi.h"
#include "../../kmod/lib/reloc.h"

/*
 * cbench.ko hands a benchmark its own mirror of struct cbench_ctx
 * (kmod/lib/abi.h): the two must agree field by field, which the compiler
 * checks here, in the code that makes images for it.
 */
_Static_assert(CBENCH_KABI_VERSION == CBENCH_ABI_VERSION, "kmod/lib/abi.h follows another ABI");
_Static_assert(sizeof(struct cbench_kctx) == sizeof(struct cbench_ctx), "cbench_kctx size");
_Static_assert(offsetof(struct cbench_kctx, arena) == offsetof(struct cbench_ctx, arena), "arena");
_Static_assert(offsetof(struct cbench_kctx, arena_bytes) == offsetof(struct cbench_ctx, arena_bytes),
	       "arena_bytes");
_Static_assert(offsetof(struct cbench_kctx, param) == offsetof(struct cbench_ctx, param), "param");
_Static_assert(offsetof(struct cbench_kctx, tp) == offsetof(struct cbench_ctx, tp), "tp");
_Static_assert(offsetof(struct cbench_kctx, args) == offsetof(struct cbench_ctx, args) &&
	       offsetof(struct cbench_kctx, nargs) == offsetof(struct cbench_ctx, nargs), "args");
_Static_assert(sizeof(struct cbench_karg) == sizeof(struct cbench_arg) &&
	       offsetof(struct cbench_karg, key) == offsetof(struct cbench_arg, key) &&
	       offsetof(struct cbench_karg, str) == offsetof(struct cbench_arg, str) &&
	       offsetof(struct cbench_karg, i) == offsetof(struct cbench_arg, i), "cbench_karg");
_Static_assert(CBENCH_KARGS_MAX == CBENCH_KEYS_MAX && CBENCH_KKEY_BYTES == CBENCH_NAME_MAX &&
	       CBENCH_KSTR_BYTES == CBENCH_STR_MAX, "parameter limits");
_Static_assert(sizeof(((struct cbench_kctx *)0)->tp) == sizeof(((struct cbench_ctx *)0)->tp),
	       "tp size");
#define CBENCH_TP_SAME(f) \
	_Static_assert(offsetof(struct cbench_ktp_state, f) == offsetof(struct cbench_tp_state, f) && \
		       sizeof(((struct cbench_ktp_state *)0)->f) == \
		       sizeof(((struct cbench_tp_state *)0)->f), "tp." #f)
CBENCH_TP_SAME(buf);
CBENCH_TP_SAME(capacity);
CBENCH_TP_SAME(next);
CBENCH_TP_SAME(every);
CBENCH_TP_SAME(countdown);
#undef CBENCH_TP_SAME
_Static_assert(sizeof(struct cbench_tp_krecord) == sizeof(struct cbench_tp_record) &&
	       offsetof(struct cbench_tp_krecord, tsc) == offsetof(struct cbench_tp_record, tsc) &&
	       offsetof(struct cbench_tp_krecord, count) == offsetof(struct cbench_tp_record, count),
	       "struct cbench_tp_krecord");

#define PAGE_BYTES CBENCH_IMAGE_PAGE_BYTES

#ifndef SHT_RELR
#define SHT_RELR 19
#endif


static uint64_t round_down(uint64_t v)
{
	return v & ~(uint64_t)(PAGE_BYTES - 1);
}

static uint64_t round_up(uint64_t v)
{
	return round_down(v + PAGE_BYTES - 1);
}

/* The PT_LOAD segments, checked, into ld->seg; *end gets the last one's end. */
static int find_segments(struct cbench_kimage_loader *ld, size_t nphdr, uint64_t *end)
{
	bool first = true;

	*end = 0;
	for (size_t i = 0; i < nphdr; i++) {
		GElf_Phdr ph;
		struct cbench_kimage_segment *s;

		if (!gelf_getphdr(ld->elf, (int)i, &ph))
			return cbench_kimage_refuse(ld, "bad program header %zu", i);
		if (ph.p_type == PT_TLS)
			return cbench_kimage_refuse(ld, "has thread-local storage (PT_TLS), which ring 0 cannot provide: "
				      "remove __thread/_Thread_local variables");
		if (ph.p_type != PT_LOAD)
			continue;
		if ((ph.p_flags & PF_W) && (ph.p_flags & PF_X))
			return cbench_kimage_refuse(ld, "has a writable and executable segment at 0x%llx: "
				      "link without -z execstack/-N and %s",
				      (unsigned long long)ph.p_vaddr, CBENCH_KIMAGE_FIX);
		if (ld->nseg == SEGMENTS_MAX)
			return cbench_kimage_refuse(ld, "more than %d loadable segments", SEGMENTS_MAX);
		if (first) {
			ld->base = round_down(ph.p_vaddr);
			first = false;
		}
		if (ph.p_vaddr < *end || ph.p_filesz > ph.p_memsz ||
		    ph.p_offset > ld->file_bytes || ph.p_filesz > ld->file_bytes - ph.p_offset ||
		    ph.p_memsz > CBENCH_KIMAGE_MAX_BYTES ||
		    ph.p_vaddr - ld->base > CBENCH_KIMAGE_MAX_BYTES - ph.p_memsz)
			return cbench_kimage_refuse(ld, "loadable segment %u is malformed or too large", ld->nseg);
		s = &ld->seg[ld->nseg++];
		s->start = ph.p_vaddr - ld->base;
		s->file_bytes = ph.p_filesz;
		s->mem_bytes = ph.p_memsz;
		s->flags = ph.p_flags;
		*end = ph.p_vaddr + ph.p_memsz;
	}
	return ld->nseg ? 0 : cbench_kimage_refuse(ld, "has no loadable segments");
}

/* The executable pages, merged into ranges; no other segment may share them. */
static int find_text(struct cbench_kimage_loader *ld)
{
	struct cbench_kimage *image = ld->image;

	for (unsigned int i = 0; i < ld->nseg; i++) {
		const struct cbench_kimage_segment *s = &ld->seg[i];
		uint64_t start = round_down(s->start), stop = round_up(s->start + s->mem_bytes);

		if (!(s->flags & PF_X) || !s->mem_bytes)
			continue;
		/* Text pages become read-only: nothing else may share them. */
		for (unsigned int j = 0; j < ld->nseg; j++) {
			const struct cbench_kimage_segment *o = &ld->seg[j];

			if (j != i && o->mem_bytes && o->start < stop && start < o->start + o->mem_bytes)
				return cbench_kimage_refuse(ld, "code shares a page with data at 0x%llx: "
					      "link with -Wl,-z,separate-code",
					      (unsigned long long)(o->start + ld->base));
		}
		if (image->ntext && image->text[image->ntext - 1].start +
				    image->text[image->ntext - 1].bytes == start) {
			image->text[image->ntext - 1].bytes += stop - start;
			continue;
		}
		if (image->ntext == CBENCH_TEXT_MAX)
			return cbench_kimage_refuse(ld, "more than %d executable segments", CBENCH_TEXT_MAX);
		image->text[image->ntext].start = start;
		image->text[image->ntext].bytes = stop - start;
		image->ntext++;
	}
	return image->ntext ? 0 : cbench_kimage_refuse(ld, "has no executable code");
}

static int read_segments(struct cbench_kimage_loader *ld)
{
	struct cbench_kimage *image = ld->image;
	uint64_t end;
	size_t nphdr;
	int ret;

	if (elf_getphdrnum(ld->elf, &nphdr))
		return cbench_kimage_refuse(ld, "no program headers: %s", elf_errmsg(-1));
	ret = find_segments(ld, nphdr, &end);
	if (ret)
		return ret;
	image->image_bytes = round_up(end - ld->base);
	image->base = ld->base;
	image->bytes = calloc(1, image->image_bytes);
	if (!image->bytes)
		return -ENOMEM;
	/* Lay the segments out, then note the executable pages. */
	for (unsigned int i = 0, k = 0; i < nphdr; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(ld->elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		memcpy(image->bytes + ld->seg[k].start, ld->file + ph.p_offset, ph.p_filesz);
		k++;
	}
	return find_text(ld);
}

/* Where a relocation may write: a writable, non-executable segment. */
static bool writable(const struct cbench_kimage_loader *ld, uint64_t offset)
{
	for (unsigned int i = 0; i < ld->nseg; i++) {
		const struct cbench_kimage_segment *s = &ld->seg[i];

		if (offset >= s->start && offset - s->start < s->mem_bytes &&
		    s->mem_bytes - (offset - s->start) >= 8)
			return (s->flags & PF_W) && !(s->flags & PF_X);
	}
	return false;
}

static int add_reloc(struct cbench_kimage_loader *ld, uint64_t vaddr, uint64_t target_vaddr, const char *what)
{
	struct cbench_kimage *image = ld->image;
	uint64_t slot = vaddr - ld->base, target = target_vaddr - ld->base;
	uint64_t *relocs;

	if (vaddr < ld->base || !writable(ld, slot))
		return cbench_kimage_refuse(ld, "%s relocation at 0x%llx is outside writable data "
			      "(a text relocation): compile every file with -fPIC",
			      what, (unsigned long long)vaddr);
	if (target_vaddr < ld->base || target > image->image_bytes)
		return cbench_kimage_refuse(ld, "%s relocation at 0x%llx points outside the object (0x%llx)",
			      what, (unsigned long long)vaddr, (unsigned long long)target_vaddr);
	relocs = realloc(image->relocs, (image->nrelocs + 1) * sizeof(*relocs));
	if (!relocs)
		return -ENOMEM;
	image->relocs = relocs;
	relocs[image->nrelocs++] = slot;
	memcpy(image->bytes + slot, &target, sizeof(target));
	return 0;
}

static const char *symbol_name(struct cbench_kimage_loader *ld, Elf_Scn *symtab, GElf_Word index, GElf_Sym *sym)
{
	GElf_Shdr sh;
	Elf_Data *data = elf_getdata(symtab, NULL);
	const char *name;

	if (!data || !gelf_getshdr(symtab, &sh) || !gelf_getsym(data, (int)index, sym))
		return NULL;
	name = elf_strptr(ld->elf, sh.sh_link, sym->st_name);
	return name ? name : "?";
}

static int undefined(struct cbench_kimage_loader *ld, const char *name, const char *how)
{
	if (!strcmp(name, "__stack_chk_fail") || !strcmp(name, "__stack_chk_guard"))
		return cbench_kimage_refuse(ld, "calls __stack_chk_fail: the stack protector reads the user's "
			      "%%fs:0x28 and faults in ring 0; compile with -fno-stack-protector (%s)",
			      CBENCH_KIMAGE_FIX);
	if (!strncmp(name, "__tls_get_addr", 14))
		return cbench_kimage_refuse(ld, "uses thread-local storage (%s): remove __thread variables", name);
	return cbench_kimage_refuse(ld, "%s undefined symbol '%s': ring 0 has no libc or other libraries; "
		      "define it in the benchmark (gcc may call memcpy/memset for struct copies) "
		      "and %s", how, name, CBENCH_KIMAGE_FIX);
}

static int check_symbols(struct cbench_kimage_loader *ld, Elf_Scn *scn)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	GElf_Shdr sh;

	if (!data || !gelf_getshdr(scn, &sh) || !sh.sh_entsize)
		return cbench_kimage_refuse(ld, "bad dynamic symbol table");
	for (size_t i = 1; i < sh.sh_size / sh.sh_entsize; i++) {
		GElf_Sym sym;
		const char *name = symbol_name(ld, scn, (GElf_Word)i, &sym);

		if (!name)
			return cbench_kimage_refuse(ld, "bad dynamic symbol %zu", i);
		if (GELF_ST_TYPE(sym.st_info) == STT_GNU_IFUNC)
			return cbench_kimage_refuse(ld, "'%s' is an IFUNC, resolved by the dynamic loader at run time: "
				      "call one implementation directly", name);
		if (GELF_ST_TYPE(sym.st_info) == STT_TLS)
			return cbench_kimage_refuse(ld, "'%s' is thread-local, which ring 0 cannot provide: "
				      "remove __thread/_Thread_local variables", name);
		if (sym.st_shndx == SHN_UNDEF && *name && GELF_ST_BIND(sym.st_info) != STB_WEAK)
			return undefined(ld, name, "has");
	}
	return 0;
}

static int do_relocs(struct cbench_kimage_loader *ld, Elf_Scn *scn)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	Elf_Scn *symtab;
	GElf_Shdr sh;
	int ret;

	if (!data || !gelf_getshdr(scn, &sh) || !sh.sh_entsize)
		return cbench_kimage_refuse(ld, "bad relocation section");
	symtab = elf_getscn(ld->elf, sh.sh_link);
	for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
		GElf_Rela r;
		GElf_Sym sym;
		GElf_Word type, symi;
		const char *name = NULL;
		uint64_t target;

		if (!gelf_getrela(data, (int)i, &r))
			return cbench_kimage_refuse(ld, "bad relocation %zu", i);
		type = GELF_R_TYPE(r.r_info);
		symi = GELF_R_SYM(r.r_info);
		if (symi && (!symtab || !(name = symbol_name(ld, symtab, symi, &sym))))
			return cbench_kimage_refuse(ld, "relocation at 0x%llx names a bad symbol",
				      (unsigned long long)r.r_offset);

		switch (type) {
		case R_X86_64_NONE:
			continue;
		case R_X86_64_RELATIVE:
			ret = add_reloc(ld, r.r_offset, (uint64_t)r.r_addend, "R_X86_64_RELATIVE");
			break;
		case R_X86_64_64:
		case R_X86_64_GLOB_DAT:
		case R_X86_64_JUMP_SLOT:
			/*
			 * A symbol defined in the object itself resolves to itself:
			 * nothing can interpose it in ring 0, so it becomes a
			 * RELATIVE slot.  Anything else lives in a library.
			 */
			if (!name)
				return cbench_kimage_refuse(ld, "relocation type %u at 0x%llx has no symbol", type,
					      (unsigned long long)r.r_offset);
			if (sym.st_shndx == SHN_UNDEF)
				return undefined(ld, name, "refers to");
			if (sym.st_shndx == SHN_ABS || GELF_ST_TYPE(sym.st_info) == STT_TLS ||
			    GELF_ST_TYPE(sym.st_info) == STT_GNU_IFUNC)
				return cbench_kimage_refuse(ld, "relocation against '%s' cannot be made relative", name);
			target = sym.st_value + (type == R_X86_64_64 ? (uint64_t)r.r_addend : 0);
			ret = add_reloc(ld, r.r_offset, target,
					type == R_X86_64_64 ? "R_X86_64_64" :
					type == R_X86_64_GLOB_DAT ? "R_X86_64_GLOB_DAT" :
					"R_X86_64_JUMP_SLOT");
			break;
		case R_X86_64_IRELATIVE:
			return cbench_kimage_refuse(ld, "has an IFUNC relocation (R_X86_64_IRELATIVE) at 0x%llx: "
				      "IFUNCs are resolved by the dynamic loader; call one "
				      "implementation directly", (unsigned long long)r.r_offset);
		case R_X86_64_DTPMOD64:
		case R_X86_64_DTPOFF64:
		case R_X86_64_TPOFF64:
		case R_X86_64_TLSDESC:
			return cbench_kimage_refuse(ld, "has a thread-local storage relocation (type %u) for '%s': "
				      "remove __thread/_Thread_local variables", type,
				      name ? name : "?");
		case R_X86_64_COPY:
			return cbench_kimage_refuse(ld, "has a copy relocation for '%s': %s", name ? name : "?",
				      CBENCH_KIMAGE_FIX);
		default:
			return cbench_kimage_refuse(ld, "has relocation type %u at 0x%llx%s%s, which cbench.ko "
				      "does not apply: %s", type, (unsigned long long)r.r_offset,
				      name ? " against " : "", name ? name : "", CBENCH_KIMAGE_FIX);
		}
		if (ret)
			return ret;
	}
	return 0;
}

static int check_dynamic(struct cbench_kimage_loader *ld, Elf_Scn *scn)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	GElf_Shdr sh;

	if (!data || !gelf_getshdr(scn, &sh) || !sh.sh_entsize)
		return cbench_kimage_refuse(ld, "bad dynamic section");
	for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
		GElf_Dyn dyn;

		if (!gelf_getdyn(data, (int)i, &dyn))
			return cbench_kimage_refuse(ld, "bad dynamic entry %zu", i);
		switch (dyn.d_tag) {
		case DT_TEXTREL:
			return cbench_kimage_refuse(ld, "has text relocations: compile every file with -fPIC");
		case DT_FLAGS:
			if (dyn.d_un.d_val & DF_TEXTREL)
				return cbench_kimage_refuse(ld, "has text relocations: compile every file with -fPIC");
			if (dyn.d_un.d_val & DF_STATIC_TLS)
				return cbench_kimage_refuse(ld, "uses static thread-local storage: "
					      "remove __thread variables");
			break;
		case DT_INIT:
		case DT_FINI:
			return cbench_kimage_refuse(ld, "has _init/_fini, which cbench.ko does not run: "
				      "link with -nostdlib (%s)", CBENCH_KIMAGE_FIX);
		case DT_INIT_ARRAYSZ:
		case DT_PREINIT_ARRAYSZ:
			if (dyn.d_un.d_val)
				return cbench_kimage_refuse(ld, "has constructors, which cbench.ko does not run: "
					      "do the work in the benchmark's setup()");
			break;
		case DT_REL:
			return cbench_kimage_refuse(ld, "has REL relocations; x86-64 uses RELA: %s", CBENCH_KIMAGE_FIX);
		case DT_RELR:
			return cbench_kimage_refuse(ld, "has packed relative relocations (DT_RELR): "
				      "link with -Wl,-z,nopack-relative-relocs");
		default:
			break;
		}
	}
	return 0;
}

static int read_sections(struct cbench_kimage_loader *ld)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	int ret;

	if (elf_getshdrstrndx(ld->elf, &shstrndx))
		return cbench_kimage_refuse(ld, "has no section headers (stripped with --strip-section-headers?)");
	/* Symbols and dynamic tags first, so their messages win over relocations'. */
	while ((scn = elf_nextscn(ld->elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			return cbench_kimage_refuse(ld, "bad section header");
		name = elf_strptr(ld->elf, shstrndx, sh.sh_name);
		if (name && !strcmp(name, CBENCH_SECTION)) {
			ld->descs_vaddr = sh.sh_addr;
			ld->descs_bytes = sh.sh_size;
			ld->have_descs = true;
		}
		ret = 0;
		if (sh.sh_type == SHT_DYNSYM)
			ret = check_symbols(ld, scn);
		else if (sh.sh_type == SHT_DYNAMIC)
			ret = check_dynamic(ld, scn);
		else if ((sh.sh_flags & SHF_ALLOC) && (sh.sh_type == SHT_REL || sh.sh_type == SHT_RELR))
			ret = cbench_kimage_refuse(ld, "has %s relocations (section %s): %s",
				     sh.sh_type == SHT_REL ? "REL" : "packed RELR",
				     name ? name : "?", CBENCH_KIMAGE_FIX);
		if (ret)
			return ret;
	}
	while ((scn = elf_nextscn(ld->elf, scn))) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh))
			return cbench_kimage_refuse(ld, "bad section header");
		if (sh.sh_type == SHT_RELA && (sh.sh_flags & SHF_ALLOC)) {
			ret = do_relocs(ld, scn);
			if (ret)
				return ret;
		}
	}
	return 0;
}

/* Whether [offset, offset + bytes) lies in one of image's text ranges; its end if so. */
static uint64_t text_end(const struct cbench_kimage *image, uint64_t offset, uint64_t bytes)
{
	for (uint32_t i = 0; i < image->ntext; i++) {
		const struct cbench_range *t = &image->text[i];

		if (offset >= t->start && offset - t->start < t->bytes &&
		    bytes <= t->bytes - (offset - t->start))
			return t->start + t->bytes;
	}
	return 0;
}

static int add_func(struct cbench_kimage *image, const char *name, uint64_t offset, uint64_t bytes)
{
	struct cbench_kimage_func *f = realloc(image->funcs, (image->nfuncs + 1) * sizeof(*f));

	if (!f)
		return -ENOMEM;
	image->funcs = f;
	f[image->nfuncs].name = strdup(name);
	if (!f[image->nfuncs].name)
		return -ENOMEM;
	f[image->nfuncs].offset = offset;
	f[image->nfuncs].bytes = bytes;
	image->nfuncs++;
	return 0;
}

/* The sized functions of symbol table scn that lie in text. */
static int functions_of(struct cbench_kimage_loader *ld, Elf_Scn *scn)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	GElf_Shdr sh;

	if (!data || !gelf_getshdr(scn, &sh) || !sh.sh_entsize)
		return 0;
	for (size_t i = 1; i < sh.sh_size / sh.sh_entsize; i++) {
		GElf_Sym sym;
		const char *name = symbol_name(ld, scn, (GElf_Word)i, &sym);
		uint64_t offset = sym.st_value - ld->base;
		int ret;

		if (!name || GELF_ST_TYPE(sym.st_info) != STT_FUNC || !sym.st_size ||
		    sym.st_shndx == SHN_UNDEF || sym.st_value < ld->base ||
		    !text_end(ld->image, offset, sym.st_size))
			continue;
		ret = add_func(ld->image, name, offset, sym.st_size);
		if (ret)
			return ret;
	}
	return 0;
}

static bool covered(const struct cbench_kimage *image, uint64_t offset)
{
	for (uint32_t i = 0; i < image->nfuncs; i++)
		if (offset >= image->funcs[i].offset &&
		    offset - image->funcs[i].offset < image->funcs[i].bytes)
			return true;
	return false;
}

/*
 * The object's functions, for cbench_kimage_check_code(): .symtab's, or
 * .dynsym's if it was stripped, then every entry point no symbol covers,
 * to the end of its text.
 */
static int read_functions(struct cbench_kimage_loader *ld)
{
	struct cbench_kimage *image = ld->image;
	Elf_Scn *scn = NULL, *symtab = NULL, *dynsym = NULL;
	int ret;

	while ((scn = elf_nextscn(ld->elf, scn))) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
			symtab = scn;
		else if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_DYNSYM)
			dynsym = scn;
	}
	if (symtab || dynsym) {
		ret = functions_of(ld, symtab ? symtab : dynsym);
		if (ret)
			return ret;
	}
	for (uint32_t i = 0; i < image->nentries; i++) {
		const struct cbench_kimage_entry *e = &image->entries[i];
		uint64_t at[] = { e->run, e->has_setup ? e->setup : 0,
				  e->has_before_rep ? e->before_rep : 0,
				  e->has_after_rep ? e->after_rep : 0 };

		for (size_t j = 0; j < sizeof(at) / sizeof(at[0]); j++) {
			uint64_t end = at[j] ? text_end(image, at[j], 1) : 0;

			if (!end || covered(image, at[j]))
				continue;
			ret = add_func(image, e->name, at[j], end - at[j]);
			if (ret)
				return ret;
		}
	}
	return 0;
}

static int finish_relocs(struct cbench_kimage_loader *ld)
{
	struct cbench_kimage *image = ld->image;
	enum cbench_check check;
	uint32_t bad = 0;

	qsort(image->relocs, image->nrelocs, sizeof(*image->relocs), cbench_kimage_compare_u64);
	if (image->nrelocs > CBENCH_RELOCS_MAX)
		return cbench_kimage_refuse(ld, "has %u relocations; cbench.ko takes at most %u: "
			      "use fewer pointers in initialized data", image->nrelocs,
			      CBENCH_RELOCS_MAX);
	/* The checks cbench.ko will make, made here first so they fail with a message. */
	check = cbench_text_check(image->image_bytes, image->text, image->ntext, &bad);
	if (check != CBENCH_CHECK_OK)
		return cbench_kimage_refuse(ld, "text range %u: %s", bad, cbench_check_str(check));
	check = cbench_reloc_check(image->bytes, image->image_bytes, image->text, image->ntext,
				   image->relocs, image->nrelocs, &bad);
	if (check != CBENCH_CHECK_OK)
		return cbench_kimage_refuse(ld, "relocation at 0x%llx: %s",
			      (unsigned long long)(image->relocs[bad] + ld->base),
			      cbench_check_str(check));
	return 0;
}

int cbench_kimage_load(const char *path, struct cbench_kimage *image, char *why, size_t why_bytes)
{
	struct cbench_kimage_loader ld = {
		.path = path, .why = why, .why_bytes = why_bytes, .image = image,
	};
	struct cbench_elf e;
	int ret;

	memset(image, 0, sizeof(*image));
	if (why_bytes)
		why[0] = '\0';
	/* The same checks as the loader's, so both say the same of a bad file;
	 * an object that is no ELF at all is one ring 0 cannot take either. */
	ret = cbench_elf_open(&e, path, why, why_bytes);
	if (ret)
		return ret == -ENOEXEC || ret == -EISDIR ? -EINVAL : ret;
	ld.elf = e.elf;
	ld.file = (const uint8_t *)elf_rawfile(ld.elf, &ld.file_bytes);
	ret = -EINVAL;
	if (!ld.file) {
		cbench_kimage_refuse(&ld, "not an ELF file");
		goto out;
	}
	ret = read_segments(&ld);
	if (!ret)
		ret = read_sections(&ld);
	if (!ret)
		ret = finish_relocs(&ld);
	if (!ret)
		ret = cbench_kimage_read_descriptors(&ld);
	if (!ret)
		ret = read_functions(&ld);
out:
	cbench_elf_close(&e);
	if (ret)
		cbench_kimage_free(image);
	return ret;
}

void cbench_kimage_free(struct cbench_kimage *image)
{
	for (uint32_t i = 0; i < image->nfuncs; i++)
		free(image->funcs[i].name);
	free(image->funcs);
	free(image->bytes);
	free(image->relocs);
	free(image->entries);
	memset(image, 0, sizeof(*image));
}

const struct cbench_kimage_entry *cbench_kimage_find(const struct cbench_kimage *image,
						     const char *name)
{
	for (uint32_t i = 0; i < image->nentries; i++) {
		if (!strcmp(image->entries[i].name, name))
			return &image->entries[i];
	}
	return NULL;
}

