// SPDX-License-Identifier: GPL-2.0
/*
 * `cbenchctl run --backend both`: the same benchmarks in user mode, then in
 * ring 0, as two runs of this cbenchctl (each with its own workers, tuning
 * and table on the terminal), into one Go report of two sections, each with
 * its configuration lines (`backend: user`, then `backend: kmod`), which
 * benchstat compares with `-col backend`.  Then, on stderr, what ring 0
 * removes (report/backends.h).  Ctrl-C stops the run under way, which keeps
 * what it finished; the report then has the sections that have trials.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/run_parts.h"
#include "cmd/subcommands.h"
#include "report/backends.h"
#include "report/outfile.h"
#include "report/readfile.h"
#include "session/session.h"

/* A report's largest size we read back. */
#define REPORT_MAX_BYTES (256u << 20)

static const char *const backends[2] = { "user", "kmod" };

static volatile sig_atomic_t stopped;

/* The child run has the signal too, keeps what it finished and ends: we
 * wait for it, then write what there is. */
static void on_signal(int sig)
{
	stopped = sig;
}

/* `cbenchctl run` of one backend into dir/<backend>.txt and .json. */
static int run_backend(const struct cbench_run_options *o, const char *backend, const char *dir)
{
	char trials[16], limit[32], trial[32], warmup[32], txt[PATH_MAX], json[PATH_MAX];
	const char *argv[32];
	int argc = 0;

	snprintf(trials, sizeof(trials), "%u", o->trials);
	snprintf(limit, sizeof(limit), "%.17g", o->time_limit_s);
	snprintf(trial, sizeof(trial), "%.17g", o->trial_time_s);
	snprintf(warmup, sizeof(warmup), "%.17g", o->warmup_s);
	snprintf(txt, sizeof(txt), "%s/%s.txt", dir, backend);
	snprintf(json, sizeof(json), "%s/%s.json", dir, backend);
	argv[argc++] = "cbenchctl";
	argv[argc++] = "run";
	argv[argc++] = "--backend";
	argv[argc++] = backend;
	argv[argc++] = "--trials";
	argv[argc++] = trials;
	argv[argc++] = "--time-limit";
	argv[argc++] = limit;
	argv[argc++] = "--trial-time";
	argv[argc++] = o->trial_time_s > 0 ? trial : "auto";
	argv[argc++] = "--warmup";
	argv[argc++] = o->warmup_s > 0 ? warmup : "auto";
	if (o->filter) {
		argv[argc++] = "--filter";
		argv[argc++] = o->filter;
	}
	if (o->cpu >= 0) {
		static char cpu[16];

		snprintf(cpu, sizeof(cpu), "%d", o->cpu);
		argv[argc++] = "--cpu";
		argv[argc++] = cpu;
	}
	if (o->retune)
		argv[argc++] = "--retune";
	/* cbench.ko runs the image as uploaded: user mode measures the code
	 * where it was loaded too, so both sections have one code-layout line
	 * and benchstat -col backend sets them side by side. */
	argv[argc++] = "--fixed-layout";
	if (o->quiet >= 0 && !strcmp(backend, "kmod")) {
		argv[argc++] = "--quiet-mode";
		argv[argc++] = cbench_quiet_name(o->quiet);
	}
	argv[argc++] = "-o";
	argv[argc++] = txt;
	argv[argc++] = "-o";
	argv[argc++] = json;
	argv[argc++] = o->so_path;
	argv[argc] = NULL;
	fprintf(stderr, "%s backend:\n", backend);
	return cbench_session_run_self(argv, NULL);
}

/* Both sections that exist, user first, into out; 0 or -errno. */
static int write_go(struct cbench_outfile *out, const char *dir, const bool have[2])
{
	char path[PATH_MAX], *text;
	size_t len;
	int ret = 0;

	for (int b = 0; b < 2 && !ret; b++) {
		if (!have[b])
			continue;
		snprintf(path, sizeof(path), "%s/%s.txt", dir, backends[b]);
		ret = cbench_read_file(path, REPORT_MAX_BYTES, &text, &len);
		if (ret)
			break;
		if (b && have[0])
			fputc('\n', out->file);
		fwrite(text, 1, len, out->file);
		free(text);
	}
	if (!ret && ferror(out->file))
		ret = -EIO;
	return ret ? ret : cbench_outfile_commit(out);
}

/* The two JSON reports side by side on stderr. */
static void compare_backends(const char *dir)
{
	struct cbench_json *r[2] = { NULL, NULL };
	char path[PATH_MAX], why[256], *text;
	size_t len;

	for (int b = 0; b < 2; b++) {
		snprintf(path, sizeof(path), "%s/%s.json", dir, backends[b]);
		if (!cbench_read_file(path, REPORT_MAX_BYTES, &text, &len)) {
			if (cbench_json_parse(text, len, &r[b], why, sizeof(why)))
				r[b] = NULL;
			free(text);
		}
	}
	if (r[0] && r[1])
		cbench_backends_print(stderr, r[0], r[1], NULL, NULL, 0);
	cbench_json_free(r[0]);
	cbench_json_free(r[1]);
}

static void remove_dir(const char *dir)
{
	char path[PATH_MAX];

	for (int b = 0; b < 2; b++) {
		for (int k = 0; k < 2; k++) {
			snprintf(path, sizeof(path), "%s/%s.%s", dir, backends[b], k ? "json" : "txt");
			unlink(path);
		}
	}
	rmdir(dir);
}

/* The kmod backend's preconditions, checked before anything runs. */
static int check_kmod(const struct cbench_run_options *o)
{
	char why[CBENCH_ERR_LEN];

	if (!cbench_backend_kmod_available()) {
		cbench_err("unable to run --backend both: cbench.ko is not loaded, or we are not root; "
			   "load it (docs/lab.md) or use --backend user\n");
		return -1;
	}
	if (cbench_backend_kmod_check(o->so_path, why, sizeof(why))) {
		cbench_err("unable to run --backend both: %s\n", why);
		return -1;
	}
	return 0;
}

int cbench_run_both(const struct cbench_run_options *o)
{
	char dir[] = "/tmp/cbench-both.XXXXXX";
	struct sigaction sa = { .sa_handler = on_signal }, old[3];
	static const int sigs[3] = { SIGINT, SIGTERM, SIGHUP };
	struct cbench_outfile out;
	int status[2] = { -1, -1 }, ret, worst = 0;
	bool have[2] = { false, false };

	if (check_kmod(o))
		return 1;
	ret = cbench_outfile_open(&out, o->output);
	if (ret) {
		cbench_err("unable to write %s: %s\n", o->output ? o->output : "standard output",
			   cbench_outfile_error(&out, ret));
		return 1;
	}
	if (!mkdtemp(dir)) {
		cbench_err("unable to make a scratch directory in /tmp: %s\n", strerror(errno));
		cbench_outfile_abort(&out);
		return 1;
	}
	for (int i = 0; i < 3; i++)
		sigaction(sigs[i], &sa, &old[i]);
	for (int b = 0; b < 2 && !stopped; b++) {
		status[b] = run_backend(o, backends[b], dir);
		/* 0 all passed, 1 some benchmark failed, 128 + n a signal:
		 * each leaves its reports; 2 and others leave none. */
		have[b] = status[b] == 0 || status[b] == 1 || status[b] > 128;
		worst = status[b] > worst ? status[b] : worst;
		if (status[b] < 0 || status[b] == 2 || (status[b] > 1 && status[b] <= 128))
			break;
	}
	for (int i = 0; i < 3; i++)
		sigaction(sigs[i], &old[i], NULL);
	if (have[0] || have[1]) {
		char path[PATH_MAX];

		/* A run stopped before any trial finished wrote nothing. */
		for (int b = 0; b < 2; b++) {
			snprintf(path, sizeof(path), "%s/%s.txt", dir, backends[b]);
			have[b] &= access(path, R_OK) == 0;
		}
	}
	/* As run: on a terminal the report would scroll the tables away,
	 * so it is written only where -o (or -o -) says. */
	if ((have[0] || have[1]) && !o->output && isatty(STDOUT_FILENO)) {
		cbench_outfile_abort(&out);
	} else if (have[0] || have[1]) {
		ret = write_go(&out, dir, have);
		if (ret)
			cbench_err("unable to write %s: %s\n", o->output ? o->output : "the report",
				   cbench_outfile_error(&out, ret));
		worst = ret && !worst ? 1 : worst;
	} else {
		cbench_outfile_abort(&out);
		worst = worst ? worst : 1;
	}
	if (have[0] && have[1])
		compare_backends(dir);
	if (stopped)
		cbench_err("interrupted (%s): the report has the %s that finished\n", strsignal(stopped),
			   have[1] ? "runs" : have[0] ? "user-mode run" : "nothing");
	remove_dir(dir);
	return worst < 0 ? 1 : worst;
}
