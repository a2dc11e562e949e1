// SPDX-License-Identifier: GPL-2.0
/*
 * cbench.ko: runs benchmark code in ring 0 and returns raw samples over
 * generic netlink.  This file only brings the parts up and down.
 */
#include <linux/module.h>

#include "client.h"
#include "cpu.h"
#include "limits.h"
#include "netlink.h"
#include "planted.h"

static int __init cbench_init(void)
{
	int ret;

	ret = cbench_limits_check();
	if (ret)
		goto err_limits;

	cbench_planted_bug();	/* test builds only: kmod/planted.h */
	cbench_cpu_init();

	ret = cbench_client_init();
	if (ret)
		goto err_client;

	/* Last: once the family exists, requests arrive. */
	ret = cbench_genl_init();
	if (ret)
		goto err_genl;

	pr_info("version %s loaded; %s\n", CBENCH_VERSION,
		cbench_counters_at_load ? "hardware counters usable" :
					  "no hardware counters usable: TSC only");
	return 0;

	/* Undone in reverse order; nothing before the family needs undoing yet. */
err_genl:
	cbench_client_exit();
err_client:
err_limits:
	return ret;
}

static void __exit cbench_exit(void)
{
	/* No new requests, then stop every run and free what clients held. */
	cbench_genl_uninit();
	cbench_client_exit();
}

module_init(cbench_init);
module_exit(cbench_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Microbenchmarks of C code in ring 0");
MODULE_AUTHOR("The cbench authors");
MODULE_VERSION(CBENCH_VERSION);
