// SPDX-License-Identifier: GPL-2.0
/*
 * `cbenchctl doctor`: is this machine, and this CPU, fit for low-noise
 * measurement?  Each check says ok, warn or fail, what it found, and the one
 * line that fixes it.  Most checks read procfs and sysfs (through the root
 * prefix of sysroot.h, so tests can run them on a fake tree); the last two
 * measure: the timer's step and how far the core clock drifts, with the
 * user backend's own calibration and reference chain.
 *
 * ok: nothing to do.  warn: measurements are possible but noisier, or a
 * part of cbench is unavailable.  fail: measuring here would be wrong or
 * cannot work (the CPU is offline, the module speaks another protocol).
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <libgen.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/capability.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/family.h>
#include <netlink/genl/genl.h>

#include <cbench.h>
#include <uapi/linux/cbench.h>

#include "backend/backend.h"
#include "machine/clock.h"
#include "machine/cpuenv.h"
#include "machine/cpulock.h"
#include "report/doctor.h"
#include "session/options.h"
#include "machine/probe.h"
#include "backend/protocol.h"
#include "machine/reference.h"
#include "stats/stats.h"
#include "cmd/subcommands.h"
#include "machine/sysroot.h"

/* How long we watch the core clock, in seconds, and how long one round of
 * reference measurements lasts, in ns: a round's floor mean is one reading
 * of the clock. */
#define DRIFT_SECONDS 2.5
#define DRIFT_ROUND_NS 50000000LL
/* Reference measurements kept per round (the rest are not needed). */
#define DRIFT_ROUND_SAMPLES 20000
/* A core clock whose readings spread more than this, relative, is flagged:
 * at 0.5 % a cycles estimate calibrated once is off by as much. */
#define DRIFT_WARN 0.005
/* A timer step longer than this, in ns, leaves measurements under the
 * measurement cap (100 us) shorter than 2000 steps: see the README. */
#define STEP_WARN_NS 50.0

#define EFI_SECURE_BOOT \
	"/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-e98c0f8e4aa8"

struct doctor {
	bool json;
	bool measure;
	struct cbench_doctor_report report;
	bool module_loaded;
	bool pmu;
};

/* The selected word of a sysfs choice file: "always [madvise] never". */
static int read_choice(const char *path, char *buf, size_t size)
{
	char raw[256], *open, *close;
	ssize_t n = cbench_sysroot_read_line(path, raw, sizeof(raw));

	if (n < 0)
		return (int)n;
	open = strchr(raw, '[');
	close = open ? strchr(open, ']') : NULL;
	if (!open || !close) {
		snprintf(buf, size, "%.*s", (int)size - 1, raw);
		return 0;
	}
	*close = '\0';
	snprintf(buf, size, "%.*s", (int)size - 1, open + 1);
	return 0;
}

/* cpuN/online is absent for a CPU that cannot go offline (often CPU 0). */
static bool cpu_online(int cpu)
{
	char path[128];
	long v;

	cbench_cpu_path(path, sizeof(path), cpu, "online");
	return cbench_sysroot_read_long(path, &v) ? true : v != 0;
}

static void check_cpu(struct doctor *d)
{
	char path[128];

	snprintf(path, sizeof(path), CBENCH_CPU_DIR "/cpu%d", d->report.cpu);
	if (!cbench_sysroot_exists(path))
		cbench_doctor_add(&d->report, "cpu", "CPU", CBENCH_VERDICT_FAIL, "pick another with --cpu",
		    "CPU %d does not exist", d->report.cpu);
	else if (!cpu_online(d->report.cpu))
		cbench_doctor_add(&d->report, "cpu", "CPU", CBENCH_VERDICT_FAIL, "echo 1 > " CBENCH_CPU_DIR "/cpuN/online",
		    "CPU %d is offline", d->report.cpu);
	else
		cbench_doctor_add(&d->report, "cpu", "CPU", CBENCH_VERDICT_OK, NULL, "CPU %d is online", d->report.cpu);
}

/* The version the cbench family registered with, from the genl controller;
 * -errno if it cannot be had. */
static int family_version(unsigned int *version)
{
	struct nl_sock *sock = nl_socket_alloc();
	struct nl_cache *cache = NULL;
	struct genl_family *family;
	int ret = -ENOMEM;

	if (!sock)
		return ret;
	ret = genl_connect(sock) ? -ECONNREFUSED : 0;
	if (!ret && genl_ctrl_alloc_cache(sock, &cache))
		ret = -EIO;
	if (!ret) {
		family = genl_ctrl_search_by_name(cache, CBENCH_GENL_NAME);
		if (family) {
			*version = (unsigned int)genl_family_get_version(family);
			genl_family_put(family);
		} else {
			ret = -ENOENT;
		}
	}
	nl_cache_free(cache);
	nl_socket_free(sock);
	return ret;
}

/* The running kernel's release into buf; false when unknown. */
static bool kernel_release(char *buf, size_t len)
{
	return cbench_sysroot_read_line("/proc/sys/kernel/osrelease", buf, len) > 0;
}

/*
 * How to load cbench.ko here, as a command that works: modprobe where DKMS
 * installed it for the running kernel; insmod of the module built beside
 * this cbenchctl in its build tree; else, for an installed cbenchctl, DKMS
 * from the source tree.
 */
static void load_fix(char *fix, size_t len)
{
	static const char *const dkms[] = { "cbench.ko", "cbench.ko.xz", "cbench.ko.zst" };
	char release[128], path[300], exe[256];
	ssize_t n;

	if (!kernel_release(release, sizeof(release))) {
		snprintf(fix, len, "make dkms-install in the cbench source tree, then modprobe cbench");
		return;
	}
	for (size_t i = 0; i < sizeof(dkms) / sizeof(dkms[0]); i++) {
		snprintf(path, sizeof(path), "/lib/modules/%s/updates/dkms/%s", release, dkms[i]);
		if (cbench_sysroot_exists(path)) {
			snprintf(fix, len, "modprobe cbench (DKMS installed it for %s)", release);
			return;
		}
	}
	/* A path too long for exe is no build tree we would name. */
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0 && n < (ssize_t)sizeof(exe) - 1 && cbench_sysroot_is_real()) {
		char *tree;

		exe[n] = '\0';
		*strrchr(exe, '/') = '\0';
		snprintf(path, sizeof(path), "%s/../Kbuild", exe);
		tree = access(path, F_OK) ? NULL : realpath(dirname(path), NULL);
		if (tree) {
			snprintf(fix, len, "make -C %s module && insmod %s/build/kmod-%s/cbench.ko", tree,
				 tree, release);
			free(tree);
			return;
		}
	}
	snprintf(fix, len, "make dkms-install in the cbench source tree (builds cbench.ko for %s), "
		 "then modprobe cbench", release);
}

static void check_module(struct doctor *d)
{
	struct cbench_proto_info info = { 0 };
	struct cbench_nl *nl = NULL;
	unsigned int version = 0;
	struct cbench_doctor_check *c;
	char fix[768];
	int ret;

	d->module_loaded = cbench_sysroot_exists("/sys/module/cbench");
	if (!d->module_loaded) {
		load_fix(fix, sizeof(fix));
		cbench_doctor_add(&d->report, "module", "cbench.ko", CBENCH_VERDICT_WARN, fix,
		    "not loaded: only the user backend can measure (no ring 0, interrupts on)");
		return;
	}
	if (!cbench_sysroot_is_real()) {
		cbench_doctor_add(&d->report, "module", "cbench.ko", CBENCH_VERDICT_OK, NULL,
		    "loaded (not asked: the files are a copy, not this machine's)");
		return;
	}
	ret = family_version(&version);
	if (ret) {
		cbench_doctor_add(&d->report, "module", "cbench.ko", CBENCH_VERDICT_FAIL, "rmmod cbench && insmod cbench.ko",
		    "loaded, but its netlink family does not answer: %s", strerror(-ret));
		return;
	}
	if (version != CBENCH_GENL_VERSION) {
		cbench_doctor_add(&d->report, "module", "cbench.ko", CBENCH_VERDICT_FAIL,
		    "load the cbench.ko built from the same tree as this cbenchctl",
		    "speaks protocol version %u, this cbenchctl version %d", version,
		    CBENCH_GENL_VERSION);
		return;
	}
	ret = cbench_nl_open(&nl);
	if (!ret)
		ret = cbench_proto_info(nl, &info);
	if (ret) {
		cbench_doctor_add(&d->report, "module", "cbench.ko", CBENCH_VERDICT_FAIL, "rmmod cbench && insmod cbench.ko",
		    "loaded, but INFO fails: %s", cbench_nl_strerror(nl, ret));
		cbench_nl_close(nl);
		return;
	}
	cbench_nl_close(nl);
	if (info.abi != CBENCH_ABI_VERSION) {
		c = cbench_doctor_add(&d->report, "module", "cbench.ko", CBENCH_VERDICT_FAIL,
			"load the cbench.ko built from the same tree as this cbenchctl",
			"%s runs benchmark ABI %" PRIu32 ", this cbenchctl %d", info.version,
			info.abi, CBENCH_ABI_VERSION);
	} else if (strcmp(info.version, CBENCH_VERSION)) {
		c = cbench_doctor_add(&d->report, "module", "cbench.ko", CBENCH_VERDICT_WARN,
			"load the cbench.ko built from the same tree as this cbenchctl",
			"%s loaded (protocol %u, ABI %" PRIu32 "), but this cbenchctl is %s",
			info.version, version, info.abi, CBENCH_VERSION);
	} else {
		c = cbench_doctor_add(&d->report, "module", "cbench.ko", CBENCH_VERDICT_OK, NULL,
			"%s loaded, protocol %u, ABI %" PRIu32, info.version, version, info.abi);
	}
	cbench_doctor_extra_int(c, "protocol", version);
	cbench_doctor_extra_int(c, "abi", info.abi);
}

static void check_headers(struct doctor *d)
{
	char release[128], path[256];

	if (!kernel_release(release, sizeof(release))) {
		cbench_doctor_add(&d->report, "headers", "kernel headers", CBENCH_VERDICT_WARN, NULL,
		    "the running kernel's release is unknown (no /proc/sys/kernel/osrelease)");
		return;
	}
	snprintf(path, sizeof(path), "/lib/modules/%s/build", release);
	if (cbench_sysroot_exists(path)) {
		cbench_doctor_add(&d->report, "headers", "kernel headers", CBENCH_VERDICT_OK, NULL, "%s is there", path);
	} else {
		char fix[320];
		size_t n = strlen(release);

		/* Debian names its kernels <version>-<abi>-amd64 (or -cloud-amd64,
		 * -rt-amd64), with a headers package of the same name; another
		 * kernel's headers come from whoever built it. */
		if (n > 6 && !strcmp(release + n - 6, "-amd64"))
			snprintf(fix, sizeof(fix), "apt-get install linux-headers-%s", release);
		else
			snprintf(fix, sizeof(fix), "%s is not a Debian kernel: install the headers its "
				 "builder ships, or boot Debian's (apt-get install linux-image-amd64 "
				 "linux-headers-amd64)", release);
		cbench_doctor_add(&d->report, "headers", "kernel headers", CBENCH_VERDICT_WARN, fix,
		    "%s is missing: cbench.ko cannot be built (nor rebuilt by DKMS) for this kernel",
		    path);
	}
}

static void check_secure_boot(struct doctor *d)
{
	unsigned char var[64];
	ssize_t n;

	if (!cbench_sysroot_exists("/sys/firmware/efi")) {
		cbench_doctor_add(&d->report, "secure_boot", "Secure Boot", CBENCH_VERDICT_OK, NULL,
		    "not booted by EFI: no Secure Boot");
		return;
	}
	/* An EFI variable file: 4 bytes of attributes, then the value. */
	n = cbench_sysroot_read(EFI_SECURE_BOOT, (char *)var, sizeof(var));
	if (n < 5) {
		cbench_doctor_add(&d->report, "secure_boot", "Secure Boot", CBENCH_VERDICT_OK, NULL,
		    "EFI boot without a SecureBoot variable: off");
	} else if (var[4] == 1) {
		cbench_doctor_add(&d->report, "secure_boot", "Secure Boot", CBENCH_VERDICT_WARN,
		    "make dkms-install (DKMS signs it), then mokutil --import /var/lib/dkms/mok.pub",
		    "on: cbench.ko loads only if signed with a key the firmware trusts");
	} else {
		cbench_doctor_add(&d->report, "secure_boot", "Secure Boot", CBENCH_VERDICT_OK, NULL, "off");
	}
}

static void check_lockdown(struct doctor *d)
{
	char mode[64];

	if (read_choice("/sys/kernel/security/lockdown", mode, sizeof(mode))) {
		cbench_doctor_add(&d->report, "lockdown", "lockdown", CBENCH_VERDICT_OK, NULL, "no lockdown LSM");
	} else if (!strcmp(mode, "none")) {
		cbench_doctor_add(&d->report, "lockdown", "lockdown", CBENCH_VERDICT_OK, NULL, "none");
	} else {
		cbench_doctor_add(&d->report, "lockdown", "lockdown", CBENCH_VERDICT_WARN,
		    "boot with lockdown=none for the kmod backend (the user backend is unaffected)",
		    "%s: unsigned modules are refused, and a loaded cbench.ko, signed or not, "
		    "runs no benchmark code in ring 0 (docs/trust-model.md)", mode);
	}
}

/*
 * Whether this process may use the kmod backend: running code in ring 0 is
 * loading kernel code, so cbench.ko wants CAP_SYS_MODULE as well as
 * CAP_SYS_ADMIN (and the user backend wants neither).
 */
static void check_capabilities(struct doctor *d)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct c[2];
	bool admin, module;

	if (syscall(SYS_capget, &h, c)) {
		cbench_doctor_add(&d->report, "capabilities", "capabilities", CBENCH_VERDICT_WARN, NULL, "unknown: capget: %s",
		    strerror(errno));
		return;
	}
	admin = c[CAP_SYS_ADMIN / 32].effective & (1u << (CAP_SYS_ADMIN % 32));
	module = c[CAP_SYS_MODULE / 32].effective & (1u << (CAP_SYS_MODULE % 32));
	if (admin && module)
		cbench_doctor_add(&d->report, "capabilities", "capabilities", CBENCH_VERDICT_OK, NULL,
		    "CAP_SYS_ADMIN and CAP_SYS_MODULE: the kmod backend may run benchmark code");
	else
		cbench_doctor_add(&d->report, "capabilities", "capabilities", CBENCH_VERDICT_WARN,
		    "run as root for the kmod backend (the user backend needs neither)",
		    "without %s%s%s: cbench.ko refuses to run benchmark code for this user",
		    admin ? "" : "CAP_SYS_ADMIN", admin || module ? "" : " and ",
		    module ? "" : "CAP_SYS_MODULE");
}

/*
 * cbench.ko ends a call of benchmark code that never returns from another
 * CPU (its watchdog): with one CPU online there is none to do it.
 */
static void check_ring0_watchdog(struct doctor *d, const struct cbench_machine *m)
{
	char limit[32], unwatched[8] = "N";

	if (read_choice("/sys/module/cbench/parameters/call_limit_ms", limit, sizeof(limit)))
		snprintf(limit, sizeof(limit), "1000 ms (call_limit_ms)");
	else
		snprintf(limit + strlen(limit), sizeof(limit) - strlen(limit), " ms");
	read_choice("/sys/module/cbench/parameters/unwatched_runs", unwatched, sizeof(unwatched));
	if (m->cpus_online >= 2)
		cbench_doctor_add(&d->report, "ring0_watchdog", "ring-0 watchdog", CBENCH_VERDICT_OK, NULL,
		    "%d CPUs online: another CPU ends a ring-0 call that has not returned after %s",
		    m->cpus_online, limit);
	else
		cbench_doctor_add(&d->report, "ring0_watchdog", "ring-0 watchdog", CBENCH_VERDICT_WARN,
		    "bring a second CPU online for the kmod backend (or load cbench.ko with "
		    "unwatched_runs=1 to take the risk)",
		    "one CPU online: none can end a ring-0 call that never returns, so cbench.ko %s",
		    unwatched[0] == 'Y' ? "takes runs at that risk (unwatched_runs=Y)" :
					  "refuses runs");
}

/* /proc/sys/kernel/tainted's bits (the kernel's TAINT_DIE, TAINT_WARN). */
#define TAINT_DIE (1ULL << 7)
#define TAINT_WARN (1ULL << 9)

/*
 * A kernel that oopsed, or warned, since boot: whatever oopsed (a benchmark
 * cbench.ko's oops net ended in ring 0 among them, docs/trust-model.md),
 * the kernel turned lockdep and tracing off and may be inconsistent.
 */
static void check_taint(struct doctor *d)
{
	char raw[32];
	unsigned long long taint;
	struct cbench_doctor_check *c;

	if (cbench_sysroot_read_line("/proc/sys/kernel/tainted", raw, sizeof(raw)) < 0) {
		cbench_doctor_add(&d->report, "taint", "kernel taint", CBENCH_VERDICT_OK, NULL, "unknown: no /proc/sys/kernel/tainted");
		return;
	}
	taint = strtoull(raw, NULL, 10);
	if (taint & TAINT_DIE)
		c = cbench_doctor_add(&d->report, "taint", "kernel taint", CBENCH_VERDICT_WARN,
			"reboot before measuring here; dmesg shows what oopsed",
			"tainted by an oops (D): the kernel oopsed since boot (cbench.ko says so when "
			"benchmark code caused it); it may be inconsistent, and lockdep and tracing "
			"are off");
	else if (taint & TAINT_WARN)
		c = cbench_doctor_add(&d->report, "taint", "kernel taint", CBENCH_VERDICT_WARN,
			"read dmesg for the warning; reboot before measuring here",
			"tainted by a warning (W): the kernel warned since boot");
	else
		c = cbench_doctor_add(&d->report, "taint", "kernel taint", CBENCH_VERDICT_OK, NULL,
			"no oops or warning since boot (tainted %llu)", taint);
	cbench_doctor_extra_int(c, "tainted", (int64_t)taint);
}

static void check_pmu(struct doctor *d, const struct cbench_machine *m)
{
	bool sysfs = cbench_sysroot_exists("/sys/bus/event_source/devices/cpu") ||
		     cbench_sysroot_exists("/sys/bus/event_source/devices/cpu_core");
	int cpu = cbench_last_allowed_cpu();
	struct cbench_doctor_check *c;
	char pmu[256];

	d->pmu = m->pmu_version && sysfs;
	cbench_pmu_text(m, cbench_core_type_on(cpu), cpu, pmu, sizeof(pmu));
	if (d->pmu) {
		c = cbench_doctor_add(&d->report, "pmu", "PMU", CBENCH_VERDICT_OK, NULL, "%s; perf hardware events %s", pmu,
			m->perf_hw_usable ? "usable" : "refused to this user");
	} else {
		c = cbench_doctor_add(&d->report, "pmu", "PMU", CBENCH_VERDICT_WARN,
			"measure on bare metal, or give the VM a PMU (QEMU: -cpu host,pmu=on)",
			"no PMU%s: TSC only; cycles are estimated from the reference chain",
			m->hypervisor ? " (a virtual machine)" : "");
	}
	cbench_doctor_extra_int(c, "pmu_version", m->pmu_version);
	cbench_doctor_extra_bool(c, "perf_hardware", m->perf_hw_usable);
}

static void check_nmi_watchdog(struct doctor *d)
{
	long v;

	if (cbench_sysroot_read_long("/proc/sys/kernel/nmi_watchdog", &v))
		cbench_doctor_add(&d->report, "nmi_watchdog", "NMI watchdog", CBENCH_VERDICT_OK, NULL, "not built in");
	else if (!v)
		cbench_doctor_add(&d->report, "nmi_watchdog", "NMI watchdog", CBENCH_VERDICT_OK, NULL, "off");
	else if (!d->pmu)
		cbench_doctor_add(&d->report, "nmi_watchdog", "NMI watchdog", CBENCH_VERDICT_OK, NULL,
		    "on, but without a PMU it holds no counter");
	else
		cbench_doctor_add(&d->report, "nmi_watchdog", "NMI watchdog", CBENCH_VERDICT_WARN,
		    "sysctl kernel.nmi_watchdog=0 (cbenchctl lab setup does)",
		    "on: it holds a cycles counter on every CPU and interrupts each one");
}

static void check_governor(struct doctor *d)
{
	char path[128], governor[64], driver[64] = "";

	cbench_cpu_path(path, sizeof(path), d->report.cpu, "cpufreq/scaling_governor");
	if (cbench_sysroot_read_line(path, governor, sizeof(governor)) <= 0) {
		cbench_doctor_add(&d->report, "governor", "governor", CBENCH_VERDICT_OK, NULL,
		    "no cpufreq on CPU %d: the frequency is not the kernel's to set", d->report.cpu);
		return;
	}
	cbench_cpu_path(path, sizeof(path), d->report.cpu, "cpufreq/scaling_driver");
	if (cbench_sysroot_read_line(path, driver, sizeof(driver)) <= 0)
		strcpy(driver, "unknown driver");
	if (!strcmp(governor, "performance"))
		cbench_doctor_add(&d->report, "governor", "governor", CBENCH_VERDICT_OK, NULL, "performance (%s)", driver);
	else
		cbench_doctor_add(&d->report, "governor", "governor", CBENCH_VERDICT_WARN,
		    "cpupower frequency-set -g performance (cbenchctl lab setup does)",
		    "%s (%s): the clock follows the load", governor, driver);
}

static void check_boost(struct doctor *d)
{
	struct cbench_boost_knob knobs[CBENCH_BOOST_KNOBS];
	char found[256] = "";
	const char *on = NULL;
	long v;
	size_t len = 0;

	cbench_boost_knobs(d->report.cpu, knobs);
	for (size_t i = 0; i < CBENCH_BOOST_KNOBS; i++) {
		if (cbench_sysroot_read_long(knobs[i].path, &v))
			continue;
		len += (size_t)snprintf(found + len, sizeof(found) - len, "%s%s %ld",
					len ? ", " : "", knobs[i].name, v);
		if (len >= sizeof(found))
			len = sizeof(found) - 1;
		if (v == knobs[i].on && !on)
			on = knobs[i].name;
	}
	if (!len)
		cbench_doctor_add(&d->report, "boost", "boost/turbo", CBENCH_VERDICT_OK, NULL, "no boost control exposed");
	else if (on)
		cbench_doctor_add(&d->report, "boost", "boost/turbo", CBENCH_VERDICT_WARN,
		    "turn boost off (cbenchctl lab setup does)",
		    "on (%s): the clock depends on temperature and the other cores' load", found);
	else
		cbench_doctor_add(&d->report, "boost", "boost/turbo", CBENCH_VERDICT_OK, NULL, "off (%s)", found);
}

static void check_smt(struct doctor *d)
{
	char list[256], online[256] = "";
	unsigned long bits[CBENCH_CPU_WORDS];
	size_t len = 0;

	if (cbench_cpu_siblings(d->report.cpu, list, sizeof(list), bits)) {
		cbench_doctor_add(&d->report, "smt", "SMT sibling", CBENCH_VERDICT_OK, NULL, "no topology for CPU %d", d->report.cpu);
		return;
	}
	for (unsigned int i = 0; i < CBENCH_MAX_CPUS; i++) {
		if (!cbench_cpulist_has(list, i) || (int)i == d->report.cpu || !cpu_online((int)i))
			continue;
		len += (size_t)snprintf(online + len, sizeof(online) - len, "%s%u",
					len ? "," : "", i);
		if (len >= sizeof(online))
			len = sizeof(online) - 1;
	}
	if (!len) {
		cbench_doctor_add(&d->report, "smt", "SMT sibling", CBENCH_VERDICT_OK, NULL,
		    "CPU %d has its core to itself (siblings: %s)", d->report.cpu, list);
	} else {
		char fix[160];

		snprintf(fix, sizeof(fix), "echo 0 > " CBENCH_CPU_DIR "/cpu%s/online (cbenchctl lab setup does)",
			 online);
		cbench_doctor_add(&d->report, "smt", "SMT sibling", CBENCH_VERDICT_WARN, fix,
		    "CPU %s shares CPU %d's core and is online", online, d->report.cpu);
	}
}

/* The CPU list of `name=` on the kernel command line, without isolcpus'
 * leading flags ("isolcpus=nohz,domain,2-3"); false if absent. */
static bool cmdline_list(const char *cmdline, const char *name, char *buf, size_t size)
{
	size_t n = strlen(name);

	for (const char *p = cmdline; (p = strstr(p, name)); p += n) {
		const char *v;
		size_t len;

		if ((p != cmdline && p[-1] != ' ') || p[n] != '=')
			continue;
		v = p + n + 1;
		while (*v && *v != ' ' && (*v < '0' || *v > '9'))
			v++;
		len = strcspn(v, " \n");
		snprintf(buf, size, "%.*s", (int)len, v);
		return true;
	}
	return false;
}

static void check_isolation(struct doctor *d)
{
	char cmdline[4096] = "", list[256], detail[256];
	bool isolated = false, nohz = false, nocbs = false;
	struct cbench_doctor_check *c;

	cbench_sysroot_read_line("/proc/cmdline", cmdline, sizeof(cmdline));
	if (cbench_sysroot_read_line(CBENCH_CPU_DIR "/isolated", list, sizeof(list)) >= 0)
		isolated = cbench_cpulist_has(list, (unsigned int)d->report.cpu);
	else if (cmdline_list(cmdline, "isolcpus", list, sizeof(list)))
		isolated = cbench_cpulist_has(list, (unsigned int)d->report.cpu);
	if (cbench_sysroot_read_line(CBENCH_CPU_DIR "/nohz_full", list, sizeof(list)) >= 0)
		nohz = cbench_cpulist_has(list, (unsigned int)d->report.cpu);
	else if (cmdline_list(cmdline, "nohz_full", list, sizeof(list)))
		nohz = cbench_cpulist_has(list, (unsigned int)d->report.cpu);
	if (cmdline_list(cmdline, "rcu_nocbs", list, sizeof(list)))
		nocbs = cbench_cpulist_has(list, (unsigned int)d->report.cpu);
	snprintf(detail, sizeof(detail), "isolcpus %s, nohz_full %s, rcu_nocbs %s",
		 isolated ? "yes" : "no", nohz ? "yes" : "no", nocbs ? "yes" : "no");
	if (isolated && nohz && nocbs) {
		c = cbench_doctor_add(&d->report, "isolation", "isolation", CBENCH_VERDICT_OK, NULL, "CPU %d: %s", d->report.cpu, detail);
	} else {
		char fix[160];

		snprintf(fix, sizeof(fix), "boot with isolcpus=%d nohz_full=%d rcu_nocbs=%d",
			 d->report.cpu, d->report.cpu, d->report.cpu);
		c = cbench_doctor_add(&d->report, "isolation", "isolation", CBENCH_VERDICT_WARN, fix,
			"CPU %d: %s: the scheduler, the tick and RCU may run there", d->report.cpu, detail);
	}
	cbench_doctor_extra_bool(c, "isolcpus", isolated);
	cbench_doctor_extra_bool(c, "nohz_full", nohz);
	cbench_doctor_extra_bool(c, "rcu_nocbs", nocbs);
}

/* Interrupts CPU cpu has taken since boot: its column of /proc/interrupts;
 * -1 if unknown. */
static long long interrupts_on(int cpu)
{
	static char buf[1 << 20];
	char header[4096], *line, *save = NULL, *hsave = NULL;
	int column = -1, i = 0;
	long long total = 0;

	if (cbench_sysroot_read("/proc/interrupts", buf, sizeof(buf)) <= 0)
		return -1;
	line = strtok_r(buf, "\n", &save);
	if (!line)
		return -1;
	snprintf(header, sizeof(header), "%s", line);
	for (char *tok = strtok_r(header, " ", &hsave); tok; tok = strtok_r(NULL, " ", &hsave), i++) {
		if (!strncmp(tok, "CPU", 3) && atoi(tok + 3) == cpu)
			column = i;
	}
	if (column < 0)
		return -1;
	while ((line = strtok_r(NULL, "\n", &save))) {
		char *p = strchr(line, ':');

		if (!p)
			continue;
		p++;
		for (i = 0; i <= column; i++) {
			char *end;
			long long v = strtoll(p, &end, 10);

			if (end == p)
				break;
			if (i == column)
				total += v;
			p = end;
		}
	}
	return total;
}

static void check_irqs(struct doctor *d)
{
	char dir[4096], path[300], list[256], fix[128];
	unsigned int routed = 0, total = 0;
	long long taken = interrupts_on(d->report.cpu);
	struct dirent *e;
	struct cbench_doctor_check *c;
	DIR *irqs;

	cbench_sysroot_path(dir, sizeof(dir), "/proc/irq");
	irqs = opendir(dir);
	if (!irqs) {
		cbench_doctor_add(&d->report, "irqs", "interrupts", CBENCH_VERDICT_OK, NULL, "no /proc/irq to read");
		return;
	}
	while ((e = readdir(irqs))) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/irq/%s/smp_affinity_list", e->d_name);
		if (cbench_sysroot_read_line(path, list, sizeof(list)) < 0)
			continue;
		total++;
		if (cbench_cpulist_has(list, (unsigned int)d->report.cpu))
			routed++;
	}
	closedir(irqs);
	snprintf(fix, sizeof(fix), "cbenchctl lab setup --cpu %d moves them off", d->report.cpu);
	if (routed)
		c = cbench_doctor_add(&d->report, "irqs", "interrupts", CBENCH_VERDICT_WARN, fix,
			"%u of %u IRQs may be routed to CPU %d", routed, total, d->report.cpu);
	else
		c = cbench_doctor_add(&d->report, "irqs", "interrupts", CBENCH_VERDICT_OK, NULL,
			"none of %u IRQs is routed to CPU %d", total, d->report.cpu);
	if (taken >= 0) {
		size_t len = strlen(c->detail);

		snprintf(c->detail + len, sizeof(c->detail) - len,
			 "; it took %lld interrupts since boot", taken);
		cbench_doctor_extra_int(c, "routed", routed);
		cbench_doctor_extra_int(c, "irqs", total);
		cbench_doctor_extra_int(c, "taken", taken);
	} else {
		cbench_doctor_extra_int(c, "routed", routed);
		cbench_doctor_extra_int(c, "irqs", total);
	}
}

static void check_irqbalance(struct doctor *d)
{
	long pid = cbench_sysroot_find_process("irqbalance");

	if (pid)
		cbench_doctor_add(&d->report, "irqbalance", "irqbalance", CBENCH_VERDICT_WARN,
		    "systemctl stop irqbalance (cbenchctl lab setup does)",
		    "running (pid %ld): it moves interrupts back onto the measuring CPU", pid);
	else
		cbench_doctor_add(&d->report, "irqbalance", "irqbalance", CBENCH_VERDICT_OK, NULL, "not running");
}

static void check_thp(struct doctor *d)
{
	char mode[64];

	if (read_choice("/sys/kernel/mm/transparent_hugepage/enabled", mode, sizeof(mode)))
		cbench_doctor_add(&d->report, "thp", "huge pages", CBENCH_VERDICT_OK, NULL, "no transparent huge pages");
	else if (!strcmp(mode, "always"))
		cbench_doctor_add(&d->report, "thp", "huge pages", CBENCH_VERDICT_WARN,
		    "echo madvise > /sys/kernel/mm/transparent_hugepage/enabled",
		    "always: an arena gets huge pages or not from run to run");
	else
		cbench_doctor_add(&d->report, "thp", "huge pages", CBENCH_VERDICT_OK, NULL, "%s", mode);

	if (read_choice("/sys/kernel/mm/transparent_hugepage/defrag", mode, sizeof(mode)))
		return;
	if (!strcmp(mode, "always"))
		cbench_doctor_add(&d->report, "thp_defrag", "huge page defrag", CBENCH_VERDICT_WARN,
		    "echo madvise > /sys/kernel/mm/transparent_hugepage/defrag",
		    "always: a page fault may stall while memory is compacted");
	else
		cbench_doctor_add(&d->report, "thp_defrag", "huge page defrag", CBENCH_VERDICT_OK, NULL, "%s", mode);
}

static void check_paranoid(struct doctor *d)
{
	struct cbench_doctor_check *c;
	long v;

	if (cbench_sysroot_read_long("/proc/sys/kernel/perf_event_paranoid", &v)) {
		cbench_doctor_add(&d->report, "perf_event_paranoid", "perf_event_paranoid", CBENCH_VERDICT_WARN, NULL,
		    "unknown: perf events may not be available at all");
		return;
	}
	if (v <= 2)
		c = cbench_doctor_add(&d->report, "perf_event_paranoid", "perf_event_paranoid", CBENCH_VERDICT_OK, NULL,
			"%ld: unprivileged runs count their own events", v);
	else
		c = cbench_doctor_add(&d->report, "perf_event_paranoid", "perf_event_paranoid", CBENCH_VERDICT_WARN,
			"sysctl kernel.perf_event_paranoid=2",
			"%ld: only root counts events; others fall back to getrusage", v);
	cbench_doctor_extra_int(c, "value", v);
}

/* What the measuring child finds; sent to the parent through a pipe. */
struct measured {
	int error;			/* 0 or -errno */
	double step_ticks;
	double tsc_hz;
	double step_ns;
	unsigned int rounds;
	double ghz_min, ghz_max;
	double spread;			/* (max - min) / min of the rounds' readings */
};

/*
 * In a child pinned to the CPU: the user backend's calibration (whose step
 * is cbench_stats_step over reads around spins of spread-out length), then
 * rounds of the reference chain for DRIFT_SECONDS, each round's floor mean
 * one reading of the core clock, as a trial reads it.
 */
static void measure(int cpu, struct measured *r)
{
	struct cbench_backend b = { .ops = &cbench_backend_user, .no_fifo = true };
	double *ticks = malloc(DRIFT_ROUND_SAMPLES * sizeof(*ticks));
	int64_t end;
	int ret;

	memset(r, 0, sizeof(*r));
	r->ghz_min = INFINITY;
	ret = ticks ? b.ops->open(&b, cpu) : -ENOMEM;
	if (!ret)
		ret = b.ops->calibrate(&b, &b.timer);
	if (ret) {
		r->error = ret;
		goto out;
	}
	r->step_ticks = b.timer.step_ticks;
	r->tsc_hz = b.timer.tsc_hz;
	r->step_ns = b.timer.precision_ns;
	end = cbench_now_ns() + (int64_t)(DRIFT_SECONDS * 1e9);
	while (cbench_now_ns() < end) {
		int64_t round_end = cbench_now_ns() + DRIFT_ROUND_NS;
		size_t n = 0;
		double floor, ghz;

		while (cbench_now_ns() < round_end && n < DRIFT_ROUND_SAMPLES) {
			struct cbench_sample s;

			if (b.ops->measure_ref(&b, b.timer.ref_reps, &s)) {
				r->error = -EIO;
				goto out;
			}
			if (!s.disturbed && s.ticks)
				ticks[n++] = (double)s.ticks;
		}
		if (!n)
			continue;
		floor = cbench_stats_floor_mean(ticks, n, b.timer.step_ticks);
		ghz = (double)b.timer.ref_reps * CBENCH_REF_ADDS_PER_REP / floor * r->tsc_hz / 1e9;
		r->ghz_min = fmin(r->ghz_min, ghz);
		r->ghz_max = fmax(r->ghz_max, ghz);
		r->rounds++;
	}
	r->spread = r->rounds ? (r->ghz_max - r->ghz_min) / r->ghz_min : NAN;
out:
	free(ticks);
	if (b.priv)
		b.ops->close(&b);
}

static int measure_in_child(int cpu, struct measured *r)
{
	int fds[2], status, lock;
	pid_t pid;
	ssize_t n;

	/* A run measuring on this CPU would measure us, and we it. */
	lock = cbench_cpulock_wait(cpu, stderr);
	if (lock < 0)
		return lock;
	if (pipe(fds)) {
		close(lock);
		return -errno;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		close(lock);
		return -errno;
	}
	if (!pid) {
		close(fds[0]);
		measure(cpu, r);
		_exit(write(fds[1], r, sizeof(*r)) == (ssize_t)sizeof(*r) ? 0 : 1);
	}
	close(fds[1]);
	n = read(fds[0], r, sizeof(*r));
	close(fds[0]);
	waitpid(pid, &status, 0);
	close(lock);
	if (n != (ssize_t)sizeof(*r))
		return -EIO;
	return r->error;
}

static void check_measured(struct doctor *d)
{
	struct measured r;
	struct cbench_doctor_check *c;
	int ret;

	if (!d->measure)
		return;
	ret = measure_in_child(d->report.cpu, &r);
	if (ret) {
		cbench_doctor_add(&d->report, "timer_step", "timer step", CBENCH_VERDICT_FAIL, NULL,
		    "unable to measure on CPU %d: %s", d->report.cpu, strerror(-ret));
		return;
	}
	if (r.step_ns <= STEP_WARN_NS)
		c = cbench_doctor_add(&d->report, "timer_step", "timer step", CBENCH_VERDICT_OK, NULL,
			"%.0f TSC ticks (%.2f ns)", r.step_ticks, r.step_ns);
	else
		c = cbench_doctor_add(&d->report, "timer_step", "timer step", CBENCH_VERDICT_WARN,
			"measure on bare metal, where the TSC advances by one tick",
			"%.0f TSC ticks (%.2f ns): measurements under 100 us are shorter than 2000 steps",
			r.step_ticks, r.step_ns);
	cbench_doctor_extra_int(c, "step_ticks", (int64_t)r.step_ticks);
	cbench_doctor_extra_double(c, "step_ns", r.step_ns);
	cbench_doctor_extra_double(c, "tsc_hz", round(r.tsc_hz));

	if (!r.rounds) {
		cbench_doctor_add(&d->report, "clock_drift", "clock drift", CBENCH_VERDICT_WARN, NULL,
		    "no undisturbed reference measurement in %.1f s", DRIFT_SECONDS);
		return;
	}
	if (r.spread <= DRIFT_WARN)
		c = cbench_doctor_add(&d->report, "clock_drift", "clock drift", CBENCH_VERDICT_OK, NULL,
			"%.3f-%.3f GHz over %u readings in %.1f s: %.2f %%",
			r.ghz_min, r.ghz_max, r.rounds, DRIFT_SECONDS, 100 * r.spread);
	else
		c = cbench_doctor_add(&d->report, "clock_drift", "clock drift", CBENCH_VERDICT_WARN,
			"governor performance and boost off (cbenchctl lab setup); on a VM, a dedicated host",
			"%.3f-%.3f GHz over %u readings in %.1f s: %.2f %%, above %.1f %%",
			r.ghz_min, r.ghz_max, r.rounds, DRIFT_SECONDS, 100 * r.spread, 100 * DRIFT_WARN);
	cbench_doctor_extra_int(c, "readings", r.rounds);
	cbench_doctor_extra_double(c, "ghz_min", r.ghz_min);
	cbench_doctor_extra_double(c, "ghz_max", r.ghz_max);
	cbench_doctor_extra_double(c, "spread", r.spread);
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s doctor [--cpu N] [--json] [--no-measure]\n"
		"\n"
		"Checks whether this machine, and CPU N, are fit for low-noise measurement:\n"
		"each check says ok, warn or fail, and how to fix it.  Exits 1 if any fails.\n"
		"\n"
		"Options:\n"
		"  --cpu N        the CPU to measure on (default: the last CPU we may use)\n"
		"  --json         print JSON instead of text\n"
		"  --no-measure   skip the measured checks (timer step, clock drift: %.1f s)\n"
		"  -h, --help     show this help\n",
		cbench_prog, DRIFT_SECONDS);
}

/* Options into d.  0 to go on, 1 to stop with status 0 (--help), -1 with 1. */
static int parse_options(struct doctor *d, int argc, char *argv[])
{
	enum { OPT_CPU = 256, OPT_JSON, OPT_NO_MEASURE, OPT_ROOT };
	static const struct option longopts[] = {
		{ "cpu", required_argument, NULL, OPT_CPU },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "no-measure", no_argument, NULL, OPT_NO_MEASURE },
		/* Hidden: read the kernel's files under DIR (tests). */
		{ "root", required_argument, NULL, OPT_ROOT },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	d->report.cpu = -1;
	d->measure = true;
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_CPU:
			if (cbench_option_cpu(optarg, CBENCH_MAX_CPUS, &d->report.cpu, stderr))
				return -1;
			break;
		case OPT_JSON:
			d->json = true;
			break;
		case OPT_NO_MEASURE:
			d->measure = false;
			break;
		case OPT_ROOT:
			cbench_sysroot_set(optarg);
			break;
		case 'h':
			usage(stdout);
			return 1;
		default:
			cbench_usage_error("doctor", "unknown or incomplete option '%s'", argv[optind - 1]);
			return -1;
		}
	}
	if (optind != argc) {
		cbench_usage_error("doctor", "it takes no operand ('%s')", argv[optind]);
		return -1;
	}
	if (d->report.cpu < 0)
		d->report.cpu = cbench_last_allowed_cpu();
	return 0;
}

static void run_checks(struct doctor *d)
{
	struct cbench_machine machine;

	cbench_machine_probe(&machine);
	check_cpu(d);
	check_module(d);
	check_capabilities(d);
	check_headers(d);
	check_secure_boot(d);
	check_lockdown(d);
	check_ring0_watchdog(d, &machine);
	check_taint(d);
	check_pmu(d, &machine);
	check_nmi_watchdog(d);
	check_governor(d);
	check_boost(d);
	check_smt(d);
	check_isolation(d);
	check_irqs(d);
	check_irqbalance(d);
	check_thp(d);
	check_paranoid(d);
	/* Measuring on a CPU that is not there would only fail again. */
	if (d->report.checks[0].verdict != CBENCH_VERDICT_FAIL)
		check_measured(d);
}

int cbench_doctor_main(int argc, char *argv[])
{
	struct doctor *d = calloc(1, sizeof(*d));
	int ret;

	if (!d) {
		cbench_err("unable to run the checks: %s\n", strerror(ENOMEM));
		return 1;
	}
	ret = parse_options(d, argc, argv);
	if (ret) {
		free(d);
		return ret > 0 ? 0 : CBENCH_EXIT_USAGE;
	}
	run_checks(d);
	cbench_doctor_print(&d->report, stdout, d->json);
	for (size_t i = 0; i < d->report.nchecks; i++) {
		if (d->report.checks[i].verdict == CBENCH_VERDICT_FAIL)
			ret = 1;
	}
	free(d);
	return ret;
}
