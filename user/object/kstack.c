// SPDX-License-Identifier: GPL-2.0
/*
 * kstack: a kernel image's stack bound and checks (kstack.h): the code read
 * (kstack_read.c, one instruction's effect in kstack_insn.c), the checks
 * placed (kstack_graph.c) and put into the image (kstack_patch.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "object/kstack_parts.h"

int cbench_kstack_analyze(const struct cbench_kimage *image, const struct cbench_kstack_limits *limits,
			  struct cbench_kstack *ks)
{
	uint64_t *targets = NULL;
	uint32_t ntargets = 0;
	int ret;

	memset(ks, 0, sizeof(*ks));
	ks->limits = *limits;
	ks->base = image->base;
	ret = cbench_kstack_read(image, ks, &targets, &ntargets);
	ret = ret ? ret : cbench_kstack_place(ks, image, targets, ntargets);
	free(targets);
	if (ret)
		cbench_kstack_free(ks);
	return ret;
}

void cbench_kstack_free(struct cbench_kstack *ks)
{
	for (uint32_t i = 0; i < ks->nfns; i++)
		free(ks->fns[i].sites);
	free(ks->fns);
	free(ks->taken);
	free(ks->checks);
	memset(ks, 0, sizeof(*ks));
}
