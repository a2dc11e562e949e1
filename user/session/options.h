/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The command line of the measuring subcommands (run, profile, audit): the
 * options they all take, one loop over getopt_long, and the parsers of the
 * values more than one subcommand reads (doctor and lab read --cpu too).
 * A refused value is said on err as "cbenchctl: --opt wants ..., not 'x'".
 */
#ifndef _CBENCH_OPTIONS_H
#define _CBENCH_OPTIONS_H

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>

#include "backend/backend.h"

/* The ids of the options every measuring subcommand takes; its own start
 * at CBENCH_OPT_OWN. */
enum {
	CBENCH_OPT_OUTPUT = 'o',	/* -o, --output FILE */
	CBENCH_OPT_FILTER = 256,	/* --filter REGEX */
	CBENCH_OPT_BACKEND,		/* --backend KIND */
	CBENCH_OPT_CPU,			/* --cpu N */
	CBENCH_OPT_FORMAT,		/* --format FMT */
	CBENCH_OPT_OWN,
};

/* Where a subcommand keeps the shared options' values; a NULL one it
 * takes itself, as its own. */
struct cbench_option_fields {
	const char **filter;
	enum cbench_backend_kind *backend;
	int *cpu;			/* below CPU_SETSIZE */
	const char **output;
};

/* Takes option id with its value (NULL for a flag) into opts: 0, or
 * -EINVAL after saying why on err. */
typedef int (*cbench_option_fn)(void *opts, int id, const char *arg, FILE *err);

/*
 * Reads argv's options: the shared ones above into fields, -h/--help, and
 * own (ended by a zeroed entry, as many as it has); take gets own's,
 * --format and each shared one fields has no place for.  Returns 0 with
 * optind at the first operand, 1 for --help, -EINVAL after saying why on
 * err (an unknown or incomplete option, or what take refused), or
 * -ENOMEM.
 */
int cbench_options_parse(int argc, char *argv[], const struct cbench_option_fields *fields,
			 const struct option *own, cbench_option_fn take, void *opts, FILE *err);

/* A refusal: says "--option wants <want>, not '<arg>'" on err, returns -EINVAL. */
int cbench_option_refuse(FILE *err, const char *option, const char *want, const char *arg);

/* s as a whole, finite number: 0, or -EINVAL. */
int cbench_parse_number(const char *s, double *v);

/*
 * --confidence C: a probability from 0.5 to below 1 (0.99) or a percentage
 * from 50 to below 100 (99), the same for every subcommand; the ranges do
 * not overlap, so neither reading is a guess.  *p is the probability.
 */
int cbench_option_confidence(const char *arg, double *p, FILE *err);

/* Whether path ends with ext (".json") after something: -o's name says
 * the format unless --format does. */
bool cbench_path_has_ext(const char *path, const char *ext);

/* --quiet-mode cli|lvt: cbench.ko's enum cbench_quiet into *quiet. */
int cbench_option_quiet(const char *arg, int *quiet, FILE *err);
/* A --quiet-mode given (quiet >= 0) with --backend user is refused. */
int cbench_option_quiet_check(int quiet, enum cbench_backend_kind backend, FILE *err);

/* --cpu N: a decimal CPU number below limit, else refused. */
int cbench_option_cpu(const char *arg, int limit, int *cpu, FILE *err);

/*
 * One of words (ended by NULL) as option's value: its index, or -EINVAL
 * after saying "--option must be a, b or c, not 'x'" on err.
 */
int cbench_option_word(const char *option, const char *arg, const char *const *words, FILE *err);

/*
 * A name for a report to carry (--machine, --order): 1 to 255 characters on
 * one line into *dst, else "cmd: --option wants a name ..." on err and -EINVAL.
 */
int cbench_option_name(const char *cmd, const char *option, const char *arg, const char **dst,
		       FILE *err);

/* --backend KIND: user, kmod or auto. */
int cbench_option_backend(const char *arg, enum cbench_backend_kind *kind, FILE *err);

/* --seed N: an unsigned 64-bit number (0x... and 0... too) into *seed. */
int cbench_option_seed(const char *arg, uint64_t *seed, FILE *err);

/* The seed of an unseeded run (audit, layout, run), from the kernel's
 * entropy: 0 or -EIO. */
int cbench_random_seed(uint64_t *seed);

#endif /* _CBENCH_OPTIONS_H */
