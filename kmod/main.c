// SPDX-License-Identifier: GPL-2.0
/*
 * cbench.ko: runs benchmark code in ring 0 and returns raw samples over
 * generic netlink.  This file only brings the parts up and down.
 */
#include <linux/module.h>

#include "client.h"
#include "cpu.h"
#include "guard.h"
#include "limits.h"
#include "netlink.h"
#include "planted.h"
#include "quiet.h"

static int __init cbench_init(void)
{
	int ret;

	/* Nothing to undo before the first object: no ladder rung for these. */
	ret = cbench_limits_check();
	if (ret)
		return ret;
	cbench_planted_bug();	/* test builds only: kmod/planted.h */
	cbench_cpu_init();
	cbench_quiet_init();

	ret = cbench_guard_init();
	if (ret)
		return ret;

	ret = cbench_client_init();
	if (ret)
		goto err_guard;

	/* Last: once the family exists, requests arrive. */
	ret = cbench_genl_init();
	if (ret)
		goto err_client;

	pr_info("version %s loaded; %s\n", CBENCH_VERSION,
		cbench_counters_at_load ? "hardware counters usable" :
					  "no hardware counters usable: TSC only");
	return 0;

err_client:
	cbench_client_exit();
err_guard:
	cbench_guard_exit();
	return ret;
}

/* cbench_init() in reverse. */
static void __exit cbench_exit(void)
{
	/* No new requests, then stop every run and free what clients held. */
	cbench_genl_uninit();
	cbench_client_exit();
	/* Every run has stopped: no call is left to watch. */
	cbench_guard_exit();
}

module_init(cbench_init);
module_exit(cbench_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Microbenchmarks of C code in ring 0");
MODULE_AUTHOR("The cbench authors");
MODULE_VERSION(CBENCH_VERSION);
