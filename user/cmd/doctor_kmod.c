// SPDX-License-Identifier: GPL-2.0
/*
 * doctor's checks of the kmod backend: is cbench.ko loaded and speaking
 * this cbenchctl's protocol, may this user have it run benchmark code, can
 * it be built and loaded for this kernel (headers, Secure Boot, lockdown),
 * is there a CPU to watch its calls, and is the kernel in a state to trust
 * (no oops or warning since boot).
 */
#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/capability.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/family.h>
#include <netlink/genl/genl.h>

#include <cbench.h>
#include <uapi/linux/cbench.h>

#include "backend/netlink.h"
#include "backend/protocol.h"
#include "cmd/doctor_parts.h"
#include "machine/sysroot.h"

/* The fix for a module that is not this cbenchctl's. */
#define SAME_TREE "load the cbench.ko built from the same tree as this cbenchctl"

#define EFI_SECURE_BOOT \
	"/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-e98c0f8e4aa8"

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
		snprintf(fix, len,
			 "make dkms-install in the cbench source tree, then modprobe cbench");
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
			snprintf(fix, len, "make -C %s module && insmod %s/build/kmod-%s/cbench.ko",
				 tree, tree, release);
			free(tree);
			return;
		}
	}
	snprintf(fix, len,
		 "make dkms-install in the cbench source tree (builds cbench.ko for %s), then "
		 "modprobe cbench", release);
}

static void check_module(struct cbench_doctor_report *r)
{
	struct cbench_proto_info info = { 0 };
	struct cbench_nl *nl = NULL;
	unsigned int version = 0;
	struct cbench_doctor_check *c;
	char fix[768];
	int ret;

	if (!cbench_sysroot_exists("/sys/module/cbench")) {
		load_fix(fix, sizeof(fix));
		cbench_doctor_add(r, "module", "cbench.ko", CBENCH_VERDICT_WARN, fix,
				  "not loaded: only the user backend can measure (no ring 0, "
				  "interrupts on)");
		return;
	}
	if (!cbench_sysroot_is_real()) {
		cbench_doctor_add(r, "module", "cbench.ko", CBENCH_VERDICT_OK, NULL,
				  "loaded (not asked: the files are a copy, not this machine's)");
		return;
	}
	ret = family_version(&version);
	if (ret) {
		cbench_doctor_add(r, "module", "cbench.ko", CBENCH_VERDICT_FAIL,
				  "rmmod cbench && insmod cbench.ko",
				  "loaded, but its netlink family does not answer: %s",
				  strerror(-ret));
		return;
	}
	if (version != CBENCH_GENL_VERSION) {
		cbench_doctor_add(r, "module", "cbench.ko", CBENCH_VERDICT_FAIL, SAME_TREE,
				  "speaks protocol version %u, this cbenchctl version %d", version,
				  CBENCH_GENL_VERSION);
		return;
	}
	ret = cbench_nl_open(&nl);
	if (!ret)
		ret = cbench_proto_info(nl, &info);
	if (ret) {
		cbench_doctor_add(r, "module", "cbench.ko", CBENCH_VERDICT_FAIL,
				  "rmmod cbench && insmod cbench.ko", "loaded, but INFO fails: %s",
				  cbench_nl_strerror(nl, ret));
		cbench_nl_close(nl);
		return;
	}
	cbench_nl_close(nl);
	if (info.abi != CBENCH_ABI_VERSION) {
		c = cbench_doctor_add(r, "module", "cbench.ko", CBENCH_VERDICT_FAIL, SAME_TREE,
				      "%s runs benchmark ABI %" PRIu32 ", this cbenchctl %d",
				      info.version, info.abi, CBENCH_ABI_VERSION);
	} else if (strcmp(info.version, CBENCH_VERSION)) {
		c = cbench_doctor_add(r, "module", "cbench.ko", CBENCH_VERDICT_WARN, SAME_TREE,
				      "%s loaded (protocol %u, ABI %" PRIu32 "), but this "
				      "cbenchctl is %s", info.version, version, info.abi,
				      CBENCH_VERSION);
	} else {
		c = cbench_doctor_add(r, "module", "cbench.ko", CBENCH_VERDICT_OK, NULL,
				      "%s loaded, protocol %u, ABI %" PRIu32, info.version, version,
				      info.abi);
	}
	cbench_doctor_extra_int(c, "protocol", version);
	cbench_doctor_extra_int(c, "abi", info.abi);
}

static void check_headers(struct cbench_doctor_report *r)
{
	char release[128], path[256];

	if (!kernel_release(release, sizeof(release))) {
		cbench_doctor_add(r, "headers", "kernel headers", CBENCH_VERDICT_WARN, NULL,
				  "the running kernel's release is unknown "
				  "(no /proc/sys/kernel/osrelease)");
		return;
	}
	snprintf(path, sizeof(path), "/lib/modules/%s/build", release);
	if (cbench_sysroot_exists(path)) {
		cbench_doctor_add(r, "headers", "kernel headers", CBENCH_VERDICT_OK, NULL,
				  "%s is there", path);
	} else {
		char fix[320];
		size_t n = strlen(release);

		/* Debian names its kernels <version>-<abi>-amd64 (or -cloud-amd64,
		 * -rt-amd64), with a headers package of the same name; another
		 * kernel's headers come from whoever built it. */
		if (n > 6 && !strcmp(release + n - 6, "-amd64"))
			snprintf(fix, sizeof(fix), "apt-get install linux-headers-%s", release);
		else
			snprintf(fix, sizeof(fix),
				 "%s is not a Debian kernel: install the headers its builder "
				 "ships, or boot Debian's (apt-get install linux-image-amd64 "
				 "linux-headers-amd64)", release);
		cbench_doctor_add(r, "headers", "kernel headers", CBENCH_VERDICT_WARN, fix,
				  "%s is missing: cbench.ko cannot be built (nor rebuilt by DKMS) "
				  "for this kernel", path);
	}
}

static void check_secure_boot(struct cbench_doctor_report *r)
{
	unsigned char var[64];
	ssize_t n;

	if (!cbench_sysroot_exists("/sys/firmware/efi")) {
		cbench_doctor_add(r, "secure_boot", "Secure Boot", CBENCH_VERDICT_OK, NULL,
				  "not booted by EFI: no Secure Boot");
		return;
	}
	/* An EFI variable file: 4 bytes of attributes, then the value. */
	n = cbench_sysroot_read(EFI_SECURE_BOOT, (char *)var, sizeof(var));
	if (n < 5) {
		cbench_doctor_add(r, "secure_boot", "Secure Boot", CBENCH_VERDICT_OK, NULL,
				  "EFI boot without a SecureBoot variable: off");
	} else if (var[4] == 1) {
		cbench_doctor_add(r, "secure_boot", "Secure Boot", CBENCH_VERDICT_WARN,
				  "make dkms-install (DKMS signs it), "
				  "then mokutil --import /var/lib/dkms/mok.pub",
				  "on: cbench.ko loads only if signed with "
				  "a key the firmware trusts");
	} else {
		cbench_doctor_add(r, "secure_boot", "Secure Boot", CBENCH_VERDICT_OK, NULL, "off");
	}
}

static void check_lockdown(struct cbench_doctor_report *r)
{
	char mode[64];

	if (cbench_sysroot_read_choice("/sys/kernel/security/lockdown", mode, sizeof(mode))) {
		cbench_doctor_add(r, "lockdown", "lockdown", CBENCH_VERDICT_OK, NULL,
				  "no lockdown LSM");
	} else if (!strcmp(mode, "none")) {
		cbench_doctor_add(r, "lockdown", "lockdown", CBENCH_VERDICT_OK, NULL, "none");
	} else {
		cbench_doctor_add(r, "lockdown", "lockdown", CBENCH_VERDICT_WARN,
				  "boot with lockdown=none for the kmod backend "
				  "(the user backend is unaffected)",
				  "%s: unsigned modules are refused, and a loaded cbench.ko, "
				  "signed or not, runs no benchmark code in ring 0 "
				  "(docs/trust-model.md)", mode);
	}
}

/*
 * Whether this process may use the kmod backend: running code in ring 0 is
 * loading kernel code, so cbench.ko wants CAP_SYS_MODULE as well as
 * CAP_SYS_ADMIN (and the user backend wants neither).
 */
static void check_capabilities(struct cbench_doctor_report *r)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct c[2];
	bool admin, module;

	if (syscall(SYS_capget, &h, c)) {
		cbench_doctor_add(r, "capabilities", "capabilities", CBENCH_VERDICT_WARN, NULL,
				  "unknown: capget: %s", strerror(errno));
		return;
	}
	admin = c[CAP_SYS_ADMIN / 32].effective & (1u << (CAP_SYS_ADMIN % 32));
	module = c[CAP_SYS_MODULE / 32].effective & (1u << (CAP_SYS_MODULE % 32));
	if (admin && module)
		cbench_doctor_add(r, "capabilities", "capabilities", CBENCH_VERDICT_OK, NULL,
				  "CAP_SYS_ADMIN and CAP_SYS_MODULE: "
				  "the kmod backend may run benchmark code");
	else
		cbench_doctor_add(r, "capabilities", "capabilities", CBENCH_VERDICT_WARN,
				  "run as root for the kmod backend "
				  "(the user backend needs neither)",
				  "without %s%s%s: cbench.ko refuses to run benchmark code for "
				  "this user", admin ? "" : "CAP_SYS_ADMIN",
				  admin || module ? "" : " and ", module ? "" : "CAP_SYS_MODULE");
}

/*
 * cbench.ko ends a call of benchmark code that never returns from another
 * CPU (its watchdog): with one CPU online there is none to do it.
 */
static void check_ring0_watchdog(struct cbench_doctor_report *r, const struct cbench_machine *m)
{
	static const char params[] = "/sys/module/cbench/parameters/";
	char limit[32], unwatched[8] = "N", path[64];

	snprintf(path, sizeof(path), "%scall_limit_ms", params);
	if (cbench_sysroot_read_choice(path, limit, sizeof(limit)))
		snprintf(limit, sizeof(limit), "1000 ms (call_limit_ms)");
	else
		snprintf(limit + strlen(limit), sizeof(limit) - strlen(limit), " ms");
	snprintf(path, sizeof(path), "%sunwatched_runs", params);
	cbench_sysroot_read_choice(path, unwatched, sizeof(unwatched));
	if (m->cpus_online >= 2)
		cbench_doctor_add(r, "ring0_watchdog", "ring-0 watchdog", CBENCH_VERDICT_OK, NULL,
				  "%d CPUs online: another CPU ends a ring-0 call that has not "
				  "returned after %s", m->cpus_online, limit);
	else
		cbench_doctor_add(r, "ring0_watchdog", "ring-0 watchdog", CBENCH_VERDICT_WARN,
				  "bring a second CPU online for the kmod backend (or load "
				  "cbench.ko with unwatched_runs=1 to take the risk)",
				  "one CPU online: none can end a ring-0 call that never returns, "
				  "so cbench.ko %s", unwatched[0] == 'Y' ?
				  "takes runs at that risk (unwatched_runs=Y)" : "refuses runs");
}

/* /proc/sys/kernel/tainted's bits (the kernel's TAINT_DIE, TAINT_WARN). */
#define TAINT_DIE (1ULL << 7)
#define TAINT_WARN (1ULL << 9)

/*
 * A kernel that oopsed, or warned, since boot: whatever oopsed (a benchmark
 * cbench.ko's oops net ended in ring 0 among them, docs/trust-model.md),
 * the kernel turned lockdep and tracing off and may be inconsistent.
 */
static void check_taint(struct cbench_doctor_report *r)
{
	char raw[32];
	unsigned long long taint;
	struct cbench_doctor_check *c;

	if (cbench_sysroot_read_line("/proc/sys/kernel/tainted", raw, sizeof(raw)) < 0) {
		cbench_doctor_add(r, "taint", "kernel taint", CBENCH_VERDICT_OK, NULL,
				  "unknown: no /proc/sys/kernel/tainted");
		return;
	}
	taint = strtoull(raw, NULL, 10);
	if (taint & TAINT_DIE)
		c = cbench_doctor_add(r, "taint", "kernel taint", CBENCH_VERDICT_WARN,
				      "reboot before measuring here; dmesg shows what oopsed",
				      "tainted by an oops (D): the kernel oopsed since boot "
				      "(cbench.ko says so when benchmark code caused it); it may "
				      "be inconsistent, and lockdep and tracing are off");
	else if (taint & TAINT_WARN)
		c = cbench_doctor_add(r, "taint", "kernel taint", CBENCH_VERDICT_WARN,
				      "read dmesg for the warning; reboot before measuring here",
				      "tainted by a warning (W): the kernel warned since boot");
	else
		c = cbench_doctor_add(r, "taint", "kernel taint", CBENCH_VERDICT_OK, NULL,
				      "no oops or warning since boot (tainted %llu)", taint);
	cbench_doctor_extra_int(c, "tainted", (int64_t)taint);
}

void cbench_doctor_check_kmod(struct cbench_doctor_report *r, const struct cbench_machine *m)
{
	check_module(r);
	check_capabilities(r);
	check_headers(r);
	check_secure_boot(r);
	check_lockdown(r);
	check_ring0_watchdog(r, m);
	check_taint(r);
}
