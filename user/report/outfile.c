// SPDX-License-Identifier: GPL-2.0
/*
 * Atomic output files; see outfile.h.
 *
 * A temporary file is named ".<name>.cbench-tmp.<pid>.XXXXXX" beside its
 * destination.  A signal handler removes ours; a SIGKILL leaves one behind,
 * so opening an output removes those in the same directory whose process no
 * longer exists.  (A process of another pid namespace sharing the directory
 * would look dead to us: we accept that for files named this way.)
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "object/elffile.h"
#include "report/outfile.h"

#define TMP_TAG ".cbench-tmp."

/* Open outfiles with a temporary file, for the signal handler. */
#define MAX_OPEN 8
static struct cbench_outfile *volatile open_files[MAX_OPEN];

static int track(struct cbench_outfile *o, struct cbench_outfile *with)
{
	for (int i = 0; i < MAX_OPEN; i++) {
		if (open_files[i] == o) {
			open_files[i] = with;
			return 0;
		}
	}
	return -EMFILE;
}

/*
 * The signals whose handler removes our temporary files are blocked while
 * a temporary file comes into being and is registered, and while it is
 * renamed and unregistered: a signal in between would leave it behind.
 */
static void block_signals(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, old);
}

void cbench_outfile_handle_signals(void (*handler)(int))
{
	struct sigaction sa = { .sa_handler = handler, .sa_flags = SA_RESTART };

	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGINT);
	sigaddset(&sa.sa_mask, SIGTERM);
	sigaddset(&sa.sa_mask, SIGHUP);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

void cbench_outfile_cleanup_and_die(int sig)
{
	for (int i = 0; i < MAX_OPEN; i++) {
		struct cbench_outfile *o = open_files[i];

		if (o && o->tmp_path[0])
			unlink(o->tmp_path);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

/* The pid in ".<name>.cbench-tmp.<pid>.XXXXXX", or 0 if name is not ours. */
static pid_t tmp_owner(const char *name)
{
	const char *tag = strstr(name, TMP_TAG), *p;
	long pid = 0;

	if (name[0] != '.' || !tag)
		return 0;
	for (p = tag + strlen(TMP_TAG); *p >= '0' && *p <= '9' && pid < INT_MAX / 10; p++)
		pid = pid * 10 + (*p - '0');
	if (*p != '.' || strlen(p + 1) != 6 || pid <= 0)
		return 0;
	return (pid_t)pid;
}

/* Removes our stale temporary files in dir: ours by name and owner, left by a
 * process that no longer exists (killed by SIGKILL, or a crash). */
static void remove_stale(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *ent;

	if (!d)
		return;
	while ((ent = readdir(d))) {
		pid_t pid = tmp_owner(ent->d_name);
		struct stat st;

		if (!pid || pid == getpid() || !(kill(pid, 0) < 0 && errno == ESRCH))
			continue;
		if (fstatat(dirfd(d), ent->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode) ||
		    st.st_uid != geteuid())
			continue;
		unlinkat(dirfd(d), ent->d_name, 0);
	}
	closedir(d);
}

/*
 * Our stream's writes go through here so that we keep the errno of a failed
 * one: a report writer sees only ferror(), and "No space left on device"
 * says more than "Input/output error".
 */
static ssize_t stream_write(void *cookie, const char *buf, size_t size)
{
	struct cbench_outfile *o = cookie;
	size_t done = 0;

	while (done < size) {
		ssize_t put = write(o->fd, buf + done, size - done);

		if (put < 0 && errno == EINTR)
			continue;
		if (put <= 0) {
			if (!o->write_errno)
				o->write_errno = put < 0 ? errno : EIO;
			return 0;
		}
		done += (size_t)put;
	}
	return (ssize_t)size;
}

static int stream_close(void *cookie)
{
	struct cbench_outfile *o = cookie;
	int ret = close(o->fd);

	o->fd = -1;
	return ret;
}

static int open_stream(struct cbench_outfile *o, int fd)
{
	static const cookie_io_functions_t io = { .write = stream_write, .close = stream_close };

	o->fd = fd;
	o->file = fopencookie(o, "w", io);
	if (!o->file) {
		int ret = -errno;

		close(fd);
		o->fd = -1;
		return ret;
	}
	return 0;
}

/* A character device: written in place, as `> /dev/null` would. */
static int open_device(struct cbench_outfile *o)
{
	int fd = open(o->path, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);

	if (fd < 0)
		return -errno;
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)) {
		int ret = -errno;

		close(fd);
		return ret;
	}
	return open_stream(o, fd);
}

static int open_tmp(struct cbench_outfile *o)
{
	char dir[sizeof(o->path)];
	const char *slash = strrchr(o->path, '/'), *base = slash ? slash + 1 : o->path;
	sigset_t old;
	int fd, ret;

	if (slash)
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - o->path + 1), o->path);
	else
		snprintf(dir, sizeof(dir), "./");
	remove_stale(dir);
	if ((size_t)snprintf(o->tmp_path, sizeof(o->tmp_path), "%s.%s" TMP_TAG "%d.XXXXXX", dir, base,
			     (int)getpid()) >= sizeof(o->tmp_path))
		return -ENAMETOOLONG;
	block_signals(&old);
	ret = track(NULL, o);
	fd = ret ? -1 : mkstemp(o->tmp_path);
	if (fd < 0) {
		ret = ret ? ret : -errno;
		track(o, NULL);
		o->tmp_path[0] = '\0';
		sigprocmask(SIG_SETMASK, &old, NULL);
		return ret;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	/* mkstemp makes 0600; a report is as readable as any file we create. */
	{
		mode_t mask = umask(0);

		umask(mask);
		fchmod(fd, 0666 & ~mask);
	}
	ret = open_stream(o, fd);
	if (ret)
		cbench_outfile_abort(o);
	return ret;
}

int cbench_outfile_open(struct cbench_outfile *o, const char *path)
{
	struct stat st;

	memset(o, 0, sizeof(*o));
	o->fd = -1;
	if (!path || !strcmp(path, "-")) {
		o->file = stdout;
		return 0;
	}
	if (strlen(path) >= sizeof(o->path))
		return -ENAMETOOLONG;
	strcpy(o->path, path);
	if (lstat(path, &st)) {
		if (errno != ENOENT)
			return -errno;
		return open_tmp(o);	/* a new file */
	}
	/* Through a symbolic link, the file it names is the one we replace
	 * (a device is opened through the link: /dev/stdout names no path). */
	if (S_ISLNK(st.st_mode)) {
		char resolved[PATH_MAX];

		if (stat(path, &st))
			return -errno;
		if (S_ISREG(st.st_mode)) {
			if (!realpath(path, resolved))
				return -errno;
			if (strlen(resolved) >= sizeof(o->path))
				return -ENAMETOOLONG;
			strcpy(o->path, resolved);
		}
	}
	if (S_ISREG(st.st_mode))
		return open_tmp(o);
	if (S_ISCHR(st.st_mode))
		return open_device(o);
	/* rename() would refuse only at the end, after the whole run. */
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	snprintf(o->why, sizeof(o->why), "it is %s: cbenchctl writes to regular files and character devices only",
		 cbench_file_kind(st.st_mode));
	return -EINVAL;
}

int cbench_outfile_commit(struct cbench_outfile *o)
{
	struct stat st;
	sigset_t old;
	int ret = 0;

	if (!o->file)
		return -EBADF;
	if (!o->path[0]) {
		ret = fflush(o->file) ? -errno : 0;
		o->file = NULL;
		return ret;
	}
	if (fflush(o->file) || ferror(o->file))
		ret = o->write_errno ? -o->write_errno : -EIO;
	else if (o->tmp_path[0] && fsync(o->fd))
		ret = -errno;
	if (fclose(o->file) && !ret)
		ret = -errno;
	o->file = NULL;
	if (!o->tmp_path[0])
		return ret;	/* a device, written in place */
	/* What took the destination's place while we ran is not ours to replace. */
	if (!ret && !lstat(o->path, &st) && !S_ISREG(st.st_mode)) {
		snprintf(o->why, sizeof(o->why), "it became %s while we ran; it is left as it is",
			 S_ISDIR(st.st_mode) ? "a directory" : S_ISCHR(st.st_mode) ? "a device" : cbench_file_kind(st.st_mode));
		ret = -EEXIST;
	}
	block_signals(&old);
	if (!ret && rename(o->tmp_path, o->path))
		ret = -errno;
	if (ret)
		unlink(o->tmp_path);
	o->committed = !ret;
	track(o, NULL);
	o->tmp_path[0] = '\0';
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ret;
}

void cbench_outfile_abort(struct cbench_outfile *o)
{
	sigset_t old;

	if (o->file && o->file != stdout)
		fclose(o->file);
	o->file = NULL;
	if (!o->tmp_path[0])
		return;
	block_signals(&old);
	unlink(o->tmp_path);
	track(o, NULL);
	o->tmp_path[0] = '\0';
	sigprocmask(SIG_SETMASK, &old, NULL);
}

int cbench_outfile_retract(struct cbench_outfile *o)
{
	if (!o->committed)
		return -ENOENT;
	o->committed = false;
	return unlink(o->path) ? -errno : 0;
}

const char *cbench_outfile_error(const struct cbench_outfile *o, int ret)
{
	if (o->why[0])
		return o->why;
	return strerror(o->write_errno ? o->write_errno : -ret);
}
