/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the SAMPLES and TPOINTS dumps share (netlink_dump.c): the request's
 * check, each dumpit call's start, and their .start and .done.
 */
#ifndef _CBENCH_NETLINK_DUMP_H
#define _CBENCH_NETLINK_DUMP_H

#include <net/genetlink.h>

/* A SAMPLES or TPOINTS dump's request: capability, run id, the run found. */
int cbench_nl_dump_check(struct netlink_callback *cb);
/*
 * Each call of such a dumpit begins here: check(cb) on the first, then
 * *done gets the samples the run has recorded; -ENOENT if the run was
 * deleted while samples from `from` on were unsent.
 */
int cbench_nl_dump_begin(struct netlink_callback *cb, int (*check)(struct netlink_callback *cb),
			 u32 from, u32 *done);
int cbench_nl_samples_start(struct netlink_callback *cb);
int cbench_nl_samples_done(struct netlink_callback *cb);

#endif /* _CBENCH_NETLINK_DUMP_H */
