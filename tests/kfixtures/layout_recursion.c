// SPDX-License-Identifier: GPL-2.0
/*
 * recursion.c built so its code can move (-ffunction-sections -Wl,-q, as
 * the Makefile builds every layout fixture): in ring 0 each trial's image
 * is laid out anew, and the stack checks must be in the moved code too.
 */
#include "recursion.c"
