/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Talking to cbench.ko over generic netlink.  A command fills in a request
 * (its attributes, a parser for each reply message) and calls
 * cbench_nl_request(), which sends it and receives everything it causes:
 * one reply, the messages of a dump, the ack, the kernel's error.
 */
#ifndef _CBENCH_NETLINK_H
#define _CBENCH_NETLINK_H

#include <stdbool.h>
#include <stdint.h>

#include <netlink/attr.h>
#include <netlink/msg.h>

struct cbench_nl;

/* Adds the request's attributes to msg; 0 or -errno. */
typedef int (*cbench_nl_build_fn)(struct nl_msg *msg, void *arg);

/*
 * Reads one reply message; attrs[CBENCH_A_*] are its top-level attributes,
 * checked against the request's policy.  0 to go on, -errno to fail the
 * request (the rest of the reply is still received, so the socket stays
 * usable).
 */
typedef int (*cbench_nl_parse_fn)(struct nlattr **attrs, void *arg);

struct cbench_nl_request {
	uint8_t cmd;			/* CBENCH_CMD_* */
	bool dump;			/* a dump: many messages, then DONE */
	cbench_nl_build_fn build;	/* NULL: no attributes */
	cbench_nl_parse_fn parse;	/* NULL: no reply expected but the ack */
	/* The reply's attributes, by type (CBENCH_A_MAX + 1 entries); a
	 * reply that does not fit it fails the request with -EPROTO before
	 * parse sees it.  Needed with parse. */
	struct nla_policy *policy;
	void *arg;			/* for parse, and build unless build_arg */
	void *build_arg;		/* for build; NULL: arg */
};

/*
 * Opens a generic-netlink socket and finds the cbench family.
 * -ENOENT: the family does not exist, i.e. cbench.ko is not loaded.
 */
int cbench_nl_open(struct cbench_nl **nl);
void cbench_nl_close(struct cbench_nl *nl);

/* Sends req and receives its reply; 0 or -errno. */
int cbench_nl_request(struct cbench_nl *nl, const struct cbench_nl_request *req);

/*
 * Says why the last request failed with err: strerror(-err), followed by
 * the kernel's extended-ack text if it sent one.  Valid until the next
 * request; nl may be NULL.
 */
const char *cbench_nl_strerror(struct cbench_nl *nl, int err);

/* A libnl error code (NLE_*, either sign) as -errno; 0 for 0. */
int cbench_nl_errno(int nlerr);

#endif /* _CBENCH_NETLINK_H */
