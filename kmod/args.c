// SPDX-License-Identifier: GPL-2.0
/*
 * Named parameters in ring 0.  The benchmark reads ctx.args and may write
 * anything into it or into the strings it points to: the module writes
 * them once, before the run's thread starts, and never reads them back.
 */
#include <linux/string.h>

#include <uapi/linux/cbench.h>

#include "args.h"

int cbench_args_check(const struct nlattr *nest, struct netlink_ext_ack *extack)
{
	const struct nlattr *arg;
	int rem, n = 0;

	if (!nest)
		return 0;
	nla_for_each_nested(arg, nest, rem) {
		struct nlattr *tb[CBENCH_A_ARG_MAX + 1];

		if (nla_type(arg) != CBENCH_A_ARG) {
			NL_SET_ERR_MSG_ATTR(extack, arg, "an args nest holds only CBENCH_A_ARG");
			return -EINVAL;
		}
		if (++n > CBENCH_ARGS_MAX) {
			NL_SET_ERR_MSG_ATTR(extack, arg, "more args than CBENCH_ARGS_MAX");
			return -EINVAL;
		}
		/* The policy has validated the nest; this only indexes it. */
		if (nla_parse_nested(tb, CBENCH_A_ARG_MAX, arg, NULL, extack))
			return -EINVAL;
		if (!tb[CBENCH_A_ARG_KEY] || !tb[CBENCH_A_ARG_INT] || !nla_len(tb[CBENCH_A_ARG_KEY]) ||
		    !*(const char *)nla_data(tb[CBENCH_A_ARG_KEY]) ||
		    (tb[CBENCH_A_ARG_STR] && !*(const char *)nla_data(tb[CBENCH_A_ARG_STR]))) {
			NL_SET_ERR_MSG_ATTR(extack, arg, "an arg needs a non-empty KEY, an INT, and a "
					    "non-empty STR if any");
			return -EINVAL;
		}
	}
	return 0;
}

void cbench_args_set(struct cbench_kargs *args, struct cbench_kctx *ctx, const struct nlattr *nest)
{
	const struct nlattr *arg;
	u32 n = 0;
	int rem;

	memset(args, 0, sizeof(*args));
	ctx->args = 0;
	ctx->nargs = 0;
	if (!nest)
		return;
	nla_for_each_nested(arg, nest, rem) {
		struct nlattr *tb[CBENCH_A_ARG_MAX + 1];

		if (n >= CBENCH_KARGS_MAX || nla_parse_nested(tb, CBENCH_A_ARG_MAX, arg, NULL, NULL) ||
		    !tb[CBENCH_A_ARG_KEY] || !tb[CBENCH_A_ARG_INT])
			break;	/* cbench_args_check() has refused all of these */
		nla_strscpy(args->key[n], tb[CBENCH_A_ARG_KEY], sizeof(args->key[n]));
		args->arg[n].key = (u64)(unsigned long)args->key[n];
		args->arg[n].i = (u64)nla_get_s64(tb[CBENCH_A_ARG_INT]);
		if (tb[CBENCH_A_ARG_STR]) {
			nla_strscpy(args->str[n], tb[CBENCH_A_ARG_STR], sizeof(args->str[n]));
			args->arg[n].str = (u64)(unsigned long)args->str[n];
		}
		n++;
	}
	ctx->args = n ? (u64)(unsigned long)args->arg : 0;
	ctx->nargs = n;
}
