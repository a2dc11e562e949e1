// SPDX-License-Identifier: GPL-2.0
/* Atomic output files; see outfile.h. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"

/* Open outfiles with a temporary file, for the signal handler. */
#define MAX_OPEN 8
static struct cbench_outfile *volatile open_files[MAX_OPEN];

static void track(struct cbench_outfile *o, struct cbench_outfile *with)
{
	for (int i = 0; i < MAX_OPEN; i++) {
		if (open_files[i] == o) {
			open_files[i] = with;
			return;
		}
	}
}

void cbench_outfile_cleanup_and_die(int sig)
{
	for (int i = 0; i < MAX_OPEN; i++) {
		if (open_files[i])
			unlink(open_files[i]->tmp_path);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

int cbench_outfile_open(struct cbench_outfile *o, const char *path)
{
	int fd;

	memset(o, 0, sizeof(*o));
	if (!path || !strcmp(path, "-")) {
		o->file = stdout;
		return 0;
	}
	if (strlen(path) >= sizeof(o->path))
		return -ENAMETOOLONG;
	/* rename() would refuse only at the end, after the whole run. */
	{
		struct stat st;

		if (!stat(path, &st) && S_ISDIR(st.st_mode))
			return -EISDIR;
	}
	strcpy(o->path, path);
	snprintf(o->tmp_path, sizeof(o->tmp_path), "%s.XXXXXX", path);
	fd = mkstemp(o->tmp_path);
	if (fd < 0)
		return -errno;
	/* mkstemp makes 0600; a report is as readable as any file we create. */
	{
		mode_t mask = umask(0);

		umask(mask);
		fchmod(fd, 0666 & ~mask);
	}
	o->file = fdopen(fd, "w");
	if (!o->file) {
		int ret = -errno;

		close(fd);
		unlink(o->tmp_path);
		return ret;
	}
	track(NULL, o);
	return 0;
}

int cbench_outfile_commit(struct cbench_outfile *o)
{
	int ret = 0;

	if (!o->file)
		return -EBADF;
	if (!o->path[0]) {
		ret = fflush(o->file) ? -errno : 0;
		o->file = NULL;
		return ret;
	}
	if (fflush(o->file) || ferror(o->file) || fsync(fileno(o->file)))
		ret = errno ? -errno : -EIO;
	if (fclose(o->file) && !ret)
		ret = -errno;
	o->file = NULL;
	if (!ret && rename(o->tmp_path, o->path))
		ret = -errno;
	track(o, NULL);
	if (ret)
		unlink(o->tmp_path);
	return ret;
}

void cbench_outfile_abort(struct cbench_outfile *o)
{
	if (!o->file)
		return;
	if (o->path[0]) {
		fclose(o->file);
		unlink(o->tmp_path);
		track(o, NULL);
	}
	o->file = NULL;
}
