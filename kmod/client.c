// SPDX-License-Identifier: GPL-2.0
/*
 * Who owns what.  Every image and run belongs to the port id of the socket
 * that created it; only that socket may use it, and when the socket closes
 * (NETLINK_URELEASE) everything it held is freed, running threads stopped
 * first.
 *
 * We never stop a thread while handling a request: generic netlink holds
 * its cb_lock for reading around every doit, a benchmark's setup() can take
 * long, and a family (un)registering meanwhile would queue every genl user
 * on the machine behind us.  So RUN_CANCEL only raises the run's cancel
 * flag, and RUN_DEL moves the run to the retiring list and leaves stopping
 * it, and freeing its image if that was deleted too, to a work item.
 *
 * The URELEASE notifier may be called in atomic context (the chain is atomic
 * on older kernels), where we can neither take our mutex nor stop a thread,
 * so it queues work too.  By the time the work runs, a new socket may have
 * been given the same port id; we therefore note the creation sequence
 * number at release and free only objects older than that.
 */
#include <linux/mutex.h>
#include <linux/netlink.h>
#include <linux/notifier.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <net/net_namespace.h>

#include "client.h"
#include "limits.h"

static DEFINE_MUTEX(lock);
static LIST_HEAD(images);
static LIST_HEAD(runs);
/* Runs their clients deleted or left, whose threads may still be going. */
static LIST_HEAD(retiring);
static u32 next_id;
/* Creation order of objects; the release work compares against it. */
static atomic64_t next_seq = ATOMIC64_INIT(1);
static struct workqueue_struct *release_wq;

struct release {
	struct work_struct work;
	u32 portid;
	u64 before_seq;
};

struct retirement {
	struct work_struct work;
	struct cbench_run *run;
};

void cbench_client_lock(void)
{
	mutex_lock(&lock);
}

void cbench_client_unlock(void)
{
	mutex_unlock(&lock);
}

static u32 new_id(void)
{
	/* 2^32 creations wrap it; ids are 1-based and 0 is never valid. */
	if (++next_id == 0)
		++next_id;
	return next_id;
}

struct cbench_image *cbench_client_image(u32 portid, u32 id)
{
	struct cbench_image *image;

	lockdep_assert_held(&lock);
	list_for_each_entry(image, &images, node) {
		if (image->id == id && image->portid == portid)
			return image;
	}
	return NULL;
}

struct cbench_run *cbench_client_run(u32 portid, u32 id)
{
	struct cbench_run *run;

	lockdep_assert_held(&lock);
	list_for_each_entry(run, &runs, node) {
		if (run->id == id && run->portid == portid)
			return run;
	}
	return NULL;
}

unsigned int cbench_client_images(u32 portid)
{
	struct cbench_image *image;
	unsigned int n = 0;

	lockdep_assert_held(&lock);
	list_for_each_entry(image, &images, node)
		n += image->portid == portid;
	return n;
}

unsigned int cbench_client_runs(u32 portid)
{
	struct cbench_run *run;
	unsigned int n = 0;

	lockdep_assert_held(&lock);
	list_for_each_entry(run, &runs, node)
		n += run->portid == portid;
	return n;
}

/*
 * Runs that may still be calling a benchmark, on cpu or on any CPU (-1):
 * listed ones and retiring ones alike, until they have ended their run;
 * after that a thread only has to return.
 */
static unsigned int running(s64 cpu)
{
	struct list_head *const lists[] = { &runs, &retiring };
	struct cbench_run *run;
	unsigned int n = 0;

	lockdep_assert_held(&lock);
	for (size_t i = 0; i < ARRAY_SIZE(lists); i++) {
		list_for_each_entry(run, lists[i], node)
			n += READ_ONCE(run->state) == CBENCH_RUN_RUNNING &&
			     (cpu < 0 || run->config.cpu == cpu);
	}
	return n;
}

unsigned int cbench_client_runs_running(void)
{
	return running(-1);
}

bool cbench_client_cpu_busy(u32 cpu)
{
	return running(cpu) > 0;
}

unsigned int cbench_client_image_runs(const struct cbench_image *image)
{
	struct cbench_run *run;
	unsigned int n = 0;

	lockdep_assert_held(&lock);
	list_for_each_entry(run, &runs, node)
		n += run->image == image;
	return n;
}

void cbench_client_add_image(u32 portid, struct cbench_image *image)
{
	lockdep_assert_held(&lock);
	image->id = new_id();
	image->portid = portid;
	image->seq = atomic64_inc_return(&next_seq);
	list_add_tail(&image->node, &images);
	atomic_inc(&cbench_live.images);
}

void cbench_client_add_run(u32 portid, struct cbench_run *run)
{
	lockdep_assert_held(&lock);
	run->id = new_id();
	run->portid = portid;
	run->seq = atomic64_inc_return(&next_seq);
	list_add_tail(&run->node, &runs);
	run->image->runs++;
	atomic_inc(&cbench_live.runs);
}

void cbench_client_del_image(struct cbench_image *image)
{
	lockdep_assert_held(&lock);
	/*
	 * Retiring runs may still be executing its code: the last of them to
	 * retire frees it.  Port id 0 is no client's, so no request finds it.
	 */
	if (image->runs) {
		image->orphan = true;
		image->portid = 0;
		return;
	}
	list_del(&image->node);
	atomic_dec(&cbench_live.images);
	cbench_image_free(image);
}

void cbench_client_drop_run(struct cbench_run *run)
{
	lockdep_assert_held(&lock);
	list_del(&run->node);
	run->image->runs--;
	cbench_run_put(run);
	atomic_dec(&cbench_live.runs);
}

int cbench_client_cancel_run(u32 portid, u32 id)
{
	struct cbench_run *run;

	mutex_lock(&lock);
	run = cbench_client_run(portid, id);
	/* The thread sees it before its next call and ends the run. */
	if (run)
		WRITE_ONCE(run->cancel, true);
	mutex_unlock(&lock);
	return run ? 0 : -ENOENT;
}

/*
 * Takes a retiring run to its end: its thread stopped, then its image
 * released -- in that order, since the thread runs the image's code until
 * it stops -- then the registry's reference dropped.
 */
static void retire_run(struct cbench_run *run)
{
	struct cbench_image *image = run->image;

	cbench_run_stop(run);
	mutex_lock(&lock);
	list_del(&run->node);
	if (!--image->runs && image->orphan)
		cbench_client_del_image(image);
	mutex_unlock(&lock);
	if (cbench_run_put(run))
		atomic_dec(&cbench_live.runs);
}

static void retirement_work(struct work_struct *work)
{
	struct retirement *r = container_of(work, struct retirement, work);

	retire_run(r->run);
	kfree(r);
}

/* Queues the retirement of a run already on the retiring list; false if out of memory. */
static bool queue_retirement(struct cbench_run *run)
{
	struct retirement *r = kmalloc(sizeof(*r), GFP_KERNEL);

	if (!r)
		return false;
	INIT_WORK(&r->work, retirement_work);
	r->run = run;
	queue_work(release_wq, &r->work);
	return true;
}

int cbench_client_del_run(u32 portid, u32 id)
{
	struct cbench_run *run;
	bool queued = false;

	mutex_lock(&lock);
	run = cbench_client_run(portid, id);
	if (run) {
		WRITE_ONCE(run->cancel, true);
		list_move_tail(&run->node, &retiring);
		queued = queue_retirement(run);
	}
	mutex_unlock(&lock);
	if (!run)
		return -ENOENT;
	/* Out of memory for the work item: stop it here, as a last resort. */
	if (!queued)
		retire_run(run);
	return 0;
}

/* Frees objects of portid created before before_seq, or all of them. */
static void release_objects(u32 portid, u64 before_seq, bool all)
{
	struct cbench_image *image, *next_image;
	struct cbench_run *run, *next_run;

	/* Runs first: their retirement frees images they still hold. */
again:
	mutex_lock(&lock);
	list_for_each_entry_safe(run, next_run, &runs, node) {
		if (!all && (run->portid != portid || run->seq >= before_seq))
			continue;
		WRITE_ONCE(run->cancel, true);
		list_move_tail(&run->node, &retiring);
		if (!queue_retirement(run)) {
			/* Out of memory: stop this one here, outside the lock. */
			mutex_unlock(&lock);
			retire_run(run);
			goto again;
		}
	}

	list_for_each_entry_safe(image, next_image, &images, node) {
		if (!all && (image->portid != portid || image->seq >= before_seq))
			continue;
		/*
		 * Its runs retire above, but a new socket given the same port id
		 * before this work ran may have started one of it: that run,
		 * like a retiring one, keeps it until it ends.
		 */
		cbench_client_del_image(image);
	}
	mutex_unlock(&lock);
}

static void release_work(struct work_struct *work)
{
	struct release *r = container_of(work, struct release, work);

	release_objects(r->portid, r->before_seq, false);
	kfree(r);
}

static int release_notify(struct notifier_block *nb, unsigned long event, void *data)
{
	struct netlink_notify *n = data;
	struct release *r;

	if (event != NETLINK_URELEASE || n->protocol != NETLINK_GENERIC || !n->portid ||
	    !net_eq(n->net, &init_net))
		return NOTIFY_DONE;
	r = kmalloc(sizeof(*r), GFP_ATOMIC);
	if (!r) {
		/* What the client held stays until rmmod frees it. */
		pr_warn("cannot free the objects of port %u: out of memory\n", n->portid);
		return NOTIFY_DONE;
	}
	INIT_WORK(&r->work, release_work);
	r->portid = n->portid;
	r->before_seq = atomic64_read(&next_seq) + 1;
	queue_work(release_wq, &r->work);
	return NOTIFY_DONE;
}

static struct notifier_block release_nb = {
	.notifier_call = release_notify,
};

int cbench_client_init(void)
{
	int ret;

	release_wq = alloc_workqueue("cbench_release", 0, 0);
	if (!release_wq)
		return -ENOMEM;
	ret = netlink_register_notifier(&release_nb);
	if (ret)
		destroy_workqueue(release_wq);
	return ret;
}

void cbench_client_exit(void)
{
	netlink_unregister_notifier(&release_nb);
	/* Releases still queued may queue retirements: let them, then add ours. */
	flush_workqueue(release_wq);
	release_objects(0, 0, true);
	/* Runs every retirement, which frees the images they held, then the queue. */
	destroy_workqueue(release_wq);
}
