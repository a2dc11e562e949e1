// SPDX-License-Identifier: GPL-2.0
/*
 * `cbenchctl run --backend both`: the same benchmarks in user mode, then in
 * ring 0, as two runs in this process (each with its own session, workers,
 * tuning and table on the terminal), into one Go report of two sections,
 * each with its configuration lines (`backend: user`, then `backend:
 * kmod`), which benchstat compares with `-col backend`.  Then, on stderr,
 * what ring 0 removes (report/backends.h).  Ctrl-C stops the run under
 * way, which keeps what it finished, and no other starts; the report then
 * has the sections that have trials.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/run_parts.h"
#include "error.h"
#include "report/backends.h"
#include "report/outfile.h"
#include "report/report.h"
#include "session/session.h"

static const char *const backends[2] = { "user", "kmod" };

/* What one backend's run leaves: its Go section and its side of the comparison. */
struct section {
	char *go;
	size_t len;
	bool have;
	struct cbench_backend_run run;
};

static int take(const struct cbench_report *r, void *arg)
{
	struct section *sec = arg;
	FILE *mem = open_memstream(&sec->go, &sec->len);
	int ret = mem ? cbench_report_go(r, mem) : -ENOMEM;

	if (mem && fclose(mem) && !ret)
		ret = -ENOMEM;
	if (!ret)
		ret = cbench_backend_run_of(r, &sec->run);
	if (ret) {
		cbench_err("unable to keep the %s backend's report: %s\n", r->backend, strerror(-ret));
		return -1;
	}
	sec->have = true;
	return 0;
}

/* One backend's run of o's benchmarks into sec; its exit status. */
static int run_backend(const struct cbench_run_options *o, int b, struct section *sec)
{
	struct cbench_run_options one = *o;
	const struct cbench_run_taker taker = { .take = take, .arg = sec };

	one.backend = b ? CBENCH_BACKEND_KMOD : CBENCH_BACKEND_USER;
	one.both = false;
	/* cbench.ko runs the image as uploaded: user mode measures the code
	 * where it was loaded too, so both sections have one code-layout line
	 * and benchstat -col backend sets them side by side. */
	one.fixed_layout = true;
	one.quiet = b ? o->quiet : -1;
	/* Its Go section is taken, not written. */
	one.nreports = 0;
	fprintf(stderr, "%s backend:\n", backends[b]);
	return cbench_run(&one, &taker);
}

/* Both sections that exist, user first, into out; 0 or -errno. */
static int write_go(struct cbench_outfile *out, const struct section sec[2])
{
	for (int b = 0; b < 2; b++) {
		if (!sec[b].have)
			continue;
		if (b && sec[0].have)
			fputc('\n', out->file);
		fwrite(sec[b].go, 1, sec[b].len, out->file);
	}
	return ferror(out->file) ? -EIO : cbench_outfile_commit(out);
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
	struct section sec[2] = { { 0 }, { 0 } };
	struct cbench_outfile out;
	int status, ret, worst = 0;

	if (check_kmod(o))
		return 1;
	ret = cbench_outfile_open(&out, o->output);
	if (ret) {
		cbench_err("unable to write %s: %s\n", o->output ? o->output : "standard output",
			   cbench_outfile_error(&out, ret));
		return 1;
	}
	for (int b = 0; b < 2 && !cbench_session_stopped(); b++) {
		status = run_backend(o, b, &sec[b]);
		/* 0 all passed, 1 some benchmark failed or an error, 128 + n a
		 * signal: the run kept what it finished, if anything. */
		worst = status > worst ? status : worst;
		if (!sec[b].have)
			break;
	}
	/* As run: on a terminal the report would scroll the tables away,
	 * so it is written only where -o (or -o -) says. */
	if ((sec[0].have || sec[1].have) && !o->output && isatty(STDOUT_FILENO)) {
		cbench_outfile_abort(&out);
	} else if (sec[0].have || sec[1].have) {
		ret = write_go(&out, sec);
		if (ret)
			cbench_err("unable to write %s: %s\n", o->output ? o->output : "the report",
				   cbench_outfile_error(&out, ret));
		worst = ret && !worst ? 1 : worst;
	} else {
		cbench_outfile_abort(&out);
		worst = worst ? worst : 1;
	}
	if (sec[0].have && sec[1].have)
		cbench_backends_print(stderr, &sec[0].run, &sec[1].run, NULL, NULL, 0);
	if (cbench_session_stopped())
		cbench_err("interrupted (%s): the report has the %s that finished\n",
			   strsignal(cbench_session_stopped()),
			   sec[1].have ? "runs" : sec[0].have ? "user-mode run" : "nothing");
	for (int b = 0; b < 2; b++) {
		free(sec[b].go);
		cbench_backend_run_free(&sec[b].run);
	}
	return worst;
}
