/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Named parameters in ring 0: a run's (or an audit side's) parameter set,
 * sent as CBENCH_A_RUN_ARGS or CBENCH_A_SIDE_ARGS, copied into the module's
 * memory for ctx.args to point to.
 */
#ifndef _CBENCH_ARGS_H
#define _CBENCH_ARGS_H

#include <net/netlink.h>

#include "lib/abi.h"

/*
 * Checks an ARGS nest the policy has validated: at most CBENCH_ARGS_MAX
 * nests, each a CBENCH_A_ARG with a non-empty KEY, an INT and, if any, a
 * non-empty STR.  0 or -EINVAL with an extended-ack text; NULL is no args.
 */
int cbench_args_check(const struct nlattr *nest, struct netlink_ext_ack *extack);

/* Copies a checked ARGS nest (or none) into args and points ctx at it. */
void cbench_args_set(struct cbench_kargs *args, struct cbench_kctx *ctx, const struct nlattr *nest);

#endif /* _CBENCH_ARGS_H */
