// SPDX-License-Identifier: GPL-2.0
/* Sending a worker's messages to the runner; see job.h. */
#include <errno.h>
#include <unistd.h>

#include "machine/clock.h"
#include "machine/proc.h"
#include "worker/job.h"

static int send_msg(int fd, const struct cbench_msg *m)
{
	ssize_t put;

	do {
		put = write(fd, m, sizeof(*m));
	} while (put < 0 && errno == EINTR);
	return put == (ssize_t)sizeof(*m) ? 0 : -EPIPE;
}

int cbench_worker_send(int fd, const struct cbench_msg *m)
{
	return send_msg(fd, m);
}

/*
 * Messages of a trial, sent in bursts: a write to the pipe wakes the runner,
 * which then works on the other CPU (an SMT sibling, on some hosts) while
 * the next measurement runs; one write per measurement slowed the short
 * reference measurements that follow each benchmark measurement by up to 3%
 * in some workers.  Bursts spread that over every measurement alike, and
 * rarely.
 */
/* A burst goes at least this often, so a trial that runs out of time still
 * told the runner most of what it measured; ns. */
#define OUTBOX_FLUSH_NS 10e6

void cbench_outbox_init(struct cbench_outbox *o)
{
	o->n = 0;
	o->last_ns = cbench_now_ns();
}

int cbench_outbox_flush(struct cbench_outbox *o, int fd)
{
	int ret = cbench_proc_write_all(fd, o->msg, o->n * sizeof(o->msg[0]));

	if (ret)
		return ret;
	o->n = 0;
	o->last_ns = cbench_now_ns();
	return 0;
}

int cbench_outbox_put(struct cbench_outbox *o, int fd, const struct cbench_msg *m)
{
	o->msg[o->n] = *m;
	if (++o->n < CBENCH_OUTBOX_MSGS && cbench_now_ns() - o->last_ns < OUTBOX_FLUSH_NS)
		return 0;
	return cbench_outbox_flush(o, fd);
}

struct cbench_backend cbench_job_backend(const struct cbench_worker_job *job,
					 const struct cbench_backend_ops *ops,
					 const struct cbench_timer *timer)
{
	return (struct cbench_backend){
		.ops = ops, .timer = *timer, .no_fifo = job->no_fifo, .rt_limit_s = job->rt_limit_s,
		.has_quiet = job->quiet >= 0, .quiet = job->quiet >= 0 ? (unsigned int)job->quiet : 0,
		.has_watcher = job->watcher >= 0,
		.watcher = job->watcher >= 0 ? (unsigned int)job->watcher : 0,
	};
}
