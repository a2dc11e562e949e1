/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Output files written atomically: a temporary file in the destination's
 * directory, renamed over it on commit, removed on abort, so a reader sees
 * the old file or the whole new one, never a part.  A character device
 * (/dev/null, /dev/full, a terminal) is written in place, as a shell
 * redirect would; anything else that is not a regular file is refused.
 */
#ifndef _CBENCH_OUTFILE_H
#define _CBENCH_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

struct cbench_outfile {
	FILE *file;
	char path[4096];		/* "" for stdout; symbolic links resolved */
	char tmp_path[4096 + 64];	/* "" when written in place */
	bool committed;			/* renamed into place */
	int fd;
	int write_errno;		/* the first failed write's errno; 0 if none */
	char why[160];			/* why open or commit refused, if not strerror's */
};

/* path NULL or "-" means stdout.  Returns 0 or -errno. */
int cbench_outfile_open(struct cbench_outfile *o, const char *path);
/* Flushes, syncs and renames into place.  Returns 0 or -errno (then aborted). */
int cbench_outfile_commit(struct cbench_outfile *o);
void cbench_outfile_abort(struct cbench_outfile *o);
/* Removes a file commit renamed into place (never a device); 0 or -errno. */
int cbench_outfile_retract(struct cbench_outfile *o);
/* What went wrong with o, for a message: o->why, else the failed write's
 * error (a writer sees only ferror()), else strerror(-ret). */
const char *cbench_outfile_error(const struct cbench_outfile *o, int ret);

/*
 * Installs handler for SIGINT, SIGTERM and SIGHUP, each blocking the others
 * while it runs, so an interrupted cleanup is not interrupted again.
 */
void cbench_outfile_handle_signals(void (*handler)(int));

/*
 * Removes the temporary files of every open outfile and dies of sig: for
 * SIGINT/SIGTERM handlers, so an interrupted run leaves nothing behind.
 * Async-signal-safe.
 */
void cbench_outfile_cleanup_and_die(int sig);

#endif /* _CBENCH_OUTFILE_H */
