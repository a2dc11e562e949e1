// SPDX-License-Identifier: GPL-2.0
/* XML text for the JUnit reports; see xml.h. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "report/utf8.h"
#include "report/xml.h"

#define REPLACEMENT "\xef\xbf\xbd"	/* U+FFFD, in UTF-8 */

/* The code point of the valid UTF-8 sequence of len bytes at p. */
static unsigned long code_point(const unsigned char *p, size_t len)
{
	static const unsigned char lead_mask[5] = { 0, 0x7f, 0x1f, 0x0f, 0x07 };
	unsigned long c = p[0] & lead_mask[len];

	for (size_t i = 1; i < len; i++)
		c = c << 6 | (p[i] & 0x3f);
	return c;
}

/* Whether XML 1.0 allows the character (its Char production). */
static bool xml_char(unsigned long c)
{
	return c == 0x9 || c == 0xa || c == 0xd || (c >= 0x20 && c <= 0xd7ff) ||
	       (c >= 0xe000 && c <= 0xfffd) || (c >= 0x10000 && c <= 0x10ffff);
}

/*
 * s as XML character data, or as an attribute's value (attr: then a tab or
 * a line break is written as a character reference, which an attribute's
 * normalization would otherwise turn into a space).
 */
void cbench_xml_text(FILE *f, const char *s, bool attr)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	while (*p) {
		size_t len = cbench_utf8_seq(p);

		if (!len || !xml_char(code_point(p, len))) {
			fputs(REPLACEMENT, f);
			p += len ? len : 1;
			continue;
		}
		switch (*p) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs(attr ? "&quot;" : "\"", f); break;
		case '\'': fputs(attr ? "&apos;" : "'", f); break;
		case '\t': fputs(attr ? "&#9;" : "\t", f); break;
		case '\n': fputs(attr ? "&#10;" : "\n", f); break;
		case '\r': fputs("&#13;", f); break;
		default: fwrite(p, 1, len, f); break;
		}
		p += len;
	}
}

/* ` key="value"`, the value escaped. */
void cbench_xml_attr(FILE *f, const char *key, const char *value)
{
	fprintf(f, " %s=\"", key);
	cbench_xml_text(f, value, true);
	fputc('"', f);
}

/* The fewest digits that read back as the same double (as the JSON report). */
const char *cbench_xml_number(double v, char *buf, size_t len)
{
	for (int digits = 15; digits <= 17; digits++) {
		snprintf(buf, len, "%.*g", digits, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	return buf;
}


void cbench_xml_property(FILE *f, const char *indent, const char *name, const char *value)
{
	fprintf(f, "%s<property", indent);
	cbench_xml_attr(f, "name", name);
	cbench_xml_attr(f, "value", value);
	fputs("/>\n", f);
}

void cbench_xml_figure(FILE *f, const char *indent, const char *name, double v)
{
	char buf[40];

	if (isfinite(v))
		cbench_xml_property(f, indent, name, cbench_xml_number(v, buf, sizeof(buf)));
}
