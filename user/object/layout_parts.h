/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the code layout's files share (layout.h is what the rest of
 * cbenchctl sees): an object's code as read and decoded (layout_scan.c),
 * from which layout.c makes the units that move.
 */
#ifndef _CBENCH_OBJECT_LAYOUT_PARTS_H
#define _CBENCH_OBJECT_LAYOUT_PARTS_H

#include <gelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "object/layout.h"

/* A section of the object, as far as layouts care. */
struct cbench_scan_sec {
	uint64_t addr, bytes, align;
	const uint8_t *data;		/* its bytes in the file; NULL for NOBITS */
	bool code;			/* code that may move */
	bool alloc;
	char name[32];
};

/* A function: the object's symbol, or several overlapping merged. */
struct cbench_scan_func {
	uint64_t addr, bytes;
	uint32_t sec;
	bool runs_on;			/* its last instruction may fall through */
	char name[48];
};

/* A kept PC-relative relocation of code. */
struct cbench_scan_reloc {
	uint64_t at;			/* first: by_u64 sorts and finds by it */
	uint64_t fn;			/* its symbol, if a function of moving code; else 0 */
	uint32_t type;
};

/* A decoded PC-relative field. */
struct cbench_scan_site {
	uint64_t at, end, target;
	uint8_t bytes;
	uint32_t func;
};

struct cbench_scan {
	const char *path;
	Elf *elf;
	struct cbench_scan_sec *secs;
	size_t nsecs;
	size_t symtab;			/* its section index; 0 for none */
	struct cbench_scan_func *funcs;
	size_t nfuncs;
	struct cbench_scan_reloc *relocs;		/* PC-relative relocations in code, by offset */
	size_t nrelocs;
	struct cbench_scan_site *sites;		/* by at */
	size_t nsites;
	bool kept_relocs;		/* any non-allocated RELA: -Wl,-q */
};

/* lay's mode, and why, in words. */
void cbench_layout_set_why(struct cbench_layout *lay, enum cbench_layout_mode mode, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The object's sections, its functions of movable code (by address,
 * overlapping ones merged), its kept PC-relative relocations of code, and
 * every function decoded into sites; each 0, -errno, or 1 with why in lay
 * where nothing can move. */
int cbench_scan_sections(struct cbench_scan *s, char *err, size_t errlen);
int cbench_scan_functions(struct cbench_scan *s);
int cbench_scan_relocs(struct cbench_scan *s, struct cbench_layout *lay);
int cbench_scan_decode(struct cbench_scan *s, struct cbench_layout *lay);
/* Every kept relocation on a decoded field; 1 with why in lay if not. */
int cbench_scan_check_relocs(const struct cbench_scan *s, struct cbench_layout *lay);

/* The function holding addr, or -1 (functions are by address, apart). */
long cbench_scan_func_of(const struct cbench_scan *s, uint64_t addr);
/* The kept relocation at at, or NULL. */
const struct cbench_scan_reloc *cbench_scan_reloc_at(const struct cbench_scan *s, uint64_t at);
/* The field's value, sign-extended from its bytes. */
int64_t cbench_scan_field_value(const uint8_t *p, uint8_t bytes);

#endif /* _CBENCH_OBJECT_LAYOUT_PARTS_H */
