/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The image and run commands' handlers (netlink_run.c), for the ops table
 * in netlink.c, which also holds their policies.
 */
#ifndef _CBENCH_NETLINK_RUN_H
#define _CBENCH_NETLINK_RUN_H

#include <net/genetlink.h>

#include <uapi/linux/cbench.h>

extern struct genl_family cbench_genl_family;
/* The policy of each side of an audit run (netlink.c). */
extern const struct nla_policy cbench_side_policy[CBENCH_A_SIDE_MAX + 1];

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
int cbench_nl_samples_dump(struct sk_buff *skb, struct netlink_callback *cb);
int cbench_nl_samples_done(struct netlink_callback *cb);
/* CBENCH_CMD_AUDIT_START (netlink_audit.c). */
int cbench_nl_audit_start(struct sk_buff *skb, struct genl_info *info);

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

struct cbench_run_config;

/* RUN_START's timing-point attributes into config, whose samples are set. */
int cbench_nl_tp_config(struct genl_info *info, struct cbench_run_config *config);
/* The TPOINTS dump, with the SAMPLES dump's .start and .done. */
int cbench_nl_tpoints_dump(struct sk_buff *skb, struct netlink_callback *cb);

#endif /* _CBENCH_NETLINK_RUN_H */
