// SPDX-License-Identifier: GPL-2.0
/*
 * Deliberate bugs for `make vmtest-planted`, one per test build, planted at
 * every module load.  The debug kernel of the VM tests must report each
 * (KASAN, lockdep, DEBUG_ATOMIC_SLEEP, kmemleak) and scripts/vm-test.sh must
 * see the report: that is how we know it would see a real one.
 *
 * Kbuild compiles this file only with CBENCH_PLANT_BUG=<kind>, into a module
 * under build/kmod-<kver>-planted-<kind>/; a module that ships never has it.
 */
#include <linux/compiler.h>
#include <linux/mutex.h>
#include <linux/preempt.h>
#include <linux/printk.h>
#include <linux/slab.h>

#include "planted.h"

#if defined(CBENCH_PLANT_BUG_uaf)

/* KASAN: a read of an object after kfree(). */
static void plant(void)
{
	int *p = kmalloc(sizeof(*p), GFP_KERNEL);

	if (!p)
		return;
	*p = 1;
	kfree(p);
	/* So the compiler neither warns about nor drops the read. */
	OPTIMIZER_HIDE_VAR(p);
	pr_info("planted: read %d after kfree\n", READ_ONCE(*p));
}

#elif defined(CBENCH_PLANT_BUG_lockinv)

static DEFINE_MUTEX(planted_a);
static DEFINE_MUTEX(planted_b);

/*
 * lockdep: a before b, then b before a.  One thread never deadlocks on
 * this; two could, and lockdep reports the cycle from the orders alone.
 */
static void plant(void)
{
	mutex_lock(&planted_a);
	mutex_lock(&planted_b);
	mutex_unlock(&planted_b);
	mutex_unlock(&planted_a);

	mutex_lock(&planted_b);
	mutex_lock(&planted_a);
	mutex_unlock(&planted_a);
	mutex_unlock(&planted_b);
}

#elif defined(CBENCH_PLANT_BUG_atomic_sleep)

static DEFINE_MUTEX(planted_mutex);

/*
 * DEBUG_ATOMIC_SLEEP: mutex_lock() may sleep, and preemption is off.  The
 * mutex is free, so nothing actually sleeps; might_sleep() reports it all
 * the same, as it would the one time in a thousand the mutex is taken.
 */
static void plant(void)
{
	preempt_disable();
	mutex_lock(&planted_mutex);
	mutex_unlock(&planted_mutex);
	preempt_enable();
}

#elif defined(CBENCH_PLANT_BUG_leak)

/* kmemleak: an allocation whose only pointer is dropped. */
static void plant(void)
{
	void *p = kmalloc(64, GFP_KERNEL);

	OPTIMIZER_HIDE_VAR(p);
}

#elif defined(CBENCH_PLANT_BUG_nonet)

/* Nothing at load: guard.c leaves page faults to the kernel (planted.h). */
static void plant(void)
{
}

#else
#error "CBENCH_PLANT_BUG: one of uaf, lockinv, atomic_sleep, leak, nonet"
#endif

void cbench_planted_bug(void)
{
	/*
	 * Not the kind by name: guest checks grep the log for words like
	 * "leak", and only the kernel's own report may fail them.
	 */
	pr_warn("test build with a planted bug: never ship this module\n");
	plant();
}
