/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's files (procfs, sysfs, /run, /lib/modules) as `doctor` and
 * `lab` read and write them: every path goes through one root prefix, taken
 * from $CBENCH_SYSROOT (or a subcommand's hidden --root), so tests can run
 * both against a fake tree of plain files instead of the real machine.
 */
#ifndef _CBENCH_SYSROOT_H
#define _CBENCH_SYSROOT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* "" for the real root; set from $CBENCH_SYSROOT unless set explicitly. */
const char *cbench_sysroot_get(void);
void cbench_sysroot_set(const char *root);
/* True when the files are the real machine's (no prefix). */
bool cbench_sysroot_is_real(void);

/* root + path into buf; -ENAMETOOLONG if it does not fit. */
int cbench_sysroot_path(char *buf, size_t size, const char *path);

/*
 * Reads the whole file (at most size - 1 bytes, NUL-terminated); returns the
 * number of bytes or -errno (-ENOENT: absent, -EFBIG: larger than buf).
 */
ssize_t cbench_sysroot_read(const char *path, char *buf, size_t size);
/* Like cbench_sysroot_read(), without the trailing newline. */
ssize_t cbench_sysroot_read_line(const char *path, char *buf, size_t size);
/* Reads one integer; -errno if absent or not a number. */
int cbench_sysroot_read_long(const char *path, long *value);
/*
 * The selected word of a sysfs choice file ("always [madvise] never" gives
 * "madvise"), or the whole line if none is marked; -errno if absent.
 */
int cbench_sysroot_read_choice(const char *path, char *buf, size_t size);
/*
 * Writes len bytes in one write() and checks close(): sysfs reports a
 * refused value on either.  0 or -errno.
 */
int cbench_sysroot_write(const char *path, const char *buf, size_t len);
bool cbench_sysroot_exists(const char *path);
/* The pid of a process whose comm is name (/proc/<pid>/comm), 0 if none. */
long cbench_sysroot_find_process(const char *name);

/*
 * A CPU list ("0-3,8,10-11") parsed into a bitmap of nbits; -EINVAL if
 * malformed or past nbits.  Bits are cleared first.
 */
int cbench_cpulist_parse(const char *s, unsigned long *bits, unsigned int nbits);
bool cbench_cpulist_has(const char *s, unsigned int cpu);
/* CPU cpu's bit in a set such as cbench_cpulist_parse() fills: whether it
 * is set, and setting it (cpu below CBENCH_MAX_CPUS). */
bool cbench_cpuset_has(const unsigned long *bits, unsigned int cpu);
void cbench_cpuset_add(unsigned long *bits, unsigned int cpu);
/* bits back into the shortest list; "" if empty.  -ENOSPC if too small. */
int cbench_cpulist_format(const unsigned long *bits, unsigned int nbits, char *buf, size_t size);

/* CPUs the bitmaps above can describe. */
#define CBENCH_MAX_CPUS 4096
#define CBENCH_CPU_WORDS (CBENCH_MAX_CPUS / (8 * sizeof(unsigned long)))

#endif /* _CBENCH_SYSROOT_H */
