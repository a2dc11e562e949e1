// SPDX-License-Identifier: GPL-2.0
/* layout.c built without -ffunction-sections: static calls within its one
 * code section carry no relocation, so the section moves whole. */
#include "layout.c"
