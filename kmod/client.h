/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _CBENCH_CLIENT_H
#define _CBENCH_CLIENT_H

#include <linux/types.h>

#include "image.h"
#include "run.h"

struct sock;

/*
 * Images and runs belong to the netlink socket that made them: owner is the
 * requesting socket, NETLINK_CB(skb).sk.  One mutex guards both registries
 * and every object's fields but a run's sample progress and thread.  We
 * never stop a thread under it, nor in a request handler: a benchmark's
 * setup() can take long.  Cancelling raises a flag; deleting hands the run
 * to a work item that stops it (see client.c).
 */
void cbench_client_lock(void);
void cbench_client_unlock(void);

/* Under the lock. */
struct cbench_image *cbench_client_image(const struct sock *owner, u32 id);
struct cbench_run *cbench_client_run(const struct sock *owner, u32 id);
unsigned int cbench_client_images(const struct sock *owner);
unsigned int cbench_client_runs(const struct sock *owner);
/* Runs in progress, deleted ones included until they have ended. */
unsigned int cbench_client_runs_running(void);
/* What runs in progress, deleted ones included, use cpu for. */
enum cbench_cpu_use {
	CBENCH_CPU_FREE,
	CBENCH_CPU_MEASURES,		/* a run calls benchmark code on it */
	CBENCH_CPU_WATCHES,		/* a run's watchdog timer runs on it */
};
enum cbench_cpu_use cbench_client_cpu_use(u32 cpu);
/*
 * A CPU to watch a new run on cpu: online, not cpu, and neither measuring
 * nor watching for another run in progress; the next one up from cpu,
 * round the mask.  -1 if there is none.
 */
int cbench_client_free_watcher(u32 cpu);
/* Runs of image that its client has not deleted. */
unsigned int cbench_client_image_runs(const struct cbench_image *image);
/* False once its client deleted run or closed its socket. */
bool cbench_client_run_listed(const struct cbench_run *run);
/*
 * Lists an object under a new id, taking over the caller's reference;
 * 0, or -errno and the caller keeps it.
 */
int cbench_client_add_image(struct sock *owner, struct cbench_image *image);
int cbench_client_add_run(struct sock *owner, struct cbench_run *run);
/* Deletes image: it is freed once the runs that hold it have stopped. */
void cbench_client_del_image(struct cbench_image *image);
/* Unlists and frees a run whose thread never started. */
void cbench_client_drop_run(struct cbench_run *run);

/*
 * Without the lock: cancel a socket's run (it ends before its next call), or
 * delete it (cancelled, then stopped and freed in the background).  Neither
 * waits for the thread.  0 or -ENOENT.
 */
int cbench_client_cancel_run(const struct sock *owner, u32 id);
int cbench_client_del_run(const struct sock *owner, u32 id);

/* Frees what clients hold when their sockets close (NETLINK_URELEASE). */
int cbench_client_init(void);
/* Frees everything, stopping runs; after the family is unregistered. */
void cbench_client_exit(void);

#endif /* _CBENCH_CLIENT_H */
