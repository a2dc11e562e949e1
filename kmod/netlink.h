/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _CBENCH_NETLINK_H
#define _CBENCH_NETLINK_H

int cbench_genl_init(void);
void cbench_genl_uninit(void);

#endif /* _CBENCH_NETLINK_H */
