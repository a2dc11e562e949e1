/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A benchmark's named parameters, as cbenchctl keeps them: each key with
 * its values listed (ranges expanded), and the sets to run as an index per
 * key.  Built from a descriptor's keys (ABI 3), or from its one .param_name
 * and .params (ABI 1 and 2), so that everything past the loader sees one
 * form.  The sets are the product of the keys' values, last key fastest,
 * or the descriptor's CBENCH_SETS() list.
 */
#ifndef _CBENCH_PARAMS_H
#define _CBENCH_PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cbench.h>

/* Longest "/key=value/key=value..." part of a name, with the NUL. */
#define CBENCH_PARAMS_NAME_MAX 192

struct cbench_param_key {
	char name[CBENCH_NAME_MAX];
	bool strings;
	uint32_t count;
	int64_t ints[CBENCH_PARAMS_MAX];		/* an integer key's values */
	char (*strs)[CBENCH_STR_MAX];			/* a string key's, count of them */
};

struct cbench_params {
	uint32_t nkeys;
	bool listed;			/* the sets are CBENCH_SETS(), not the product */
	uint32_t nsets;
	uint8_t (*sets)[CBENCH_KEYS_MAX];	/* nsets sets: a value index per key */
	struct cbench_param_key keys[CBENCH_KEYS_MAX];
};

/* Whether [p, p + bytes) may be read: the loader's check that a pointer lies
 * in the object; NULL to trust every pointer. */
typedef bool (*cbench_readable_fn)(const void *arg, const void *p, size_t bytes);

/*
 * Reads d's parameters (d checked by cbench_desc_check() up to its keys)
 * into p, every pointer checked with readable(arg, ...) first.  Returns 0,
 * or -EINVAL/-ERANGE/-ENOMEM with a sentence naming the benchmark and the
 * declaration at fault in err.  cbench_params_free() p either way.
 */
int cbench_params_read(const struct cbench_desc *d, cbench_readable_fn readable, const void *arg,
		       struct cbench_params *p, char *err, size_t errlen);

/*
 * The checks every parameter table passes, whether read from an object or
 * received from the child that read it: keys, values, sets, the names they
 * make (Go benchmark names benchstat splits into keys), and d's byte count
 * per rep where it scales with the first key.
 */
int cbench_params_check(const struct cbench_desc *d, const struct cbench_params *p, char *err,
			size_t errlen);

/* "/key=value/..." of set s (empty without keys).  Returns its length, or
 * -ENAMETOOLONG if it does not fit len bytes. */
int cbench_params_name(const struct cbench_params *p, uint32_t s, char *buf, size_t len);

/* Set s as a context's args (pointing into p); returns how many. */
uint32_t cbench_params_args(const struct cbench_params *p, uint32_t s, struct cbench_arg *args);

/* The key bytes_per_rep scales with under CBENCH_F_BYTES_PER_PARAM: the
 * first integer key; -1 if none. */
int cbench_params_size_key(const struct cbench_params *p);

/* The sets to run: 1 without keys. */
static inline uint32_t cbench_params_nsets(const struct cbench_params *p)
{
	return p->nkeys ? p->nsets : 1;
}

void cbench_params_free(struct cbench_params *p);

#endif /* _CBENCH_PARAMS_H */
