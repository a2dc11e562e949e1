/* SPDX-License-Identifier: GPL-2.0 */
/* What kmod_test's files share: the client's types and calls, and each
 * file's tests that main() dispatches to (kmod_test.c). */
#ifndef _CBENCH_KMOD_TEST_H
#define _CBENCH_KMOD_TEST_H

#include <linux/netlink.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "object/kimage.h"

#define BUF_BYTES (256 * 1024)

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
	int watcher;		/* CBENCH_A_RUN_WATCHER sent as watcher - 1; 0: not sent */
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
	int32_t watcher;	/* CBENCH_A_RUN_WATCHER; -1: absent */
	int32_t recovered_side;	/* CBENCH_A_RUN_RECOVERED_SIDE; -1: absent */
	struct cbench_ksample overhead;
	int have_overhead;
};

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

/* A want_state for measure(): either ending is right. */
#define WANT_DONE_OR_TOO_LONG 0x100

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

/* Checks failed so far (check()). */
extern int failures;
/* The CPU measure() runs on: the concurrency check puts its clients apart. */
extern uint32_t measure_cpu;

/* The client (kmod_client.c). */
void check(int ok, const char *fmt, ...);
void put(struct msg *m, uint16_t type, const void *data, size_t bytes);
void put_u32(struct msg *m, uint16_t type, uint32_t v);
void put_u64(struct msg *m, uint16_t type, uint64_t v);
void start(struct nl *nl, struct msg *m, uint8_t cmd, uint16_t flags);
int send_msg(struct nl *nl, struct msg *m);
/* Reads the answers to request seq until its ack, error, or the end of its
 * dump, each data message to each_reply; 0 or the -errno the kernel
 * answered. */
int receive(struct nl *nl, uint32_t seq,
	    void (*each_reply)(const struct nlmsghdr *, void *), void *arg);
/* Sends m and receives its replies. */
int talk(struct nl *nl, struct msg *m,
	 void (*each_reply)(const struct nlmsghdr *, void *), void *arg);
/* Replies: the family id, one u32 (an id), a run's samples into a struct dump. */
void family_reply(const struct nlmsghdr *h, void *arg);
void u32_reply(const struct nlmsghdr *h, void *arg);
void samples_reply(const struct nlmsghdr *h, void *arg);
const struct nlattr *attr(const struct nlmsghdr *h, uint16_t type);
const struct nlattr *nested(const struct nlmsghdr *h, uint16_t nest_type, uint16_t type);
uint64_t get_num(const struct nlattr *a);
int upload(struct nl *nl, const struct cbench_kimage *image);
int map(struct nl *nl, uint32_t id, const struct cbench_kimage *image);
int run_start(struct nl *nl, const struct run_args *r);
int run_get(struct nl *nl, uint32_t run, struct run_state *s);
int run_wait(struct nl *nl, uint32_t run, struct run_state *s);
int simple(struct nl *nl, uint8_t cmd, uint16_t type, uint32_t id);
int samples(struct nl *nl, uint32_t run, struct dump *d);
const char *state_name(uint32_t s);
int load(const char *path, struct cbench_kimage *image);
int nl_must(struct nl *nl);
bool prepare(struct nl *nl, const struct cbench_kimage *image, const char *name,
	     struct run_args *r, int *id);
int measure(const struct cbench_kimage *image, const char *name, uint32_t n, uint64_t reps,
	    uint64_t budget_ns, uint32_t want_state);
size_t nest_begin(struct msg *m, uint16_t type);
void nest_end(struct msg *m, size_t off);

/* Tests of kmod_test.c that the other files use. */
void refused(struct nl *nl, struct msg *m, int want, const char *what);
uint64_t quarter_budget_reps(struct nl *nl, const struct run_args *r);
int first_sample(struct nl *nl, uint32_t run, struct run_state *s);

/* Audit runs (kmod_audit.c). */
int audit_start(struct nl *nl, const struct audit_args *a);
struct side_args side_of(uint32_t image, const struct cbench_kimage_entry *e, uint64_t reps);
uint32_t upload_mapped(struct nl *nl, const struct cbench_kimage *image);
void audits(const struct cbench_kimage *image, const struct cbench_kimage *good);
void audit_hostile(const struct cbench_kimage *image);
int audit_hold(const struct cbench_kimage *image);

/* Loop timing points (kmod_tpoints.c). */
void tpoints(const struct cbench_kimage *image);
void tp_hostile(const struct cbench_kimage *image);

/* Calls the module ends (kmod_endings.c). */
uint32_t stuck_run(const struct cbench_kimage *image, const char *name, uint32_t stage,
		   int audit);
void stuck(const struct cbench_kimage *image);
void faulting(const struct cbench_kimage *image);
void hazards(const struct cbench_kimage *image);
void oops_net(const struct cbench_kimage *image, bool all);
void stack(const struct cbench_kimage *image);
/* Each run with a CPU of its own to watch it (kmod_watch.c). */
void watchers(const struct cbench_kimage *image, const char *name);
void killed(const struct cbench_kimage *image);
void lvt_mode(const struct cbench_kimage *image, const char *name, uint32_t runs);
void unwatched(const struct cbench_kimage *image);

#endif /* _CBENCH_KMOD_TEST_H */
