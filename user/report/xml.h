/* SPDX-License-Identifier: GPL-2.0 */
/*
 * XML text, for the JUnit reports (report_junit.c: run's; report_compare.c:
 * compare's).  Every name, reason and path is bytes we do not control: text
 * is escaped for XML, and what XML 1.0 cannot hold at all (control
 * characters, bytes that are not UTF-8, U+FFFE and U+FFFF) becomes U+FFFD.
 */
#ifndef _CBENCH_XML_H
#define _CBENCH_XML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* s as character data, or as an attribute's value (attr: a tab or a line
 * break then as a character reference, which an attribute's normalization
 * would otherwise turn into a space). */
void cbench_xml_text(FILE *f, const char *s, bool attr);

/* ` key="value"`, the value escaped. */
void cbench_xml_attr(FILE *f, const char *key, const char *value);

/* The fewest digits that read back as the same double, into buf. */
const char *cbench_xml_number(double v, char *buf, size_t len);

/* A JUnit <property/> at indent; a figure's only where it is known (a
 * NAN or an infinity is none, never a 0). */
void cbench_xml_property(FILE *f, const char *indent, const char *name, const char *value);
void cbench_xml_figure(FILE *f, const char *indent, const char *name, double v);

#endif /* _CBENCH_XML_H */
