/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Code layout: a benchmark object's code moved to drawn offsets, so that
 * where code lies (cache lines, pages, the front end's windows, which
 * branches alias) becomes variance an audit sees instead of a bias fixed
 * per side (docs/placement.md; Curtsinger and Berger, STABILIZER).
 *
 * What moves is found in the object's file: its functions (.symtab) and the
 * relocations the linker kept for its code (-Wl,-q, --emit-relocs).  Every
 * PC-relative field of the code is found by decoding it (x86insn.h); one
 * whose target lies outside its own function must carry a relocation, the
 * linker's word that it refers elsewhere, or the functions cannot move
 * apart (code built without -ffunction-sections: calls between functions
 * of one section were resolved by the assembler).  Then the code sections
 * move as wholes, and where even that cannot be proved safe, nothing does.
 *
 * The moved copy is what runs; the object's data, GOT and PLT stay where
 * they were loaded, reached from the copy through patched displacements.
 * References from data into the code (function pointers, jump tables)
 * still reach the code where it was loaded, which stays there and works.
 */
#ifndef _CBENCH_LAYOUT_H
#define _CBENCH_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

/* How an object's code can move. */
enum cbench_layout_mode {
	CBENCH_LAYOUT_NONE,		/* not at all: why says why */
	CBENCH_LAYOUT_SECTIONS,		/* each code section as a whole */
	CBENCH_LAYOUT_FUNCTIONS,	/* each function on its own */
};

/* The build that lets every function move on its own, for messages. */
#define CBENCH_LAYOUT_FIX "build it with -ffunction-sections and link it with -Wl,-q (--emit-relocs)"

/* Padding drawn before each unit, below this many bytes (a cache line). */
#define CBENCH_LAYOUT_PAD_BYTES 64
/* Alignments above a page are kept by not moving the unit at all. */
#define CBENCH_LAYOUT_ALIGN_MAX 4096
/* Most functions (units) one object may have, and fields to patch. */
#define CBENCH_LAYOUT_UNITS_MAX 65536
#define CBENCH_LAYOUT_FIXUPS_MAX (1u << 22)

/* Code that moves as one: a function, or a whole section. */
struct cbench_layout_unit {
	uint64_t addr;			/* the object's address of its first byte */
	uint64_t bytes;
	uint32_t align;			/* it moves by multiples of this */
	char name[48];			/* its (first) function's, for reports */
};

/* A displacement in a unit whose target lies outside it. */
struct cbench_layout_fixup {
	uint64_t at;			/* the object's address of the 4-byte field */
	uint64_t end;			/* of the instruction's end, which it counts from */
	uint64_t target;		/* the address it reaches in the object */
	uint32_t unit;			/* the unit holding it */
	uint32_t target_unit;		/* the unit it reaches, or CBENCH_LAYOUT_STAYS */
	uint32_t stub;			/* the stub it reaches instead, or CBENCH_LAYOUT_STAYS */
};

/*
 * A way into a moved function for code that reached it through the PLT or
 * the GOT (a function the object exports is called through its PLT entry):
 * a copy of the entry, its GOT displacement led to a slot of its own that
 * holds the moved function's address; or for a GOT load, the slot alone.
 * The code keeps its instructions, indirect jump included.
 */
struct cbench_layout_stub {
	uint64_t fn;			/* the function's address in the object */
	uint64_t plt;			/* the PLT entry copied; 0 for a bare slot */
	uint32_t bytes;			/* the entry's bytes copied, up to its jump */
	uint32_t field, field_end;	/* the jump's displacement and end, in it */
};
#define CBENCH_LAYOUT_STAYS UINT32_MAX

struct cbench_layout {
	enum cbench_layout_mode mode;
	/* NONE: why the code cannot move; SECTIONS: why functions cannot move
	 * apart; "" for FUNCTIONS.  Ends with what to build with. */
	char why[400];
	struct cbench_layout_unit *units;	/* by address */
	uint32_t nunits;
	struct cbench_layout_fixup *fixups;
	uint32_t nfixups;
	struct cbench_layout_stub *stubs;
	uint32_t nstubs;
	uint64_t region_bytes;		/* the most any drawn layout spans */
	/* FNV-1a of the bytes that move (units, then stubs' entries) as the
	 * file has them: the loaded object must hold the same. */
	uint64_t code_hash;
	/* References from data to moved code (function pointers, jump
	 * tables): they reach the code where it was loaded. */
	uint32_t data_refs;
};

/*
 * Reads the object at path and finds what of its code can move.  Returns 0
 * (mode NONE with a reason for an object whose code cannot move), or -errno
 * with a sentence in err for a file that cannot be read as an object.
 */
int cbench_layout_scan(const char *path, struct cbench_layout *lay, char *err, size_t errlen);
void cbench_layout_free(struct cbench_layout *lay);

/* "14 functions, each by its own alignment" and the like, into buf. */
void cbench_layout_describe(const struct cbench_layout *lay, char *buf, size_t len);

/* A number drawn uniformly from 0 .. n - 1 (0 for n 0). */
typedef uint64_t (*cbench_layout_draw_fn)(void *arg, uint64_t n);

/* Offsets a layout has: one per unit, then one per stub. */
static inline uint32_t cbench_layout_slots(const struct cbench_layout *lay)
{
	return lay->nunits + lay->nstubs;
}

/*
 * Draws a layout: the units in a drawn order, each at a multiple of its
 * alignment past a drawn padding (under CBENCH_LAYOUT_PAD_BYTES), the first
 * a drawn number of bytes into the region's first page, then the stubs.
 * offsets (cbench_layout_slots() of them) gets each one's offset from the
 * region's (page-aligned) start, *bytes what the layout spans (at most
 * region_bytes).  Returns 0 or -ENOMEM.
 */
int cbench_layout_draw(const struct cbench_layout *lay, cbench_layout_draw_fn draw, void *arg,
		       uint64_t *offsets, uint64_t *bytes);

/*
 * Lays the code out in dst (dst_bytes, to run at address dst_addr) as
 * offsets say: each unit's bytes from src (src[i] is the object's byte at
 * address src_addr + i; the code as loaded), the gaps filled with int3, and
 * every fixup's displacement patched to reach its target: a moved unit's
 * new place, or what stays at the object's address plus bias (where it was
 * loaded).  Returns 0, or -ERANGE with a sentence in why where a
 * displacement cannot reach (dst too far from the object) or dst is short.
 */
int cbench_layout_apply(const struct cbench_layout *lay, const uint64_t *offsets, const uint8_t *src,
			uint64_t src_addr, uint64_t bias, uint8_t *dst, uint64_t dst_bytes,
			uint64_t dst_addr, char *why, size_t why_bytes);

/* Where the object's address addr runs in a layout laid out at dst_addr;
 * 0 where it does not move (no unit holds it). */
uint64_t cbench_layout_where(const struct cbench_layout *lay, const uint64_t *offsets,
			     uint64_t dst_addr, uint64_t addr);

/* cbench_layout_scan()'s code_hash over the code as src holds it (src[i]
 * is the object's byte at src_addr + i), to check it is the code scanned. */
uint64_t cbench_layout_hash(const struct cbench_layout *lay, const uint8_t *src, uint64_t src_addr);

/* The least address of the object a layout copies from (apply()'s src_addr
 * may be no more). */
uint64_t cbench_layout_lowest(const struct cbench_layout *lay);

/* The unit holding the object's address addr, or CBENCH_LAYOUT_STAYS. */
uint32_t cbench_layout_unit_of(const struct cbench_layout *lay, uint64_t addr);

#endif /* _CBENCH_LAYOUT_H */
