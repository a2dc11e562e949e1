// SPDX-License-Identifier: GPL-2.0
/*
 * CBENCH_CMD_AUDIT_START: an audit run, whose samples alternate between
 * two sides in a seeded random order (include/uapi/linux/cbench.h).  The
 * policy (netlink.c) has checked the attributes' types and fixed ranges,
 * each side's nest included, and pre_doit the caller's privilege; here we
 * check the sides, the counts against the module's limits and the images
 * named, then start the run as RUN_START does (cbench_nl_run_launch()).
 */
#include <linux/limits.h>
#include <net/genetlink.h>

#include "args.h"
#include "audit.h"
#include "client.h"
#include "image.h"
#include "limits.h"
#include "netlink_audit.h"
#include "netlink_run.h"
#include "run.h"

/* Each side's attributes, by side; what the policy let through. */
struct sides {
	struct nlattr *nest[CBENCH_AUDIT_SIDES];
	struct nlattr *tb[CBENCH_AUDIT_SIDES][CBENCH_A_SIDE_MAX + 1];
};

/* Splits CBENCH_A_AUDIT_SIDES into exactly A and B, each parsed strictly. */
static int parse_sides(struct genl_info *info, struct sides *s)
{
	struct nlattr *sides = info->attrs[CBENCH_A_AUDIT_SIDES], *side;
	int n = 0, rem, ret;

	nla_for_each_nested(side, sides, rem) {
		if (n == CBENCH_AUDIT_SIDES) {
			NL_SET_ERR_MSG_ATTR(info->extack, side,
					    "too many sides: an audit run has two, A and B");
			return -EINVAL;
		}
		ret = nla_parse_nested(s->tb[n], CBENCH_A_SIDE_MAX, side, cbench_side_policy,
				       info->extack);
		if (ret)
			return ret;
		s->nest[n++] = side;
	}
	if (rem) {
		NL_SET_ERR_MSG_ATTR(info->extack, sides, "trailing bytes after the sides");
		return -EINVAL;
	}
	if (n != CBENCH_AUDIT_SIDES) {
		CBENCH_SET_ERR_MSG_FMT(info->extack, "an audit run needs two sides, A and B",
				       "an audit run needs two sides, A and B, not %d", n);
		NL_SET_BAD_ATTR(info->extack, sides);
		return -EINVAL;
	}
	return 0;
}

/* A side's required attribute, reported as missing inside its nest. */
static int require_side(struct genl_info *info, struct nlattr *nest, struct nlattr **tb, int type)
{
	if (!NL_REQ_ATTR_CHECK(info->extack, nest, tb, type))
		return 0;
	CBENCH_SET_ERR_MSG_FMT(info->extack, "a side lacks a required attribute",
			       "a side lacks required attribute %d", type);
	return -EINVAL;
}

/* A side's optional per-rep hook: 0 (absent: *fn NULL) or -EINVAL. */
static int side_hook(struct genl_info *info, struct cbench_image *image, struct nlattr *attr,
		     void **fn)
{
	*fn = NULL;
	if (!attr)
		return 0;
	*fn = cbench_image_entry(image, nla_get_u64(attr), info->extack);
	if (*fn)
		return 0;
	NL_SET_BAD_ATTR(info->extack, attr);
	return -EINVAL;
}

/* A side's per-rep hooks: with either, each call is of one rep. */
static int side_hooks(struct genl_info *info, struct nlattr **tb, struct cbench_audit_config *side)
{
	int ret = side_hook(info, side->image, tb[CBENCH_A_SIDE_BEFORE_REP], &side->before_rep) ?:
		  side_hook(info, side->image, tb[CBENCH_A_SIDE_AFTER_REP], &side->after_rep);

	if (ret)
		return ret;
	if ((side->before_rep || side->after_rep) && side->reps != 1) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[CBENCH_A_SIDE_REPS],
				    "a side with per-rep hooks calls run() with one rep: REPS 1");
		return -EINVAL;
	}
	return 0;
}

/* One side's image, entry points, reps, arena and parameter; under the lock. */
static int side_config(struct sk_buff *skb, struct genl_info *info, struct nlattr *nest,
		       struct nlattr **tb, struct cbench_audit_config *side)
{
	struct nlattr *attr;
	int ret;

	ret = require_side(info, nest, tb, CBENCH_A_SIDE_IMAGE_ID) ?:
	      require_side(info, nest, tb, CBENCH_A_SIDE_ENTRY) ?:
	      require_side(info, nest, tb, CBENCH_A_SIDE_REPS);
	if (ret)
		return ret;
	attr = tb[CBENCH_A_SIDE_IMAGE_ID];
	side->image = cbench_client_image(NETLINK_CB(skb).sk, nla_get_u32(attr));
	if (!side->image) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr, "no such image on this socket");
		return -ENOENT;
	}
	attr = tb[CBENCH_A_SIDE_ENTRY];
	side->entry = cbench_image_entry(side->image, nla_get_u64(attr), info->extack);
	attr = tb[CBENCH_A_SIDE_SETUP];
	side->setup = NULL;
	if (side->entry && attr)
		side->setup = cbench_image_entry(side->image, nla_get_u64(attr), info->extack);
	if (!side->entry || (attr && !side->setup)) {
		NL_SET_BAD_ATTR(info->extack, side->entry ? attr : tb[CBENCH_A_SIDE_ENTRY]);
		return -EINVAL;
	}
	side->reps = nla_get_u64(tb[CBENCH_A_SIDE_REPS]);
	attr = tb[CBENCH_A_SIDE_ARENA_BYTES];
	side->arena_bytes = attr ? nla_get_u64(attr) : 0;
	if (side->arena_bytes > cbench_limits.arena_bytes) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr, "arena larger than the module's arena_bytes");
		return -E2BIG;
	}
	side->param = tb[CBENCH_A_SIDE_PARAM] ? nla_get_s64(tb[CBENCH_A_SIDE_PARAM]) : 0;
	side->args = tb[CBENCH_A_SIDE_ARGS];
	return cbench_args_check(side->args, info->extack) ?: side_hooks(info, tb, side);
}

/* Rounds times both sides' samples per round: at most the module's samples. */
static int count_samples(struct genl_info *info, u32 *samples, u32 *per_side)
{
	struct nlattr *rounds = info->attrs[CBENCH_A_AUDIT_ROUNDS];
	u64 total;

	*per_side = nla_get_u32(info->attrs[CBENCH_A_AUDIT_PER_SIDE]);
	/* At most 2^32 * 2 * CBENCH_AUDIT_PER_SIDE_MAX: no u64 wraps. */
	total = (u64)nla_get_u32(rounds) * CBENCH_AUDIT_SIDES * *per_side;
	if (total > cbench_limits.samples) {
		CBENCH_SET_ERR_MSG_FMT(info->extack,
				       "rounds * 2 * per-side samples exceed the module's samples_max",
				       "%llu samples (rounds * 2 * per side) exceed the module's samples_max, %u",
				       total, cbench_limits.samples);
		NL_SET_BAD_ATTR(info->extack, rounds);
		return -E2BIG;
	}
	*samples = (u32)total;
	return 0;
}

/* Side A goes into the run's own configuration, B into the audit's. */
static int audit_config(struct sk_buff *skb, struct genl_info *info, struct sides *s,
			struct cbench_run_config *config, struct cbench_image **image,
			struct cbench_audit_config *b)
{
	struct cbench_audit_config a;
	struct nlattr *seed = info->attrs[CBENCH_A_AUDIT_SEED];
	int ret;

	ret = side_config(skb, info, s->nest[0], s->tb[0], &a) ?:
	      side_config(skb, info, s->nest[1], s->tb[1], b) ?:
	      count_samples(info, &config->samples, &b->per_side) ?:
	      cbench_nl_run_where(info, config);
	if (ret)
		return ret;
	*image = a.image;
	config->entry = a.entry;
	config->setup = a.setup;
	config->before_rep = a.before_rep;
	config->after_rep = a.after_rep;
	config->reps = a.reps;
	config->reps_step = 0;
	config->reps_last = a.reps;
	config->arena_bytes = a.arena_bytes;
	config->param = a.param;
	config->args = a.args;
	b->seed = seed ? nla_get_u64(seed) : 0;
	return 0;
}

int cbench_nl_audit_start(struct sk_buff *skb, struct genl_info *info)
{
	struct cbench_run_config config = { 0 };
	struct cbench_audit_config b = { 0 };
	struct cbench_image *image = NULL;
	struct sides s;
	u32 id = 0;
	int ret;

	ret = cbench_nl_require(info, CBENCH_A_RUN_CPU) ?:
	      cbench_nl_require(info, CBENCH_A_AUDIT_PER_SIDE) ?:
	      cbench_nl_require(info, CBENCH_A_AUDIT_ROUNDS) ?:
	      cbench_nl_require(info, CBENCH_A_AUDIT_SIDES) ?:
	      parse_sides(info, &s);
	if (ret)
		return ret;
	cbench_client_lock();
	ret = audit_config(skb, info, &s, &config, &image, &b) ?:
	      cbench_nl_run_launch(info, NETLINK_CB(skb).sk, image, &config, &b, &id);
	cbench_client_unlock();
	return ret ?: cbench_nl_reply_u32(info, CBENCH_CMD_AUDIT_START, CBENCH_A_RUN_ID, id);
}
