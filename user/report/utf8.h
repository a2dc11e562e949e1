/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reports are UTF-8, but a path or an argument is whatever bytes it is: a
 * byte that does not belong to a valid UTF-8 sequence is written as the
 * four characters \xNN instead, so the report stays valid and the byte is
 * still told.
 */
#ifndef _CBENCH_UTF8_H
#define _CBENCH_UTF8_H

#include <stddef.h>

/* The length of the valid UTF-8 sequence at p (1 to 4), or 0 if p starts none. */
size_t cbench_utf8_seq(const unsigned char *p);

/* s itself if it is valid UTF-8, else its escaped copy in buf (cut to len). */
const char *cbench_utf8_text(const char *s, char *buf, size_t len);

#endif /* _CBENCH_UTF8_H */
