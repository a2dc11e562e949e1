// SPDX-License-Identifier: GPL-2.0
/*
 * One run of cbench.ko: started with the quiet mode this process asked
 * for, waited for, its samples read and the run deleted; and a failed
 * run's account in words (the trap and where, the flags a call left
 * changed, a hook that failed or took too long).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "backend/kmod.h"
#include "backend/kmod_parts.h"
#include "machine/clock.h"

/* How often we ask whether a run has ended. */
#define POLL_US 200
/* A run that has not ended after this long is cancelled. */
#define RUN_TIMEOUT_S 60

int cbench_kmod_run_finish(struct cbench_nl *nl, uint32_t id, struct cbench_ksample *out, uint8_t *sides,
			   struct cbench_proto_tp *tp, uint32_t max, struct cbench_proto_run_state *st)
{
	double deadline = cbench_now_s() + RUN_TIMEOUT_S;
	uint32_t n = 0;
	int ret, del;

	for (;;) {
		ret = cbench_proto_run_get(nl, id, st);
		if (ret || st->state != CBENCH_RUN_RUNNING)
			break;
		if (cbench_now_s() > deadline) {
			ret = -ETIMEDOUT;
			break;
		}
		usleep(POLL_US);
	}
	if (!ret)
		ret = sides ? cbench_proto_audit_samples(nl, id, out, sides, max, &n) :
			      cbench_proto_samples(nl, id, out, max, &n);
	if (!ret && tp) {
		tp->id = id;
		ret = cbench_proto_tpoints(nl, tp);
		/* Every sample the samples dump gave has its records. */
		if (!ret && tp->n < n)
			ret = -EPROTO;
	}
	/* Deleting cancels a run still going; the module stops it in the background. */
	del = cbench_proto_run_del(nl, id);
	return ret ? ret : del ? del : (int)n;
}

const char *cbench_quiet_name(int quiet)
{
	return quiet == CBENCH_QUIET_CLI ? "cli" : quiet == CBENCH_QUIET_LVT ? "lvt" : NULL;
}

int cbench_kmod_run_once(const struct kmod_backend *k, const struct cbench_proto_run *r,
			 struct cbench_ksample *out, struct cbench_proto_tp *tp,
			 struct cbench_proto_run_state *st)
{
	struct cbench_proto_run req = *r;
	uint32_t id;
	int ret;

	memset(st, 0, sizeof(*st));
	req.has_quiet = k->quiet >= 0;
	req.quiet = (uint32_t)k->quiet;
	req.has_watcher = k->watcher >= 0;
	req.watcher = (uint32_t)k->watcher;
	ret = cbench_proto_run_start(k->nl, &req, &id);
	return ret ? ret : cbench_kmod_run_finish(k->nl, id, out, NULL, tp, r->samples, st);
}

int cbench_kmod_pick_settings(struct cbench_backend *b, struct kmod_backend *k)
{
	k->watcher = b->has_watcher ? (int)b->watcher : -1;
	if (!k->info.has_quiet) {
		k->quiet = -1;
		if (b->has_quiet && b->quiet == CBENCH_QUIET_LVT) {
			snprintf(b->error, sizeof(b->error), "this cbench.ko (%s) has no LVT mode: load the "
				 "module built with this cbenchctl, or leave out --quiet-mode",
				 k->info.version);
			return -EOPNOTSUPP;
		}
		strcpy(b->env.quiet, "cli");
		return 0;
	}
	k->quiet = b->has_quiet ? (int)b->quiet : (int)k->info.quiet;
	snprintf(b->env.quiet, sizeof(b->env.quiet), "%s",
		 cbench_quiet_name(k->quiet) ? cbench_quiet_name(k->quiet) : "?");
	return 0;
}

uint32_t cbench_kmod_have(uint32_t counters)
{
	return (counters & CBENCH_COUNTER_F_INSTRUCTIONS ? CBENCH_HAVE_INSTRUCTIONS : 0) |
	       (counters & CBENCH_COUNTER_F_CYCLES ? CBENCH_HAVE_CYCLES : 0) |
	       (counters & CBENCH_COUNTER_F_REF_CYCLES ? CBENCH_HAVE_REF_CYCLES : 0);
}

/* An x86 exception vector, as the SDM names it. */
static const char *trap_name(int32_t vector)
{
	static const char *const names[] = {
		[0] = "a divide error (#DE)",
		[1] = "a single step (#DB): it set the trap flag, TF,",
		[3] = "a breakpoint, int3 (#BP)",
		[4] = "an overflow trap (#OF)",
		[5] = "a BOUND range exceeded (#BR)",
		[6] = "an invalid opcode (#UD)",
		[10] = "an invalid TSS (#TS)",
		[11] = "a segment not present (#NP)",
		[12] = "a stack-segment fault (#SS)",
		[13] = "a general-protection fault (#GP)",
		[14] = "a page fault (#PF)",
		[16] = "an x87 floating-point error (#MF)",
		[17] = "an alignment check, a split lock (#AC)",
		[19] = "a SIMD floating-point exception (#XM)",
		[20] = "a virtualization exception (#VE)",
	};

	if (vector >= 0 && (size_t)vector < sizeof(names) / sizeof(names[0]) && names[vector])
		return names[vector];
	return "an exception";
}

/* What a page fault's error code says was done at its address (x86 #PF bits). */
static const char *fault_access(uint32_t error)
{
	if (error & 0x10)
		return "fetching an instruction at";
	return error & 0x2 ? "writing" : "reading";
}

/*
 * "raised <what> in ring 0 at <where>" for a run whose call cbench.ko
 * ended on an exception, into error; returns the length written.  at is
 * the object's (placed) or the image's address of the instruction, or of
 * the return address for a fetch outside the image.
 */
static int fault_account(const struct cbench_proto_run_state *res, bool placed, uint64_t at,
			 char *error, size_t error_bytes)
{
	const char *in = placed ? "object" : "image";
	int len;

	if (res->trap == 14 && res->trap_from_caller)
		len = snprintf(error, error_bytes, "raised a page fault (#PF) in ring 0 %s 0x%" PRIx64
			       ", outside its code: it was called or jumped to from just before "
			       "%s0x%" PRIx64 " of its %s", fault_access(res->fault_error),
			       res->fault_addr, placed ? "" : "offset ", at, in);
	else if (res->trap == 14)
		len = snprintf(error, error_bytes, "raised a page fault (#PF) in ring 0 %s 0x%" PRIx64
			       " (%s) at %s0x%" PRIx64 " of its %s", fault_access(res->fault_error),
			       res->fault_addr, res->fault_error & 1 ? "not permitted" : "not mapped",
			       placed ? "" : "offset ", at, in);
	else
		len = snprintf(error, error_bytes, "raised %s in ring 0 at %s0x%" PRIx64 " of its %s",
			       trap_name(res->trap), placed ? "" : "offset ", at, in);
	if (len >= 0 && (size_t)len < error_bytes && res->oopsed)
		len += snprintf(error + len, error_bytes - (size_t)len, " (the kernel printed an "
				"oops for it first and is tainted from now on: 'cbenchctl doctor' "
				"says so)");
	return len;
}

/* The RFLAGS bits a call left changed, in words ("turned interrupts on"). */
static void flags_account(uint32_t changed, const char *fn, const char *name, char *error,
			  size_t error_bytes)
{
	static const struct { uint32_t bit; const char *what; } names[] = {
		{ 0x200, "turned interrupts on or off (sti, cli or popf changed IF)" },
		{ 0x100, "set the trap flag (TF)" },
		{ 0x400, "left the direction flag set (std without cld)" },
		{ 0x40000, "changed the alignment-check flag (AC: stac or clac)" },
		{ 0x4000, "changed the nested-task flag (NT)" },
		{ 0x3000, "changed the I/O privilege level (IOPL)" },
	};
	const char *what = "changed RFLAGS bits it must leave alone";

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (changed & names[i].bit) {
			what = names[i].what;
			break;
		}
	}
	snprintf(error, error_bytes, "%s: the benchmark's %s() %s in ring 0 (RFLAGS bits 0x%" PRIx32
		 "); cbench.ko put them back and refused the run's samples: benchmark code must "
		 "leave the flags as it found them", name, fn, what, changed);
}

/*
 * A FAILED run's error; where a per-rep hook failed, or cbench.ko ended a
 * call, its account in error.  image: the run's (NULL: an audit's, of
 * either side), to place an exception in its object.
 */
int cbench_kmod_run_failed(const struct cbench_proto_run_state *res, uint32_t call_ms, const char *name,
			   const struct cbench_kimage *image, const char *object, char *error,
			   size_t error_bytes)
{
	const char *hook = res->failed_in == CBENCH_STAGE_BEFORE_REP ? "before_rep" :
			   res->failed_in == CBENCH_STAGE_AFTER_REP ? "after_rep" : NULL;
	const char *fn = hook ? hook : res->failed_in == CBENCH_STAGE_SETUP ? "setup" : "run";

	if (res->recovered && res->trap >= 0) {
		/* In the object where we know which, else in the image. */
		bool placed = image && object;
		uint64_t at = placed ? image->base + res->trap_offset : res->trap_offset;
		int len = snprintf(error, error_bytes, "%s: the benchmark's %s() ", name, fn);

		if (len >= 0 && (size_t)len < error_bytes)
			len += fault_account(res, placed, at, error + len, error_bytes - (size_t)len);
		if (len >= 0 && (size_t)len < error_bytes)
			len += snprintf(error + len, error_bytes - (size_t)len, "; the CPU was "
					"recovered (cbench.ko ended the call)");
		if (placed && len >= 0 && (size_t)len < error_bytes)
			snprintf(error + len, error_bytes - (size_t)len, ". It ran in the user-mode "
				 "rehearsal: see where with 'addr2line -f -i -e %s 0x%" PRIx64 "' and "
				 "look for what differs in ring 0", object, at);
		return -EFAULT;
	}
	if (res->recovered) {
		snprintf(error, error_bytes, "%s: the benchmark's %s() did not return within %" PRIu32
			 " ms in ring 0; the CPU was recovered (cbench.ko's watchdog ended the call). "
			 "It returned in the user-mode rehearsal: look for a loop on the TSC, on "
			 "the number of calls, or on anything else that differs in ring 0",
			 name, fn, call_ms);
		return -ETIMEDOUT;
	}
	if (res->error == -EPERM && res->flags_changed) {
		flags_account(res->flags_changed, fn, name, error, error_bytes);
		return -EPERM;
	}
	if (hook && res->error == -ETIME)
		snprintf(error, error_bytes, "%s: a call of %s() took over %.0f ms in ring 0, where "
			 "it runs with preemption off: make it cheaper, or measure with --backend user",
			 name, hook, (double)CBENCH_HOOK_MAX_NS * 1e-6);
	else if (hook)
		snprintf(error, error_bytes, "%s: the benchmark's %s() returned %d in ring 0", name,
			 hook, res->error);
	return res->error ? res->error : -EIO;
}

int cbench_backend_kmod_runs_max(unsigned int *runs)
{
	struct cbench_proto_info info = { 0 };
	struct cbench_nl *nl;
	int ret = cbench_nl_open(&nl);

	if (ret)
		return ret;
	ret = cbench_proto_info(nl, &info);
	cbench_nl_close(nl);
	if (!ret && !info.has_limits)
		ret = -EPROTO;
	*runs = info.runs;
	return ret;
}
