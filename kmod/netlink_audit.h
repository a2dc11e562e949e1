/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The audit run's handler (netlink_audit.c), for the ops table in netlink.c.
 */
#ifndef _CBENCH_NETLINK_AUDIT_H
#define _CBENCH_NETLINK_AUDIT_H

#include <net/genetlink.h>

/* CBENCH_CMD_AUDIT_START (netlink_audit.c). */
int cbench_nl_audit_start(struct sk_buff *skb, struct genl_info *info);

#endif /* _CBENCH_NETLINK_AUDIT_H */
