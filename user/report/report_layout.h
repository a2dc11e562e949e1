/* SPDX-License-Identifier: GPL-2.0 */
/* `cbenchctl layout`: what the runner (cmd/layout.c) hands its reports (report_layout.c). */
#ifndef _CBENCH_REPORT_LAYOUT_H
#define _CBENCH_REPORT_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "backend/types.h"
#include "object/layout.h"
#include "stats/layouts.h"

/* One benchmark at its layouts. */
struct cbench_layout_result {
	const struct cbench_experiment *exp;
	uint64_t n;				/* reps per measurement */
	int error;				/* 0, or -errno: it failed */
	char reason[640];
	/* Each layout's figure (the lower quartile of its timings, ns per
	 * op; NAN without) and its run function's offset in its region:
	 * index 0 as loaded, then the drawn layouts.  malloc'd. */
	double *q;
	uint64_t *run_offsets;
	size_t nlayouts;
	struct cbench_layouts stats;
	/* Its spread beyond the timer and the noise: it is layout-sensitive
	 * (report.h's CBENCH_UNSTABLE_SD and CBENCH_PLACEMENT_SHARE_MIN). */
	bool sensitive;
};

struct cbench_machine;

struct cbench_layout_report {
	const char *path;
	uint64_t seed;
	uint32_t layouts;			/* drawn, per benchmark */
	double confidence;
	char moves[600];			/* cbench_layout_describe()'s */
	/* Where it measured: "user", or "kmod" (each layout's image laid
	 * out anew before its upload, object/kimage_layout.h). */
	const char *backend;
	const struct cbench_machine *machine;	/* where it ran; NULL: not said */
	/* The object's layout (object/layout.h), to replay a layout's
	 * offsets in the JSON report; NULL: they are left out. */
	const struct cbench_layout *lay;
	struct cbench_timer timer;
	struct cbench_layout_result *results;
	size_t nresults;
};

/* Whether r's spread makes it layout-sensitive. */
bool cbench_layout_sensitive(const struct cbench_layouts *s);

/* The three formats; each returns 0 or -EIO (the stream's error). */
int cbench_layout_report_text(const struct cbench_layout_report *r, FILE *f);
int cbench_layout_report_json(const struct cbench_layout_report *r, FILE *f);
int cbench_layout_report_html(const struct cbench_layout_report *r, FILE *f);

#endif /* _CBENCH_REPORT_LAYOUT_H */
