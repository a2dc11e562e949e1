// SPDX-License-Identifier: GPL-2.0
/* Go benchmark text into the JSON report's shape; see go_read.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/go_read.h"
#include "report/json_writer.h"
#include "report/report.h"

/* The configuration lines plot shows, by their Go key and JSON name. */
static const char *const config_keys[][2] = {
	{ "cpu", "cpu" }, { "kernel", "kernel" }, { "backend", "backend" },
	{ "cbench-version", "cbench_version" },
};
#define NCONFIG (sizeof(config_keys) / sizeof(config_keys[0]))

struct go_result {
	char name[256];
	double *v;
	size_t n, cap;
};

struct go_text {
	char config[NCONFIG][256];
	char so[1024];
	struct go_result *r;
	size_t n, cap;
};

static struct go_result *result_of(struct go_text *g, const char *name)
{
	for (size_t i = 0; i < g->n; i++) {
		if (!strcmp(g->r[i].name, name))
			return &g->r[i];
	}
	if (g->n == g->cap) {
		size_t cap = g->cap ? 2 * g->cap : 16;
		struct go_result *r = realloc(g->r, cap * sizeof(*r));

		if (!r)
			return NULL;
		g->r = r;
		g->cap = cap;
	}
	memset(&g->r[g->n], 0, sizeof(g->r[0]));
	snprintf(g->r[g->n].name, sizeof(g->r[0].name), "%s", name);
	return &g->r[g->n++];
}

/* "BenchmarkX N v ns/op ...": its name and ns/op; false for any other line. */
static bool result_line(char *line, char **name, double *ns)
{
	char *save = NULL, *tok = strtok_r(line, " \t\r\n", &save), *prev = NULL;

	if (!tok || strncmp(tok, "Benchmark", 9) || !tok[9])
		return false;
	*name = tok;
	/* The iteration count, then value-unit pairs. */
	if (!strtok_r(NULL, " \t\r\n", &save))
		return false;
	while ((tok = strtok_r(NULL, " \t\r\n", &save))) {
		if (prev && !strcmp(tok, "ns/op")) {
			char *end;

			*ns = strtod(prev, &end);
			return *end == '\0' && isfinite(*ns) && *ns > 0;
		}
		prev = tok;
	}
	return false;
}

static int read_line(struct go_text *g, char *line)
{
	char *colon = strchr(line, ':'), *name;
	double ns;

	if (!strncmp(line, "# so: ", 6)) {
		snprintf(g->so, sizeof(g->so), "%.*s", (int)strcspn(line + 6, "\r\n"), line + 6);
		return 0;
	}
	for (size_t k = 0; colon && k < NCONFIG; k++) {
		size_t key = strlen(config_keys[k][0]);

		if ((size_t)(colon - line) == key && !strncmp(line, config_keys[k][0], key)) {
			const char *v = colon + 1 + strspn(colon + 1, " \t");

			snprintf(g->config[k], sizeof(g->config[k]), "%.*s", (int)strcspn(v, "\r\n"), v);
			return 0;
		}
	}
	if (result_line(line, &name, &ns)) {
		struct go_result *r = result_of(g, name);

		if (!r)
			return -ENOMEM;
		if (r->n == r->cap) {
			size_t cap = r->cap ? 2 * r->cap : 8;
			double *v = realloc(r->v, cap * sizeof(*v));

			if (!v)
				return -ENOMEM;
			r->v = v;
			r->cap = cap;
		}
		r->v[r->n++] = ns;
	}
	return 0;
}

static void write_json(const struct go_text *g, FILE *f)
{
	struct cbench_jsonw j;

	cbench_jsonw_init(&j, f, false);
	cbench_jsonw_object_start(&j, NULL);
	cbench_jsonw_uint(&j, "schema_version", CBENCH_RUN_JSON_SCHEMA_VERSION);
	cbench_jsonw_object_start(&j, "config");
	for (size_t k = 0; k < NCONFIG; k++)
		cbench_jsonw_string(&j, config_keys[k][1], g->config[k][0] ? g->config[k] : "unknown");
	cbench_jsonw_string(&j, "so", g->so[0] ? g->so : "unknown");
	cbench_jsonw_string(&j, "format", "go");
	cbench_jsonw_object_end(&j);
	cbench_jsonw_array_start(&j, "benchmarks");
	for (size_t i = 0; i < g->n; i++) {
		cbench_jsonw_object_start(&j, NULL);
		cbench_jsonw_string(&j, "name", g->r[i].name);
		cbench_jsonw_array_start(&j, "trials");
		for (size_t t = 0; t < g->r[i].n; t++) {
			cbench_jsonw_object_start(&j, NULL);
			cbench_jsonw_string(&j, "status", "ok");
			cbench_jsonw_double(&j, "ns_per_op", g->r[i].v[t]);
			cbench_jsonw_double(&j, "min_ns_per_op", g->r[i].v[t]);
			cbench_jsonw_double(&j, "median_ns_per_op", g->r[i].v[t]);
			cbench_jsonw_double(&j, "max_ns_per_op", g->r[i].v[t]);
			cbench_jsonw_object_end(&j);
		}
		cbench_jsonw_array_end(&j);
		cbench_jsonw_object_end(&j);
	}
	cbench_jsonw_array_end(&j);
	cbench_jsonw_object_end(&j);
	cbench_jsonw_finish(&j);
}

int cbench_go_read(const char *text, size_t len, struct cbench_json **out, char *err,
		   size_t err_bytes)
{
	struct go_text *g = calloc(1, sizeof(*g));
	char *json = NULL, line[4096];
	size_t json_len = 0, at = 0;
	FILE *f;
	int ret = g ? 0 : -ENOMEM;

	while (!ret && at < len) {
		size_t n = strcspn(text + at, "\n");

		if (at + n > len)
			n = len - at;
		snprintf(line, sizeof(line), "%.*s", (int)(n < sizeof(line) ? n : sizeof(line) - 1),
			 text + at);
		ret = read_line(g, line);
		at += n + 1;
	}
	if (!ret && !g->n) {
		snprintf(err, err_bytes, "no result line with ns/op (neither JSON nor Go benchmark text)");
		ret = -EINVAL;
	}
	if (!ret) {
		f = open_memstream(&json, &json_len);
		if (!f) {
			ret = -ENOMEM;
		} else {
			write_json(g, f);
			ret = fclose(f) ? -ENOMEM : 0;
		}
	}
	if (!ret)
		ret = cbench_json_parse(json, json_len, out, err, err_bytes);
	free(json);
	for (size_t i = 0; g && i < g->n; i++)
		free(g->r[i].v);
	if (g)
		free(g->r);
	free(g);
	return ret;
}
