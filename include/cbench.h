/* SPDX-License-Identifier: MIT */
/*
 * cbench.h - what a benchmark author includes.
 *
 * A benchmark is a function that performs `reps` repetitions of the
 * operation under test; it owns its loop, so the harness adds nothing to the
 * measured region but one call:
 *
 *	#include <cbench.h>
 *
 *	static void add_chain(struct cbench_ctx *ctx, uint64_t reps)
 *	{
 *		uint64_t x = ctx->param, one = 1;
 *
 *		for (uint64_t i = 0; i < reps; i++)
 *			__asm__ volatile("add %1, %0" : "+r"(x) : "r"(one));
 *		cbench_keep(x);
 *	}
 *	CBENCH(add_chain);
 *
 * Optional settings go after the function as designated initializers:
 *
 *	CBENCH(copy, .setup = copy_setup, .arena_bytes = 1 << 20,
 *	       .param_name = "size", CBENCH_PARAMS(64, 4096, 65536));
 *
 * which yields sub-benchmarks BenchmarkCopy/size=64, /size=4096, ...
 *
 * Several named parameters (ABI version 3) are keys, each with a list of
 * integers, a list of strings, or an integer range; cbench runs every
 * combination, keys in declaration order (the Go format's sub-benchmark
 * names, which benchstat slices by key):
 *
 *	CBENCH(hash, .setup = hash_setup, .arena_bytes = 1 << 16,
 *	       CBENCH_KEYS(CBENCH_STRS("algo", "fnv1a", "crc32c"),
 *			   CBENCH_RANGE("len", 8, 4096, 8)));
 *
 * yields BenchmarkHash/algo=fnv1a/len=8, .../len=64, ... /algo=crc32c/len=4096,
 * and the benchmark reads its values with cbench_str(ctx, "algo") and
 * cbench_int(ctx, "len").  CBENCH_SETS(...) lists the combinations to run
 * instead of all of them (docs/parameters.md).
 *
 * A benchmark whose every call needs fresh state (a sort of unsorted input,
 * a cold cache) names per-rep hooks, run untimed around each measured call:
 *
 *	CBENCH(sort, .before_rep = shuffle, .arena_bytes = 1 << 20);
 *
 * A benchmark whose rep is one long loop can mark its iterations and place
 * timing points in it (Lau et al.), so that one call yields many timings of
 * single iterations instead of one timing of the whole loop:
 *
 *	uint64_t it = 0;
 *	for (...) {				// a record
 *		for (...) {			// its elements
 *			cbench_mark(it);	// one loop iteration
 *			...work...
 *		}
 *		cbench_tpoint(ctx, it);		// time since the last point
 *	}
 *
 * The same shared object runs in user mode and, when built with the flags of
 * `pkg-config --cflags cbench-kernel`, in ring 0 under cbench.ko.  Nothing in
 * this header needs libc: only <stdint.h> and <stddef.h>, which a
 * freestanding compiler provides.
 */
#ifndef _CBENCH_H
#define _CBENCH_H

#ifdef __KERNEL__
/* cbench.ko reads the same structures; the kernel has its own types. */
#include <linux/stddef.h>
#include <linux/types.h>
#else
#include <stddef.h>
#include <stdint.h>
#endif

/*
 * Bumped on any change to the layout or meaning of struct cbench_desc or
 * struct cbench_ctx.  cbenchctl refuses a benchmark whose ABI version is
 * newer than the one it was built with, and says which versions it knows.
 * Version 2 gives the five words version 1 reserved in struct cbench_ctx to
 * timing points (struct cbench_tp_state); the layout is the same, and
 * cbenchctl still runs version 1 objects, with those words zero.
 * Version 3 appends named parameters: keys to struct cbench_desc, their
 * current values (args) to struct cbench_ctx.  Objects of versions 1 and 2
 * run unchanged.
 */
#define CBENCH_ABI_VERSION 3

/*
 * The ELF section holding one pointer per registered benchmark.  cbenchctl
 * finds it through __start_/__stop_cbench_descs when the object exports both
 * (GNU ld defines each only if something in the object refers to it) and
 * otherwise through the section header, so a plain `cc -shared` object
 * works either way.  Do not strip section headers (sstrip).
 */
#define CBENCH_SECTION "cbench_descs"

/* Longest benchmark name, parameter name included, in bytes with the NUL. */
#define CBENCH_NAME_MAX 64

/* Most values one parameter (one key) may take. */
#define CBENCH_PARAMS_MAX 64

/* Most keys (named parameters) one benchmark may declare. */
#define CBENCH_KEYS_MAX 8

/* Most parameter sets (sub-benchmarks) one benchmark may run. */
#define CBENCH_SETS_MAX 4096

/* Longest string value of a key, in bytes with the NUL. */
#define CBENCH_STR_MAX 32

/* How a key lists its values (struct cbench_key's kind). */
enum cbench_key_kind {
	CBENCH_KEY_INTS = 1,	/* ints[0..count) */
	CBENCH_KEY_STRS,	/* strs[0..count) */
	CBENCH_KEY_RANGE,	/* lo, lo*by, lo*by^2, ... below hi, then hi */
	CBENCH_KEY_DENSE,	/* lo, lo+by, lo+2*by, ... up to hi */
};

/*
 * A named parameter (ABI version 3), as CBENCH_INTS(), CBENCH_STRS(),
 * CBENCH_RANGE() and CBENCH_DENSE() lay it out.  The name is an identifier;
 * a string value is at most CBENCH_STR_MAX - 1 bytes of letters, digits and
 * "_.+:-" (what a Go benchmark name can carry).
 */
struct cbench_key {
	const char *name;
	uint32_t kind;			/* enum cbench_key_kind */
	uint32_t count;			/* values in ints or strs */
	const int64_t *ints;
	const char *const *strs;
	int64_t lo, hi, by;		/* RANGE: by is the multiplier (>= 2);
					 * DENSE: by is the step (>= 1) */
};

/*
 * One key's value in the current parameter set, in struct cbench_ctx.  For
 * a string key, str is the value and i its index in the key's list; for an
 * integer key, i is the value and str is NULL.
 */
struct cbench_arg {
	const char *key;
	const char *str;
	int64_t i;
};

/* One recorded timing point: the timestamp counter and the marker's count. */
struct cbench_tp_record {
	uint64_t tsc;
	uint64_t count;
};

/*
 * Where a call's timing points record, set by the harness before each call
 * and advanced only by cbench_tpoint().  All zero (buf NULL) where the
 * harness collects no timing points: in ring 0, in plain measurements, and
 * for ABI version 1 objects, whose five reserved words these are.
 */
struct cbench_tp_state {
	struct cbench_tp_record *buf;	/* NULL: timing points record nothing */
	uint64_t capacity;		/* records buf holds */
	uint64_t next;			/* records taken this call; those past
					 * capacity were dropped, not written */
	uint64_t every;			/* record every `every`-th timing point */
	uint64_t countdown;		/* timing points until the next record */
};

/*
 * What a benchmark function gets.  The harness owns it; a benchmark reads it
 * and may write only into the arena (cbench_tpoint() writes ctx->tp).
 */
struct cbench_ctx {
	/*
	 * Scratch memory, zeroed then prepared by setup(); NULL if none.
	 * Aligned to 64 bytes (a cache line), and promised no more: `cbenchctl
	 * audit` places it anew every round, on other pages and at another
	 * offset in its first page (a multiple of 64), and runs setup() again
	 * (docs/placement.md).  A benchmark that needs a page-aligned buffer
	 * asks for a page more and aligns within the arena.
	 */
	void *arena;
	/* Size of the arena in bytes, as asked for in the descriptor. */
	uint64_t arena_bytes;
	/*
	 * The current parameter value; 0 for a benchmark without one.  With
	 * keys (ABI version 3), the first key's args[0].i.
	 */
	int64_t param;
	/* Timing points (ABI version 2; reserved and zero in version 1). */
	struct cbench_tp_state tp;
	/*
	 * The current parameter set (ABI version 3): one arg per key, in
	 * declaration order; a benchmark with one .param_name sees one arg,
	 * one without parameters none (args may then be NULL).  Read them
	 * with cbench_int() and cbench_str() below.
	 */
	const struct cbench_arg *args;
	uint32_t nargs;
	uint32_t reserved;
};

/* Runs `reps` repetitions.  Must not return before doing all of them. */
typedef void (*cbench_run_fn)(struct cbench_ctx *ctx, uint64_t reps);

/*
 * Runs before or after every measured call of a benchmark that has per-rep
 * hooks, untimed: e.g. fresh unsorted input for a sort, or the arena
 * flushed from the caches.  Returns 0, or a negative number to fail the
 * trial (after_rep() may so report that the call went wrong).
 */
typedef int (*cbench_hook_fn)(struct cbench_ctx *ctx);

/*
 * Prepares the arena for the current parameter, untimed.  Returns 0, or a
 * negative number to say the benchmark cannot run with this parameter.
 * It may run many times in one process, each time on a fresh zeroed arena
 * (an audit places the arena anew every round; cbench.ko runs it in every
 * run): keep what it prepares in the arena, not in what it allocates.
 */
typedef int (*cbench_setup_fn)(struct cbench_ctx *ctx);

/* A registered benchmark, as CBENCH() lays it out. */
struct cbench_desc {
	/* CBENCH_ABI_VERSION of the header the benchmark was built with. */
	uint32_t abi_version;
	/* sizeof(struct cbench_desc) in that header. */
	uint32_t desc_bytes;
	/* Identifier-like name; reports turn snake_case into CamelCase. */
	const char *name;
	cbench_run_fn run;
	cbench_setup_fn setup;
	/* Arena the harness allocates for this benchmark, in bytes; 0 for none. */
	uint64_t arena_bytes;
	/* Name of the swept parameter (e.g. "size"); NULL for none. */
	const char *param_name;
	/* The parameter values, run in this order. */
	const int64_t *params;
	uint32_t nparams;
	/* CBENCH_F_* flags. */
	uint32_t flags;
	/* Operations one rep performs, for ns/op; 0 means 1. */
	uint64_t ops_per_rep;
	/* Bytes one rep processes, for MB/s; 0 for none. */
	uint64_t bytes_per_rep;
	/*
	 * Per-rep setup and teardown (ABI version 2; Caliper's macrobenchmark
	 * instrument), called around every measured call, outside timing.  A
	 * benchmark with either is measured one call of one rep at a time
	 * (run(ctx, 1)): no tuning of reps, so each call must be long enough
	 * for the timer, and reports say when it is not.  In ring 0 they run
	 * between samples with interrupts on, under the rules of setup().
	 */
	cbench_hook_fn before_rep;
	cbench_hook_fn after_rep;
	/*
	 * Named parameters (ABI version 3): CBENCH_KEYS(...), instead of
	 * param_name and params.  Without sets, every combination of the
	 * keys' values runs, the last key varying fastest.  With sets
	 * (CBENCH_SETS(...)), only those: nset_values is a multiple of nkeys,
	 * each set one value per key in declaration order, an integer key's
	 * value itself and a string key's index in its list.
	 */
	const struct cbench_key *keys;
	uint32_t nkeys;
	uint32_t nset_values;
	const int64_t *sets;
	/*
	 * Where CBENCH() stands (ABI version 3): cbenchctl lists and runs an
	 * object's benchmarks in this order, file by file as they were linked,
	 * by line within a file (the compiler lays out the section in no set
	 * order).
	 */
	const char *file;
	uint32_t line;
	uint32_t reserved;
};

/* sizeof(struct cbench_desc) in ABI version 1, which had no hooks. */
#define CBENCH_DESC_V1_BYTES 80
/* sizeof(struct cbench_desc) in ABI version 2, which had no keys. */
#define CBENCH_DESC_V2_BYTES 96

/* The benchmark is not safe to run in ring 0 (needs libc, syscalls, ...). */
#define CBENCH_F_USER_ONLY (1u << 0)
/* bytes_per_rep is multiplied by the parameter value (a size sweep); with
 * keys, by the first integer key's. */
#define CBENCH_F_BYTES_PER_PARAM (1u << 1)
/*
 * The arena's page size is part of what is measured (TLB reach): ask for
 * transparent huge pages, or for base pages only.  Without either, the
 * arena gets what the kernel's THP setting gives.  The report says what it
 * got.  In ring 0 the arena is vmalloc's, base pages.
 */
#define CBENCH_F_ARENA_HUGE (1u << 2)
#define CBENCH_F_ARENA_BASE (1u << 3)
#define __CBENCH_F_ALL (CBENCH_F_USER_ONLY | CBENCH_F_BYTES_PER_PARAM | CBENCH_F_ARENA_HUGE | \
			CBENCH_F_ARENA_BASE)

#define CBENCH__CAT2(a, b) a##b
#define CBENCH__CAT(a, b) CBENCH__CAT2(a, b)

/*
 * Registers fn as a benchmark named #fn.  Extra arguments are designated
 * initializers of struct cbench_desc.
 */
#define CBENCH(fn, ...)							\
	static const struct cbench_desc CBENCH__CAT(cbench__desc_, fn) = {	\
		.abi_version = CBENCH_ABI_VERSION,				\
		.desc_bytes = sizeof(struct cbench_desc),			\
		.name = #fn,							\
		.run = fn,							\
		.file = __FILE__,						\
		.line = __LINE__,						\
		__VA_ARGS__							\
	};									\
	static const struct cbench_desc *const CBENCH__CAT(cbench__ptr_, fn)	\
	__attribute__((used, section(CBENCH_SECTION), aligned(sizeof(void *)))) = \
		&CBENCH__CAT(cbench__desc_, fn)

/* Parameter values for a sweep: CBENCH_PARAMS(64, 1024, 65536). */
#define CBENCH_PARAMS(...)						\
	.params = (const int64_t[]){ __VA_ARGS__ },			\
	.nparams = sizeof((const int64_t[]){ __VA_ARGS__ }) / sizeof(int64_t)

/*
 * Named parameters (ABI version 3), inside CBENCH_KEYS(...):
 *
 *	CBENCH_INTS("size", 64, 4096)		integers, run in this order
 *	CBENCH_STRS("algo", "fnv1a", "crc32c")	strings
 *	CBENCH_RANGE("len", 8, 4096, 8)		8, 64, 512, 4096: times 8, and
 *						the end itself if not reached
 *	CBENCH_DENSE("align", 0, 64, 8)		0, 8, 16, ..., 64: plus 8
 */
#define CBENCH__COUNT(type, ...) (uint32_t)(sizeof((type[]){ __VA_ARGS__ }) / sizeof(type))
#define CBENCH_INTS(key, ...)							\
	{ .name = (key), .kind = CBENCH_KEY_INTS,				\
	  .count = CBENCH__COUNT(const int64_t, __VA_ARGS__),			\
	  .ints = (const int64_t[]){ __VA_ARGS__ } }
#define CBENCH_STRS(key, ...)							\
	{ .name = (key), .kind = CBENCH_KEY_STRS,				\
	  .count = CBENCH__COUNT(const char *const, __VA_ARGS__),		\
	  .strs = (const char *const[]){ __VA_ARGS__ } }
#define CBENCH_RANGE(key, start, stop, mult)					\
	{ .name = (key), .kind = CBENCH_KEY_RANGE, .lo = (start), .hi = (stop), .by = (mult) }
#define CBENCH_DENSE(key, start, stop, step)					\
	{ .name = (key), .kind = CBENCH_KEY_DENSE, .lo = (start), .hi = (stop), .by = (step) }
#define CBENCH_KEYS(...)							\
	.keys = (const struct cbench_key[]){ __VA_ARGS__ },			\
	.nkeys = CBENCH__COUNT(const struct cbench_key, __VA_ARGS__)

/*
 * The parameter sets to run, where not every combination is wanted: one
 * value per key in declaration order, set after set; a string key's value
 * is its index in the key's list.  CBENCH_SETS(64, 0,  4096, 8) runs
 * size=64/align=0 and size=4096/align=8.
 */
#define CBENCH_SETS(...)							\
	.sets = (const int64_t[]){ __VA_ARGS__ },				\
	.nset_values = CBENCH__COUNT(const int64_t, __VA_ARGS__)

/* Whether two strings are equal, without libc (ring 0 has none). */
static inline int cbench__streq(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

/* The current value of key, or NULL if the benchmark has no such key. */
static inline const struct cbench_arg *cbench_arg(const struct cbench_ctx *ctx, const char *key)
{
	for (uint32_t i = 0; i < ctx->nargs; i++) {
		if (cbench__streq(ctx->args[i].key, key))
			return &ctx->args[i];
	}
	return NULL;
}

/* An integer key's value (a string key's index); 0 for no such key. */
static inline int64_t cbench_int(const struct cbench_ctx *ctx, const char *key)
{
	const struct cbench_arg *a = cbench_arg(ctx, key);

	return a ? a->i : 0;
}

/* A string key's value; NULL for an integer key or no such key. */
static inline const char *cbench_str(const struct cbench_ctx *ctx, const char *key)
{
	const struct cbench_arg *a = cbench_arg(ctx, key);

	return a ? a->str : NULL;
}

/*
 * Keeps a value alive: the compiler must compute it, but may keep it in a
 * register.  Costs no instruction.
 */
#define cbench_keep(value) __asm__ volatile("" : : "r,m"(value) : "memory")

/*
 * Makes the compiler forget what it knows about a scalar variable (integer
 * or pointer), so a loop cannot be folded into a closed form.  Costs no
 * instruction.  (A "+r,m" alternative would allow any lvalue, but gcc 12
 * rejects in/out multi-alternative constraints as impossible.)
 */
#define cbench_launder(var) __asm__ volatile("" : "+r"(var) : : "memory")

/* Forces pending stores to memory to be considered observed. */
static inline void cbench_clobber(void)
{
	__asm__ volatile("" : : : "memory");
}

/*
 * Loop timing points (Lau et al., sections 3 to 5.4).
 *
 * cbench_mark(counter) is the lightweight marker: it adds one to an
 * unsigned 64-bit local that counts loop iterations, declared once per call
 * and set to 0 before the loop.  It is plain C, so the compiler may unroll,
 * merge or hoist it as it does the loop itself (a loop of n iterations may
 * become one `counter += n`); it cannot drop it, since timing points read
 * the counter.
 *
 * cbench_tpoint(ctx, counter) is the timing point: one serialized read of
 * the timestamp counter (rdtscp waits for everything before it, lfence
 * holds back everything after it, so the read ends one timing and starts
 * the next), stored with the counter's value.  The harness turns two
 * consecutive records into a merged timing of T ticks covering N marked
 * iterations and splits it into N timings of T/N.  It records only every
 * ctx->tp.every-th point (tuned so that timings stay well above the point's
 * own cost), stops writing when the buffer is full (counting what it
 * drops), and without a buffer (ring 0, or a plain measurement) it is a
 * load and a branch: no call, no libc, no system call.
 *
 * Work that lives only in registers may be scheduled across a timing point
 * by the compiler; memory accesses may not (the read clobbers memory).
 * Timings between points where the counter did not grow count no
 * iteration and are left out.
 */
#define cbench_mark(counter) ((void)((counter) += 1))

/* Stores one record; inline, for cbench_tpoint() only. */
static inline __attribute__((always_inline)) void
cbench__tp_record(struct cbench_ctx *ctx, uint64_t count)
{
	uint64_t i = ctx->tp.next++;
	uint32_t lo, hi;

	ctx->tp.countdown = ctx->tp.every;
	__asm__ volatile("rdtscp\n\tlfence" : "=a"(lo), "=d"(hi) : : "rcx", "memory");
	if (i < ctx->tp.capacity) {
		ctx->tp.buf[i].tsc = ((uint64_t)hi << 32) | lo;
		ctx->tp.buf[i].count = count;
	}
}

#define cbench_tpoint(ctx, counter)						\
	do {									\
		struct cbench_ctx *const cbench__tp_ctx = (ctx);		\
										\
		if (__builtin_expect(cbench__tp_ctx->tp.buf != 0, 0) &&	\
		    --cbench__tp_ctx->tp.countdown == 0)			\
			cbench__tp_record(cbench__tp_ctx, (uint64_t)(counter));	\
	} while (0)

#endif /* _CBENCH_H */
