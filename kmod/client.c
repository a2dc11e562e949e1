// SPDX-License-Identifier: GPL-2.0
/*
 * Who owns what.  Every image and run belongs to the netlink socket that
 * created it (the requesting socket, NETLINK_CB(skb).sk); only that socket
 * may use it, and when the socket closes everything it held is freed,
 * running threads stopped first.
 *
 * Each object type has one registry: an xarray of its objects by id, ids
 * allocated cyclically.  An id is unique among the objects of its type,
 * and one freed is handed out again only after every other, so a client
 * holding a stale id does not reach a new object.  Lifetimes are reference
 * counts alone: the registry holds one on each object it lists, each run
 * one on its image, a samples dump one on its run.
 *
 * We never stop a thread while handling a request: generic netlink holds
 * its cb_lock for reading around every doit, a benchmark's setup() can take
 * long, and a family (un)registering meanwhile would queue every genl user
 * on the machine behind us.  So RUN_CANCEL only raises the run's cancel
 * flag, and RUN_DEL disowns the run -- no request finds it any more -- and
 * leaves stopping it to its retire work, which then takes it out of the
 * registry; until then it counts as running.
 *
 * Ownership is by socket, not by port id.  Netlink frees a closing socket's
 * port id before it sends NETLINK_URELEASE, so a new socket may be given
 * that port id while the old socket's objects still exist; keyed by port
 * id, they would be the new socket's to use, and the release would free
 * what the new socket made meanwhile.  An object holds its owner
 * (sock_hold), so no other socket can be allocated at that address while
 * the object lives.  A closing socket is marked dead (SOCK_DEAD) before
 * URELEASE is sent; the release work frees what dead sockets hold.  The
 * notifier only queues that work: close() should not wait for a thread to
 * stop.
 */
#include <linux/cpumask.h>
#include <linux/mutex.h>
#include <linux/netlink.h>
#include <linux/notifier.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <net/net_namespace.h>
#include <net/sock.h>

#include "audit.h"
#include "client.h"

struct registry {
	struct xarray objects;		/* struct cbench_object, by id */
	u32 next;			/* where the cyclic allocation goes on */
};

static DEFINE_MUTEX(lock);
static struct registry images = { .objects = XARRAY_INIT(images.objects, XA_FLAGS_ALLOC1) };
static struct registry runs = { .objects = XARRAY_INIT(runs.objects, XA_FLAGS_ALLOC1) };
static struct workqueue_struct *release_wq;

void cbench_client_lock(void)
{
	mutex_lock(&lock);
}

void cbench_client_unlock(void)
{
	mutex_unlock(&lock);
}

/* The object of registry r with id, if owner owns it. */
static struct cbench_object *find(struct registry *r, const struct sock *owner, u32 id)
{
	struct cbench_object *obj;

	lockdep_assert_held(&lock);
	obj = xa_load(&r->objects, id);
	return obj && owner && obj->owner == owner ? obj : NULL;
}

/* How many objects of registry r owner owns. */
static unsigned int owned(struct registry *r, const struct sock *owner)
{
	struct cbench_object *obj;
	unsigned long id;
	unsigned int n = 0;

	lockdep_assert_held(&lock);
	xa_for_each(&r->objects, id, obj)
		n += obj->owner == owner;
	return n;
}

static int add(struct registry *r, struct sock *owner, struct cbench_object *obj)
{
	int ret;

	lockdep_assert_held(&lock);
	obj->owner = owner;
	/* 1 when the ids wrapped: still a free one. */
	ret = xa_alloc_cyclic(&r->objects, &obj->id, obj, XA_LIMIT(1, U32_MAX), &r->next,
			      GFP_KERNEL);
	if (ret < 0) {
		obj->owner = NULL;
		return ret;
	}
	sock_hold(owner);
	return 0;
}

/* From now on no request finds obj. */
static void disown(struct cbench_object *obj)
{
	sock_put(obj->owner);
	obj->owner = NULL;
}

struct cbench_image *cbench_client_image(const struct sock *owner, u32 id)
{
	struct cbench_object *obj = find(&images, owner, id);

	return obj ? container_of(obj, struct cbench_image, obj) : NULL;
}

struct cbench_run *cbench_client_run(const struct sock *owner, u32 id)
{
	struct cbench_object *obj = find(&runs, owner, id);

	return obj ? container_of(obj, struct cbench_run, obj) : NULL;
}

unsigned int cbench_client_images(const struct sock *owner)
{
	return owned(&images, owner);
}

unsigned int cbench_client_runs(const struct sock *owner)
{
	return owned(&runs, owner);
}

/*
 * A run holds its CPUs until it has ended.  A thread that died in a call
 * never ends its run: cbench_run_stop() stops its watcher's timer, then
 * ends it.  A thread that returns stops the timer just after it publishes
 * the end; a new run meanwhile may arm its own beside it, which is
 * harmless: the old one finds no call under way to end.
 */
static bool in_progress(const struct cbench_run *run)
{
	return READ_ONCE(run->state) == CBENCH_RUN_RUNNING;
}

/*
 * Runs that may still be calling a benchmark: owned and deleted ones
 * alike, until they have ended their run; after that a thread only has to
 * return.
 */
unsigned int cbench_client_runs_running(void)
{
	struct cbench_object *obj;
	unsigned long id;
	unsigned int n = 0;

	lockdep_assert_held(&lock);
	xa_for_each(&runs.objects, id, obj)
		n += in_progress(container_of(obj, struct cbench_run, obj));
	return n;
}

enum cbench_cpu_use cbench_client_cpu_use(u32 cpu)
{
	enum cbench_cpu_use use = CBENCH_CPU_FREE;
	struct cbench_object *obj;
	unsigned long id;

	lockdep_assert_held(&lock);
	xa_for_each(&runs.objects, id, obj) {
		struct cbench_run *run = container_of(obj, struct cbench_run, obj);

		if (!in_progress(run))
			continue;
		if (run->config.cpu == cpu)
			return CBENCH_CPU_MEASURES;
		if (run->watcher == (s32)cpu)
			use = CBENCH_CPU_WATCHES;
	}
	return use;
}

int cbench_client_free_watcher(u32 cpu)
{
	lockdep_assert_held(&lock);
	for (unsigned int i = 1; i < nr_cpu_ids; i++) {
		unsigned int w = (cpu + i) % nr_cpu_ids;

		if (cpu_online(w) && cbench_client_cpu_use(w) == CBENCH_CPU_FREE)
			return w;
	}
	return -1;
}

unsigned int cbench_client_image_runs(const struct cbench_image *image)
{
	struct cbench_object *obj;
	unsigned long id;
	unsigned int n = 0;

	lockdep_assert_held(&lock);
	xa_for_each(&runs.objects, id, obj) {
		const struct cbench_run *run = container_of(obj, struct cbench_run, obj);

		/* An audit run holds its side B's image too. */
		n += obj->owner && (run->image == image ||
				    (run->audit && run->audit->image == image));
	}
	return n;
}

bool cbench_client_run_listed(const struct cbench_run *run)
{
	lockdep_assert_held(&lock);
	return run->obj.owner;
}

int cbench_client_add_image(struct sock *owner, struct cbench_image *image)
{
	return add(&images, owner, &image->obj);
}

/*
 * Takes a deleted run to its end: its thread stopped, then out of the
 * registry (it no longer counts as running), then the registry's
 * reference dropped, which frees it unless a dump still holds it.
 */
static void retire(struct work_struct *work)
{
	struct cbench_run *run = container_of(work, struct cbench_run, retire);

	cbench_run_stop(run);
	mutex_lock(&lock);
	xa_erase(&runs.objects, run->obj.id);
	mutex_unlock(&lock);
	cbench_run_put(run);
}

int cbench_client_add_run(struct sock *owner, struct cbench_run *run)
{
	INIT_WORK(&run->retire, retire);
	return add(&runs, owner, &run->obj);
}

void cbench_client_del_image(struct cbench_image *image)
{
	lockdep_assert_held(&lock);
	xa_erase(&images.objects, image->obj.id);
	disown(&image->obj);
	/* Deleted runs still stopping hold it until they have stopped. */
	cbench_image_put(image);
}

void cbench_client_drop_run(struct cbench_run *run)
{
	lockdep_assert_held(&lock);
	xa_erase(&runs.objects, run->obj.id);
	disown(&run->obj);
	cbench_run_put(run);
}

/* Cancels run and hands it to its retire work. */
static void del_run(struct cbench_run *run)
{
	lockdep_assert_held(&lock);
	WRITE_ONCE(run->cancel, true);
	disown(&run->obj);
	queue_work(release_wq, &run->retire);
}

int cbench_client_cancel_run(const struct sock *owner, u32 id)
{
	struct cbench_run *run;

	mutex_lock(&lock);
	run = cbench_client_run(owner, id);
	/* The thread sees it before its next call and ends the run. */
	if (run)
		WRITE_ONCE(run->cancel, true);
	mutex_unlock(&lock);
	return run ? 0 : -ENOENT;
}

int cbench_client_del_run(const struct sock *owner, u32 id)
{
	struct cbench_run *run;

	mutex_lock(&lock);
	run = cbench_client_run(owner, id);
	if (run)
		del_run(run);
	mutex_unlock(&lock);
	return run ? 0 : -ENOENT;
}

/* Deletes what closed sockets own, or with all what every socket owns. */
static void release_objects(bool all)
{
	struct cbench_object *obj;
	unsigned long id;

	mutex_lock(&lock);
	xa_for_each(&runs.objects, id, obj) {
		if (obj->owner && (all || sock_flag(obj->owner, SOCK_DEAD)))
			del_run(container_of(obj, struct cbench_run, obj));
	}
	xa_for_each(&images.objects, id, obj) {
		if (obj->owner && (all || sock_flag(obj->owner, SOCK_DEAD)))
			cbench_client_del_image(container_of(obj, struct cbench_image, obj));
	}
	mutex_unlock(&lock);
}

static void release_work_fn(struct work_struct *work)
{
	release_objects(false);
}

static DECLARE_WORK(release_work, release_work_fn);

/*
 * Any generic-netlink socket closing queues one sweep (queueing it again
 * while it is pending does nothing, and it frees what every closed socket
 * held), so there is nothing to allocate here and nothing to lose.
 */
static int release_notify(struct notifier_block *nb, unsigned long event, void *data)
{
	struct netlink_notify *n = data;

	if (event == NETLINK_URELEASE && n->protocol == NETLINK_GENERIC &&
	    net_eq(n->net, &init_net))
		queue_work(release_wq, &release_work);
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
	flush_work(&release_work);
	release_objects(true);
	/* Runs every retirement: runs stop and are freed, and with them their images. */
	destroy_workqueue(release_wq);
	WARN_ON(!xa_empty(&images.objects) || !xa_empty(&runs.objects));
}
