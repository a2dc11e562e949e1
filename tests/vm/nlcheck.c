// SPDX-License-Identifier: GPL-2.0
/*
 * cbench-nlcheck: sends cbench.ko the malformed and borderline requests
 * cbenchctl never sends, and checks each is answered as the protocol header
 * says: the right errno and, where the module has more to say, its
 * extended-ack text.  Runs in the test VM, as root.  Prints PASS/FAIL per
 * case; exits 1 if any failed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/capability.h>
#include <linux/genetlink.h>

#include <netlink/attr.h>
#include <netlink/msg.h>

#include <uapi/linux/cbench.h>

#include "backend/netlink.h"
#include "cmd/subcommands.h"

/* Drops cap from this process's effective set; 0 or -errno. */
static int drop_effective_cap(unsigned int cap)
{
	struct __user_cap_header_struct header = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];

	if (syscall(SYS_capget, &header, data))
		return -errno;
	data[CAP_TO_INDEX(cap)].effective &= ~CAP_TO_MASK(cap);
	if (syscall(SYS_capset, &header, data))
		return -errno;
	return 0;
}

struct reply {
	int messages;
	bool has_cpu, has_counters;
	uint32_t cpu, counters;
};

struct nlcheck {
	const char *name;
	uint8_t cmd;
	int (*build)(struct nl_msg *msg, void *arg);
	bool dump;
	bool without_sys_admin;		/* sent without CAP_SYS_ADMIN */
	int expect;			/* 0 or -errno */
	const char *expect_text;	/* in the error text; NULL: anything */
};

static int put_probe_cpu_0(struct nl_msg *msg, void *arg)
{
	return nla_put_u32(msg, CBENCH_A_PROBE_CPU, 0) < 0 ? -EMSGSIZE : 0;
}

static int put_probe_cpu_short(struct nl_msg *msg, void *arg)
{
	return nla_put_u16(msg, CBENCH_A_PROBE_CPU, 0) < 0 ? -EMSGSIZE : 0;
}

static int put_unknown_attr(struct nl_msg *msg, void *arg)
{
	return nla_put_u32(msg, CBENCH_A_MAX + 1, 0) < 0 ? -EMSGSIZE : 0;
}

static int put_reply_only_attr(struct nl_msg *msg, void *arg)
{
	return nla_put_string(msg, CBENCH_A_INFO_VERSION, "1") < 0 ? -EMSGSIZE : 0;
}

/* The genetlink header's reserved byte must be 0 for a new family. */
static int set_reserved_byte(struct nl_msg *msg, void *arg)
{
	struct genlmsghdr *hdr = nlmsg_data(nlmsg_hdr(msg));

	hdr->reserved = 1;
	return 0;
}

static int put_probe_cpu_huge(struct nl_msg *msg, void *arg)
{
	return nla_put_u32(msg, CBENCH_A_PROBE_CPU, UINT32_MAX) < 0 ? -EMSGSIZE : 0;
}

/* Replies are counted, and the probe's attributes checked; others pass. */
static struct nla_policy any_policy[CBENCH_A_MAX + 1] = {
	[CBENCH_A_PROBE_CPU] = { .type = NLA_U32 },
	[CBENCH_A_PROBE_COUNTERS] = { .type = NLA_U32 },
};

static int parse_any(struct nlattr **tb, void *arg)
{
	struct reply *reply = arg;

	reply->messages++;
	if (tb[CBENCH_A_PROBE_CPU]) {
		reply->has_cpu = true;
		reply->cpu = nla_get_u32(tb[CBENCH_A_PROBE_CPU]);
	}
	if (tb[CBENCH_A_PROBE_COUNTERS]) {
		reply->has_counters = true;
		reply->counters = nla_get_u32(tb[CBENCH_A_PROBE_COUNTERS]);
	}
	return 0;
}

/*
 * In order: the ones without CAP_SYS_ADMIN last, since we do not take it
 * back.  Fields: name, command, attributes, dump, without CAP_SYS_ADMIN,
 * errno, text.
 */
static const struct nlcheck checks[] = {
	{ "INFO with an attribute it does not take", CBENCH_CMD_INFO, put_probe_cpu_0,
	  false, false, -EINVAL, "attribute not valid for this command" },
	{ "INFO with an attribute only the kernel sends", CBENCH_CMD_INFO, put_reply_only_attr,
	  false, false, -EINVAL, NULL },
	{ "INFO with an unknown attribute type", CBENCH_CMD_INFO, put_unknown_attr,
	  false, false, -EINVAL, NULL },
	{ "PROBE_COUNTERS without a CPU", CBENCH_CMD_PROBE_COUNTERS, NULL,
	  false, false, -EINVAL, "CBENCH_A_PROBE_CPU is missing" },
	{ "PROBE_COUNTERS with a short CPU attribute", CBENCH_CMD_PROBE_COUNTERS,
	  put_probe_cpu_short, false, false, -EINVAL, NULL },
	{ "PROBE_COUNTERS on CPU 2^32-1", CBENCH_CMD_PROBE_COUNTERS, put_probe_cpu_huge,
	  false, false, -EINVAL, "is not online" },
	{ "an unknown command", CBENCH_CMD_MAX + 1, NULL, false, false, -EOPNOTSUPP, NULL },
	{ "INFO with a nonzero reserved header byte", CBENCH_CMD_INFO, set_reserved_byte,
	  false, false, -EINVAL, NULL },
	{ "PROBE_COUNTERS on CPU 0", CBENCH_CMD_PROBE_COUNTERS, put_probe_cpu_0,
	  false, false, 0, NULL },
	{ "PROBE_COUNTERS dump with a CPU attribute", CBENCH_CMD_PROBE_COUNTERS,
	  put_probe_cpu_0, true, false, -EINVAL, "attribute not valid for this command" },
	{ "PROBE_COUNTERS dump: one message per online CPU", CBENCH_CMD_PROBE_COUNTERS,
	  NULL, true, false, 0, NULL },
	/* CAP_NET_ADMIN passes GENL_ADMIN_PERM; the module wants CAP_SYS_ADMIN too. */
	{ "PROBE_COUNTERS with CAP_NET_ADMIN alone", CBENCH_CMD_PROBE_COUNTERS,
	  put_probe_cpu_0, false, true, -EPERM, "needs CAP_SYS_ADMIN" },
	{ "PROBE_COUNTERS dump with CAP_NET_ADMIN alone", CBENCH_CMD_PROBE_COUNTERS,
	  NULL, true, true, -EPERM, "needs CAP_SYS_ADMIN" },
	{ "INFO with CAP_NET_ADMIN alone", CBENCH_CMD_INFO, NULL, false, true, 0, NULL },
};

int main(int argc, char *argv[])
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	struct cbench_nl *nl;
	int failures = 0, ret;

	ret = cbench_nl_open(&nl);
	if (ret) {
		fprintf(stderr, "%s: unable to reach cbench.ko: %s\n", argv[0],
			cbench_nl_strerror(NULL, ret));
		return 1;
	}
	for (size_t i = 0; i < sizeof(checks) / sizeof(checks[0]); i++) {
		const struct nlcheck *c = &checks[i];
		struct reply reply = { 0 };
		struct cbench_nl_request req = {
			.cmd = c->cmd,
			.dump = c->dump,
			.build = c->build,
			.parse = parse_any,
			.policy = any_policy,
			.arg = &reply,
		};
		const char *text;
		bool ok;

		if (c->without_sys_admin && drop_effective_cap(CAP_SYS_ADMIN)) {
			printf("nlcheck: FAIL: %s: cannot drop CAP_SYS_ADMIN\n", c->name);
			failures++;
			continue;
		}
		ret = cbench_nl_request(nl, &req);
		text = ret ? cbench_nl_strerror(nl, ret) : "success";
		ok = ret == c->expect && (!c->expect_text || strstr(text, c->expect_text));
		/*
		 * A refused request gets no reply; an accepted one exactly one,
		 * or as a dump one per online CPU.
		 */
		ok = ok && reply.messages == (ret ? 0 : c->dump ? online : 1);
		if (!ret && c->cmd == CBENCH_CMD_PROBE_COUNTERS)
			ok = ok && reply.has_cpu && reply.has_counters &&
			     reply.cpu == (c->dump ? (uint32_t)online - 1 : 0);
		printf("nlcheck: %s: %s: %s\n", ok ? "PASS" : "FAIL", c->name, text);
		failures += !ok;
	}
	cbench_nl_close(nl);
	return failures ? 1 : 0;
}
