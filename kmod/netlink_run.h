/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The image and run commands' handlers (netlink_run.c), for the ops table
 * in netlink.c, which also holds their policies.
 */
#ifndef _CBENCH_NETLINK_RUN_H
#define _CBENCH_NETLINK_RUN_H

#include <net/genetlink.h>

extern struct genl_family cbench_genl_family;

/* A dump's privilege check, in its first dumpit call (pre_doit does doits). */
int cbench_dump_capable(struct netlink_callback *cb);

int cbench_nl_image_new(struct sk_buff *skb, struct genl_info *info);
int cbench_nl_image_chunk(struct sk_buff *skb, struct genl_info *info);
int cbench_nl_image_map(struct sk_buff *skb, struct genl_info *info);
int cbench_nl_image_del(struct sk_buff *skb, struct genl_info *info);
int cbench_nl_run_start(struct sk_buff *skb, struct genl_info *info);
int cbench_nl_run_get(struct sk_buff *skb, struct genl_info *info);
int cbench_nl_run_cancel(struct sk_buff *skb, struct genl_info *info);
int cbench_nl_run_del(struct sk_buff *skb, struct genl_info *info);
int cbench_nl_samples_start(struct netlink_callback *cb);
int cbench_nl_samples_dump(struct sk_buff *skb, struct netlink_callback *cb);
int cbench_nl_samples_done(struct netlink_callback *cb);

struct cbench_run_config;

/* RUN_START's timing-point attributes into config, whose samples are set. */
int cbench_nl_tp_config(struct genl_info *info, struct cbench_run_config *config);
/* The TPOINTS dump, with the SAMPLES dump's .start and .done. */
int cbench_nl_tpoints_dump(struct sk_buff *skb, struct netlink_callback *cb);

#endif /* _CBENCH_NETLINK_RUN_H */
