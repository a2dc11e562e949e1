// SPDX-License-Identifier: GPL-2.0
/*
 * Named parameters: reading a descriptor's declaration into one table,
 * checking it, and naming its sets.
 *
 * A declaration is refused here, with the benchmark and the key named,
 * rather than run wrong: a key twice, a value a Go benchmark name cannot
 * carry (benchstat splits names at '/' and '=', and reads a trailing "-N"
 * as GOMAXPROCS), a range that never ends, more combinations than
 * CBENCH_SETS_MAX.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "object/params.h"

/* Most bytes or operations one rep may claim (descs.c says why). */
#define COUNT_MAX (1ULL << 40)

static bool readable(cbench_readable_fn fn, const void *arg, const void *p, size_t bytes)
{
	return p && (!fn || fn(arg, p, bytes));
}

/* Copies the string at s (at most max - 1 bytes, every byte readable). */
static bool copy_string(cbench_readable_fn fn, const void *arg, const char *s, char *out, size_t max)
{
	for (size_t i = 0; i < max; i++) {
		if (!readable(fn, arg, s + i, 1))
			return false;
		out[i] = s[i];
		if (!s[i])
			return true;
	}
	return false;
}

static bool is_identifier(const char *s)
{
	if (!(isalpha((unsigned char)s[0]) || s[0] == '_'))
		return false;
	for (const char *c = s; *c; c++) {
		if (!isalnum((unsigned char)*c) && *c != '_')
			return false;
	}
	return true;
}

/* A string value a Go benchmark name carries whole: letters, digits, "_.+:-". */
static bool is_value_string(const char *s)
{
	if (!s[0])
		return false;
	for (const char *c = s; *c; c++) {
		if (!isalnum((unsigned char)*c) && !strchr("_.+:-", *c))
			return false;
	}
	return true;
}

/* Whether a name ending in s would end in "-N", which benchstat reads as GOMAXPROCS. */
static bool ends_like_gomaxprocs(const char *s)
{
	size_t n = strlen(s), i = n;

	while (i > 0 && isdigit((unsigned char)s[i - 1]))
		i--;
	return i > 0 && i < n && s[i - 1] == '-';
}

static int add_int(struct cbench_param_key *k, int64_t v, const char *bench, char *err, size_t errlen)
{
	if (k->count >= CBENCH_PARAMS_MAX) {
		snprintf(err, errlen, "benchmark %s: key %s has more than %d values; a key takes at most "
			 "%d (use a larger multiplier or step)", bench, k->name, CBENCH_PARAMS_MAX,
			 CBENCH_PARAMS_MAX);
		return -ERANGE;
	}
	k->ints[k->count++] = v;
	return 0;
}

/* CBENCH_RANGE: lo, every power of by strictly between lo and hi, and hi
 * (Google Benchmark's Range). */
static int expand_range(const struct cbench_key *src, struct cbench_param_key *k, const char *bench,
			char *err, size_t errlen)
{
	int ret;

	if (src->by < 2 || src->lo < 1 || src->hi < src->lo) {
		snprintf(err, errlen, "benchmark %s: key %s is CBENCH_RANGE(%" PRId64 ", %" PRId64 ", %" PRId64
			 "), which %s: a range runs from a start of at least 1 up to a stop no smaller, "
			 "by a multiplier of at least 2", bench, k->name, src->lo, src->hi, src->by,
			 src->by < 2 ? "never ends" : "is empty or starts below 1");
		return -EINVAL;
	}
	ret = add_int(k, src->lo, bench, err, errlen);
	for (int64_t p = 1; !ret && p < src->hi; ) {
		if (p > src->lo)
			ret = add_int(k, p, bench, err, errlen);
		if (p > INT64_MAX / src->by)
			break;
		p *= src->by;
	}
	if (!ret && src->hi != src->lo)
		ret = add_int(k, src->hi, bench, err, errlen);
	return ret;
}

/* CBENCH_DENSE: lo, lo + by, ... up to hi. */
static int expand_dense(const struct cbench_key *src, struct cbench_param_key *k, const char *bench,
			char *err, size_t errlen)
{
	int ret = 0;

	if (src->by < 1 || src->hi < src->lo) {
		snprintf(err, errlen, "benchmark %s: key %s is CBENCH_DENSE(%" PRId64 ", %" PRId64 ", %" PRId64
			 "), which %s: a dense range runs from a start up to a stop no smaller, by a "
			 "step of at least 1", bench, k->name, src->lo, src->hi, src->by,
			 src->by < 1 ? "never ends" : "is empty");
		return -EINVAL;
	}
	for (int64_t v = src->lo; !ret; v += src->by) {
		ret = add_int(k, v, bench, err, errlen);
		/* The distance to hi, unsigned: hi - v may not fit an int64. */
		if ((uint64_t)src->hi - (uint64_t)v < (uint64_t)src->by)
			break;
	}
	return ret;
}

static int read_list(cbench_readable_fn fn, const void *arg, const struct cbench_key *src,
		     struct cbench_param_key *k, const char *bench, char *err, size_t errlen)
{
	if (!src->count || src->count > CBENCH_PARAMS_MAX) {
		snprintf(err, errlen, "benchmark %s: key %s lists %" PRIu32 " values; a key takes 1 to %d",
			 bench, k->name, src->count, CBENCH_PARAMS_MAX);
		return -EINVAL;
	}
	if (src->kind == CBENCH_KEY_INTS) {
		if (!readable(fn, arg, src->ints, src->count * sizeof(*src->ints)))
			goto outside;
		memcpy(k->ints, src->ints, src->count * sizeof(*src->ints));
		k->count = src->count;
		return 0;
	}
	if (!readable(fn, arg, src->strs, src->count * sizeof(*src->strs)))
		goto outside;
	k->strings = true;
	k->strs = calloc(src->count, sizeof(*k->strs));
	if (!k->strs)
		return -ENOMEM;
	for (uint32_t i = 0; i < src->count; i++) {
		if (!src->strs[i] || !readable(fn, arg, src->strs[i], 1))
			goto outside;
		if (!copy_string(fn, arg, src->strs[i], k->strs[i], CBENCH_STR_MAX)) {
			snprintf(err, errlen, "benchmark %s: key %s's value %" PRIu32 " is longer than %d bytes "
				 "(or lies outside the object)", bench, k->name, i, CBENCH_STR_MAX - 1);
			return -EINVAL;
		}
		k->count++;
	}
	return 0;
outside:
	snprintf(err, errlen, "benchmark %s: key %s's values lie outside the object", bench, k->name);
	return -EINVAL;
}

static int read_key(cbench_readable_fn fn, const void *arg, const struct cbench_key *src,
		    struct cbench_param_key *k, const char *bench, char *err, size_t errlen)
{
	if (!src->name || !copy_string(fn, arg, src->name, k->name, sizeof(k->name))) {
		snprintf(err, errlen, "benchmark %s: a key's name is missing, longer than %d bytes or "
			 "outside the object", bench, CBENCH_NAME_MAX - 1);
		return -EINVAL;
	}
	switch (src->kind) {
	case CBENCH_KEY_INTS:
	case CBENCH_KEY_STRS:
		return read_list(fn, arg, src, k, bench, err, errlen);
	case CBENCH_KEY_RANGE:
		return expand_range(src, k, bench, err, errlen);
	case CBENCH_KEY_DENSE:
		return expand_dense(src, k, bench, err, errlen);
	default:
		snprintf(err, errlen, "benchmark %s: key %s has unknown kind %" PRIu32 " (declare keys "
			 "with CBENCH_INTS, CBENCH_STRS, CBENCH_RANGE or CBENCH_DENSE)", bench, k->name,
			 src->kind);
		return -EINVAL;
	}
}

/* The index in k's values of a set's value v (a string key's: v itself). */
static int set_index(const struct cbench_param_key *k, int64_t v)
{
	if (k->strings)
		return v >= 0 && v < k->count ? (int)v : -1;
	for (uint32_t i = 0; i < k->count; i++) {
		if (k->ints[i] == v)
			return (int)i;
	}
	return -1;
}

static int read_sets(cbench_readable_fn fn, const void *arg, const struct cbench_desc *d,
		     struct cbench_params *p, char *err, size_t errlen)
{
	uint32_t n = d->nset_values / p->nkeys;

	if (d->nset_values % p->nkeys || !d->nset_values || n > CBENCH_SETS_MAX) {
		snprintf(err, errlen, "benchmark %s: CBENCH_SETS() gives %" PRIu32 " values for %" PRIu32
			 " keys; it takes one value per key for each set, 1 to %d sets", d->name,
			 d->nset_values, p->nkeys, CBENCH_SETS_MAX);
		return -EINVAL;
	}
	if (!readable(fn, arg, d->sets, d->nset_values * sizeof(*d->sets))) {
		snprintf(err, errlen, "benchmark %s: its sets lie outside the object", d->name);
		return -EINVAL;
	}
	p->sets = calloc(n, sizeof(*p->sets));
	if (!p->sets)
		return -ENOMEM;
	for (uint32_t s = 0; s < n; s++) {
		for (uint32_t k = 0; k < p->nkeys; k++) {
			int64_t v = d->sets[s * p->nkeys + k];
			int i = set_index(&p->keys[k], v);

			if (i < 0) {
				snprintf(err, errlen, "benchmark %s: set %" PRIu32 " gives %s %" PRId64 ", which "
					 "is not among the key's values (a set picks one value of each "
					 "key; a string key's by its index)", d->name, s + 1,
					 p->keys[k].name, v);
				return -EINVAL;
			}
			p->sets[s][k] = (uint8_t)i;
		}
	}
	p->nsets = n;
	p->listed = true;
	return 0;
}

/* Every combination, the last key varying fastest. */
static int product(const struct cbench_desc *d, struct cbench_params *p, char *err, size_t errlen)
{
	uint64_t n = 1;

	for (uint32_t k = 0; k < p->nkeys; k++) {
		n *= p->keys[k].count;
		if (n > CBENCH_SETS_MAX) {
			snprintf(err, errlen, "benchmark %s: its keys make more than %d combinations; list the "
				 "ones to run with CBENCH_SETS() or give the keys fewer values", d->name,
				 CBENCH_SETS_MAX);
			return -ERANGE;
		}
	}
	p->sets = calloc(n, sizeof(*p->sets));
	if (!p->sets)
		return -ENOMEM;
	for (uint64_t s = 0; s < n; s++) {
		uint64_t rest = s;

		for (uint32_t k = p->nkeys; k-- > 0;) {
			p->sets[s][k] = (uint8_t)(rest % p->keys[k].count);
			rest /= p->keys[k].count;
		}
	}
	p->nsets = (uint32_t)n;
	return 0;
}

/* ABI 1 and 2: one integer key, .param_name with .params. */
static int read_old(cbench_readable_fn fn, const void *arg, const struct cbench_desc *d,
		    struct cbench_params *p, char *err, size_t errlen)
{
	struct cbench_key one = { .name = d->param_name, .kind = CBENCH_KEY_INTS, .count = d->nparams,
				  .ints = d->params };

	p->nkeys = 1;
	return read_key(fn, arg, &one, &p->keys[0], d->name, err, errlen);
}

int cbench_params_read(const struct cbench_desc *d, cbench_readable_fn fn, const void *arg,
		       struct cbench_params *p, char *err, size_t errlen)
{
	bool keys = d->abi_version >= 3 && (d->nkeys || d->keys);
	int ret;

	memset(p, 0, sizeof(*p));
	if (keys && (d->nparams || d->param_name)) {
		snprintf(err, errlen, "benchmark %s declares both .param_name/CBENCH_PARAMS and CBENCH_KEYS: "
			 "declare its parameters once, with CBENCH_KEYS", d->name);
		return -EINVAL;
	}
	if (!keys) {
		if (d->abi_version >= 3 && (d->nset_values || d->sets))
			goto sets_without_keys;
		if (!d->nparams)
			return 0;
		ret = read_old(fn, arg, d, p, err, errlen);
		return ret ? ret : product(d, p, err, errlen);
	}
	if (!d->nkeys || d->nkeys > CBENCH_KEYS_MAX ||
	    !readable(fn, arg, d->keys, d->nkeys * sizeof(*d->keys))) {
		snprintf(err, errlen, "benchmark %s declares %" PRIu32 " keys%s; CBENCH_KEYS takes 1 to %d",
			 d->name, d->nkeys, d->nkeys && d->nkeys <= CBENCH_KEYS_MAX ?
			 " outside the object" : "", CBENCH_KEYS_MAX);
		return -EINVAL;
	}
	for (uint32_t k = 0; k < d->nkeys; k++) {
		p->nkeys = k + 1;
		ret = read_key(fn, arg, &d->keys[k], &p->keys[k], d->name, err, errlen);
		if (ret)
			return ret;
	}
	if (d->nset_values || d->sets)
		return read_sets(fn, arg, d, p, err, errlen);
	return product(d, p, err, errlen);

sets_without_keys:
	snprintf(err, errlen, "benchmark %s lists CBENCH_SETS() but declares no CBENCH_KEYS", d->name);
	return -EINVAL;
}

/* The longest value of key k as printed in a name. */
static size_t value_width(const struct cbench_param_key *k)
{
	size_t w = 0;

	for (uint32_t i = 0; i < k->count; i++) {
		char buf[24];
		size_t n = k->strings ? strlen(k->strs[i]) :
			   (size_t)snprintf(buf, sizeof(buf), "%" PRId64, k->ints[i]);

		w = n > w ? n : w;
	}
	return w;
}

static int check_key(const struct cbench_desc *d, const struct cbench_params *p, uint32_t n, char *err,
		     size_t errlen)
{
	const struct cbench_param_key *k = &p->keys[n];

	if (!memchr(k->name, '\0', sizeof(k->name)) || !is_identifier(k->name)) {
		snprintf(err, errlen, "benchmark %s: key %.*s is not an identifier (letters, digits, '_')",
			 d->name, CBENCH_NAME_MAX - 1, k->name);
		return -EINVAL;
	}
	for (uint32_t j = 0; j < n; j++) {
		if (!strcmp(p->keys[j].name, k->name)) {
			snprintf(err, errlen, "benchmark %s declares key %s twice", d->name, k->name);
			return -EINVAL;
		}
	}
	if (!k->count || k->count > CBENCH_PARAMS_MAX || (k->strings && !k->strs)) {
		snprintf(err, errlen, "benchmark %s: key %s has %" PRIu32 " values; a key takes 1 to %d",
			 d->name, k->name, k->count, CBENCH_PARAMS_MAX);
		return -EINVAL;
	}
	for (uint32_t i = 0; i < k->count; i++) {
		if (k->strings && (!memchr(k->strs[i], '\0', CBENCH_STR_MAX) || !is_value_string(k->strs[i]))) {
			snprintf(err, errlen, "benchmark %s: key %s's value \"%.*s\" would break its Go "
				 "benchmark name: a string value is 1 to %d letters, digits or \"_.+:-\"",
				 d->name, k->name, CBENCH_STR_MAX - 1, k->strs[i], CBENCH_STR_MAX - 1);
			return -EINVAL;
		}
		for (uint32_t j = 0; j < i; j++) {
			if (k->strings ? !strcmp(k->strs[i], k->strs[j]) : k->ints[i] == k->ints[j]) {
				snprintf(err, errlen, "benchmark %s: key %s lists a value twice (value %" PRIu32
					 " and %" PRIu32 ")", d->name, k->name, j + 1, i + 1);
				return -EINVAL;
			}
		}
		/* Only the end of a name can look like GOMAXPROCS; a .param_name
		 * sweep keeps the names it always had. */
		if (d->abi_version >= 3 && d->nkeys && n + 1 == p->nkeys &&
		    (k->strings ? ends_like_gomaxprocs(k->strs[i]) : k->ints[i] < 0)) {
			char value[CBENCH_STR_MAX];

			if (k->strings)
				snprintf(value, sizeof(value), "%s", k->strs[i]);
			else
				snprintf(value, sizeof(value), "%" PRId64, k->ints[i]);
			snprintf(err, errlen, "benchmark %s: the last key, %s, may not take a value ending in "
				 "'-' and digits (%s=%s): benchstat would read it as GOMAXPROCS; "
				 "declare another key after it", d->name, k->name, k->name, value);
			return -EINVAL;
		}
	}
	return 0;
}

static int check_sets(const struct cbench_desc *d, const struct cbench_params *p, char *err, size_t errlen)
{
	if (!p->nsets || p->nsets > CBENCH_SETS_MAX || !p->sets) {
		snprintf(err, errlen, "benchmark %s has %" PRIu32 " parameter sets; it may have 1 to %d",
			 d->name, p->nsets, CBENCH_SETS_MAX);
		return -EINVAL;
	}
	for (uint32_t s = 0; s < p->nsets; s++) {
		for (uint32_t k = 0; k < p->nkeys; k++) {
			if (p->sets[s][k] >= p->keys[k].count) {
				snprintf(err, errlen, "benchmark %s: set %" PRIu32 " has no value of key %s",
					 d->name, s + 1, p->keys[k].name);
				return -EINVAL;
			}
		}
		for (uint32_t t = 0; p->listed && t < s; t++) {
			if (!memcmp(p->sets[s], p->sets[t], p->nkeys)) {
				snprintf(err, errlen, "benchmark %s lists the same set twice in CBENCH_SETS() "
					 "(sets %" PRIu32 " and %" PRIu32 ")", d->name, t + 1, s + 1);
				return -EINVAL;
			}
		}
	}
	return 0;
}

int cbench_params_size_key(const struct cbench_params *p)
{
	for (uint32_t k = 0; k < p->nkeys; k++) {
		if (!p->keys[k].strings)
			return (int)k;
	}
	return -1;
}

/* bytes_per_rep times the first integer key's value, under CBENCH_F_BYTES_PER_PARAM. */
static int check_bytes(const struct cbench_desc *d, const struct cbench_params *p, char *err, size_t errlen)
{
	int size = cbench_params_size_key(p);
	const struct cbench_param_key *k = &p->keys[size < 0 ? 0 : size];

	if (!(d->flags & CBENCH_F_BYTES_PER_PARAM) || !p->nkeys)
		return 0;
	if (size < 0) {
		snprintf(err, errlen, "benchmark %s counts bytes per parameter (CBENCH_F_BYTES_PER_PARAM), "
			 "but all its keys take strings: it needs an integer key, the size", d->name);
		return -EINVAL;
	}
	for (uint32_t i = 0; i < k->count; i++) {
		if (k->ints[i] <= 0) {
			snprintf(err, errlen, "benchmark %s counts bytes per %s, but sweeps %s=%" PRId64
				 ": a byte count must be positive", d->name, k->name, k->name, k->ints[i]);
			return -EINVAL;
		}
		if (d->bytes_per_rep && (uint64_t)k->ints[i] > COUNT_MAX / d->bytes_per_rep) {
			snprintf(err, errlen, "benchmark %s at %s=%" PRId64 " has bytes_per_rep x %s = %" PRIu64
				 " x %" PRId64 ", more than 2^40 bytes per rep", d->name, k->name, k->ints[i],
				 k->name, d->bytes_per_rep, k->ints[i]);
			return -ERANGE;
		}
	}
	return 0;
}

int cbench_params_check(const struct cbench_desc *d, const struct cbench_params *p, char *err, size_t errlen)
{
	size_t width = 0;
	int ret;

	if (p->nkeys > CBENCH_KEYS_MAX) {
		snprintf(err, errlen, "benchmark %s declares %" PRIu32 " keys; at most %d", d->name, p->nkeys,
			 CBENCH_KEYS_MAX);
		return -EINVAL;
	}
	if (!p->nkeys)
		return 0;
	for (uint32_t k = 0; k < p->nkeys; k++) {
		ret = check_key(d, p, k, err, errlen);
		if (ret)
			return ret;
		width += 2 + strlen(p->keys[k].name) + value_width(&p->keys[k]);
	}
	if (width >= CBENCH_PARAMS_NAME_MAX) {
		snprintf(err, errlen, "benchmark %s: its keys and values make names up to %zu bytes past the "
			 "benchmark's own; at most %d: use shorter keys or values", d->name, width,
			 CBENCH_PARAMS_NAME_MAX - 1);
		return -ENAMETOOLONG;
	}
	ret = check_sets(d, p, err, errlen);
	return ret ? ret : check_bytes(d, p, err, errlen);
}

int cbench_params_name(const struct cbench_params *p, uint32_t s, char *buf, size_t len)
{
	size_t at = 0;

	if (!len)
		return -ENAMETOOLONG;
	buf[0] = '\0';
	for (uint32_t k = 0; k < p->nkeys; k++) {
		const struct cbench_param_key *key = &p->keys[k];
		uint8_t i = p->sets[s][k];
		int n = key->strings ? snprintf(buf + at, len - at, "/%s=%s", key->name, key->strs[i]) :
			snprintf(buf + at, len - at, "/%s=%" PRId64, key->name, key->ints[i]);

		if (n < 0 || (size_t)n >= len - at)
			return -ENAMETOOLONG;
		at += (size_t)n;
	}
	return (int)at;
}

uint32_t cbench_params_args(const struct cbench_params *p, uint32_t s, struct cbench_arg *args)
{
	for (uint32_t k = 0; k < p->nkeys; k++) {
		const struct cbench_param_key *key = &p->keys[k];
		uint8_t i = p->sets[s][k];

		args[k] = (struct cbench_arg){
			.key = key->name,
			.str = key->strings ? key->strs[i] : NULL,
			.i = key->strings ? i : key->ints[i],
		};
	}
	return p->nkeys;
}

void cbench_params_free(struct cbench_params *p)
{
	for (uint32_t k = 0; k < CBENCH_KEYS_MAX; k++) {
		free(p->keys[k].strs);
		p->keys[k].strs = NULL;
	}
	free(p->sets);
	p->sets = NULL;
}
