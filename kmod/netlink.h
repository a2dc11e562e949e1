/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _CBENCH_NETLINK_H
#define _CBENCH_NETLINK_H

#include <linux/init.h>

int __init cbench_genl_init(void);
void __exit cbench_genl_uninit(void);

#endif /* _CBENCH_NETLINK_H */
