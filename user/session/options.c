// SPDX-License-Identifier: GPL-2.0
/* The measuring subcommands' shared options; see options.h. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "session/options.h"
#include "error.h"

static const struct option shared[] = {
	{ "filter", required_argument, NULL, CBENCH_OPT_FILTER },
	{ "backend", required_argument, NULL, CBENCH_OPT_BACKEND },
	{ "cpu", required_argument, NULL, CBENCH_OPT_CPU },
	{ "format", required_argument, NULL, CBENCH_OPT_FORMAT },
	{ "output", required_argument, NULL, CBENCH_OPT_OUTPUT },
	{ "help", no_argument, NULL, 'h' },
};

#define NSHARED (sizeof(shared) / sizeof(shared[0]))

/* A shared option into its field: 0, -EINVAL after saying why, 1 if fields
 * has no place for it. */
static int take_shared(const struct cbench_option_fields *f, int c, const char *arg, FILE *err)
{
	if (c == CBENCH_OPT_FILTER && f->filter)
		*f->filter = arg;
	else if (c == CBENCH_OPT_OUTPUT && f->output)
		*f->output = arg;
	else if (c == CBENCH_OPT_BACKEND && f->backend)
		return cbench_option_backend(arg, f->backend, err);
	else if (c == CBENCH_OPT_CPU && f->cpu)
		return cbench_option_cpu(arg, CPU_SETSIZE, f->cpu, err);
	else
		return 1;
	return 0;
}

/* getopt_long() over longopts, each option into its field or to take(). */
static int parse(int argc, char *argv[], const struct cbench_option_fields *fields,
		 const struct option *longopts, cbench_option_fn take, void *opts, FILE *err)
{
	int c, ret;

	optind = 0;	/* full reset: we may be called more than once (tests) */
	opterr = 0;
	while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		if (c == 'h')
			return 1;
		if (c == '?' || c == ':') {
			fprintf(err, "%s: unknown or incomplete option '%s'\n", cbench_prog,
				argv[optind - 1]);
			return -EINVAL;
		}
		ret = take_shared(fields, c, optarg, err);
		if (ret > 0)
			ret = take(opts, c, optarg, err);
		if (ret)
			return -EINVAL;
	}
	return 0;
}

int cbench_options_parse(int argc, char *argv[], const struct cbench_option_fields *fields,
			 const struct option *own, cbench_option_fn take, void *opts, FILE *err)
{
	struct option *longopts;
	size_t n = 0;
	int ret;

	/* The table getopt_long() gets is as long as the subcommand's own
	 * options make it: none is ever left out. */
	while (own[n].name)
		n++;
	longopts = calloc(n + NSHARED + 1, sizeof(*longopts));
	if (!longopts) {
		fprintf(err, "%s: %s\n", cbench_prog, strerror(ENOMEM));
		return -ENOMEM;
	}
	memcpy(longopts, own, n * sizeof(*own));
	memcpy(&longopts[n], shared, sizeof(shared));
	ret = parse(argc, argv, fields, longopts, take, opts, err);
	free(longopts);
	return ret;
}

int cbench_option_refuse(FILE *err, const char *option, const char *want, const char *arg)
{
	fprintf(err, "%s: %s wants %s, not '%s'\n", cbench_prog, option, want, arg);
	return -EINVAL;
}

int cbench_option_name(const char *cmd, const char *option, const char *arg, const char **dst,
		       FILE *err)
{
	if (!*arg || strlen(arg) > 255 || strpbrk(arg, "\n\t")) {
		fprintf(err, "%s: %s: %s wants a name of 1 to 255 characters, on one line\n",
			cbench_prog, cmd, option);
		return -EINVAL;
	}
	*dst = arg;
	return 0;
}

int cbench_parse_number(const char *s, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return errno || end == s || *end || !isfinite(*v) ? -EINVAL : 0;
}

int cbench_option_confidence(const char *arg, double *p, FILE *err)
{
	double v;

	if (!cbench_parse_number(arg, &v) && v >= 0.5 && v < 1)
		*p = v;
	else if (!cbench_parse_number(arg, &v) && v >= 50 && v < 100)
		*p = v / 100;
	else
		return cbench_option_refuse(err, "--confidence", "a probability from 0.5 to below 1 "
					    "(0.99) or a percentage from 50 to below 100 (99)", arg);
	return 0;
}

bool cbench_path_has_ext(const char *path, const char *ext)
{
	size_t n = path ? strlen(path) : 0, k = strlen(ext);

	return n > k && path[n - k - 1] != '/' && !strcmp(path + n - k, ext);
}

int cbench_option_cpu(const char *arg, int limit, int *cpu, FILE *err)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < 0 || v >= limit)
		return cbench_option_refuse(err, "--cpu", "a CPU number", arg);
	*cpu = (int)v;
	return 0;
}

int cbench_option_word(const char *option, const char *arg, const char *const *words, FILE *err)
{
	size_t n = 0;

	for (; words[n]; n++) {
		if (!strcmp(arg, words[n]))
			return (int)n;
	}
	fprintf(err, "%s: %s must be ", cbench_prog, option);
	for (size_t i = 0; i < n; i++)
		fprintf(err, "%s%s", words[i], i + 2 < n ? ", " : i + 2 == n ? " or " : "");
	fprintf(err, ", not '%s'\n", arg);
	return -EINVAL;
}

int cbench_option_quiet(const char *arg, int *quiet, FILE *err)
{
	static const char *const modes[] = { "cli", "lvt", NULL };
	int i = cbench_option_word("--quiet-mode", arg, modes, err);

	if (i < 0)
		return i;
	*quiet = i;		/* enum cbench_quiet's order */
	return 0;
}

int cbench_option_quiet_check(int quiet, enum cbench_backend_kind backend, FILE *err)
{
	if (quiet >= 0 && backend == CBENCH_BACKEND_USER) {
		fprintf(err, "%s: --quiet-mode is how cbench.ko keeps its samples quiet; user mode has "
			"none to choose: leave it out, or use --backend kmod\n", cbench_prog);
		return -EINVAL;
	}
	return 0;
}

int cbench_option_backend(const char *arg, enum cbench_backend_kind *kind, FILE *err)
{
	static const char *const kinds[] = { "user", "kmod", "auto", NULL };

	if (!cbench_backend_parse(arg, kind))
		return 0;
	return cbench_option_word("--backend", arg, kinds, err);
}

int cbench_option_seed(const char *arg, uint64_t *seed, FILE *err)
{
	char *end;

	errno = 0;
	*seed = strtoull(arg, &end, 0);
	if (errno || end == arg || *end || arg[0] == '-')
		return cbench_option_refuse(err, "--seed", "an unsigned 64-bit number", arg);
	return 0;
}

int cbench_random_seed(uint64_t *seed)
{
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	ssize_t got = fd < 0 ? -1 : read(fd, seed, sizeof(*seed));

	if (fd >= 0)
		close(fd);
	return got == (ssize_t)sizeof(*seed) ? 0 : -EIO;
}
