/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What kstack's files share (kstack.h is what the rest of cbenchctl sees):
 * the functions as read by kstack.c, which kstack_graph.c places checks on.
 */
#ifndef _CBENCH_OBJECT_KSTACK_PARTS_H
#define _CBENCH_OBJECT_KSTACK_PARTS_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include "object/kstack.h"
#include "object/x86insn.h"

/* A site's target when it calls through a pointer: any taken function. */
#define KSTACK_INDIRECT UINT32_MAX

/*
 * The red zone below %rsp that code built without -mno-red-zone uses
 * without moving %rsp: counted below every function's deepest point.
 */
#define KSTACK_RED_ZONE 128

/* Depths past this are as good as infinite (and cannot overflow a sum). */
#define KSTACK_INFINITE (1ULL << 40)

/* The stack at an instruction: depths in bytes below the function's entry
 * %rsp (its return address), lo to hi where an and aligned it; bp the
 * depth %rbp points at, if bp_known. */
struct kstack_state {
	int64_t lo, hi, bp;
	bool bp_known;
};

/*
 * What insn does to the stack, calls and returns aside (kstack_insn.c):
 * 0 with *st after it, or 1 if it writes %rsp in a way we do not follow,
 * with why (a phrase: "has a stack frame of run-time size ...").
 */
int cbench_kstack_effect(const struct cbench_x86_insn *insn, struct kstack_state *st, char *why,
			 size_t why_bytes);

/*
 * The probe loop -fstack-clash-protection makes of a large frame (Ubuntu's
 * compilers by default): lea -N(%rsp), %reg; 1: sub $4096, %rsp;
 * or $0, (%rsp); cmp %reg, %rsp; jne 1b, N a multiple of 4096, at code:
 * its bytes, with N in *frame (the loop leaves %rsp exactly N lower), or
 * 0 if the code is not one (kstack_insn.c).
 */
size_t cbench_kstack_probe_loop(const uint8_t *code, size_t bytes, int64_t *frame);

/* A call or jump out of a function. */
struct cbench_kstack_site {
	uint64_t at;			/* the instruction's offset */
	uint64_t depth;			/* the stack below the function's entry there */
	uint64_t slot;			/* through this GOT slot, else 0 */
	uint32_t target;		/* the function, or KSTACK_INDIRECT */
	bool call;			/* a call (pushes its return address), else a tail jump */
};

struct cbench_kstack_fn {
	uint64_t at;			/* its entry, an image offset */
	uint64_t sym_lo, sym_hi;	/* its symbol's bytes; sym_hi 0: no symbol starts at it */
	char name[64];			/* the symbol's, "" without */
	uint64_t frame;			/* the deepest its own code goes, red zone included */
	struct cbench_kstack_site *sites;
	uint32_t nsites, site_room;
	bool returns;			/* some path of it returns */
	bool entry;			/* a benchmark's setup(), run() or hook */
	bool taken;			/* a call through a pointer may reach it */
	bool failed;			/* its stack cannot be followed: why */
	char why[300];
	/* kstack_graph.c's */
	bool checked;
	enum cbench_kstack_reason reason;	/* why, if checked */
	bool patchable;			/* a check fits at its entry */
	uint32_t patch_skip;		/* its endbr64's bytes, kept before the jump: 4 or 0 */
	uint32_t patch_bytes;		/* the instructions the jump to its stub replaces */
	uint64_t deepest;		/* from its entry to the next check or its end */
	uint32_t check;			/* its check's index, if checked */
	int32_t scc, low, order;	/* Tarjan's */
	bool on_stack;
	uint32_t parent;		/* a path to it, for messages */
};

/* The whole program's code as kstack.c read it, for kstack_graph.c. */
int cbench_kstack_read(const struct cbench_kimage *image, struct cbench_kstack *ks, uint64_t **targets,
		       uint32_t *ntargets);

/* Checks placed on ks's functions (kstack_graph.c). */
int cbench_kstack_place(struct cbench_kstack *ks, const struct cbench_kimage *image,
			const uint64_t *targets, uint32_t ntargets);

/* A function's name for messages: its symbol's, or "the function at 0x...". */
const char *cbench_kstack_name(const struct cbench_kstack *ks, const struct cbench_kstack_fn *fn,
			       char *buf, size_t bytes);

/*
 * How many bytes of instructions from offset at (a function's entry, past
 * its endbr64) can move to a stub: at least 5 (a jump's), whole
 * instructions, none a branch target past the first, none a call or a
 * branch the stub could not re-encode; 0 if none can.
 */
uint32_t cbench_kstack_movable(const struct cbench_kimage *image, uint64_t at, const uint64_t *targets,
			       uint32_t ntargets);

/* Whether the image's code has endbr64 at offset at. */
bool cbench_kstack_endbr(const struct cbench_kimage *image, uint64_t at);

#endif /* _CBENCH_OBJECT_KSTACK_PARTS_H */
