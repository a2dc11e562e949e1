// SPDX-License-Identifier: GPL-2.0
/*
 * Loop timing points over netlink: RUN_START's request for them and the
 * TPOINTS dump, specified in include/uapi/linux/cbench.h.
 */
#include <linux/overflow.h>
#include <net/genetlink.h>

#include "client.h"
#include "limits.h"
#include "netlink_family.h"
#include "netlink_dump.h"
#include "netlink_tpoints.h"
#include "run.h"
#include "tpoints.h"

int cbench_nl_tp_config(struct genl_info *info, struct cbench_run_config *config)
{
	struct nlattr *records = info->attrs[CBENCH_A_RUN_TP_RECORDS];
	struct nlattr *every = info->attrs[CBENCH_A_RUN_TP_EVERY];
	u64 total;

	config->tp_records = 0;
	config->tp_every = 0;
	if (!records) {
		if (every) {
			NL_SET_ERR_MSG_ATTR(info->extack, every,
					    "TP_EVERY without TP_RECORDS: no timing points to record");
			return -EINVAL;
		}
		return 0;
	}
	/* The policy keeps TP_RECORDS at least 1 and TP_EVERY in 1 .. 2^32. */
	config->tp_records = nla_get_u32(records);
	config->tp_every = every ? nla_get_u64(every) : 1;
	if (check_mul_overflow((u64)config->samples, (u64)config->tp_records, &total) ||
	    total > cbench_limits.tp_records) {
		CBENCH_SET_ERR_MSG_FMT(info->extack,
				       "SAMPLES * TP_RECORDS over the module's tpoints_max_records",
				       "SAMPLES * TP_RECORDS = %llu, over the module's tpoints_max_records (%lu)",
				       total, cbench_limits.tp_records);
		NL_SET_BAD_ATTR(info->extack, records);
		return -E2BIG;
	}
	return 0;
}

/*
 * The TPOINTS dump shares the SAMPLES dump's .start and .done, and its
 * cursor: cb->args[0] the run, [1] the next sample, [2] whether the request
 * was checked; [3] is the next record of that sample.
 */
static int check_tp_dump(struct netlink_callback *cb)
{
	struct nlattr **attrs = cbench_dump_attrs(cb);
	struct cbench_run *run = (struct cbench_run *)cb->args[0];
	int ret;

	ret = cbench_nl_dump_check(cb);
	if (ret)
		return ret;
	if (!run->tp_buf) {
		NL_SET_ERR_MSG_ATTR(cb->extack, attrs[CBENCH_A_RUN_ID],
				    "the run records no timing points (started without TP_RECORDS)");
		return -EINVAL;
	}
	return 0;
}

/*
 * One message: sample's records from first on, as many as fit (at least
 * the message without records when it has none).  Returns the records
 * put, or -EMSGSIZE if not even the message fits.
 */
static int put_tp(struct sk_buff *skb, struct netlink_callback *cb, struct cbench_run *run,
		  u32 sample, u32 first)
{
	u32 kept = cbench_tp_kept(run, sample), n;
	const struct cbench_tp_krecord *rec;
	void *hdr;
	int room;

	/* An attribute holds less than 64 KiB; nla_put would not say so. */
	room = min_t(int, skb_tailroom(skb) - 256, U16_MAX - NLA_HDRLEN);
	n = min_t(u32, kept - first, room > 0 ? room / (int)sizeof(*rec) : 0);
	if (!n && first < kept)
		return -EMSGSIZE;
	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq, cbench_nl_family,
			  NLM_F_MULTI, CBENCH_CMD_TPOINTS);
	if (!hdr)
		return -EMSGSIZE;
	rec = &run->tp_buf[(size_t)sample * run->config.tp_records + first];
	if (nla_put_u32(skb, CBENCH_A_RUN_ID, run->obj.id) ||
	    nla_put_u32(skb, CBENCH_A_TP_SAMPLE, sample) ||
	    nla_put_u64_64bit(skb, CBENCH_A_TP_TAKEN, run->tp_taken[sample], CBENCH_A_UNSPEC) ||
	    nla_put_u32(skb, CBENCH_A_TP_FIRST, first) ||
	    (n && nla_put(skb, CBENCH_A_TP_RECORDS, n * sizeof(*rec), rec))) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return (int)n;
}

int cbench_nl_tpoints_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct cbench_run *run = (struct cbench_run *)cb->args[0];
	u32 sample = cb->args[1], first = cb->args[3];
	int n, ret;
	u32 done;

	/* Samples below done have their records and count written. */
	ret = cbench_nl_dump_begin(cb, check_tp_dump, sample, &done);
	if (ret)
		return ret;
	while (sample < done) {
		n = put_tp(skb, cb, run, sample, first);
		if (n < 0)
			break;
		first += n;
		if (first >= cbench_tp_kept(run, sample)) {
			sample++;
			first = 0;
		}
	}
	if (sample == cb->args[1] && first == cb->args[3] && sample < done)
		return -EMSGSIZE;	/* not even one message fits an empty skb */
	cb->args[1] = sample;
	cb->args[3] = first;
	return skb->len;
}
