// SPDX-License-Identifier: GPL-2.0
/* Choosing a backend; the backends themselves live in backend_<name>.c. */
#include <errno.h>
#include <string.h>

#include <uapi/linux/cbench.h>

#include "backend/backend.h"

_Static_assert(CBENCH_HAVE_INSTRUCTIONS == CBENCH_COUNTER_F_INSTRUCTIONS &&
	       CBENCH_HAVE_CYCLES == CBENCH_COUNTER_F_CYCLES &&
	       CBENCH_HAVE_REF_CYCLES == CBENCH_COUNTER_F_REF_CYCLES,
	       "counter bits differ between cbench.ko and cbenchctl");

const char *const cbench_counter_names[CBENCH_COUNTER_KINDS] = {
	"instructions", "cycles", "ref-cycles",
};

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

void cbench_sample_add(struct cbench_sample *sum, const struct cbench_sample *one)
{
	sum->reps += one->reps;
	sum->ticks += one->ticks;
	sum->instructions += one->instructions;
	sum->cycles += one->cycles;
	sum->ref_cycles += one->ref_cycles;
	sum->have = one->have;
	sum->disturbed |= one->disturbed;
}
