// SPDX-License-Identifier: GPL-2.0
/*
 * What a benchmark object's file says before anything maps it: where
 * CBENCH() put its descriptors, and its build id (its GNU build id, else a
 * hash of the file), read with libelf.
 */
#include <elf.h>
#include <errno.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "object/elffile.h"
#include "object/loader_parts.h"

static uint64_t fnv1a64(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;

	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

static int hash_file(int fd, char *out, size_t len)
{
	unsigned char buf[65536];
	uint64_t h = 0xcbf29ce484222325ULL;
	ssize_t got;

	if (lseek(fd, 0, SEEK_SET) < 0)
		return -errno;
	while ((got = read(fd, buf, sizeof(buf))) > 0)
		h = fnv1a64(h, buf, (size_t)got);
	if (got < 0)
		return -errno;
	snprintf(out, len, "fnv1a64:%016" PRIx64, h);
	return 0;
}

/* The section CBENCH() puts descriptors in, and the GNU build id, from the
 * section headers. */
static void read_sections(Elf *elf, size_t shstrndx, struct cbench_elf_facts *f)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr shdr;
		const char *name;

		if (!gelf_getshdr(scn, &shdr))
			continue;
		name = elf_strptr(elf, shstrndx, shdr.sh_name);
		if (name && !strcmp(name, CBENCH_SECTION)) {
			f->has_descs = 1;
			f->descs_addr = shdr.sh_addr;
			f->descs_bytes = shdr.sh_size;
		}
		if (shdr.sh_type == SHT_NOTE && !f->build_id[0]) {
			Elf_Data *data = elf_getdata(scn, NULL);
			GElf_Nhdr nhdr;
			size_t off = 0, name_off, desc_off;

			while (data && (off = gelf_getnote(data, off, &nhdr, &name_off, &desc_off)) > 0) {
				const unsigned char *d = (const unsigned char *)data->d_buf + desc_off;

				if (nhdr.n_type != NT_GNU_BUILD_ID || nhdr.n_namesz != 4 ||
				    memcmp((const char *)data->d_buf + name_off, "GNU", 4))
					continue;
				for (size_t i = 0; i < nhdr.n_descsz && 2 * i + 3 < sizeof(f->build_id); i++)
					snprintf(f->build_id + 2 * i, 3, "%02x", d[i]);
				break;
			}
		}
	}
}

int cbench_elf_facts_read(const char *path, struct cbench_elf_facts *f, char *err, size_t errlen)
{
	struct cbench_elf e;
	size_t shstrndx;
	int ret;

	memset(f, 0, sizeof(*f));
	ret = cbench_elf_open(&e, path, err, errlen);
	if (ret)
		return ret;
	ret = -ENOEXEC;
	if (elf_getshdrstrndx(e.elf, &shstrndx) < 0) {
		snprintf(err, errlen, "%s has no section names: %s", path, elf_errmsg(-1));
		goto out;
	}
	read_sections(e.elf, shstrndx, f);
	ret = 0;
	if (!f->build_id[0])
		ret = hash_file(e.fd, f->build_id, sizeof(f->build_id));
out:
	cbench_elf_close(&e);
	return ret;
}

int cbench_object_build_id(const char *path, char *out, size_t len, char *err, size_t errlen)
{
	struct cbench_elf_facts f;
	int ret = cbench_elf_facts_read(path, &f, err, errlen);

	if (!ret)
		snprintf(out, len, "%s", f.build_id);
	return ret;
}
