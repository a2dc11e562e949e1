// SPDX-License-Identifier: GPL-2.0
/*
 * The generic-netlink client: one socket, one receive loop, and the
 * kernel's extended-ack text, shared by every command (after iw's
 * nl80211_init() and __handle_cmd()).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <linux/netlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/handlers.h>
#include <netlink/socket.h>

#include <uapi/linux/cbench.h>

#include "backend/netlink.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

/* Largest request: a CBENCH_CHUNK_MAX_BYTES chunk and a few small attributes. */
#define REQUEST_BYTES (CBENCH_CHUNK_MAX_BYTES + 4096)

struct cbench_nl {
	struct nl_sock *sock;
	int family;
	char ext_msg[256];	/* extended-ack text of the last request */
	char error[320];	/* cbench_nl_strerror()'s answer */
};

/* libnl reports its own error codes; we speak errno. */
int cbench_nl_errno(int nlerr)
{
	switch (nlerr < 0 ? -nlerr : nlerr) {
	case 0:
		return 0;
	case NLE_NOMEM:
		return -ENOMEM;
	case NLE_PERM:
		return -EPERM;
	case NLE_NOACCESS:
		return -EACCES;
	case NLE_OBJ_NOTFOUND:
		return -ENOENT;
	case NLE_AGAIN:
		return -EAGAIN;
	case NLE_INTR:
		return -EINTR;
	case NLE_INVAL:
		return -EINVAL;
	case NLE_RANGE:
		return -ERANGE;
	case NLE_MSGSIZE:
		return -EMSGSIZE;
	case NLE_OPNOTSUPP:
		return -EOPNOTSUPP;
	case NLE_AF_NOSUPPORT:
		return -EAFNOSUPPORT;
	case NLE_BUSY:
		return -EBUSY;
	case NLE_NODEV:
		return -ENODEV;
	case NLE_BAD_SOCK:
		return -EBADF;
	case NLE_SEQ_MISMATCH:
	case NLE_MSG_TRUNC:
	case NLE_MSG_TOOSHORT:
	case NLE_MSG_OVERFLOW:
	case NLE_PROTO_MISMATCH:
	case NLE_PARSE_ERR:
		return -EPROTO;
	default:
		return -EIO;
	}
}

int cbench_nl_open(struct cbench_nl **nlp)
{
	struct cbench_nl *nl;
	int one = 1, ret;

	nl = calloc(1, sizeof(*nl));
	if (!nl)
		return -ENOMEM;
	nl->sock = nl_socket_alloc();
	if (!nl->sock) {
		ret = -ENOMEM;
		goto err_free;
	}
	ret = cbench_nl_errno(genl_connect(nl->sock));
	if (ret)
		goto err_sock;
	/* Replies to dumps can exceed a page; let libnl size its buffer. */
	nl_socket_enable_msg_peek(nl->sock);
	/*
	 * Ask for the kernel's error text, and for errors without a copy of
	 * our request.  Old kernels lack these options; errors then come
	 * without text, which is no reason to fail.
	 */
	(void)setsockopt(nl_socket_get_fd(nl->sock), SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	(void)setsockopt(nl_socket_get_fd(nl->sock), SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));

	nl->family = genl_ctrl_resolve(nl->sock, CBENCH_GENL_NAME);
	if (nl->family < 0) {
		ret = cbench_nl_errno(nl->family);
		goto err_sock;
	}
	*nlp = nl;
	return 0;

err_sock:
	nl_socket_free(nl->sock);
err_free:
	free(nl);
	return ret;
}

void cbench_nl_close(struct cbench_nl *nl)
{
	if (!nl)
		return;
	nl_socket_free(nl->sock);
	free(nl);
}

struct receive {
	struct cbench_nl *nl;
	const struct cbench_nl_request *req;
	int err;		/* first error: the kernel's, the parser's or ours */
	bool done;
};

static void fail(struct receive *r, int err)
{
	if (!r->err)
		r->err = err;
}

/* Keeps NLMSGERR_ATTR_MSG from the extended-ack attributes at attrs. */
static void keep_ext_msg(struct cbench_nl *nl, struct nlattr *attrs, int len)
{
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];

	if (len <= 0 || nla_parse(tb, NLMSGERR_ATTR_MAX, attrs, len, NULL) < 0)
		return;
	if (tb[NLMSGERR_ATTR_MSG])
		nla_strlcpy(nl->ext_msg, tb[NLMSGERR_ATTR_MSG], sizeof(nl->ext_msg));
}

static int on_error(struct sockaddr_nl *who, struct nlmsgerr *error, void *arg)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)error - 1;
	struct receive *r = arg;
	int offset;

	fail(r, error->error ? error->error : -EPROTO);
	r->done = true;
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return NL_STOP;
	/* The TLVs follow the error and, unless capped, a copy of our request. */
	offset = NLMSG_HDRLEN + sizeof(*error);
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		offset += error->msg.nlmsg_len - NLMSG_HDRLEN;
	if ((int)nlh->nlmsg_len > offset)
		keep_ext_msg(r->nl, (struct nlattr *)((char *)nlh + offset),
			     (int)nlh->nlmsg_len - offset);
	return NL_STOP;
}

static int on_ack(struct nl_msg *msg, void *arg)
{
	struct receive *r = arg;

	r->done = true;
	return NL_STOP;
}

/* The end of a dump, which carries the dump's error, if any. */
static int on_finish(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct receive *r = arg;
	int error;

	r->done = true;
	if (nlmsg_datalen(nlh) < (int)sizeof(error))
		return NL_STOP;
	memcpy(&error, nlmsg_data(nlh), sizeof(error));
	if (error < 0) {
		fail(r, error);
		if (nlh->nlmsg_flags & NLM_F_ACK_TLVS)
			keep_ext_msg(r->nl, (struct nlattr *)((char *)nlmsg_data(nlh) + sizeof(error)),
				     nlmsg_datalen(nlh) - (int)sizeof(error));
	}
	return NL_STOP;
}

static int on_valid(struct nl_msg *msg, void *arg)
{
	struct nlattr *attrs[CBENCH_A_MAX + 1];
	struct receive *r = arg;
	int ret;

	/* After an error we only drain what is left of the reply. */
	if (r->err || !r->req->parse)
		return NL_SKIP;
	if (!r->req->policy) {
		fail(r, -EINVAL);	/* a request without a reply policy is ours to fix */
		return NL_SKIP;
	}
	ret = genlmsg_parse(nlmsg_hdr(msg), 0, attrs, CBENCH_A_MAX, r->req->policy);
	if (ret < 0) {
		fail(r, -EPROTO);
		return NL_SKIP;
	}
	ret = r->req->parse(attrs, r->req->arg);
	if (ret < 0)
		fail(r, ret);
	return NL_SKIP;
}

int cbench_nl_request(struct cbench_nl *nl, const struct cbench_nl_request *req)
{
	struct receive r = { .nl = nl, .req = req };
	struct nl_msg *msg;
	struct nl_cb *cb;
	int ret;

	nl->ext_msg[0] = '\0';
	/* Room for the largest attribute a request carries (an image chunk). */
	msg = nlmsg_alloc_size(REQUEST_BYTES);
	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!msg || !cb) {
		ret = -ENOMEM;
		goto out;
	}
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, nl->family, 0,
			 req->dump ? NLM_F_DUMP : 0, req->cmd, CBENCH_GENL_VERSION)) {
		ret = -EMSGSIZE;
		goto out;
	}
	if (req->build) {
		ret = req->build(msg, req->build_arg ? req->build_arg : req->arg);
		if (ret)
			goto out;
	}

	nl_cb_err(cb, NL_CB_CUSTOM, on_error, &r);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, on_ack, &r);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, on_finish, &r);
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, on_valid, &r);

	/* libnl adds NLM_F_ACK, so a plain request also ends in an ack. */
	ret = nl_send_auto(nl->sock, msg);
	if (ret < 0) {
		ret = cbench_nl_errno(ret);
		goto out;
	}
	while (!r.done) {
		ret = nl_recvmsgs(nl->sock, cb);
		if (ret < 0) {
			fail(&r, cbench_nl_errno(ret));
			break;
		}
	}
	ret = r.err;
out:
	nl_cb_put(cb);
	nlmsg_free(msg);
	return ret;
}

const char *cbench_nl_strerror(struct cbench_nl *nl, int err)
{
	static char fallback[128];
	char *buf = nl ? nl->error : fallback;
	size_t size = nl ? sizeof(nl->error) : sizeof(fallback);

	if (nl && nl->ext_msg[0])
		snprintf(buf, size, "%s (%s)", strerror(-err), nl->ext_msg);
	else
		snprintf(buf, size, "%s", strerror(-err));
	return buf;
}
