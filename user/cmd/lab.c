// SPDX-License-Identifier: GPL-2.0
/*
 * `cbenchctl lab setup --cpu N` and `cbenchctl lab reset`: the reversible
 * fixes `doctor` suggests, applied to the kernel's knobs and undone exactly.
 *
 * Before we change a file we save its bytes in the state file
 * (/run/cbench/lab.state, under the sysroot prefix; /run is a tmpfs, so a
 * reboot, which restores the defaults anyway, forgets it), written
 * atomically, so that whatever happens next `reset` knows what was there.
 * A file already in the state keeps its first saved value: running setup
 * twice saves the original once.  If a step fails, we put back what this
 * setup changed, in reverse order, and leave the state as we found it.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "machine/cpuenv.h"
#include "machine/cpus.h"
#include "session/options.h"
#include "report/outfile.h"
#include "machine/probe.h"
#include "cmd/lab_parts.h"
#include "cmd/subcommands.h"
#include "machine/sysroot.h"

#define STATE_DIR "/run/cbench"
#define STATE_FILE STATE_DIR "/lab.state"
#define STATE_MAGIC "cbench-lab 1"
/* A saved file's content; sysfs and procfs knobs are far smaller. */
#define VALUE_MAX 4096
/* Files one setup may change: a few knobs, the SMT siblings, every IRQ. */
#define MAX_ENTRIES 4096

struct entry {
	char path[256];
	char *old;			/* the file's bytes before setup */
	size_t old_len;
	bool new_here;			/* saved by this invocation (rolled back on failure) */
};

struct state {
	int cpu;			/* -1: no state */
	struct entry *entries;
	size_t n;
	bool irqbalance;		/* we stopped it; reset starts it */
	bool irqbalance_new;
};

static void state_free(struct state *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->entries[i].old);
	free(s->entries);
	memset(s, 0, sizeof(*s));
	s->cpu = -1;
}

static int hex_value(int c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static int state_add(struct state *s, const char *path, const char *old, size_t len, bool new_here)
{
	struct entry *e;

	if (s->n == MAX_ENTRIES)
		return -E2BIG;
	if (!s->entries) {
		s->entries = calloc(MAX_ENTRIES, sizeof(*s->entries));
		if (!s->entries)
			return -ENOMEM;
	}
	e = &s->entries[s->n];
	if (strlen(path) >= sizeof(e->path))
		return -ENAMETOOLONG;
	e->old = malloc(len + 1);
	if (!e->old)
		return -ENOMEM;
	memcpy(e->old, old, len);
	e->old[len] = '\0';
	e->old_len = len;
	strcpy(e->path, path);
	e->new_here = new_here;
	s->n++;
	return 0;
}

static const struct entry *state_find(const struct state *s, const char *path)
{
	for (size_t i = 0; i < s->n; i++) {
		if (!strcmp(s->entries[i].path, path))
			return &s->entries[i];
	}
	return NULL;
}

/* Reads the state file; s->cpu -1 and 0 if there is none. */
static int state_load(struct state *s)
{
	static char buf[MAX_ENTRIES * 600];
	char *line, *save = NULL, value[VALUE_MAX];
	ssize_t n;
	int ret = 0;

	memset(s, 0, sizeof(*s));
	s->cpu = -1;
	n = cbench_sysroot_read(STATE_FILE, buf, sizeof(buf));
	if (n == -ENOENT)
		return 0;
	if (n < 0)
		return (int)n;
	line = strtok_r(buf, "\n", &save);
	if (!line || strcmp(line, STATE_MAGIC))
		return -EBADMSG;
	while (!ret && (line = strtok_r(NULL, "\n", &save))) {
		char path[256], hex[2 * VALUE_MAX + 1];
		size_t len;

		if (sscanf(line, "cpu %d", &s->cpu) == 1)
			continue;
		if (!strcmp(line, "service irqbalance")) {
			s->irqbalance = true;
			continue;
		}
		/* An empty file saves as "file <path> -". */
		if (sscanf(line, "file %255s %8192s", path, hex) != 2)
			return -EBADMSG;
		len = strcmp(hex, "-") ? strlen(hex) / 2 : 0;
		if (strcmp(hex, "-") && strlen(hex) % 2)
			return -EBADMSG;
		for (size_t i = 0; i < len; i++) {
			int hi = hex_value(hex[2 * i]), lo = hex_value(hex[2 * i + 1]);

			if (hi < 0 || lo < 0)
				return -EBADMSG;
			value[i] = (char)(hi << 4 | lo);
		}
		ret = state_add(s, path, value, len, false);
	}
	return ret ? ret : s->cpu < 0 ? -EBADMSG : 0;
}

static int make_state_dir(void)
{
	char path[4096];
	int ret = cbench_sysroot_path(path, sizeof(path), "/run");

	if (ret)
		return ret;
	if (mkdir(path, 0755) && errno != EEXIST)
		return -errno;
	ret = cbench_sysroot_path(path, sizeof(path), STATE_DIR);
	if (ret)
		return ret;
	if (mkdir(path, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

/* Writes the state atomically; with nothing in it, removes the file. */
static int state_save(const struct state *s)
{
	struct cbench_outfile out;
	char path[4096];
	int ret = cbench_sysroot_path(path, sizeof(path), STATE_FILE);

	if (ret)
		return ret;
	if (!s->n && !s->irqbalance)
		return unlink(path) && errno != ENOENT ? -errno : 0;
	ret = make_state_dir();
	if (!ret)
		ret = cbench_outfile_open(&out, path);
	if (ret)
		return ret;
	fprintf(out.file, STATE_MAGIC "\ncpu %d\n", s->cpu);
	for (size_t i = 0; i < s->n; i++) {
		fprintf(out.file, "file %s ", s->entries[i].path);
		if (!s->entries[i].old_len)
			fputc('-', out.file);
		for (size_t j = 0; j < s->entries[i].old_len; j++)
			fprintf(out.file, "%02x", (unsigned char)s->entries[i].old[j]);
		fputc('\n', out.file);
	}
	if (s->irqbalance)
		fputs("service irqbalance\n", out.file);
	return cbench_outfile_commit(&out);
}

/* Runs `systemctl <verb> irqbalance` ($CBENCH_SYSTEMCTL for the tests);
 * -EXDEV under a root prefix without one. */
static int service(const char *verb)
{
	const char *cmd = getenv("CBENCH_SYSTEMCTL");
	int status;
	pid_t pid;

	if (!cmd || !cmd[0]) {
		/* The files are a copy, the services this machine's: leave them. */
		if (!cbench_sysroot_is_real())
			return -EXDEV;
		cmd = "systemctl";
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		execlp(cmd, cmd, verb, "irqbalance", (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return -ENOENT;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -ECHILD;
}

static void trim(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == ' '))
		s[--n] = '\0';
}

/*
 * Sets path to value unless it has it already, saving the old bytes first.
 * -ENOENT: the knob is absent (skipped).  soft_errors: errnos that skip
 * this file instead of failing (an IRQ the kernel will not move).
 */
static int set_knob(struct state *s, const char *what, const char *path, const char *value,
		    bool soft_errors)
{
	char old[VALUE_MAX], shown[VALUE_MAX], line[VALUE_MAX + 2];
	ssize_t n = cbench_sysroot_read(path, old, sizeof(old));
	bool added = false;
	int ret;

	if (n < 0)
		return (int)n;
	snprintf(shown, sizeof(shown), "%s", old);
	trim(shown);
	if (!strcmp(shown, value)) {
		printf("  %-5s %-14s %s is %s already\n", "ok", what, path, value);
		return 0;
	}
	if (!state_find(s, path)) {
		ret = state_add(s, path, old, (size_t)n, true);
		if (!ret)
			ret = state_save(s);
		if (ret)
			return ret;
		added = true;
	}
	snprintf(line, sizeof(line), "%s\n", value);
	ret = cbench_sysroot_write(path, line, strlen(line));
	if (ret && added) {
		/* Nothing changed: nothing for reset or a rollback to put back. */
		free(s->entries[--s->n].old);
		state_save(s);
	}
	if (ret && soft_errors && (ret == -EIO || ret == -EINVAL || ret == -EPERM)) {
		printf("  %-5s %-14s %s: the kernel keeps it (%s)\n", "skip", what, path,
		       strerror(-ret));
		return 0;
	}
	if (ret) {
		cbench_err("unable to write %s: %s\n", path, strerror(-ret));
		return ret;
	}
	printf("  %-5s %-14s %s: %s -> %s\n", "set", what, path, shown, value);
	return 0;
}

static void absent(const char *what, const char *why)
{
	printf("  %-5s %-14s %s\n", "skip", what, why);
}

static int setup_governor(struct state *s, int cpu)
{
	char path[128];
	int ret;

	cbench_cpu_path(path, sizeof(path), cpu, "cpufreq/scaling_governor");
	ret = set_knob(s, "governor", path, "performance", false);
	if (ret == -ENOENT) {
		absent("governor", "no cpufreq on this CPU");
		ret = 0;
	}
	return ret;
}

static int setup_boost(struct state *s, int cpu)
{
	struct cbench_boost_knob knobs[CBENCH_BOOST_KNOBS];
	bool any = false;

	cbench_boost_knobs(cpu, knobs);
	for (size_t i = 0; i < CBENCH_BOOST_KNOBS; i++) {
		int ret = set_knob(s, "boost", knobs[i].path, knobs[i].on ? "0" : "1", false);

		if (ret == -ENOENT)
			continue;
		if (ret)
			return ret;
		any = true;
	}
	if (!any)
		absent("boost", "no boost control (intel_pstate, cpufreq or per-policy boost)");
	return 0;
}

static int setup_smt(struct state *s, int cpu)
{
	char path[128], list[256];
	unsigned long bits[CBENCH_CPU_WORDS];
	bool any = false;

	if (cbench_cpu_siblings(cpu, list, sizeof(list), bits)) {
		absent("SMT", "no topology for this CPU");
		return 0;
	}
	for (unsigned int i = 0; i < CBENCH_MAX_CPUS; i++) {
		int ret;

		if ((int)i == cpu || !(bits[i / (8 * sizeof(long))] >> (i % (8 * sizeof(long))) & 1))
			continue;
		snprintf(path, sizeof(path), CBENCH_CPU_DIR "/cpu%u/online", i);
		ret = set_knob(s, "SMT sibling", path, "0", false);
		if (ret == -ENOENT)
			continue;
		if (ret)
			return ret;
		any = true;
	}
	if (!any)
		absent("SMT", "the CPU has no sibling to take offline");
	return 0;
}

static int setup_irqbalance(struct state *s)
{
	long pid = cbench_sysroot_find_process("irqbalance");
	int ret;

	if (!pid) {
		absent("irqbalance", "not running");
		return 0;
	}
	if (s->irqbalance) {
		absent("irqbalance", "running again since we stopped it: stopping it again");
	} else {
		s->irqbalance = true;
		s->irqbalance_new = true;
		ret = state_save(s);
		if (ret)
			return ret;
	}
	ret = service("stop");
	if (ret && s->irqbalance_new) {
		/* Still running: nothing for a rollback or reset to start. */
		s->irqbalance = false;
		s->irqbalance_new = false;
	}
	if (ret) {
		cbench_err("unable to stop irqbalance: %s\n",
			ret == -ENOENT ? "no systemctl" : ret == -EXDEV ?
			"not this machine's service, with the files under a root prefix" :
			"systemctl stop irqbalance failed");
		return ret;
	}
	printf("  %-5s %-14s stopped (reset starts it again)\n", "set", "irqbalance");
	return 0;
}

static int setup_irqs(struct state *s, int cpu)
{
	char dir[4096], path[300], list[256], without[256];
	unsigned long bits[CBENCH_CPU_WORDS];
	const size_t word = 8 * sizeof(long);
	unsigned int moved = 0;
	struct dirent *e;
	DIR *irqs;
	int ret = 0;

	cbench_sysroot_path(dir, sizeof(dir), "/proc/irq");
	irqs = opendir(dir);
	if (!irqs) {
		absent("interrupts", "no /proc/irq");
		return 0;
	}
	while (!ret && (e = readdir(irqs))) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/irq/%s/smp_affinity_list", e->d_name);
		if (cbench_sysroot_read_line(path, list, sizeof(list)) < 0 ||
		    cbench_cpulist_parse(list, bits, CBENCH_MAX_CPUS) ||
		    !(bits[cpu / word] >> (cpu % word) & 1))
			continue;
		bits[cpu / word] &= ~(1UL << (cpu % word));
		if (cbench_cpulist_format(bits, CBENCH_MAX_CPUS, without, sizeof(without)) ||
		    !without[0])
			continue;	/* routed to this CPU alone: nowhere to move it */
		ret = set_knob(s, "interrupts", path, without, true);
		if (ret == -ENOENT)
			ret = 0;
		moved++;
	}
	closedir(irqs);
	if (!ret && !moved)
		absent("interrupts", "no IRQ to move");
	return ret;
}

static int setup_watchdog(struct state *s)
{
	int ret = set_knob(s, "NMI watchdog", "/proc/sys/kernel/nmi_watchdog", "0", false);

	if (ret == -ENOENT) {
		absent("NMI watchdog", "not built in");
		ret = 0;
	}
	return ret;
}

/* Puts back every saved file (those of this invocation only, if only_new),
 * in reverse order; drops what it restored from s.  0 or the first error. */
static int restore(struct state *s, bool only_new)
{
	int first = 0;
	size_t kept = 0;

	if (s->irqbalance && (!only_new || s->irqbalance_new)) {
		int ret = service("start");

		if (ret) {
			cbench_err("unable to start irqbalance again: %s\n",
				ret == -ENOENT ? "no systemctl" : "systemctl start irqbalance failed");
			first = first ? first : ret;
		} else {
			printf("  %-5s %-14s started again\n", "reset", "irqbalance");
			s->irqbalance = false;
		}
	}
	for (size_t i = s->n; i-- > 0;) {
		struct entry *e = &s->entries[i];
		int ret;

		if (only_new && !e->new_here)
			continue;
		ret = cbench_sysroot_write(e->path, e->old, e->old_len);
		if (ret) {
			cbench_err("unable to restore %s: %s\n", e->path,
				strerror(-ret));
			first = first ? first : ret;
			continue;
		}
		trim(e->old);
		printf("  %-5s %-14s %s: %s\n", "reset", "", e->path, e->old);
		free(e->old);
		e->old = NULL;
	}
	/* Keep what could not be restored, in its order. */
	for (size_t i = 0; i < s->n; i++) {
		if (s->entries[i].old)
			s->entries[kept++] = s->entries[i];
	}
	s->n = kept;
	return first;
}

/*
 * What `run --jobs` may ask now (machine/cpus.h): setup prepares one CPU,
 * and several measured at once should all be set up alike.
 */
static void say_jobs(int cpu)
{
	struct cbench_cpu_choice c;

	if (cbench_cpus_fit(&c) || c.fit < 2)
		return;
	printf("lab setup: %zu CPUs fit to measure on at once (one per core, %zu isolated): run "
	       "--jobs %zu measures on them all, but only CPU %d is set up; --cpus %d measures on it "
	       "alone\n", c.fit, c.isolated, c.fit, cpu, cpu);
}

static int lab_setup(int cpu)
{
	struct state s;
	char path[128];
	int ret;

	snprintf(path, sizeof(path), CBENCH_CPU_DIR "/cpu%d", cpu);
	if (!cbench_sysroot_exists(path)) {
		cbench_err("unable to set up the lab: CPU %d does not exist\n", cpu);
		return 1;
	}
	ret = state_load(&s);
	if (ret) {
		cbench_err("unable to read %s: %s\n", STATE_FILE,
			ret == -EBADMSG ? "not a lab state file" : strerror(-ret));
		return 1;
	}
	if (s.cpu >= 0 && s.cpu != cpu) {
		cbench_err("unable to set up the lab for CPU %d: it is set up for CPU %d; "
			"run `%s lab reset` first\n", cpu, s.cpu, cbench_prog);
		state_free(&s);
		return 1;
	}
	s.cpu = cpu;
	printf("lab setup: CPU %d%s\n", cpu, s.n ? " (set up before: the first saved values stay)" : "");
	ret = setup_governor(&s, cpu);
	if (!ret)
		ret = setup_boost(&s, cpu);
	if (!ret)
		ret = setup_irqbalance(&s);
	if (!ret)
		ret = setup_irqs(&s, cpu);
	if (!ret)
		ret = setup_watchdog(&s);
	/* Last: an offline sibling's IRQs have moved, and reset brings it
	 * back first, before the affinities that may name it. */
	if (!ret)
		ret = setup_smt(&s, cpu);
	if (ret) {
		printf("lab setup: a step failed; putting back what this setup changed\n");
		restore(&s, true);
		s.irqbalance_new = false;
		if (state_save(&s))
			cbench_err("unable to update %s\n", STATE_FILE);
		cbench_err("unable to set up the lab: a step failed (%s); what it had "
			"changed is put back\n", strerror(-ret));
		state_free(&s);
		return 1;
	}
	if (s.n || s.irqbalance) {
		ret = state_save(&s);
		if (ret) {
			cbench_err("unable to write %s: %s\n", STATE_FILE,
				strerror(-ret));
			state_free(&s);
			return 1;
		}
		printf("lab setup: the previous values are in %s; `%s lab reset` puts them back\n",
		       STATE_FILE, cbench_prog);
	} else {
		printf("lab setup: nothing to change\n");
	}
	say_jobs(cpu);
	state_free(&s);
	return 0;
}

static int lab_reset(void)
{
	struct state s;
	int ret = state_load(&s);

	if (ret) {
		cbench_err("unable to read %s: %s\n", STATE_FILE,
			ret == -EBADMSG ? "not a lab state file" : strerror(-ret));
		return 1;
	}
	if (s.cpu < 0) {
		printf("lab reset: nothing to reset (no %s)\n", STATE_FILE);
		return 0;
	}
	printf("lab reset: CPU %d\n", s.cpu);
	ret = restore(&s, false);
	if (!ret)
		ret = state_save(&s);
	else if (state_save(&s))
		cbench_err("unable to update %s\n", STATE_FILE);
	if (ret)
		cbench_err("unable to reset the lab: %s; what is left is in %s\n", strerror(-ret), STATE_FILE);
	else
		printf("lab reset: every setting is back\n");
	state_free(&s);
	return ret ? 1 : 0;
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s lab setup [--cpu N]\n"
		"       %s lab reset\n",
		cbench_prog, cbench_prog);
	cbench_lab_queue_usage(f);
	fprintf(f,
		"\n"
		"setup applies the reversible fixes `%s doctor` suggests for measuring on CPU N:\n"
		"governor performance, boost off, interrupts moved off the CPU (irqbalance\n"
		"stopped), NMI watchdog off, the CPU's SMT siblings offline.  It saves each\n"
		"file's previous value in " STATE_FILE " first; reset puts them back exactly\n"
		"and starts irqbalance again.  Knobs this machine lacks are skipped.  If a step\n"
		"fails, setup undoes what it changed.  Both need root.\n"
		"\n"
		"Options:\n"
		"  --cpu N     the CPU to prepare (default: the last CPU we may use)\n"
		"  -h, --help  show this help\n"
		"\n"
		"`%s lab queue --help` tells of the queue and the worker.\n",
		cbench_prog, cbench_prog);
}

int cbench_lab_main(int argc, char *argv[])
{
	enum { OPT_CPU = 256, OPT_ROOT };
	static const struct option longopts[] = {
		{ "cpu", required_argument, NULL, OPT_CPU },
		/* Hidden: the kernel's files under DIR (tests). */
		{ "root", required_argument, NULL, OPT_ROOT },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *action;
	int cpu = -1;
	int c;

	if (argc > 1 && (!strcmp(argv[1], "queue") || !strcmp(argv[1], "worker")))
		return cbench_lab_queue_main(argc - 1, argv + 1, !strcmp(argv[1], "worker"));
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return 0;
		default:
			return cbench_usage_error("lab", "unknown or incomplete option '%s'",
						  argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return cbench_usage_error("lab", "it wants an action: setup, reset, queue or worker");
	action = argv[optind];
	argc -= optind;
	argv += optind;
	optind = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_CPU:
			if (cbench_option_cpu(optarg, CBENCH_MAX_CPUS, &cpu, stderr))
				return cbench_usage_error("lab", NULL);
			break;
		case OPT_ROOT:
			cbench_sysroot_set(optarg);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			return cbench_usage_error("lab", "unknown or incomplete option '%s'",
						  argv[optind - 1]);
		}
	}
	if (strcmp(action, "setup") && strcmp(action, "reset"))
		return cbench_usage_error("lab", "no action '%s': setup, reset, queue or worker", action);
	if (optind != argc)
		return cbench_usage_error("lab", "%s takes no operand ('%s')", action, argv[optind]);
	if (cpu >= 0 && strcmp(action, "setup"))
		return cbench_usage_error("lab", "--cpu goes with setup: reset restores what setup saved");
	if (geteuid()) {
		cbench_err("unable to %s the lab: only root may change these settings\n", !strcmp(action, "setup") ? "set up" : "reset");
		return 1;
	}
	if (!strcmp(action, "setup"))
		return lab_setup(cpu >= 0 ? cpu : cbench_last_allowed_cpu());
	return lab_reset();
}
