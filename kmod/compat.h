/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differences between the kernels cbench.ko builds against, in one place.
 * Kbuild force-includes this file and defines CBENCH_HAVE_* from probes of
 * the headers we build against; we never test LINUX_VERSION_CODE, because
 * Debian backports newer interfaces into older kernels.
 */
#ifndef _CBENCH_COMPAT_H
#define _CBENCH_COMPAT_H

/*
 * CBENCH_SET_ERR_MSG_FMT(extack, plain, fmt, args...): an extended-ack
 * message with the offending values where the kernel can carry a formatted
 * message (6.2 and later: NL_SET_ERR_MSG_FMT), else the plain one.
 */
#ifdef CBENCH_HAVE_NL_SET_ERR_MSG_FMT
#define CBENCH_SET_ERR_MSG_FMT(extack, plain, fmt, args...)	\
	NL_SET_ERR_MSG_FMT(extack, fmt, ##args)
#else
#define CBENCH_SET_ERR_MSG_FMT(extack, plain, fmt, args...)	\
	NL_SET_ERR_MSG(extack, plain)
#endif

/*
 * The ops a family's pre_doit() gets: struct genl_split_ops from 6.2 on,
 * struct genl_ops before.  We use the new name; both have .flags.
 */
#ifndef CBENCH_HAVE_GENL_SPLIT_OPS
#define genl_split_ops genl_ops
#endif

/*
 * The request's parsed attributes in a dump's callbacks: in the struct
 * genl_info that genl_info_dump() returns from 6.6 on, in struct
 * genl_dumpit_info before.
 */
#ifdef CBENCH_HAVE_GENL_INFO_DUMP
#define cbench_dump_attrs(cb) (genl_info_dump(cb)->attrs)
#else
#define cbench_dump_attrs(cb) (genl_dumpit_info(cb)->attrs)
#endif

/*
 * Not used: genetlink's per-socket family storage (sock_priv_size and
 * friends, 6.8 and later).  It is allocated only through
 * genl_sk_priv_get(), which Debian's 6.12 does not export to modules, so a
 * module's sock_priv_init/destroy would never run.  client.c keys objects
 * by socket itself, on every kernel, which closes the same port-id reuse
 * window sock_priv would.
 */

#endif /* _CBENCH_COMPAT_H */
