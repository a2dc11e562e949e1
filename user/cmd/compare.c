// SPDX-License-Identifier: GPL-2.0
/*
 * `cbenchctl compare OLD... -- NEW...`: Go-format reports of two versions,
 * run against run.
 *
 * The trials of one run are not independent draws: they share the run's
 * moment (on a boosting or shared host the core clock moves by percents
 * between runs and stays put for a run's second), its timer calibration and
 * its tuning.  Measured on our development VM, 20 to 80 % of the variance
 * of a trial lies between runs, and a test over two runs' trials (the
 * Mann-Whitney U test we and benchstat used) called A/A pairs of runs
 * different in 7 to 15 of 40 pairs where alpha = 0.05 allows 2
 * (bench/compare_aa.sh).  So the unit here is the run: each run gives one
 * value per benchmark, its headline (the least trial, as `run` reports it),
 * and Welch's t test compares the logs of those values, k runs a side (a
 * permutation test would need 4 runs a side to reach p < 0.05 at all).
 * With one run a side nothing measures how far runs wander, and we say so
 * instead of guessing.  The change printed is the one tested: between the
 * geometric means of the runs' headlines.
 *
 * We compare ns/op, not est-cycles/op (ns/op against the reference chain
 * each trial interleaves, which cancels the clock's drift within a trial):
 * on 120 runs its trials were as tied to their run (30 to 41 % of the
 * variance between runs, against 27 to 43 % for ns/op), and its runs'
 * headlines wandered more (0.13 % against 0.04 % for the add chain, 1.5 %
 * against 0.006 % for the imul chain), because the least ns/op already
 * picks a run's moments of fastest clock.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "object/elffile.h"
#include "report/json.h"
#include "session/options.h"
#include "report/report.h"
#include "cmd/run.h"
#include "stats/stats.h"
#include "cmd/subcommands.h"

/* Significance level for calling a difference; the interval is 1 - alpha. */
#define COMPARE_ALPHA 0.05
/* The smallest change that counts, in percent, unless --min-effect says
 * otherwise: audit's default, so both call the same changes real. */
#define COMPARE_MIN_EFFECT_PCT 0.2
/* Exit status of a failed gate (--fail-on): not 1, which is an error. */
#define COMPARE_GATE_FAILED CBENCH_EXIT_GATE

/* What compare was asked; the files come from split(). */
struct compare_options {
	double min_effect;		/* a fraction: 0.002 for 0.2 % */
	enum { GATE_NONE, GATE_SLOWER, GATE_CHANGED } fail_on;
	bool mixed;			/* --mixed: runs of other machines or backends too */
};

/*
 * Where a run was measured, from its configuration: the machine, the CPU
 * model and the backend.  Runs of two machines, or of user mode and ring
 * 0, differ by more than the changes compare looks for.
 */
struct origin {
	char machine[128];
	char cpu_model[128];
	char backend[32];
	const char *path;		/* the file it was read from */
};

/* Largest report we read, in bytes: a million trials' lines fit in a
 * tenth of it. */
#define COMPARE_MAX_BYTES (1024 << 20)

/* A benchmark's runs on one side. */
struct series {
	char name[256];
	double *v;			/* per run: its least trial's ns/op */
	size_t n, cap;			/* runs */
	size_t run_trials;		/* trials of the run v[n - 1] */
	size_t fewest, most;		/* trials of a run, once folded; fewest 0: none */
	uint64_t run;			/* the run v[n - 1] came from */
	double min_var;			/* the values' rounding variance, log scale */
};

/*
 * The series of one side in the order first seen, and a hash index over
 * their names (open addressing, linear probing, at most half full): two
 * files of 100,000 benchmarks each took 15 s with a linear search.
 */
struct go_file {
	struct series *s;
	size_t n, cap;
	size_t *slots;			/* series index + 1; 0 for an empty slot */
	size_t nslots;			/* a power of two */
	uint64_t runs;			/* runs read so far; the current one's id */
	struct file_id {
		dev_t dev;
		ino_t ino;
		const char *path;
	} *files;			/* each file read, to refuse one twice */
	size_t nfiles;
	/* The current run's origin, whether its results were checked against
	 * the first run's (*first, shared by both sides), and --mixed. */
	struct origin cur, *first;
	bool checked, mixed;
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
static void fold(struct series *s)
{
	if (!s->fewest || s->run_trials < s->fewest)
		s->fewest = s->run_trials;
	if (s->run_trials > s->most)
		s->most = s->run_trials;
}

/* One trial's value, in the run the file is at: a run keeps its least. */
static int add_trial(struct go_file *g, const char *name, double v, double ulp)
{
	struct series *s = find(g, name, true);
	double rel = ulp / v;

	if (!s)
		return -ENOMEM;
	/* Uniform rounding of +-ulp/2 has variance ulp^2 / 12. */
	s->min_var = fmax(s->min_var, rel * rel / 12);
	if (s->n && s->run == g->runs) {
		s->v[s->n - 1] = fmin(s->v[s->n - 1], v);
		s->run_trials++;
		return 0;
	}
	if (s->n)
		fold(s);
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 4;
		double *nv = realloc(s->v, cap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		s->v = nv;
		s->cap = cap;
	}
	s->v[s->n++] = v;
	s->run = g->runs;
	s->run_trials = 1;
	return 0;
}

/*
 * Opens a report to read: a regular file of at most COMPARE_MAX_BYTES.  We
 * open without blocking (a FIFO would wait for a writer) and look before
 * reading (a device such as /dev/zero never ends).
 */
static FILE *open_report(const char *path, struct stat *st, int *ret, char *why, size_t len)
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
	if (st->st_size > COMPARE_MAX_BYTES) {
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
static void note_origin(struct origin *o, const char *line)
{
	static const struct { const char *key; size_t off, size; } keys[] = {
		{ "machine", offsetof(struct origin, machine), sizeof(o->machine) },
		{ "cpu-model", offsetof(struct origin, cpu_model), sizeof(o->cpu_model) },
		{ "backend", offsetof(struct origin, backend), sizeof(o->backend) },
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
static const char *origin_text(const struct origin *o, char *buf, size_t len)
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
static int check_origin(struct go_file *g, char *why, size_t len)
{
	char a[320], b[320];

	g->checked = true;
	if (!g->cur.machine[0] && !g->cur.cpu_model[0] && !g->cur.backend[0])
		return 0;
	if (!g->first->path) {
		*g->first = g->cur;
		return 0;
	}
	if (g->mixed || (!differ(g->cur.machine, g->first->machine) &&
			 !differ(g->cur.cpu_model, g->first->cpu_model) &&
			 !differ(g->cur.backend, g->first->backend)))
		return 0;
	snprintf(why, len, "it was measured on %.100s, %.60s on %.100s: runs of different "
		 "machines or backends differ by more than a change compare looks for; compare "
		 "runs of one machine and backend, or give --mixed to compare them anyway",
		 origin_text(&g->cur, a, sizeof(a)), g->first->path,
		 origin_text(g->first, b, sizeof(b)));
	return -EINVAL;
}

/*
 * The ns/op value of a result line, in *value with its token in *token;
 * false for a line that has none.
 */
static bool result_value(char *line, char **name, char **token)
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
		else if (field >= 3 && !strcmp(tok, "ns/op") && value)
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

/*
 * Reads one line into g: a result line's ns/op goes to its benchmark's
 * current run; a configuration line after result lines starts the next
 * run (reports written one after another into one file).
 */
static int read_line(struct go_file *g, char *line, uint64_t at, bool *results, char *why, size_t len)
{
	char *name, *token;
	double v;
	int ret;

	if (config_line(line)) {
		g->runs += *results;
		*results = false;
		note_origin(&g->cur, line);
		g->checked = false;
		return 0;
	}
	if (!result_value(line, &name, &token))
		return 0;
	if (!g->checked && check_origin(g, why, len))
		return -EINVAL;
	if (!parse_time(token, &v)) {
		snprintf(why, len, "line %" PRIu64 ": %s: ns/op value '%.40s' is not a finite, "
			 "positive number", at, name, token);
		return -EINVAL;
	}
	*results = true;
	ret = add_trial(g, name, v, unit_in_last_place(token));
	if (ret)
		snprintf(why, len, "%s", strerror(-ret));
	return ret;
}

/* A JSON report's text from f, whole; NULL (and why) if too big or unread. */
static char *slurp(FILE *f, size_t *n, char *why, size_t len)
{
	size_t cap = 1 << 16;
	char *text = malloc(cap), *bigger;

	*n = 0;
	while (text) {
		*n += fread(text + *n, 1, cap - *n, f);
		if (*n < cap)
			break;
		if (cap >= COMPARE_MAX_BYTES) {
			snprintf(why, len, "it is larger than %d MiB, the most compare reads",
				 COMPARE_MAX_BYTES >> 20);
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
static int parse_json(FILE *f, struct go_file *g, char *why, size_t len)
{
	struct cbench_json *root = NULL;
	const struct cbench_json *list;
	size_t n, trials = 0;
	char *text = slurp(f, &n, why, len);
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
			double v = cbench_json_number(&t->items[k], "ns_per_op", NAN);

			if (strcmp(cbench_json_string(&t->items[k], "status", ""), "ok") || !(v > 0) ||
			    !isfinite(v))
				continue;
			/* Written to round-trip: rounding is a double's own. */
			ret = add_trial(g, name, v, v * 0x1p-52);
			trials++;
		}
	}
	cbench_json_free(root);
	if (!ret && !trials) {
		snprintf(why, len, "it has no measured trials");
		return -ENODATA;
	}
	if (ret)
		snprintf(why, len, "%s", strerror(-ret));
	return ret;
}

/* Every run of one file into g.  Returns 0 or -errno with a sentence in why. */
static int parse(const char *path, struct go_file *g, char *why, size_t len)
{
	char line[4096];
	uint64_t bytes = 0, lineno = 1;
	bool results = false, any = false, starts_line = true;
	struct stat st;
	int ret = 0;
	FILE *f = open_report(path, &st, &ret, why, len);
	int first;

	if (!f)
		return ret;
	g->runs++;
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
		if (bytes > COMPARE_MAX_BYTES) {
			ret = -EFBIG;
			snprintf(why, len, "it is larger than %d MiB, the most compare reads",
				 COMPARE_MAX_BYTES >> 20);
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
	if (!ret && !any) {
		ret = -ENODATA;
		snprintf(why, len, "it has no result lines");
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
	free(g->files);
}

/* Reads a side's files; a file given twice on a side would count its runs
 * twice, and is refused. */
static int read_side(struct go_file *g, char *const paths[], size_t n)
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
					cbench_err("unable to compare: %s is given twice on one side "
						"(also as %s); each run may count once\n",
						paths[i], g->files[j].path);
					return -EINVAL;
				}
			}
			g->files[g->nfiles++] = (struct file_id){ st.st_dev, st.st_ino, paths[i] };
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

/* One row of the table: what was tested and what it says. */
struct row {
	double old_ns, new_ns, change, lo, hi, p;
	enum verdict { V_UNDECIDED, V_NONE, V_SMALL, V_EQUAL, V_FASTER, V_SLOWER } verdict;
};

/* As the table prints them; the legend below it says which rule each is. */
static const char *const verdict_names[] = {
	[V_UNDECIDED] = "?", [V_NONE] = "~", [V_SMALL] = "~ small", [V_EQUAL] = "~ equal",
	[V_FASTER] = "faster", [V_SLOWER] = "slower",
};

/*
 * The verdict of a change with its interval [lo, hi] and p value, against
 * the smallest change that counts (e), by audit's rules: equal when the
 * whole interval lies within +-e; faster or slower when the difference is
 * real (p < alpha, the interval excludes 0) and the change reaches e;
 * small when it is real but smaller.  Two objects that differ only in code
 * layout differ by +0.00 % with a narrow interval, and that is not a
 * slowdown anyone should act on.
 */
static enum verdict decide(double change, double lo, double hi, double p, double e)
{
	if (isnan(p))
		return V_UNDECIDED;
	if (e > 0 && lo >= -e && hi <= e)
		return V_EQUAL;
	if (p >= COMPARE_ALPHA)
		return V_NONE;
	if (fabs(change) < e)
		return V_SMALL;
	return change > 0 ? V_SLOWER : V_FASTER;
}

/* The geometric mean of v, and the logs of v into lv. */
static double log_mean(const double *v, size_t n, double *lv)
{
	for (size_t i = 0; i < n; i++)
		lv[i] = log(v[i]);
	return cbench_stats_mean(lv, n);
}

static int test(const struct series *a, const struct series *b, double min_effect, struct row *r)
{
	double *la = malloc((a->n + b->n) * sizeof(*la)), *lb, ma, mb;
	struct cbench_welch w;

	if (!la)
		return -ENOMEM;
	lb = la + a->n;
	ma = log_mean(a->v, a->n, la);
	mb = log_mean(b->v, b->n, lb);
	r->old_ns = exp(ma);
	r->new_ns = exp(mb);
	r->change = expm1(mb - ma);
	cbench_stats_welch(la, a->n, lb, b->n, fmax(a->min_var, b->min_var), 1 - COMPARE_ALPHA, &w);
	free(la);
	r->lo = expm1(w.lo);
	r->hi = expm1(w.hi);
	r->p = w.p;
	r->verdict = decide(r->change, r->lo, r->hi, w.p, min_effect);
	return 0;
}

/* The geometric mean of a side's runs, for a benchmark the other lacks. */
static double headline(const struct series *s)
{
	double sum = 0;

	for (size_t i = 0; i < s->n; i++)
		sum += log(s->v[i]);
	return exp(sum / (double)s->n);
}

static void print_row(const struct series *a, const struct series *b, const struct row *r)
{
	char interval[48] = "-", p[16] = "n/a", runs[48];

	if (!isnan(r->p)) {
		snprintf(interval, sizeof(interval), "[%+.2f%%,%+.2f%%]", 100 * r->lo, 100 * r->hi);
		snprintf(p, sizeof(p), "%.3f", r->p);
	}
	snprintf(runs, sizeof(runs), "%zu+%zu", a->n, b->n);
	printf("%-40s %14.4f %14.4f %+8.2f%% %19s %7s %7s %s\n", a->name + 9, r->old_ns, r->new_ns,
	       100 * r->change, interval, p, runs, verdict_names[r->verdict]);
}

/* What the table's rows leave to say below it. */
struct notes {
	size_t count[V_SLOWER + 1];	/* rows by verdict */
	const struct series *gated[8];	/* the first rows that fail the gate */
	size_t ngated;
	size_t undecided;		/* rows with one run on a side */
	size_t uneven;			/* rows whose runs have unequal trials */
	const struct series *first;	/* the first of those */
	size_t fewest, most;		/* and its trials per run */
};

static bool fails_gate(const struct compare_options *o, enum verdict v)
{
	return v == V_SLOWER ? o->fail_on != GATE_NONE : v == V_FASTER && o->fail_on == GATE_CHANGED;
}

static void note_row(const struct compare_options *o, const struct series *a, const struct series *b,
		     const struct row *r, struct notes *n)
{
	size_t fewest = a->fewest < b->fewest ? a->fewest : b->fewest;
	size_t most = a->most > b->most ? a->most : b->most;

	n->count[r->verdict]++;
	if (fails_gate(o, r->verdict) && n->ngated++ < sizeof(n->gated) / sizeof(n->gated[0]))
		n->gated[n->ngated - 1] = a;
	n->undecided += isnan(r->p);
	if (fewest == most)
		return;
	if (!n->uneven++) {
		n->first = a;
		n->fewest = fewest;
		n->most = most;
	}
}

static int print_table(const struct compare_options *o, const struct go_file *old,
		       const struct go_file *new, struct notes *n)
{
	printf("%-40s %14s %14s %9s %19s %7s %7s\n", "benchmark", "old ns/op", "new ns/op", "change",
	       "95% interval", "p", "runs");
	for (size_t i = 0; i < old->n; i++) {
		const struct series *a = &old->s[i], *b = find((struct go_file *)new, a->name, false);
		struct row r;

		if (!b) {
			printf("%-40s %14.4f %14s\n", a->name + 9, headline(a), "(absent)");
			continue;
		}
		if (test(a, b, o->min_effect, &r))
			return -ENOMEM;
		note_row(o, a, b, &r, n);
		print_row(a, b, &r);
	}
	for (size_t i = 0; i < new->n; i++) {
		if (!find((struct go_file *)old, new->s[i].name, false))
			printf("%-40s %14s %14.4f\n", new->s[i].name + 9, "(absent)", headline(&new->s[i]));
	}
	return 0;
}

/* Which rule gave each verdict the table shows. */
static void print_legend(const struct compare_options *o, const struct notes *n)
{
	double e = 100 * o->min_effect, conf = 100 * (1 - COMPARE_ALPHA);

	if (n->count[V_SLOWER] || n->count[V_FASTER])
		printf("\nslower, faster: a difference (p < %.2f) of ±%.2f%% (--min-effect) or more\n",
		       COMPARE_ALPHA, e);
	else
		printf("\n");
	if (n->count[V_EQUAL])
		printf("~ equal: the %.0f%% interval lies within ±%.2f%%: no change that counts\n", conf, e);
	if (n->count[V_SMALL])
		printf("~ small: a difference (p < %.2f) smaller than ±%.2f%%: not called faster or\n"
		       "  slower (--min-effect sets the bound)\n", COMPARE_ALPHA, e);
	if (n->count[V_NONE])
		printf("~: no difference shown (p >= %.2f), nor equivalence within ±%.2f%%\n",
		       COMPARE_ALPHA, e);
}

/* The gate's one-line summary; its exit status. */
static int gate(const struct compare_options *o, const struct notes *n)
{
	const char *what = o->fail_on == GATE_SLOWER ? "slower" : "changed";
	double e = 100 * o->min_effect;

	if (o->fail_on == GATE_NONE)
		return 0;
	if (!n->ngated) {
		printf("\ngate (--fail-on %s): passed: no benchmark %s by %.2f%% or more", what, what, e);
		if (n->undecided)
			printf("; %zu undecided (one run a side)", n->undecided);
		printf("\n");
		return 0;
	}
	printf("\ngate (--fail-on %s): FAILED: %zu benchmark%s %s by %.2f%% or more:", what, n->ngated,
	       n->ngated == 1 ? "" : "s", what, e);
	for (size_t i = 0; i < n->ngated && i < sizeof(n->gated) / sizeof(n->gated[0]); i++)
		printf(" %s", n->gated[i]->name + 9);
	printf("%s\n", n->ngated > sizeof(n->gated) / sizeof(n->gated[0]) ? " ..." : "");
	return COMPARE_GATE_FAILED;
}

static void print_notes(const struct notes *n)
{
	if (n->undecided)
		printf("\n? %zu benchmark%s with one run on a side: a change cannot be told from the\n"
		       "  drift between separate runs. Give each side two or more runs, taken\n"
		       "  alternately (compare OLD1 OLD2 ... -- NEW1 NEW2 ...), or interleave both\n"
		       "  versions in one run: %s audit.\n", n->undecided, n->undecided == 1 ? "" : "s",
		       cbench_prog);
	/* A run's headline is its least trial, and the least of more draws
	 * is lower: runs of unequal trials are unequal contestants. */
	if (n->uneven)
		printf("\nnote: runs of %s%s have from %zu to %zu trials; the least of more trials\n"
		       "  tends lower, so a difference may come from that: give every run the same\n"
		       "  --trials.\n", n->first->name + 9,
		       n->uneven > 1 ? " and other benchmarks" : "", n->fewest, n->most);
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s compare [options] <old.txt> <new.txt>\n"
		"       %s compare [options] <old.txt>... -- <new.txt>...\n"
		"\n"
		"Compares run's reports, in the Go benchmark data format or JSON (either, by\n"
		"what the file holds), run against run.  A file holds one run, or in Go text\n"
		"several written one after another (a configuration line after result lines\n"
		"starts the next run).\n"
		"\n"
		"Per benchmark, each run counts with its headline, its least trial's ns/op:\n"
		"the table gives each side's geometric mean of those, the change between them\n"
		"with its %.0f%% interval, and Welch's t test over the runs.  As in audit, a\n"
		"change is faster or slower when it is shown (p < %.2f) and reaches --min-effect;\n"
		"\"~ small\" when shown but smaller, \"~ equal\" when the whole interval lies\n"
		"within +-min-effect, \"~\" when no difference is shown.  A run's trials move together\n"
		"(the core clock drifts between runs), so one run a side cannot tell a change\n"
		"from that drift: such rows say \"?\".  Give each side two or more runs, taken\n"
		"alternately (old, new, old, new, ...), or interleave both versions in one\n"
		"run with `%s audit`.\n"
		"\n"
		"Options:\n"
		"  --min-effect PCT    smallest change that counts, in percent (default %.1f,\n"
		"                      as audit's)\n"
		"  --fail-on WHAT      slower or changed: exit status %d when a benchmark is\n"
		"                      slower (or either) by at least --min-effect, for a CI gate\n"
		"  --mixed             compare runs measured on different machines or backends\n"
		"                      (refused otherwise: their difference is not the change's)\n"
		"  -h, --help          show this help\n"
		"\n"
		"Exit status: 0 when compared (and the gate, if any, passed); 1 when a file\n"
		"cannot be read; 2 when the arguments are wrong; %d when --fail-on's gate\n"
		"failed.\n",
		cbench_prog, cbench_prog, 100 * (1 - COMPARE_ALPHA), COMPARE_ALPHA, cbench_prog,
		COMPARE_MIN_EFFECT_PCT, COMPARE_GATE_FAILED, COMPARE_GATE_FAILED);
}

/*
 * An option at argv[*i] (taking its value from the next word, or after
 * '='): 1 when it was one, 0 when not, -1 after saying what is wrong.
 */
static int take_option(struct compare_options *o, int argc, char *argv[], int *i)
{
	const char *names[] = { "--min-effect", "--fail-on" }, *arg = NULL;
	size_t len = 0;
	int k;
	double pct;

	if (!strcmp(argv[*i], "--mixed")) {
		o->mixed = true;
		return 1;
	}
	for (k = 0; k < 2; k++) {
		len = strlen(names[k]);
		if (!strncmp(argv[*i], names[k], len) && (!argv[*i][len] || argv[*i][len] == '='))
			break;
	}
	if (k == 2)
		return 0;
	if (argv[*i][len] == '=')
		arg = argv[*i] + len + 1;
	else if (*i + 1 < argc)
		arg = argv[++*i];
	if (!arg) {
		cbench_err("compare: %s wants a value; see '%s compare --help'\n",
			names[k], cbench_prog);
		return -1;
	}
	if (k == 0) {
		if (cbench_parse_number(arg, &pct) || !(pct >= 0) || pct >= 100) {
			cbench_option_refuse(stderr, "--min-effect", "a percentage from 0 to below 100", arg);
			return -1;
		}
		o->min_effect = pct / 100;
	} else if (!strcmp(arg, "slower") || !strcmp(arg, "changed")) {
		o->fail_on = arg[0] == 's' ? GATE_SLOWER : GATE_CHANGED;
	} else {
		cbench_option_refuse(stderr, "--fail-on", "slower or changed", arg);
		return -1;
	}
	return 1;
}

/*
 * Splits [options] OLD NEW or OLD... -- NEW... into the two sides, the
 * options into o and out of argv; -1 on bad usage, after saying why.
 */
static int split(struct compare_options *o, int argc, char *argv[], int *nold, char ***newv,
		 int *nnew)
{
	int sep = 0, kept = 1;

	for (int i = 1; i < argc; i++) {
		int opt = sep ? 0 : take_option(o, argc, argv, &i);

		if (opt < 0)
			return -1;
		if (opt == 0)
			argv[kept++] = argv[i];
	}
	argc = kept;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--") && !sep) {
			sep = i;
		} else if (!strcmp(argv[i], "--")) {
			cbench_err("compare: a second '--': one separates OLD from NEW\n");
			return -1;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			cbench_err("compare: unknown option %s (a file of that name: ./%s)\n", argv[i], argv[i]);
			return -1;
		}
	}
	if (sep) {
		*nold = sep - 1;
		*newv = argv + sep + 1;
	} else if (argc == 3) {
		/* Without "--", exactly OLD NEW: a run, or a file of runs, a side. */
		*nold = 1;
		*newv = argv + 2;
	} else {
		cbench_err("compare: %s; see '%s compare --help'\n",
			argc < 3 ? "it wants an old and a new report" :
				   "more than two reports want '--' between the old and the new ones",
			cbench_prog);
		return -1;
	}
	*nnew = argc - (int)(*newv - argv);
	if (*nold >= 1 && *nnew >= 1)
		return 0;
	cbench_err("compare: no %s report beside '--'; see '%s compare --help'\n",
		*nold < 1 ? "old" : "new", cbench_prog);
	return -1;
}

int cbench_cmd_compare(int argc, char *argv[])
{
	struct go_file *old = calloc(1, sizeof(*old)), *new = calloc(1, sizeof(*new));
	struct compare_options opt = { .min_effect = COMPARE_MIN_EFFECT_PCT / 100 };
	struct notes notes = { 0 };
	struct origin first = { 0 };
	int nold, nnew, status = 1;
	char **newv;

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		usage(stdout);
		status = 0;
		goto out;
	}
	if (split(&opt, argc, argv, &nold, &newv, &nnew)) {
		status = CBENCH_EXIT_USAGE;
		goto out;
	}
	if (!old || !new)
		goto out;
	old->first = new->first = &first;
	old->mixed = new->mixed = opt.mixed;
	if (read_side(old, argv + 1, (size_t)nold) || read_side(new, newv, (size_t)nnew))
		goto out;
	if (print_table(&opt, old, new, &notes)) {
		cbench_err("unable to compare: %s\n", strerror(ENOMEM));
		goto out;
	}
	print_legend(&opt, &notes);
	print_notes(&notes);
	status = gate(&opt, &notes);
out:
	if (old)
		release(old);
	if (new)
		release(new);
	free(old);
	free(new);
	return status;
}
