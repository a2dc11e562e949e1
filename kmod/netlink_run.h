/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The image and run commands of the genl family (netlink.c holds the
 * family, its policy and its ops table; these are the handlers).
 */
#ifndef _CBENCH_NETLINK_RUN_H
#define _CBENCH_NETLINK_RUN_H

#include <net/genetlink.h>

#include <uapi/linux/cbench.h>

extern struct genl_family cbench_genl_family;

/*
 * Policy entries for the attributes these commands take, exact ranges.  The
 * range structures are not const because 6.1's nla_policy points at them
 * without const.
 */
extern struct netlink_range_validation cbench_reps_range;
extern struct netlink_range_validation cbench_reps_step_range;
extern struct netlink_range_validation cbench_budget_range;

#define CBENCH_NL_RUN_POLICY						\
	[CBENCH_A_IMAGE_ID] = NLA_POLICY_MIN(NLA_U32, 1),		\
	[CBENCH_A_IMAGE_BYTES] = NLA_POLICY_MIN(NLA_U64, 1),		\
	[CBENCH_A_CHUNK_OFFSET] = { .type = NLA_U64 },			\
	[CBENCH_A_CHUNK_DATA] = { .type = NLA_BINARY, .len = CBENCH_CHUNK_MAX_BYTES }, \
	[CBENCH_A_IMAGE_TEXT] = { .type = NLA_BINARY,			\
				  .len = CBENCH_TEXT_MAX * sizeof(struct cbench_range) }, \
	[CBENCH_A_IMAGE_RELOCS] = { .type = NLA_BINARY,			\
				    .len = CBENCH_RELOCS_MAX * sizeof(__u64) }, \
	[CBENCH_A_RUN_ID] = NLA_POLICY_MIN(NLA_U32, 1),		\
	[CBENCH_A_RUN_ENTRY] = { .type = NLA_U64 },			\
	[CBENCH_A_RUN_SETUP] = { .type = NLA_U64 },			\
	[CBENCH_A_RUN_REPS] = NLA_POLICY_FULL_RANGE(NLA_U64, &cbench_reps_range), \
	[CBENCH_A_RUN_REPS_STEP] = NLA_POLICY_FULL_RANGE(NLA_U64, &cbench_reps_step_range), \
	[CBENCH_A_RUN_SAMPLES] = NLA_POLICY_MIN(NLA_U32, 1),		\
	[CBENCH_A_RUN_CPU] = { .type = NLA_U32 },			\
	[CBENCH_A_RUN_ARENA_BYTES] = { .type = NLA_U64 },		\
	[CBENCH_A_RUN_PARAM] = { .type = NLA_S64 },			\
	[CBENCH_A_RUN_BUDGET_NS] = NLA_POLICY_FULL_RANGE(NLA_U64, &cbench_budget_range)

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

/* The ops these commands add to the family's table. */
#define CBENCH_NL_RUN_OPS						\
	{ .cmd = CBENCH_CMD_IMAGE_NEW, .doit = cbench_nl_image_new,	\
	  .flags = GENL_ADMIN_PERM },					\
	{ .cmd = CBENCH_CMD_IMAGE_CHUNK, .doit = cbench_nl_image_chunk, \
	  .flags = GENL_ADMIN_PERM },					\
	{ .cmd = CBENCH_CMD_IMAGE_MAP, .doit = cbench_nl_image_map,	\
	  .flags = GENL_ADMIN_PERM },					\
	{ .cmd = CBENCH_CMD_IMAGE_DEL, .doit = cbench_nl_image_del,	\
	  .flags = GENL_ADMIN_PERM },					\
	{ .cmd = CBENCH_CMD_RUN_START, .doit = cbench_nl_run_start,	\
	  .flags = GENL_ADMIN_PERM },					\
	{ .cmd = CBENCH_CMD_RUN_GET, .doit = cbench_nl_run_get,	\
	  .flags = GENL_ADMIN_PERM },					\
	{ .cmd = CBENCH_CMD_RUN_CANCEL, .doit = cbench_nl_run_cancel,	\
	  .flags = GENL_ADMIN_PERM },					\
	{ .cmd = CBENCH_CMD_RUN_DEL, .doit = cbench_nl_run_del,	\
	  .flags = GENL_ADMIN_PERM },					\
	{ .cmd = CBENCH_CMD_SAMPLES, .start = cbench_nl_samples_start,	\
	  .dumpit = cbench_nl_samples_dump, .flags = GENL_ADMIN_PERM }

#endif /* _CBENCH_NETLINK_RUN_H */
