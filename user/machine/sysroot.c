// SPDX-License-Identifier: GPL-2.0
/* The kernel's files under a root prefix; see sysroot.h. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "machine/sysroot.h"

static const char *root;

const char *cbench_sysroot_get(void)
{
	if (!root) {
		const char *env = getenv("CBENCH_SYSROOT");

		root = env ? env : "";
	}
	return root;
}

void cbench_sysroot_set(const char *r)
{
	root = r;
}

bool cbench_sysroot_is_real(void)
{
	const char *r = cbench_sysroot_get();

	return !r[0] || !strcmp(r, "/");
}

int cbench_sysroot_path(char *buf, size_t size, const char *path)
{
	const char *r = cbench_sysroot_get();
	int n;

	/* "/" and "" both mean the real root; we never make "//proc". */
	if (!strcmp(r, "/"))
		r = "";
	n = snprintf(buf, size, "%s%s", r, path);
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

ssize_t cbench_sysroot_read(const char *path, char *buf, size_t size)
{
	char full[4096];
	size_t len = 0;
	int fd, ret = cbench_sysroot_path(full, sizeof(full), path);

	if (ret)
		return ret;
	fd = open(full, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* sysfs and procfs files may come in several reads; we take them all,
	 * and one byte more to tell a file that fills buf from a longer one. */
	for (;;) {
		char extra;
		ssize_t n = len + 1 < size ? read(fd, buf + len, size - 1 - len) : read(fd, &extra, 1);

		if (n < 0) {
			ret = -errno;
			close(fd);
			return ret;
		}
		if (!n)
			break;
		if (len + 1 >= size) {
			close(fd);
			return -EFBIG;
		}
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	return (ssize_t)len;
}

ssize_t cbench_sysroot_read_line(const char *path, char *buf, size_t size)
{
	ssize_t n = cbench_sysroot_read(path, buf, size);

	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return n;
}

int cbench_sysroot_read_long(const char *path, long *value)
{
	char buf[64], *end;
	ssize_t n = cbench_sysroot_read_line(path, buf, sizeof(buf));

	if (n < 0)
		return (int)n;
	errno = 0;
	*value = strtol(buf, &end, 10);
	return errno || end == buf || *end ? -EINVAL : 0;
}

int cbench_sysroot_read_choice(const char *path, char *buf, size_t size)
{
	char raw[256], *open, *close;
	ssize_t n = cbench_sysroot_read_line(path, raw, sizeof(raw));

	if (n < 0)
		return (int)n;
	open = strchr(raw, '[');
	close = open ? strchr(open, ']') : NULL;
	if (!open || !close) {
		snprintf(buf, size, "%.*s", (int)size - 1, raw);
		return 0;
	}
	*close = '\0';
	snprintf(buf, size, "%.*s", (int)size - 1, open + 1);
	return 0;
}

int cbench_sysroot_write(const char *path, const char *buf, size_t len)
{
	char full[4096];
	ssize_t n;
	int fd, ret = cbench_sysroot_path(full, sizeof(full), path);

	if (ret)
		return ret;
	fd = open(full, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, buf, len);
	ret = n < 0 ? -errno : (size_t)n != len ? -EIO : 0;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

bool cbench_sysroot_exists(const char *path)
{
	char full[4096];

	return !cbench_sysroot_path(full, sizeof(full), path) && !access(full, F_OK);
}

long cbench_sysroot_find_process(const char *name)
{
	char dir[4096], path[300], comm[64];
	struct dirent *e;
	long pid = 0;
	DIR *proc;

	if (cbench_sysroot_path(dir, sizeof(dir), "/proc"))
		return 0;
	proc = opendir(dir);
	if (!proc)
		return 0;
	while (!pid && (e = readdir(proc))) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", e->d_name);
		if (cbench_sysroot_read_line(path, comm, sizeof(comm)) > 0 && !strcmp(comm, name))
			pid = atol(e->d_name);
	}
	closedir(proc);
	return pid;
}

#define WORD_BITS (8 * sizeof(unsigned long))

int cbench_cpulist_parse(const char *s, unsigned long *bits, unsigned int nbits)
{
	memset(bits, 0, (nbits + WORD_BITS - 1) / WORD_BITS * sizeof(*bits));
	while (isspace((unsigned char)*s))
		s++;
	while (*s && *s != '\n') {
		char *end;
		unsigned long first, last;

		if (!isdigit((unsigned char)*s))
			return -EINVAL;
		first = strtoul(s, &end, 10);
		last = first;
		if (*end == '-') {
			if (!isdigit((unsigned char)end[1]))
				return -EINVAL;
			last = strtoul(end + 1, &end, 10);
		}
		if (first > last || last >= nbits)
			return -EINVAL;
		for (unsigned long cpu = first; cpu <= last; cpu++)
			cbench_cpuset_add(bits, (unsigned int)cpu);
		s = end;
		if (*s == ',')
			s++;
		else if (*s && *s != '\n')
			return -EINVAL;
	}
	return 0;
}

bool cbench_cpulist_has(const char *s, unsigned int cpu)
{
	unsigned long bits[CBENCH_CPU_WORDS];

	return cpu < CBENCH_MAX_CPUS && !cbench_cpulist_parse(s, bits, CBENCH_MAX_CPUS) &&
	       cbench_cpuset_has(bits, cpu);
}

bool cbench_cpuset_has(const unsigned long *bits, unsigned int cpu)
{
	return bits[cpu / WORD_BITS] >> (cpu % WORD_BITS) & 1;
}

void cbench_cpuset_add(unsigned long *bits, unsigned int cpu)
{
	bits[cpu / WORD_BITS] |= 1UL << (cpu % WORD_BITS);
}

int cbench_cpulist_format(const unsigned long *bits, unsigned int nbits, char *buf, size_t size)
{
	size_t len = 0;

	if (!size)
		return -ENOSPC;
	buf[0] = '\0';
	for (unsigned int i = 0; i < nbits; i++) {
		unsigned int j = i;
		int n;

		if (!cbench_cpuset_has(bits, i))
			continue;
		while (j + 1 < nbits && cbench_cpuset_has(bits, j + 1))
			j++;
		if (j == i)
			n = snprintf(buf + len, size - len, "%s%u", len ? "," : "", i);
		else
			n = snprintf(buf + len, size - len, "%s%u-%u", len ? "," : "", i, j);
		if (n < 0 || (size_t)n >= size - len)
			return -ENOSPC;
		len += (size_t)n;
		i = j;
	}
	return 0;
}
