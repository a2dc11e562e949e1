// SPDX-License-Identifier: GPL-2.0
/*
 * `cbenchctl insn`: the latency and reciprocal throughput of an instruction
 * or a short sequence given as assembly.  The sequence is read and checked
 * (object/asmseq.c), turned into a chain through its output and into
 * independent copies, each unrolled in a loop at two lengths, built into a
 * kernel-safe object by the C compiler and the assembler (object/asmgen.c),
 * and measured as a run in this process (cmd/run_parts.h), user mode or
 * ring 0: the
 * difference between the two lengths is the sequence's, the loop's cost
 * and the call's falling out, in est-cycles (and cycles where the PMU
 * counts).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/run_parts.h"
#include "cmd/subcommands.h"
#include "machine/probe.h"
#include "machine/uarch.h"
#include "object/asmgen.h"
#include "object/asmseq.h"
#include "report/figures.h"
#include "report/outfile.h"
#include "report/readfile.h"
#include "report/report.h"
#include "report/report_insn.h"
#include "session/options.h"
#include "session/session.h"
#include "stats/stats.h"

#define MAX_SEQS 64
#define CODE_BYTES 8192
/*
 * Instances a loop iteration holds in the short kernel, the latency's and
 * the throughput's; the long ones hold twice as many.  The throughput's
 * difference is the smaller figure (400 instances at 0.2 cycles is 80),
 * so it gets more instances for the timer's and the clock's noise to be as
 * small a part of it.
 */
#define UNROLL 100
#define TP_UNROLL 400
/* Most copies a throughput kernel renames. */
#define MAX_COPIES 12

struct insn_options {
	const char *init, *file, *backend, *output, *keep;
	int cpu;			/* --cpu; -1: run's default */
	unsigned int trials;
	int copies;			/* --copies: the sequence is that many independent copies */
	bool json;
	bool build_only;		/* --build-only: into --keep's directory, nothing measured */
};

/* One sequence: what it is, how it runs, and what it measured. */
struct item {
	char asm_text[512], init[512];
	struct cbench_asm_seq seq, init_seq;
	char refused[512];
	char chain[CODE_BYTES], chain_how[256], chain_why[256];
	char copies_code[CODE_BYTES], copies_how[400], copies_why[320];
	int copies, counter;
	bool ring0_only;
	char lat_why[320], tp_why[320];
	struct cbench_insn_row row;
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s insn [options] 'ASM'\n"
		"       %s insn [options] --file FILE\n"
		"\n"
		"The latency and reciprocal throughput of an instruction or a short sequence,\n"
		"given in AT&T syntax (instructions separated by ';'), as uops.info tabulates\n"
		"them: the latency by a chain through its output (an instruction that only\n"
		"writes its destination has its first source of that kind renamed to it), the\n"
		"throughput by up to %d copies with their written registers renamed apart.  Each\n"
		"runs unrolled at two lengths (the chain %d and %d times a loop iteration, the\n"
		"copies about %d and %d); the difference is the sequence's, the loop's cost\n"
		"subtracted and reported.  In est-cycles (time in core cycles against a\n"
		"reference add chain) without a PMU, in cycles counted too where there is one.\n"
		"It builds what it measures at run time: it needs a C compiler (cc, or $CC)\n"
		"and the GNU assembler (binutils' as), or an object --build-only made.\n"
		"\n"
		"When the sequence starts, every general register but %%rsp and the loop's\n"
		"counter holds the address M of the middle of a 64 KiB scratch area whose every\n"
		"8 bytes hold M (mov (%%rax), %%rax chases itself), every vector register 1.0 in\n"
		"each 64-bit lane, k1-k7 all ones where AVX-512 is usable.  A sequence that uses\n"
		"%%rsp, jumps out of itself, stops the CPU or changes the kernel's state is\n"
		"refused; so is a privileged one in user mode, and one whose instructions this\n"
		"CPU lacks.\n"
		"\n"
		"Options:\n"
		"  --init ASM          run once before each call's loop (nanoBench's -asm_init):\n"
		"                      e.g. 'xor %%edx, %%edx; mov $1, %%ecx' before 'div %%rcx'\n"
		"  --file FILE         a table: one sequence a line, '| INIT' after it for its\n"
		"                      own init; '#' comments\n"
		"  --copies N          the sequence as given is N independent copies: its\n"
		"                      throughput per copy, no renaming, no latency\n"
		"  --backend KIND      user or kmod (ring 0; privileged instructions run there)\n"
		"                      (default user)\n"
		"  --cpu N             measure on CPU N (default: run's)\n"
		"  --trials K          trials per kernel (default 5): the least figure two agree\n"
		"                      on within 0.1 %%, else their median\n"
		"  --keep DIR          keep the generated source and object in DIR, and use the\n"
		"                      object there where its source is the same (no compiler\n"
		"                      needed then)\n"
		"  --build-only        build into --keep DIR and measure nothing: for a machine\n"
		"                      without a compiler, where insn --keep DIR then measures\n"
		"  --format FMT        text or json (default text)\n"
		"  -o, --output FILE   write the report to FILE (default stdout)\n"
		"  -h, --help          show this help\n"
		"\n"
		"Exit status: 0 when every sequence was measured, 1 when one was refused or\n"
		"failed, 2 for wrong arguments.\n",
		cbench_prog, cbench_prog, MAX_COPIES, UNROLL, 2 * UNROLL, TP_UNROLL, 2 * TP_UNROLL);
}

static int take(struct insn_options *o, int c, const char *arg)
{
	switch (c) {
	case 'i': o->init = arg; return 0;
	case 'F': o->file = arg; return 0;
	case 'c': return cbench_option_cpu(arg, CPU_SETSIZE, &o->cpu, stderr) ? CBENCH_EXIT_USAGE : 0;
	case 'k': o->keep = arg; return 0;
	case 'B': o->build_only = true; return 0;
	case 'o': o->output = arg; return 0;
	case 'b':
		if (strcmp(arg, "user") && strcmp(arg, "kmod"))
			return cbench_usage_error("insn", "--backend must be user or kmod, not '%s'", arg);
		o->backend = arg;
		return 0;
	case 't':
		if (strspn(arg, "0123456789") != strlen(arg) || !*arg || atoi(arg) < 1 || atoi(arg) > 100)
			return cbench_usage_error("insn", "--trials wants a count from 1 to 100, not '%s'",
						  arg);
		o->trials = (unsigned int)atoi(arg);
		return 0;
	case 'n':
		if (strspn(arg, "0123456789") != strlen(arg) || !*arg || atoi(arg) < 1 || atoi(arg) > 64)
			return cbench_usage_error("insn", "--copies wants a count from 1 to 64, not '%s'",
						  arg);
		o->copies = atoi(arg);
		return 0;
	case 'f':
		if (strcmp(arg, "text") && strcmp(arg, "json"))
			return cbench_usage_error("insn", "--format must be text or json, not '%s'", arg);
		o->json = !strcmp(arg, "json");
		return 0;
	}
	return CBENCH_EXIT_USAGE;
}

/* 0, 1 for --help, or CBENCH_EXIT_USAGE after saying why; *asm_text the sequence. */
static int parse(struct insn_options *o, int argc, char *argv[], const char **asm_text)
{
	static const struct option longopts[] = {
		{ "init", required_argument, NULL, 'i' }, { "file", required_argument, NULL, 'F' },
		{ "copies", required_argument, NULL, 'n' }, { "backend", required_argument, NULL, 'b' },
		{ "cpu", required_argument, NULL, 'c' }, { "trials", required_argument, NULL, 't' },
		{ "keep", required_argument, NULL, 'k' }, { "format", required_argument, NULL, 'f' },
		{ "build-only", no_argument, NULL, 'B' },
		{ "output", required_argument, NULL, 'o' }, { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	*o = (struct insn_options){ .backend = "user", .trials = 5, .cpu = -1 };
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":ho:", longopts, NULL)) != -1) {
		if (c == 'h')
			return 1;
		if (c == ':')
			return cbench_usage_error("insn", "%s wants a value", argv[optind - 1]);
		if (c == '?')
			return cbench_usage_error("insn", "unknown option '%s'", argv[optind - 1]);
		if (take(o, c, optarg))
			return CBENCH_EXIT_USAGE;
	}
	*asm_text = optind < argc ? argv[optind] : NULL;
	if (!o->file == !*asm_text || optind + !!*asm_text < argc)
		return cbench_usage_error("insn", o->file ? "--file takes the sequences: give no other" :
					  "give one sequence, quoted ('imul %%rbx, %%rax'), or --file");
	if (o->file && o->init)
		return cbench_usage_error("insn", "--init is for one sequence: a --file line takes its "
					  "own after '|'");
	if (o->build_only && !o->keep)
		return cbench_usage_error("insn", "--build-only builds into --keep DIR: give one");
	return 0;
}

/* The sequences: the one given, or one a line of --file ("ASM | INIT"). */
static int load_items(const struct insn_options *o, const char *asm_text, struct item *items, int *n)
{
	char line[1024];
	FILE *f;

	*n = 0;
	if (!o->file) {
		snprintf(items[0].asm_text, sizeof(items[0].asm_text), "%s", asm_text);
		snprintf(items[0].init, sizeof(items[0].init), "%s", o->init ? o->init : "");
		*n = 1;
		return 0;
	}
	f = fopen(o->file, "re");
	if (!f) {
		cbench_err("insn: unable to read %s: %s\n", o->file, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *bar, *s = line + strspn(line, " \t");

		s[strcspn(s, "#\n")] = '\0';
		if (!*s)
			continue;
		if (*n == MAX_SEQS) {
			cbench_err("insn: %s has more than %d sequences\n", o->file, MAX_SEQS);
			fclose(f);
			return -1;
		}
		bar = strchr(s, '|');
		if (bar)
			*bar++ = '\0';
		snprintf(items[*n].asm_text, sizeof(items[*n].asm_text), "%s", s);
		snprintf(items[*n].init, sizeof(items[*n].init), "%s", bar ? bar + strspn(bar, " \t") : "");
		for (char *e = items[*n].asm_text + strlen(items[*n].asm_text);
		     e > items[*n].asm_text && (e[-1] == ' ' || e[-1] == '\t'); e--)
			e[-1] = '\0';
		(*n)++;
	}
	fclose(f);
	if (!*n)
		cbench_err("insn: %s holds no sequence\n", o->file);
	return *n ? 0 : -1;
}

/* XCR0, where the OS lets us read it; 0 otherwise. */
static uint64_t xcr0(void)
{
	uint32_t r[4], lo, hi;

	cbench_cpuid(1, 0, r);
	if (!(r[2] & (1u << 27)))
		return 0;
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return (uint64_t)hi << 32 | lo;
}

/* The loop counter: a GPR neither the sequence nor its init names, or -1. */
static int pick_counter(const struct item *it)
{
	struct cbench_asm_seq both = it->seq;

	both.gpr_named |= it->init_seq.gpr_named;
	both.implicit |= it->init_seq.implicit;
	return cbench_asm_free_gpr(&both);
}

/* Reads and checks one sequence; its chain and its copies; refused says why not. */
static void plan(const struct insn_options *o, const struct cbench_asm_target *t, struct item *it)
{
	char why[320], held[160];
	bool init_ring0 = false;

	if (cbench_asm_parse(it->asm_text, &it->seq, why, sizeof(why)) ||
	    cbench_asm_check(&it->seq, t, &it->ring0_only, why, sizeof(why))) {
		snprintf(it->refused, sizeof(it->refused), "%s", why);
		return;
	}
	if (*it->init && (cbench_asm_parse(it->init, &it->init_seq, why, sizeof(why)) ||
			  cbench_asm_check(&it->init_seq, t, &init_ring0, why, sizeof(why)))) {
		snprintf(it->refused, sizeof(it->refused), "its init: %s", why);
		return;
	}
	it->ring0_only |= init_ring0;
	it->counter = pick_counter(it);
	if (o->copies) {
		cbench_asm_render(&it->seq, it->copies_code, sizeof(it->copies_code));
		it->copies = o->copies;
		snprintf(it->copies_how, sizeof(it->copies_how), "the sequence as given, %d independent "
			 "copies as --copies says", o->copies);
		snprintf(it->chain_why, sizeof(it->chain_why), "--copies: the sequence is %d independent "
			 "copies, not one chain", o->copies);
		return;
	}
	if (cbench_asm_chain(&it->seq, it->chain, sizeof(it->chain), it->chain_how, sizeof(it->chain_how),
			     it->chain_why, sizeof(it->chain_why)))
		it->chain[0] = '\0';
	/* Sixteen vector registers unless it names the upper ones: the same
	 * copies, and so the same object, on whichever machine built it. */
	if (cbench_asm_copies(&it->seq, MAX_COPIES, it->counter, it->seq.vec_named >> 16 ? 32 : 16,
			      it->copies_code, sizeof(it->copies_code), &it->copies, held, sizeof(held),
			      why, sizeof(why))) {
		it->copies_code[0] = '\0';
		snprintf(it->copies_why, sizeof(it->copies_why), "%.200s: write independent copies "
			 "yourself and give --copies N", why);
	} else {
		snprintf(it->copies_how, sizeof(it->copies_how), "%d copies, the registers each writes "
			 "renamed apart, their memory operands %d bytes apart%s%s", it->copies,
			 it->seq.vec_named ? 64 : 8, *held ? "; " : "", held);
	}
	if (!it->chain[0] && !it->copies_code[0])
		snprintf(it->refused, sizeof(it->refused), "neither its latency (%.200s) nor its throughput "
			 "(%.200s) can be measured", it->chain_why, it->copies_why);
}

static int groups(const struct item *it)
{
	return it->copies >= TP_UNROLL ? 1 : (TP_UNROLL + it->copies - 1) / it->copies;
}

/* The four kernels of item i that can run (a chain at two unrolls, copies at two). */
static int kernels_of(const struct item *it, int i, struct cbench_asm_kernel *k)
{
	int n = 0;

	for (int twice = 1; twice <= 2; twice++) {
		struct cbench_asm_kernel base = { .init = *it->init ? it->init : NULL, .counter = it->counter,
						  .vex = it->seq.any_vex || it->init_seq.any_vex,
						  .ring0_only = it->ring0_only };

		if (it->chain[0]) {
			k[n] = base;
			snprintf(k[n].name, sizeof(k[n].name), "s%d_lat%d", i, twice);
			k[n].instance = it->chain;
			k[n++].instances = UNROLL * twice;
		}
		if (it->copies_code[0]) {
			k[n] = base;
			snprintf(k[n].name, sizeof(k[n].name), "s%d_tp%d", i, twice);
			k[n].instance = it->copies_code;
			k[n++].instances = groups(it) * twice;
		}
	}
	return n;
}

/* Writes the source to c_path: 1 if it held the same already, 0, or -errno with why. */
static int write_source(const char *c_path, const struct cbench_asm_kernel *k, int nk, char *why,
			size_t why_bytes)
{
	char *text = NULL, *old = NULL;
	size_t len = 0, old_len = 0;
	FILE *f = open_memstream(&text, &len);
	int ret = f ? cbench_asm_write(f, k, nk) : -ENOMEM;

	if (f && fclose(f))
		ret = -EIO;
	if (!ret && !cbench_read_file(c_path, 64 << 20, &old, &old_len) && old_len == len &&
	    !memcmp(old, text, len)) {
		ret = 1;
	} else if (!ret) {
		f = fopen(c_path, "we");
		if (!f || fwrite(text, 1, len, f) != len)
			ret = -EIO;
		if (f && fclose(f))
			ret = -EIO;
	}
	if (ret < 0)
		snprintf(why, why_bytes, "unable to write %.200s", c_path);
	free(text);
	free(old);
	return ret;
}

/* Writes dir/insn.c for the items not refused (only item `only`, if >= 0) and builds it. */
static int build(struct item *items, int n, int only, const char *dir, char *why, size_t why_bytes)
{
	static struct cbench_asm_kernel k[MAX_SEQS * 4];
	char c_path[PATH_MAX], so_path[PATH_MAX];
	int nk = 0, ret;

	snprintf(c_path, sizeof(c_path), "%.4000s/insn.c", dir);
	snprintf(so_path, sizeof(so_path), "%.4000s/insn.so", dir);
	for (int i = 0; i < n; i++) {
		if (!*items[i].refused && (only < 0 || only == i))
			nk += kernels_of(&items[i], i, &k[nk]);
	}
	ret = write_source(c_path, k, nk, why, why_bytes);
	if (ret < 0)
		return ret;
	/* The kept object of the same source: built already, here or elsewhere. */
	if (ret == 1 && !access(so_path, R_OK))
		return 0;
	return nk ? cbench_asm_build(c_path, so_path, why, why_bytes) : -ENODATA;
}

/*
 * Builds the object; where the assembler refuses it, builds each sequence
 * alone to find which, refuses those with its words, and builds the rest.
 * 0, or -1 after saying why (no compiler, nothing left).
 */
static int build_all(struct item *items, int n, const char *dir)
{
	char why[512];
	int ret = build(items, n, -1, dir, why, sizeof(why));

	if (ret == -EINVAL) {
		for (int i = 0; i < n; i++) {
			if (!*items[i].refused && build(items, n, i, dir, why, sizeof(why)) == -EINVAL)
				snprintf(items[i].refused, sizeof(items[i].refused), "the assembler: %.480s", why);
		}
		ret = build(items, n, -1, dir, why, sizeof(why));
	}
	if (ret == -ENODATA)
		return 0;
	if (ret)
		cbench_err("insn: %s\n", why);
	return ret ? -1 : 0;
}

/* Trials' figures that agree within this confirm each other (insn's figure). */
#define CONFIRM 0.001

/*
 * A kernel's figure: the least of its trials' that another trial confirms
 * within CONFIRM (a sibling thread's or a tenant's work on the core only
 * adds cycles: a throughput of loads read 0.28 to 0.44 cycles between runs
 * by the median on a shared core, whose three load ports give 0.33; a lone
 * trial under the rest, 0.4 % low, is a clock that moved under it), else
 * the run's headline; NAN, with why, if none.
 */
static double figure(const struct cbench_report *report, const char *id, enum cbench_metric m,
		     char *why, size_t len)
{
	const struct cbench_result *res = cbench_report_find(report, id);
	const struct cbench_figure *f = cbench_metric_figure(m);
	double x = NAN, v[128];
	size_t n = cbench_figure_kept(f, res, v, sizeof(v) / sizeof(v[0]));

	qsort(v, n, sizeof(*v), cbench_stats_compare);
	for (size_t i = 0; i + 1 < n && isnan(x); i++)
		if (v[i + 1] <= v[i] * (1 + CONFIRM))
			x = v[i];
	if (!isfinite(x) && res && f->result)
		x = f->result(res);

	for (size_t i = 0; why && !isfinite(x) && res && i < res->ntrials; i++) {
		const char *r = res->trials[i].error ? res->trials[i].reason : NULL;

		if (!r)
			continue;
		snprintf(why, len, "%s%.228s", strstr(r, "SIGILL") ? "this CPU cannot execute it (#UD, "
			 "SIGILL): " : strstr(r, "SIGSEGV") ? "it faulted (an address outside the "
			 "scratch area, or an instruction user mode may not run): " : strstr(r, "SIGFPE") ?
			 "a divide error (#DE): set the dividend and divisor with --init: " : "", r);
		break;
	}
	return x;
}

/* A measurement from the kernels <prefix>1 and <prefix>2 of item i. */
static void derive(const struct cbench_report *report, int i, const char *prefix, int unroll,
		   int per_instance, struct cbench_insn_measure *m, char *why, size_t why_bytes)
{
	char id1[48], id2[48];
	double e1, e2, c1, c2, n1, n2;

	snprintf(id1, sizeof(id1), "s%d_%s1", i, prefix);
	snprintf(id2, sizeof(id2), "s%d_%s2", i, prefix);
	e1 = figure(report, id1, CBENCH_METRIC_EST_CYCLES, why, why_bytes);
	e2 = figure(report, id2, CBENCH_METRIC_EST_CYCLES, why, why_bytes);
	c1 = figure(report, id1, CBENCH_METRIC_CYCLES, NULL, 0);
	c2 = figure(report, id2, CBENCH_METRIC_CYCLES, NULL, 0);
	n1 = figure(report, id1, CBENCH_METRIC_INSTRUCTIONS, NULL, 0);
	n2 = figure(report, id2, CBENCH_METRIC_INSTRUCTIONS, NULL, 0);
	m->unroll[0] = unroll;
	m->unroll[1] = 2 * unroll;
	m->per_instance = (e2 - e1) / unroll / per_instance;
	m->overhead = e1 - unroll * (e2 - e1) / unroll;
	m->counted = (c2 - c1) / unroll / per_instance;
	m->insns = (n2 - n1) / unroll / per_instance;
	if (isfinite(m->per_instance))
		*why = '\0';
}

/* Each item's row of the report, from the run's results (NULL: none ran). */
static void rows_of(const struct cbench_report *report, struct item *items, int n)
{
	for (int i = 0; i < n; i++) {
		struct item *it = &items[i];
		struct cbench_insn_row *r = &it->row;

		*r = (struct cbench_insn_row){ .asm_text = it->asm_text, .init = it->init,
					       .refused = it->refused, .copies = it->copies,
					       .ring0_only = it->ring0_only, .reads_flags = it->seq.reads_flags };
		r->latency = (struct cbench_insn_measure){ .per_instance = NAN, .counted = NAN, .insns = NAN,
							   .overhead = NAN, .code = it->chain,
							   .how = it->chain_how, .why = it->lat_why };
		r->throughput = r->latency;
		r->throughput.code = it->copies_code;
		r->throughput.how = it->copies_how;
		r->throughput.why = it->tp_why;
		snprintf(it->lat_why, sizeof(it->lat_why), "%s", it->chain[0] ? "the run has no figure" :
			 it->chain_why);
		snprintf(it->tp_why, sizeof(it->tp_why), "%s", it->copies_code[0] ?
			 "the run has no figure" : it->copies_why);
		if (*it->refused || !report)
			continue;
		if (it->chain[0])
			derive(report, i, "lat", UNROLL, 1, &r->latency, it->lat_why, sizeof(it->lat_why));
		if (it->copies_code[0])
			derive(report, i, "tp", groups(it), it->copies, &r->throughput, it->tp_why,
			       sizeof(it->tp_why));
		/* One sequence that ran neither way: refused, with the run's reason. */
		if (!isfinite(r->latency.per_instance) && !isfinite(r->throughput.per_instance))
			snprintf(it->refused, sizeof(it->refused), "%s", it->chain[0] ? it->lat_why :
				 it->tp_why);
	}
}

static int report_out(const struct insn_options *o, const struct cbench_insn_report *r)
{
	struct cbench_outfile out = { 0 };
	int ret = cbench_outfile_open(&out, o->output);

	if (!ret) {
		cbench_insn_print(out.file, r, o->json);
		ret = cbench_outfile_commit(&out);
	}
	cbench_outfile_abort(&out);
	if (ret)
		cbench_err("insn: unable to write %s: %s\n", o->output ? o->output : "the report",
			   cbench_outfile_error(&out, ret));
	return ret ? -1 : 0;
}

/* The scratch directory, or --keep's; 0, or -1 after saying why. */
static int workdir(const struct insn_options *o, char *dir, size_t len)
{
	if (o->keep) {
		char abs[PATH_MAX];

		/* Absolute: the compiler runs in it. */
		if ((mkdir(o->keep, 0700) && errno != EEXIST) || !realpath(o->keep, abs)) {
			cbench_err("insn: unable to make %s: %s\n", o->keep, strerror(errno));
			return -1;
		}
		snprintf(dir, len, "%s", abs);
		return 0;
	}
	if (len < sizeof("/tmp/cbench-insn.XXXXXX"))
		return -1;
	memcpy(dir, "/tmp/cbench-insn.XXXXXX", sizeof("/tmp/cbench-insn.XXXXXX"));
	if (!mkdtemp(dir)) {
		cbench_err("insn: unable to make a scratch directory: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

static void cleanup(const struct insn_options *o, const char *dir)
{
	static const char *const files[] = { "insn.c", "insn.so", "cbench.h", "cc.err" };
	char path[PATH_MAX];

	if (o->keep)
		return;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%.4000s/%s", dir, files[i]);
		unlink(path);
	}
	rmdir(dir);
}

/* Where the sequences will run: this CPU's features and the privilege. */
static void target_of(const struct insn_options *o, const struct cbench_core *core,
		      struct cbench_asm_target *t)
{
	uint64_t x = xcr0();

	t->ring0 = !strcmp(o->backend, "kmod");
	t->features = core->features;
	t->avx_usable = (x & 6) == 6;
	t->avx512_usable = (x & 0xe6) == 0xe6;
}

/* The sequences' run, in hand: every item's row, and whether the PMU counted. */
struct taking {
	struct item *items;
	int n;
	bool counted, taken;
};

static int take_run(const struct cbench_report *report, void *arg)
{
	struct taking *tk = arg;

	rows_of(report, tk->items, tk->n);
	tk->counted = report->timer.counters != 0;
	tk->taken = true;
	return 0;
}

/* The object in dir measured, every item's row from its run; 0, or -1
 * after saying why (128 + n: a signal stopped it). */
static int measure(const struct insn_options *o, const char *dir, struct taking *tk)
{
	char so[PATH_MAX];
	struct cbench_run_options ro;
	const struct cbench_run_taker taker = { .take = take_run, .arg = tk, .quiet = true };

	snprintf(so, sizeof(so), "%.4000s/insn.so", dir);
	cbench_run_options_init(&ro);
	ro.so_path = so;
	cbench_backend_parse(o->backend, &ro.backend);
	ro.trials = o->trials;
	ro.cpu = o->cpu;
	return cbench_run_composite("insn", "the kernels", &ro, &taker);
}

static int run_items(const struct insn_options *o, struct taking *tk)
{
	char dir[PATH_MAX];
	int ret;

	if (workdir(o, dir, sizeof(dir)))
		return -1;
	ret = build_all(tk->items, tk->n, dir);
	if (o->build_only) {
		if (!ret)
			printf("insn: built %s/insn.so: copy %s to the machine that measures and run "
			       "insn there with --keep %s and the same sequences\n", dir, dir, dir);
		return ret;
	}
	for (int i = 0; !ret && i < tk->n; i++) {
		if (!*tk->items[i].refused) {
			ret = measure(o, dir, tk);
			break;
		}
	}
	cleanup(o, dir);
	return ret;
}

int cbench_insn_main(int argc, char *argv[])
{
	struct insn_options o;
	struct cbench_machine m;
	struct cbench_core core;
	struct cbench_asm_target t;
	struct cbench_insn_row rows[MAX_SEQS];
	struct item *items = calloc(MAX_SEQS, sizeof(*items));
	struct taking tk = { .items = items };
	const char *asm_text = NULL;
	int ret = items ? parse(&o, argc, argv, &asm_text) : -ENOMEM, status = 1;

	if (ret == 1)
		usage(stdout);
	if (ret || load_items(&o, asm_text, items, &tk.n))
		goto out;
	cbench_machine_probe(&m);
	cbench_core_probe(o.cpu >= 0 ? o.cpu : cbench_last_allowed_cpu(), &core);
	target_of(&o, &core, &t);
	for (int i = 0; i < tk.n; i++)
		plan(&o, &t, &items[i]);
	ret = run_items(&o, &tk);
	if (ret) {
		status = ret > 0 ? ret : 1;
		ret = 0;
		goto out;
	}
	if (o.build_only) {
		status = 0;
		for (int i = 0; i < tk.n; i++) {
			if (*items[i].refused)
				cbench_err("insn: refused: %s: %s\n", items[i].asm_text, items[i].refused);
			status |= *items[i].refused != '\0';
		}
		goto out;
	}
	/* Every sequence refused before any ran: their rows say why. */
	if (!tk.taken)
		rows_of(NULL, items, tk.n);
	if (tk.n == 1 && *items[0].refused) {
		cbench_err("insn: refused: %s\n", items[0].refused);
		goto out;
	}
	status = 0;
	for (int i = 0; i < tk.n; i++) {
		rows[i] = items[i].row;
		status |= *items[i].refused != '\0';
	}
	if (report_out(&o, &(struct cbench_insn_report){
			.machine = &m, .core = &core, .backend = o.backend, .rows = rows, .n = tk.n,
			.counted = tk.counted }))
		status = 1;
out:
	free(items);
	return ret == 1 ? 0 : ret ? (ret < 0 ? 1 : ret) : status;
}
