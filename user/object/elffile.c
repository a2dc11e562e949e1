// SPDX-License-Identifier: GPL-2.0
/* Opening benchmark objects as ELF; see elffile.h. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "object/elffile.h"

/* Whether [offset, offset + count * entry_bytes) lies within size bytes. */
static bool within(uint64_t offset, uint64_t count, uint64_t entry_bytes, uint64_t size)
{
	if (entry_bytes && count > UINT64_MAX / entry_bytes)
		return false;
	return offset <= size && count * entry_bytes <= size - offset;
}

/*
 * The dynamic loader maps the object's segments and reads its headers where
 * the ELF header says they are; in a file cut short, touching a mapped page
 * past its end raises SIGBUS.  So before anything maps it: the program and
 * section headers, every segment's and every section's bytes lie in the file.
 */
static int check_layout(Elf *elf, const GElf_Ehdr *ehdr, uint64_t size, char *why, size_t len)
{
	size_t phnum, shnum;

	if (elf_getphdrnum(elf, &phnum) || elf_getshdrnum(elf, &shnum)) {
		snprintf(why, len, "its header counts are unreadable: %s", elf_errmsg(-1));
		return -ENOEXEC;
	}
	if (!phnum || ehdr->e_phentsize != sizeof(Elf64_Phdr) ||
	    !within(ehdr->e_phoff, phnum, ehdr->e_phentsize, size)) {
		snprintf(why, len, "its program headers (%zu at byte %" PRIu64 ") do not lie in its %" PRIu64
			 " bytes", phnum, (uint64_t)ehdr->e_phoff, size);
		return -ENOEXEC;
	}
	if (shnum && (ehdr->e_shentsize != sizeof(Elf64_Shdr) ||
		      !within(ehdr->e_shoff, shnum, ehdr->e_shentsize, size))) {
		snprintf(why, len, "its section headers (%zu at byte %" PRIu64 ") do not lie in its %" PRIu64
			 " bytes", shnum, (uint64_t)ehdr->e_shoff, size);
		return -ENOEXEC;
	}
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph)) {
			snprintf(why, len, "program header %zu is unreadable: %s", i, elf_errmsg(-1));
			return -ENOEXEC;
		}
		if (!within(ph.p_offset, 1, ph.p_filesz, size)) {
			snprintf(why, len, "segment %zu (bytes %" PRIu64 " to %" PRIu64 ") ends past its %" PRIu64
				 " bytes", i, (uint64_t)ph.p_offset, (uint64_t)ph.p_offset + ph.p_filesz, size);
			return -ENOEXEC;
		}
	}
	for (size_t i = 1; i < shnum; i++) {
		Elf_Scn *scn = elf_getscn(elf, i);
		GElf_Shdr sh;

		if (!scn || !gelf_getshdr(scn, &sh)) {
			snprintf(why, len, "section header %zu is unreadable: %s", i, elf_errmsg(-1));
			return -ENOEXEC;
		}
		if (sh.sh_type != SHT_NOBITS && !within(sh.sh_offset, 1, sh.sh_size, size)) {
			snprintf(why, len, "section %zu (bytes %" PRIu64 " to %" PRIu64 ") ends past its %" PRIu64
				 " bytes", i, (uint64_t)sh.sh_offset, (uint64_t)sh.sh_offset + sh.sh_size, size);
			return -ENOEXEC;
		}
	}
	return 0;
}

const char *cbench_file_kind(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFDIR: return "a directory";
	case S_IFIFO: return "a FIFO";
	case S_IFCHR: return "a character device";
	case S_IFBLK: return "a block device";
	case S_IFSOCK: return "a socket";
	default: return "not a regular file";
	}
}

/* A regular file's descriptor, blocking cleared; -errno after saying why. */
static int open_regular(const char *path, struct stat *st, char *err, size_t errlen)
{
	int fd, ret;

	/* O_NONBLOCK: opening a FIFO would wait for a writer. */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return ret;
	}
	if (fstat(fd, st) || fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		return ret;
	}
	if (!S_ISREG(st->st_mode)) {
		snprintf(err, errlen, "%s is %s, not a shared object", path, cbench_file_kind(st->st_mode));
		close(fd);
		return S_ISDIR(st->st_mode) ? -EISDIR : -EINVAL;
	}
	return fd;
}

int cbench_elf_open(struct cbench_elf *e, const char *path, char *err, size_t errlen)
{
	struct stat st;
	char why[CBENCH_ERR_LEN];

	memset(e, 0, sizeof(*e));
	e->fd = open_regular(path, &st, err, errlen);
	if (e->fd < 0) {
		int ret = e->fd;

		memset(e, 0, sizeof(*e));
		e->fd = -1;
		return ret;
	}
	e->file_bytes = (uint64_t)st.st_size;
	if (elf_version(EV_CURRENT) == EV_NONE) {
		snprintf(err, errlen, "%s: libelf is unusable: %s", path, elf_errmsg(-1));
		goto fail;
	}
	e->elf = elf_begin(e->fd, ELF_C_READ, NULL);
	if (!e->elf || elf_kind(e->elf) != ELF_K_ELF || !gelf_getehdr(e->elf, &e->ehdr)) {
		snprintf(err, errlen, "%s is not an ELF file", path);
		goto fail;
	}
	if (e->ehdr.e_type != ET_DYN || e->ehdr.e_machine != EM_X86_64 ||
	    gelf_getclass(e->elf) != ELFCLASS64) {
		snprintf(err, errlen, "%s is not an x86-64 shared object (build it with -fPIC -shared)",
			 path);
		goto fail;
	}
	if (check_layout(e->elf, &e->ehdr, e->file_bytes, why, sizeof(why))) {
		snprintf(err, errlen, "%s is truncated or malformed: %s", path, why);
		goto fail;
	}
	return 0;
fail:
	cbench_elf_close(e);
	return -ENOEXEC;
}

void cbench_elf_close(struct cbench_elf *e)
{
	if (e->elf)
		elf_end(e->elf);
	if (e->fd >= 0)
		close(e->fd);
	memset(e, 0, sizeof(*e));
	e->fd = -1;
}
