// SPDX-License-Identifier: GPL-2.0
/* Atomic output files; see outfile.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"

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
	}
	o->file = NULL;
}
