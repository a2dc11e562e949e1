// SPDX-License-Identifier: GPL-2.0
/*
 * Handlers for uploading images and running them; the protocol is
 * specified in include/uapi/linux/cbench.h.  Each command's policy
 * (netlink.c) has already refused attributes it does not take and checked
 * types and fixed ranges, and pre_doit the caller's privilege; we check
 * what is required, what depends on module parameters and on the objects
 * named, and say what is wrong in the extended ack.
 */
#include <linux/cpumask.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <asm/trapnr.h>

#include "args.h"
#include "audit.h"
#include "client.h"
#include "image.h"
#include "limits.h"
#include "netlink_dump.h"
#include "netlink_family.h"
#include "netlink_run.h"
#include "netlink_tpoints.h"
#include "run.h"

/*
 * A required attribute: the generic-netlink core reports its type in
 * NLMSGERR_ATTR_MISS_TYPE (GENL_REQ_ATTR_CHECK), and we in the text.
 */
int cbench_nl_require(struct genl_info *info, int type)
{
	if (!GENL_REQ_ATTR_CHECK(info, type))
		return 0;
	CBENCH_SET_ERR_MSG_FMT(info->extack, "a required attribute is missing",
			       "required attribute %d is missing", type);
	return -EINVAL;
}

int cbench_nl_reply_u32(struct genl_info *info, u8 cmd, int type, u32 value)
{
	struct sk_buff *msg;
	void *hdr;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, cbench_nl_family, 0, cmd);
	if (!hdr || nla_put_u32(msg, type, value)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

int cbench_nl_image_new(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *attr = info->attrs[CBENCH_A_IMAGE_BYTES];
	struct sock *owner = NETLINK_CB(skb).sk;
	struct cbench_image *image;
	u64 bytes;
	u32 id = 0;
	int ret;

	ret = cbench_nl_require(info, CBENCH_A_IMAGE_BYTES);
	if (ret)
		return ret;
	bytes = nla_get_u64(attr);
	if (bytes > cbench_limits.image_bytes) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr, "image larger than the module's image_bytes");
		return -E2BIG;
	}
	image = cbench_image_new(bytes);
	if (!image)
		return -ENOMEM;
	cbench_client_lock();
	ret = -ENOSPC;
	if (cbench_client_images(owner) >= CBENCH_IMAGES_PER_CLIENT) {
		NL_SET_ERR_MSG(info->extack, "this socket holds too many images");
		goto out;
	}
	ret = cbench_client_add_image(owner, image);
	if (!ret)
		id = image->obj.id;
out:
	cbench_client_unlock();
	if (ret) {
		cbench_image_put(image);
		return ret;
	}
	/* If the reply is lost the image stays until the socket closes. */
	return cbench_nl_reply_u32(info, CBENCH_CMD_IMAGE_NEW, CBENCH_A_IMAGE_ID, id);
}

/* Looks up the image named by CBENCH_A_IMAGE_ID of skb's socket; under the lock. */
static struct cbench_image *image_of(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *attr = info->attrs[CBENCH_A_IMAGE_ID];
	struct cbench_image *image;

	image = cbench_client_image(NETLINK_CB(skb).sk, nla_get_u32(attr));
	if (!image)
		NL_SET_ERR_MSG_ATTR(info->extack, attr, "no such image on this socket");
	return image;
}

int cbench_nl_image_chunk(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *data = info->attrs[CBENCH_A_CHUNK_DATA];
	struct cbench_image *image;
	int ret;

	ret = cbench_nl_require(info, CBENCH_A_IMAGE_ID) ?:
	      cbench_nl_require(info, CBENCH_A_CHUNK_OFFSET) ?:
	      cbench_nl_require(info, CBENCH_A_CHUNK_DATA);
	if (ret)
		return ret;
	if (!nla_len(data)) {
		NL_SET_ERR_MSG_ATTR(info->extack, data, "empty chunk");
		return -EINVAL;
	}
	cbench_client_lock();
	image = image_of(skb, info);
	ret = image ? cbench_image_chunk(image, nla_get_u64(info->attrs[CBENCH_A_CHUNK_OFFSET]),
					 nla_data(data), nla_len(data), info->extack) : -ENOENT;
	cbench_client_unlock();
	return ret;
}

int cbench_nl_image_map(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *text_attr = info->attrs[CBENCH_A_IMAGE_TEXT];
	struct nlattr *relocs_attr = info->attrs[CBENCH_A_IMAGE_RELOCS];
	struct cbench_range *text = NULL;
	struct cbench_image *image;
	u64 *relocs = NULL;
	u32 nrelocs = 0;
	int ret;

	ret = cbench_nl_require(info, CBENCH_A_IMAGE_ID) ?: cbench_nl_require(info, CBENCH_A_IMAGE_TEXT);
	if (ret)
		return ret;
	if (!nla_len(text_attr) || nla_len(text_attr) % sizeof(*text)) {
		NL_SET_ERR_MSG_ATTR(info->extack, text_attr, "not an array of struct cbench_range");
		return -EINVAL;
	}
	if (relocs_attr && nla_len(relocs_attr) % sizeof(*relocs)) {
		NL_SET_ERR_MSG_ATTR(info->extack, relocs_attr, "not an array of __u64");
		return -EINVAL;
	}
	/* Attribute data is only 4-byte aligned: copy before reading u64s. */
	text = kmemdup(nla_data(text_attr), nla_len(text_attr), GFP_KERNEL);
	if (relocs_attr && nla_len(relocs_attr)) {
		nrelocs = nla_len(relocs_attr) / sizeof(*relocs);
		relocs = kvmalloc(nla_len(relocs_attr), GFP_KERNEL);
		if (relocs)
			memcpy(relocs, nla_data(relocs_attr), nla_len(relocs_attr));
	}
	ret = -ENOMEM;
	if (!text || (nrelocs && !relocs))
		goto out;

	cbench_client_lock();
	image = image_of(skb, info);
	ret = image ? 0 : -ENOENT;
	if (!ret && info->attrs[CBENCH_A_IMAGE_CRC32])
		ret = cbench_image_verify(image, nla_get_u32(info->attrs[CBENCH_A_IMAGE_CRC32]),
					  info->extack);
	if (!ret)
		ret = cbench_image_map(image, text, nla_len(text_attr) / sizeof(*text), relocs,
				       nrelocs, info->extack);
	cbench_client_unlock();
out:
	kvfree(relocs);
	kfree(text);
	return ret;
}

int cbench_nl_image_del(struct sk_buff *skb, struct genl_info *info)
{
	struct cbench_image *image;
	int ret;

	ret = cbench_nl_require(info, CBENCH_A_IMAGE_ID);
	if (ret)
		return ret;
	cbench_client_lock();
	image = image_of(skb, info);
	if (!image) {
		ret = -ENOENT;
	} else if (cbench_client_image_runs(image)) {
		NL_SET_ERR_MSG(info->extack, "image has runs; delete them first");
		ret = -EBUSY;
	} else {
		cbench_client_del_image(image);
	}
	cbench_client_unlock();
	return ret;
}

/* An optional entry point: 0 (absent, *fn NULL) or -EINVAL. */
static int optional_entry(struct genl_info *info, struct cbench_image *image, int type, void **fn)
{
	struct nlattr *attr = info->attrs[type];

	*fn = NULL;
	if (!attr)
		return 0;
	*fn = cbench_image_entry(image, nla_get_u64(attr), info->extack);
	if (!*fn) {
		NL_SET_BAD_ATTR(info->extack, attr);
		return -EINVAL;
	}
	return 0;
}

/* The entry points; with a per-rep hook, each call is of one rep. */
static int run_entries(struct genl_info *info, struct cbench_image *image,
		       struct cbench_run_config *config)
{
	struct nlattr **attrs = info->attrs;
	struct nlattr *step = attrs[CBENCH_A_RUN_REPS_STEP];
	int ret;

	config->entry = cbench_image_entry(image, nla_get_u64(attrs[CBENCH_A_RUN_ENTRY]),
					   info->extack);
	if (!config->entry) {
		NL_SET_BAD_ATTR(info->extack, attrs[CBENCH_A_RUN_ENTRY]);
		return -EINVAL;
	}
	ret = optional_entry(info, image, CBENCH_A_RUN_SETUP, &config->setup);
	if (!ret)
		ret = optional_entry(info, image, CBENCH_A_RUN_BEFORE_REP, &config->before_rep);
	if (!ret)
		ret = optional_entry(info, image, CBENCH_A_RUN_AFTER_REP, &config->after_rep);
	if (ret)
		return ret;
	if ((config->before_rep || config->after_rep) &&
	    (nla_get_u64(attrs[CBENCH_A_RUN_REPS]) != 1 || (step && nla_get_u64(step)))) {
		NL_SET_ERR_MSG_ATTR(info->extack, attrs[CBENCH_A_RUN_REPS],
				    "a run with per-rep hooks calls run() with one rep: REPS 1, no REPS_STEP");
		return -EINVAL;
	}
	return 0;
}

static int run_config(struct genl_info *info, struct cbench_image *image,
		      struct cbench_run_config *config)
{
	struct nlattr **attrs = info->attrs;
	struct nlattr *attr;
	int ret;

	ret = run_entries(info, image, config);
	if (ret)
		return ret;
	config->reps = nla_get_u64(attrs[CBENCH_A_RUN_REPS]);
	attr = attrs[CBENCH_A_RUN_SAMPLES];
	config->samples = nla_get_u32(attr);
	if (config->samples > cbench_limits.samples) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr, "more samples than the module's samples");
		return -E2BIG;
	}
	attr = attrs[CBENCH_A_RUN_REPS_STEP];
	config->reps_step = attr ? nla_get_u64(attr) : 0;
	/*
	 * (samples - 1) * reps_step reaches 2^32 * 2^48: it can wrap a u64.
	 * The policy keeps samples at least 1.
	 */
	if (check_mul_overflow((u64)(config->samples - 1), config->reps_step,
			       &config->reps_last) ||
	    check_add_overflow(config->reps_last, config->reps, &config->reps_last) ||
	    config->reps_last > CBENCH_REPS_MAX) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr, "the last sample would do more than 2^48 reps");
		return -ERANGE;
	}
	attr = attrs[CBENCH_A_RUN_ARENA_BYTES];
	config->arena_bytes = attr ? nla_get_u64(attr) : 0;
	if (config->arena_bytes > cbench_limits.arena_bytes) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr, "arena larger than the module's arena_bytes");
		return -E2BIG;
	}
	config->param = attrs[CBENCH_A_RUN_PARAM] ? nla_get_s64(attrs[CBENCH_A_RUN_PARAM]) : 0;
	config->args = attrs[CBENCH_A_RUN_ARGS];
	return cbench_args_check(config->args, info->extack) ?: cbench_nl_run_where(info, config);
}

int cbench_nl_run_where(struct genl_info *info, struct cbench_run_config *config)
{
	struct nlattr *attr = info->attrs[CBENCH_A_RUN_CPU];

	config->cpu = nla_get_u32(attr);
	if (config->cpu >= nr_cpu_ids || !cpu_online(config->cpu)) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr, "CPU is not online");
		return -EINVAL;
	}
	attr = info->attrs[CBENCH_A_RUN_BUDGET_NS];
	config->budget_ns = attr ? nla_get_u64(attr) : cbench_limits.irqoff_ns;
	if (config->budget_ns > cbench_limits.irqoff_ns) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr, "budget over the module's irqoff_ns");
		return -E2BIG;
	}
	attr = info->attrs[CBENCH_A_RUN_QUIET];
	config->quiet = attr ? nla_get_u32(attr) : cbench_limits.quiet;
	attr = info->attrs[CBENCH_A_RUN_WATCHER];
	config->watcher = -1;
	if (attr) {
		u32 w = nla_get_u32(attr);

		if (w >= nr_cpu_ids || w == config->cpu || !cpu_online(w)) {
			NL_SET_ERR_MSG_ATTR(info->extack, attr,
					    "the watcher must be another CPU, and online");
			return -EINVAL;
		}
		config->watcher = w;
	}
	return cbench_nl_tp_config(info, config);
}

/*
 * The watcher for a new run on cpu, or -1 where unwatched_runs lets it go
 * unwatched; -EBUSY where cpu is taken.  Two threads bound to one CPU would
 * take turns between samples and measure each other (the second's pinned
 * counters could not count), and a watcher that measures too would not
 * fire while its own calls run with interrupts off: if both hung, nothing
 * would end either.  So each run has a CPU of its own to watch it.
 */
static int where_free(struct genl_info *info, const struct cbench_run_config *config)
{
	struct nlattr *attr = info->attrs[CBENCH_A_RUN_CPU];
	int watcher;

	switch (cbench_client_cpu_use(config->cpu)) {
	case CBENCH_CPU_MEASURES:
		NL_SET_ERR_MSG_ATTR(info->extack, attr, "another run is in progress on this CPU");
		return -EBUSY;
	case CBENCH_CPU_WATCHES:
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "this CPU watches the calls of another run in progress");
		return -EBUSY;
	case CBENCH_CPU_FREE:
		break;
	}
	if (config->watcher >= 0) {
		if (cbench_client_cpu_use(config->watcher) == CBENCH_CPU_FREE)
			return config->watcher;
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[CBENCH_A_RUN_WATCHER],
				    "the CPU asked to watch measures or watches another run in progress");
		return -EBUSY;
	}
	watcher = cbench_client_free_watcher(config->cpu);
	if (watcher < 0 && !cbench_limits.unwatched) {
		NL_SET_ERR_MSG(info->extack, "every other CPU measures or watches a run in progress, "
			       "and each run needs a CPU of its own to watch its calls");
		return -EBUSY;
	}
	return watcher;
}

int cbench_nl_run_launch(struct genl_info *info, struct sock *owner, struct cbench_image *image,
			 const struct cbench_run_config *config,
			 const struct cbench_audit_config *audit, u32 *id)
{
	struct cbench_run *run;
	int ret;

	if (cbench_client_runs(owner) >= CBENCH_RUNS_PER_CLIENT) {
		NL_SET_ERR_MSG(info->extack, "this socket holds too many runs; delete some");
		return -ENOSPC;
	}
	if (cbench_client_runs_running() >= cbench_limits.runs) {
		NL_SET_ERR_MSG(info->extack, "the module's runs are all in progress");
		return -ENOSPC;
	}
	if (!cbench_guard_can_watch(config->cpu)) {
		NL_SET_ERR_MSG(info->extack, "one CPU is online, so none can end a benchmark call "
			       "that never returns; load cbench.ko with unwatched_runs=1 to take "
			       "that risk");
		return -EOPNOTSUPP;
	}
	ret = where_free(info, config);
	if (ret < 0)
		return ret;
	run = cbench_run_new(image, config);
	if (!run)
		return -ENOMEM;
	run->watcher = ret;
	if (audit) {
		run->audit = cbench_audit_new(audit, config->samples);
		if (!run->audit) {
			cbench_run_put(run);
			return -ENOMEM;
		}
	}
	ret = cbench_client_add_run(owner, run);
	if (ret) {
		cbench_run_put(run);
		return ret;
	}
	ret = cbench_run_start(run);
	if (ret) {
		if (ret == -ENXIO)
			NL_SET_ERR_MSG(info->extack, "the CPU went offline");
		else
			NL_SET_ERR_MSG(info->extack, "cannot reserve counters or start the run's thread");
		cbench_client_drop_run(run);
		return ret;
	}
	*id = run->obj.id;
	return 0;
}

int cbench_nl_run_start(struct sk_buff *skb, struct genl_info *info)
{
	struct cbench_run_config config;
	struct cbench_image *image;
	u32 id = 0;
	int ret;

	ret = cbench_nl_require(info, CBENCH_A_IMAGE_ID) ?:
	      cbench_nl_require(info, CBENCH_A_RUN_ENTRY) ?:
	      cbench_nl_require(info, CBENCH_A_RUN_REPS) ?:
	      cbench_nl_require(info, CBENCH_A_RUN_SAMPLES) ?:
	      cbench_nl_require(info, CBENCH_A_RUN_CPU);
	if (ret)
		return ret;

	cbench_client_lock();
	image = image_of(skb, info);
	ret = -ENOENT;
	if (image)
		ret = run_config(info, image, &config) ?:
		      cbench_nl_run_launch(info, NETLINK_CB(skb).sk, image, &config, NULL, &id);
	cbench_client_unlock();
	return ret ?: cbench_nl_reply_u32(info, CBENCH_CMD_RUN_START, CBENCH_A_RUN_ID, id);
}

/* Looks up the run named by CBENCH_A_RUN_ID of skb's socket; under the lock. */
static struct cbench_run *run_of(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *attr = info->attrs[CBENCH_A_RUN_ID];
	struct cbench_run *run;

	run = cbench_client_run(NETLINK_CB(skb).sk, nla_get_u32(attr));
	if (!run)
		NL_SET_ERR_MSG_ATTR(info->extack, attr, "no such run on this socket");
	return run;
}

/* A FAILED run's exception, where its call raised one (guard.c). */
static int put_trap(struct sk_buff *msg, const struct cbench_run *run)
{
	const struct cbench_guard_fault *fault = &run->guard.fault;

	if (run->flags_changed && nla_put_u32(msg, CBENCH_A_RUN_FLAGS_CHANGED, run->flags_changed))
		return -EMSGSIZE;
	if (run->recovered && run->audit &&
	    nla_put_u32(msg, CBENCH_A_RUN_RECOVERED_SIDE, run->recovered_side))
		return -EMSGSIZE;
	if (!run->recovered || !fault->trap)
		return 0;
	if (nla_put_u32(msg, CBENCH_A_RUN_TRAP, fault->trap - 1) ||
	    nla_put_u64_64bit(msg, CBENCH_A_RUN_TRAP_OFFSET, fault->offset, CBENCH_A_UNSPEC) ||
	    (fault->from_caller && nla_put_flag(msg, CBENCH_A_RUN_TRAP_FROM_CALLER)) ||
	    (fault->oopsed && nla_put_flag(msg, CBENCH_A_RUN_OOPSED)))
		return -EMSGSIZE;
	if (fault->trap - 1 == X86_TRAP_PF &&
	    (nla_put_u64_64bit(msg, CBENCH_A_RUN_FAULT_ADDR, fault->address, CBENCH_A_UNSPEC) ||
	     nla_put_u32(msg, CBENCH_A_RUN_FAULT_ERROR, (u32)fault->error_code)))
		return -EMSGSIZE;
	return 0;
}

static int put_run(struct sk_buff *msg, struct cbench_run *run)
{
	/* Pairs with finish(): once it has ended, everything the thread wrote is visible. */
	u32 state = smp_load_acquire(&run->state);
	/* Pairs with the thread's release: the counts are as of this many samples. */
	u32 done = smp_load_acquire(&run->done);

	if (nla_put_u32(msg, CBENCH_A_RUN_ID, run->obj.id) ||
	    nla_put_u32(msg, CBENCH_A_RUN_STATE, state) ||
	    nla_put_u32(msg, CBENCH_A_RUN_SAMPLES_DONE, done) ||
	    nla_put_u32(msg, CBENCH_A_RUN_COUNTERS, run->rules.counters) ||
	    nla_put_u32(msg, CBENCH_A_RUN_QUIET, run->config.quiet) ||
	    nla_put_u64_64bit(msg, CBENCH_A_RUN_PROBE_TSC, READ_ONCE(run->probe_tsc),
			      CBENCH_A_UNSPEC) ||
	    (run->watcher >= 0 && nla_put_u32(msg, CBENCH_A_RUN_WATCHER, run->watcher)))
		return -EMSGSIZE;
	if (state != CBENCH_RUN_RUNNING) {
		if (nla_put_u32(msg, CBENCH_A_RUN_DISTURBED, run->disturbed) ||
		    nla_put_u64_64bit(msg, CBENCH_A_RUN_STACK_USED, run->stack_used,
				      CBENCH_A_UNSPEC) ||
		    (state == CBENCH_RUN_FAILED &&
		     (nla_put_s32(msg, CBENCH_A_RUN_ERROR, run->error) ||
		      nla_put_u32(msg, CBENCH_A_RUN_FAILED_IN, run->failed_in) ||
		      (run->recovered && nla_put_flag(msg, CBENCH_A_RUN_RECOVERED)) ||
		      put_trap(msg, run))) ||
		    (run->calibrated && nla_put(msg, CBENCH_A_RUN_OVERHEAD, sizeof(run->overhead),
						&run->overhead)))
			return -EMSGSIZE;
	}
	return 0;
}

int cbench_nl_run_get(struct sk_buff *skb, struct genl_info *info)
{
	struct cbench_run *run;
	struct sk_buff *msg;
	void *hdr;
	int ret;

	ret = cbench_nl_require(info, CBENCH_A_RUN_ID);
	if (ret)
		return ret;
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, cbench_nl_family, 0, CBENCH_CMD_RUN_GET);
	ret = -EMSGSIZE;
	if (!hdr)
		goto fail;
	cbench_client_lock();
	run = run_of(skb, info);
	ret = run ? put_run(msg, run) : -ENOENT;
	cbench_client_unlock();
	if (ret)
		goto fail;
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
fail:
	nlmsg_free(msg);
	return ret;
}

int cbench_nl_run_cancel(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *attr = info->attrs[CBENCH_A_RUN_ID];
	int ret;

	ret = cbench_nl_require(info, CBENCH_A_RUN_ID);
	if (ret)
		return ret;
	ret = cbench_client_cancel_run(NETLINK_CB(skb).sk, nla_get_u32(attr));
	if (ret)
		NL_SET_ERR_MSG_ATTR(info->extack, attr, "no such run on this socket");
	return ret;
}

int cbench_nl_run_del(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *attr = info->attrs[CBENCH_A_RUN_ID];
	int ret;

	ret = cbench_nl_require(info, CBENCH_A_RUN_ID);
	if (ret)
		return ret;
	ret = cbench_client_del_run(NETLINK_CB(skb).sk, nla_get_u32(attr));
	if (ret)
		NL_SET_ERR_MSG_ATTR(info->extack, attr, "no such run on this socket");
	return ret;
}

/*
 * The samples dump: each call sends what fits in one message of the
 * samples recorded by then (netlink_dump.c keeps the run and checks the
 * request), and the dump ends when it has caught up.
 */
int cbench_nl_samples_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct cbench_run *run = (struct cbench_run *)cb->args[0];
	u32 index = cb->args[1];
	int room, n, ret;
	void *hdr;
	u32 done;

	ret = cbench_nl_dump_begin(cb, cbench_nl_dump_check, index, &done);
	if (ret)
		return ret;
	if (index >= done)
		return 0;
	/*
	 * An attribute holds less than 64 KiB; nla_put would not say so.  An
	 * audit run's samples each take a byte more, their side, in an
	 * attribute of its own.
	 */
	room = skb_tailroom(skb) - 256 - (run->audit ? NLA_HDRLEN + NLA_ALIGNTO : 0);
	room = min_t(int, room, U16_MAX - NLA_HDRLEN);
	n = min_t(u32, done - index,
		  room > 0 ? room / (int)(sizeof(struct cbench_ksample) + !!run->audit) : 0);
	if (!n)
		return -EMSGSIZE;
	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq, cbench_nl_family,
			  NLM_F_MULTI, CBENCH_CMD_SAMPLES);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, CBENCH_A_RUN_ID, run->obj.id) ||
	    nla_put_u32(skb, CBENCH_A_SAMPLES_FIRST, index) ||
	    nla_put(skb, CBENCH_A_SAMPLES, n * sizeof(struct cbench_ksample), &run->samples[index]) ||
	    (run->audit && nla_put(skb, CBENCH_A_SAMPLES_SIDES, n, &run->audit->sides[index]))) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	cb->args[1] = index + n;
	return skb->len;
}
