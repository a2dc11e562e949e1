/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _CBENCH_PLANTED_H
#define _CBENCH_PLANTED_H

#include <linux/types.h>

/*
 * Test builds only: `make module CBENCH_PLANT_BUG=<kind>` adds planted.c,
 * one deliberate bug that the debug kernel must report (make
 * vmtest-planted).  Every other build calls an empty function.
 */
#ifdef CBENCH_PLANT_BUG
void cbench_planted_bug(void);
#else
static inline void cbench_planted_bug(void)
{
}
#endif

/*
 * The test build CBENCH_PLANT_BUG=nonet: neither fault net acts (guard.c),
 * so a page fault in benchmark code kills the measuring thread with its
 * run's watchdog armed, and the VM test checks that nothing freed is
 * touched afterwards.
 */
#ifdef CBENCH_PLANT_BUG_nonet
static inline bool cbench_planted_no_net(void)
{
	return true;
}
#else
static inline bool cbench_planted_no_net(void)
{
	return false;
}
#endif

#endif /* _CBENCH_PLANTED_H */
