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

#include <netlink/attr.h>

#include <uapi/linux/cbench.h>

#include "netlink.h"
#include "subcommands.h"

struct reply {
	int messages;
	bool has_cpu, has_counters;
	uint32_t cpu, counters;
};

struct nlcheck {
	const char *name;
	uint8_t cmd;
	int (*build)(struct nl_msg *msg, void *arg);
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

static int put_probe_cpu_huge(struct nl_msg *msg, void *arg)
{
	return nla_put_u32(msg, CBENCH_A_PROBE_CPU, UINT32_MAX) < 0 ? -EMSGSIZE : 0;
}

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

static const struct nlcheck checks[] = {
	{ "INFO with an attribute it does not take", CBENCH_CMD_INFO, put_probe_cpu_0,
	  -EINVAL, "attribute not valid for this command" },
	{ "INFO with an attribute only the kernel sends", CBENCH_CMD_INFO, put_reply_only_attr,
	  -EINVAL, NULL },
	{ "INFO with an unknown attribute type", CBENCH_CMD_INFO, put_unknown_attr,
	  -EINVAL, NULL },
	{ "PROBE_COUNTERS without a CPU", CBENCH_CMD_PROBE_COUNTERS, NULL,
	  -EINVAL, "CBENCH_A_PROBE_CPU is missing" },
	{ "PROBE_COUNTERS with a short CPU attribute", CBENCH_CMD_PROBE_COUNTERS,
	  put_probe_cpu_short, -EINVAL, NULL },
	{ "PROBE_COUNTERS on CPU 2^32-1", CBENCH_CMD_PROBE_COUNTERS, put_probe_cpu_huge,
	  -EINVAL, "is not online" },
	{ "an unknown command", CBENCH_CMD_MAX + 1, NULL, -EOPNOTSUPP, NULL },
	{ "PROBE_COUNTERS on CPU 0", CBENCH_CMD_PROBE_COUNTERS, put_probe_cpu_0, 0, NULL },
};

int main(int argc, char *argv[])
{
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
			.build = c->build,
			.parse = parse_any,
			.arg = &reply,
		};
		const char *text;
		bool ok;

		ret = cbench_nl_request(nl, &req);
		text = ret ? cbench_nl_strerror(nl, ret) : "success";
		ok = ret == c->expect && (!c->expect_text || strstr(text, c->expect_text));
		/* A refused request gets no reply; an accepted one exactly one. */
		ok = ok && reply.messages == (ret ? 0 : 1);
		if (!ret && c->cmd == CBENCH_CMD_PROBE_COUNTERS)
			ok = ok && reply.has_cpu && reply.cpu == 0 && reply.has_counters;
		printf("nlcheck: %s: %s: %s\n", ok ? "PASS" : "FAIL", c->name, text);
		failures += !ok;
	}
	cbench_nl_close(nl);
	return failures ? 1 : 0;
}
