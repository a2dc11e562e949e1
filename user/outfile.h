/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Output files written atomically: a temporary file in the destination's
 * directory, renamed over it on commit, removed on abort, so a reader sees
 * the old file or the whole new one, never a part.
 */
#ifndef _CBENCH_OUTFILE_H
#define _CBENCH_OUTFILE_H

#include <stdio.h>

struct cbench_outfile {
	FILE *file;
	char path[4096];		/* "" for stdout */
	char tmp_path[4096 + 16];
};

/* path NULL or "-" means stdout.  Returns 0 or -errno. */
int cbench_outfile_open(struct cbench_outfile *o, const char *path);
/* Flushes, syncs and renames into place.  Returns 0 or -errno (then aborted). */
int cbench_outfile_commit(struct cbench_outfile *o);
void cbench_outfile_abort(struct cbench_outfile *o);

/*
 * Removes the temporary files of every open outfile and dies of sig: for
 * SIGINT/SIGTERM handlers, so an interrupted run leaves nothing behind.
 * Async-signal-safe.
 */
void cbench_outfile_cleanup_and_die(int sig);

#endif /* _CBENCH_OUTFILE_H */
