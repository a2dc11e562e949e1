/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every file of the generic netlink family shares, below them all:
 * the family their replies and dumps are put in (netlink.c keeps it
 * static, and points cbench_nl_family at it before registering it), and
 * the check each dump makes of its caller.  So no handler reaches up to
 * netlink.c, whose ops table names them.
 */
#ifndef _CBENCH_NETLINK_FAMILY_H
#define _CBENCH_NETLINK_FAMILY_H

#include <net/genetlink.h>

extern const struct genl_family *cbench_nl_family;

/* A dump's privilege check, in its first dumpit call (pre_doit does doits). */
int cbench_dump_capable(struct netlink_callback *cb);

#endif /* _CBENCH_NETLINK_FAMILY_H */
