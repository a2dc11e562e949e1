// SPDX-License-Identifier: GPL-2.0
/* Run reports read as runs; see runs.h. */
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
#include "report/json.h"
#include "report/report.h"
#include "report/report_check.h"
#include "report/runs.h"
#include "stats/stats.h"

/* Largest report we read, in bytes: a million trials' lines fit in a
 * tenth of it. */
#define RUNS_MAX_BYTES (1024 << 20)

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
static size_t *slot_of(const struct cbench_runs *g, const char *name)
{
	size_t mask = g->nslots - 1, i = (size_t)name_hash(name) & mask;

	while (g->slots[i] && strcmp(g->s[g->slots[i] - 1].name, name))
		i = (i + 1) & mask;
	return &g->slots[i];
}

static int grow_index(struct cbench_runs *g)
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

static struct cbench_series *find(struct cbench_runs *g, const char *full_name, bool add)
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
		struct cbench_series *s = realloc(g->s, cap * sizeof(*s));

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

/* Counts the trials of the run v[n - 1] into fewest and most. */
static void fold(struct cbench_series *s)
{
	if (!s->fewest || s->run_trials < s->fewest)
		s->fewest = s->run_trials;
	if (s->run_trials > s->most)
		s->most = s->run_trials;
}

/*
 * The timer's part in a run's headline: a measurement is a whole number of
 * timer steps, so the run's figure is known to within a step of it at best
 * (where the measurements keep their phase to the timer's updates, no
 * averaging over them takes the rounding off).  Like a printed value's last
 * digit, we take it as a uniform rounding over one step, share^2 / 12 on
 * the log scale, and independent between runs (each calibrates, tunes and
 * places anew).  It is a floor for the runs' variance, as the printed
 * rounding is: runs that agree to the last step still differ by as much as
 * the timer cannot tell apart.
 */
static void step_rounding(struct cbench_series *s, double share)
{
	if (share > 0 && isfinite(share))
		s->step_var = fmax(s->step_var, share * share / 12);
}

/*
 * Another trial of the run v[n - 1]: the run's value is the median of its
 * trials, as run's headline is (and as benchstat takes a run's lines); its
 * clock (ghz, NAN: not known) the mean of theirs.
 */
static int add_to_run(struct cbench_series *s, double v, double ghz)
{
	if (ghz > 0 && isfinite(ghz)) {
		s->run_ghz[0] += ghz;
		s->ghz[s->n - 1] = s->run_ghz[0] / (double)++s->run_clocks;
	}
	if (s->run_trials == s->trials_cap) {
		size_t cap = s->trials_cap ? s->trials_cap * 2 : 16;
		double *t = realloc(s->trials, cap * sizeof(*t));

		if (!t)
			return -ENOMEM;
		s->trials = t;
		s->trials_cap = cap;
	}
	s->trials[s->run_trials++] = v;
	s->v[s->n - 1] = cbench_stats_median(s->trials, s->run_trials);
	return 0;
}

/* One trial's value, in the run the file is at: a run's value is their
 * median.  step_share: a timer step over a measurement, NAN where not
 * known; ghz: the core clock the trial saw, NAN likewise. */
static int add_trial(struct cbench_runs *g, const char *name, double v, double ulp, double step_share,
		     double ghz)
{
	struct cbench_series *s = find(g, name, true);
	double rel = ulp / v;

	if (!s)
		return -ENOMEM;
	/* Uniform rounding of +-ulp/2 has variance ulp^2 / 12. */
	s->min_var = fmax(s->min_var, rel * rel / 12);
	step_rounding(s, step_share);
	s->fastest = s->n ? fmin(s->fastest, v) : v;
	s->slowest = s->n ? fmax(s->slowest, v) : v;
	if (s->n && s->run == g->runs)
		return add_to_run(s, v, ghz);
	if (s->n)
		fold(s);
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 4;
		double *nv = realloc(s->v, cap * sizeof(*nv)), *ng;

		if (!nv)
			return -ENOMEM;
		s->v = nv;
		ng = realloc(s->ghz, cap * sizeof(*ng));
		if (!ng)
			return -ENOMEM;
		s->ghz = ng;
		s->cap = cap;
	}
	s->n++;
	s->run = g->runs;
	s->run_trials = 0;
	s->run_clocks = 0;
	s->run_ghz[0] = 0;
	s->ghz[s->n - 1] = NAN;
	return add_to_run(s, v, ghz);
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

/* "machine vm, AuthenticAMD family 25 model 1, backend user": what is known of o. */
static const char *origin_text(const struct cbench_origin *o, char *buf, size_t len)
{
	snprintf(buf, len, "machine %s, %s, backend %s", o->machine[0] ? o->machine : "?",
		 o->cpu_model[0] ? o->cpu_model : "CPU ?", o->backend[0] ? o->backend : "?");
	return buf;
}

static bool differ(const char *a, const char *b)
{
	return a[0] && b[0] && strcmp(a, b);
}

/*
 * The current run against the first one read: 0, or -EINVAL with why when
 * they were measured on other machines or backends (unless --mixed).
 */
static int check_origin(struct cbench_runs *g, char *why, size_t len)
{
	char a[320], b[320];

	g->checked = true;
	if (!g->cur.machine[0] && !g->cur.cpu_model[0] && !g->cur.backend[0])
		return 0;
	if (!g->first->path) {
		*g->first = g->cur;
		return 0;
	}
	if (!differ(g->cur.machine, g->first->machine) && !differ(g->cur.cpu_model, g->first->cpu_model) &&
	    !differ(g->cur.backend, g->first->backend))
		return 0;
	g->differed = true;
	if (g->mixed)
		return 0;
	snprintf(why, len, "it was measured on %.100s, %.60s on %.100s: runs of different "
		 "machines or backends differ by more than a change compare looks for; compare "
		 "runs of one machine and backend, or give --mixed to compare them anyway",
		 origin_text(&g->cur, a, sizeof(a)), g->first->path,
		 origin_text(g->first, b, sizeof(b)));
	return -EINVAL;
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
		struct cbench_series *s = find(g, step_of, false);

		if (s && timed(g))
			step_rounding(s, v);
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
	if (!g->checked && check_origin(g, why, len))
		return -EINVAL;
	if (!parse_time(token, &v)) {
		snprintf(why, len, "line %" PRIu64 ": %s: %s value '%.40s' is not a finite, "
			 "positive number", at, name, cbench_metric_units[g->metric], token);
		return -EINVAL;
	}
	*results = true;
	ret = add_trial(g, name, v, unit_in_last_place(token), NAN, g->run_clock);
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

/*
 * A JSON report of `run` (--format json) into g: one run, each trial that
 * measured its ns/op.  An audit's or a profile's JSON is refused, saying
 * what it is.
 */
static int parse_json(FILE *f, struct cbench_runs *g, char *why, size_t len)
{
	struct cbench_json *root = NULL;
	const struct cbench_json *list;
	size_t n, trials = 0;
	char *text = slurp(f, g->cmd, &n, why, len);
	int ret;

	if (!text)
		return -EINVAL;
	ret = cbench_json_parse(text, n, &root, why, len);
	free(text);
	if (ret)
		return ret;
	list = cbench_json_get(root, "benchmarks");
	if (list && list->type == CBENCH_JSON_ARRAY) {
		const struct cbench_json *c = cbench_json_get(root, "config");

		ret = cbench_report_check(root, why, len);
		if (ret) {
			cbench_json_free(root);
			return ret;
		}

		snprintf(g->cur.machine, sizeof(g->cur.machine), "%s",
			 cbench_json_string(c, "machine", ""));
		snprintf(g->cur.cpu_model, sizeof(g->cur.cpu_model), "%s",
			 cbench_json_string(c, "cpu_model", ""));
		snprintf(g->cur.backend, sizeof(g->cur.backend), "%s",
			 cbench_json_string(c, "backend", ""));
		ret = check_origin(g, why, len);
		if (ret) {
			cbench_json_free(root);
			return ret;
		}
	}
	if (!list || list->type != CBENCH_JSON_ARRAY) {
		snprintf(why, len, "it is JSON, but not a run's report (%s)",
			 cbench_json_get(root, "audits") ? "an audit's: it compares two versions already" :
			 cbench_json_get(root, "profile") ? "a profile's" : "no \"benchmarks\"");
		cbench_json_free(root);
		return -EINVAL;
	}
	for (size_t i = 0; i < list->n && !ret; i++) {
		const struct cbench_json *b = &list->items[i], *t = cbench_json_get(b, "trials");
		const char *name = cbench_json_string(b, "name", NULL);

		for (size_t k = 0; name && t && t->type == CBENCH_JSON_ARRAY && k < t->n && !ret; k++) {
			const struct cbench_json *tr = &t->items[k];
			double v = cbench_json_number(tr, cbench_metric_members[g->metric], NAN);

			if (strcmp(cbench_json_string(tr, "status", ""), "ok"))
				continue;
			trials++;
			if (!(v > 0) || !isfinite(v))
				continue;
			/* Written to round-trip: rounding is a double's own. */
			ret = add_trial(g, name, v, v * 0x1p-52,
					timed(g) ? cbench_json_number(tr, "step_share", NAN) : NAN,
					cbench_json_number(tr, "core_ghz", NAN));
		}
	}
	cbench_json_free(root);
	if (!ret && !trials && !g->empty_ok && !g->secondary) {
		snprintf(why, len, "it has no measured trials");
		return -ENODATA;
	}
	if (ret)
		snprintf(why, len, "%s", strerror(-ret));
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

void cbench_runs_release(struct cbench_runs *g)
{
	for (size_t i = 0; i < g->n; i++) {
		free(g->s[i].v);
		free(g->s[i].ghz);
		free(g->s[i].trials);
	}
	free(g->s);
	free(g->slots);
	free(g->files);
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
	for (size_t i = 0; i < g->n; i++)
		fold(&g->s[i]);
	return 0;
}
struct cbench_series *cbench_runs_find(const struct cbench_runs *g, const char *name)
{
	return find((struct cbench_runs *)g, name, false);
}

double cbench_series_mean(const struct cbench_series *s)
{
	double sum = 0;

	for (size_t i = 0; i < s->n; i++)
		sum += log(s->v[i]);
	return exp(sum / (double)s->n);
}

double cbench_series_ghz(const struct cbench_series *s)
{
	double *v = malloc((s->n + 1) * sizeof(*v)), m;
	size_t k = 0;

	for (size_t i = 0; v && i < s->n; i++)
		if (!isnan(s->ghz[i]))
			v[k++] = s->ghz[i];
	m = k ? cbench_stats_median(v, k) : NAN;
	free(v);
	return m;
}

/* The least variance a side's runs are taken to have: the printed value's
 * rounding and the timer's, which are apart and add. */
static double floor_var(const struct cbench_series *old, const struct cbench_series *new)
{
	return fmax(old->min_var + old->step_var, new->min_var + new->step_var);
}

int cbench_series_change(const struct cbench_series *old, const struct cbench_series *new, double min_effect,
			 struct cbench_change *c)
{
	return cbench_change_test(old->v, old->n, new->v, new->n, floor_var(old, new), min_effect, c);
}

/* The sample variance of the logs of s's runs (n >= 2). */
static double log_var(const struct cbench_series *s)
{
	double mean = log(cbench_series_mean(s)), sum = 0;

	for (size_t i = 0; i < s->n; i++)
		sum += (log(s->v[i]) - mean) * (log(s->v[i]) - mean);
	return sum / (double)(s->n - 1);
}

double cbench_series_step_floor(const struct cbench_series *old, const struct cbench_series *new)
{
	double step_var = fmax(old->step_var, new->step_var), least = floor_var(old, new);

	if (old->n < 2 || new->n < 2 || !(step_var > fmax(old->min_var, new->min_var)))
		return 0;
	return log_var(old) < least || log_var(new) < least ? sqrt(12 * step_var) : 0;
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

void cbench_sides_release(struct cbench_sides *s)
{
	for (int m = 0; m < CBENCH_SIDES_METRICS; m++) {
		if (!s->read[m])
			continue;
		cbench_runs_release(&s->by[m][0]);
		cbench_runs_release(&s->by[m][1]);
	}
}

const struct cbench_runs *cbench_sides_runs(const struct cbench_sides *s, int side)
{
	return &s->by[CBENCH_METRIC_NS][side];
}

int cbench_sides_pick(const struct cbench_sides *s, const char *name, const struct cbench_series **a,
		      const struct cbench_series **b)
{
	const struct cbench_series *na = cbench_runs_find(&s->by[CBENCH_METRIC_NS][0], name);
	const struct cbench_series *nb = cbench_runs_find(&s->by[CBENCH_METRIC_NS][1], name);
	int m = s->metric;

	if (!na || !nb)
		return -1;
	if (m < 0) {
		const struct cbench_series *ea = cbench_runs_find(&s->by[CBENCH_METRIC_EST_CYCLES][0], name);
		const struct cbench_series *eb = cbench_runs_find(&s->by[CBENCH_METRIC_EST_CYCLES][1], name);

		/* Every run of both sides, or the runs' values would not
		 * be the same runs' as ns/op's. */
		m = ea && eb && ea->n == na->n && eb->n == nb->n ? CBENCH_METRIC_EST_CYCLES : CBENCH_METRIC_NS;
	}
	*a = cbench_runs_find(&s->by[m][0], name);
	*b = cbench_runs_find(&s->by[m][1], name);
	return *a && *b ? m : -1;
}
