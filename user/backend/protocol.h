/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cbench.ko's generic-netlink protocol (include/uapi/linux/cbench.h) as typed
 * calls: each command's request is a struct, each reply is decoded by one
 * parser checked against that command's reply policy.  netlink.c owns the
 * socket; callers never see an attribute.  Each returns 0 or -errno; the
 * kernel's extended-ack text is cbench_nl_strerror()'s.
 */
#ifndef _CBENCH_PROTOCOL_H
#define _CBENCH_PROTOCOL_H

#include <stdbool.h>
#include <stdint.h>

#include <uapi/linux/cbench.h>

#include "backend/netlink.h"

/* CBENCH_CMD_INFO's reply.  has_* say whether an optional part came. */
struct cbench_proto_info {
	char version[64];
	uint32_t abi;
	char cpu_vendor[16];
	uint32_t cpu_family, cpu_model, cpu_stepping;
	bool hypervisor;
	bool has_tsc_khz;
	uint64_t tsc_khz;
	uint32_t tsc_flags;		/* CBENCH_TSC_F_* */
	uint32_t pmu_version;
	uint32_t gp_counters, gp_bits, fixed_counters, fixed_bits, pmu_events;
	bool has_fixed_bits;
	uint32_t counters, counters_cpu;	/* CBENCH_COUNTER_F_* lent by perf, and where */
	bool has_limits;
	uint64_t image_bytes, arena_bytes, irqoff_ns;
	uint32_t samples, runs;
	uint64_t tp_records;		/* 0: the module collects no timing points */
	uint32_t call_ms;		/* the watchdog's limit on a call; 0: no watchdog */
	bool unwatched;			/* runs taken with one CPU online */
	bool has_quiet;			/* the module has LVT mode, and... */
	uint32_t quiet;			/* ...this is a run's enum cbench_quiet by default */
	bool image_crc;			/* IMAGE_MAP takes CBENCH_A_IMAGE_CRC32 (send it then) */
	uint64_t stack_bytes;		/* the stack benchmark code runs on; 0: the
					 * module's thread's (an older module) */
	uint64_t stack_reserve_bytes;	/* what the kernel keeps of it, the stack
					 * aligned for stack checks; 0: not aligned
					 * (an older module) */
	int32_t fault_net;		/* enum cbench_fault_net; -1: not said (none) */
	bool has_live;
	uint32_t live_images, live_runs;
};

int cbench_proto_info(struct cbench_nl *nl, struct cbench_proto_info *info);

/* CBENCH_CMD_PROBE_COUNTERS: the counters perf lends on cpu, or, as a dump,
 * on every online CPU (each calls fn; a non-zero return stops it). */
int cbench_proto_probe(struct cbench_nl *nl, uint32_t cpu, uint32_t *counters);
int cbench_proto_probe_all(struct cbench_nl *nl, int (*fn)(void *arg, uint32_t cpu, uint32_t counters),
			   void *arg);

struct cbench_kimage;

/* IMAGE_NEW, IMAGE_CHUNK..., IMAGE_MAP: the image, mapped; *id names it. */
int cbench_proto_image_upload(struct cbench_nl *nl, const struct cbench_kimage *image, bool crc,
			      uint32_t *id);
/* IMAGE_DEL: the image is freed (once its runs have stopped). */
int cbench_proto_image_del(struct cbench_nl *nl, uint32_t id);

/* CBENCH_CMD_RUN_START's request. */
struct cbench_proto_run {
	uint32_t image_id;
	uint64_t entry;			/* offset of run() in the image */
	bool has_setup;
	uint64_t setup;			/* offset of setup(), if has_setup */
	/* Per-rep hooks' offsets, if has_*; with either, reps is 1. */
	bool has_before_rep, has_after_rep;
	uint64_t before_rep, after_rep;
	uint64_t reps, reps_step;	/* reps_step 0: not sent */
	uint32_t samples;
	uint32_t cpu;
	uint64_t arena_bytes;		/* 0: not sent */
	int64_t param;
	const struct cbench_arg *args;	/* ctx->args: nargs of them, sent as RUN_ARGS */
	uint32_t nargs;
	uint32_t tp_records;		/* timing-point records per sample; 0: none */
	uint64_t tp_every;		/* with tp_records; 0: not sent (1) */
	bool has_quiet;			/* send quiet (else the module's default) */
	uint32_t quiet;			/* enum cbench_quiet */
	bool has_watcher;		/* send watcher (else the module chooses) */
	uint32_t watcher;		/* the CPU to watch the run's calls */
};

int cbench_proto_run_start(struct cbench_nl *nl, const struct cbench_proto_run *run, uint32_t *id);

/* CBENCH_CMD_RUN_GET's reply. */
struct cbench_proto_run_state {
	uint32_t state;			/* CBENCH_RUN_* */
	int32_t error;			/* -errno of a FAILED run */
	uint32_t failed_in;		/* enum cbench_run_stage of a FAILED run */
	bool recovered;			/* the module ended a call that did not return or faulted */
	int32_t trap;			/* with recovered: the exception's x86 vector; -1: none */
	uint64_t trap_offset;		/* and its instruction's offset in the image */
	bool trap_from_caller;		/* trap_offset is of the return address: the
					 * fault was a fetch outside the image */
	bool oopsed;			/* the kernel printed an oops first */
	uint64_t fault_addr;		/* a page fault's address (trap 14) */
	uint32_t fault_error;		/* and its error code */
	uint32_t flags_changed;		/* RFLAGS bits a call left changed (-EPERM) */
	uint64_t stack_used;		/* the most of its stack a call used, once ended */
	uint32_t done, disturbed;	/* samples taken, and disturbed among them */
	uint32_t counters;		/* CBENCH_COUNTER_F_* measured */
	bool has_overhead;
	struct cbench_ksample overhead;	/* least cost of an empty call */
	uint64_t probe_tsc;
	int32_t quiet;			/* enum cbench_quiet it measured in; -1: not said */
	int32_t watcher;		/* the CPU watching its calls; -1: none said */
	int32_t recovered_side;		/* an audit's, with recovered: 0 A, 1 B; -1: not said */
};

int cbench_proto_run_get(struct cbench_nl *nl, uint32_t id, struct cbench_proto_run_state *state);
int cbench_proto_run_del(struct cbench_nl *nl, uint32_t id);

/* CBENCH_CMD_SAMPLES, a dump: up to max samples into out, *n of them. */
int cbench_proto_samples(struct cbench_nl *nl, uint32_t id, struct cbench_ksample *out, uint32_t max,
			 uint32_t *n);

/* One side of CBENCH_CMD_AUDIT_START's request. */
struct cbench_proto_side {
	uint32_t image_id;
	uint64_t entry;			/* offset of run() in the image */
	bool has_setup;
	uint64_t setup;			/* offset of setup(), if has_setup */
	/* Per-rep hooks' offsets, if has_*; with either, reps is 1. */
	bool has_before_rep, has_after_rep;
	uint64_t before_rep, after_rep;
	uint64_t reps;			/* of each of its samples */
	uint64_t arena_bytes;		/* 0: not sent */
	int64_t param;
	const struct cbench_arg *args;	/* ctx->args: nargs of them, sent as SIDE_ARGS */
	uint32_t nargs;
};

/* CBENCH_CMD_AUDIT_START's request: sides A and B in a seeded order. */
struct cbench_proto_audit {
	uint32_t cpu;
	uint64_t seed;			/* the order's xorshift64* state */
	uint32_t per_side, rounds;	/* rounds * 2 * per_side samples */
	struct cbench_proto_side side[CBENCH_AUDIT_SIDES];
	bool has_quiet;			/* send quiet (else the module's default) */
	uint32_t quiet;			/* enum cbench_quiet */
	bool has_watcher;		/* as for cbench_proto_run */
	uint32_t watcher;
};

int cbench_proto_audit_start(struct cbench_nl *nl, const struct cbench_proto_audit *audit,
			     uint32_t *id);

/* The SAMPLES dump of an audit run: as cbench_proto_samples(), with each
 * sample's side (0 A, 1 B) in sides; -EPROTO if the module sends none. */
int cbench_proto_audit_samples(struct cbench_nl *nl, uint32_t id, struct cbench_ksample *out,
			       uint8_t *sides, uint32_t max, uint32_t *n);

/* What CBENCH_CMD_TPOINTS reads: the timing points of a run's samples. */
struct cbench_proto_tp {
	uint32_t id;			/* the run */
	uint32_t samples;		/* room for this many samples... */
	uint32_t records;		/* ...of this many records each (the run's TP_RECORDS) */
	struct cbench_tp_krecord *out;	/* sample i's records at out + i * records */
	uint64_t *taken;		/* [samples]: points each call took (TP_TAKEN) */
	uint32_t *kept;			/* [samples]: records received, min(taken, records) */
	uint32_t n;			/* samples received */
};

/* CBENCH_CMD_TPOINTS, a dump, into tp (id, samples, records and the
 * arrays set; n is set here).  -EPROTO if a sample came incomplete. */
int cbench_proto_tpoints(struct cbench_nl *nl, struct cbench_proto_tp *tp);
/* One message of that dump (exposed for the unit tests): 0 or -EPROTO. */
int cbench_proto_tp_parse(struct nlattr **tb, void *arg);
/* After the dump: every sample received has all its records; 0 or -EPROTO. */
int cbench_proto_tp_complete(const struct cbench_proto_tp *tp);

#endif /* _CBENCH_PROTOCOL_H */
