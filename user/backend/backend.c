// SPDX-License-Identifier: GPL-2.0
/* Choosing a backend; the backends themselves live in backend_<name>.c. */
#include <errno.h>
#include <string.h>

#include "backend/backend.h"

int cbench_backend_parse(const char *s, enum cbench_backend_kind *kind)
{
	if (!strcmp(s, "auto"))
		*kind = CBENCH_BACKEND_AUTO;
	else if (!strcmp(s, "user"))
		*kind = CBENCH_BACKEND_USER;
	else if (!strcmp(s, "kmod"))
		*kind = CBENCH_BACKEND_KMOD;
	else
		return -EINVAL;
	return 0;
}

int cbench_backend_choose(enum cbench_backend_kind kind, bool kmod_available,
			  const struct cbench_backend_ops **ops)
{
	switch (kind) {
	case CBENCH_BACKEND_AUTO:
		*ops = kmod_available ? &cbench_backend_kmod : &cbench_backend_user;
		return 0;
	case CBENCH_BACKEND_USER:
		*ops = &cbench_backend_user;
		return 0;
	case CBENCH_BACKEND_KMOD:
		if (!kmod_available)
			break;
		*ops = &cbench_backend_kmod;
		return 0;
	}
	return -ENODEV;
}

int cbench_backend_select(enum cbench_backend_kind kind, const struct cbench_backend_ops **ops)
{
	return cbench_backend_choose(kind, cbench_backend_kmod_available(), ops);
}
