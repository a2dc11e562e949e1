// SPDX-License-Identifier: GPL-2.0
/*
 * kmod_test's raw generic-netlink client of cbench.ko: requests built
 * attribute by attribute, replies and extended acks read, images uploaded
 * and mapped, runs started, waited for and read back; and check(), which
 * counts failures.
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
#include "kmod_test.h"

int failures;

void check(int ok, const char *fmt, ...)
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

void put(struct msg *m, uint16_t type, const void *data, size_t bytes)
{
	struct nlattr *a = (struct nlattr *)(m->bytes + m->len);

	a->nla_type = type;
	a->nla_len = (uint16_t)(NLA_HDRLEN + bytes);
	memcpy((char *)a + NLA_HDRLEN, data, bytes);
	m->len += NLA_ALIGN(NLA_HDRLEN + bytes);
}

void put_u32(struct msg *m, uint16_t type, uint32_t v)
{
	put(m, type, &v, sizeof(v));
}

void put_u64(struct msg *m, uint16_t type, uint64_t v)
{
	put(m, type, &v, sizeof(v));
}

void start(struct nl *nl, struct msg *m, uint8_t cmd, uint16_t flags)
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
int receive(struct nl *nl, uint32_t seq,
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
int send_msg(struct nl *nl, struct msg *m)
{
	m->nlh.nlmsg_len = (uint32_t)m->len;
	return send(nl->fd, m->bytes, m->len, 0) < 0 ? -errno : 0;
}

/* Sends m and reads its answers (receive()). */
int talk(struct nl *nl, struct msg *m,
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

const struct nlattr *attr(const struct nlmsghdr *h, uint16_t type)
{
	return find_attr((const struct nlattr *)((const char *)h + NLMSG_HDRLEN + GENL_HDRLEN),
			 (int)h->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN, type);
}

/* Attribute type inside the nest of type nest_type; NULL if either is absent. */
const struct nlattr *nested(const struct nlmsghdr *h, uint16_t nest_type, uint16_t type)
{
	const struct nlattr *nest = attr(h, nest_type);

	return nest ? find_attr((const struct nlattr *)((const char *)nest + NLA_HDRLEN),
				nest->nla_len - NLA_HDRLEN, type) : NULL;
}

uint64_t get_num(const struct nlattr *a)
{
	uint64_t v = 0;

	if (a)
		memcpy(&v, (const char *)a + NLA_HDRLEN,
		       a->nla_len - NLA_HDRLEN < 8 ? a->nla_len - NLA_HDRLEN : 8);
	return v;
}

void family_reply(const struct nlmsghdr *h, void *arg)
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

void u32_reply(const struct nlmsghdr *h, void *arg)
{
	uint32_t *out = arg;
	const struct nlattr *a = attr(h, (uint16_t)out[0]);

	out[1] = (uint32_t)get_num(a);
}

/* Uploads image; returns its id or -errno.  chunk_bytes: upload in pieces this big. */
int upload(struct nl *nl, const struct cbench_kimage *image)
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
int map(struct nl *nl, uint32_t id, const struct cbench_kimage *image)
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

int run_start(struct nl *nl, const struct run_args *r)
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
	if (r->watcher)
		put_u32(&m, CBENCH_A_RUN_WATCHER, (uint32_t)(r->watcher - 1));
	ret = talk(nl, &m, u32_reply, out);
	return ret ? ret : (int)out[1];
}

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
	s->watcher = attr(h, CBENCH_A_RUN_WATCHER) ? (int32_t)get_num(attr(h, CBENCH_A_RUN_WATCHER)) : -1;
	s->recovered_side = attr(h, CBENCH_A_RUN_RECOVERED_SIDE) ?
			    (int32_t)get_num(attr(h, CBENCH_A_RUN_RECOVERED_SIDE)) : -1;
	s->have_overhead = o && o->nla_len == NLA_HDRLEN + sizeof(s->overhead);
	if (s->have_overhead)
		memcpy(&s->overhead, (const char *)o + NLA_HDRLEN, sizeof(s->overhead));
}

int run_get(struct nl *nl, uint32_t run, struct run_state *s)
{
	struct msg m;

	memset(s, 0, sizeof(*s));
	start(nl, &m, CBENCH_CMD_RUN_GET, 0);
	put_u32(&m, CBENCH_A_RUN_ID, run);
	return talk(nl, &m, state_reply, s);
}

int run_wait(struct nl *nl, uint32_t run, struct run_state *s)
{
	for (int i = 0; i < 6000; i++) {
		int ret = run_get(nl, run, s);

		if (ret || s->state != CBENCH_RUN_RUNNING)
			return ret;
		usleep(10000);
	}
	return -ETIMEDOUT;
}

int simple(struct nl *nl, uint8_t cmd, uint16_t type, uint32_t id)
{
	struct msg m;

	start(nl, &m, cmd, 0);
	put_u32(&m, type, id);
	return talk(nl, &m, NULL, NULL);
}

void samples_reply(const struct nlmsghdr *h, void *arg)
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

int samples(struct nl *nl, uint32_t run, struct dump *d)
{
	struct msg m;

	memset(d, 0, sizeof(*d));
	start(nl, &m, CBENCH_CMD_SAMPLES, NLM_F_DUMP);
	put_u32(&m, CBENCH_A_RUN_ID, run);
	return talk(nl, &m, samples_reply, d);
}

const char *state_name(uint32_t s)
{
	static const char *const names[] = { "running", "done", "cancelled", "too-long", "failed" };

	return s < 5 ? names[s] : "?";
}

int load(const char *path, struct cbench_kimage *image)
{
	char why[512];
	int ret = cbench_kimage_load(path, image, why, sizeof(why));

	if (ret)
		fprintf(stderr, "kmod_test: %s\n", why);
	return ret;
}

int nl_must(struct nl *nl)
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
bool prepare(struct nl *nl, const struct cbench_kimage *image, const char *name,
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

/* The CPU measure() runs on: the concurrency check puts its clients apart. */
uint32_t measure_cpu;

/* One full measurement; returns 0 if it completed with every sample. */
int measure(const struct cbench_kimage *image, const char *name, uint32_t n, uint64_t reps,
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

size_t nest_begin(struct msg *m, uint16_t type)
{
	size_t off = m->len;
	struct nlattr *a = (struct nlattr *)(m->bytes + off);

	a->nla_type = type;
	m->len += NLA_HDRLEN;
	return off;
}

void nest_end(struct msg *m, size_t off)
{
	((struct nlattr *)(m->bytes + off))->nla_len = (uint16_t)(m->len - off);
}
