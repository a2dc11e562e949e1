/* SPDX-License-Identifier: GPL-2.0 */
/* `cbenchctl lab`'s parts: the queue and the worker (lab_queue.c). */
#ifndef _CBENCH_CMD_LAB_PARTS_H
#define _CBENCH_CMD_LAB_PARTS_H

#include <stdbool.h>
#include <stdio.h>

/* The usage lines of lab queue and lab worker. */
void cbench_lab_queue_usage(FILE *f);

/* `lab queue ACTION ...` (argv[0] "queue"), or with work `lab worker ...`
 * (argv[0] "worker"): the exit status. */
int cbench_lab_queue_main(int argc, char *argv[], bool work);

#endif /* _CBENCH_CMD_LAB_PARTS_H */
