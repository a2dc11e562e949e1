// SPDX-License-Identifier: GPL-2.0
/* Per-CPU run locks; see cpulock.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "machine/cpulock.h"
#include "error.h"

static int open_in(const char *dir, int cpu)
{
	char path[4096];
	int fd;

	if ((size_t)snprintf(path, sizeof(path), "%s/cbench-cpu%d.lock", dir, cpu) >= sizeof(path))
		return -ENAMETOOLONG;
	/*
	 * Without O_CREAT first: fs.protected_regular refuses O_CREAT on another
	 * user's file in a sticky directory, even to root.  O_NOFOLLOW: these
	 * directories are world-writable.  Read-only still takes an flock; we
	 * only lose the holder's pid in the message.
	 */
	fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && (errno == EACCES || errno == EPERM))
		fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT) {
		fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		/* Another run may have made it between our two opens. */
		if (fd < 0 && errno == EEXIST)
			fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	}
	return fd < 0 ? -errno : fd;
}

static int open_lock(int cpu)
{
	static const char *const dirs[] = { CBENCH_LOCK_DIRS };
	const char *dir = getenv("CBENCH_LOCK_DIR");
	int fd = -ENOENT;

	if (dir && *dir)
		return open_in(dir, cpu);
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		fd = open_in(dirs[i], cpu);
		if (fd >= 0)
			break;
	}
	return fd;
}

static pid_t read_holder(int fd)
{
	char buf[24] = "";
	ssize_t got = pread(fd, buf, sizeof(buf) - 1, 0);

	return got > 0 ? (pid_t)strtol(buf, NULL, 10) : 0;
}

static void write_holder(int fd)
{
	char buf[24];
	int len = snprintf(buf, sizeof(buf), "%d\n", (int)getpid());

	/* Only for the message a waiting run prints; the flock is the claim. */
	if (ftruncate(fd, 0) == 0 && pwrite(fd, buf, (size_t)len, 0) < 0)
		return;
}

int cbench_cpulock_try(int cpu, pid_t *holder)
{
	int fd = open_lock(cpu);

	*holder = 0;
	if (fd < 0)
		return fd;
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		int ret = errno == EWOULDBLOCK ? -EBUSY : -errno;

		if (ret == -EBUSY)
			*holder = read_holder(fd);
		close(fd);
		return ret;
	}
	write_holder(fd);
	return fd;
}

int cbench_cpulock_wait(int cpu, FILE *msg)
{
	pid_t holder;
	int fd = cbench_cpulock_try(cpu, &holder);

	if (fd != -EBUSY)
		return fd;
	if (holder > 0)
		fprintf(msg, "%s: waiting for CPU %d: cbenchctl (pid %d) is measuring on it\n",
			cbench_prog, cpu, (int)holder);
	else
		fprintf(msg, "%s: waiting for CPU %d: another run is measuring on it\n",
			cbench_prog, cpu);
	fd = open_lock(cpu);
	if (fd < 0)
		return fd;
	while (flock(fd, LOCK_EX)) {
		if (errno != EINTR) {
			int ret = -errno;

			close(fd);
			return ret;
		}
	}
	write_holder(fd);
	return fd;
}
