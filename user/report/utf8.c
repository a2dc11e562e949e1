// SPDX-License-Identifier: GPL-2.0
/* UTF-8 for reports; see utf8.h. */
#include <stdio.h>
#include <string.h>

#include "report/utf8.h"

size_t cbench_utf8_seq(const unsigned char *p)
{
	unsigned int cp, min;
	size_t n;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2, cp = p[0] & 0x1f, min = 0x80;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3, cp = p[0] & 0x0f, min = 0x800;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, cp = p[0] & 0x07, min = 0x10000;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		/* A NUL ends the string before a continuation could. */
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	/* Overlong forms, UTF-16 surrogates and past U+10FFFF are not UTF-8. */
	if (cp < min || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

const char *cbench_utf8_text(const char *s, char *buf, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t at = 0;

	while (*p && cbench_utf8_seq(p))
		p += cbench_utf8_seq(p);
	if (!*p || !len)
		return s;
	for (p = (const unsigned char *)s; *p && at + 5 <= len;) {
		size_t n = cbench_utf8_seq(p);

		if (n) {
			if (at + n >= len)
				break;
			memcpy(buf + at, p, n);
			at += n;
			p += n;
		} else {
			at += (size_t)snprintf(buf + at, len - at, "\\x%02x", *p++);
		}
	}
	buf[at < len ? at : len - 1] = '\0';
	return buf;
}
