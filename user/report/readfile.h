/* SPDX-License-Identifier: GPL-2.0 */
/* A report file read whole, for the commands that read reports back. */
#ifndef _CBENCH_READFILE_H
#define _CBENCH_READFILE_H

#include <stddef.h>

/*
 * Reads the regular file at path, at most max bytes, into a malloc'd
 * buffer ended by a NUL (not counted in *len).  0, or -errno: -EISDIR for
 * a directory, -EFBIG for something else than a regular file or one larger
 * than max.
 */
int cbench_read_file(const char *path, size_t max, char **text, size_t *len);

#endif /* _CBENCH_READFILE_H */
