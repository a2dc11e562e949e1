// SPDX-License-Identifier: GPL-2.0
/*
 * cbench_library_open(): an object loaded in a child process, which sends
 * up what it found (each descriptor's fields, keys and parameter sets, as
 * plain values) in messages written whole; cbenchctl keeps copies with no
 * code.  A crash, an exit, a time-out or processes the object's
 * constructors leave behind are failures with a reason.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "error.h"
#include "machine/clock.h"
#include "machine/proc.h"
#include "object/loader_parts.h"

/* Parameter sets one message carries. */
#define LOAD_SETS_PER_MSG 256

/* Messages from the loading child, each written whole. */
enum load_msg_type {
	LOAD_MSG_LOADING = 1,	/* the file checked, dlopen() next */
	LOAD_MSG_LOADED,	/* dlopen() returned: constructors have run */
	LOAD_MSG_HEAD,		/* u.head, then ndescs DESC, then DONE */
	LOAD_MSG_DESC,		/* u.desc, then its nkeys KEY, then SETS for its nsets */
	LOAD_MSG_KEY,
	LOAD_MSG_SETS,
	LOAD_MSG_DONE,
	LOAD_MSG_ERROR,		/* error, u.text */
};

struct load_msg {
	uint32_t type;
	int32_t error;
	union {
		struct {
			uint64_t ndescs;
		} head;
		struct {
			uint32_t abi_version, desc_bytes, nparams, flags;
			uint32_t has_param_name;
			uint32_t per_rep;	/* before_rep or after_rep */
			uint64_t arena_bytes, ops_per_rep, bytes_per_rep;
			char name[CBENCH_NAME_MAX];
			char param_name[CBENCH_NAME_MAX];
			int64_t params[CBENCH_PARAMS_MAX];
			uint32_t nkeys, nsets, listed;
		} desc;
		struct {
			char name[CBENCH_NAME_MAX];
			uint32_t strings, count;
			int64_t ints[CBENCH_PARAMS_MAX];
			char strs[CBENCH_PARAMS_MAX][CBENCH_STR_MAX];
		} key;
		struct {
			uint32_t count;
			uint8_t sets[LOAD_SETS_PER_MSG][CBENCH_KEYS_MAX];
		} sets;
		char text[512];
	} u;
};

/* A descriptor as cbenchctl keeps it: its own memory, no code. */
struct cbench_desc_copy {
	struct cbench_desc desc;
	char name[CBENCH_NAME_MAX];
	char param_name[CBENCH_NAME_MAX];
	int64_t params[CBENCH_PARAMS_MAX];
};

/* Most benchmarks one object may register; far above any real suite, it
 * bounds what a loading child can make us allocate. */
#define LOAD_DESCS_MAX 16384

static int send_load_msg(int fd, const struct load_msg *m)
{
	return cbench_proc_write_all(fd, m, sizeof(*m));
}

static void send_stage(int fd, enum load_msg_type type)
{
	struct load_msg m = { .type = type };

	if (fd >= 0)
		send_load_msg(fd, &m);
}

/* Tells the parent (the pipe in *arg) where dlopen() is. */
static void tell_stage(void *arg, bool loaded)
{
	send_stage(*(const int *)arg, loaded ? LOAD_MSG_LOADED : LOAD_MSG_LOADING);
}

/* One descriptor's parameters, after its DESC: a KEY per key, then its sets. */
static int send_params(int fd, const struct cbench_params *p)
{
	struct load_msg m;

	for (uint32_t k = 0; k < p->nkeys; k++) {
		const struct cbench_param_key *key = &p->keys[k];

		memset(&m, 0, sizeof(m));
		m.type = LOAD_MSG_KEY;
		memcpy(m.u.key.name, key->name, sizeof(m.u.key.name));
		m.u.key.strings = key->strings;
		m.u.key.count = key->count;
		memcpy(m.u.key.ints, key->ints, sizeof(m.u.key.ints));
		if (key->strings)
			memcpy(m.u.key.strs, key->strs, key->count * sizeof(*key->strs));
		if (send_load_msg(fd, &m))
			return -EPIPE;
	}
	for (uint32_t s = 0; p->nkeys && s < p->nsets; s += LOAD_SETS_PER_MSG) {
		uint32_t n = p->nsets - s < LOAD_SETS_PER_MSG ? p->nsets - s : LOAD_SETS_PER_MSG;

		memset(&m, 0, sizeof(m));
		m.type = LOAD_MSG_SETS;
		m.u.sets.count = n;
		memcpy(m.u.sets.sets, p->sets[s], n * sizeof(*p->sets));
		if (send_load_msg(fd, &m))
			return -EPIPE;
	}
	return 0;
}

/* The loading child: loads path here and sends what it found up fd. */
static void __attribute__((noreturn)) load_child(void *arg, int fd)
{
	const char *path = arg;
	struct cbench_library lib;
	struct load_msg m;
	char err[sizeof(m.u.text)];
	int ret;

	ret = cbench_library_load_staged(&lib, path, tell_stage, &fd, err, sizeof(err));
	if (ret) {
		memset(&m, 0, sizeof(m));
		m.type = LOAD_MSG_ERROR;
		m.error = ret;
		snprintf(m.u.text, sizeof(m.u.text), "%s", err);
		send_load_msg(fd, &m);
		_exit(1);
	}
	memset(&m, 0, sizeof(m));
	m.type = LOAD_MSG_HEAD;
	m.u.head.ndescs = lib.ndescs;
	if (send_load_msg(fd, &m))
		_exit(1);
	for (size_t i = 0; i < lib.ndescs; i++) {
		const struct cbench_desc *d = lib.descs[i];

		/* Checked by cbench_library_load_staged(): names fit, nparams is at most CBENCH_PARAMS_MAX. */
		memset(&m, 0, sizeof(m));
		m.type = LOAD_MSG_DESC;
		m.u.desc.abi_version = d->abi_version;
		m.u.desc.desc_bytes = d->desc_bytes;
		m.u.desc.nparams = d->nparams;
		m.u.desc.flags = d->flags;
		m.u.desc.arena_bytes = d->arena_bytes;
		m.u.desc.ops_per_rep = d->ops_per_rep;
		m.u.desc.bytes_per_rep = d->bytes_per_rep;
		m.u.desc.per_rep = cbench_desc_per_rep(d);
		snprintf(m.u.desc.name, sizeof(m.u.desc.name), "%s", d->name);
		if (d->param_name) {
			m.u.desc.has_param_name = 1;
			snprintf(m.u.desc.param_name, sizeof(m.u.desc.param_name), "%s", d->param_name);
		}
		for (uint32_t p = 0; p < d->nparams; p++)
			m.u.desc.params[p] = d->params[p];
		m.u.desc.nkeys = lib.params[i].nkeys;
		m.u.desc.nsets = lib.params[i].nsets;
		m.u.desc.listed = lib.params[i].listed;
		if (send_load_msg(fd, &m) || send_params(fd, &lib.params[i]))
			_exit(1);
	}
	memset(&m, 0, sizeof(m));
	m.type = LOAD_MSG_DONE;
	send_load_msg(fd, &m);
	/* No destructor of the object's runs: _exit(). */
	_exit(0);
}

/* Takes one descriptor from the child into lib's copies, as plain values. */
static int take_desc(struct cbench_library *lib, const struct load_msg *m)
{
	struct cbench_desc_copy *c = &lib->copies[lib->ndescs];
	struct cbench_params *p = &lib->params[lib->ndescs];

	/* Whatever wrote to our pipe may be the object's own code: bound
	 * every string and count before use; desc_check() does the rest. */
	if (memchr(m->u.desc.name, '\0', sizeof(m->u.desc.name)) == NULL ||
	    memchr(m->u.desc.param_name, '\0', sizeof(m->u.desc.param_name)) == NULL ||
	    m->u.desc.nparams > CBENCH_PARAMS_MAX)
		return -EPROTO;
	memcpy(c->name, m->u.desc.name, sizeof(c->name));
	memcpy(c->param_name, m->u.desc.param_name, sizeof(c->param_name));
	memcpy(c->params, m->u.desc.params, sizeof(c->params));
	c->desc = (struct cbench_desc){
		.abi_version = m->u.desc.abi_version,
		.desc_bytes = m->u.desc.desc_bytes,
		.name = c->name,
		.arena_bytes = m->u.desc.arena_bytes,
		.param_name = m->u.desc.has_param_name ? c->param_name : NULL,
		.params = c->params,
		.nparams = m->u.desc.nparams,
		.flags = m->u.desc.flags | (m->u.desc.per_rep ? CBENCH_DESC_F_PER_REP : 0),
		.ops_per_rep = m->u.desc.ops_per_rep,
		.bytes_per_rep = m->u.desc.bytes_per_rep,
	};
	lib->copy_ptrs[lib->ndescs] = &c->desc;
	if (m->u.desc.nkeys > CBENCH_KEYS_MAX || m->u.desc.nsets > CBENCH_SETS_MAX ||
	    (m->u.desc.nkeys && !m->u.desc.nsets))
		return -EPROTO;
	p->nkeys = m->u.desc.nkeys;
	p->nsets = m->u.desc.nsets;
	p->listed = m->u.desc.listed;
	if (p->nkeys) {
		p->sets = calloc(p->nsets, sizeof(*p->sets));
		if (!p->sets)
			return -ENOMEM;
	}
	lib->ndescs++;
	return 0;
}

/* The child's description of a key of the last descriptor taken. */
static int take_key(struct cbench_library *lib, uint32_t k, const struct load_msg *m)
{
	struct cbench_param_key *key = &lib->params[lib->ndescs - 1].keys[k];

	if (m->u.key.count > CBENCH_PARAMS_MAX)
		return -EPROTO;
	memcpy(key->name, m->u.key.name, sizeof(key->name));
	key->name[sizeof(key->name) - 1] = '\0';
	key->strings = m->u.key.strings;
	key->count = m->u.key.count;
	memcpy(key->ints, m->u.key.ints, sizeof(key->ints));
	if (key->strings) {
		key->strs = calloc(CBENCH_PARAMS_MAX, sizeof(*key->strs));
		if (!key->strs)
			return -ENOMEM;
		memcpy(key->strs, m->u.key.strs, sizeof(m->u.key.strs));
		/* cbench_params_check() refuses a value that fills its buffer. */
	}
	return 0;
}

/* Sets from `done` on of the last descriptor taken; returns how many. */
static int take_sets(struct cbench_library *lib, uint32_t done, const struct load_msg *m)
{
	struct cbench_params *p = &lib->params[lib->ndescs - 1];

	if (!m->u.sets.count || m->u.sets.count > LOAD_SETS_PER_MSG || m->u.sets.count > p->nsets - done)
		return -EPROTO;
	memcpy(p->sets[done], m->u.sets.sets, m->u.sets.count * sizeof(*p->sets));
	return (int)m->u.sets.count;
}

/*
 * Reads one whole message by the deadline: 1, 0 at end of file or once the
 * child has exited with nothing left in the pipe, or -errno.  We watch the
 * child through child_fd (a pidfd; -1 where the kernel has none) because
 * the end of file never comes while something it forked holds the pipe.
 */
static int read_load_msg(int fd, int child_fd, struct load_msg *m, double deadline)
{
	size_t have = 0;

	while (have < sizeof(*m)) {
		struct pollfd pfd[2] = { { .fd = fd, .events = POLLIN }, { .fd = child_fd, .events = POLLIN } };
		double left = deadline - cbench_now_s();
		ssize_t got;
		int ready;

		if (left <= 0)
			return -ETIMEDOUT;
		ready = poll(pfd, child_fd >= 0 ? 2 : 1, (int)ceil(left * 1000));
		if (ready < 0 && errno != EINTR)
			return -errno;
		if (ready <= 0)
			continue;
		/* What it wrote before exiting is readable first. */
		if (!(pfd[0].revents & (POLLIN | POLLHUP)))
			return have ? -EPROTO : 0;
		got = read(fd, (char *)m + have, sizeof(*m) - have);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -errno;
		if (got == 0)
			return have ? -EPROTO : 0;
		have += (size_t)got;
	}
	return 1;
}

/*
 * Reads the child's messages into lib until DONE.  Returns 0, -errno with a
 * sentence in err, or -ECHILD if the child ended early (*stage: the last
 * stage it reported).
 */
static int receive(struct cbench_library *lib, int fd, int child_fd, const char *path, double time_limit_s,
		   double deadline, enum load_msg_type *stage, char *err, size_t errlen)
{
	struct load_msg m;
	size_t want = 0;
	uint32_t keys = 0, sets = 0;	/* of the last descriptor, still to come */
	int ret;

	for (;;) {
		ret = read_load_msg(fd, child_fd, &m, deadline);
		if (ret == -ETIMEDOUT) {
			snprintf(err, errlen, "%s did not finish loading within %g s "
				 "(does a constructor never return?)", path, time_limit_s);
			return ret;
		}
		if (ret == 0)
			return -ECHILD;
		if (ret < 0)
			goto bad;
		switch (m.type) {
		case LOAD_MSG_LOADING:
		case LOAD_MSG_LOADED:
			*stage = m.type;
			break;
		case LOAD_MSG_ERROR:
			m.u.text[sizeof(m.u.text) - 1] = '\0';
			snprintf(err, errlen, "%s", m.u.text);
			return m.error < 0 ? m.error : -ENOEXEC;
		case LOAD_MSG_HEAD:
			if (lib->copies || !m.u.head.ndescs || m.u.head.ndescs > LOAD_DESCS_MAX)
				goto bad;
			want = m.u.head.ndescs;
			lib->copies = calloc(want, sizeof(*lib->copies));
			lib->copy_ptrs = calloc(want, sizeof(*lib->copy_ptrs));
			lib->params = calloc(want, sizeof(*lib->params));
			if (!lib->copies || !lib->copy_ptrs || !lib->params) {
				snprintf(err, errlen, "%s", strerror(ENOMEM));
				return -ENOMEM;
			}
			lib->descs = lib->copy_ptrs;
			break;
		case LOAD_MSG_DESC:
			if (keys || sets || lib->ndescs >= want || take_desc(lib, &m))
				goto bad;
			keys = lib->params[lib->ndescs - 1].nkeys;
			sets = keys ? lib->params[lib->ndescs - 1].nsets : 0;
			break;
		case LOAD_MSG_KEY:
			if (!keys || take_key(lib, lib->params[lib->ndescs - 1].nkeys - keys, &m))
				goto bad;
			keys--;
			break;
		case LOAD_MSG_SETS:
			if (keys || !sets)
				goto bad;
			ret = take_sets(lib, lib->params[lib->ndescs - 1].nsets - sets, &m);
			if (ret < 0)
				goto bad;
			sets -= (uint32_t)ret;
			break;
		case LOAD_MSG_DONE:
			if (!want || lib->ndescs != want || keys || sets)
				goto bad;
			return 0;
		default:
			goto bad;
		}
	}
bad:
	snprintf(err, errlen, "%s: the child loading it sent a malformed message "
		 "(does the object write to file descriptor %d?)", path, CBENCH_PROC_PIPE_FD);
	return -EPROTO;
}

/* Why the loading child ended before it was done. */
static void describe_end(int status, enum load_msg_type stage, const char *path, char *err, size_t errlen)
{
	char sig[16];

	if (WIFSIGNALED(status) && stage == LOAD_MSG_LOADING)
		snprintf(err, errlen, "%s: the object's constructor crashed (%s)", path,
			 cbench_proc_signame(WTERMSIG(status), sig, sizeof(sig)));
	else if (WIFSIGNALED(status))
		snprintf(err, errlen, "%s: loading it crashed (%s)", path,
			 cbench_proc_signame(WTERMSIG(status), sig, sizeof(sig)));
	else if (stage == LOAD_MSG_LOADING)
		snprintf(err, errlen, "%s exited with status %d while loading (does a constructor call exit()?)",
			 path, WEXITSTATUS(status));
	else
		snprintf(err, errlen, "%s: the child loading it exited with status %d", path,
			 WEXITSTATUS(status));
}

/* The object's real path, and its structure checked before anything maps it. */
static int identify(struct cbench_library *lib, const char *path, char *err, size_t errlen)
{
	char resolved[4096];
	struct cbench_elf_facts facts;
	int ret;

	if (!realpath(path, resolved)) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return ret;
	}
	snprintf(lib->path, sizeof(lib->path), "%s", resolved);
	ret = cbench_elf_facts_read(lib->path, &facts, err, errlen);
	if (!ret)
		snprintf(lib->build_id, sizeof(lib->build_id), "%s", facts.build_id);
	return ret;
}

/* Forks the child that loads path; its pid, the pipe's read end in *fd. */
static pid_t start_child(const char *path, int *fd, char *err, size_t errlen)
{
	pid_t pid = cbench_proc_start(load_child, (void *)path, fd);

	if (pid < 0)
		snprintf(err, errlen, "cannot start a child to load %s: %s", path, strerror((int)-pid));
	return pid;
}

/*
 * Our child _exit()s right after DONE, but a constructor that wrote DONE
 * itself (the pipe is fd 3 in the child) may still be running: the time
 * limit holds until the child has exited.
 */
static int wait_exit(int child_fd, const char *path, double time_limit_s, double deadline, char *err,
		     size_t errlen)
{
	struct pollfd pfd = { .fd = child_fd, .events = POLLIN };
	double left_s;
	int ready = 0;

	while ((left_s = deadline - cbench_now_s()) > 0 &&
	       (ready = poll(&pfd, 1, (int)ceil(left_s * 1000))) < 0 && errno == EINTR)
		;
	if (ready > 0)
		return 0;
	snprintf(err, errlen, "%s did not finish loading within %g s (does a constructor never return?)",
		 path, time_limit_s);
	return -ETIMEDOUT;
}

int cbench_library_open(struct cbench_library *lib, const char *path, double time_limit_s,
			char *err, size_t errlen)
{
	enum load_msg_type stage = 0;
	double deadline = cbench_now_s() + time_limit_s;
	struct cbench_proc_end end;
	int fd = -1, ret, child_fd;
	pid_t pid;

	memset(lib, 0, sizeof(*lib));
	ret = identify(lib, path, err, errlen);
	if (ret)
		return ret;
	pid = start_child(path, &fd, err, errlen);
	if (pid < 0)
		return pid;
	child_fd = pidfd_open(pid, 0);
	ret = receive(lib, fd, child_fd, path, time_limit_s, deadline, &stage, err, errlen);
	close(fd);
	if (!ret && child_fd >= 0)
		ret = wait_exit(child_fd, path, time_limit_s, deadline, err, errlen);
	if (child_fd >= 0)
		close(child_fd);
	if (ret)
		cbench_proc_kill_group(pid);
	cbench_proc_end_group(pid, &end);
	if (ret == -ECHILD && end.keeper_lost)
		snprintf(err, errlen, "%s killed the process that supervises its load while loading "
			 "(does a constructor signal its parent?)", path);
	else if (ret == -ECHILD)
		describe_end(end.status, stage, path, err, errlen);
	if (!ret && end.left) {
		snprintf(err, errlen, "%s left processes behind while loading (%d, killed): "
			 "does a constructor fork?", path, end.left);
		ret = -ECHILD;
	}
	if (!ret)
		ret = cbench_library_check(lib, path, false, err, errlen);
	if (ret)
		cbench_library_close(lib);
	return ret;
}
