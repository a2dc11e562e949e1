/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Opening a benchmark object as ELF, once for every reader (the loader's
 * child, kimage, the profiler's symbols): a regular file, refused without
 * blocking if it is anything else, an x86-64 shared object whose headers,
 * segments and sections all lie inside the file.  A file cut short would
 * otherwise kill whoever maps it with SIGBUS.
 */
#ifndef _CBENCH_ELFFILE_H
#define _CBENCH_ELFFILE_H

#include <gelf.h>
#include <stdint.h>
#include <sys/types.h>

struct cbench_elf {
	int fd;
	Elf *elf;
	GElf_Ehdr ehdr;
	uint64_t file_bytes;
};

/*
 * Opens and checks path.  Returns 0, or -errno with a sentence that starts
 * with path in err: -EISDIR, -EINVAL (not a regular file), -ENOEXEC (not an
 * x86-64 shared object, or truncated or malformed), or open's error.
 */
int cbench_elf_open(struct cbench_elf *e, const char *path, char *err, size_t errlen);
void cbench_elf_close(struct cbench_elf *e);

/* "a FIFO", "a directory", ...: what a file of this mode is, for a refusal. */
const char *cbench_file_kind(mode_t mode);

#endif /* _CBENCH_ELFFILE_H */
