// SPDX-License-Identifier: GPL-2.0
/*
 * kmod_test: loop timing points: exact records, refusals, a dump
 * interrupted by RUN_DEL, and benchmarks that scribble on ctx->tp.
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

void tpoints(const struct cbench_kimage *image)
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

void tp_hostile(const struct cbench_kimage *image)
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
