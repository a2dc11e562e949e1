// SPDX-License-Identifier: GPL-2.0
/* Reading a report file whole; see readfile.h. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "report/readfile.h"

int cbench_read_file(const char *path, size_t max, char **text, size_t *len)
{
	struct stat st;
	FILE *f;
	int ret = 0;

	*text = NULL;
	*len = 0;
	if (stat(path, &st))
		return -errno;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size > max)
		return -EFBIG;
	f = fopen(path, "re");
	if (!f)
		return -errno;
	*text = malloc((size_t)st.st_size + 1);
	if (!*text) {
		fclose(f);
		return -ENOMEM;
	}
	*len = fread(*text, 1, (size_t)st.st_size, f);
	(*text)[*len] = '\0';
	if (ferror(f))
		ret = -EIO;
	fclose(f);
	if (ret) {
		free(*text);
		*text = NULL;
		*len = 0;
	}
	return ret;
}
