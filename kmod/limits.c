// SPDX-License-Identifier: GPL-2.0
/*
 * Module parameters: the limits the kernel backend enforces.  They are
 * read-only once loaded (0444), so readers need no locking; to change one,
 * reload the module.
 */
#include <linux/cache.h>
#include <linux/cpumask.h>
#include <linux/log2.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>
#include <linux/sizes.h>
#include <linux/time64.h>
#include <asm/page.h>

#include <uapi/linux/cbench.h>

#include "limits.h"

/* The hard cap on one interrupts-off window, whatever the parameter says. */
#define IRQOFF_NS_CAP (10UL * NSEC_PER_MSEC)
/* The most tpoints_max_records may allow: 1 GiB of records per run. */
#define TP_RECORDS_CAP (1UL << 26)
/*
 * The watchdog's limit on one call: above the 50 ms a per-rep hook may take
 * and the 10 ms cap on a sample, below the 20 s of the soft-lockup detector.
 */
#define CALL_MS_MIN 100
#define CALL_MS_MAX 10000
/*
 * A benchmark's stack: more than a kernel thread's 16 KiB, at most 64 MiB,
 * a power of two (stack.c aligns it to its size, for cbenchctl's checks).
 */
#define STACK_BYTES_MIN (64UL * SZ_1K)
#define STACK_BYTES_MAX (64UL * SZ_1M)

struct cbench_limits cbench_limits __ro_after_init = {
	.image_bytes = 16 * SZ_1M,
	.arena_bytes = 256 * SZ_1M,
	.samples = 1U << 20,
	/* Well under the 1 ms a scheduler tick or a NIC can wait on us. */
	.irqoff_ns = 500 * NSEC_PER_USEC,
	/* One at a time: concurrent runs disturb each other through caches and power. */
	.runs = 1,
	/* 32 MiB: 32 samples of cbenchctl's 65536 records per call. */
	.tp_records = 1UL << 21,
	/* Far above any budget or hook limit: only a call that never returns. */
	.call_ms = 1000,
	/* Deep recursion and large local arrays; vmalloc'd once per run. */
	.stack_bytes = 256 * SZ_1K,
	.fault_net = CBENCH_FAULT_NET_QUIET,
};

struct cbench_live cbench_live = {
	.images = ATOMIC_INIT(0),
	.runs = ATOMIC_INIT(0),
};

module_param_named(image_max_bytes, cbench_limits.image_bytes, ulong, 0444);
MODULE_PARM_DESC(image_max_bytes, "largest benchmark image, in bytes (default 16 MiB)");
module_param_named(arena_max_bytes, cbench_limits.arena_bytes, ulong, 0444);
MODULE_PARM_DESC(arena_max_bytes, "largest scratch arena of a benchmark, in bytes (default 256 MiB)");
module_param_named(samples_max, cbench_limits.samples, uint, 0444);
MODULE_PARM_DESC(samples_max, "most samples one run may collect (default 1048576)");
module_param_named(irqoff_budget_ns, cbench_limits.irqoff_ns, ulong, 0444);
MODULE_PARM_DESC(irqoff_budget_ns, "longest interrupts-off window of one sample, in ns (default 500000, at most 10000000)");
module_param_named(runs_max, cbench_limits.runs, uint, 0444);
MODULE_PARM_DESC(runs_max, "most runs at the same time, each on a CPU of its own with another to watch it (default 1)");
module_param_named(call_limit_ms, cbench_limits.call_ms, uint, 0444);
MODULE_PARM_DESC(call_limit_ms, "longest call of benchmark code in ring 0, in ms, before another CPU ends it by NMI and fails the run (default 1000, 100 to 10000)");
module_param_named(unwatched_runs, cbench_limits.unwatched, bool, 0444);
MODULE_PARM_DESC(unwatched_runs, "take runs with one CPU online, where no other CPU can end a call that never returns (default no)");
module_param_named(tpoints_max_records, cbench_limits.tp_records, ulong, 0444);
module_param_named(fault_net, cbench_limits.fault_net, uint, 0444);
MODULE_PARM_DESC(fault_net, "how a page fault in benchmark code is ended: 1 quietly, before the kernel's oops, where the kernel has the page_fault_kernel tracepoint (default); 0 only after the oops, which taints the kernel");
module_param_named(call_stack_bytes, cbench_limits.stack_bytes, ulong, 0444);
MODULE_PARM_DESC(call_stack_bytes, "the stack benchmark code runs on in ring 0, in bytes, a power of two (default 262144, 65536 to 67108864); cbenchctl rehearses every call on a stack of this size less a margin, and checks recursion against it");
module_param_named(quiet_mode, cbench_limits.quiet, uint, 0444);
MODULE_PARM_DESC(quiet_mode, "how a sample's measured region is kept quiet unless the run says: 0 interrupts off (default), 1 interrupts on with the local APIC's LVT entries masked (nanoBench's way)");
MODULE_PARM_DESC(tpoints_max_records, "most loop timing-point records of one run, all samples together, 16 bytes each (default 2097152, at most 67108864)");

/* Refuses limits that make no sense, so the backend can trust them. */
int __init cbench_limits_check(void)
{
	const struct cbench_limits *l = &cbench_limits;

	if (!l->image_bytes || l->image_bytes > SZ_1G) {
		pr_err("image_max_bytes=%lu: must be 1 to %u\n", l->image_bytes, SZ_1G);
		return -EINVAL;
	}
	if (!l->arena_bytes || l->arena_bytes > 16UL * SZ_1G) {
		pr_err("arena_max_bytes=%lu: must be 1 to %lu\n", l->arena_bytes, 16UL * SZ_1G);
		return -EINVAL;
	}
	if (!l->samples || l->samples > 1U << 26) {
		pr_err("samples_max=%u: must be 1 to %u\n", l->samples, 1U << 26);
		return -EINVAL;
	}
	if (!l->irqoff_ns || l->irqoff_ns > IRQOFF_NS_CAP) {
		pr_err("irqoff_budget_ns=%lu: must be 1 to %lu\n", l->irqoff_ns, IRQOFF_NS_CAP);
		return -EINVAL;
	}
	if (!l->runs || l->runs > nr_cpu_ids) {
		pr_err("runs_max=%u: must be 1 to %u (CPUs)\n", l->runs, nr_cpu_ids);
		return -EINVAL;
	}
	if (l->call_ms < CALL_MS_MIN || l->call_ms > CALL_MS_MAX) {
		pr_err("call_limit_ms=%u: must be %u to %u\n", l->call_ms, CALL_MS_MIN, CALL_MS_MAX);
		return -EINVAL;
	}
	if (l->quiet > CBENCH_QUIET_MAX) {
		pr_err("quiet_mode=%u: must be 0 (interrupts off) or 1 (LVT entries masked)\n", l->quiet);
		return -EINVAL;
	}
	if (l->fault_net > CBENCH_FAULT_NET_QUIET) {
		pr_err("fault_net=%u: must be 0 (after the oops) or 1 (quietly)\n", l->fault_net);
		return -EINVAL;
	}
	if (l->stack_bytes < STACK_BYTES_MIN || l->stack_bytes > STACK_BYTES_MAX ||
	    !is_power_of_2(l->stack_bytes)) {
		pr_err("call_stack_bytes=%lu: must be a power of two from %lu to %lu\n",
		       l->stack_bytes, STACK_BYTES_MIN, STACK_BYTES_MAX);
		return -EINVAL;
	}
	if (!l->tp_records || l->tp_records > TP_RECORDS_CAP) {
		pr_err("tpoints_max_records=%lu: must be 1 to %lu\n", l->tp_records, TP_RECORDS_CAP);
		return -EINVAL;
	}
	return 0;
}
