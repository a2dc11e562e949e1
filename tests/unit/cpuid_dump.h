/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPUID dumps of real and virtual CPUs (tests/cpuid/<name>.txt, one
 * "LEAF.SUBLEAF: EAX EBX ECX EDX" line each, in hex) as a CPUID read
 * function for machine/uarch.c, for the unit tests of the identification
 * and of the table of known answers.  A leaf a dump lacks reads as zeros,
 * as a reserved leaf does.
 */
#ifndef _CBENCH_TEST_CPUID_DUMP_H
#define _CBENCH_TEST_CPUID_DUMP_H

#include <stdio.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "machine/uarch.h"

#define CPUID_DUMP_DIR "tests/cpuid"
#define CPUID_DUMP_MAX 128

static struct cpuid_dump_leaf {
	uint32_t leaf, subleaf;
	struct cbench_cpuid_regs regs;
} cpuid_dump[CPUID_DUMP_MAX];
static unsigned int cpuid_dump_n;

static void cpuid_dump_read(uint32_t leaf, uint32_t subleaf, struct cbench_cpuid_regs *regs)
{
	for (unsigned int i = 0; i < cpuid_dump_n; i++) {
		if (cpuid_dump[i].leaf == leaf && cpuid_dump[i].subleaf == subleaf) {
			*regs = cpuid_dump[i].regs;
			return;
		}
	}
	memset(regs, 0, sizeof(*regs));
}

/* Loads tests/cpuid/<name>.txt; false (and a failed assertion) if it cannot. */
static bool cpuid_dump_load(const char *name)
{
	char path[256], line[256];
	FILE *f;

	snprintf(path, sizeof(path), CPUID_DUMP_DIR "/%s.txt", name);
	f = fopen(path, "re");
	CU_ASSERT_PTR_NOT_NULL(f);
	if (!f)
		return false;
	cpuid_dump_n = 0;
	while (fgets(line, sizeof(line), f) && cpuid_dump_n < CPUID_DUMP_MAX) {
		struct cpuid_dump_leaf *l = &cpuid_dump[cpuid_dump_n];

		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (sscanf(line, "%x.%x: %x %x %x %x", &l->leaf, &l->subleaf, &l->regs.eax,
			   &l->regs.ebx, &l->regs.ecx, &l->regs.edx) == 6)
			cpuid_dump_n++;
	}
	fclose(f);
	CU_ASSERT(cpuid_dump_n > 0);
	return cpuid_dump_n > 0;
}

/* The core tests/cpuid/<name>.txt describes. */
static void cpuid_dump_identify(const char *name, struct cbench_core *core)
{
	memset(core, 0, sizeof(*core));
	if (cpuid_dump_load(name))
		cbench_core_identify(core, cpuid_dump_read);
}

#endif /* _CBENCH_TEST_CPUID_DUMP_H */
