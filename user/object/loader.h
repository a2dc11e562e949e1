/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loading a benchmark shared object: dlopen, find the registered
 * descriptors, check them, expand parameter sweeps into experiments.
 *
 * cbenchctl itself never maps the object: a constructor runs at load, and
 * one that crashes, exits, hangs or forks must cost a failed load, not the
 * tool.  cbench_library_open() loads it in a child and keeps copies of what
 * the child found; workers that measure call cbench_library_load() in their
 * own process and look their experiment up with cbench_experiment_find().
 */
#ifndef _CBENCH_LOADER_H
#define _CBENCH_LOADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cbench.h>

#include "object/params.h"

/* Longest id: name + "/key=value..." (object/params.h), with the NUL. */
#define CBENCH_ID_MAX (CBENCH_NAME_MAX + CBENCH_PARAMS_NAME_MAX)
/* Longest report name: "Benchmark" + CamelName + "/key=value...". */
#define CBENCH_REPORT_NAME_MAX (16 + CBENCH_ID_MAX)

/* How long a child may take to load an object, in seconds, where the
 * caller has no limit of its own (cbenchctl list). */
#define CBENCH_LOAD_TIME_LIMIT_S 10.0

/*
 * The build ID an object's report gives it (its GNU build ID as hex, else a
 * hash of its content), read from the file without loading it, into out.
 * 0, or -errno with a sentence in err (cbench_elf_open's).
 */
int cbench_object_build_id(const char *path, char *out, size_t len, char *err, size_t errlen);

struct cbench_library;
struct cbench_desc_copy;

/* One benchmark at one parameter set: what one worker process measures. */
struct cbench_experiment {
	/* The object it comes from (path, build id): a backend that loads the
	 * code elsewhere, such as cbench.ko, starts from there. */
	const struct cbench_library *lib;
	/* From cbench_library_open(): a copy of the descriptor in our own
	 * memory, with its names and parameter values but no code (run and
	 * setup are NULL).  From cbench_library_load(): the object's own. */
	const struct cbench_desc *desc;
	/* The parameter set: a value per key (pointing into lib's params),
	 * what the benchmark's ctx->args gets; param is args[0].i (0 without). */
	struct cbench_arg args[CBENCH_KEYS_MAX];
	uint32_t nargs;
	/* 1 + the index of the arg bytes_per_rep is multiplied by
	 * (CBENCH_F_BYTES_PER_PARAM); 0 for none. */
	uint32_t size_arg;
	int has_param;
	int64_t param;
	/* C name with "/key=value...", e.g. "copy/size=64/align=8". */
	char id[CBENCH_ID_MAX];
	/* Go benchmark data format name, e.g. "BenchmarkCopy/size=64". */
	char report_name[CBENCH_REPORT_NAME_MAX];
};

/* A Go benchmark name without its "Benchmark", as the table and the
 * progress line show it: "AddChain", "Copy/size=64". */
static inline const char *cbench_bench_title(const char *report_name)
{
	return strncmp(report_name, "Benchmark", 9) ? report_name : report_name + 9;
}

struct cbench_library {
	void *handle;			/* NULL where the object is not loaded here */
	char path[4096];
	/* GNU build-id as hex, else "sha:"-less content hash "fnv1a64:<hex>". */
	char build_id[80];
	const struct cbench_desc *const *descs;
	size_t ndescs;
	/* Each descriptor's parameters, read and checked (ndescs of them). */
	struct cbench_params *params;
	struct cbench_experiment *experiments;
	size_t nexperiments;
	/* cbench_library_open(): the descriptors' copies descs points to. */
	struct cbench_desc_copy *copies;
	const struct cbench_desc **copy_ptrs;
	/* cbench_library_load() of an object with ABI 1 descriptors: their
	 * full-size copies, and the pointers descs then is. */
	struct cbench_desc *upgraded;
	const struct cbench_desc **upgraded_ptrs;
	/* The descriptors in registration order (file, line), what descs
	 * then is; NULL if kept in the section's order. */
	const struct cbench_desc **ordered_ptrs;
	/* The object's loaded segments, to check descriptor pointers against. */
	struct {
		uintptr_t start, end;
		bool exec;
	} segments[16];
	size_t nsegments;
	/* cbench_library_load_only(): the descriptors checked and expanded
	 * (up to two names; NULL: every one). */
	const char *only[2];
	/* The descriptors as the section holds them, before any check
	 * upgraded or ordered them (cbench_library_load_another()). */
	const struct cbench_desc *const *section_descs;
	size_t section_ndescs;
};

/*
 * Loads path in a child process, which must finish within time_limit_s
 * seconds, and validates every descriptor; lib gets copies (no code).  On
 * failure returns -errno and writes a sentence for the user into err
 * (errlen bytes): a crash, an exit, a time-out or processes left behind by
 * the object's constructors are failures like any other.
 */
int cbench_library_open(struct cbench_library *lib, const char *path, double time_limit_s,
			char *err, size_t errlen);

/*
 * Loads path into this process (dlopen, constructors and all) and validates
 * every descriptor.  Only for a process that may die of it: a worker.
 */
int cbench_library_load(struct cbench_library *lib, const char *path, char *err, size_t errlen);

/*
 * The same for a worker that measures one benchmark, or two (b NULL: one):
 * only the descriptors named a and b are checked, their parameter sets
 * read and expanded into experiments; what the whole object must pass
 * (distinct names, names benchstat reads) cbenchctl checked when it opened
 * it, and cbench_experiment_find() checks it is the same build.  A trial's
 * worker of an object of 512 benchmarks then does not check all 512
 * again (every name against every other: 131,000 string compares).
 */
int cbench_library_load_only(struct cbench_library *lib, const char *path, const char *a,
			     const char *b, char *err, size_t errlen);

/*
 * The same again in a worker that holds have (loaded by one of the above
 * from the same object): the object is not read or loaded again, only
 * descriptor a checked and expanded into lib.  For a worker that measures
 * one benchmark after another (phase.h's standing workers).
 */
int cbench_library_load_another(struct cbench_library *lib, const struct cbench_library *have,
				const char *a, char *err, size_t errlen);
void cbench_library_close(struct cbench_library *lib);

/*
 * In a worker: the experiment of live (loaded here) that is `want` (from
 * cbenchctl's cbench_library_open()), checked to be the same benchmark of
 * the same build.  Returns 0 or -ESTALE with a sentence in err.
 */
int cbench_experiment_find(const struct cbench_library *live, const struct cbench_experiment *want,
			   const struct cbench_experiment **found, char *err, size_t errlen);

/*
 * Checks one descriptor, its parameters too.  Returns 0 or -EINVAL/-EPROTO
 * (newer ABI)/-ERANGE with a sentence in err.  Reads only the version
 * fields before knowing the ABI.
 */
int cbench_desc_check(const struct cbench_desc *d, char *err, size_t errlen);

/*
 * Set in cbenchctl's copies of a descriptor (which hold no code) whose
 * object's descriptor has per-rep hooks; never in an object's.
 */
#define CBENCH_DESC_F_PER_REP (1u << 31)

/* sizeof(struct cbench_desc) in ABI version `abi` (1 to 3); 0 for others. */
static inline size_t cbench_desc_bytes(uint32_t abi)
{
	switch (abi) {
	case 1:
		return CBENCH_DESC_V1_BYTES;
	case 2:
		return CBENCH_DESC_V2_BYTES;
	case CBENCH_ABI_VERSION:
		return sizeof(struct cbench_desc);
	default:
		return 0;
	}
}

/* Whether d's benchmark is measured one call at a time, with its hooks
 * around each (the object's descriptor, or cbenchctl's copy of one). */
static inline bool cbench_desc_per_rep(const struct cbench_desc *d)
{
	return (d->flags & CBENCH_DESC_F_PER_REP) || d->before_rep || d->after_rep;
}

/* "add_chain" -> "AddChain"; writes at most len bytes with the NUL. */
void cbench_camel_name(const char *snake, char *out, size_t len);

/* A benchmark name the Go benchmark format allows: Benchmark, then an upper-case
 * letter or nothing, no white space. */
bool cbench_go_valid_name(const char *name);

#endif /* _CBENCH_LOADER_H */
