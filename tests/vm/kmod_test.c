// SPDX-License-Identifier: GPL-2.0
/*
 * kmod_test: drives cbench.ko's image and run commands over raw generic
 * netlink, in the test VM.  It sends what cbenchctl would and, above all,
 * what cbenchctl never would: malformed and out-of-range attributes, bad
 * images, other sockets' objects, unprivileged requests.
 *
 *   kmod_test run <bench.so> <name> [samples] [reps] [budget_ns]
 *   kmod_test hostile <bench.so>
 *   kmod_test hold <bench.so> <name>     start a long run and sleep (killed by the script)
 *   kmod_test concurrent <bench.so> <name>   two clients running at once
 *   kmod_test suite <bench.so>           every benchmark of an object, once
 *   kmod_test cheap <bench.so> <name>    many cheap reps, sized from this host's costs
 *   kmod_test cancel <bench.so> <name>   cancel a long run; its samples stay readable
 *   kmod_test live                       print "images runs" held in the module
 *   kmod_test policy                     each command refuses attributes it does not take
 *   kmod_test dump-interrupted <bench.so> <name>   a run deleted during its samples dump
 *   kmod_test ids <bench.so>             image and run ids: apart, not reused at once
 *   kmod_test port-reuse                 a new socket on a closed one's port id
 *   kmod_test audit <audit.so> <good.so> audit runs: sides marked, in the seeded order
 *   kmod_test audit-hostile <audit.so>   bad audit schedules and sides refused
 *   kmod_test audit-hold <audit.so>      start a long audit run of two images and sleep
 *   kmod_test args <params.so>          named parameters: RUN_ARGS reaching setup(), refusals
 *   kmod_test tpoints <tpoints.so>       loop timing points: exact records, refusals,
 *                                        a dump interrupted by RUN_DEL
 *   kmod_test tp-hostile <tp_hostile.so> benchmarks that scribble on ctx->tp
 *   kmod_test stuck <stuck.so>           calls that never return, each ended by the watchdog
 *   kmod_test stuck-one <stuck.so> <name>   one of them, run() stuck (by hand: with a
 *                                        raised call_limit_ms, to see the soft-lockup reports)
 *   kmod_test faulting <faulting.so>     calls that raise exceptions, each ended where it faulted
 *   kmod_test hazards <hazards.so>       page faults, int3 forms, int1, into, the trap flag, flags
 *   kmod_test oops-net <hazards.so> quiet|oops  calls ended after an oops (null call; all faults)
 *   kmod_test stack <deep_stack.so>      a 64 KiB frame runs on the benchmark's own stack
 *   kmod_test killed <hazards.so>        (a build with no fault net) a thread killed mid-call
 *
 * Prints one line per check; exits 0 only if every check passed.
 */
#include <errno.h>
#include <inttypes.h>
#include <linux/capability.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../kmod/lib/crc32.h"
#include "../../kmod/lib/order.h"
#include "object/kimage.h"

#define BUF_BYTES (256 * 1024)

static int failures;

struct nl {
	int fd;
	uint16_t family;
	uint32_t seq;
	char ext[256];		/* extended-ack text of the last error */
	uint32_t bad_offset;	/* NLMSGERR_ATTR_OFFS of the last error; 0: none */
	uint32_t miss_type;	/* NLMSGERR_ATTR_MISS_TYPE of the last error; 0: none */
	uint32_t miss_nest;	/* NLMSGERR_ATTR_MISS_NEST of the last error; 0: none */
};

struct msg {
	union {
		struct nlmsghdr nlh;
		char bytes[80 * 1024];
	};
	size_t len;
};

static void check(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s: ", ok ? "ok" : "FAIL");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (!ok)
		failures++;
}

static void put(struct msg *m, uint16_t type, const void *data, size_t bytes)
{
	struct nlattr *a = (struct nlattr *)(m->bytes + m->len);

	a->nla_type = type;
	a->nla_len = (uint16_t)(NLA_HDRLEN + bytes);
	memcpy((char *)a + NLA_HDRLEN, data, bytes);
	m->len += NLA_ALIGN(NLA_HDRLEN + bytes);
}

static void put_u32(struct msg *m, uint16_t type, uint32_t v)
{
	put(m, type, &v, sizeof(v));
}

static void put_u64(struct msg *m, uint16_t type, uint64_t v)
{
	put(m, type, &v, sizeof(v));
}

static void start(struct nl *nl, struct msg *m, uint8_t cmd, uint16_t flags)
{
	struct genlmsghdr *g;

	memset(&m->nlh, 0, sizeof(m->nlh) + GENL_HDRLEN);
	m->nlh.nlmsg_type = nl->family;
	m->nlh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	m->nlh.nlmsg_seq = ++nl->seq;
	g = (struct genlmsghdr *)(m->bytes + NLMSG_HDRLEN);
	g->cmd = cmd;
	g->version = CBENCH_GENL_VERSION;
	m->len = NLMSG_HDRLEN + GENL_HDRLEN;
}

/* Records what an error message's extended ack says, after its payload at off. */
static void ext_ack(struct nl *nl, const struct nlmsghdr *h, size_t off)
{
	for (const struct nlattr *a = (const struct nlattr *)((const char *)h + off);
	     (const char *)a + NLA_HDRLEN <= (const char *)h + h->nlmsg_len &&
	     a->nla_len >= NLA_HDRLEN;
	     a = (const struct nlattr *)((const char *)a + NLA_ALIGN(a->nla_len))) {
		const void *data = (const char *)a + NLA_HDRLEN;

		if (a->nla_type == NLMSGERR_ATTR_MSG)
			snprintf(nl->ext, sizeof(nl->ext), "%s", (const char *)data);
		if (a->nla_type == NLMSGERR_ATTR_OFFS && a->nla_len >= NLA_HDRLEN + 4)
			memcpy(&nl->bad_offset, data, 4);
		if (a->nla_type == NLMSGERR_ATTR_MISS_TYPE && a->nla_len >= NLA_HDRLEN + 4)
			memcpy(&nl->miss_type, data, 4);
		if (a->nla_type == NLMSGERR_ATTR_MISS_NEST && a->nla_len >= NLA_HDRLEN + 4)
			memcpy(&nl->miss_nest, data, 4);
	}
}

/*
 * Reads the answers to request seq until its ack, error, or the end of its
 * dump.  Calls each_reply for every data message.  Returns 0 or the -errno
 * the kernel answered, in an error message or in a dump's NLMSG_DONE.
 */
static int receive(struct nl *nl, uint32_t seq,
		   void (*each_reply)(const struct nlmsghdr *, void *), void *arg)
{
	static char buf[BUF_BYTES];

	nl->ext[0] = '\0';
	nl->bad_offset = 0;
	nl->miss_type = 0;
	nl->miss_nest = 0;
	for (;;) {
		ssize_t n = recv(nl->fd, buf, sizeof(buf), 0);

		if (n < 0)
			return -errno;
		for (struct nlmsghdr *h = (struct nlmsghdr *)buf; NLMSG_OK(h, (size_t)n);
		     h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_seq != seq)
				continue;
			if (h->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *e = NLMSG_DATA(h);
				size_t off = NLMSG_HDRLEN + sizeof(*e);

				if (!(h->nlmsg_flags & NLM_F_CAPPED))
					off += e->msg.nlmsg_len - NLMSG_HDRLEN;
				ext_ack(nl, h, off);
				return e->error;
			}
			if (h->nlmsg_type == NLMSG_DONE) {
				int error = 0;

				if (h->nlmsg_len >= NLMSG_LENGTH(sizeof(error)))
					memcpy(&error, NLMSG_DATA(h), sizeof(error));
				if (h->nlmsg_flags & NLM_F_ACK_TLVS)
					ext_ack(nl, h, NLMSG_LENGTH(sizeof(error)));
				return error;
			}
			if (each_reply)
				each_reply(h, arg);
		}
	}
}

/* Sends m as it is; 0 or -errno. */
static int send_msg(struct nl *nl, struct msg *m)
{
	m->nlh.nlmsg_len = (uint32_t)m->len;
	return send(nl->fd, m->bytes, m->len, 0) < 0 ? -errno : 0;
}

/* Sends m and reads its answers (receive()). */
static int talk(struct nl *nl, struct msg *m,
		void (*each_reply)(const struct nlmsghdr *, void *), void *arg)
{
	int ret = send_msg(nl, m);

	return ret ? ret : receive(nl, m->nlh.nlmsg_seq, each_reply, arg);
}

/* Finds attribute type in a genl reply; NULL if absent. */
/* The attribute of type among the len bytes of attributes at a; NULL if none. */
static const struct nlattr *find_attr(const struct nlattr *a, int len, uint16_t type)
{
	for (; len >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN && a->nla_len <= len;
	     len -= NLA_ALIGN(a->nla_len), a = (const struct nlattr *)((const char *)a + NLA_ALIGN(a->nla_len))) {
		if ((a->nla_type & NLA_TYPE_MASK) == type)
			return a;
	}
	return NULL;
}

static const struct nlattr *attr(const struct nlmsghdr *h, uint16_t type)
{
	return find_attr((const struct nlattr *)((const char *)h + NLMSG_HDRLEN + GENL_HDRLEN),
			 (int)h->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN, type);
}

/* Attribute type inside the nest of type nest_type; NULL if either is absent. */
static const struct nlattr *nested(const struct nlmsghdr *h, uint16_t nest_type, uint16_t type)
{
	const struct nlattr *nest = attr(h, nest_type);

	return nest ? find_attr((const struct nlattr *)((const char *)nest + NLA_HDRLEN),
				nest->nla_len - NLA_HDRLEN, type) : NULL;
}

static uint64_t get_num(const struct nlattr *a)
{
	uint64_t v = 0;

	if (a)
		memcpy(&v, (const char *)a + NLA_HDRLEN,
		       a->nla_len - NLA_HDRLEN < 8 ? a->nla_len - NLA_HDRLEN : 8);
	return v;
}

static void family_reply(const struct nlmsghdr *h, void *arg)
{
	const struct nlattr *a = attr(h, CTRL_ATTR_FAMILY_ID);

	if (a)
		*(uint16_t *)arg = (uint16_t)get_num(a);
}

static int nl_open(struct nl *nl)
{
	struct msg m;
	int one = 1;

	memset(nl, 0, sizeof(*nl));
	nl->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (nl->fd < 0)
		return -errno;
	setsockopt(nl->fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	nl->family = GENL_ID_CTRL;
	start(nl, &m, CTRL_CMD_GETFAMILY, 0);
	((struct genlmsghdr *)(m.bytes + NLMSG_HDRLEN))->version = 1;
	put(&m, CTRL_ATTR_FAMILY_NAME, CBENCH_GENL_NAME, sizeof(CBENCH_GENL_NAME));
	nl->family = 0;
	{
		uint16_t id = 0;
		int ret;

		m.nlh.nlmsg_type = GENL_ID_CTRL;
		ret = talk(nl, &m, family_reply, &id);
		if (ret)
			return ret;
		nl->family = id;
	}
	return nl->family ? 0 : -ENOENT;
}

static void u32_reply(const struct nlmsghdr *h, void *arg)
{
	uint32_t *out = arg;
	const struct nlattr *a = attr(h, (uint16_t)out[0]);

	out[1] = (uint32_t)get_num(a);
}

/* Uploads image; returns its id or -errno.  chunk_bytes: upload in pieces this big. */
static int upload(struct nl *nl, const struct cbench_kimage *image)
{
	uint32_t out[2] = { CBENCH_A_IMAGE_ID, 0 };
	struct msg m;
	int ret;

	start(nl, &m, CBENCH_CMD_IMAGE_NEW, 0);
	put_u64(&m, CBENCH_A_IMAGE_BYTES, image->image_bytes);
	ret = talk(nl, &m, u32_reply, out);
	if (ret)
		return ret;
	for (uint64_t off = 0; off < image->image_bytes; off += CBENCH_CHUNK_MAX_BYTES) {
		uint64_t n = image->image_bytes - off;

		if (n > CBENCH_CHUNK_MAX_BYTES)
			n = CBENCH_CHUNK_MAX_BYTES;
		start(nl, &m, CBENCH_CMD_IMAGE_CHUNK, 0);
		put_u32(&m, CBENCH_A_IMAGE_ID, out[1]);
		put_u64(&m, CBENCH_A_CHUNK_OFFSET, off);
		put(&m, CBENCH_A_CHUNK_DATA, image->bytes + off, n);
		ret = talk(nl, &m, NULL, NULL);
		if (ret)
			return ret;
	}
	return (int)out[1];
}

/* Maps an uploaded image, with the CRC-32 of image's bytes as cbenchctl sends it. */
static int map(struct nl *nl, uint32_t id, const struct cbench_kimage *image)
{
	struct msg m;

	start(nl, &m, CBENCH_CMD_IMAGE_MAP, 0);
	put_u32(&m, CBENCH_A_IMAGE_ID, id);
	put(&m, CBENCH_A_IMAGE_TEXT, image->text, image->ntext * sizeof(image->text[0]));
	if (image->nrelocs)
		put(&m, CBENCH_A_IMAGE_RELOCS, image->relocs, image->nrelocs * sizeof(uint64_t));
	put_u32(&m, CBENCH_A_IMAGE_CRC32, cbench_crc32(0, image->bytes, image->image_bytes));
	return talk(nl, &m, NULL, NULL);
}

struct run_args {
	uint32_t image;
	const struct cbench_kimage_entry *entry;
	uint64_t reps;
	uint64_t reps_step;	/* 0: not sent */
	uint32_t samples;
	uint32_t cpu;
	uint64_t budget_ns;	/* 0: module default */
	int hooks;		/* send the entry's per-rep hooks */
	uint64_t bad_hook;	/* if not 0: this offset as before_rep */
	uint32_t tp_records;	/* 0: not sent */
	uint64_t tp_every;	/* 0: not sent */
	int args;		/* enum args_case: RUN_ARGS sent, good or bad */
	int quiet;		/* CBENCH_A_RUN_QUIET sent as quiet - 1; 0: not sent */
};

/* What args_test() sends as CBENCH_A_RUN_ARGS. */
enum args_case {
	ARGS_NONE,
	ARGS_GOOD,		/* len=8 algo=crc32c (index 1): params.so's hash accepts it */
	ARGS_WRONG,		/* len=8 algo=fnv1a: well formed, a set hash refuses */
	ARGS_NINE,		/* more than CBENCH_ARGS_MAX */
	ARGS_OTHER_TYPE,	/* a nest of another type than CBENCH_A_ARG */
	ARGS_NO_KEY,
	ARGS_LONG_KEY,		/* 64 bytes: one over */
	ARGS_EMPTY_STR,
	ARGS_FLAT,		/* RUN_ARGS without NLA_F_NESTED */
	ARGS_CASES
};

static size_t nest_begin(struct msg *m, uint16_t type);
static void nest_end(struct msg *m, size_t off);

static void put_arg(struct msg *m, uint16_t type, const char *key, int64_t i, const char *str)
{
	size_t off = nest_begin(m, type | NLA_F_NESTED);

	if (key)
		put(m, CBENCH_A_ARG_KEY, key, strlen(key) + 1);
	put_u64(m, CBENCH_A_ARG_INT, (uint64_t)i);
	if (str)
		put(m, CBENCH_A_ARG_STR, str, strlen(str) + 1);
	nest_end(m, off);
}

static void put_args(struct msg *m, int which)
{
	size_t off;

	if (which == ARGS_NONE)
		return;
	off = nest_begin(m, CBENCH_A_RUN_ARGS | (which == ARGS_FLAT ? 0 : NLA_F_NESTED));
	put_arg(m, CBENCH_A_ARG, which == ARGS_NO_KEY ? NULL : which == ARGS_LONG_KEY ?
		"a-key-of-sixty-four-bytes-one-more-than-the-module-takes-xxxxxxx" : "len", 8, NULL);
	put_arg(m, which == ARGS_OTHER_TYPE ? CBENCH_A_ARG + 1 : CBENCH_A_ARG, "algo",
		which == ARGS_WRONG ? 0 : 1, which == ARGS_WRONG ? "fnv1a" : which == ARGS_EMPTY_STR ? "" : "crc32c");
	for (int i = 0; which == ARGS_NINE && i < 7; i++)
		put_arg(m, CBENCH_A_ARG, "extra", i, NULL);
	nest_end(m, off);
}

static int run_start(struct nl *nl, const struct run_args *r)
{
	uint32_t out[2] = { CBENCH_A_RUN_ID, 0 };
	struct msg m;
	int ret;

	start(nl, &m, CBENCH_CMD_RUN_START, 0);
	put_u32(&m, CBENCH_A_IMAGE_ID, r->image);
	put_u64(&m, CBENCH_A_RUN_ENTRY, r->entry->run);
	if (r->entry->has_setup)
		put_u64(&m, CBENCH_A_RUN_SETUP, r->entry->setup);
	if (r->bad_hook)
		put_u64(&m, CBENCH_A_RUN_BEFORE_REP, r->bad_hook);
	else if (r->hooks && r->entry->has_before_rep)
		put_u64(&m, CBENCH_A_RUN_BEFORE_REP, r->entry->before_rep);
	if (r->hooks && r->entry->has_after_rep)
		put_u64(&m, CBENCH_A_RUN_AFTER_REP, r->entry->after_rep);
	put_u64(&m, CBENCH_A_RUN_REPS, r->reps);
	if (r->reps_step)
		put_u64(&m, CBENCH_A_RUN_REPS_STEP, r->reps_step);
	put_u32(&m, CBENCH_A_RUN_SAMPLES, r->samples);
	put_u32(&m, CBENCH_A_RUN_CPU, r->cpu);
	put_u64(&m, CBENCH_A_RUN_ARENA_BYTES, r->entry->arena_bytes ? r->entry->arena_bytes : 4096);
	if (r->entry->nparams)
		put_u64(&m, CBENCH_A_RUN_PARAM, (uint64_t)r->entry->params[0]);
	if (r->budget_ns)
		put_u64(&m, CBENCH_A_RUN_BUDGET_NS, r->budget_ns);
	if (r->tp_records)
		put_u32(&m, CBENCH_A_RUN_TP_RECORDS, r->tp_records);
	if (r->tp_every)
		put_u64(&m, CBENCH_A_RUN_TP_EVERY, r->tp_every);
	put_args(&m, r->args);
	if (r->quiet)
		put_u32(&m, CBENCH_A_RUN_QUIET, (uint32_t)(r->quiet - 1));
	ret = talk(nl, &m, u32_reply, out);
	return ret ? ret : (int)out[1];
}

struct run_state {
	uint32_t state, done, disturbed, counters, failed_in, quiet;
	int recovered;
	int32_t trap;		/* CBENCH_A_RUN_TRAP; -1: absent */
	uint64_t trap_offset;
	int from_caller, oopsed;
	uint64_t fault_addr, stack_used;
	uint32_t fault_error, flags_changed;
	int32_t error;
	uint64_t probe_tsc;
	struct cbench_ksample overhead;
	int have_overhead;
};

static void state_reply(const struct nlmsghdr *h, void *arg)
{
	struct run_state *s = arg;
	const struct nlattr *o = attr(h, CBENCH_A_RUN_OVERHEAD);

	s->state = (uint32_t)get_num(attr(h, CBENCH_A_RUN_STATE));
	s->done = (uint32_t)get_num(attr(h, CBENCH_A_RUN_SAMPLES_DONE));
	s->disturbed = (uint32_t)get_num(attr(h, CBENCH_A_RUN_DISTURBED));
	s->counters = (uint32_t)get_num(attr(h, CBENCH_A_RUN_COUNTERS));
	s->error = (int32_t)get_num(attr(h, CBENCH_A_RUN_ERROR));
	s->failed_in = (uint32_t)get_num(attr(h, CBENCH_A_RUN_FAILED_IN));
	s->recovered = attr(h, CBENCH_A_RUN_RECOVERED) != NULL;
	s->trap = attr(h, CBENCH_A_RUN_TRAP) ? (int32_t)get_num(attr(h, CBENCH_A_RUN_TRAP)) : -1;
	s->trap_offset = get_num(attr(h, CBENCH_A_RUN_TRAP_OFFSET));
	s->from_caller = attr(h, CBENCH_A_RUN_TRAP_FROM_CALLER) != NULL;
	s->oopsed = attr(h, CBENCH_A_RUN_OOPSED) != NULL;
	s->fault_addr = get_num(attr(h, CBENCH_A_RUN_FAULT_ADDR));
	s->fault_error = (uint32_t)get_num(attr(h, CBENCH_A_RUN_FAULT_ERROR));
	s->flags_changed = (uint32_t)get_num(attr(h, CBENCH_A_RUN_FLAGS_CHANGED));
	s->stack_used = get_num(attr(h, CBENCH_A_RUN_STACK_USED));
	s->probe_tsc = get_num(attr(h, CBENCH_A_RUN_PROBE_TSC));
	s->quiet = attr(h, CBENCH_A_RUN_QUIET) ? (uint32_t)get_num(attr(h, CBENCH_A_RUN_QUIET)) : 99;
	s->have_overhead = o && o->nla_len == NLA_HDRLEN + sizeof(s->overhead);
	if (s->have_overhead)
		memcpy(&s->overhead, (const char *)o + NLA_HDRLEN, sizeof(s->overhead));
}

static int run_get(struct nl *nl, uint32_t run, struct run_state *s)
{
	struct msg m;

	memset(s, 0, sizeof(*s));
	start(nl, &m, CBENCH_CMD_RUN_GET, 0);
	put_u32(&m, CBENCH_A_RUN_ID, run);
	return talk(nl, &m, state_reply, s);
}

static int run_wait(struct nl *nl, uint32_t run, struct run_state *s)
{
	for (int i = 0; i < 6000; i++) {
		int ret = run_get(nl, run, s);

		if (ret || s->state != CBENCH_RUN_RUNNING)
			return ret;
		usleep(10000);
	}
	return -ETIMEDOUT;
}

static int simple(struct nl *nl, uint8_t cmd, uint16_t type, uint32_t id)
{
	struct msg m;

	start(nl, &m, cmd, 0);
	put_u32(&m, type, id);
	return talk(nl, &m, NULL, NULL);
}

/*
 * What synthetic_pmu=1 makes counter c advance in every sample (pmu.c's
 * SYNTHETIC_DELTA): (c + 1) * 10007, wrapping its 16 bits in many.
 */
#define SYNTHETIC_DELTA 10007

struct dump {
	uint64_t max_counter;	/* largest counter delta seen */
	uint32_t synthetic;	/* samples whose counters moved SYNTHETIC_DELTA exactly */
	uint32_t next;		/* next index expected */
	uint32_t disturbed;
	uint64_t min_tsc;
	int bad;
};

static void samples_reply(const struct nlmsghdr *h, void *arg)
{
	struct dump *d = arg;
	const struct nlattr *a = attr(h, CBENCH_A_SAMPLES);
	uint32_t first = (uint32_t)get_num(attr(h, CBENCH_A_SAMPLES_FIRST));
	size_t n;

	if (!a || first != d->next || (a->nla_len - NLA_HDRLEN) % sizeof(struct cbench_ksample)) {
		d->bad = 1;
		return;
	}
	n = (a->nla_len - NLA_HDRLEN) / sizeof(struct cbench_ksample);
	for (size_t i = 0; i < n; i++) {
		struct cbench_ksample s;

		int exact = 1;

		memcpy(&s, (const char *)a + NLA_HDRLEN + i * sizeof(s), sizeof(s));
		for (int c = 0; c < CBENCH_COUNTERS; c++) {
			if (s.counters[c] > d->max_counter)
				d->max_counter = s.counters[c];
			if (s.counters[c] != (uint64_t)(c + 1) * SYNTHETIC_DELTA)
				exact = 0;
		}
		d->synthetic += exact;
		if (s.flags)
			d->disturbed++;
		else if (!d->min_tsc || s.tsc < d->min_tsc)
			d->min_tsc = s.tsc;
	}
	d->next += (uint32_t)n;
}

static int samples(struct nl *nl, uint32_t run, struct dump *d)
{
	struct msg m;

	memset(d, 0, sizeof(*d));
	start(nl, &m, CBENCH_CMD_SAMPLES, NLM_F_DUMP);
	put_u32(&m, CBENCH_A_RUN_ID, run);
	return talk(nl, &m, samples_reply, d);
}

static const char *state_name(uint32_t s)
{
	static const char *const names[] = { "running", "done", "cancelled", "too-long", "failed" };

	return s < 5 ? names[s] : "?";
}

static int load(const char *path, struct cbench_kimage *image)
{
	char why[512];
	int ret = cbench_kimage_load(path, image, why, sizeof(why));

	if (ret)
		fprintf(stderr, "kmod_test: %s\n", why);
	return ret;
}

static int nl_must(struct nl *nl)
{
	int ret = nl_open(nl);

	if (ret) {
		fprintf(stderr, "kmod_test: cannot reach cbench: %s\n", strerror(-ret));
		exit(2);
	}
	return 0;
}

/*
 * What a run test starts with: name's benchmark in image, a socket, and the
 * image uploaded and mapped for r; its id in *id.  False, the check failed,
 * when image has no such benchmark.
 */
static bool prepare(struct nl *nl, const struct cbench_kimage *image, const char *name,
		    struct run_args *r, int *id)
{
	r->entry = cbench_kimage_find(image, name);
	if (!r->entry) {
		check(0, "benchmark %s exists", name);
		return false;
	}
	nl_must(nl);
	*id = upload(nl, image);
	check(*id > 0 && map(nl, (uint32_t)*id, image) == 0, "upload and map: %d", *id);
	r->image = (uint32_t)*id;
	return true;
}

/* A want_state for measure(): either ending is right. */
#define WANT_DONE_OR_TOO_LONG 0x100

/* The CPU measure() runs on: the concurrency check puts its clients apart. */
static uint32_t measure_cpu;

/* One full measurement; returns 0 if it completed with every sample. */
static int measure(const struct cbench_kimage *image, const char *name, uint32_t n, uint64_t reps,
		   uint64_t budget_ns, uint32_t want_state)
{
	const struct cbench_kimage_entry *e = cbench_kimage_find(image, name);
	struct run_args r = { .entry = e, .reps = reps, .samples = n, .budget_ns = budget_ns,
			      .cpu = measure_cpu };
	struct run_state s;
	struct dump d;
	struct nl nl;
	int id, run, ret;

	if (!e) {
		check(0, "benchmark %s exists", name);
		return -ENOENT;
	}
	nl_must(&nl);
	id = upload(&nl, image);
	check(id > 0, "upload %s (%llu bytes): %d %s", name, (unsigned long long)image->image_bytes,
	      id, nl.ext);
	ret = map(&nl, (uint32_t)id, image);
	check(ret == 0, "map: %d %s", ret, nl.ext);
	r.image = (uint32_t)id;
	run = run_start(&nl, &r);
	check(run > 0, "run start: %d %s", run, nl.ext);
	if (run <= 0)
		return run;
	ret = run_wait(&nl, (uint32_t)run, &s);
	/* In a VM a memory benchmark can outlast the budget even at one rep. */
	if (want_state == WANT_DONE_OR_TOO_LONG)
		want_state = s.state == CBENCH_RUN_TOO_LONG ? CBENCH_RUN_TOO_LONG : CBENCH_RUN_DONE;
	check(ret == 0 && s.state == want_state,
	      "run %s ended %s (want %s), %u samples, %u disturbed, probe %llu tsc, counters 0x%x, "
	      "overhead %s %llu tsc", name, state_name(s.state), state_name(want_state), s.done,
	      s.disturbed, (unsigned long long)s.probe_tsc, s.counters,
	      s.have_overhead ? "" : "(none)", (unsigned long long)s.overhead.tsc);
	if (want_state == CBENCH_RUN_DONE)
		check(s.done == n && s.have_overhead, "all %u samples and an overhead", n);
	ret = samples(&nl, (uint32_t)run, &d);
	check(ret == 0 && !d.bad && d.next == s.done && d.disturbed == s.disturbed,
	      "dump: %d, %u samples, %u disturbed, least %llu tsc, largest counter delta %llu, "
	      "%u with the synthetic deltas", ret, d.next, d.disturbed,
	      (unsigned long long)d.min_tsc, (unsigned long long)d.max_counter, d.synthetic);
	check(simple(&nl, CBENCH_CMD_IMAGE_DEL, CBENCH_A_IMAGE_ID, (uint32_t)id) == -EBUSY,
	      "image with a run is busy");
	check(simple(&nl, CBENCH_CMD_RUN_DEL, CBENCH_A_RUN_ID, (uint32_t)run) == 0, "run deleted");
	check(simple(&nl, CBENCH_CMD_IMAGE_DEL, CBENCH_A_IMAGE_ID, (uint32_t)id) == 0,
	      "image deleted");
	close(nl.fd);
	return 0;
}

/*
 * A run of name with its per-rep hooks (tests/kfixtures/per_rep.c) ends in
 * want_state; a FAILED one with want_error in want_stage.
 */
static void hooked_run(struct nl *nl, uint32_t image_id, const struct cbench_kimage *image,
		       const char *name, uint32_t want_state, int32_t want_error, uint32_t want_stage)
{
	const struct cbench_kimage_entry *e = cbench_kimage_find(image, name);
	struct run_args r = { .image = image_id, .entry = e, .reps = 1, .samples = 50, .hooks = 1 };
	struct run_state s;
	struct dump d;
	int run, ret;

	if (!e || !(e->has_before_rep || e->has_after_rep)) {
		check(0, "%s has per-rep hooks", name);
		return;
	}
	run = run_start(nl, &r);
	check(run > 0, "%s: run start: %d %s", name, run, nl->ext);
	if (run <= 0)
		return;
	/* Waited for first: check()'s arguments are evaluated in no set order. */
	ret = run_wait(nl, (uint32_t)run, &s);
	check(ret == 0 && s.state == want_state &&
	      (want_state != CBENCH_RUN_FAILED ||
	       (s.error == want_error && s.failed_in == want_stage)),
	      "%s with its hooks ended %s, error %d in stage %u (want %s, %d in %u), %u samples",
	      name, state_name(s.state), s.error, s.failed_in, state_name(want_state), want_error,
	      want_stage, s.done);
	if (want_state == CBENCH_RUN_DONE)
		check(samples(nl, (uint32_t)run, &d) == 0 && d.next == 50 && !d.bad,
		      "%s: all 50 samples dumped", name);
	check(simple(nl, CBENCH_CMD_RUN_DEL, CBENCH_A_RUN_ID, (uint32_t)run) == 0, "run deleted");
}

/*
 * Per-rep hooks in ring 0, called directly (cbenchctl would have rehearsed
 * them first): fresh input for every call, a hook that fails, one that
 * overruns CBENCH_HOOK_MAX_NS, and run shapes a hooked run may not have.
 */
static void hooks(const struct cbench_kimage *image)
{
	struct run_args r = { .reps = 2, .samples = 4, .hooks = 1 };
	struct nl nl;
	int id;

	if (!prepare(&nl, image, "fresh_input", &r, &id))
		return;
	hooked_run(&nl, r.image, image, "fresh_input", CBENCH_RUN_DONE, 0, 0);
	hooked_run(&nl, r.image, image, "after_fails", CBENCH_RUN_FAILED, -5, CBENCH_STAGE_AFTER_REP);
	hooked_run(&nl, r.image, image, "before_slow", CBENCH_RUN_FAILED, -ETIME,
		   CBENCH_STAGE_BEFORE_REP);
	check(run_start(&nl, &r) == -EINVAL, "hooks with 2 reps refused: %s", nl.ext);
	r.reps = 1;
	r.reps_step = 1;
	check(run_start(&nl, &r) == -EINVAL, "hooks with a reps step refused: %s", nl.ext);
	r.reps_step = 0;
	r.bad_hook = image->image_bytes + 4096;
	check(run_start(&nl, &r) == -EINVAL, "before_rep outside the image refused: %s", nl.ext);
	r.bad_hook = r.entry->run + 1;
	check(run_start(&nl, &r) == -EINVAL, "before_rep not at an endbr64 refused: %s", nl.ext);
	check(simple(&nl, CBENCH_CMD_IMAGE_DEL, CBENCH_A_IMAGE_ID, (uint32_t)id) == 0,
	      "image deleted");
	close(nl.fd);
}

/*
 * Named parameters in ring 0, sent by hand: params.so's hash benchmark
 * fails its setup() (-71, -72) unless ctx->args holds exactly the set
 * len=8/algo=crc32c, so only the good args run to the end; malformed ARGS
 * nests are refused before any run exists.
 */
static void args_test(const struct cbench_kimage *image)
{
	static const struct {
		int args, ret;
		uint32_t state;
		int32_t error;
		const char *what;
	} cases[ARGS_CASES] = {
		{ ARGS_NONE, 0, CBENCH_RUN_FAILED, -71, "no args: setup() sees none" },
		{ ARGS_GOOD, 0, CBENCH_RUN_DONE, 0, "len=8 algo=crc32c reach setup() and run()" },
		{ ARGS_WRONG, 0, CBENCH_RUN_FAILED, -72, "len=8 algo=fnv1a reach setup(), which refuses" },
		{ ARGS_NINE, -EINVAL, 0, 0, "nine args refused" },
		{ ARGS_OTHER_TYPE, -EINVAL, 0, 0, "a nest of another type refused" },
		{ ARGS_NO_KEY, -EINVAL, 0, 0, "an arg without KEY refused" },
		{ ARGS_LONG_KEY, -EINVAL, 0, 0, "a 64-byte key refused" },
		{ ARGS_EMPTY_STR, -EINVAL, 0, 0, "an empty STR refused" },
		{ ARGS_FLAT, -EINVAL, 0, 0, "RUN_ARGS without NLA_F_NESTED refused" },
	};
	struct run_args r = { .reps = 10, .samples = 20 };
	struct run_state st;
	struct nl nl;
	int id;

	if (!prepare(&nl, image, "hash", &r, &id))
		return;
	for (int c = 0; c < ARGS_CASES; c++) {
		int run, ret;

		r.args = cases[c].args;
		run = run_start(&nl, &r);
		if (cases[c].ret) {
			check(run == cases[c].ret, "%s: %d (want %d) \"%s\"", cases[c].what, run, cases[c].ret,
			      nl.ext);
			continue;
		}
		check(run > 0, "%s: run start %d %s", cases[c].what, run, nl.ext);
		if (run <= 0)
			continue;
		memset(&st, 0, sizeof(st));
		/* Waited for first: check()'s arguments are evaluated in no set order. */
		ret = run_wait(&nl, (uint32_t)run, &st);
		check(ret == 0 && st.state == cases[c].state &&
		      st.error == cases[c].error &&
		      (cases[c].state != CBENCH_RUN_FAILED || st.failed_in == CBENCH_STAGE_SETUP),
		      "%s: ended %s, error %d in stage %u, %u samples", cases[c].what, state_name(st.state),
		      st.error, st.failed_in, st.done);
		check(simple(&nl, CBENCH_CMD_RUN_DEL, CBENCH_A_RUN_ID, (uint32_t)run) == 0, "run deleted");
	}
	check(simple(&nl, CBENCH_CMD_IMAGE_DEL, CBENCH_A_IMAGE_ID, (uint32_t)id) == 0, "image deleted");
	close(nl.fd);
}

/* A request built by fn is refused with want. */
static void refused(struct nl *nl, struct msg *m, int want, const char *what)
{
	int ret = talk(nl, m, NULL, NULL);

	check(ret == want, "%s: %d (want %d) \"%s\"", what, ret, want, nl->ext);
}

/* The same, the module naming the offending attribute at offset. */
static void refused_at(struct nl *nl, struct msg *m, int want, uint32_t offset, const char *what)
{
	int ret = talk(nl, m, NULL, NULL);

	check(ret == want && nl->bad_offset == offset,
	      "%s: %d, attribute at %u (want %d at %u) \"%s\"", what, ret, nl->bad_offset, want,
	      offset, nl->ext);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * An image one bit of which changed between the client and the module (a
 * copy with the bit flipped is uploaded, the CRC-32 of the true bytes
 * sent): the map is refused with -EBADMSG naming the CRC, and the image
 * never maps afterwards, with the CRC or without.  One changed byte is
 * enough to make a fuzzer's counting loop spin (stuck.c's fuzzed_loop).
 */
static void changed_on_the_way(struct nl *nl, const struct cbench_kimage *image)
{
	struct cbench_kimage bent = *image;
	struct msg m;
	int id;

	bent.bytes = malloc(image->image_bytes);
	if (!bent.bytes) {
		check(0, "memory for a copy of the image");
		return;
	}
	memcpy(bent.bytes, image->bytes, image->image_bytes);
	bent.bytes[image->text[0].start + 11] ^= 0x01;
	id = upload(nl, &bent);
	check(id > 0, "the bent copy uploads (%d '%s')", id, nl->ext);
	if (id > 0) {
		int ret = map(nl, (uint32_t)id, image);

		check(ret == -EBADMSG && strstr(nl->ext, "CRC-32"),
		      "a bit changed on the way: the map is refused (got %d '%s')", ret, nl->ext);
		ret = map(nl, (uint32_t)id, image);
		check(ret == -EBADMSG, "and again (got %d '%s')", ret, nl->ext);
		start(nl, &m, CBENCH_CMD_IMAGE_MAP, 0);
		put_u32(&m, CBENCH_A_IMAGE_ID, (uint32_t)id);
		put(&m, CBENCH_A_IMAGE_TEXT, image->text, image->ntext * sizeof(image->text[0]));
		if (image->nrelocs)
			put(&m, CBENCH_A_IMAGE_RELOCS, image->relocs,
			    image->nrelocs * sizeof(uint64_t));
		ret = talk(nl, &m, NULL, NULL);
		check(ret == -EBADMSG, "and without the CRC (got %d '%s')", ret, nl->ext);
		check(simple(nl, CBENCH_CMD_IMAGE_DEL, CBENCH_A_IMAGE_ID, (uint32_t)id) == 0,
		      "the bent image is deleted");
	}
	free(bent.bytes);
}

/*
 * A sweep whose last sample does far more reps than its first: only the
 * first is cheap, so a probe of the first alone would let the later ones
 * hold interrupts off for seconds (step 10^9) or days (2^48 - 1).  The run
 * must end TOO_LONG, at once, before any sample.
 */
static void sweep_too_long(const struct cbench_kimage *image, uint64_t step)
{
	struct run_args r = { .reps = 1, .reps_step = step, .samples = 2 };
	struct run_state s;
	struct nl nl;
	int id, run, ret;
	double t0;

	if (!prepare(&nl, image, "add_chain", &r, &id))
		return;
	t0 = now();
	run = run_start(&nl, &r);
	check(run > 0, "sweep of step %llu started: %d %s", (unsigned long long)step, run, nl.ext);
	if (run <= 0)
		return;
	ret = run_wait(&nl, (uint32_t)run, &s);
	/* No bound on the time: what shows the probe stopped it is that no
	 * sample was taken; the time is printed for people. */
	check(ret == 0 && s.state == CBENCH_RUN_TOO_LONG && s.done == 0,
	      "sweep of step %llu ended %s after %u samples in %.2f s (want too-long, 0), "
	      "probe %llu tsc", (unsigned long long)step, state_name(s.state), s.done, now() - t0,
	      (unsigned long long)s.probe_tsc);
	check(simple(&nl, CBENCH_CMD_RUN_DEL, CBENCH_A_RUN_ID, (uint32_t)run) == 0, "run deleted");
	check(simple(&nl, CBENCH_CMD_IMAGE_DEL, CBENCH_A_IMAGE_ID, (uint32_t)id) == 0,
	      "image deleted");
	close(nl.fd);
}

static void hostile(const struct cbench_kimage *image)
{
	const struct cbench_kimage_entry *e = &image->entries[0];
	struct run_args r = { .entry = e, .reps = 1, .samples = 4 };
	struct cbench_range text;
	struct nl nl, other;
	struct msg m;
	uint64_t v;
	int id, id2;

	nl_must(&nl);
	nl_must(&other);

	start(&nl, &m, CBENCH_CMD_IMAGE_NEW, 0);
	refused(&nl, &m, -EINVAL, "IMAGE_NEW without size");
	start(&nl, &m, CBENCH_CMD_IMAGE_NEW, 0);
	put_u64(&m, CBENCH_A_IMAGE_BYTES, 0);
	refused(&nl, &m, -ERANGE, "zero-length image");
	start(&nl, &m, CBENCH_CMD_IMAGE_NEW, 0);
	put_u64(&m, CBENCH_A_IMAGE_BYTES, 1ULL << 40);
	refused(&nl, &m, -E2BIG, "oversized image");
	start(&nl, &m, CBENCH_CMD_IMAGE_NEW, 0);
	put_u32(&m, CBENCH_A_IMAGE_BYTES, 4096);
	refused(&nl, &m, -EINVAL, "u32 where u64 is due");
	start(&nl, &m, CBENCH_CMD_IMAGE_NEW, 0);
	put_u64(&m, CBENCH_A_IMAGE_BYTES, 4096);
	put_u32(&m, __CBENCH_A_LAST + 3, 1);
	refused(&nl, &m, -EINVAL, "unknown attribute");
	start(&nl, &m, CBENCH_CMD_IMAGE_NEW, 0);
	put_u64(&m, CBENCH_A_IMAGE_BYTES, 4096);
	put_u32(&m, CBENCH_A_INFO_ABI, 1);
	refused(&nl, &m, -EINVAL, "reply-only attribute in a request");
	start(&nl, &m, __CBENCH_CMD_MAX + 2, 0);
	refused(&nl, &m, -EOPNOTSUPP, "unknown command");

	id = upload(&nl, image);
	check(id > 0, "upload: %d", id);

	/* Chunks: out of order, past the end, empty, too big, after completion. */
	start(&nl, &m, CBENCH_CMD_IMAGE_CHUNK, 0);
	put_u32(&m, CBENCH_A_IMAGE_ID, (uint32_t)id);
	put_u64(&m, CBENCH_A_CHUNK_OFFSET, 0);
	put(&m, CBENCH_A_CHUNK_DATA, image->bytes, 8);
	refused(&nl, &m, -EINVAL, "chunk after the whole image");
	id2 = (int)0;
	{
		uint32_t out[2] = { CBENCH_A_IMAGE_ID, 0 };

		start(&nl, &m, CBENCH_CMD_IMAGE_NEW, 0);
		put_u64(&m, CBENCH_A_IMAGE_BYTES, 3 * 4096);
		check(talk(&nl, &m, u32_reply, out) == 0, "second image");
		id2 = (int)out[1];
	}
	start(&nl, &m, CBENCH_CMD_IMAGE_CHUNK, 0);
	put_u32(&m, CBENCH_A_IMAGE_ID, (uint32_t)id2);
	put_u64(&m, CBENCH_A_CHUNK_OFFSET, 4096);
	put(&m, CBENCH_A_CHUNK_DATA, image->bytes, 4096);
	refused(&nl, &m, -EINVAL, "chunk out of order");
	start(&nl, &m, CBENCH_CMD_IMAGE_CHUNK, 0);
	put_u32(&m, CBENCH_A_IMAGE_ID, (uint32_t)id2);
	put_u64(&m, CBENCH_A_CHUNK_OFFSET, 0);
	put(&m, CBENCH_A_CHUNK_DATA, image->bytes, 0);
	refused(&nl, &m, -EINVAL, "empty chunk");
	start(&nl, &m, CBENCH_CMD_IMAGE_CHUNK, 0);
	put_u32(&m, CBENCH_A_IMAGE_ID, (uint32_t)id2);
	put_u64(&m, CBENCH_A_CHUNK_OFFSET, 0);
	put(&m, CBENCH_A_CHUNK_DATA, image->bytes, CBENCH_CHUNK_MAX_BYTES + 8);
	refused(&nl, &m, -ERANGE, "chunk over CBENCH_CHUNK_MAX_BYTES");
	start(&nl, &m, CBENCH_CMD_IMAGE_MAP, 0);
	put_u32(&m, CBENCH_A_IMAGE_ID, (uint32_t)id2);
	text = (struct cbench_range){ 0, 4096 };
	put(&m, CBENCH_A_IMAGE_TEXT, &text, sizeof(text));
	refused(&nl, &m, -EINVAL, "map before the upload is complete");
	start(&other, &m, CBENCH_CMD_IMAGE_CHUNK, 0);
	put_u32(&m, CBENCH_A_IMAGE_ID, (uint32_t)id2);
	put_u64(&m, CBENCH_A_CHUNK_OFFSET, 0);
	put(&m, CBENCH_A_CHUNK_DATA, image->bytes, 8);
	refused(&other, &m, -ENOENT, "another socket's image");

	/* Bad maps of the full image. */
	start(&nl, &m, CBENCH_CMD_IMAGE_MAP, 0);
	put_u32(&m, CBENCH_A_IMAGE_ID, (uint32_t)id);
	text = (struct cbench_range){ 0, image->image_bytes + 4096 };
	put(&m, CBENCH_A_IMAGE_TEXT, &text, sizeof(text));
	refused(&nl, &m, -EINVAL, "text past the image");
	start(&nl, &m, CBENCH_CMD_IMAGE_MAP, 0);
	put_u32(&m, CBENCH_A_IMAGE_ID, (uint32_t)id);
	put(&m, CBENCH_A_IMAGE_TEXT, image->text, sizeof(image->text[0]) - 4);
	refused(&nl, &m, -EINVAL, "text not an array of ranges");
	start(&nl, &m, CBENCH_CMD_IMAGE_MAP, 0);
	put_u32(&m, CBENCH_A_IMAGE_ID, (uint32_t)id);
	put(&m, CBENCH_A_IMAGE_TEXT, image->text, 0);
	refused(&nl, &m, -EINVAL, "no text ranges");
	{
		static uint64_t many[CBENCH_RELOCS_MAX + 1];

		for (uint32_t i = 0; i <= CBENCH_RELOCS_MAX; i++)
			many[i] = 8 * (uint64_t)i;
		start(&nl, &m, CBENCH_CMD_IMAGE_MAP, 0);
		put_u32(&m, CBENCH_A_IMAGE_ID, (uint32_t)id);
		put(&m, CBENCH_A_IMAGE_TEXT, image->text, image->ntext * sizeof(image->text[0]));
		put(&m, CBENCH_A_IMAGE_RELOCS, many, sizeof(many));
		refused(&nl, &m, -ERANGE, "more than CBENCH_RELOCS_MAX relocations");
	}
	start(&nl, &m, CBENCH_CMD_IMAGE_MAP, 0);
	put_u32(&m, CBENCH_A_IMAGE_ID, (uint32_t)id);
	put(&m, CBENCH_A_IMAGE_TEXT, image->text, image->ntext * sizeof(image->text[0]));
	v = image->image_bytes;
	put(&m, CBENCH_A_IMAGE_RELOCS, &v, sizeof(v));
	refused(&nl, &m, -EINVAL, "relocation past the image");
	start(&nl, &m, CBENCH_CMD_IMAGE_MAP, 0);
	put_u32(&m, CBENCH_A_IMAGE_ID, (uint32_t)id);
	put(&m, CBENCH_A_IMAGE_TEXT, image->text, image->ntext * sizeof(image->text[0]));
	v = image->relocs[0] + 4;
	put(&m, CBENCH_A_IMAGE_RELOCS, &v, sizeof(v));
	refused(&nl, &m, -EINVAL, "unaligned relocation");
	start(&nl, &m, CBENCH_CMD_IMAGE_MAP, 0);
	put_u32(&m, CBENCH_A_IMAGE_ID, (uint32_t)id);
	put(&m, CBENCH_A_IMAGE_TEXT, image->text, image->ntext * sizeof(image->text[0]));
	v = image->text[0].start;
	put(&m, CBENCH_A_IMAGE_RELOCS, &v, sizeof(v));
	refused(&nl, &m, -EINVAL, "relocation in text");

	r.image = (uint32_t)id;
	check(run_start(&nl, &r) == -EINVAL, "run on an unmapped image: \"%s\"", nl.ext);
	changed_on_the_way(&nl, image);
	check(map(&nl, (uint32_t)id, image) == 0, "map: %s", nl.ext);
	check(map(&nl, (uint32_t)id, image) == -EINVAL, "second map: \"%s\"", nl.ext);

	/* Bad runs. */
	{
		struct cbench_kimage_entry bad = *e;

		bad.run = e->run + 1;
		r.entry = &bad;
		check(run_start(&nl, &r) == -EINVAL, "entry not at endbr64: \"%s\"", nl.ext);
		bad.run = image->image_bytes - 4;
		check(run_start(&nl, &r) == -EINVAL, "entry outside text: \"%s\"", nl.ext);
		bad.run = 1ULL << 62;
		check(run_start(&nl, &r) == -EINVAL, "entry far outside the image: \"%s\"", nl.ext);
		r.entry = e;
	}
	r.samples = 0;
	check(run_start(&nl, &r) == -ERANGE, "zero samples: \"%s\"", nl.ext);
	r.samples = 1U << 31;
	check(run_start(&nl, &r) == -E2BIG, "too many samples: \"%s\"", nl.ext);
	r.samples = 4;
	r.reps = 0;
	check(run_start(&nl, &r) == -ERANGE, "zero reps: \"%s\"", nl.ext);
	r.reps = 1;
	/* 65536 * 2^48 is 2^64: 0 in a u64. */
	r.reps_step = 1ULL << 48;
	r.samples = 65537;
	check(run_start(&nl, &r) == -ERANGE && strstr(nl.ext, "2^48"),
	      "sweep whose reps wrap a u64: \"%s\"", nl.ext);
	r.reps_step = CBENCH_REPS_MAX;
	r.samples = 2;
	check(run_start(&nl, &r) == -ERANGE && strstr(nl.ext, "2^48"),
	      "sweep past 2^48 reps: \"%s\"", nl.ext);
	r.reps_step = 0;
	r.samples = 4;
	r.cpu = 4096;
	check(run_start(&nl, &r) == -EINVAL, "offline CPU: \"%s\"", nl.ext);
	r.cpu = 0;
	r.budget_ns = 10;
	check(run_start(&nl, &r) == -ERANGE, "budget under the minimum: \"%s\"", nl.ext);
	r.budget_ns = 1ULL << 50;
	check(run_start(&nl, &r) == -E2BIG, "budget over the module's: \"%s\"", nl.ext);
	r.budget_ns = 0;
	r.image = (uint32_t)id;
	check(run_start(&other, &r) == -ENOENT, "run on another socket's image");
	check(simple(&nl, CBENCH_CMD_RUN_GET, CBENCH_A_RUN_ID, 12345) == -ENOENT, "no such run");
	check(simple(&nl, CBENCH_CMD_RUN_CANCEL, CBENCH_A_RUN_ID, 0) == -ERANGE, "run id 0");

	/* Leave both images for the socket's close to free. */
	close(nl.fd);
	close(other.fd);

	/* Unprivileged. */
	pid_t pid = fork();

	if (pid == 0) {
		struct nl u;
		int ret;

		if (setgid(65534) || setuid(65534))
			_exit(3);
		nl_must(&u);
		start(&u, &m, CBENCH_CMD_IMAGE_NEW, 0);
		put_u64(&m, CBENCH_A_IMAGE_BYTES, 4096);
		ret = talk(&u, &m, NULL, NULL);
		_exit(ret == -EPERM ? 0 : 1);
	}
	{
		int status;

		waitpid(pid, &status, 0);
		check(WIFEXITED(status) && WEXITSTATUS(status) == 0, "unprivileged caller refused");
	}

	sweep_too_long(image, 1000000000);
	sweep_too_long(image, CBENCH_REPS_MAX - 1);
}

static void info_reply(const struct nlmsghdr *h, void *arg)
{
	uint32_t *live = arg;
	const struct nlattr *images = nested(h, CBENCH_A_INFO_LIVE, CBENCH_A_LIVE_IMAGES);
	const struct nlattr *runs = nested(h, CBENCH_A_INFO_LIVE, CBENCH_A_LIVE_RUNS);

	if (images)
		live[0] = (uint32_t)get_num(images);
	if (runs)
		live[1] = (uint32_t)get_num(runs);
}

static int live(void)
{
	uint32_t counts[2] = { 99, 99 };
	struct msg m;
	struct nl nl;
	int ret;

	nl_must(&nl);
	start(&nl, &m, CBENCH_CMD_INFO, 0);
	ret = talk(&nl, &m, info_reply, counts);
	printf("%u %u\n", counts[0], counts[1]);
	close(nl.fd);
	return ret ? 1 : 0;
}


/* INFO's TSC frequency and interrupts-off budget. */
static void limits_reply(const struct nlmsghdr *h, void *arg)
{
	uint64_t *v = arg;
	const struct nlattr *irqoff = nested(h, CBENCH_A_INFO_LIMITS, CBENCH_A_LIMIT_IRQOFF_NS);

	if (attr(h, CBENCH_A_INFO_TSC_KHZ))
		v[0] = get_num(attr(h, CBENCH_A_INFO_TSC_KHZ));
	if (irqoff)
		v[1] = get_num(irqoff);
}

/*
 * Reps of r's entry for which one call takes about a quarter of the
 * interrupts-off budget on this host, from the module's probe of a short
 * run: a run of the module's most samples at these reps lasts, on a host
 * of any speed, samples_max / 4 budgets (over an hour at the 10 ms budget
 * kmod.sh loads with), so it is still running whenever a test acts on it.
 * 0 if the host would not say.
 */
static uint64_t quarter_budget_reps(struct nl *nl, const struct run_args *r)
{
	struct run_args probe = *r;
	uint64_t v[2] = { 0, 0 }, reps;
	struct run_state s;
	struct msg m;
	int run;

	start(nl, &m, CBENCH_CMD_INFO, 0);
	if (talk(nl, &m, limits_reply, v) || !v[0] || !v[1])
		return 0;
	/* 1000 reps, or where a slow host (the debug kernel under TCG, a busy
	 * machine) makes those longer than the budget, one: its fixed cost
	 * makes the estimate smaller, never a run over the budget. */
	for (probe.reps = 1000;; probe.reps = 1) {
		probe.samples = 4;
		run = run_start(nl, &probe);
		if (run <= 0 || run_wait(nl, (uint32_t)run, &s))
			return 0;
		simple(nl, CBENCH_CMD_RUN_DEL, CBENCH_A_RUN_ID, (uint32_t)run);
		if (s.state == CBENCH_RUN_DONE && s.probe_tsc)
			break;
		if (probe.reps == 1 || s.state != CBENCH_RUN_TOO_LONG)
			return 0;
	}
	/* budget ticks = budget_ns * tsc_khz / 1e6; at least the one rep that fit */
	reps = probe.reps * (v[1] * v[0] / 1000000 / 4) / s.probe_tsc;
	return reps ? reps : 1;
}

/*
 * The least sample, in TSC ticks, of a run of r at reps: a timed call with
 * interrupts off, its fixed cost included.  The least of 64, so that the
 * first calls' costs (under TCG, translating the code) do not count.  0 if
 * the run would not say.
 */
static uint64_t least_sample(struct nl *nl, const struct run_args *r, uint64_t reps)
{
	struct run_args probe = *r;
	struct run_state s;
	struct dump d;
	int run;

	probe.reps = reps;
	probe.samples = 64;
	run = run_start(nl, &probe);
	if (run <= 0 || run_wait(nl, (uint32_t)run, &s) || s.state != CBENCH_RUN_DONE ||
	    samples(nl, (uint32_t)run, &d) || d.bad)
		return 0;
	simple(nl, CBENCH_CMD_RUN_DEL, CBENCH_A_RUN_ID, (uint32_t)run);
	return d.min_tsc;
}

/*
 * Many cheap reps: a call whose reps fit the budget though one rep timed
 * with the fixed cost of timing it, times the reps, is far over it (the
 * module's probe must take that fixed cost off, kmod/measure.c).  The reps are
 * sized from what this host measures, not from a guessed speed: half the
 * budget of reps at their own cost per rep.
 */
static void cheap_reps(const struct cbench_kimage *image, const char *name)
{
	struct run_args r = { .samples = 20 };
	uint64_t v[2] = { 0, 0 }, one, many, budget, reps;
	double per_rep;
	struct msg m;
	struct nl nl;
	int id;

	if (!prepare(&nl, image, name, &r, &id))
		return;
	start(&nl, &m, CBENCH_CMD_INFO, 0);
	check(talk(&nl, &m, limits_reply, v) == 0 && v[0] && v[1], "INFO: TSC and budget");
	budget = v[1] * v[0] / 1000000;		/* ticks */
	one = least_sample(&nl, &r, 1);
	many = least_sample(&nl, &r, 100000);
	per_rep = many > one ? (double)(many - one) / 99999 : 0;
	check(one && per_rep > 0, "costs: one timed rep %llu ticks, %.3f ticks per further rep",
	      (unsigned long long)one, per_rep);
	if (!(per_rep > 0))
		return;
	/* A third of the budget: room for a host that preempts the guest. */
	reps = (uint64_t)((double)budget / 3 / per_rep);
	/* The premise: one rep's timed cost times the reps is past the probe's
	 * slack (4 budgets), so only discounting the fixed cost lets it run. */
	check((double)one * (double)reps > 4.0 * (double)budget,
	      "%llu reps: %.1f budgets if each paid a timed call's cost",
	      (unsigned long long)reps, (double)one * (double)reps / (double)budget);
	/*
	 * A busy host stretches the guest's calls (its TSC runs on while the
	 * vCPU waits), so a run may end TOO_LONG by bad luck: three tries.  A
	 * probe that charged every rep the fixed cost refuses all three.
	 */
	for (int tries = 1;; tries++) {
		struct run_state st = { 0 };
		int run;

		r.reps = reps;
		run = run_start(&nl, &r);
		if (run > 0 && !run_wait(&nl, (uint32_t)run, &st) && st.state == CBENCH_RUN_DONE &&
		    st.done == r.samples) {
			check(1, "%llu reps ran, try %d: probe %llu ticks", (unsigned long long)reps,
			      tries, (unsigned long long)st.probe_tsc);
			simple(&nl, CBENCH_CMD_RUN_DEL, CBENCH_A_RUN_ID, (uint32_t)run);
			break;
		}
		if (run > 0)
			simple(&nl, CBENCH_CMD_RUN_DEL, CBENCH_A_RUN_ID, (uint32_t)run);
		if (tries == 3) {
			check(0, "%llu reps ended %s three times, probe %llu ticks (budget %llu)",
			      (unsigned long long)reps, state_name(st.state),
			      (unsigned long long)st.probe_tsc, (unsigned long long)budget);
			break;
		}
	}
	simple(&nl, CBENCH_CMD_IMAGE_DEL, CBENCH_A_IMAGE_ID, (uint32_t)id);
	close(nl.fd);
}

/* Waits until run has taken its first sample: it has started for real. */
static int first_sample(struct nl *nl, uint32_t run, struct run_state *s)
{
	for (int i = 0; i < 6000; i++) {
		int ret = run_get(nl, run, s);

		if (ret || s->done > 0 || s->state != CBENCH_RUN_RUNNING)
			return ret;
		usleep(10000);
	}
	return -ETIMEDOUT;
}

/* Starts a run that lasts hours on any host, says so once it has taken a
 * sample, and sleeps until killed. */
static int hold(const struct cbench_kimage *image, const char *name)
{
	const struct cbench_kimage_entry *e = cbench_kimage_find(image, name);
	struct run_args r = { .entry = e, .samples = 1U << 20 };
	struct run_state s;
	struct nl nl;
	int id, run;

	if (!e)
		return 1;
	nl_must(&nl);
	id = upload(&nl, image);
	if (id <= 0 || map(&nl, (uint32_t)id, image))
		return 1;
	r.image = (uint32_t)id;
	r.reps = quarter_budget_reps(&nl, &r);
	if (!r.reps) {
		printf("hold: no reps fit a quarter of the budget\n");
		return 1;
	}
	/*
	 * A host that preempts the guest (a debug kernel's, under load) can
	 * stretch three samples in a row past the budget, ending the run as
	 * TOO_LONG: then fewer reps.
	 */
	for (int tries = 0; tries < 4 && r.reps; tries++, r.reps /= 4) {
		run = run_start(&nl, &r);
		if (run > 0 && !first_sample(&nl, (uint32_t)run, &s) && s.state == CBENCH_RUN_RUNNING) {
			printf("holding run %d\n", run);
			fflush(stdout);
			for (;;)
				pause();
		}
		printf("hold: run of %llu reps: %d, ended %s\n", (unsigned long long)r.reps, run,
		       run > 0 ? state_name(s.state) : "unstarted");
		fflush(stdout);
		if (run > 0)
			simple(&nl, CBENCH_CMD_RUN_DEL, CBENCH_A_RUN_ID, (uint32_t)run);
	}
	return 1;
}

static void cancel(const struct cbench_kimage *image, const char *name)
{
	struct run_args r = { .samples = 1U << 20 };
	struct run_state s;
	struct dump d;
	struct nl nl;
	int id, run, ret;

	if (!prepare(&nl, image, name, &r, &id))
		return;
	/* Not a fixed count: a run that a fast host finishes before the cancel
	 * proves nothing.  This one lasts hours here and anywhere. */
	r.reps = quarter_budget_reps(&nl, &r);
	check(r.reps > 0, "reps sized from the probe: %" PRIu64 " for a quarter budget", r.reps);
	run = run_start(&nl, &r);
	check(run > 0, "long run started: %d %s", run, nl.ext);
	if (run <= 0)
		return;
	ret = run_start(&nl, &r);
	check(ret == -EBUSY && strstr(nl.ext, "another run is in progress on this CPU"),
	      "a second run on a busy CPU refused: %d %s", ret, nl.ext);
	/* Cancel once the run is measuring: no sleep that assumes a speed. */
	ret = first_sample(&nl, (uint32_t)run, &s);
	check(ret == 0 && s.state == CBENCH_RUN_RUNNING && s.done > 0,
	      "the run is measuring: %u samples (state %s)", s.done, state_name(s.state));
	ret = simple(&nl, CBENCH_CMD_RUN_CANCEL, CBENCH_A_RUN_ID, (uint32_t)run);
	check(ret == 0, "cancel: %d %s", ret, nl.ext);
	/* Cancelling does not wait for the thread: it ends before its next call. */
	for (int tries = 0; tries < 100; tries++) {
		ret = run_get(&nl, (uint32_t)run, &s);
		if (ret || s.state != CBENCH_RUN_RUNNING)
			break;
		usleep(20000);
	}
	check(ret == 0 && s.state == CBENCH_RUN_CANCELLED && s.done > 0 && s.done < r.samples,
	      "cancelled after %u samples (state %s)", s.done, state_name(s.state));
	ret = simple(&nl, CBENCH_CMD_RUN_CANCEL, CBENCH_A_RUN_ID, (uint32_t)run);
	check(ret == 0, "a second cancel is harmless");
	ret = samples(&nl, (uint32_t)run, &d);
	check(ret == 0 && !d.bad && d.next == s.done, "cancelled run's %u samples readable", d.next);
	check(simple(&nl, CBENCH_CMD_RUN_DEL, CBENCH_A_RUN_ID, (uint32_t)run) == 0, "run deleted");
	check(simple(&nl, CBENCH_CMD_RUN_GET, CBENCH_A_RUN_ID, (uint32_t)run) == -ENOENT,
	      "deleted run is gone");
	check(simple(&nl, CBENCH_CMD_IMAGE_DEL, CBENCH_A_IMAGE_ID, (uint32_t)id) == 0,
	      "image deleted");
	close(nl.fd);
}

/* Where a request's first attribute starts; a u32 attribute takes 8 bytes, a u64 one 12. */
#define FIRST_ATTR (NLMSG_HDRLEN + GENL_HDRLEN)

/*
 * Each command takes its own attributes: one it does not take is refused,
 * and the error points at it (NLMSGERR_ATTR_OFFS); a missing one is named
 * by type (NLMSGERR_ATTR_MISS_TYPE).
 */
static void policy(void)
{
	struct nl nl;
	struct msg m;
	int ret;

	nl_must(&nl);
	start(&nl, &m, CBENCH_CMD_INFO, 0);
	put_u64(&m, CBENCH_A_RUN_REPS, 1);
	refused_at(&nl, &m, -EINVAL, FIRST_ATTR, "INFO with CBENCH_A_RUN_REPS");
	start(&nl, &m, CBENCH_CMD_IMAGE_NEW, 0);
	put_u64(&m, CBENCH_A_IMAGE_BYTES, 4096);
	put_u64(&m, CBENCH_A_RUN_REPS, 1);
	refused_at(&nl, &m, -EINVAL, FIRST_ATTR + 12, "IMAGE_NEW with CBENCH_A_RUN_REPS");
	start(&nl, &m, CBENCH_CMD_RUN_GET, 0);
	put_u32(&m, CBENCH_A_RUN_ID, 1);
	put_u64(&m, CBENCH_A_IMAGE_BYTES, 4096);
	refused_at(&nl, &m, -EINVAL, FIRST_ATTR + 8, "RUN_GET with CBENCH_A_IMAGE_BYTES");
	start(&nl, &m, CBENCH_CMD_IMAGE_DEL, 0);
	put_u32(&m, CBENCH_A_RUN_ID, 1);
	refused_at(&nl, &m, -EINVAL, FIRST_ATTR, "IMAGE_DEL with a run id");
	start(&nl, &m, CBENCH_CMD_SAMPLES, NLM_F_DUMP);
	put_u32(&m, CBENCH_A_RUN_ID, 1);
	put_u64(&m, CBENCH_A_IMAGE_BYTES, 4096);
	refused_at(&nl, &m, -EINVAL, FIRST_ATTR + 8, "SAMPLES dump with CBENCH_A_IMAGE_BYTES");

	start(&nl, &m, CBENCH_CMD_IMAGE_NEW, 0);
	ret = talk(&nl, &m, NULL, NULL);
	check(ret == -EINVAL && nl.miss_type == CBENCH_A_IMAGE_BYTES,
	      "IMAGE_NEW without a size: %d, missing type %u (want %d, %d) \"%s\"", ret,
	      nl.miss_type, -EINVAL, CBENCH_A_IMAGE_BYTES, nl.ext);
	start(&nl, &m, CBENCH_CMD_RUN_GET, 0);
	ret = talk(&nl, &m, NULL, NULL);
	check(ret == -EINVAL && nl.miss_type == CBENCH_A_RUN_ID,
	      "RUN_GET without a run: %d, missing type %u (want %d, %d) \"%s\"", ret,
	      nl.miss_type, -EINVAL, CBENCH_A_RUN_ID, nl.ext);
	start(&nl, &m, CBENCH_CMD_RUN_START, 0);
	put_u32(&m, CBENCH_A_IMAGE_ID, 1);
	put_u64(&m, CBENCH_A_RUN_ENTRY, 0);
	put_u64(&m, CBENCH_A_RUN_REPS, 1);
	put_u32(&m, CBENCH_A_RUN_CPU, 0);
	ret = talk(&nl, &m, NULL, NULL);
	check(ret == -EINVAL && nl.miss_type == CBENCH_A_RUN_SAMPLES,
	      "RUN_START without samples: %d, missing type %u (want %d, %d) \"%s\"", ret,
	      nl.miss_type, -EINVAL, CBENCH_A_RUN_SAMPLES, nl.ext);
	/* A dump says what is missing in its NLMSG_DONE: the text on every kernel. */
	start(&nl, &m, CBENCH_CMD_SAMPLES, NLM_F_DUMP);
	ret = talk(&nl, &m, NULL, NULL);
	check(ret == -EINVAL && strstr(nl.ext, "missing"),
	      "SAMPLES dump without a run: %d \"%s\"", ret, nl.ext);
	close(nl.fd);
}

/*
 * A run deleted while its samples are being dumped: the dump must end with
 * an error, never as if it had sent every sample.  The request's socket
 * reads nothing until the deletion, so the dump has sent one message
 * (at most 32 KiB, some 800 samples) of the run's 4000 when it is deleted.
 */
static void dump_interrupted(const struct cbench_kimage *image, const char *name)
{
	struct run_args r = { .reps = 1, .samples = 4000 };
	struct run_state s;
	struct msg m, del;
	struct dump d;
	struct nl nl;
	int id, run, ret;

	if (!prepare(&nl, image, name, &r, &id))
		return;
	run = run_start(&nl, &r);
	check(run > 0, "run of %u samples started: %d %s", r.samples, run, nl.ext);
	if (run <= 0)
		return;
	ret = run_wait(&nl, (uint32_t)run, &s);
	check(ret == 0 && s.state == CBENCH_RUN_DONE && s.done == r.samples,
	      "run ended %s with %u samples", state_name(s.state), s.done);

	memset(&d, 0, sizeof(d));
	start(&nl, &m, CBENCH_CMD_SAMPLES, NLM_F_DUMP);
	put_u32(&m, CBENCH_A_RUN_ID, (uint32_t)run);
	check(send_msg(&nl, &m) == 0, "dump requested");
	/* No ack asked: one could not be queued behind the dump's first message. */
	start(&nl, &del, CBENCH_CMD_RUN_DEL, 0);
	del.nlh.nlmsg_flags &= (uint16_t)~NLM_F_ACK;
	put_u32(&del, CBENCH_A_RUN_ID, (uint32_t)run);
	check(send_msg(&nl, &del) == 0, "run deleted during the dump");
	ret = receive(&nl, m.nlh.nlmsg_seq, samples_reply, &d);
	check(ret < 0 && d.next < s.done && !d.bad,
	      "interrupted dump: %d after %u of %u samples (want an error) \"%s\"", ret, d.next,
	      s.done, nl.ext);
	ret = simple(&nl, CBENCH_CMD_RUN_GET, CBENCH_A_RUN_ID, (uint32_t)run);
	check(ret == -ENOENT, "the deleted run is gone: %d", ret);
	/* The dump held the run: the image is free once the dump has ended. */
	ret = simple(&nl, CBENCH_CMD_IMAGE_DEL, CBENCH_A_IMAGE_ID, (uint32_t)id);
	check(ret == 0, "image deleted: %d %s", ret, nl.ext);
	close(nl.fd);
}

static int image_new(struct nl *nl, uint64_t bytes)
{
	uint32_t out[2] = { CBENCH_A_IMAGE_ID, 0 };
	struct msg m;
	int ret;

	start(nl, &m, CBENCH_CMD_IMAGE_NEW, 0);
	put_u64(&m, CBENCH_A_IMAGE_BYTES, bytes);
	ret = talk(nl, &m, u32_reply, out);
	return ret ? ret : (int)out[1];
}

/*
 * Ids: images and runs are numbered apart, and an id freed is not handed
 * out again at once (a client holding a stale id must not reach a new
 * object).  Nothing else runs in the module meanwhile, so each sequence
 * goes up by one.
 */
static void ids(const struct cbench_kimage *image)
{
	struct run_args r = { .reps = 1, .samples = 4 };
	int image1, image2, image3, run1, run2, run3, prev;
	struct run_state s;
	struct nl nl;
	int distinct = 1;

	if (!prepare(&nl, image, "add_chain", &r, &image1))
		return;
	run1 = run_start(&nl, &r);
	check(run1 > 0 && run_wait(&nl, (uint32_t)run1, &s) == 0, "first run: %d", run1);
	image2 = image_new(&nl, 4096);
	check(image2 == image1 + 1, "image ids apart from run ids: image %d, run %d, image %d",
	      image1, run1, image2);
	run2 = run_start(&nl, &r);
	check(run2 == run1 + 1, "run ids apart from image ids: run %d, image %d, run %d",
	      run1, image2, run2);
	check(simple(&nl, CBENCH_CMD_IMAGE_DEL, CBENCH_A_IMAGE_ID, (uint32_t)image2) == 0,
	      "image %d deleted", image2);
	image3 = image_new(&nl, 4096);
	check(image3 > 0 && image3 != image2, "a freed image id is not reused at once: %d, then %d",
	      image2, image3);
	check(run_wait(&nl, (uint32_t)run2, &s) == 0 &&
	      simple(&nl, CBENCH_CMD_RUN_DEL, CBENCH_A_RUN_ID, (uint32_t)run2) == 0,
	      "run %d deleted", run2);
	run3 = run_start(&nl, &r);
	check(run3 > 0 && run3 != run2, "a freed run id is not reused at once: %d, then %d", run2,
	      run3);
	/* Many cycles: every id new, none taken by a live object. */
	prev = image3;
	for (int i = 0; i < 2000 && distinct; i++) {
		int id = image_new(&nl, 4096);

		distinct = id > 0 && id != prev && id != image1 && id != image3 &&
			   simple(&nl, CBENCH_CMD_IMAGE_DEL, CBENCH_A_IMAGE_ID, (uint32_t)id) == 0;
		prev = id;
	}
	check(distinct, "2000 images made and deleted, each with a new id (last %d)", prev);
	check(run_wait(&nl, (uint32_t)run3, &s) == 0, "third run ended");
	/* The socket's close frees the rest. */
	close(nl.fd);
}

/* A generic-netlink socket bound to port id portid, the family resolved; -errno. */
static int nl_open_port(struct nl *nl, uint32_t portid)
{
	struct sockaddr_nl addr = { .nl_family = AF_NETLINK, .nl_pid = portid };
	struct msg m;
	uint16_t id = 0;
	int one = 1, ret;

	memset(nl, 0, sizeof(*nl));
	nl->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (nl->fd < 0)
		return -errno;
	if (bind(nl->fd, (struct sockaddr *)&addr, sizeof(addr))) {
		ret = -errno;
		close(nl->fd);
		return ret;
	}
	setsockopt(nl->fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	nl->family = GENL_ID_CTRL;
	start(nl, &m, CTRL_CMD_GETFAMILY, 0);
	((struct genlmsghdr *)(m.bytes + NLMSG_HDRLEN))->version = 1;
	put(&m, CTRL_ATTR_FAMILY_NAME, CBENCH_GENL_NAME, sizeof(CBENCH_GENL_NAME));
	ret = talk(nl, &m, family_reply, &id);
	nl->family = id;
	if (!ret && !id)
		ret = -ENOENT;
	if (ret)
		close(nl->fd);
	return ret;
}

/*
 * Objects belong to the socket that made them, not to its port id: a new
 * socket given the port id of one just closed must neither reach the old
 * socket's objects nor lose its own when the old one's are freed.  To
 * catch the moment the port id comes free -- before the module has heard
 * of the close -- a second process on another CPU binds it in a loop
 * while the first closes its socket, and uses it at once.
 */
static void port_reuse(void)
{
	uint32_t portid = 0x40000000u | ((uint32_t)getpid() << 8);
	int reached = 0, lost = 0, rounds = 0;
	int to_child[2], to_parent[2];
	pid_t pid;

	if (pipe(to_child) || pipe(to_parent)) {
		check(0, "pipes");
		return;
	}
	pid = fork();
	if (pid == 0) {
		struct { int old; uint16_t family; } job;
		cpu_set_t cpus;

		/* Our copies would keep the pipes open: no end of input. */
		close(to_child[1]);
		close(to_parent[0]);
		CPU_ZERO(&cpus);
		CPU_SET(1, &cpus);
		sched_setaffinity(0, sizeof(cpus), &cpus);
		for (uint32_t i = 0; read(to_child[0], &job, sizeof(job)) == sizeof(job); i++) {
			struct sockaddr_nl addr = { .nl_family = AF_NETLINK, .nl_pid = portid + i };
			struct nl b = { .family = job.family };
			int result[2] = { 0, 0 }, one = 1, mine;

			b.fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
			setsockopt(b.fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
			if (write(to_parent[1], "r", 1) != 1)
				_exit(1);
			while (bind(b.fd, (struct sockaddr *)&addr, sizeof(addr)))
				if (errno != EADDRINUSE)
					_exit(1);
			/* The old socket's image, by id, as soon as its port id is ours. */
			result[0] = simple(&b, CBENCH_CMD_IMAGE_DEL, CBENCH_A_IMAGE_ID,
					   (uint32_t)job.old) != -ENOENT;
			mine = image_new(&b, 4096);
			/* Long enough for the old socket's release to have run. */
			usleep(5000);
			result[1] = mine <= 0 || simple(&b, CBENCH_CMD_IMAGE_DEL, CBENCH_A_IMAGE_ID,
							(uint32_t)mine) != 0;
			close(b.fd);
			if (write(to_parent[1], result, sizeof(result)) != sizeof(result))
				_exit(1);
		}
		_exit(0);
	}
	close(to_child[0]);
	close(to_parent[1]);
	{
		cpu_set_t cpus;

		CPU_ZERO(&cpus);
		CPU_SET(0, &cpus);
		sched_setaffinity(0, sizeof(cpus), &cpus);
	}
	for (int i = 0; i < 100; i++) {
		struct { int old; uint16_t family; } job;
		int result[2];
		struct nl a;
		char ready;

		if (nl_open_port(&a, portid + (uint32_t)i))
			break;
		job.old = image_new(&a, 4096);
		job.family = a.family;
		if (job.old <= 0 || write(to_child[1], &job, sizeof(job)) != sizeof(job) ||
		    read(to_parent[0], &ready, 1) != 1)
			break;
		close(a.fd);
		if (read(to_parent[0], result, sizeof(result)) != sizeof(result))
			break;
		rounds++;
		reached += result[0];
		lost += result[1];
	}
	close(to_child[1]);
	waitpid(pid, NULL, 0);
	close(to_parent[0]);
	check(rounds == 100, "%d of 100 rounds", rounds);
	check(reached == 0, "a new socket on a closed socket's port id reached its objects %d "
	      "times in %d", reached, rounds);
	check(lost == 0, "a new socket on a closed socket's port id lost its own objects %d "
	      "times in %d", lost, rounds);
}

/* ---- audit runs (CBENCH_CMD_AUDIT_START) --------------------------------- */

/* One side of an audit request; hostile fields make it wrong on purpose. */
struct side_args {
	uint32_t image;
	uint64_t entry;
	int has_setup;
	uint64_t setup;
	uint64_t reps;
	uint64_t arena_bytes;	/* 0: not sent */
	int64_t param;
	int no_reps;		/* leave CBENCH_A_SIDE_REPS out */
	int stray;		/* add a top-level attribute inside the nest */
};

struct audit_args {
	uint32_t cpu;
	uint64_t seed;
	uint32_t per_side, rounds;
	int nsides;		/* nests sent: 2 is right */
	int no_sides;		/* leave CBENCH_A_AUDIT_SIDES out */
	int flat_sides;		/* CBENCH_A_AUDIT_SIDES without NLA_F_NESTED */
	struct side_args side[3];
};

static size_t nest_begin(struct msg *m, uint16_t type)
{
	size_t off = m->len;
	struct nlattr *a = (struct nlattr *)(m->bytes + off);

	a->nla_type = type;
	m->len += NLA_HDRLEN;
	return off;
}

static void nest_end(struct msg *m, size_t off)
{
	((struct nlattr *)(m->bytes + off))->nla_len = (uint16_t)(m->len - off);
}

static void put_side(struct msg *m, int i, const struct side_args *s)
{
	size_t off = nest_begin(m, (uint16_t)((i + 1) | NLA_F_NESTED));

	put_u32(m, CBENCH_A_SIDE_IMAGE_ID, s->image);
	put_u64(m, CBENCH_A_SIDE_ENTRY, s->entry);
	if (s->has_setup)
		put_u64(m, CBENCH_A_SIDE_SETUP, s->setup);
	if (!s->no_reps)
		put_u64(m, CBENCH_A_SIDE_REPS, s->reps);
	if (s->arena_bytes)
		put_u64(m, CBENCH_A_SIDE_ARENA_BYTES, s->arena_bytes);
	put_u64(m, CBENCH_A_SIDE_PARAM, (uint64_t)s->param);
	if (s->stray)
		put_u32(m, CBENCH_A_SIDE_MAX + 1, 1);
	nest_end(m, off);
}

static void audit_msg(struct nl *nl, struct msg *m, const struct audit_args *a)
{
	start(nl, m, CBENCH_CMD_AUDIT_START, 0);
	put_u32(m, CBENCH_A_RUN_CPU, a->cpu);
	put_u64(m, CBENCH_A_AUDIT_SEED, a->seed);
	put_u32(m, CBENCH_A_AUDIT_PER_SIDE, a->per_side);
	put_u32(m, CBENCH_A_AUDIT_ROUNDS, a->rounds);
	if (!a->no_sides) {
		size_t off = nest_begin(m, a->flat_sides ? CBENCH_A_AUDIT_SIDES :
					   CBENCH_A_AUDIT_SIDES | NLA_F_NESTED);

		for (int i = 0; i < a->nsides; i++)
			put_side(m, i, &a->side[i]);
		nest_end(m, off);
	}
}

/* Starts an audit run; its id or -errno. */
static int audit_start(struct nl *nl, const struct audit_args *a)
{
	uint32_t out[2] = { CBENCH_A_RUN_ID, 0 };
	struct msg m;
	int ret;

	audit_msg(nl, &m, a);
	ret = talk(nl, &m, u32_reply, out);
	return ret ? ret : (int)out[1];
}

/* What an audit run's dump says: each sample's side, and how many of each. */
struct audit_dump {
	uint8_t *sides;
	uint32_t max, next, count[2], clean[2];
	uint64_t least[2];
	int bad, no_sides;
};

static void audit_samples_reply(const struct nlmsghdr *h, void *arg)
{
	struct audit_dump *d = arg;
	const struct nlattr *a = attr(h, CBENCH_A_SAMPLES), *sd = attr(h, CBENCH_A_SAMPLES_SIDES);
	uint32_t first = (uint32_t)get_num(attr(h, CBENCH_A_SAMPLES_FIRST));
	size_t n;

	if (!sd)
		d->no_sides = 1;
	if (!a || !sd || first != d->next || (a->nla_len - NLA_HDRLEN) % sizeof(struct cbench_ksample)) {
		d->bad = 1;
		return;
	}
	n = (a->nla_len - NLA_HDRLEN) / sizeof(struct cbench_ksample);
	if ((size_t)(sd->nla_len - NLA_HDRLEN) != n || d->next + n > d->max) {
		d->bad = 1;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		uint8_t side = ((const uint8_t *)sd + NLA_HDRLEN)[i];
		struct cbench_ksample s;

		memcpy(&s, (const char *)a + NLA_HDRLEN + i * sizeof(s), sizeof(s));
		d->sides[d->next + i] = side;
		if (side > 1) {
			d->bad = 1;
			continue;
		}
		d->count[side]++;
		if (s.flags)
			continue;
		d->clean[side]++;
		if (!d->least[side] || s.tsc < d->least[side])
			d->least[side] = s.tsc;
	}
	d->next += (uint32_t)n;
}

/* The run's sides are the seeded order, round after round (order.h). */
static int order_matches(const uint8_t *sides, uint32_t n, uint32_t per_side, uint64_t seed)
{
	uint64_t state = cbench_order_seed(seed);
	uint8_t *order = malloc(2 * per_side);
	int ok = order != NULL;

	for (uint32_t i = 0; ok && i < n; i++) {
		if (i % (2 * per_side) == 0)
			cbench_order_round(order, per_side, &state);
		ok = sides[i] == order[i % (2 * per_side)];
	}
	free(order);
	return ok;
}

/*
 * An audit run of a: every sample taken, each marked with its side, the
 * sides in the seeded order.  busy_image: an image only side B holds,
 * which must not be deletable while the run exists.  Returns the least
 * clean sample of each side, in TSC ticks, in least.
 */
static void audit_measure(struct nl *nl, const struct audit_args *a, const char *what,
			  uint32_t busy_image, uint64_t least[2])
{
	uint32_t n = a->rounds * 2 * a->per_side;
	struct audit_dump d = { .max = n };
	struct run_state s;
	struct msg m;
	int run, ret;

	least[0] = least[1] = 0;
	d.sides = calloc(n, 1);
	run = audit_start(nl, a);
	check(run > 0, "%s: audit run started: %d \"%s\"", what, run, nl->ext);
	if (run <= 0 || !d.sides) {
		free(d.sides);
		return;
	}
	ret = run_wait(nl, (uint32_t)run, &s);
	check(ret == 0 && s.state == CBENCH_RUN_DONE && s.done == n && s.have_overhead,
	      "%s: ended %s with %u of %u samples, %u disturbed, probe %llu tsc", what,
	      state_name(s.state), s.done, n, s.disturbed, (unsigned long long)s.probe_tsc);
	start(nl, &m, CBENCH_CMD_SAMPLES, NLM_F_DUMP);
	put_u32(&m, CBENCH_A_RUN_ID, (uint32_t)run);
	ret = talk(nl, &m, audit_samples_reply, &d);
	check(ret == 0 && !d.bad && d.next == n && d.count[0] == n / 2 && d.count[1] == n / 2,
	      "%s: dump %d, %u samples, %u of A and %u of B, each marked with its side%s", what,
	      ret, d.next, d.count[0], d.count[1], d.no_sides ? " (sides missing)" : "");
	/* Seeds 0 and 1 are one state (order.h): the other seed is 2 away. */
	check(order_matches(d.sides, d.next, a->per_side, a->seed) &&
	      !order_matches(d.sides, d.next, a->per_side, a->seed + 2),
	      "%s: the sides follow seed %llu's order, not seed %llu's", what,
	      (unsigned long long)a->seed, (unsigned long long)a->seed + 2);
	if (busy_image) {
		ret = simple(nl, CBENCH_CMD_IMAGE_DEL, CBENCH_A_IMAGE_ID, busy_image);
		check(ret == -EBUSY, "%s: side B's image is busy while the run exists: %d \"%s\"",
		      what, ret, nl->ext);
	}
	check(simple(nl, CBENCH_CMD_RUN_DEL, CBENCH_A_RUN_ID, (uint32_t)run) == 0,
	      "%s: run deleted", what);
	least[0] = d.least[0];
	least[1] = d.least[1];
	free(d.sides);
}

static struct side_args side_of(uint32_t image, const struct cbench_kimage_entry *e, uint64_t reps)
{
	return (struct side_args){
		.image = image, .entry = e->run, .has_setup = e->has_setup, .setup = e->setup,
		.reps = reps, .arena_bytes = e->arena_bytes,
		.param = e->nparams ? e->params[0] : 0,
	};
}

/* Uploads and maps image; its id, or 0 after a failed check. */
static uint32_t upload_mapped(struct nl *nl, const struct cbench_kimage *image)
{
	int id = upload(nl, image);

	check(id > 0 && map(nl, (uint32_t)id, image) == 0, "upload and map: %d \"%s\"", id, nl->ext);
	return id > 0 ? (uint32_t)id : 0;
}

/*
 * Audit runs of examples/audit.c's chains, in one image and in two, and of
 * good.so's benchmarks with and without setup() and arena; a side too long
 * for the budget ends the run before any sample.
 */
static void audits(const struct cbench_kimage *image, const struct cbench_kimage *good)
{
	const struct cbench_kimage_entry *c1000 = cbench_kimage_find(image, "chain_1000");
	const struct cbench_kimage_entry *c1010 = cbench_kimage_find(image, "chain_1010");
	const struct cbench_kimage_entry *add = cbench_kimage_find(good, "add_chain");
	const struct cbench_kimage_entry *global = cbench_kimage_find(good, "call_global");
	struct audit_args a = { .seed = 42, .per_side = 10, .rounds = 3, .nsides = 2 };
	uint64_t least[2];
	struct run_state s;
	uint32_t id1, id2, idg;
	struct nl nl;
	int run;

	if (!c1000 || !c1010 || !add || !global) {
		check(0, "chain_1000, chain_1010, add_chain and call_global exist");
		return;
	}
	nl_must(&nl);
	id1 = upload_mapped(&nl, image);
	id2 = upload_mapped(&nl, image);
	idg = upload_mapped(&nl, good);

	a.side[0] = side_of(id1, c1000, 1);
	a.side[1] = side_of(id1, c1010, 1);
	audit_measure(&nl, &a, "one image", 0, least);

	/* B does 100 times A's work: its least sample must show it, on any host. */
	a.seed = 0;
	a.per_side = 7;
	a.rounds = 2;
	a.side[1] = side_of(id2, c1000, 100);
	audit_measure(&nl, &a, "two images", id2, least);
	check(least[1] > 10 * least[0], "B's 100 reps take over 10 times A's 1: %llu vs %llu tsc",
	      (unsigned long long)least[1], (unsigned long long)least[0]);

	a.seed = 7;
	a.side[0] = side_of(idg, add, 10);
	a.side[1] = side_of(idg, global, 10);
	audit_measure(&nl, &a, "setup() and arena on side B", 0, least);
	a.side[0] = side_of(idg, global, 10);
	a.side[1] = side_of(id1, c1000, 1);
	audit_measure(&nl, &a, "setup() and arena on side A", 0, least);

	/* Side B alone is far over the budget: the probe of B must stop it. */
	a.side[0] = side_of(id1, c1000, 1);
	a.side[1] = side_of(id1, c1000, 1000000000);
	run = audit_start(&nl, &a);
	check(run > 0, "audit with a too-long side B started: %d \"%s\"", run, nl.ext);
	if (run > 0) {
		int ret = run_wait(&nl, (uint32_t)run, &s);

		check(ret == 0 && s.state == CBENCH_RUN_TOO_LONG && s.done == 0,
		      "too-long side B: ended %s after %u samples (want too-long, 0)",
		      state_name(s.state), s.done);
	}
	/* The socket's close frees the images and the last run. */
	close(nl.fd);
}

/* An audit request a is refused with want, and the text names the fault. */
static void audit_refused(struct nl *nl, const struct audit_args *a, int want, const char *text,
			  const char *what)
{
	int ret = audit_start(nl, a);

	check(ret == want && (!text || strstr(nl->ext, text)),
	      "%s: %d (want %d) \"%s\"", what, ret, want, nl->ext);
	if (ret > 0)
		simple(nl, CBENCH_CMD_RUN_DEL, CBENCH_A_RUN_ID, (uint32_t)ret);
}

/* Bad schedules and sides, each refused with a reason; nothing is left behind. */
static void audit_hostile(const struct cbench_kimage *image)
{
	const struct cbench_kimage_entry *e = cbench_kimage_find(image, "chain_1000");
	struct audit_args base = { .seed = 1, .per_side = 4, .rounds = 2, .nsides = 2 }, a;
	struct nl nl, other;
	uint32_t id, unmapped, theirs;
	struct msg m;
	int ret;

	if (!e) {
		check(0, "benchmark chain_1000 exists");
		return;
	}
	nl_must(&nl);
	nl_must(&other);
	id = upload_mapped(&nl, image);
	theirs = upload_mapped(&other, image);
	ret = upload(&nl, image);
	unmapped = ret > 0 ? (uint32_t)ret : 0;
	base.side[0] = side_of(id, e, 1);
	base.side[1] = side_of(id, e, 1);
	base.side[2] = side_of(id, e, 1);

	a = base, a.no_sides = 1;
	ret = audit_start(&nl, &a);
	check(ret == -EINVAL && nl.miss_type == CBENCH_A_AUDIT_SIDES,
	      "no sides: %d, missing type %u \"%s\"", ret, nl.miss_type, nl.ext);
	a = base, a.nsides = 0;
	audit_refused(&nl, &a, -EINVAL, "two sides", "zero sides");
	a = base, a.nsides = 1;
	audit_refused(&nl, &a, -EINVAL, "two sides", "one side");
	a = base, a.nsides = 3;
	audit_refused(&nl, &a, -EINVAL, "too many sides", "three sides");
	a = base, a.flat_sides = 1;
	audit_refused(&nl, &a, -EINVAL, NULL, "sides without NLA_F_NESTED");
	a = base, a.side[1].image = 999999;
	audit_refused(&nl, &a, -ENOENT, "no such image", "side B on an unknown image");
	a = base, a.side[1].image = theirs;
	audit_refused(&nl, &a, -ENOENT, "no such image", "side B on another socket's image");
	a = base, a.side[0].image = unmapped;
	audit_refused(&nl, &a, -EINVAL, "not mapped", "side A on an unmapped image");
	a = base, a.side[1].entry = image->image_bytes - 4;
	audit_refused(&nl, &a, -EINVAL, "endbr64 inside text", "side B's entry outside text");
	a = base, a.side[1].entry = e->run + 1;
	audit_refused(&nl, &a, -EINVAL, "endbr64", "side B's entry not at endbr64");
	a = base, a.side[1].has_setup = 1, a.side[1].setup = 1ULL << 62;
	audit_refused(&nl, &a, -EINVAL, "endbr64", "side B's setup far outside the image");
	a = base, a.side[0].no_reps = 1;
	ret = audit_start(&nl, &a);
	check(ret == -EINVAL && nl.miss_type == CBENCH_A_SIDE_REPS && nl.miss_nest,
	      "side A without reps: %d, missing type %u in the nest at %u \"%s\"", ret,
	      nl.miss_type, nl.miss_nest, nl.ext);
	a = base, a.side[1].reps = 0;
	audit_refused(&nl, &a, -ERANGE, NULL, "side B of zero reps");
	a = base, a.side[1].reps = CBENCH_REPS_MAX + 1;
	audit_refused(&nl, &a, -ERANGE, NULL, "side B over 2^48 reps");
	a = base, a.side[1].stray = 1;
	audit_refused(&nl, &a, -EINVAL, NULL, "an unknown attribute in side B");
	a = base, a.side[1].arena_bytes = 1ULL << 40;
	audit_refused(&nl, &a, -E2BIG, "arena", "side B's arena over arena_max_bytes, A's small");
	a = base, a.per_side = 0;
	audit_refused(&nl, &a, -ERANGE, NULL, "zero samples per side");
	a = base, a.per_side = CBENCH_AUDIT_PER_SIDE_MAX + 1;
	audit_refused(&nl, &a, -ERANGE, NULL, "per side over CBENCH_AUDIT_PER_SIDE_MAX");
	a = base, a.rounds = 0;
	audit_refused(&nl, &a, -ERANGE, NULL, "zero rounds");
	/* 2^32 - 1 rounds of 2 * 4096: past 2^32 samples, which a u32 product would wrap. */
	a = base, a.rounds = UINT32_MAX, a.per_side = CBENCH_AUDIT_PER_SIDE_MAX;
	audit_refused(&nl, &a, -E2BIG, "samples_max", "counts whose product overflows 32 bits");
	a = base, a.rounds = 1U << 19, a.per_side = 2;
	audit_refused(&nl, &a, -E2BIG, "samples_max", "more samples than samples_max");
	a = base, a.cpu = 4096;
	audit_refused(&nl, &a, -EINVAL, "CPU", "an offline CPU");
	audit_msg(&nl, &m, &base);
	put_u64(&m, CBENCH_A_RUN_REPS, 1);
	ret = talk(&nl, &m, NULL, NULL);
	check(ret == -EINVAL && nl.bad_offset, "RUN_START's reps in an audit: %d at %u \"%s\"", ret,
	      nl.bad_offset, nl.ext);
	/* A side's nest shorter than an attribute header. */
	start(&nl, &m, CBENCH_CMD_AUDIT_START, 0);
	put_u32(&m, CBENCH_A_RUN_CPU, 0);
	put_u32(&m, CBENCH_A_AUDIT_PER_SIDE, 1);
	put_u32(&m, CBENCH_A_AUDIT_ROUNDS, 1);
	{
		size_t off = nest_begin(&m, CBENCH_A_AUDIT_SIDES | NLA_F_NESTED);
		uint16_t junk = 7;

		put(&m, 1 | NLA_F_NESTED, &junk, sizeof(junk));
		nest_end(&m, off);
	}
	ret = talk(&nl, &m, NULL, NULL);
	check(ret == -ERANGE || ret == -EINVAL, "a side of two bytes: %d \"%s\"", ret, nl.ext);
	/* Unprivileged: refused before anything is looked at. */
	if (fork() == 0) {
		struct nl u;

		if (setgid(65534) || setuid(65534))
			_exit(3);
		nl_must(&u);
		_exit(audit_start(&u, &base) == -EPERM ? 0 : 1);
	} else {
		int status;

		wait(&status);
		check(WIFEXITED(status) && WEXITSTATUS(status) == 0, "unprivileged audit refused");
	}
	close(nl.fd);
	close(other.fd);
}

/*
 * An audit run of two images that lasts hours on any host (each sample a
 * quarter of the budget): prints "holding run N" once it measures, then
 * sleeps until killed.
 */
static int audit_hold(const struct cbench_kimage *image)
{
	const struct cbench_kimage_entry *e = cbench_kimage_find(image, "chain_1000");
	struct audit_args a = { .per_side = CBENCH_AUDIT_PER_SIDE_MAX, .nsides = 2,
				.rounds = (1U << 20) / (2 * CBENCH_AUDIT_PER_SIDE_MAX) };
	struct run_args r = { .entry = e };
	struct run_state s = { 0 };
	uint32_t id1, id2;
	struct nl nl;
	int run;

	if (!e)
		return 1;
	nl_must(&nl);
	id1 = upload_mapped(&nl, image);
	id2 = upload_mapped(&nl, image);
	r.image = id1;
	r.reps = quarter_budget_reps(&nl, &r);
	if (!id1 || !id2 || !r.reps) {
		printf("no images (%u %u) or no reps for a quarter budget (%" PRIu64 ")\n", id1, id2, r.reps);
		return 1;
	}
	a.side[0] = side_of(id1, e, r.reps);
	a.side[1] = side_of(id2, e, r.reps);
	run = audit_start(&nl, &a);
	if (run <= 0 || first_sample(&nl, (uint32_t)run, &s) || s.state != CBENCH_RUN_RUNNING) {
		printf("audit run %d at %" PRIu64 " reps: not measuring (state %s, %u samples) '%s'\n", run,
		       r.reps, state_name(s.state), s.done, nl.ext);
		return 1;
	}
	printf("holding run %d\n", run);
	fflush(stdout);
	for (;;)
		pause();
}

/* ---- loop timing points ---------------------------------------------- */

/* What a TPOINTS dump brought, checked message by message as it came. */
struct tp_dump {
	uint32_t records;		/* the run's TP_RECORDS */
	uint32_t samples;		/* samples seen */
	uint32_t next;			/* next record of the last sample */
	uint64_t taken[64];		/* TP_TAKEN of the first 64 samples */
	struct cbench_tp_krecord rec[64][64];	/* their first 64 records */
	uint32_t kept[64];
	uint64_t total;			/* records over all samples */
	int bad;
};

static void tp_reply(const struct nlmsghdr *h, void *arg)
{
	struct tp_dump *d = arg;
	const struct nlattr *a = attr(h, CBENCH_A_TP_RECORDS);
	uint32_t sample = (uint32_t)get_num(attr(h, CBENCH_A_TP_SAMPLE));
	uint32_t first = (uint32_t)get_num(attr(h, CBENCH_A_TP_FIRST));
	uint64_t taken = get_num(attr(h, CBENCH_A_TP_TAKEN));
	size_t n = a ? (a->nla_len - NLA_HDRLEN) / sizeof(struct cbench_tp_krecord) : 0;

	if (!attr(h, CBENCH_A_TP_SAMPLE) || !attr(h, CBENCH_A_TP_TAKEN) ||
	    (a && (a->nla_len - NLA_HDRLEN) % sizeof(struct cbench_tp_krecord))) {
		d->bad = 1;
		return;
	}
	if (first == 0 && sample == d->samples) {
		d->samples++;
		d->next = 0;
	} else if (sample + 1 != d->samples || first != d->next) {
		d->bad = 1;
		return;
	}
	if (first + n > d->records || first + n > taken)
		d->bad = 1;
	for (size_t i = 0; i < n && sample < 64; i++) {
		if (first + i < 64)
			memcpy(&d->rec[sample][first + i],
			       (const char *)a + NLA_HDRLEN + i * sizeof(struct cbench_tp_krecord),
			       sizeof(struct cbench_tp_krecord));
	}
	if (sample < 64) {
		d->taken[sample] = taken;
		d->kept[sample] = first + (uint32_t)n;
	}
	d->next = first + (uint32_t)n;
	d->total += n;
}

static int tp_dump(struct nl *nl, uint32_t run, uint32_t records, struct tp_dump *d)
{
	struct msg m;

	memset(d, 0, sizeof(*d));
	d->records = records;
	start(nl, &m, CBENCH_CMD_TPOINTS, NLM_F_DUMP);
	put_u32(&m, CBENCH_A_RUN_ID, run);
	return talk(nl, &m, tp_reply, d);
}

/* Runs r to its end and dumps its timing points into d; the run id, or 0. */
static int tp_run(struct nl *nl, const struct run_args *r, struct tp_dump *d)
{
	struct run_state s;
	int run, ret;

	run = run_start(nl, r);
	check(run > 0, "run with TP_RECORDS %u, TP_EVERY %llu started: %d %s", r->tp_records,
	      (unsigned long long)r->tp_every, run, nl->ext);
	if (run <= 0)
		return 0;
	ret = run_wait(nl, (uint32_t)run, &s);
	check(ret == 0 && s.state == CBENCH_RUN_DONE && s.done == r->samples,
	      "run ended %s with %u samples", state_name(s.state), s.done);
	ret = tp_dump(nl, (uint32_t)run, r->tp_records, d);
	check(ret == 0 && !d->bad && d->samples == r->samples,
	      "TPOINTS dump: %d, %u samples (want %u), %s \"%s\"", ret, d->samples, r->samples,
	      d->bad ? "malformed" : "well-formed", nl->ext);
	return run;
}

/*
 * looped (tpoints.c) marks 16 iterations per timing point, one point per
 * rep: a call of reps reps at stride every takes reps / every points, the
 * j-th (from 0) at count 16 * every * (j + 1), in increasing TSC order.
 */
static void tp_exact(struct nl *nl, uint32_t image, const struct cbench_kimage_entry *e,
		     uint64_t reps, uint32_t records, uint64_t every)
{
	struct run_args r = { .image = image, .entry = e, .reps = reps, .samples = 4,
			      .tp_records = records, .tp_every = every };
	static struct tp_dump d;
	uint64_t want = reps / every, keep = want < records ? want : records;
	int run, good = 1;

	run = tp_run(nl, &r, &d);
	if (!run)
		return;
	for (uint32_t i = 0; i < d.samples && i < 64; i++) {
		if (d.taken[i] != want || d.kept[i] != keep)
			good = 0;
		for (uint32_t j = 0; j < d.kept[i] && j < 64; j++) {
			if (d.rec[i][j].count != 16 * every * (j + 1) ||
			    (j && d.rec[i][j].tsc <= d.rec[i][j - 1].tsc))
				good = 0;
		}
	}
	check(good, "%llu reps, stride %llu, %u records: every sample took %llu points, kept %llu, "
	      "counts 16 * %llu apart (first sample: took %llu, kept %u)", (unsigned long long)reps,
	      (unsigned long long)every, records, (unsigned long long)want,
	      (unsigned long long)keep, (unsigned long long)every,
	      (unsigned long long)d.taken[0], d.kept[0]);
	check(simple(nl, CBENCH_CMD_RUN_DEL, CBENCH_A_RUN_ID, (uint32_t)run) == 0, "run deleted");
}

/* The module's tpoints_max_records, from INFO; 0 if it did not say. */
static void tp_limit_reply(const struct nlmsghdr *h, void *arg)
{
	const struct nlattr *a = nested(h, CBENCH_A_INFO_LIMITS, CBENCH_A_LIMIT_TP_RECORDS);

	if (a)
		*(uint64_t *)arg = get_num(a);
}

/* RUN_START with timing-point attributes a module must refuse. */
static void tp_refusals(struct nl *nl, uint32_t image, const struct cbench_kimage_entry *e)
{
	struct run_args r = { .image = image, .entry = e, .reps = 1, .samples = 4 };
	uint64_t limit = 0;
	struct msg m;
	int ret;

	start(nl, &m, CBENCH_CMD_INFO, 0);
	ret = talk(nl, &m, tp_limit_reply, &limit);
	check(ret == 0 && limit > 0, "INFO reports tpoints_max_records: %llu",
	      (unsigned long long)limit);
	r.tp_records = 0;
	r.tp_every = 2;
	ret = run_start(nl, &r);
	check(ret == -EINVAL && strstr(nl->ext, "TP_EVERY without TP_RECORDS"),
	      "TP_EVERY without TP_RECORDS: %d \"%s\"", ret, nl->ext);
	r.tp_every = 0;
	start(nl, &m, CBENCH_CMD_RUN_START, 0);
	put_u32(&m, CBENCH_A_IMAGE_ID, image);
	put_u64(&m, CBENCH_A_RUN_ENTRY, e->run);
	put_u64(&m, CBENCH_A_RUN_REPS, 1);
	put_u32(&m, CBENCH_A_RUN_SAMPLES, 4);
	put_u32(&m, CBENCH_A_RUN_CPU, 0);
	put_u32(&m, CBENCH_A_RUN_TP_RECORDS, 0);
	refused(nl, &m, -ERANGE, "TP_RECORDS 0");
	start(nl, &m, CBENCH_CMD_RUN_START, 0);
	put_u32(&m, CBENCH_A_IMAGE_ID, image);
	put_u64(&m, CBENCH_A_RUN_ENTRY, e->run);
	put_u64(&m, CBENCH_A_RUN_REPS, 1);
	put_u32(&m, CBENCH_A_RUN_SAMPLES, 4);
	put_u32(&m, CBENCH_A_RUN_CPU, 0);
	put_u64(&m, CBENCH_A_RUN_TP_RECORDS, 16);
	refused(nl, &m, -EINVAL, "TP_RECORDS as a u64");
	r.tp_records = 16;
	r.tp_every = CBENCH_TP_EVERY_MAX + 1;
	ret = run_start(nl, &r);
	check(ret == -ERANGE, "TP_EVERY 2^32 + 1: %d \"%s\"", ret, nl->ext);
	r.tp_every = 0;
	r.tp_records = 16;
	start(nl, &m, CBENCH_CMD_RUN_START, 0);
	put_u32(&m, CBENCH_A_IMAGE_ID, image);
	put_u64(&m, CBENCH_A_RUN_ENTRY, e->run);
	put_u64(&m, CBENCH_A_RUN_REPS, 1);
	put_u32(&m, CBENCH_A_RUN_SAMPLES, 4);
	put_u32(&m, CBENCH_A_RUN_CPU, 0);
	put_u32(&m, CBENCH_A_RUN_TP_RECORDS, 16);
	put_u64(&m, CBENCH_A_RUN_TP_EVERY, 0);
	refused(nl, &m, -ERANGE, "TP_EVERY 0");
	if (!limit)
		return;
	/* One over the limit, as samples times records, and far over it (a
	 * product that wraps 32 bits). */
	r.samples = 2;
	r.tp_records = (uint32_t)(limit / 2 + 1);
	ret = run_start(nl, &r);
	check(ret == -E2BIG && strstr(nl->ext, "tpoints_max_records"),
	      "2 samples of %u records: %d (want %d) \"%s\"", r.tp_records, ret, -E2BIG, nl->ext);
	r.samples = 1U << 16;
	r.tp_records = 1U << 16;
	ret = run_start(nl, &r);
	check(ret == -E2BIG, "2^16 samples of 2^16 records: %d (want %d) \"%s\"", ret, -E2BIG,
	      nl->ext);
}

/*
 * A run deleted while its timing points are being dumped: as for samples,
 * the dump must end with an error, never as if complete.  64 samples of
 * 4096 records are 4 MiB; one message of the dump holds some 2000.
 */
static void tp_dump_interrupted(struct nl *nl, uint32_t image, const struct cbench_kimage_entry *e)
{
	struct run_args r = { .image = image, .entry = e, .reps = 4096, .samples = 64,
			      .tp_records = 4096, .tp_every = 1 };
	static struct tp_dump d;
	struct run_state s;
	struct msg m, del;
	int run, ret;

	run = run_start(nl, &r);
	check(run > 0, "run of 64 samples of 4096 timing points started: %d %s", run, nl->ext);
	if (run <= 0)
		return;
	ret = run_wait(nl, (uint32_t)run, &s);
	check(ret == 0 && s.state == CBENCH_RUN_DONE, "run ended %s", state_name(s.state));
	memset(&d, 0, sizeof(d));
	d.records = r.tp_records;
	start(nl, &m, CBENCH_CMD_TPOINTS, NLM_F_DUMP);
	put_u32(&m, CBENCH_A_RUN_ID, (uint32_t)run);
	check(send_msg(nl, &m) == 0, "TPOINTS dump requested");
	start(nl, &del, CBENCH_CMD_RUN_DEL, 0);
	del.nlh.nlmsg_flags &= (uint16_t)~NLM_F_ACK;
	put_u32(&del, CBENCH_A_RUN_ID, (uint32_t)run);
	check(send_msg(nl, &del) == 0, "run deleted during the dump");
	ret = receive(nl, m.nlh.nlmsg_seq, tp_reply, &d);
	check(ret == -ENOENT && d.total < (uint64_t)r.samples * r.tp_records && !d.bad,
	      "interrupted TPOINTS dump: %d after %llu of %u records (want %d) \"%s\"", ret,
	      (unsigned long long)d.total, r.samples * r.tp_records, -ENOENT, nl->ext);
	ret = simple(nl, CBENCH_CMD_RUN_GET, CBENCH_A_RUN_ID, (uint32_t)run);
	check(ret == -ENOENT, "the deleted run is gone: %d", ret);
}

static void tpoints(const struct cbench_kimage *image)
{
	const struct cbench_kimage_entry *e = cbench_kimage_find(image, "looped");
	struct run_args r = { .entry = e, .reps = 10, .samples = 4 };
	static struct tp_dump d;
	struct nl nl;
	int id, run, ret;

	if (!prepare(&nl, image, "looped", &r, &id))
		return;
	tp_exact(&nl, (uint32_t)id, e, 100, 64, 1);
	tp_exact(&nl, (uint32_t)id, e, 100, 64, 3);
	tp_exact(&nl, (uint32_t)id, e, 40, 64, 1);
	tp_exact(&nl, (uint32_t)id, e, 40, 64, 41);
	/* A run without timing points has none to dump. */
	run = run_start(&nl, &r);
	check(run > 0, "run without timing points started: %d", run);
	if (run > 0) {
		struct run_state s;

		run_wait(&nl, (uint32_t)run, &s);
		ret = tp_dump(&nl, (uint32_t)run, 0, &d);
		check(ret == -EINVAL && strstr(nl.ext, "no timing points") && d.samples == 0,
		      "TPOINTS dump of a run without them: %d \"%s\"", ret, nl.ext);
		simple(&nl, CBENCH_CMD_RUN_DEL, CBENCH_A_RUN_ID, (uint32_t)run);
	}
	ret = tp_dump(&nl, 0x7fffffff, 0, &d);
	check(ret == -ENOENT, "TPOINTS dump of no such run: %d \"%s\"", ret, nl.ext);
	tp_refusals(&nl, (uint32_t)id, e);
	tp_dump_interrupted(&nl, (uint32_t)id, e);
	check(simple(&nl, CBENCH_CMD_IMAGE_DEL, CBENCH_A_IMAGE_ID, (uint32_t)id) == 0,
	      "image deleted");
	close(nl.fd);
}

/*
 * tp_scribble (tp_hostile.c) takes one timing point, then writes garbage
 * into every field of ctx->tp: next grows by TP_SCRIBBLE_NEXT, capacity
 * becomes 2^64 - 1 and buf a non-canonical address.  The module must set
 * ctx->tp again before each call (so every sample took exactly 1 +
 * TP_SCRIBBLE_NEXT), clamp what it read back to its own records, and read
 * them from its own buffer (zeroed: the one real record, then zeros).
 */
#define TP_SCRIBBLE_NEXT 1000000007ULL

static void tp_hostile(const struct cbench_kimage *image)
{
	const struct cbench_kimage_entry *e = cbench_kimage_find(image, "tp_scribble");
	struct run_args r = { .entry = e, .reps = 3, .samples = 8, .tp_records = 16, .tp_every = 1 };
	static struct tp_dump d;
	struct nl nl;
	int id, run, good = 1;

	if (!prepare(&nl, image, "tp_scribble", &r, &id))
		return;
	run = tp_run(&nl, &r, &d);
	for (uint32_t i = 0; run && i < d.samples; i++) {
		if (d.taken[i] != 1 + TP_SCRIBBLE_NEXT || d.kept[i] != r.tp_records ||
		    d.rec[i][0].count != 1)
			good = 0;
		for (uint32_t j = 1; j < d.kept[i]; j++) {
			if (d.rec[i][j].count || d.rec[i][j].tsc)
				good = 0;
		}
	}
	check(run && good, "ctx->tp scribbled on: every sample took %llu, kept %u, one record then "
	      "zeros (first sample: took %llu, kept %u)", 1 + TP_SCRIBBLE_NEXT, r.tp_records,
	      (unsigned long long)d.taken[0], d.kept[0]);
	if (run)
		check(simple(&nl, CBENCH_CMD_RUN_DEL, CBENCH_A_RUN_ID, (uint32_t)run) == 0,
		      "run deleted");
	check(simple(&nl, CBENCH_CMD_IMAGE_DEL, CBENCH_A_IMAGE_ID, (uint32_t)id) == 0,
	      "image deleted");
	close(nl.fd);
}

/* Drops cap from this process's effective set; 0 or -errno. */
static int drop_cap(int cap)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d))
		return -errno;
	d[cap / 32].effective &= ~(1u << (cap % 32));
	return syscall(SYS_capset, &h, d) ? -errno : 0;
}

/*
 * Who may put code in ring 0: "nomodule", this client without
 * CAP_SYS_MODULE (CAP_SYS_ADMIN kept) is refused the upload, naming the
 * capability; "lockdown", on a kernel locked down, the upload is refused
 * naming lockdown; "allowed", the upload is taken (and deleted).
 */
static void privilege(const struct cbench_kimage *image, const char *mode)
{
	const char *want = !strcmp(mode, "nomodule") ? "needs CAP_SYS_MODULE" :
			   !strcmp(mode, "lockdown") ? "the kernel is locked down" : NULL;
	struct nl nl;
	int id;

	if (!strcmp(mode, "nomodule"))
		check(drop_cap(CAP_SYS_MODULE) == 0, "CAP_SYS_MODULE dropped");
	nl_must(&nl);
	id = upload(&nl, image);
	if (want)
		check(id == -EPERM && strstr(nl.ext, want), "%s: the upload is refused with EPERM "
		      "naming it (got %d: '%s')", mode, id, nl.ext);
	else
		check(id > 0, "the upload is taken (got %d: '%s')", id, nl.ext);
	if (id > 0)
		simple(&nl, CBENCH_CMD_IMAGE_DEL, CBENCH_A_IMAGE_ID, (uint32_t)id);
	close(nl.fd);
}

/* The quiet mode ended_run() asks for, as run_args.quiet (0: not sent). */
static int stuck_quiet;

/*
 * What ended_run() expects of a call the module ends: the watchdog's, or an
 * exception's, whose vector the run reports with the offset of the
 * faulting instruction, which must start with the bytes op (op_len long);
 * or a call that returned with RFLAGS bits changed (flags), which fails
 * the run with -EPERM and leaves the image usable.
 */
struct ending {
	int32_t trap;			/* x86 vector; -1: the call never returns */
	const char *op;
	size_t op_len;
	/* The CPU may run the instruction without raising it: QEMU's TCG
	 * raises no #XM, 6.1 resumes cd 03 at its second byte and ignores
	 * int1.  A run that then ends DONE is a skip. */
	bool optional;
	/* A fetch outside the image: the offset is the return address's, and
	 * op ends just before it. */
	bool from_caller;
	uint32_t fault_error;		/* #PF error-code bits that must be set */
	uint64_t fault_addr;		/* #PF: the address, unless 0 */
	bool oopsed;			/* the kernel printed an oops first */
	uint32_t flags;			/* RFLAGS bits left changed: -EPERM */
	int32_t trap_alt;		/* another vector the CPU may raise; 0: none */
};

static const struct ending never_returns = { .trap = -1 };

/* Whether s is the end how expects of a run in stage; says what it got if not. */
static void check_ending(const char *name, int audit, uint32_t stage, const struct ending *how,
			 int ret, const struct run_state *s)
{
	int32_t error = how->flags ? -EPERM : how->trap < 0 ? -ETIMEDOUT : -EFAULT;

	if (how->flags) {
		check(ret == 0 && s->state == CBENCH_RUN_FAILED && !s->recovered &&
		      s->error == error && s->failed_in == stage && s->flags_changed == how->flags,
		      "%s: the run failed with -EPERM, RFLAGS 0x%x left changed (got %d: %s, "
		      "recovered %d, error %d, stage %u, flags 0x%x)", name, how->flags, ret,
		      state_name(s->state), s->recovered, s->error, s->failed_in, s->flags_changed);
		return;
	}
	check(ret == 0 && s->state == CBENCH_RUN_FAILED && s->recovered &&
	      s->error == error && s->failed_in == stage &&
	      (s->trap == how->trap || (how->trap_alt && s->trap == how->trap_alt)) &&
	      s->oopsed == how->oopsed && s->from_caller == how->from_caller,
	      "%s%s: the call was ended and the run failed, recovered, error %d in "
	      "stage %u, exception %d%s%s (got %d: %s, recovered %d, error %d, stage %u, "
	      "exception %d, oops %d, from its caller %d, %u samples)", name,
	      audit ? " (audit side B)" : "", error, stage, how->trap,
	      how->oopsed ? ", after an oops" : "", how->from_caller ? ", from its caller" : "",
	      ret, state_name(s->state), s->recovered, s->error, s->failed_in, s->trap,
	      s->oopsed, s->from_caller, s->done);
	if (how->trap == 14)
		check((s->fault_error & how->fault_error) == how->fault_error &&
		      (!how->fault_addr || s->fault_addr == how->fault_addr),
		      "%s: the page fault's address 0x%" PRIx64 " and error code 0x%x (want "
		      "0x%" PRIx64 ", bits 0x%x)", name, s->fault_addr, s->fault_error,
		      how->fault_addr, how->fault_error);
}

/* Whether the run's reported offset is where how says its instruction is. */
static void check_offset(const struct cbench_kimage *image, const char *name,
			 const struct ending *how, const struct run_state *s)
{
	uint64_t at = how->from_caller ? s->trap_offset - how->op_len : s->trap_offset;

	check(s->trap_offset >= how->op_len && at < image->image_bytes - how->op_len &&
	      !memcmp(image->bytes + at, how->op, how->op_len),
	      "%s: the reported offset 0x%" PRIx64 " is the faulting instruction's%s", name,
	      s->trap_offset, how->from_caller ? " return address" : "");
}

/*
 * One call that never returns, faults or leaves flags changed, sent as a
 * raw client would (no rehearsal): the module ends it, the run fails in
 * stage with RUN_RECOVERED and -ETIMEDOUT, or -EFAULT and the exception, and
 * the image takes no further run; or, for flags, the run fails with -EPERM
 * and the image takes runs.  With audit, the benchmark is side B and
 * "quick" side A.  Returns the samples the run had taken.
 */
static uint32_t ended_run(const struct cbench_kimage *image, const char *name, uint32_t stage,
			  int audit, const struct ending *how)
{
	const struct cbench_kimage_entry *e = cbench_kimage_find(image, name);
	const struct cbench_kimage_entry *q = cbench_kimage_find(image, "quick");
	struct run_args r = { .entry = e, .reps = 1, .samples = 50, .hooks = 1, .quiet = stuck_quiet };
	struct run_state s = { 0 };
	const char *refusal = how->trap < 0 ? "did not return" : "raised an exception";
	bool skipped = false;
	struct nl nl;
	int id, run;

	if (!e || !q) {
		check(0, "%s and quick exist", name);
		return 0;
	}
	nl_must(&nl);
	id = (int)upload_mapped(&nl, image);
	r.image = (uint32_t)id;
	if (audit) {
		struct audit_args a = { .seed = 7, .per_side = 2, .rounds = 20, .nsides = 2 };

		a.side[0] = side_of(r.image, q, 1);
		a.side[1] = side_of(r.image, e, 1);
		run = audit_start(&nl, &a);
	} else {
		run = run_start(&nl, &r);
	}
	check(run > 0, "%s: started (%d '%s')", name, run, nl.ext);
	if (run > 0) {
		int ret = run_wait(&nl, (uint32_t)run, &s);

		skipped = how->optional && ret == 0 && s.state == CBENCH_RUN_DONE && !s.recovered;
		if (skipped)
			printf("skip: %s: this kernel or CPU ran it without raising exception %d\n",
			       name, how->trap);
		else
			check_ending(name, audit, stage, how, ret, &s);
		if (how->trap >= 0 && !how->flags && !skipped)
			check_offset(image, name, how, &s);
		check(simple(&nl, CBENCH_CMD_RUN_DEL, CBENCH_A_RUN_ID, (uint32_t)run) == 0,
		      "run deleted");
	}
	if (!skipped && !how->flags) {
		run = run_start(&nl, &r);
		check(run == -EINVAL && strstr(nl.ext, refusal),
		      "%s: the image takes no further run (got %d: '%s')", name, run, nl.ext);
	}
	if (id > 0)
		check(simple(&nl, CBENCH_CMD_IMAGE_DEL, CBENCH_A_IMAGE_ID, (uint32_t)id) == 0,
		      "image deleted");
	close(nl.fd);
	return s.done;
}

static uint32_t stuck_run(const struct cbench_kimage *image, const char *name, uint32_t stage,
			  int audit)
{
	return ended_run(image, name, stage, audit, &never_returns);
}

/*
 * The watchdog (kmod/guard.c) over every kind of call: run() looping with
 * interrupts on, with interrupts turned off by the code itself, in a
 * sample (interrupts off) after returning for a while, setup(), a per-rep
 * hook, and one side of an audit; then the CPU measures as before.
 */
static void stuck(const struct cbench_kimage *image)
{
	check(stuck_run(image, "forever", CBENCH_STAGE_RUN, 0) == 0, "forever: no sample taken");
	stuck_run(image, "forever_cli", CBENCH_STAGE_RUN, 0);
	check(stuck_run(image, "forever_later", CBENCH_STAGE_RUN, 0) > 0,
	      "forever_later: stuck in a sample, interrupts off (samples taken before it)");
	stuck_run(image, "setup_forever", CBENCH_STAGE_SETUP, 0);
	stuck_run(image, "before_forever", CBENCH_STAGE_BEFORE_REP, 0);
	stuck_run(image, "forever_later", CBENCH_STAGE_RUN, 1);
	/* What wedged a 6.1 guest under a fuzzer (stuck.c): a corrupted
	 * upload of a counting loop, called at reps 1 in the budget probe. */
	check(stuck_run(image, "fuzzed_loop", CBENCH_STAGE_RUN, 0) == 0,
	      "fuzzed_loop: ended in the budget probe");
	/* In LVT mode: stuck in a sample with interrupts on and the LVT
	 * entries masked; recovered, the entries are put back as after any
	 * sample (the module checks each), and the CPU's timer ticks on (or
	 * nothing after this would run: it is the CPU this client sleeps on). */
	stuck_quiet = 1 + CBENCH_QUIET_LVT;
	check(stuck_run(image, "forever_later", CBENCH_STAGE_RUN, 0) > 0,
	      "forever_later in LVT mode: stuck in a sample with the LVT entries masked");
	stuck_quiet = 0;
	check(measure(image, "quick", 200, 10, 0, CBENCH_RUN_DONE) == 0,
	      "the CPU takes runs afterwards");
}

/*
 * The die notifier (kmod/guard.c) over every kind of call: exceptions in
 * run() with interrupts on (the budget probe), with interrupts turned off
 * by the code, in a sample (interrupts off), in one with interrupts turned
 * on by the code before a #GP (whose handler then runs with them on), in
 * setup(), in each per-rep hook, on one side of an audit; then the CPU
 * measures as before.  Each run must report the faulting instruction.
 */
static void faulting(const struct cbench_kimage *image)
{
	static const struct ending int3 = { .trap = 3, .op = "\xcc", .op_len = 1,
						.optional = false };
	static const struct ending ud2 = { .trap = 6, .op = "\x0f\x0b", .op_len = 2,
						.optional = false };
	static const struct ending divide = { .trap = 0, .op = "\xf7\xf1", .op_len = 2,
						.optional = false };
	static const struct ending gp = { .trap = 13, .op = "\x48\x8b\x00", .op_len = 3,
						.optional = false };
	static const struct ending simd = { .trap = 19, .op = "\xf3\x0f\x5e\xc1", .op_len = 4,
						.optional = true };

	check(ended_run(image, "int3", CBENCH_STAGE_RUN, 0, &int3) == 0, "int3: no sample taken");
	ended_run(image, "ud2", CBENCH_STAGE_RUN, 0, &ud2);
	ended_run(image, "divide", CBENCH_STAGE_RUN, 0, &divide);
	ended_run(image, "gp", CBENCH_STAGE_RUN, 0, &gp);
	ended_run(image, "simd", CBENCH_STAGE_RUN, 0, &simd);
	ended_run(image, "cli_int3", CBENCH_STAGE_RUN, 0, &int3);
	check(ended_run(image, "later_ud2", CBENCH_STAGE_RUN, 0, &ud2) > 0,
	      "later_ud2: in a sample, interrupts off (samples taken before it)");
	check(ended_run(image, "later_sti_gp", CBENCH_STAGE_RUN, 0, &gp) > 0,
	      "later_sti_gp: in a sample, interrupts turned on by the code");
	ended_run(image, "setup_ud2", CBENCH_STAGE_SETUP, 0, &ud2);
	ended_run(image, "before_int3", CBENCH_STAGE_BEFORE_REP, 0, &int3);
	ended_run(image, "after_divide", CBENCH_STAGE_AFTER_REP, 0, &divide);
	ended_run(image, "later_ud2", CBENCH_STAGE_RUN, 1, &ud2);
	/* In LVT mode, with the LVT entries masked: put back as after any sample. */
	stuck_quiet = 1 + CBENCH_QUIET_LVT;
	check(ended_run(image, "later_ud2", CBENCH_STAGE_RUN, 0, &ud2) > 0,
	      "later_ud2 in LVT mode: in a sample with the LVT entries masked");
	stuck_quiet = 0;
	check(measure(image, "quick", 200, 10, 0, CBENCH_RUN_DONE) == 0,
	      "the CPU takes runs afterwards");
}

/*
 * What else a benchmark can do in ring 0 that the kernel would die of, or
 * that would corrupt what is measured (kfixtures/hazards.c): page faults at
 * user and kernel addresses, reading and writing and fetching; int3's
 * two-byte encoding, int1, into; the trap flag, inside the call and as it
 * returns; flags left changed.  Each is ended or refused, says what and
 * where, and the CPU measures as before.
 */
static void hazards(const struct cbench_kimage *image)
{
	static const struct ending pf_user = { .trap = 14,
					       .op = "\x48\x8b\x04\x25\x00\x10\x00\x00", .op_len = 8,
					       .fault_addr = 0x1000 };
	static const struct ending pf_fs = { .trap = 14,
					     .op = "\x64\x48\x8b\x04\x25\x28\x00\x00\x00", .op_len = 9 };
	static const struct ending pf_kernel = { .trap = 14, .op = "\x48\x8b\x80\x00\x10\x00\x00",
						 .op_len = 7 };
	static const struct ending pf_text = { .trap = 14, .op = "\xc6\x00\x00", .op_len = 3,
						.fault_error = 0x3 };
	static const struct ending pf_arena = { .trap = 14, .op = "\xff\xd0", .op_len = 2,
						.from_caller = true,
						.fault_error = 0x11 };
	static const struct ending int3_long = { .trap = 3, .op = "\xcd\x03", .op_len = 2,
						.optional = true };
	/* int1 is a #DB the kernel ignores in ring 0 on hardware; QEMU's TCG raises #UD. */
	static const struct ending int1 = { .trap = 1, .op = "\xf1", .op_len = 1,
					    .optional = true, .trap_alt = 6 };
	static const struct ending into = { .trap = 6, .op = "\xce", .op_len = 1 };
	static const struct ending tf_step = { .trap = 1, .op = "\x90", .op_len = 1 };
	static const struct ending tf_flag = { .trap = 1, .flags = 0x100 };
	static const struct ending sti = { .trap = 0, .flags = 0x200 };
	static const struct ending std = { .trap = 0, .flags = 0x400 };

	ended_run(image, "pf_user_read", CBENCH_STAGE_RUN, 0, &pf_user);
	ended_run(image, "pf_fs_canary", CBENCH_STAGE_RUN, 0, &pf_fs);
	ended_run(image, "pf_kernel_read", CBENCH_STAGE_RUN, 0, &pf_kernel);
	ended_run(image, "pf_text_write", CBENCH_STAGE_RUN, 0, &pf_text);
	ended_run(image, "pf_arena_call", CBENCH_STAGE_RUN, 0, &pf_arena);
	ended_run(image, "pf_user_read", CBENCH_STAGE_RUN, 1, &pf_user);
	ended_run(image, "int3_long", CBENCH_STAGE_RUN, 0, &int3_long);
	ended_run(image, "int1", CBENCH_STAGE_RUN, 0, &int1);
	ended_run(image, "into", CBENCH_STAGE_RUN, 0, &into);
	ended_run(image, "tf_step", CBENCH_STAGE_RUN, 0, &tf_step);
	ended_run(image, "tf_return", CBENCH_STAGE_RUN, 0, &tf_flag);
	ended_run(image, "sti_left", CBENCH_STAGE_RUN, 0, &sti);
	ended_run(image, "std_left", CBENCH_STAGE_RUN, 0, &std);
	/* In LVT mode, interrupts are on: a page fault there, and cli. */
	stuck_quiet = 1 + CBENCH_QUIET_LVT;
	ended_run(image, "pf_kernel_read", CBENCH_STAGE_RUN, 0, &pf_kernel);
	ended_run(image, "cli_left", CBENCH_STAGE_RUN, 0, &sti);
	stuck_quiet = 0;
	check(measure(image, "quick", 200, 10, 0, CBENCH_RUN_DONE) == 0,
	      "the CPU takes runs afterwards");
}

/*
 * The oops net.  A call through a null pointer: an instruction fetch at a
 * user address, which the kernel oopses on before anything else can act;
 * the die notifier (DIE_OOPS) ends the call then: the run fails saying an
 * oops was printed, the kernel carries on (tainted), and the CPU measures.
 * With all (a module loaded with fault_net=0), page faults at data
 * addresses go the same way.
 */
static void oops_net(const struct cbench_kimage *image, bool all)
{
	static const struct ending null_call = { .trap = 14, .op = "\xff\xd0", .op_len = 2,
						 .from_caller = true, .fault_error = 0x10,
						 .oopsed = true };
	static const struct ending user_read = { .trap = 14,
						 .op = "\x48\x8b\x04\x25\x00\x10\x00\x00",
						 .op_len = 8, .fault_addr = 0x1000, .oopsed = true };
	static const struct ending kernel_read = { .trap = 14,
						   .op = "\x48\x8b\x80\x00\x10\x00\x00",
						   .op_len = 7, .oopsed = true };

	ended_run(image, "pf_null_call", CBENCH_STAGE_RUN, 0, &null_call);
	if (all) {
		ended_run(image, "pf_user_read", CBENCH_STAGE_RUN, 0, &user_read);
		ended_run(image, "pf_kernel_read", CBENCH_STAGE_RUN, 0, &kernel_read);
	}
	check(measure(image, "quick", 200, 10, 0, CBENCH_RUN_DONE) == 0,
	      "the CPU takes runs afterwards");
}

/*
 * Benchmark code runs on a stack of its own (kmod/stack.c): a 64 KiB frame,
 * which overflowed a kernel thread's 16 KiB stack, runs to the end, and the
 * run says how deep its calls went.
 */
static void stack(const struct cbench_kimage *image)
{
	struct run_args r = { .reps = 1, .samples = 20, .cpu = measure_cpu };
	struct run_state s = { 0 };
	struct nl nl;
	int id, run, ret;

	if (!prepare(&nl, image, "frame_64k", &r, &id))
		return;
	run = run_start(&nl, &r);
	ret = run > 0 ? run_wait(&nl, (uint32_t)run, &s) : run;
	check(ret == 0 && s.state == CBENCH_RUN_DONE && s.done == r.samples,
	      "frame_64k ran in ring 0 (got %d: %s, %u samples, error %d)", ret,
	      state_name(s.state), s.done, s.error);
	check(s.stack_used >= (64 << 10) && s.stack_used <= (256 << 10),
	      "its calls used %" PRIu64 " bytes of their stack: over 64 KiB, within 256 KiB",
	      s.stack_used);
	if (run > 0)
		simple(&nl, CBENCH_CMD_RUN_DEL, CBENCH_A_RUN_ID, (uint32_t)run);
	if (id > 0)
		simple(&nl, CBENCH_CMD_IMAGE_DEL, CBENCH_A_IMAGE_ID, (uint32_t)id);
	close(nl.fd);
}

/*
 * The test build with no fault net (CBENCH_PLANT_BUG=nonet): a page fault
 * in run() kills the measuring thread with its run's watchdog armed.  The
 * run never ends; we delete it, and its release must wait for the
 * watchdog's timer and the NMI handler (kmod/guard.c): we then leave the
 * timer three seconds, twelve of its periods, to touch the freed run, and
 * the host's scan of the debug kernel's log must find no KASAN report.
 */
static void killed(const struct cbench_kimage *image)
{
	struct run_args r = { .reps = 1, .samples = 50, .cpu = measure_cpu };
	struct run_state s = { 0 };
	struct nl nl;
	int id, run;

	if (!prepare(&nl, image, "pf_kernel_read", &r, &id))
		return;
	run = run_start(&nl, &r);
	check(run > 0, "pf_kernel_read: started (%d '%s')", run, nl.ext);
	if (run <= 0)
		return;
	/* Its thread is dead: the run stays RUNNING, with nothing measured. */
	for (int i = 0; i < 20; i++) {
		check(run_get(&nl, (uint32_t)run, &s) == 0, "RUN_GET of the dead thread's run");
		usleep(100000);
	}
	check(s.state == CBENCH_RUN_RUNNING && s.done == 0,
	      "the run never ends: its thread died in the oops (got %s, %u samples)",
	      state_name(s.state), s.done);
	check(simple(&nl, CBENCH_CMD_RUN_DEL, CBENCH_A_RUN_ID, (uint32_t)run) == 0,
	      "the dead thread's run is deleted");
	sleep(3);
	check(simple(&nl, CBENCH_CMD_IMAGE_DEL, CBENCH_A_IMAGE_ID, (uint32_t)id) == 0,
	      "image deleted");
	close(nl.fd);
}

/*
 * LVT mode (kmod/quiet.c): runs runs of name in it back to back, then one
 * cancelled while measuring; each says it measured in LVT mode, and a bad
 * mode is refused.  The module checks every entry it restores (a mismatch
 * warns in the kernel log, which kmod.sh's last step reads), and kmod.sh
 * checks afterwards that the CPU's timer still ticks.
 */
static void lvt_mode(const struct cbench_kimage *image, const char *name, uint32_t runs)
{
	struct run_args r = { .reps = 10, .samples = 100, .cpu = measure_cpu };
	uint32_t done = 0, lvt = 0, disturbed = 0, samples = 0;
	struct run_state s;
	struct nl nl;
	int id, run, ret;

	if (!prepare(&nl, image, name, &r, &id))
		return;
	r.quiet = 1 + CBENCH_QUIET_MAX + 1;
	run = run_start(&nl, &r);
	check(run < 0, "a quiet mode past CBENCH_QUIET_MAX is refused (got %d: '%s')", run, nl.ext);
	r.quiet = 0;
	run = run_start(&nl, &r);
	ret = run > 0 ? run_wait(&nl, (uint32_t)run, &s) : run;
	check(ret == 0 && s.state == CBENCH_RUN_DONE && s.quiet == CBENCH_QUIET_CLI,
	      "a run that does not say measures in the module's default, cli (got %u)", s.quiet);
	if (run > 0)
		simple(&nl, CBENCH_CMD_RUN_DEL, CBENCH_A_RUN_ID, (uint32_t)run);
	r.quiet = 1 + CBENCH_QUIET_LVT;
	for (uint32_t i = 0; i < runs; i++) {
		run = run_start(&nl, &r);
		ret = run > 0 ? run_wait(&nl, (uint32_t)run, &s) : run;
		done += ret == 0 && s.state == CBENCH_RUN_DONE && s.done == r.samples;
		lvt += ret == 0 && s.quiet == CBENCH_QUIET_LVT;
		disturbed += s.disturbed;
		samples += s.done;
		if (run > 0)
			simple(&nl, CBENCH_CMD_RUN_DEL, CBENCH_A_RUN_ID, (uint32_t)run);
	}
	check(done == runs && lvt == runs, "%u runs in LVT mode: %u done with every sample, %u said lvt; "
	      "%u of %u samples disturbed (an interrupt or NMI reached them)", runs, done, lvt, disturbed,
	      samples);
	/* Cancelled while measuring: the entries are restored after every
	 * sample, so after the last one too. */
	r.samples = 1U << 20;
	run = run_start(&nl, &r);
	ret = run > 0 ? first_sample(&nl, (uint32_t)run, &s) : run;
	check(ret == 0 && s.state == CBENCH_RUN_RUNNING, "a long LVT-mode run is measuring");
	if (run > 0) {
		simple(&nl, CBENCH_CMD_RUN_CANCEL, CBENCH_A_RUN_ID, (uint32_t)run);
		ret = run_wait(&nl, (uint32_t)run, &s);
		check(ret == 0 && s.state == CBENCH_RUN_CANCELLED && s.quiet == CBENCH_QUIET_LVT,
		      "the LVT-mode run cancelled after %u samples (state %s)", s.done, state_name(s.state));
		simple(&nl, CBENCH_CMD_RUN_DEL, CBENCH_A_RUN_ID, (uint32_t)run);
	}
	check(simple(&nl, CBENCH_CMD_IMAGE_DEL, CBENCH_A_IMAGE_ID, (uint32_t)id) == 0, "image deleted");
	close(nl.fd);
}

/* With one CPU online no other can watch: runs are refused, naming the parameter. */
static void unwatched(const struct cbench_kimage *image)
{
	struct run_args r = { .reps = 1, .samples = 10 };
	struct nl nl;
	int id, run;

	if (!prepare(&nl, image, "quick", &r, &id))
		return;
	run = run_start(&nl, &r);
	check(run == -EOPNOTSUPP && strstr(nl.ext, "unwatched_runs"),
	      "one CPU online: the run is refused naming unwatched_runs (got %d: '%s')", run, nl.ext);
	if (run > 0)
		simple(&nl, CBENCH_CMD_RUN_DEL, CBENCH_A_RUN_ID, (uint32_t)run);
	check(simple(&nl, CBENCH_CMD_IMAGE_DEL, CBENCH_A_IMAGE_ID, (uint32_t)id) == 0,
	      "image deleted");
	close(nl.fd);
}

/*
 * The subcommands, by name: each takes the loaded image (NULL for those
 * that load none) and the arguments after the object.  Returns -1 to say
 * the test ran (PASSED or FAILED follows), or the process's exit status.
 */
struct subcommand {
	const char *name;
	int image;			/* 1: argv[2] is an object to load */
	int args;			/* arguments it needs after the object */
	int (*fn)(const struct cbench_kimage *image, char **arg);
};

static int do_live(const struct cbench_kimage *image, char **arg)
{
	return live();
}

static int do_policy(const struct cbench_kimage *image, char **arg)
{
	policy();
	return -1;
}

static int do_port_reuse(const struct cbench_kimage *image, char **arg)
{
	port_reuse();
	return -1;
}

/* run NAME [SAMPLES [REPS [BUDGET_NS [STATE]]]] */
static int do_run(const struct cbench_kimage *image, char **arg)
{
	uint64_t v[4] = { 100, 100, 0, CBENCH_RUN_DONE };

	for (int i = 0; i < 4 && arg[i + 1]; i++)
		v[i] = strtoull(arg[i + 1], NULL, 0);
	measure(image, arg[0], (uint32_t)v[0], v[1], v[2], (uint32_t)v[3]);
	return -1;
}

static int do_suite(const struct cbench_kimage *image, char **arg)
{
	for (uint32_t i = 0; i < image->nentries; i++)
		measure(image, image->entries[i].name, 50, 1, 0, WANT_DONE_OR_TOO_LONG);
	return -1;
}

static int do_audit(const struct cbench_kimage *image, char **arg)
{
	struct cbench_kimage good;

	if (load(arg[0], &good))
		return 2;
	audits(image, &good);
	cbench_kimage_free(&good);
	return -1;
}

/* lvt NAME CPU [RUNS] */
static int do_lvt(const struct cbench_kimage *image, char **arg)
{
	measure_cpu = (uint32_t)strtoul(arg[1], NULL, 0);
	lvt_mode(image, arg[0], arg[2] ? (uint32_t)strtoul(arg[2], NULL, 0) : 1000);
	return -1;
}

static int do_concurrent(const struct cbench_kimage *image, char **arg)
{
	pid_t a = fork();
	int status;

	if (a == 0) {
		/* One run per CPU: the other client measures next door. */
		measure_cpu = 1;
		measure(image, arg[0], 2000, 100, 0, CBENCH_RUN_DONE);
		_exit(failures != 0);
	}
	measure(image, arg[0], 2000, 100, 0, CBENCH_RUN_DONE);
	waitpid(a, &status, 0);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the other client passed");
	return -1;
}

/* Subcommands that are one call of a test with the image, or with a name too. */
#define IMAGE_TEST(sub, call)							\
	static int do_##sub(const struct cbench_kimage *image, char **arg)	\
	{									\
		call;								\
		return -1;							\
	}
IMAGE_TEST(cheap, cheap_reps(image, arg[0]))
IMAGE_TEST(cancel, cancel(image, arg[0]))
IMAGE_TEST(dump_interrupted, dump_interrupted(image, arg[0]))
IMAGE_TEST(audit_hostile, audit_hostile(image))
IMAGE_TEST(ids, ids(image))
IMAGE_TEST(hostile, hostile(image))
IMAGE_TEST(hooks, hooks(image))
IMAGE_TEST(args, args_test(image))
IMAGE_TEST(tpoints, tpoints(image))
IMAGE_TEST(tp_hostile, tp_hostile(image))
IMAGE_TEST(stuck, stuck(image))
IMAGE_TEST(faulting, faulting(image))
IMAGE_TEST(hazards, hazards(image))
IMAGE_TEST(oops_net, oops_net(image, !strcmp(arg[0], "oops")))
IMAGE_TEST(stack, stack(image))
IMAGE_TEST(killed, killed(image))
IMAGE_TEST(stuck_one, stuck_run(image, arg[0], CBENCH_STAGE_RUN, 0))
IMAGE_TEST(unwatched, unwatched(image))
IMAGE_TEST(privilege, privilege(image, arg[0]))
#undef IMAGE_TEST

static int do_audit_hold(const struct cbench_kimage *image, char **arg)
{
	return audit_hold(image);
}

static int do_hold(const struct cbench_kimage *image, char **arg)
{
	return hold(image, arg[0]);
}

static const struct subcommand subcommands[] = {
	{ "live", 0, 0, do_live },
	{ "policy", 0, 0, do_policy },
	{ "port-reuse", 0, 0, do_port_reuse },
	{ "run", 1, 1, do_run },
	{ "suite", 1, 0, do_suite },
	{ "cheap", 1, 1, do_cheap },
	{ "cancel", 1, 1, do_cancel },
	{ "dump-interrupted", 1, 1, do_dump_interrupted },
	{ "audit", 1, 1, do_audit },
	{ "audit-hold", 1, 0, do_audit_hold },
	{ "audit-hostile", 1, 0, do_audit_hostile },
	{ "ids", 1, 0, do_ids },
	{ "hostile", 1, 0, do_hostile },
	{ "hooks", 1, 0, do_hooks },
	{ "args", 1, 0, do_args },
	{ "tpoints", 1, 0, do_tpoints },
	{ "tp-hostile", 1, 0, do_tp_hostile },
	{ "stuck", 1, 0, do_stuck },
	{ "faulting", 1, 0, do_faulting },
	{ "hazards", 1, 0, do_hazards },
	{ "oops-net", 1, 1, do_oops_net },
	{ "stack", 1, 0, do_stack },
	{ "killed", 1, 0, do_killed },
	{ "stuck-one", 1, 1, do_stuck_one },
	{ "unwatched", 1, 0, do_unwatched },
	{ "lvt", 1, 2, do_lvt },
	{ "privilege", 1, 1, do_privilege },
	{ "hold", 1, 1, do_hold },
	{ "concurrent", 1, 1, do_concurrent },
};

int main(int argc, char *argv[])
{
	struct cbench_kimage image;
	const struct subcommand *sub = NULL;
	int ret;

	for (size_t i = 0; argc >= 2 && i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		if (!strcmp(argv[1], subcommands[i].name))
			sub = &subcommands[i];
	if (!sub || argc < 2 + sub->image + sub->args) {
		fprintf(stderr, "kmod_test: bad arguments\n");
		return 2;
	}
	if (sub->image && load(argv[2], &image))
		return 2;
	/* argv ends with NULL: a subcommand reads its optional arguments until then. */
	ret = sub->fn(sub->image ? &image : NULL, argv + 2 + sub->image);
	if (sub->image)
		cbench_kimage_free(&image);
	if (ret >= 0)
		return ret;
	printf("%s\n", failures ? "FAILED" : "PASSED");
	return failures ? 1 : 0;
}
