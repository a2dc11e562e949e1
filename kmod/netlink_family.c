// SPDX-License-Identifier: GPL-2.0
/* The family the handlers reply in, and the dumps' check; see netlink_family.h. */
#include <linux/capability.h>
#include <linux/netlink.h>

#include "netlink_family.h"

const struct genl_family *cbench_nl_family __ro_after_init;

int cbench_dump_capable(struct netlink_callback *cb)
{
	if (netlink_capable(cb->skb, CAP_SYS_ADMIN))
		return 0;
	NL_SET_ERR_MSG(cb->extack, "needs CAP_SYS_ADMIN");
	return -EPERM;
}
