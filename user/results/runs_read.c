// SPDX-License-Identifier: GPL-2.0
/* Run reports read as runs; see runs_read.h. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "object/elffile.h"
#include "report/figures.h"
#include "report/report.h"
#include "results/doc.h"
#include "results/runs_read.h"

/* Largest report we read, in bytes: a million trials' lines fit in a
 * tenth of it. */
#define RUNS_MAX_BYTES (1024 << 20)

/*
 * The rounding of a decimal number as printed: 0.270642 stands for
 * anything within half of 0.000001 of it.  Returns that unit (1e-6).
 */
static double unit_in_last_place(const char *s)
{
	const char *e = strpbrk(s, "eE"), *dot = strchr(s, '.');
	long exp10 = e ? strtol(e + 1, NULL, 10) : 0;
	long decimals = 0;

	if (dot && (!e || dot < e))
		decimals = (e ? e : s + strlen(s)) - dot - 1;
	return pow(10, (double)(exp10 - decimals));
}

/*
 * Opens a report to read: a regular file of at most RUNS_MAX_BYTES.  We
 * open without blocking (a FIFO would wait for a writer) and look before
 * reading (a device such as /dev/zero never ends).
 */
static FILE *open_report(const char *path, const char *cmd, struct stat *st, int *ret, char *why, size_t len)
{
	FILE *f;
	int fd;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 || fstat(fd, st) || fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)) {
		*ret = -errno;
		snprintf(why, len, "%s", strerror(errno));
		goto fail;
	}
	if (!S_ISREG(st->st_mode)) {
		*ret = S_ISDIR(st->st_mode) ? -EISDIR : -EINVAL;
		snprintf(why, len, "it is %s, not a report", cbench_file_kind(st->st_mode));
		goto fail;
	}
	if (st->st_size > RUNS_MAX_BYTES) {
		*ret = -EFBIG;
		snprintf(why, len, "it is larger than %d MiB, the most %s reads", RUNS_MAX_BYTES >> 20, cmd);
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

/* A configuration line, "key: value" (the Go benchmark format); a comment is not one. */
static bool config_line(const char *line)
{
	const char *colon = strchr(line, ':');
	char key[128];

	if (!colon || (size_t)(colon - line) >= sizeof(key) || !isspace((unsigned char)colon[1]))
		return false;
	memcpy(key, line, (size_t)(colon - line));
	key[colon - line] = '\0';
	return cbench_go_valid_key(key);
}

/* Notes a configuration line's value where it says where the run was measured. */
static void note_origin(struct cbench_origin *o, const char *line)
{
	static const struct { const char *key; size_t off, size; } keys[] = {
		{ "machine", offsetof(struct cbench_origin, machine), sizeof(o->machine) },
		{ "cpu-model", offsetof(struct cbench_origin, cpu_model), sizeof(o->cpu_model) },
		{ "backend", offsetof(struct cbench_origin, backend), sizeof(o->backend) },
	};
	const char *colon = strchr(line, ':');

	for (size_t k = 0; colon && k < sizeof(keys) / sizeof(keys[0]); k++) {
		const char *v = colon + 1 + strspn(colon + 1, " \t");

		/* The machine is its host name, which has no space: the Go
		 * line may add " (virtual machine)", JSON says that apart. */
		if ((size_t)(colon - line) == strlen(keys[k].key) &&
		    !strncmp(line, keys[k].key, (size_t)(colon - line)))
			snprintf((char *)o + keys[k].off, keys[k].size, "%.*s",
				 (int)strcspn(v, k == 0 ? " \t\r\n" : "\r\n"), v);
	}
}

/*
 * The value in unit of a result line, its token in *token; false for a
 * line that has none.
 */
static bool result_value(char *line, const char *unit, char **name, char **token)
{
	char *save = NULL, *tok, *value = NULL;
	int field = 0;

	if (strncmp(line, "Benchmark", 9) || (line[9] && !isupper((unsigned char)line[9]) &&
					      !isspace((unsigned char)line[9])))
		return false;
	*name = strtok_r(line, " \t\n", &save);
	while ((tok = strtok_r(NULL, " \t\n", &save))) {
		field++;
		if (field >= 2 && field % 2 == 0)
			value = tok;
		else if (field >= 3 && !strcmp(tok, unit) && value)
			break;
	}
	*token = value;
	return tok && value;
}

/* A time is finite, positive and decimal: nan, inf, -1, 0 or 0x10 would
 * print "nan ... slower" or a made-up change. */
static bool parse_time(const char *token, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(token, &end);
	return end != token && !*end && errno != ERANGE && isfinite(*v) && *v > 0 &&
	       !strpbrk(token, "xX");
}

/* The run's core clock from its core-clock line ("4.0900 to 4.1900 GHz over
 * the run ..."): the middle of its range. */
static void note_clock(struct cbench_runs *g, const char *line)
{
	double lo, hi;

	if (sscanf(line, "core-clock: %lf to %lf GHz", &lo, &hi) == 2 && lo > 0 && hi >= lo)
		g->run_clock = (lo + hi) / 2;
}

/* Whether the timer's step bounds the metric's figures: a time's, not a count's. */
static bool timed(const struct cbench_runs *g)
{
	return g->metric == CBENCH_METRIC_NS || g->metric == CBENCH_METRIC_EST_CYCLES;
}

/*
 * Reads one line into g: a result line's value goes to its benchmark's
 * current run; a configuration line after result lines starts the next
 * run (reports written one after another into one file).
 */
static int read_line(struct cbench_runs *g, char *line, uint64_t at, bool *results, char *why, size_t len)
{
	char *name, *token, step_of[sizeof(g->s->name)];
	double v;
	int ret;

	/* A benchmark's timer step, after its result lines (report_go.c). */
	if (cbench_go_step_share(line, step_of, sizeof(step_of), &v)) {
		if (timed(g))
			cbench_runs_step(g, step_of, v);
		return 0;
	}
	if (config_line(line)) {
		if (*results)
			g->run_clock = NAN;
		g->runs += *results;
		*results = false;
		note_origin(&g->cur, line);
		note_clock(g, line);
		g->checked = false;
		return 0;
	}
	if (!result_value(line, cbench_metric_units[g->metric], &name, &token))
		return 0;
	if (!g->checked && cbench_runs_origin(g, why, len))
		return -EINVAL;
	if (!parse_time(token, &v)) {
		snprintf(why, len, "line %" PRIu64 ": %s: %s value '%.40s' is not a finite, "
			 "positive number", at, name, cbench_metric_units[g->metric], token);
		return -EINVAL;
	}
	*results = true;
	ret = cbench_runs_add(g, name, v, unit_in_last_place(token), NAN, g->run_clock);
	if (ret)
		snprintf(why, len, "%s", strerror(-ret));
	return ret;
}

/* A JSON report's text from f, whole; NULL (and why) if too big or unread. */
static char *slurp(FILE *f, const char *cmd, size_t *n, char *why, size_t len)
{
	size_t cap = 1 << 16;
	char *text = malloc(cap), *bigger;

	*n = 0;
	while (text) {
		*n += fread(text + *n, 1, cap - *n, f);
		if (*n < cap)
			break;
		if (cap >= RUNS_MAX_BYTES) {
			snprintf(why, len, "it is larger than %d MiB, the most %s reads",
				 RUNS_MAX_BYTES >> 20, cmd);
			free(text);
			return NULL;
		}
		bigger = realloc(text, cap * 2);
		if (!bigger)
			free(text);
		text = bigger;
		cap *= 2;
	}
	if (!text || ferror(f)) {
		snprintf(why, len, "%s", strerror(text ? EIO : ENOMEM));
		free(text);
		return NULL;
	}
	return text;
}

/* Each kept trial of benchmark b into g; their number into *trials. */
static int add_benchmark(struct cbench_runs *g, const struct cbench_doc_bench *b, size_t *trials)
{
	struct cbench_result res = { 0 };
	int ret = cbench_doc_result(b, &res);

	for (size_t k = 0; !ret && k < res.ntrials; k++) {
		const struct cbench_trial *t = &res.trials[k];
		double v;

		*trials += !t->error && !t->set_aside;
		if (!cbench_doc_trial_value(t, g->metric, &v))
			continue;
		/* Written to round-trip: rounding is a double's own. */
		ret = cbench_runs_add(g, b->name, v, v * 0x1p-52, timed(g) ? t->step_share : NAN, t->core_ghz);
	}
	free(res.trials);
	return ret;
}

/*
 * A JSON report of `run` (--format json) into g: one run, each trial that
 * measured the metric.  Anything but a run's report is refused, saying
 * what it is (results/doc.h).
 */
static int parse_json(FILE *f, struct cbench_runs *g, char *why, size_t len)
{
	struct cbench_doc d = { .path = g->cur.path };
	size_t n, trials = 0;
	char *text = slurp(f, g->cmd, &n, why, len);
	int ret;

	if (!text)
		return -EINVAL;
	ret = cbench_doc_parse(&d, text, n, 0, why, len);
	free(text);
	if (!ret) {
		snprintf(g->cur.machine, sizeof(g->cur.machine), "%s", d.head.machine);
		snprintf(g->cur.cpu_model, sizeof(g->cur.cpu_model), "%s", d.head.cpu_model);
		snprintf(g->cur.backend, sizeof(g->cur.backend), "%s", d.head.backend);
		ret = cbench_runs_origin(g, why, len);
	}
	for (size_t i = 0; !ret && i < d.nbench; i++)
		ret = add_benchmark(g, &d.bench[i], &trials);
	cbench_doc_free(&d);
	if (!ret && !trials && !g->empty_ok && !g->secondary) {
		snprintf(why, len, "it has no measured trials");
		return -ENODATA;
	}
	if (ret == -ENOMEM)
		snprintf(why, len, "%s", strerror(ENOMEM));
	return ret;
}

/* Every run of one file into g.  Returns 0 or -errno with a sentence in why. */
static int parse(const char *path, struct cbench_runs *g, char *why, size_t len)
{
	char line[4096];
	uint64_t bytes = 0, lineno = 1;
	bool results = false, any = false, starts_line = true;
	struct stat st;
	int ret = 0;
	FILE *f = open_report(path, g->cmd, &st, &ret, why, len);
	int first;

	if (!f)
		return ret;
	g->runs++;
	g->run_clock = NAN;
	memset(&g->cur, 0, sizeof(g->cur));
	g->cur.path = path;
	g->checked = false;
	/* Go text or JSON, by what the file holds, whatever its name. */
	do
		first = getc(f);
	while (first == ' ' || first == '\t' || first == '\n' || first == '\r');
	if (first == '{') {
		ungetc(first, f);
		ret = parse_json(f, g, why, len);
		fclose(f);
		return ret;
	}
	if (first != EOF)
		ungetc(first, f);
	while (!ret && fgets(line, sizeof(line), f)) {
		size_t line_bytes = strlen(line);
		uint64_t at = lineno;
		bool ends_line = line_bytes && line[line_bytes - 1] == '\n';

		/* fgets() may return part of a longer line; only its start
		 * is a line to read. */
		lineno += ends_line;
		/* The file may grow while we read it. */
		bytes += line_bytes;
		if (bytes > RUNS_MAX_BYTES) {
			ret = -EFBIG;
			snprintf(why, len, "it is larger than %d MiB, the most %s reads",
				 RUNS_MAX_BYTES >> 20, g->cmd);
			break;
		}
		if (starts_line)
			ret = read_line(g, line, at, &results, why, len);
		starts_line = ends_line;
		any |= results;
	}
	if (!ret && ferror(f)) {
		ret = -EIO;
		snprintf(why, len, "%s", strerror(EIO));
	}
	if (!ret && !any && !g->secondary) {
		ret = -ENODATA;
		snprintf(why, len, "it has no result lines");
	}
	fclose(f);
	return ret;
}

int cbench_runs_read(struct cbench_runs *g, char *const paths[], size_t n)
{
	char why[CBENCH_ERR_LEN];

	g->files = calloc(n, sizeof(*g->files));
	if (!g->files)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct stat st;
		int ret;

		if (!stat(paths[i], &st)) {
			for (size_t j = 0; j < g->nfiles; j++) {
				if (g->files[j].dev == st.st_dev && g->files[j].ino == st.st_ino) {
					cbench_err("unable to %s: %s is given twice on one side "
						"(also as %s); each run may count once\n",
						g->cmd, paths[i], g->files[j].path);
					return -EINVAL;
				}
			}
			g->files[g->nfiles++] = (struct cbench_runs_file){ st.st_dev, st.st_ino, paths[i] };
		}
		ret = parse(paths[i], g, why, sizeof(why));
		if (ret) {
			cbench_err("unable to read %s: %s\n", paths[i], why);
			return ret;
		}
	}
	cbench_runs_fold(g);
	return 0;
}

int cbench_sides_read(struct cbench_sides *s, const struct cbench_runs *like, char *const old[], size_t nold,
		      char *const new[], size_t nnew)
{
	int want[3] = { CBENCH_METRIC_NS, s->metric < 0 ? CBENCH_METRIC_EST_CYCLES : s->metric, -1 };

	for (int k = 0; k < 2; k++) {
		int m = want[k];

		if (s->read[m])
			continue;
		for (int side = 0; side < 2; side++) {
			s->by[m][side] = (struct cbench_runs){ .first = like->first, .mixed = like->mixed,
							       .cmd = like->cmd, .metric = m };
		}
		s->read[m] = true;
		/* ns/op says what is wrong with a file: the others follow it. */
		s->by[m][0].empty_ok = s->by[m][1].empty_ok = like->empty_ok;
		s->by[m][0].secondary = s->by[m][1].secondary = m != CBENCH_METRIC_NS;
		if (cbench_runs_read(&s->by[m][0], old, nold) || cbench_runs_read(&s->by[m][1], new, nnew))
			return -EINVAL;
	}
	return 0;
}
