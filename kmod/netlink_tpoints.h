/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loop timing points over netlink (netlink_tpoints.c): RUN_START's request
 * for them, and the TPOINTS dump.
 */
#ifndef _CBENCH_NETLINK_TPOINTS_H
#define _CBENCH_NETLINK_TPOINTS_H

#include <net/genetlink.h>

struct cbench_run_config;

/* RUN_START's timing-point attributes into config, whose samples are set. */
int cbench_nl_tp_config(struct genl_info *info, struct cbench_run_config *config);
/* The TPOINTS dump, with the SAMPLES dump's .start and .done. */
int cbench_nl_tpoints_dump(struct sk_buff *skb, struct netlink_callback *cb);

#endif /* _CBENCH_NETLINK_TPOINTS_H */
