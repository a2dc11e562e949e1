// SPDX-License-Identifier: GPL-2.0
/*
 * kmod_test: audit runs (CBENCH_CMD_AUDIT_START): sides marked, in the
 * seeded order; bad schedules and sides refused; a long audit held.
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

/* ---- audit runs (CBENCH_CMD_AUDIT_START) --------------------------------- */

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
int audit_start(struct nl *nl, const struct audit_args *a)
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

struct side_args side_of(uint32_t image, const struct cbench_kimage_entry *e, uint64_t reps)
{
	return (struct side_args){
		.image = image, .entry = e->run, .has_setup = e->has_setup, .setup = e->setup,
		.reps = reps, .arena_bytes = e->arena_bytes,
		.param = e->nparams ? e->params[0] : 0,
	};
}

/* Uploads and maps image; its id, or 0 after a failed check. */
uint32_t upload_mapped(struct nl *nl, const struct cbench_kimage *image)
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
void audits(const struct cbench_kimage *image, const struct cbench_kimage *good)
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
void audit_hostile(const struct cbench_kimage *image)
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
int audit_hold(const struct cbench_kimage *image)
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
	/*
	 * A host that preempts the guest (the debug kernel's under TCG, on a
	 * busy host) can stretch samples past the budget, ending the run as
	 * too long: then fewer reps, as the plain hold does (kmod_test.c).
	 */
	for (int tries = 0; tries < 4 && r.reps; tries++, r.reps /= 4) {
		a.side[0] = side_of(id1, e, r.reps);
		a.side[1] = side_of(id2, e, r.reps);
		memset(&s, 0, sizeof(s));
		run = audit_start(&nl, &a);
		if (run > 0 && !first_sample(&nl, (uint32_t)run, &s) && s.state == CBENCH_RUN_RUNNING) {
			printf("holding run %d\n", run);
			fflush(stdout);
			for (;;)
				pause();
		}
		printf("audit run %d at %" PRIu64 " reps: not measuring (state %s, %u samples) '%s'\n", run,
		       r.reps, state_name(s.state), s.done, nl.ext);
		fflush(stdout);
		if (run > 0)
			simple(&nl, CBENCH_CMD_RUN_DEL, CBENCH_A_RUN_ID, (uint32_t)run);
	}
	return 1;
}
