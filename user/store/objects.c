// SPDX-License-Identifier: GPL-2.0
/* Objects kept in the store by build ID; see objects.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "object/loader.h"
#include "report/readfile.h"
#include "store/objects.h"
#include "store/store.h"

/* The largest object the store keeps: a benchmark, not a disk image. */
#define OBJECT_MAX (256u << 20)

int cbench_store_put_object(struct cbench_store *s, const char *path, char *id, size_t idlen,
			    char *err, size_t errlen)
{
	const char *slash = strrchr(path, '/');
	const char *name = slash ? slash + 1 : path;
	char why[512], size[32], now[32];
	size_t len;
	char *data;
	int ret = cbench_object_build_id(path, id, idlen, why, sizeof(why));

	if (ret) {
		snprintf(err, errlen, "%s", why);
		return ret;
	}
	ret = cbench_read_file(path, OBJECT_MAX, &data, &len);
	if (ret) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(-ret));
		return ret;
	}
	ret = cbench_store_value(s, size, sizeof(size), "SELECT size FROM object WHERE build_id = ?",
				 "t", id);
	if (!ret && size[0] && atoll(size) != (long long)len) {
		snprintf(err, errlen, "the store keeps build %s as %s bytes, and %s is %zu: two objects "
			 "under one build ID? Give each build its own (-Wl,--build-id)", id, size, path, len);
		free(data);
		return -EINVAL;
	}
	cbench_store_now(now, sizeof(now));
	if (!ret && !size[0])
		ret = cbench_store_exec(s, "INSERT INTO object VALUES (?, ?, ?, ?, ?)", "ttibt", id, name,
					(long long)len, data, len, now) ? -EIO : 0;
	free(data);
	if (ret)
		return cbench_store_error(s, "cannot keep the object in the store", err, errlen);
	return 0;
}

/* Writes len bytes at data to path, whole or not at all. */
static int write_whole(const char *path, const void *data, size_t len, char *err, size_t errlen)
{
	char tmp[PATH_MAX];
	const char *p = data;
	int fd, ret = 0;

	snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		return -errno;
	}
	while (len && !ret) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			ret = n < 0 ? -errno : -EIO;
		else {
			p += n;
			len -= (size_t)n;
		}
	}
	if (!ret && (fchmod(fd, 0755) || fsync(fd)))
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(-ret));
		unlink(tmp);
	}
	return ret;
}

int cbench_store_get_object(struct cbench_store *s, const char *id, const char *dir, char *out,
			    size_t outlen, char *err, size_t errlen)
{
	struct cbench_store_stmt *q = cbench_store_query(s, "SELECT name, data FROM object WHERE "
							 "build_id = ?", "t", id);
	char got[80], why[512];
	void *data = NULL;
	size_t len = 0;
	int ret = -ENOENT;

	if (cbench_store_step(q) > 0) {
		const char *name = cbench_store_text(q, 0);

		ret = strchr(name, '/') || !strcmp(name, "..") || !strcmp(name, ".") ? -EINVAL : 0;
		if (!ret && snprintf(out, outlen, "%s/%s", dir, name) >= (int)outlen)
			ret = -ENAMETOOLONG;
		ret = ret ? ret : cbench_store_blob(q, 1, &data, &len);
	}
	if (cbench_store_end(q))
		ret = cbench_store_error(s, "cannot read the object from the store", err, errlen);
	else if (ret == -ENOENT)
		snprintf(err, errlen, "the store keeps no object of build %s (lab queue add and --keep-object "
			 "store keep them there)", id);
	else if (ret)
		snprintf(err, errlen, "the store's object of build %s has a name that is no file's", id);
	ret = ret ? ret : write_whole(out, data, len, err, errlen);
	free(data);
	if (ret)
		return ret;
	ret = cbench_object_build_id(out, got, sizeof(got), why, sizeof(why));
	if (!ret && strcmp(got, id))
		ret = -EINVAL;
	if (ret) {
		snprintf(err, errlen, "the store's object of build %s is not that build (%s): the store "
			 "is damaged", id, ret == -EINVAL ? got : why);
		unlink(out);
	}
	return ret;
}

void cbench_store_scratch_remove(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char path[PATH_MAX];

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (unlink(path) && errno == EISDIR)
			cbench_store_scratch_remove(path);
	}
	if (d)
		closedir(d);
	rmdir(dir);
}
