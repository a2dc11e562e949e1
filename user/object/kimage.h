/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kimage: a benchmark's shared object turned into an image cbench.ko can run.
 *
 * The image is the object's PT_LOAD segments laid out from offset 0 as they
 * map (the lowest segment's page at 0), with every dynamic relocation reduced
 * to an R_X86_64_RELATIVE slot that already holds its image-relative target.
 * Anything that cannot work in ring 0 is refused with a message naming the
 * symbol or relocation and the compiler flags that fix it.
 */
#ifndef _CBENCH_KIMAGE_H
#define _CBENCH_KIMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cbench.h>
#include <uapi/linux/cbench.h>

/* Largest image kimage builds; cbench.ko has its own, usually smaller, limit. */
#define CBENCH_KIMAGE_MAX_BYTES (256u << 20)

/* Parameter values kept per entry (the descriptor may have more). */
#define CBENCH_KIMAGE_PARAMS 8

/* One registered benchmark's entry points, as image offsets. */
struct cbench_kimage_entry {
	char name[CBENCH_NAME_MAX];
	uint64_t run;
	uint64_t setup;		/* valid if has_setup */
	bool has_setup;
	/* Per-rep hooks (ABI 2), valid if has_*. */
	uint64_t before_rep;
	uint64_t after_rep;
	bool has_before_rep;
	bool has_after_rep;
	uint32_t flags;		/* the descriptor's CBENCH_F_* */
	uint64_t arena_bytes;	/* the descriptor's arena */
	uint64_t desc_at;	/* the descriptor's image offset and size */
	uint32_t desc_bytes;
	uint32_t nparams;	/* parameter values; params[] holds the first few */
	int64_t params[CBENCH_KIMAGE_PARAMS];
};

/* A function of the object's code, for cbench_kimage_check_code(). */
struct cbench_kimage_func {
	char *name;			/* the symbol's, or the entry point's benchmark */
	uint64_t offset;		/* in the image */
	uint64_t bytes;			/* its size; to its text range's end if unknown */
};

struct cbench_kimage {
	uint8_t *bytes;			/* image_bytes of image, zero-filled */
	uint64_t image_bytes;		/* a multiple of the page size */
	uint64_t base;			/* the object's address of offset 0 */
	struct cbench_range text[CBENCH_TEXT_MAX];	/* executable pages */
	uint32_t ntext;
	uint64_t *relocs;		/* RELATIVE slot offsets, increasing */
	uint32_t nrelocs;
	struct cbench_kimage_entry *entries;	/* in cbench_descs order */
	uint32_t nentries;
	/* The cbench_descs section (pointers to the descriptors), in the
	 * image as built; 0 bytes in one laid out anew. */
	uint64_t descs_offset, descs_bytes;
	/* Its functions: .symtab's (.dynsym's if stripped), and any entry
	 * point no symbol covers. */
	struct cbench_kimage_func *funcs;
	uint32_t nfuncs;
};

/*
 * Builds *image from the shared object at path.  Returns 0, or -errno with a
 * one-line reason in why (why_bytes long): -EINVAL for an object that cannot
 * run in ring 0, other values for I/O and memory errors.
 */
int cbench_kimage_load(const char *path, struct cbench_kimage *image, char *why, size_t why_bytes);

/*
 * Walks every instruction of image's functions and refuses one that must
 * not run in ring 0 although the user-mode rehearsal may never meet it: a
 * system instruction (syscall, wrmsr, a move to a control register, ...),
 * int n, the two-byte int $3, int1 (object/x86insn.c).  Returns 0, or
 * -EINVAL with a one-line reason naming the function, the address in the
 * object at path and the instruction.  The kmod backend checks every object
 * so; a raw client may skip it, and cbench.ko's safety net is then all
 * there is.
 */
int cbench_kimage_check_code(const struct cbench_kimage *image, const char *path, char *why,
			     size_t why_bytes);

/* Frees what cbench_kimage_load() allocated; *image may be zeroed. */
void cbench_kimage_free(struct cbench_kimage *image);

/* The entry named name, or NULL. */
const struct cbench_kimage_entry *cbench_kimage_find(const struct cbench_kimage *image,
						     const char *name);

/* Flags that build a kernel-safe benchmark, for messages. */
#define CBENCH_KIMAGE_FIX "build it with $(pkg-config --cflags --libs cbench-kernel)"

#endif /* _CBENCH_KIMAGE_H */
