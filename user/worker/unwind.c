// SPDX-License-Identifier: GPL-2.0
/* Unwinding a sample's user stack with libdwfl; see unwind.h. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <asm/perf_regs.h>
#include <elfutils/libdwfl.h>

#include "worker/unwind.h"

/* DWARF's x86-64 registers 0-16 (the System V ABI's numbering: RAX, RDX,
 * RCX, RBX, RSI, RDI, RBP, RSP, R8-R15, then the return address, RIP), as
 * indexes of struct cbench_sampler_rec's regs (perf's order, with the
 * registers perf leaves out squeezed away). */
static const unsigned char dwarf_from_perf[17] = {
	PERF_REG_X86_AX, PERF_REG_X86_DX, PERF_REG_X86_CX, PERF_REG_X86_BX,
	PERF_REG_X86_SI, PERF_REG_X86_DI, PERF_REG_X86_BP, PERF_REG_X86_SP,
	9, 10, 11, 12, 13, 14, 15, 16,		/* R8 to R15 follow IP */
	PERF_REG_X86_IP,
};

struct cbench_unwinder {
	Dwfl *dwfl;
	pid_t tid;
	const struct cbench_sampler_rec *rec;	/* the sample being unwound */
	uint64_t *pcs;
	size_t n, max;
};

static char *debuginfo_path;

static const Dwfl_Callbacks callbacks = {
	.find_elf = dwfl_linux_proc_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.debuginfo_path = &debuginfo_path,
};

/* One thread: ours. */
static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	struct cbench_unwinder *u = arg;

	(void)dwfl;
	if (*thread_argp)
		return 0;
	*thread_argp = u;
	return u->tid;
}

static bool get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
	struct cbench_unwinder *u = arg;

	(void)dwfl;
	*thread_argp = u;
	return tid == u->tid;
}

/* Stack words from the sample's copy; nothing else is read. */
static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	const struct cbench_unwinder *u = arg;
	const struct cbench_sampler_rec *r = u->rec;
	uint64_t sp = r->regs[PERF_REG_X86_SP];

	(void)dwfl;
	if (r->stack_size < sizeof(*result) || addr < sp || addr - sp > r->stack_size - sizeof(*result))
		return false;
	memcpy(result, r->stack + (addr - sp), sizeof(*result));
	return true;
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	const struct cbench_unwinder *u = arg;
	Dwarf_Word regs[17];

	for (size_t i = 0; i < 17; i++)
		regs[i] = u->rec->regs[dwarf_from_perf[i]];
	return dwfl_thread_state_registers(thread, 0, 17, regs);
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.get_thread = get_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

int cbench_unwind_open(struct cbench_unwinder **out, char *err, size_t errlen)
{
	struct cbench_unwinder *u = calloc(1, sizeof(*u));
	FILE *maps;
	int ret;

	*out = NULL;
	if (!u) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	u->tid = gettid();
	u->dwfl = dwfl_begin(&callbacks);
	if (!u->dwfl) {
		snprintf(err, errlen, "libdwfl: %s", dwfl_errmsg(-1));
		free(u);
		return -ENOMEM;
	}
	/* /proc/self, not /proc/PID: the worker may be in a PID namespace
	 * of its own, where getpid() names another process in our /proc. */
	maps = fopen("/proc/self/maps", "re");
	if (!maps) {
		ret = errno;
	} else {
		dwfl_report_begin(u->dwfl);
		ret = dwfl_linux_proc_maps_report(u->dwfl, maps);
		fclose(maps);
	}
	if (ret || dwfl_report_end(u->dwfl, NULL, NULL) ||
	    !dwfl_attach_state(u->dwfl, NULL, getpid(), &thread_callbacks, u)) {
		snprintf(err, errlen, "cannot read this process's mappings for unwinding: %s",
			 ret > 0 ? strerror(ret) : dwfl_errmsg(-1));
		cbench_unwind_close(u);
		return ret > 0 ? -ret : -EIO;
	}
	*out = u;
	return 0;
}

void cbench_unwind_close(struct cbench_unwinder *u)
{
	if (!u)
		return;
	if (u->dwfl)
		dwfl_end(u->dwfl);
	free(u);
}

static int on_frame(Dwfl_Frame *state, void *arg)
{
	struct cbench_unwinder *u = arg;
	Dwarf_Addr pc;
	bool activation;

	if (!dwfl_frame_pc(state, &pc, &activation) || !pc)
		return DWARF_CB_ABORT;
	u->pcs[u->n++] = activation ? pc : pc - 1;
	return u->n < u->max ? DWARF_CB_OK : DWARF_CB_ABORT;
}

size_t cbench_unwind(struct cbench_unwinder *u, const struct cbench_sampler_rec *rec, uint64_t *pcs,
		     size_t max)
{
	if (!rec->have_regs || !max)
		return 0;
	u->rec = rec;
	u->pcs = pcs;
	u->n = 0;
	u->max = max;
	/* An error ends the walk where it is: the frames so far are right. */
	dwfl_getthread_frames(u->dwfl, u->tid, on_frame, u);
	u->rec = NULL;
	return u->n;
}
