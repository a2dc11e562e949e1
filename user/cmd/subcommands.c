// SPDX-License-Identifier: GPL-2.0
/*
 * What subcommands share.  Kept out of main.c so the unit tests, which link
 * every user/ object but main.o, can link the subcommands too.
 */
#include "cmd/subcommands.h"

const char *cbench_prog = "cbenchctl";
