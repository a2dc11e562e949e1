// SPDX-License-Identifier: GPL-2.0
/*
 * What the SAMPLES and TPOINTS dumps share: the run they read, held from
 * .start to .done, and the checks every dumpit call begins with.
 */
#include <linux/netlink.h>
#include <net/genetlink.h>

#include "client.h"
#include "compat.h"
#include "netlink_family.h"
#include "netlink_dump.h"
#include "run.h"

/*
 * cb->args[0] holds the run (a reference, from .start to .done, so its
 * samples stay readable whatever happens to it), cb->args[1] the index of
 * the next sample or record to send, cb->args[2] whether the request has
 * been checked.
 */
int cbench_nl_samples_start(struct netlink_callback *cb)
{
	const struct nlattr *attr = cbench_dump_attrs(cb)[CBENCH_A_RUN_ID];
	struct cbench_run *run = NULL;

	/*
	 * Before 6.5 an extended-ack message set here is lost, so we only look
	 * the run up; the first dumpit call says what is wrong, and its message
	 * comes back in NLMSG_DONE.  Only a privileged socket owns runs.
	 */
	if (attr) {
		cbench_client_lock();
		run = cbench_client_run(NETLINK_CB(cb->skb).sk, nla_get_u32(attr));
		if (run)
			cbench_run_get(run);
		cbench_client_unlock();
	}
	cb->args[0] = (long)run;
	cb->args[1] = 0;
	cb->args[2] = 0;
	return 0;
}

int cbench_nl_samples_done(struct netlink_callback *cb)
{
	struct cbench_run *run = (struct cbench_run *)cb->args[0];

	if (run)
		cbench_run_put(run);
	return 0;
}

int cbench_nl_dump_check(struct netlink_callback *cb)
{
	struct nlattr **attrs = cbench_dump_attrs(cb);
	int ret;

	ret = cbench_dump_capable(cb);
	if (ret)
		return ret;
	if (NL_REQ_ATTR_CHECK(cb->extack, NULL, attrs, CBENCH_A_RUN_ID)) {
		NL_SET_ERR_MSG(cb->extack, "missing CBENCH_A_RUN_ID");
		return -EINVAL;
	}
	if (!cb->args[0]) {
		NL_SET_ERR_MSG_ATTR(cb->extack, attrs[CBENCH_A_RUN_ID], "no such run on this socket");
		return -ENOENT;
	}
	return 0;
}

int cbench_nl_dump_begin(struct netlink_callback *cb, int (*check)(struct netlink_callback *cb),
			 u32 from, u32 *done)
{
	struct cbench_run *run = (struct cbench_run *)cb->args[0];
	bool listed;
	int ret;

	if (!cb->args[2]) {
		ret = check(cb);
		if (ret)
			return ret;
		cb->args[2] = 1;
	}
	cbench_client_lock();
	listed = cbench_client_run_listed(run);
	cbench_client_unlock();
	/* Pairs with the thread's release: samples below it are written. */
	*done = smp_load_acquire(&run->done);
	/*
	 * Deleted under way, with samples not sent: ending as if complete
	 * would hand the client a short read it cannot tell from a full one.
	 */
	if (!listed && from < *done) {
		NL_SET_ERR_MSG(cb->extack, "the run was deleted during the dump");
		return -ENOENT;
	}
	return 0;
}

