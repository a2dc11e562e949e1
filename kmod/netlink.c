// SPDX-License-Identifier: GPL-2.0
/*
 * The generic-netlink family: the only door into cbench.ko.  The protocol
 * is specified in include/uapi/linux/cbench.h.
 */
#include <linux/capability.h>
#include <linux/cpumask.h>
#include <linux/sched.h>
#include <linux/security.h>
#include <net/genetlink.h>
#include <asm/cpufeature.h>
#include <asm/tsc.h>

#include <uapi/linux/cbench.h>
#include <cbench.h>

#include "cpu.h"
#include "guard.h"
#include "lib/abi.h"
#include "limits.h"
#include "netlink.h"
#include "netlink_family.h"
#include "netlink_audit.h"
#include "netlink_dump.h"
#include "netlink_run.h"
#include "netlink_tpoints.h"

/*
 * One strict policy per command, each spanning every attribute type: an
 * attribute the command does not take is NLA_UNSPEC in its policy, so the
 * generic-netlink core refuses it before any handler runs, pointing at it
 * (NLMSGERR_ATTR_OFFS).  Attributes the kernel only sends are in no
 * policy.  The family has no policy of its own: an op without one gets
 * the core's reject-everything policy, never a permissive one.
 *
 * The range structures are not const because 6.1's nla_policy points at
 * them without const.
 */
static struct netlink_range_validation reps_range = {
	.min = 1,
	.max = CBENCH_REPS_MAX,
};

static struct netlink_range_validation reps_step_range = {
	.min = 0,
	.max = CBENCH_REPS_MAX,
};

static struct netlink_range_validation tp_every_range = {
	.min = 1,
	.max = CBENCH_TP_EVERY_MAX,
};

static struct netlink_range_validation budget_range = {
	.min = CBENCH_BUDGET_MIN_NS,
	.max = U64_MAX,
};

static const struct nla_policy info_policy[CBENCH_A_MAX + 1] = {
	[CBENCH_A_UNSPEC + 1 ... CBENCH_A_MAX] = {
		.type = NLA_REJECT,
		.reject_message = "attribute not valid for this command",
	},
};

static const struct nla_policy probe_policy[CBENCH_A_MAX + 1] = {
	[CBENCH_A_PROBE_CPU] = { .type = NLA_U32 },
};

static const struct nla_policy image_new_policy[CBENCH_A_MAX + 1] = {
	[CBENCH_A_IMAGE_BYTES] = NLA_POLICY_MIN(NLA_U64, 1),
};

static const struct nla_policy image_chunk_policy[CBENCH_A_MAX + 1] = {
	[CBENCH_A_IMAGE_ID] = NLA_POLICY_MIN(NLA_U32, 1),
	[CBENCH_A_CHUNK_OFFSET] = { .type = NLA_U64 },
	[CBENCH_A_CHUNK_DATA] = { .type = NLA_BINARY, .len = CBENCH_CHUNK_MAX_BYTES },
};

static const struct nla_policy image_map_policy[CBENCH_A_MAX + 1] = {
	[CBENCH_A_IMAGE_ID] = NLA_POLICY_MIN(NLA_U32, 1),
	[CBENCH_A_IMAGE_TEXT] = { .type = NLA_BINARY,
				  .len = CBENCH_TEXT_MAX * sizeof(struct cbench_range) },
	[CBENCH_A_IMAGE_RELOCS] = { .type = NLA_BINARY, .len = CBENCH_RELOCS_MAX * sizeof(__u64) },
	[CBENCH_A_IMAGE_CRC32] = { .type = NLA_U32 },
};

/* IMAGE_DEL */
static const struct nla_policy image_id_policy[CBENCH_A_MAX + 1] = {
	[CBENCH_A_IMAGE_ID] = NLA_POLICY_MIN(NLA_U32, 1),
};

/* One key's value, inside CBENCH_A_RUN_ARGS and CBENCH_A_SIDE_ARGS (cbench_nl_args() reads them). */
static const struct nla_policy arg_policy[CBENCH_A_ARG_MAX + 1] = {
	[CBENCH_A_ARG_KEY] = { .type = NLA_NUL_STRING, .len = CBENCH_KKEY_BYTES - 1 },
	[CBENCH_A_ARG_INT] = { .type = NLA_S64 },
	[CBENCH_A_ARG_STR] = { .type = NLA_NUL_STRING, .len = CBENCH_KSTR_BYTES - 1 },
};

static const struct nla_policy args_policy[CBENCH_A_ARG + 1] = {
	[CBENCH_A_ARG] = NLA_POLICY_NESTED(arg_policy),
};

static const struct nla_policy run_start_policy[CBENCH_A_MAX + 1] = {
	[CBENCH_A_IMAGE_ID] = NLA_POLICY_MIN(NLA_U32, 1),
	[CBENCH_A_RUN_ENTRY] = { .type = NLA_U64 },
	[CBENCH_A_RUN_SETUP] = { .type = NLA_U64 },
	[CBENCH_A_RUN_BEFORE_REP] = { .type = NLA_U64 },
	[CBENCH_A_RUN_AFTER_REP] = { .type = NLA_U64 },
	[CBENCH_A_RUN_REPS] = NLA_POLICY_FULL_RANGE(NLA_U64, &reps_range),
	[CBENCH_A_RUN_REPS_STEP] = NLA_POLICY_FULL_RANGE(NLA_U64, &reps_step_range),
	[CBENCH_A_RUN_SAMPLES] = NLA_POLICY_MIN(NLA_U32, 1),
	[CBENCH_A_RUN_CPU] = { .type = NLA_U32 },
	[CBENCH_A_RUN_ARENA_BYTES] = { .type = NLA_U64 },
	[CBENCH_A_RUN_PARAM] = { .type = NLA_S64 },
	[CBENCH_A_RUN_ARGS] = NLA_POLICY_NESTED(args_policy),
	[CBENCH_A_RUN_BUDGET_NS] = NLA_POLICY_FULL_RANGE(NLA_U64, &budget_range),
	[CBENCH_A_RUN_TP_RECORDS] = NLA_POLICY_MIN(NLA_U32, 1),
	[CBENCH_A_RUN_TP_EVERY] = NLA_POLICY_FULL_RANGE(NLA_U64, &tp_every_range),
	[CBENCH_A_RUN_QUIET] = NLA_POLICY_MAX(NLA_U32, CBENCH_QUIET_MAX),
	[CBENCH_A_RUN_WATCHER] = { .type = NLA_U32 },
};

/* Registered at the end of this file; replies here name it. */
static struct genl_family cbench_genl_family;

/* Inside each of CBENCH_A_AUDIT_SIDES' nests (netlink_audit.c parses them again). */
const struct nla_policy cbench_side_policy[CBENCH_A_SIDE_MAX + 1] = {
	[CBENCH_A_SIDE_IMAGE_ID] = NLA_POLICY_MIN(NLA_U32, 1),
	[CBENCH_A_SIDE_ENTRY] = { .type = NLA_U64 },
	[CBENCH_A_SIDE_SETUP] = { .type = NLA_U64 },
	[CBENCH_A_SIDE_REPS] = NLA_POLICY_FULL_RANGE(NLA_U64, &reps_range),
	[CBENCH_A_SIDE_ARENA_BYTES] = { .type = NLA_U64 },
	[CBENCH_A_SIDE_PARAM] = { .type = NLA_S64 },
	[CBENCH_A_SIDE_ARGS] = NLA_POLICY_NESTED(args_policy),
	[CBENCH_A_SIDE_BEFORE_REP] = { .type = NLA_U64 },
	[CBENCH_A_SIDE_AFTER_REP] = { .type = NLA_U64 },
};

static const struct nla_policy audit_start_policy[CBENCH_A_MAX + 1] = {
	[CBENCH_A_RUN_CPU] = { .type = NLA_U32 },
	[CBENCH_A_RUN_BUDGET_NS] = NLA_POLICY_FULL_RANGE(NLA_U64, &budget_range),
	[CBENCH_A_RUN_QUIET] = NLA_POLICY_MAX(NLA_U32, CBENCH_QUIET_MAX),
	[CBENCH_A_RUN_WATCHER] = { .type = NLA_U32 },
	[CBENCH_A_AUDIT_SEED] = { .type = NLA_U64 },
	[CBENCH_A_AUDIT_PER_SIDE] = NLA_POLICY_RANGE(NLA_U32, 1, CBENCH_AUDIT_PER_SIDE_MAX),
	[CBENCH_A_AUDIT_ROUNDS] = NLA_POLICY_MIN(NLA_U32, 1),
	[CBENCH_A_AUDIT_SIDES] = NLA_POLICY_NESTED_ARRAY(cbench_side_policy),
};

/* RUN_GET, RUN_CANCEL, RUN_DEL and the SAMPLES and TPOINTS dumps */
static const struct nla_policy run_id_policy[CBENCH_A_MAX + 1] = {
	[CBENCH_A_RUN_ID] = NLA_POLICY_MIN(NLA_U32, 1),
};

/* The commands that put code into ring 0 or run it there. */
static bool cbench_cmd_runs_code(u8 cmd)
{
	switch (cmd) {
	case CBENCH_CMD_IMAGE_NEW:
	case CBENCH_CMD_IMAGE_CHUNK:
	case CBENCH_CMD_IMAGE_MAP:
	case CBENCH_CMD_RUN_START:
	case CBENCH_CMD_AUDIT_START:
		return true;
	default:
		return false;
	}
}

/*
 * Every privileged command passes here, and only here.  GENL_ADMIN_PERM
 * has checked CAP_NET_ADMIN; what we guard is ring 0, so we want
 * CAP_SYS_ADMIN too, of both the sender and whoever opened the socket
 * (netlink_capable()), so a socket handed to an unprivileged process grants
 * nothing.  Uploading code and running it is loading kernel code: that
 * wants CAP_SYS_MODULE as well, and a kernel locked down against unsigned
 * modules (lockdown=integrity or confidentiality) refuses it, as it would
 * refuse the module.  Checking here rather than in each handler means no
 * privileged command can forget.  Dumps do not pass here: each checks
 * with cbench_dump_capable() in its first dumpit call.
 */
static int cbench_pre_doit(const struct genl_split_ops *ops, struct sk_buff *skb,
			   struct genl_info *info)
{
	int ret;

	if (!(ops->flags & GENL_ADMIN_PERM))
		return 0;
	if (!netlink_capable(skb, CAP_SYS_ADMIN)) {
		NL_SET_ERR_MSG(info->extack, "needs CAP_SYS_ADMIN");
		return -EPERM;
	}
	if (!cbench_cmd_runs_code(ops->cmd))
		return 0;
	if (!netlink_capable(skb, CAP_SYS_MODULE)) {
		NL_SET_ERR_MSG(info->extack, "running code in ring 0 is loading kernel code: "
			       "needs CAP_SYS_MODULE");
		return -EPERM;
	}
	ret = security_locked_down(LOCKDOWN_MODULE_SIGNATURE);
	if (ret) {
		NL_SET_ERR_MSG(info->extack, "the kernel is locked down (integrity or "
			       "confidentiality): it runs no unsigned code in ring 0");
		return ret;
	}
	return 0;
}


/*
 * Refuses the attributes that the PROBE_COUNTERS policy lets through for
 * its doit form, which its dump form does not take (one op, one policy).
 */
static int check_no_attrs(struct nlattr **attrs, struct netlink_ext_ack *extack)
{
	int type;

	for (type = 1; type <= CBENCH_A_MAX; type++) {
		if (attrs[type]) {
			NL_SET_ERR_MSG_ATTR(extack, attrs[type],
					    "attribute not valid for this command");
			return -EINVAL;
		}
	}
	return 0;
}

static int put_limits(struct sk_buff *skb)
{
	const struct cbench_limits *l = &cbench_limits;
	struct nlattr *nest;

	nest = nla_nest_start(skb, CBENCH_A_INFO_LIMITS);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u64_64bit(skb, CBENCH_A_LIMIT_IMAGE_BYTES, l->image_bytes, CBENCH_A_LIMIT_UNSPEC) ||
	    nla_put_u64_64bit(skb, CBENCH_A_LIMIT_ARENA_BYTES, l->arena_bytes, CBENCH_A_LIMIT_UNSPEC) ||
	    nla_put_u32(skb, CBENCH_A_LIMIT_SAMPLES, l->samples) ||
	    nla_put_u64_64bit(skb, CBENCH_A_LIMIT_IRQOFF_NS, l->irqoff_ns, CBENCH_A_LIMIT_UNSPEC) ||
	    nla_put_u32(skb, CBENCH_A_LIMIT_RUNS, l->runs) ||
	    nla_put_u64_64bit(skb, CBENCH_A_LIMIT_TP_RECORDS, l->tp_records, CBENCH_A_LIMIT_UNSPEC) ||
	    nla_put_u32(skb, CBENCH_A_LIMIT_CALL_MS, l->call_ms) ||
	    nla_put_u32(skb, CBENCH_A_LIMIT_UNWATCHED, l->unwatched) ||
	    nla_put_u32(skb, CBENCH_A_LIMIT_QUIET, l->quiet) ||
	    nla_put_u32(skb, CBENCH_A_LIMIT_IMAGE_CRC32, 1) ||
	    nla_put_u64_64bit(skb, CBENCH_A_LIMIT_STACK_BYTES, l->stack_bytes, CBENCH_A_LIMIT_UNSPEC) ||
	    nla_put_u32(skb, CBENCH_A_LIMIT_FAULT_NET, cbench_guard_fault_net()) ||
	    nla_put_u64_64bit(skb, CBENCH_A_LIMIT_STACK_RESERVE_BYTES, THREAD_SIZE, CBENCH_A_LIMIT_UNSPEC)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int put_live(struct sk_buff *skb)
{
	struct nlattr *nest;

	nest = nla_nest_start(skb, CBENCH_A_INFO_LIVE);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, CBENCH_A_LIVE_IMAGES, atomic_read(&cbench_live.images)) ||
	    nla_put_u32(skb, CBENCH_A_LIVE_RUNS, atomic_read(&cbench_live.runs))) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static u32 tsc_flags(void)
{
	u32 flags = 0;

	if (boot_cpu_has(X86_FEATURE_CONSTANT_TSC))
		flags |= CBENCH_TSC_F_CONSTANT;
	if (boot_cpu_has(X86_FEATURE_NONSTOP_TSC))
		flags |= CBENCH_TSC_F_NONSTOP;
	if (boot_cpu_has(X86_FEATURE_TSC_RELIABLE))
		flags |= CBENCH_TSC_F_RELIABLE;
	return flags;
}

static int put_pmu(struct sk_buff *skb)
{
	const struct cbench_pmu_caps *pmu = &cbench_cpu.pmu;

	if (nla_put_u32(skb, CBENCH_A_INFO_PMU_VERSION, pmu->version))
		return -EMSGSIZE;
	if (!pmu->version)
		return 0;
	if (nla_put_u32(skb, CBENCH_A_INFO_PMU_GP_COUNTERS, pmu->gp_counters) ||
	    nla_put_u32(skb, CBENCH_A_INFO_PMU_GP_BITS, pmu->gp_bits) ||
	    nla_put_u32(skb, CBENCH_A_INFO_PMU_FIXED_COUNTERS, pmu->fixed_counters) ||
	    nla_put_u32(skb, CBENCH_A_INFO_PMU_EVENTS, pmu->events))
		return -EMSGSIZE;
	if (pmu->fixed_counters &&
	    nla_put_u32(skb, CBENCH_A_INFO_PMU_FIXED_BITS, pmu->fixed_bits))
		return -EMSGSIZE;
	return 0;
}

static int put_info(struct sk_buff *skb)
{
	const struct cbench_cpu *cpu = &cbench_cpu;

	if (nla_put_string(skb, CBENCH_A_INFO_VERSION, CBENCH_VERSION) ||
	    nla_put_u32(skb, CBENCH_A_INFO_ABI, CBENCH_ABI_VERSION) ||
	    nla_put_string(skb, CBENCH_A_INFO_CPU_VENDOR, cpu->vendor) ||
	    nla_put_u32(skb, CBENCH_A_INFO_CPU_FAMILY, cpu->family) ||
	    nla_put_u32(skb, CBENCH_A_INFO_CPU_MODEL, cpu->model) ||
	    nla_put_u32(skb, CBENCH_A_INFO_CPU_STEPPING, cpu->stepping) ||
	    (cpu->hypervisor && nla_put_flag(skb, CBENCH_A_INFO_CPU_HYPERVISOR)) ||
	    (tsc_khz && nla_put_u64_64bit(skb, CBENCH_A_INFO_TSC_KHZ, tsc_khz, CBENCH_A_UNSPEC)) ||
	    nla_put_u32(skb, CBENCH_A_INFO_TSC_FLAGS, tsc_flags()) ||
	    put_pmu(skb) ||
	    nla_put_u32(skb, CBENCH_A_INFO_COUNTERS, cbench_counters_at_load) ||
	    nla_put_u32(skb, CBENCH_A_INFO_COUNTERS_CPU, cbench_counters_cpu) ||
	    put_limits(skb) || put_live(skb))
		return -EMSGSIZE;
	return 0;
}

static int cbench_info_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *reply;
	void *hdr;
	int ret;

	reply = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!reply)
		return -ENOMEM;
	ret = -EMSGSIZE;
	hdr = genlmsg_put_reply(reply, info, &cbench_genl_family, 0, CBENCH_CMD_INFO);
	if (!hdr)
		goto err;
	ret = put_info(reply);
	if (ret)
		goto err;
	genlmsg_end(reply, hdr);
	return genlmsg_reply(reply, info);

err:
	nlmsg_free(reply);
	return ret;
}

static int put_probe(struct sk_buff *skb, unsigned int cpu, u32 counters)
{
	if (nla_put_u32(skb, CBENCH_A_PROBE_CPU, cpu) ||
	    nla_put_u32(skb, CBENCH_A_PROBE_COUNTERS, counters))
		return -EMSGSIZE;
	return 0;
}

static int cbench_probe_counters_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *cpu_attr = info->attrs[CBENCH_A_PROBE_CPU];
	struct sk_buff *reply;
	unsigned int cpu;
	u32 counters;
	void *hdr;
	int ret;

	if (GENL_REQ_ATTR_CHECK(info, CBENCH_A_PROBE_CPU)) {
		NL_SET_ERR_MSG(info->extack, "which CPU? CBENCH_A_PROBE_CPU is missing");
		return -EINVAL;
	}
	cpu = nla_get_u32(cpu_attr);
	/*
	 * A CPU that goes offline after this check is harmless: perf then
	 * refuses the counter and we report none.
	 */
	if (cpu >= nr_cpu_ids || !cpu_online(cpu)) {
		NL_SET_BAD_ATTR(info->extack, cpu_attr);
		CBENCH_SET_ERR_MSG_FMT(info->extack, "CPU is not online",
				       "CPU %u is not online", cpu);
		return -EINVAL;
	}

	counters = cbench_counters_probe(cpu);

	reply = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!reply)
		return -ENOMEM;
	ret = -EMSGSIZE;
	hdr = genlmsg_put_reply(reply, info, &cbench_genl_family, 0, CBENCH_CMD_PROBE_COUNTERS);
	if (!hdr)
		goto err;
	if (put_probe(reply, cpu, counters))
		goto err;
	genlmsg_end(reply, hdr);
	return genlmsg_reply(reply, info);

err:
	nlmsg_free(reply);
	return ret;
}

/*
 * The dump form probes every online CPU, one message each.  pre_doit does
 * not run for dumps, so we check privilege here, in the first call rather
 * than in .start: before 6.5 a .start could not return an extended-ack
 * message, while a dumpit's error and message come back in NLMSG_DONE.
 */
static int check_probe_dump(struct netlink_callback *cb)
{
	return cbench_dump_capable(cb) ?: check_no_attrs(cbench_dump_attrs(cb), cb->extack);
}

/* cb->args[0]: the next CPU to probe; cb->args[1]: the request was checked. */
static int cbench_probe_counters_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	unsigned int cpu;
	int ret;

	if (!cb->args[1]) {
		ret = check_probe_dump(cb);
		if (ret)
			return ret;
		cb->args[1] = 1;
	}
	for (cpu = cb->args[0]; cpu < nr_cpu_ids; cpu++) {
		u32 counters;
		void *hdr;

		if (!cpu_online(cpu))
			continue;
		counters = cbench_counters_probe(cpu);
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
				  &cbench_genl_family, NLM_F_MULTI, CBENCH_CMD_PROBE_COUNTERS);
		if (!hdr)
			break;
		if (put_probe(skb, cpu, counters)) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
		cond_resched();
	}
	/* Full: we probe this CPU again in the next round. */
	cb->args[0] = cpu;
	return skb->len;
}

/* Every command but INFO reaches ring 0 or the counters: GENL_ADMIN_PERM. */
static const struct genl_ops cbench_genl_ops[] = {
	{
		.cmd = CBENCH_CMD_INFO,
		.doit = cbench_info_doit,
		.policy = info_policy,
		.maxattr = CBENCH_A_MAX,
	}, {
		.cmd = CBENCH_CMD_PROBE_COUNTERS,
		.doit = cbench_probe_counters_doit,
		.dumpit = cbench_probe_counters_dumpit,
		.policy = probe_policy,
		.maxattr = CBENCH_A_MAX,
		.flags = GENL_ADMIN_PERM,
	}, {
		.cmd = CBENCH_CMD_IMAGE_NEW,
		.doit = cbench_nl_image_new,
		.policy = image_new_policy,
		.maxattr = CBENCH_A_MAX,
		.flags = GENL_ADMIN_PERM,
	}, {
		.cmd = CBENCH_CMD_IMAGE_CHUNK,
		.doit = cbench_nl_image_chunk,
		.policy = image_chunk_policy,
		.maxattr = CBENCH_A_MAX,
		.flags = GENL_ADMIN_PERM,
	}, {
		.cmd = CBENCH_CMD_IMAGE_MAP,
		.doit = cbench_nl_image_map,
		.policy = image_map_policy,
		.maxattr = CBENCH_A_MAX,
		.flags = GENL_ADMIN_PERM,
	}, {
		.cmd = CBENCH_CMD_IMAGE_DEL,
		.doit = cbench_nl_image_del,
		.policy = image_id_policy,
		.maxattr = CBENCH_A_MAX,
		.flags = GENL_ADMIN_PERM,
	}, {
		.cmd = CBENCH_CMD_RUN_START,
		.doit = cbench_nl_run_start,
		.policy = run_start_policy,
		.maxattr = CBENCH_A_MAX,
		.flags = GENL_ADMIN_PERM,
	}, {
		.cmd = CBENCH_CMD_RUN_GET,
		.doit = cbench_nl_run_get,
		.policy = run_id_policy,
		.maxattr = CBENCH_A_MAX,
		.flags = GENL_ADMIN_PERM,
	}, {
		.cmd = CBENCH_CMD_RUN_CANCEL,
		.doit = cbench_nl_run_cancel,
		.policy = run_id_policy,
		.maxattr = CBENCH_A_MAX,
		.flags = GENL_ADMIN_PERM,
	}, {
		.cmd = CBENCH_CMD_RUN_DEL,
		.doit = cbench_nl_run_del,
		.policy = run_id_policy,
		.maxattr = CBENCH_A_MAX,
		.flags = GENL_ADMIN_PERM,
	}, {
		.cmd = CBENCH_CMD_SAMPLES,
		.start = cbench_nl_samples_start,
		.dumpit = cbench_nl_samples_dump,
		.done = cbench_nl_samples_done,
		.policy = run_id_policy,
		.maxattr = CBENCH_A_MAX,
		.flags = GENL_ADMIN_PERM,
	}, {
		.cmd = CBENCH_CMD_AUDIT_START,
		.doit = cbench_nl_audit_start,
		.policy = audit_start_policy,
		.maxattr = CBENCH_A_MAX,
		.flags = GENL_ADMIN_PERM,
	}, {
		.cmd = CBENCH_CMD_TPOINTS,
		.start = cbench_nl_samples_start,
		.dumpit = cbench_nl_tpoints_dump,
		.done = cbench_nl_samples_done,
		.policy = run_id_policy,
		.maxattr = CBENCH_A_MAX,
		.flags = GENL_ADMIN_PERM,
	},
};

static struct genl_family cbench_genl_family __ro_after_init = {
	.name = CBENCH_GENL_NAME,
	.version = CBENCH_GENL_VERSION,
	.netnsok = false,
	/* Handlers lock what they share; none may hold genl_mutex for long. */
	.parallel_ops = true,
	/*
	 * resv_start_op stays 0: genetlink checks the reserved header byte (and,
	 * from 6.2, the message flags) of every command numbered from it on, so
	 * all of ours, as a new family should.
	 */
	.ops = cbench_genl_ops,
	.n_ops = ARRAY_SIZE(cbench_genl_ops),
	.pre_doit = cbench_pre_doit,
	.module = THIS_MODULE,
};

int __init cbench_genl_init(void)
{
	/* The handlers' replies go out in it from the first request on. */
	cbench_nl_family = &cbench_genl_family;
	return genl_register_family(&cbench_genl_family);
}

void __exit cbench_genl_uninit(void)
{
	genl_unregister_family(&cbench_genl_family);
}
