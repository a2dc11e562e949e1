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
 *   kmod_test concurrent <bench.so> <name>   two clients running at once (4 CPUs or more)
 *   kmod_test watchers <bench.so> <name> each run with a CPU of its own to watch it
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
 * Prints one line per check; exits 0 only if every check passed.  The
 * client is kmod_client.c; audits, timing points and the calls the module
 * ends, and the CPUs runs take, have files of their own (kmod_audit.c,
 * kmod_tpoints.c, kmod_endings.c, kmod_watch.c).
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
void refused(struct nl *nl, struct msg *m, int want, const char *what)
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
uint64_t quarter_budget_reps(struct nl *nl, const struct run_args *r)
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
int first_sample(struct nl *nl, uint32_t run, struct run_state *s)
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

/*
 * Each run needs a CPU to measure on and another to watch it: two at once
 * take four.  The clients measure on CPUs 0 and 2, and the module gives
 * each the next CPU up to watch it, whichever starts first.
 */
static int do_concurrent(const struct cbench_kimage *image, char **arg)
{
	pid_t a;
	int status;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 4) {
		printf("concurrent: %ld CPUs online, too few for two runs at once (watchers checks "
		       "what is refused)\n", sysconf(_SC_NPROCESSORS_ONLN));
		return -1;
	}
	a = fork();
	if (a == 0) {
		measure_cpu = 2;
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
IMAGE_TEST(watchers, watchers(image, arg[0]))
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
	{ "watchers", 1, 1, do_watchers },
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
