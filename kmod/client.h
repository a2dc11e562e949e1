/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _CBENCH_CLIENT_H
#define _CBENCH_CLIENT_H

#include <linux/types.h>

#include "image.h"
#include "run.h"

/*
 * Images and runs belong to the netlink socket that made them.  One mutex
 * guards both lists and every object's fields but a run's sample progress
 * and thread.  We never stop a thread under it, nor in a request handler:
 * a benchmark's setup() can take long.  Cancelling raises a flag; deleting
 * hands the run to a work item that stops it (see client.c).
 */
void cbench_client_lock(void);
void cbench_client_unlock(void);

/* Under the lock. */
struct cbench_image *cbench_client_image(u32 portid, u32 id);
struct cbench_run *cbench_client_run(u32 portid, u32 id);
unsigned int cbench_client_images(u32 portid);
unsigned int cbench_client_runs(u32 portid);
/* Runs in progress, retiring ones included until they have ended. */
unsigned int cbench_client_runs_running(void);
/* A run, retiring or not, may still be calling a benchmark on cpu. */
bool cbench_client_cpu_busy(u32 cpu);
/* Runs of image that its client has not deleted. */
unsigned int cbench_client_image_runs(const struct cbench_image *image);
void cbench_client_add_image(u32 portid, struct cbench_image *image);
void cbench_client_add_run(u32 portid, struct cbench_run *run);
/* Deletes image now, or once the runs retiring with it have stopped. */
void cbench_client_del_image(struct cbench_image *image);
/* Frees a run whose thread never started. */
void cbench_client_drop_run(struct cbench_run *run);

/*
 * Without the lock: cancel a socket's run (it ends before its next call), or
 * delete it (cancelled, then stopped and freed in the background).  Neither
 * waits for the thread.  0 or -ENOENT.
 */
int cbench_client_cancel_run(u32 portid, u32 id);
int cbench_client_del_run(u32 portid, u32 id);

/* Frees what clients hold when their sockets close (NETLINK_URELEASE). */
int cbench_client_init(void);
/* Frees everything, stopping runs; after the family is unregistered. */
void cbench_client_exit(void);

#endif /* _CBENCH_CLIENT_H */
