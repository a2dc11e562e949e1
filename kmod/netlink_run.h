/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The image and run commands' handlers (netlink_run.c), for the ops table
 * in netlink.c, which also holds their policies, and what the audit's
 * handler (netlink_audit.c) shares with them.
 */
#ifndef _CBENCH_NETLINK_RUN_H
#define _CBENCH_NETLINK_RUN_H

#include <net/genetlink.h>

#include <uapi/linux/cbench.h>

/* The policy of each side of an audit run (netlink.c). */
extern const struct nla_policy cbench_side_policy[CBENCH_A_SIDE_MAX + 1];

int cbench_nl_image_new(struct sk_buff *skb, struct genl_info *info);
int cbench_nl_image_chunk(struct sk_buff *skb, struct genl_info *info);
int cbench_nl_image_map(struct sk_buff *skb, struct genl_info *info);
int cbench_nl_image_del(struct sk_buff *skb, struct genl_info *info);
int cbench_nl_run_start(struct sk_buff *skb, struct genl_info *info);
int cbench_nl_run_get(struct sk_buff *skb, struct genl_info *info);
int cbench_nl_run_cancel(struct sk_buff *skb, struct genl_info *info);
int cbench_nl_run_del(struct sk_buff *skb, struct genl_info *info);
/* The SAMPLES dump (netlink_dump.h has its .start and .done). */
int cbench_nl_samples_dump(struct sk_buff *skb, struct netlink_callback *cb);

struct cbench_audit_config;
struct cbench_image;
struct cbench_run_config;
struct sock;

/* For the handlers: a required attribute, refused as the core does if missing. */
int cbench_nl_require(struct genl_info *info, int type);
/* A reply of one u32 attribute. */
int cbench_nl_reply_u32(struct genl_info *info, u8 cmd, int type, u32 value);
/* A run's CPU and budget (CBENCH_A_RUN_CPU, CBENCH_A_RUN_BUDGET_NS) into config. */
int cbench_nl_run_where(struct genl_info *info, struct cbench_run_config *config);
/*
 * Under the client lock: creates, lists and starts a run of image (with
 * side B, for an audit run) for owner, checking the limits; 0 and *id, or
 * -errno with an extended-ack text.  Nothing is left behind on failure.
 */
int cbench_nl_run_launch(struct genl_info *info, struct sock *owner, struct cbench_image *image,
			 const struct cbench_run_config *config,
			 const struct cbench_audit_config *audit, u32 *id);


#endif /* _CBENCH_NETLINK_RUN_H */
