/* SPDX-License-Identifier: GPL-2.0 */
/* `cbenchctl info`: what the command (cmd/info.c) learnt, for its report (report_info.c). */
#ifndef _CBENCH_REPORT_INFO_H
#define _CBENCH_REPORT_INFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "backend/protocol.h"
#include "machine/probe.h"

#define CBENCH_INFO_NOT_LOADED \
	"cbench.ko is not loaded: load it with `insmod cbench.ko` (as root) " \
	"for ring-0 measurement"

/* The counters perf lends cbench.ko on one CPU now (info --probe). */
struct cbench_info_probe {
	uint32_t cpu;
	uint32_t counters;		/* CBENCH_COUNTER_F_* */
};

struct cbench_info {
	bool loaded;			/* cbench.ko answered INFO */
	struct cbench_proto_info module;	/* its answer, when loaded */
	const struct cbench_info_probe *probes;
	size_t nprobes;
	struct cbench_machine machine;	/* what the user backend will use */
	int cpu;			/* where cbench measures unless told (its last allowed CPU) */
	unsigned int core_type;		/* that CPU's, on a hybrid part; 0 otherwise */
};

/* The report, as text or as JSON. */
void cbench_info_print(const struct cbench_info *info, FILE *f, bool json);

#endif /* _CBENCH_REPORT_INFO_H */
