/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loading a benchmark shared object: dlopen, find the registered
 * descriptors, check them, expand parameter sweeps into experiments.
 */
#ifndef _CBENCH_LOADER_H
#define _CBENCH_LOADER_H

#include <stdbool.h>
#include <stdint.h>

#include <cbench.h>

/* Longest report name: "Benchmark" + CamelName + "/param=value". */
#define CBENCH_REPORT_NAME_MAX (16 + 2 * CBENCH_NAME_MAX + 24)

struct cbench_library;

/* One benchmark at one parameter value: what one worker process measures. */
struct cbench_experiment {
	/* The object it comes from (path, build id): a backend that loads the
	 * code elsewhere, such as cbench.ko, starts from there. */
	const struct cbench_library *lib;
	const struct cbench_desc *desc;
	int64_t param;
	int has_param;
	/* C name with "/param=value", e.g. "copy/size=64". */
	char id[CBENCH_NAME_MAX + 32];
	/* Go benchmark data format name, e.g. "BenchmarkCopy/size=64". */
	char report_name[CBENCH_REPORT_NAME_MAX];
};

struct cbench_library {
	void *handle;
	char path[4096];
	/* GNU build-id as hex, else "sha:"-less content hash "fnv1a64:<hex>". */
	char build_id[80];
	const struct cbench_desc *const *descs;
	size_t ndescs;
	struct cbench_experiment *experiments;
	size_t nexperiments;
	/* The object's loaded segments, to check descriptor pointers against. */
	struct {
		uintptr_t start, end;
		bool exec;
	} segments[16];
	size_t nsegments;
};

/*
 * Opens path and validates every descriptor.  On failure returns -errno and
 * writes a sentence for the user into err (errlen bytes).
 */
int cbench_library_open(struct cbench_library *lib, const char *path, char *err, size_t errlen);
void cbench_library_close(struct cbench_library *lib);

/*
 * Checks one descriptor.  Returns 0 or -EINVAL/-EPROTO (newer ABI) with a
 * sentence in err.  Reads only the version fields before knowing the ABI.
 */
int cbench_desc_check(const struct cbench_desc *d, char *err, size_t errlen);

/* "add_chain" -> "AddChain"; writes at most len bytes with the NUL. */
void cbench_camel_name(const char *snake, char *out, size_t len);

#endif /* _CBENCH_LOADER_H */
