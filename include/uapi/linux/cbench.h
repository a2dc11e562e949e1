/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * cbench generic-netlink protocol, shared by cbench.ko and cbenchctl.
 *
 * Family name CBENCH_GENL_NAME, version CBENCH_GENL_VERSION.  Every request
 * is validated against one family-level strict policy: unknown attributes,
 * wrong lengths and out-of-range values are refused with -EINVAL and an
 * extended-ack message naming the attribute.
 *
 * Privilege: every command except CBENCH_CMD_INFO needs CAP_SYS_ADMIN in the
 * initial user namespace (GENL_ADMIN_PERM plus a check against the socket).
 * An unprivileged request is refused with -EPERM.  The family is not
 * netns-aware: it exists in the initial network namespace only.
 *
 * Errors: a refused request gets -errno in the netlink error message and,
 * where the module can say more than the errno, an extended-ack text
 * (NLMSGERR_ATTR_MSG) and the offending attribute (NLMSGERR_ATTR_OFFS).
 * Ask for them with the NETLINK_EXT_ACK socket option.
 *
 * Integers: NLA_U64 attributes are 64-bit aligned by padding attributes of
 * type 0 (CBENCH_A_UNSPEC, or the nest's *_UNSPEC); readers skip them.
 *
 * CBENCH_CMD_INFO (GET, unprivileged)
 *   request: no attributes
 *   reply:   one message, CBENCH_CMD_INFO, with
 *     CBENCH_A_INFO_VERSION          NLA_NUL_STRING  module version
 *     CBENCH_A_INFO_ABI              NLA_U32         CBENCH_ABI_VERSION it runs
 *     CBENCH_A_INFO_CPU_VENDOR       NLA_NUL_STRING  CPUID vendor string
 *     CBENCH_A_INFO_CPU_FAMILY       NLA_U32         display family
 *     CBENCH_A_INFO_CPU_MODEL        NLA_U32         display model
 *     CBENCH_A_INFO_CPU_STEPPING     NLA_U32
 *     CBENCH_A_INFO_CPU_HYPERVISOR   NLA_FLAG        CPUID.1:ECX[31] set: a VM
 *     CBENCH_A_INFO_TSC_KHZ          NLA_U64         kernel's tsc_khz; absent if 0
 *     CBENCH_A_INFO_TSC_FLAGS        NLA_U32         CBENCH_TSC_F_*
 *     CBENCH_A_INFO_PMU_VERSION      NLA_U32         0 = no counters enumerated
 *     CBENCH_A_INFO_PMU_GP_COUNTERS  NLA_U32         general counters per CPU
 *     CBENCH_A_INFO_PMU_GP_BITS      NLA_U32         their width in bits
 *     CBENCH_A_INFO_PMU_FIXED_COUNTERS NLA_U32       fixed counters per CPU
 *     CBENCH_A_INFO_PMU_FIXED_BITS   NLA_U32         their width in bits
 *     CBENCH_A_INFO_PMU_EVENTS       NLA_U32         CBENCH_COUNTER_F_* CPUID
 *                                                    says can be counted
 *     CBENCH_A_INFO_COUNTERS         NLA_U32         CBENCH_COUNTER_F_* perf
 *                                                    lent the module at load
 *     CBENCH_A_INFO_COUNTERS_CPU     NLA_U32         the CPU it asked on
 *     CBENCH_A_INFO_LIMITS           NLA_NESTED      CBENCH_A_LIMIT_*
 *     CBENCH_A_INFO_LIVE             NLA_NESTED      CBENCH_A_LIVE_*
 *
 *   The PMU attributes describe what CPUID enumerates on the CPU that loaded
 *   the module: Intel's leaf 0AH (PMU_VERSION is CPUID.0AH:EAX[7:0]), or on
 *   AMD PerfMonV2 (version 2), the core counter extension or the legacy
 *   counters (version 1), 48 bits wide, no fixed counters.  PMU_VERSION 0
 *   means CPUID enumerates no counters; the other PMU attributes are then
 *   absent, never 0 (and PMU_FIXED_BITS is absent without fixed counters).
 *   CBENCH_A_INFO_COUNTERS says which counters the module
 *   could actually reserve through perf when it was loaded.  On a machine
 *   without a PMU (most VMs) PMU_VERSION and COUNTERS are 0: the module
 *   measures with the TSC alone.
 *
 * CBENCH_CMD_PROBE_COUNTERS (privileged)
 *   request: CBENCH_A_PROBE_CPU      NLA_U32         an online CPU
 *   reply:   one message, CBENCH_CMD_PROBE_COUNTERS, with
 *     CBENCH_A_PROBE_CPU             NLA_U32         the CPU asked about
 *     CBENCH_A_PROBE_COUNTERS        NLA_U32         CBENCH_COUNTER_F_* perf
 *                                                    lends on it right now
 *   The module asks perf for a pinned per-CPU kernel counter for each event
 *   on that CPU, as a run would, and releases it at once.  Privileged since
 *   each probe reserves counters other perf users may be using; INFO reports
 *   the answer at load instead.  -EINVAL if the CPU is missing or offline.
 *
 * Commands after CBENCH_CMD_PROBE_COUNTERS are specified where they are
 * implemented.
 */
#ifndef _UAPI_LINUX_CBENCH_H
#define _UAPI_LINUX_CBENCH_H

#define CBENCH_GENL_NAME "cbench"
#define CBENCH_GENL_VERSION 1

enum cbench_cmd {
	CBENCH_CMD_UNSPEC,
	CBENCH_CMD_INFO,
	CBENCH_CMD_PROBE_COUNTERS,
	__CBENCH_CMD_MAX
};
#define CBENCH_CMD_MAX (__CBENCH_CMD_MAX - 1)

/* TSC properties, as the kernel sees them. */
enum cbench_tsc_flag {
	CBENCH_TSC_F_CONSTANT = 1U << 0,	/* X86_FEATURE_CONSTANT_TSC */
	CBENCH_TSC_F_NONSTOP = 1U << 1,		/* X86_FEATURE_NONSTOP_TSC */
	CBENCH_TSC_F_RELIABLE = 1U << 2,	/* X86_FEATURE_TSC_RELIABLE */
	__CBENCH_TSC_F_ALL = (1U << 3) - 1
};

/* Counters, by what they count. */
enum cbench_counter_flag {
	CBENCH_COUNTER_F_INSTRUCTIONS = 1U << 0,	/* instructions retired */
	CBENCH_COUNTER_F_CYCLES = 1U << 1,		/* core cycles */
	CBENCH_COUNTER_F_REF_CYCLES = 1U << 2,		/* reference cycles */
	__CBENCH_COUNTER_F_ALL = (1U << 3) - 1
};

enum cbench_attr {
	CBENCH_A_UNSPEC,
	CBENCH_A_INFO_VERSION,
	CBENCH_A_INFO_ABI,
	CBENCH_A_INFO_CPU_VENDOR,
	CBENCH_A_INFO_CPU_FAMILY,
	CBENCH_A_INFO_CPU_MODEL,
	CBENCH_A_INFO_CPU_STEPPING,
	CBENCH_A_INFO_TSC_KHZ,
	CBENCH_A_INFO_TSC_FLAGS,
	CBENCH_A_INFO_PMU_VERSION,
	CBENCH_A_INFO_PMU_GP_COUNTERS,
	CBENCH_A_INFO_PMU_GP_BITS,
	CBENCH_A_INFO_PMU_FIXED_COUNTERS,
	CBENCH_A_INFO_PMU_FIXED_BITS,
	CBENCH_A_INFO_COUNTERS,
	CBENCH_A_INFO_LIMITS,
	CBENCH_A_INFO_LIVE,
	CBENCH_A_INFO_CPU_HYPERVISOR,
	CBENCH_A_INFO_PMU_EVENTS,
	CBENCH_A_INFO_COUNTERS_CPU,
	CBENCH_A_PROBE_CPU,
	CBENCH_A_PROBE_COUNTERS,
	__CBENCH_A_LAST
};
#define CBENCH_A_MAX (__CBENCH_A_LAST - 1)

/* Inside CBENCH_A_INFO_LIMITS: the module's limits, from its parameters. */
enum cbench_limit_attr {
	CBENCH_A_LIMIT_UNSPEC,
	CBENCH_A_LIMIT_IMAGE_BYTES,	/* NLA_U64: largest benchmark image */
	CBENCH_A_LIMIT_ARENA_BYTES,	/* NLA_U64: largest arena */
	CBENCH_A_LIMIT_SAMPLES,		/* NLA_U32: most samples per run */
	CBENCH_A_LIMIT_IRQOFF_NS,	/* NLA_U64: IRQ-off budget per sample */
	CBENCH_A_LIMIT_RUNS,		/* NLA_U32: most concurrent runs */
	__CBENCH_A_LIMIT_LAST
};
#define CBENCH_A_LIMIT_MAX (__CBENCH_A_LIMIT_LAST - 1)

/* Inside CBENCH_A_INFO_LIVE: objects clients hold right now. */
enum cbench_live_attr {
	CBENCH_A_LIVE_UNSPEC,
	CBENCH_A_LIVE_IMAGES,		/* NLA_U32 */
	CBENCH_A_LIVE_RUNS,		/* NLA_U32 */
	__CBENCH_A_LIVE_LAST
};
#define CBENCH_A_LIVE_MAX (__CBENCH_A_LIVE_LAST - 1)

#endif /* _UAPI_LINUX_CBENCH_H */
