// SPDX-License-Identifier: GPL-2.0
/*
 * `cbenchctl compare old.txt new.txt`: two Go-format reports side by side.
 * Per benchmark: the minimum ns/op of each (the headline estimate), their
 * difference, and whether the trials differ at all by the Mann-Whitney U
 * test (as benchstat does): p < 0.05 says "faster"/"slower", else "~".
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elffile.h"
#include "run.h"
#include "stats.h"
#include "subcommands.h"

/* Significance level for calling a difference. */
#define COMPARE_ALPHA 0.05
/* Largest report we read, in bytes: a million trials' lines fit in a
 * tenth of it. */
#define COMPARE_MAX_BYTES (1024 << 20)

struct series {
	char name[256];
	double *v;
	size_t n, cap;
};

/*
 * The series of one file in the order first seen, and a hash index over
 * their names (open addressing, linear probing, at most half full): two
 * files of 100,000 benchmarks each took 15 s with a linear search.
 */
struct go_file {
	struct series *s;
	size_t n, cap;
	size_t *slots;			/* series index + 1; 0 for an empty slot */
	size_t nslots;			/* a power of two */
};

static uint64_t name_hash(const char *name)
{
	uint64_t h = 0xcbf29ce484222325ULL;	/* FNV-1a */

	for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
		h ^= *p;
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* The slot that holds name, or the empty one where it would go. */
static size_t *slot_of(const struct go_file *g, const char *name)
{
	size_t mask = g->nslots - 1, i = (size_t)name_hash(name) & mask;

	while (g->slots[i] && strcmp(g->s[g->slots[i] - 1].name, name))
		i = (i + 1) & mask;
	return &g->slots[i];
}

static int grow_index(struct go_file *g)
{
	size_t nslots = g->nslots ? g->nslots * 2 : 64;
	size_t *slots = calloc(nslots, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	free(g->slots);
	g->slots = slots;
	g->nslots = nslots;
	for (size_t i = 0; i < g->n; i++)
		*slot_of(g, g->s[i].name) = i + 1;
	return 0;
}

static struct series *find(struct go_file *g, const char *full_name, bool add)
{
	char name[sizeof(g->s->name)];
	size_t *slot;

	/* As stored: a longer name is cut, and must still find itself. */
	snprintf(name, sizeof(name), "%s", full_name);
	if (g->nslots) {
		slot = slot_of(g, name);
		if (*slot)
			return &g->s[*slot - 1];
	}
	if (!add)
		return NULL;
	if (2 * (g->n + 1) > g->nslots && grow_index(g))
		return NULL;
	if (g->n == g->cap) {
		size_t cap = g->cap ? g->cap * 2 : 16;
		struct series *s = realloc(g->s, cap * sizeof(*s));

		if (!s)
			return NULL;
		g->s = s;
		g->cap = cap;
	}
	memset(&g->s[g->n], 0, sizeof(g->s[g->n]));
	memcpy(g->s[g->n].name, name, sizeof(name));
	*slot_of(g, name) = g->n + 1;
	return &g->s[g->n++];
}

static int push(struct series *s, double v)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;
		double *nv = realloc(s->v, cap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		s->v = nv;
		s->cap = cap;
	}
	s->v[s->n++] = v;
	return 0;
}

/*
 * Opens a report to read: a regular file of at most COMPARE_MAX_BYTES.  We
 * open without blocking (a FIFO would wait for a writer) and look before
 * reading (a device such as /dev/zero never ends).
 */
static FILE *open_report(const char *path, int *ret, char *why, size_t len)
{
	struct stat st;
	FILE *f;
	int fd;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) || fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)) {
		*ret = -errno;
		snprintf(why, len, "%s", strerror(errno));
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		*ret = S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
		snprintf(why, len, "it is %s, not a report", cbench_file_kind(st.st_mode));
		goto fail;
	}
	if (st.st_size > COMPARE_MAX_BYTES) {
		*ret = -EFBIG;
		snprintf(why, len, "it is larger than %d MiB, the most compare reads", COMPARE_MAX_BYTES >> 20);
		goto fail;
	}
	f = fdopen(fd, "r");
	if (!f) {
		*ret = -errno;
		snprintf(why, len, "%s", strerror(errno));
		goto fail;
	}
	return f;
fail:
	if (fd >= 0)
		close(fd);
	return NULL;
}

/* Collects the ns/op values of every result line.  Returns 0 or -errno
 * with a sentence in why. */
static int parse(const char *path, struct go_file *g, char *why, size_t len)
{
	char line[4096];
	uint64_t bytes = 0, lineno = 1;
	int ret = 0;
	FILE *f = open_report(path, &ret, why, len);

	if (!f)
		return ret;
	while (!ret && fgets(line, sizeof(line), f)) {
		char *save = NULL, *name, *tok, *value = NULL, *end;
		struct series *s;
		size_t line_bytes = strlen(line);
		uint64_t at = lineno;
		int field = 0;
		double v;

		/* fgets() may return part of a longer line. */
		lineno += line_bytes && line[line_bytes - 1] == '\n';
		/* The file may grow while we read it. */
		bytes += line_bytes;
		if (bytes > COMPARE_MAX_BYTES) {
			ret = -EFBIG;
			snprintf(why, len, "it is larger than %d MiB, the most compare reads",
				 COMPARE_MAX_BYTES >> 20);
			break;
		}
		if (strncmp(line, "Benchmark", 9) || (line[9] && !isupper((unsigned char)line[9]) &&
						      !isspace((unsigned char)line[9])))
			continue;
		name = strtok_r(line, " \t\n", &save);
		while ((tok = strtok_r(NULL, " \t\n", &save))) {
			field++;
			if (field >= 2 && field % 2 == 0)
				value = tok;
			else if (field >= 3 && !strcmp(tok, "ns/op") && value)
				break;
		}
		if (!tok || !value)
			continue;
		/* A time is finite and positive: nan, inf, -1 or 0 would
		 * print "nan ... slower" or a made-up change. */
		errno = 0;
		v = strtod(value, &end);
		if (end == value || *end || errno == ERANGE || !isfinite(v) || !(v > 0)) {
			snprintf(why, len, "line %" PRIu64 ": %s: ns/op value '%.40s' is not a finite, "
				 "positive number", at, name, value);
			ret = -EINVAL;
			break;
		}
		s = find(g, name, true);
		ret = s ? push(s, v) : -ENOMEM;
		if (ret)
			snprintf(why, len, "%s", strerror(-ret));
	}
	if (!ret && ferror(f)) {
		ret = -EIO;
		snprintf(why, len, "%s", strerror(EIO));
	}
	fclose(f);
	return ret;
}

static void release(struct go_file *g)
{
	for (size_t i = 0; i < g->n; i++)
		free(g->s[i].v);
	free(g->s);
	free(g->slots);
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s compare <old.txt> <new.txt>\n"
		"\n"
		"Compares two reports in the Go benchmark data format (cbenchctl run's\n"
		"default): minimum ns/op of each, the change, and the Mann-Whitney U test\n"
		"over the trials (p < %.2f: a difference; \"~\": none shown).\n",
		cbench_prog, COMPARE_ALPHA);
}

int cbench_cmd_compare(int argc, char *argv[])
{
	struct go_file old = { 0 }, new = { 0 };
	char why[512];
	int ret, status = 1;

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		usage(stdout);
		return 0;
	}
	if (argc != 3) {
		usage(stderr);
		return 1;
	}
	ret = parse(argv[1], &old, why, sizeof(why));
	if (ret) {
		fprintf(stderr, "%s: unable to read %s: %s\n", cbench_prog, argv[1], why);
		goto out;
	}
	ret = parse(argv[2], &new, why, sizeof(why));
	if (ret) {
		fprintf(stderr, "%s: unable to read %s: %s\n", cbench_prog, argv[2], why);
		goto out;
	}
	if (!old.n || !new.n) {
		fprintf(stderr, "%s: unable to compare: %s has no result lines\n", cbench_prog,
			!old.n ? argv[1] : argv[2]);
		goto out;
	}
	printf("%-40s %14s %14s %9s %8s %7s\n", "benchmark", "old ns/op", "new ns/op", "delta", "p",
	       "n");
	for (size_t i = 0; i < old.n; i++) {
		const struct series *a = &old.s[i], *b = find(&new, a->name, false);
		double amin, bmin, p;
		const char *verdict;

		if (!b) {
			printf("%-40s %14.4f %14s\n", a->name + 9, cbench_stats_min(a->v, a->n), "(absent)");
			continue;
		}
		amin = cbench_stats_min(a->v, a->n);
		bmin = cbench_stats_min(b->v, b->n);
		p = cbench_stats_mann_whitney_p(a->v, a->n, b->v, b->n);
		if (isnan(p) || p >= COMPARE_ALPHA)
			verdict = "~";
		else
			verdict = cbench_stats_median(b->v, b->n) < cbench_stats_median(a->v, a->n) ?
				  "faster" : "slower";
		printf("%-40s %14.4f %14.4f %+8.2f%% ", a->name + 9, amin, bmin, 100 * (bmin - amin) / amin);
		if (isnan(p))
			printf("%8s", "n/a");
		else
			printf("%8.3f", p);
		printf(" %3zu+%-3zu %s\n", a->n, b->n, verdict);
	}
	for (size_t i = 0; i < new.n; i++) {
		if (!find(&old, new.s[i].name, false))
			printf("%-40s %14s %14.4f\n", new.s[i].name + 9, "(absent)",
			       cbench_stats_min(new.s[i].v, new.s[i].n));
	}
	status = 0;
out:
	release(&old);
	release(&new);
	return status;
}
