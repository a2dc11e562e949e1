/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _CBENCH_PLANTED_H
#define _CBENCH_PLANTED_H

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

#endif /* _CBENCH_PLANTED_H */
