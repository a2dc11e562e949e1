/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `cbenchctl doctor`'s checks, by what they look at.  doctor.c parses the
 * options and runs them in this order: the CPU is there (doctor_cpu.c),
 * the kmod backend can run (doctor_kmod.c), the CPU is quiet
 * (doctor_cpu.c), and, measured, the timer's step and the core clock's
 * drift (doctor_measure.c).  Each appends its checks of the CPU r->cpu to
 * r (report/report_doctor.h).
 */
#ifndef _CBENCH_DOCTOR_PARTS_H
#define _CBENCH_DOCTOR_PARTS_H

#include "machine/probe.h"
#include "report/report_doctor.h"

/* How long the drift check watches the core clock, in seconds. */
#define CBENCH_DOCTOR_DRIFT_SECONDS 2.5

/* Whether the CPU exists and is online. */
void cbench_doctor_check_online(struct cbench_doctor_report *r);
/* Whether cbench.ko is loaded, speaks our protocol, and may run benchmark code here. */
void cbench_doctor_check_kmod(struct cbench_doctor_report *r, const struct cbench_machine *m);
/* What disturbs the CPU: its PMU, clock, sibling, interrupts, huge pages, perf access. */
void cbench_doctor_check_cpu(struct cbench_doctor_report *r, const struct cbench_machine *m);
/* The timer's step and the core clock's drift, measured on the CPU. */
void cbench_doctor_check_measured(struct cbench_doctor_report *r);

#endif /* _CBENCH_DOCTOR_PARTS_H */
