// SPDX-License-Identifier: GPL-2.0
/*
 * kmod_test: calls cbench.ko ends: stuck ones ended by the watchdog,
 * exceptions ended where they were raised, the oops net, the benchmark
 * stack, a thread killed mid-call, LVT mode, runs nobody watches.
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
	/* Side B's, though both sides are in one image here. */
	check(s->recovered_side == (audit ? 1 : -1),
	      "%s: the side whose call was ended is %s (got %d)", name,
	      audit ? "said, B" : "not said, a run having one", s->recovered_side);
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

uint32_t stuck_run(const struct cbench_kimage *image, const char *name, uint32_t stage,
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
void stuck(const struct cbench_kimage *image)
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
void faulting(const struct cbench_kimage *image)
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
void hazards(const struct cbench_kimage *image)
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
void oops_net(const struct cbench_kimage *image, bool all)
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
void stack(const struct cbench_kimage *image)
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
void killed(const struct cbench_kimage *image)
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
void lvt_mode(const struct cbench_kimage *image, const char *name, uint32_t runs)
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
void unwatched(const struct cbench_kimage *image)
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
