/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Addresses of an object (the benchmark's, or a library it calls) to its
 * functions and source lines.  Functions come from the ELF symbol table:
 * .symtab, else that of a separate debug file (found by build ID or
 * .gnu_debuglink under /usr/lib/debug, or CBENCH_DEBUG_DIR), else .dynsym;
 * PLT stubs are functions called "name@plt".  Lines come from DWARF, through
 * elfutils' libdw.  We read the files; we never load them.  Addresses are
 * the object's own (link-time) virtual addresses: a sampled IP less the
 * load bias.
 */
#ifndef _CBENCH_SYMBOLS_H
#define _CBENCH_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cbench_symbols;

/*
 * Reads path's functions and, with lines, its line table.  Returns 0 or
 * -errno with a sentence for the user in err: -ENOEXEC not an ELF object,
 * -ENOENT with lines when it has no debug information (and how to get it).
 */
int cbench_symbols_open(struct cbench_symbols **out, const char *path, bool lines, char *err,
			size_t errlen);
void cbench_symbols_close(struct cbench_symbols *s);

/* The function containing vaddr, or NULL.  *index (may be NULL) gets a
 * number unique to that function. */
const char *cbench_symbols_function(const struct cbench_symbols *s, uint64_t vaddr, size_t *index);

/* Whether only .dynsym named the functions: the object is stripped and its
 * debug file is not installed, so its static functions have no names. */
bool cbench_symbols_stripped(const struct cbench_symbols *s);

/* The source line of vaddr; 0 with *file NULL where DWARF does not say. */
int cbench_symbols_line(struct cbench_symbols *s, uint64_t vaddr, const char **file);

#endif /* _CBENCH_SYMBOLS_H */
