/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kstack: how deep a kernel image's code can go on cbench.ko's benchmark
 * stack, and the checks that end a call before it runs out.
 *
 * A stack overflow in ring 0 is a double fault: the CPU cannot push the
 * page fault's frame on the stack that overflowed, and the kernel's
 * double-fault handler panics whatever its notifiers say.  So it must
 * never happen, whatever the code does in ring 0 that it did not do in the
 * user-mode rehearsal (recurse deeper because a parameter, a table, a
 * pointer in the arena or the privilege level differs there).
 *
 * We read the image's code (kstack.c): every function's frame, followed
 * instruction by instruction from its entry, and its calls, direct, through
 * the GOT, or through pointers (each of which may reach any function whose
 * address the image takes).  Where the calls form no cycle, the deepest
 * path is a number, and it fits ring 0's stack or the function that makes
 * it too deep is checked.  Where they form cycles (recursion, direct,
 * mutual or through pointers), some function on each cycle is checked
 * (kstack_graph.c).  A check is a few instructions at the function's
 * entry, in a stub the entry jumps to (kstack_patch.c): cbench.ko's stack
 * is a power of two in size and aligned to it, so %rsp's low bits say how
 * much of it is left; with less than the check asks for, the stub executes
 * ud2, which cbench.ko's safety net ends like any #UD in benchmark code,
 * with the stack still deep enough for the kernel to handle it.  Each
 * check asks for what its function may use before the next check, plus
 * what the kernel needs to take an exception or interrupt there.
 *
 * Code whose stack we cannot follow (a frame of run-time size, the stack
 * pointer set from a register, a jump through a pointer inside a function)
 * is refused for ring 0, naming it, where a benchmark can reach it.
 */
#ifndef _CBENCH_KSTACK_H
#define _CBENCH_KSTACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "object/kimage.h"

/* What ring 0 gives benchmark code (cbench.ko's INFO). */
struct cbench_kstack_limits {
	uint64_t stack_bytes;		/* the benchmark stack; a power of two */
	uint64_t reserve_bytes;		/* what the kernel may need of it at any point */
	bool aligned;			/* the stack is aligned to its size: checks work */
};

/* Why a function is checked. */
enum cbench_kstack_reason {
	CBENCH_KSTACK_CYCLE,		/* it is on a cycle of calls */
	CBENCH_KSTACK_DEEP,		/* its deepest path alone needs more than ring 0 has */
};

/* A check at a function's entry. */
struct cbench_kstack_check {
	uint64_t at;			/* the function's entry, an image offset */
	uint64_t patch_at;		/* where the jump to its stub goes (after endbr64) */
	uint32_t patch_bytes;		/* the instructions the stub runs instead */
	uint64_t need_bytes;		/* what may be used before the next check, the reserve included */
	uint32_t log2;			/* it asks for 2^log2 bytes left; the stack's: it always traps */
	enum cbench_kstack_reason reason;
	char name[64];			/* the function's */
	char path[200];			/* the cycle, "f -> g -> f", or the deepest path */
};

/* Why code a benchmark reaches cannot run in ring 0. */
struct cbench_kstack_refusal {
	uint64_t at;			/* the function's entry */
	char why[400];			/* the sentence, with the instruction's offset */
};

struct cbench_kstack_fn;

struct cbench_kstack {
	struct cbench_kstack_limits limits;
	struct cbench_kstack_check *checks;	/* by entry offset */
	uint32_t nchecks;
	/* The analysis, for verdicts (kstack_parts.h). */
	struct cbench_kstack_fn *fns;
	uint32_t nfns;
	uint64_t *taken;		/* functions a call through a pointer may reach, by offset */
	uint32_t ntaken;
	uint64_t base;			/* the object's address of offset 0, for messages */
};

/*
 * Reads image's code and places the checks limits call for into *ks.
 * Returns 0, or -errno for a failure to analyse at all (memory); code
 * that cannot be bounded is reported per benchmark by
 * cbench_kstack_verdict().
 */
int cbench_kstack_analyze(const struct cbench_kimage *image, const struct cbench_kstack_limits *limits,
			  struct cbench_kstack *ks);

/*
 * Whether entry's calls can run in ring 0 as ks has them checked: 0, or
 * -EINVAL with why (naming the path from the entry, the function, the
 * instruction at its offset in the object at path, and what to do).
 * *checks gets how many checks its calls can reach, *first (if not NULL)
 * the first of them or NULL.
 */
int cbench_kstack_verdict(const struct cbench_kstack *ks, const struct cbench_kimage_entry *entry,
			  const char *path, uint32_t *checks, const struct cbench_kstack_check **first,
			  char *why, size_t why_bytes);

void cbench_kstack_free(struct cbench_kstack *ks);

/* The checks as placed in one image (as built, or laid out anew). */
struct cbench_kstack_stubs {
	uint64_t region;		/* the stubs' first byte, an image offset */
	uint64_t region_bytes;
	uint64_t *stub;			/* each stub's offset */
	uint64_t *from;			/* where the jump to it is */
	uint32_t *check;		/* the check (index in ks->checks) it belongs to */
	uint32_t nstubs;
	/* Direct calls and jumps (rel32) to a checked entry, led to its stub
	 * instead: one taken jump less a call. */
	uint64_t *led;			/* each one's offset */
	uint32_t *led_to;		/* the stub (index in stub[]) it now reaches */
	uint32_t nled;
};

/*
 * Where an offset of the image as built runs in the image being patched:
 * kimage_layout's moved offset for a laid-out image, whose code as built
 * stays where it was too (both copies are checked).
 */
typedef uint64_t (*cbench_kstack_where_fn)(void *arg, uint64_t offset);

/*
 * in with every check of ks placed into *out: each checked function's
 * entry jumps to a stub in a region appended to the image, which checks
 * %rsp, runs the instructions the jump replaced and jumps back; direct
 * calls and jumps to the entry go to the stub itself.  where
 * NULL: in is the image as built.  Checked (cbench_kstack_patch_check())
 * before it returns.  Returns 0, or -errno with why; *out is a copy of in
 * if ks has no checks.
 */
int cbench_kstack_patch(const struct cbench_kstack *ks, const struct cbench_kimage *in,
			cbench_kstack_where_fn where, void *arg, struct cbench_kimage *out,
			struct cbench_kstack_stubs *stubs, char *why, size_t why_bytes);

/*
 * Whether out is in with ks's checks and nothing else: in's bytes but at
 * the jumps (and the int3 after each), every stub the check, the
 * instructions replaced (branches and RIP-relative operands reaching
 * what they reached) and the jump back.  0, or -EINVAL with why.
 */
int cbench_kstack_patch_check(const struct cbench_kstack *ks, const struct cbench_kimage *in,
			      const struct cbench_kimage *out, const struct cbench_kstack_stubs *stubs,
			      char *why, size_t why_bytes);

/* The check whose stub holds image offset offset of the patched image, or NULL. */
const struct cbench_kstack_check *cbench_kstack_stub_at(const struct cbench_kstack *ks,
							 const struct cbench_kstack_stubs *stubs,
							 uint64_t offset);

void cbench_kstack_stubs_free(struct cbench_kstack_stubs *stubs);

/* The bytes a check at entry needs left for a function using need_bytes:
 * log2 of the power of two, or log2(stack) if more than half (always traps). */
uint32_t cbench_kstack_log2(const struct cbench_kstack_limits *limits, uint64_t need_bytes);

#endif /* _CBENCH_KSTACK_H */
