// SPDX-License-Identifier: GPL-2.0
/*
 * cbench-fuzz: a time-bounded random fuzzer of cbench.ko's generic netlink
 * family, run in the test VM as root.
 *
 *   cbench-fuzz [--seconds N] [--clients K] [--seed S]
 *   cbench-fuzz --client SEED [--seconds N]      one client alone (a replay)
 *
 * K clients (processes) at once, half of them without CAP_SYS_ADMIN and
 * CAP_SYS_MODULE, each its own random stream from a seed the parent
 * prints.  Each sends sequences a client would send (upload an image in
 * chunks of random size, map it, start runs and audit runs, poll them,
 * read their samples and timing points, cancel, delete), and in most
 * sequences corrupts one step: the netlink or genetlink header, or one
 * attribute (its type, its length, its value, a nesting flag), or drops
 * or repeats one.  It also sends raw commands with random attributes and
 * closes its socket at random points; the parent kills clients with
 * SIGKILL at random moments and starts new ones.
 *
 * The bytes of the code it uploads change only where the upload's map
 * carries their CRC-32 (one bit of one chunk, in some sequences): the
 * module must then refuse the map, and this program fails if it does not.
 * Any code may do anything in ring 0, so the image's code is benign under
 * every role a corrupted request can give it (see image_make()); one byte
 * of it changed can make it loop for ever (tests/kfixtures/stuck.c's
 * fuzzed_loop).  The kernel log and INFO's live objects, checked by
 * kmod.sh afterwards, are the rest of the verdict; otherwise this program
 * fails only if it cannot talk to the module.
 */
#include <errno.h>
#include <inttypes.h>
#include <linux/capability.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <uapi/linux/cbench.h>

#include "../../kmod/lib/crc32.h"

#define MAX_CLIENTS 16
#define IMAGE_BYTES 8192
#define PAGE 4096
#define MSG_BYTES (CBENCH_CHUNK_MAX_BYTES + 4096)

/* The image's entry points (image_make()). */
enum { E_RET = 0, E_LOOP = 32, E_SETUP_OK = 64, E_SETUP_EINVAL = 96 };
static const uint64_t entries[] = { E_RET, E_LOOP, E_SETUP_OK, E_SETUP_EINVAL };

/* What all clients got done, in memory they share: the fuzzer's reach. */
static struct counts {
	uint64_t sent, images, runs, audits;
	/* Uploads changed on the way (upload()): the map refused for their
	 * CRC-32, mapped, or answered otherwise (or not at all). */
	uint64_t bent_refused, bent_mapped, bent_other;
} *counts;

static void count(uint64_t *what)
{
	__atomic_add_fetch(what, 1, __ATOMIC_RELAXED);
}

/* xorshift64*: one stream per client, from its seed. */
static uint64_t rng_state;

static uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ULL;
}

static uint64_t below(uint64_t n)
{
	return n ? rnd() % n : 0;
}

static bool chance(unsigned int percent)
{
	return below(100) < percent;
}

struct client {
	int fd;
	uint16_t family;
	uint32_t seq;
	uint32_t images[8], nimages;	/* mapped ones, as far as we know */
	uint32_t runs[8], nruns;
	bool corrupt;			/* corrupt one message of this sequence */
	int error;			/* the ack of the last request sent, if read */
};

struct msg {
	union {
		struct nlmsghdr nlh;
		char bytes[MSG_BYTES];
	};
	size_t len;
	/* Offsets of the attributes put, for corrupting one of them. */
	size_t attr[32];
	int nattrs;
};

static void msg_start(struct client *c, struct msg *m, uint16_t type, uint8_t cmd, uint16_t flags)
{
	struct genlmsghdr *g = (struct genlmsghdr *)(m->bytes + NLMSG_HDRLEN);

	memset(m->bytes, 0, NLMSG_HDRLEN + GENL_HDRLEN);
	m->nlh.nlmsg_type = type;
	m->nlh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	m->nlh.nlmsg_seq = ++c->seq;
	g->cmd = cmd;
	g->version = type == GENL_ID_CTRL ? 1 : CBENCH_GENL_VERSION;
	m->len = NLMSG_HDRLEN + GENL_HDRLEN;
	m->nattrs = 0;
}

static void msg_put(struct msg *m, uint16_t type, const void *data, size_t bytes)
{
	struct nlattr *a = (struct nlattr *)(m->bytes + m->len);

	if (m->len + NLA_ALIGN(NLA_HDRLEN + bytes) > sizeof(m->bytes))
		return;
	if (m->nattrs < (int)(sizeof(m->attr) / sizeof(m->attr[0])))
		m->attr[m->nattrs++] = m->len;
	a->nla_type = type;
	a->nla_len = (uint16_t)(NLA_HDRLEN + bytes);
	memcpy((char *)a + NLA_HDRLEN, data, bytes);
	m->len += NLA_ALIGN(NLA_HDRLEN + bytes);
}

static void put_u32(struct msg *m, uint16_t type, uint32_t v)
{
	msg_put(m, type, &v, sizeof(v));
}

static void put_u64(struct msg *m, uint16_t type, uint64_t v)
{
	msg_put(m, type, &v, sizeof(v));
}

/* A random value of a size an attribute might have: often near a limit. */
static uint64_t wild(void)
{
	static const uint64_t edges[] = { 0, 1, 2, 4095, 4096, 8191, 8192, 0x7fffffff, 0x80000000,
					  0xffffffff, 1ULL << 32, 1ULL << 48, (1ULL << 48) + 1,
					  INT64_MAX, UINT64_MAX };

	return chance(50) ? edges[below(sizeof(edges) / sizeof(edges[0]))] : rnd() >> below(64);
}

/*
 * Corrupts the header or one attribute, never the bytes of a chunk: a
 * chunk's data is code (see the top); upload() changes those itself,
 * only where the map carries the CRC-32.
 */
static void corrupt(struct msg *m)
{
	struct genlmsghdr *g = (struct genlmsghdr *)(m->bytes + NLMSG_HDRLEN);
	struct nlattr *a;
	int which;

	switch (below(m->nattrs ? 9 : 4)) {
	case 0:
		m->nlh.nlmsg_len = (uint32_t)below(m->len + 64);
		return;
	case 1:
		g->cmd = (uint8_t)below(CBENCH_CMD_MAX + 4);
		return;
	case 2:
		g->version = (uint8_t)rnd();
		g->reserved = (uint16_t)rnd();
		return;
	case 3:
		m->nlh.nlmsg_flags ^= (uint16_t)(1u << below(16));
		return;
	}
	which = (int)below((uint64_t)m->nattrs);
	a = (struct nlattr *)(m->bytes + m->attr[which]);
	switch (below(5)) {
	case 0:
		a->nla_type = (uint16_t)below(CBENCH_A_MAX + 4);
		break;
	case 1:
		a->nla_type ^= NLA_F_NESTED;
		break;
	case 2:
		/* Shorter than its payload, or past the message. */
		a->nla_len = (uint16_t)below(a->nla_len + 16);
		break;
	case 3:
		if (a->nla_type != CBENCH_A_CHUNK_DATA && a->nla_len >= NLA_HDRLEN + 4) {
			uint64_t v = wild();

			memcpy((char *)a + NLA_HDRLEN, &v, a->nla_len >= NLA_HDRLEN + 8 ? 8 : 4);
		}
		break;
	case 4:
		/* Dropped: the rest moves up over it. */
		if (which == m->nattrs - 1) {
			m->len = m->attr[which];
		} else {
			size_t next = m->attr[which + 1];

			memmove(a, m->bytes + next, m->len - next);
			m->len -= next - m->attr[which];
		}
		m->nattrs--;
		break;
	}
}

/* Reads what has come back; the ids of IMAGE_NEW, RUN_START and AUDIT_START replies. */
static int drain(struct client *c, bool wait, uint32_t *id)
{
	char buf[64 * 1024];
	int flags = wait ? 0 : MSG_DONTWAIT, got_answer = 0;

	for (;;) {
		ssize_t n = recv(c->fd, buf, sizeof(buf), flags);

		if (n <= 0)
			return got_answer;
		for (struct nlmsghdr *h = (struct nlmsghdr *)buf; NLMSG_OK(h, (size_t)n);
		     h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_type == NLMSG_ERROR || h->nlmsg_type == NLMSG_DONE) {
				const struct nlmsgerr *e = NLMSG_DATA(h);

				if (h->nlmsg_type == NLMSG_ERROR &&
				    h->nlmsg_len >= NLMSG_LENGTH(sizeof(*e)) && e->msg.nlmsg_seq == c->seq)
					c->error = e->error;
				got_answer = 1;
				continue;
			}
			if (id && h->nlmsg_type == c->family &&
			    h->nlmsg_len >= NLMSG_HDRLEN + GENL_HDRLEN + NLA_HDRLEN + 4) {
				struct nlattr *a = (struct nlattr *)((char *)NLMSG_DATA(h) + GENL_HDRLEN);

				if ((a->nla_type == CBENCH_A_IMAGE_ID || a->nla_type == CBENCH_A_RUN_ID) &&
				    a->nla_len >= NLA_HDRLEN + 4)
					memcpy(id, (char *)a + NLA_HDRLEN, 4);
			}
		}
		/* Once answered, take only what is already there. */
		if (got_answer)
			flags = MSG_DONTWAIT;
	}
}

/* Sends m, corrupted if this sequence's one corruption is still due. */
static void send_msg(struct client *c, struct msg *m, bool wait, uint32_t *id)
{
	if (c->corrupt && chance(30)) {
		c->corrupt = false;
		corrupt(m);
	}
	if (m->nlh.nlmsg_len == 0)
		m->nlh.nlmsg_len = (uint32_t)m->len;
	else if (m->nlh.nlmsg_len > m->len)
		m->nlh.nlmsg_len = (uint32_t)m->len;
	c->error = 1;		/* no ack read yet */
	if (send(c->fd, m->bytes, m->len, 0) < 0)
		return;
	count(&counts->sent);
	drain(c, wait, id);
}

static void finish(struct msg *m)
{
	m->nlh.nlmsg_len = (uint32_t)m->len;
}

/* Resolves the family; 0 or -errno. */
static int client_open(struct client *c)
{
	struct { struct nlmsghdr h; struct genlmsghdr g; char attrs[512]; } reply;
	int one = 1;
	struct timeval tv = { .tv_sec = 1 };
	struct msg *m = calloc(1, sizeof(*m));
	ssize_t n;

	if (!m)
		return -ENOMEM;
	c->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (c->fd < 0) {
		free(m);
		return -errno;
	}
	setsockopt(c->fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(c->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	msg_start(c, m, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 0);
	msg_put(m, CTRL_ATTR_FAMILY_NAME, CBENCH_GENL_NAME, sizeof(CBENCH_GENL_NAME));
	finish(m);
	c->family = 0;
	if (send(c->fd, m->bytes, m->len, 0) > 0 &&
	    (n = recv(c->fd, &reply, sizeof(reply), 0)) > (ssize_t)sizeof(reply.h) &&
	    reply.h.nlmsg_type == GENL_ID_CTRL) {
		for (struct nlattr *a = (struct nlattr *)reply.attrs;
		     (char *)a + NLA_HDRLEN <= (char *)&reply + n && a->nla_len >= NLA_HDRLEN;
		     a = (struct nlattr *)((char *)a + NLA_ALIGN(a->nla_len)))
			if (a->nla_type == CTRL_ATTR_FAMILY_ID)
				memcpy(&c->family, (char *)a + NLA_HDRLEN, 2);
	}
	drain(c, false, NULL);
	free(m);
	c->nimages = c->nruns = 0;
	return c->family ? 0 : -ENOENT;
}

/*
 * The image: page 0 is text, page 1 data with relocation slots.  Every
 * entry starts with endbr64 and returns, whatever it is called as (run()
 * with any reps, setup(), a hook); every other byte of text is int3.
 *   0   ret
 *   32  the counting loop: test rsi,rsi; je out; dec rsi; jne; out: ret
 *   64  return 0 (a setup that takes the run)
 *   96  return -EINVAL (a setup that refuses it)
 */
static void image_make(uint8_t *image, uint64_t *relocs, uint32_t *nrelocs)
{
	static const uint8_t endbr[] = { 0xf3, 0x0f, 0x1e, 0xfa };
	static const uint8_t loop[] = { 0x48, 0x85, 0xf6, 0x74, 0x05, 0x48, 0xff,
					0xce, 0x75, 0xfb, 0xc3 };
	static const uint8_t ok[] = { 0x31, 0xc0, 0xc3 };
	static const uint8_t einval[] = { 0xb8, 0xea, 0xff, 0xff, 0xff, 0xc3 };

	memset(image, 0xcc, PAGE);
	memset(image + PAGE, 0, PAGE);
	memcpy(image + E_RET, endbr, 4);
	image[E_RET + 4] = 0xc3;
	memcpy(image + E_LOOP, endbr, 4);
	memcpy(image + E_LOOP + 4, loop, sizeof(loop));
	memcpy(image + E_SETUP_OK, endbr, 4);
	memcpy(image + E_SETUP_OK + 4, ok, sizeof(ok));
	memcpy(image + E_SETUP_EINVAL, endbr, 4);
	memcpy(image + E_SETUP_EINVAL + 4, einval, sizeof(einval));
	*nrelocs = (uint32_t)below(4);
	for (uint32_t i = 0; i < *nrelocs; i++) {
		uint64_t target = below(IMAGE_BYTES);

		relocs[i] = PAGE + 64 * i;
		memcpy(image + relocs[i], &target, 8);
	}
}

static void on_object(struct client *c, struct msg *m, uint8_t cmd, uint16_t type, uint32_t id,
		      bool dump);

/*
 * Uploads and maps an image in chunks of random size.  Mostly the map
 * carries the image's CRC-32; then, in some sequences, the one corruption
 * is a bit of one chunk's data, and the module must refuse the map.
 */
static void upload(struct client *c, struct msg *m)
{
	uint8_t image[IMAGE_BYTES];
	uint64_t relocs[4];
	uint32_t nrelocs, id = 0;
	struct cbench_range text = { 0, PAGE };
	uint64_t bytes = chance(95) ? IMAGE_BYTES : wild();
	bool crc = chance(90), bent = false;

	image_make(image, relocs, &nrelocs);
	msg_start(c, m, c->family, CBENCH_CMD_IMAGE_NEW, 0);
	put_u64(m, CBENCH_A_IMAGE_BYTES, bytes);
	finish(m);
	send_msg(c, m, true, &id);
	if (!id)
		return;
	for (uint64_t off = 0; off < IMAGE_BYTES;) {
		uint64_t n = 1 + below(chance(50) ? 64 : IMAGE_BYTES);

		if (n > IMAGE_BYTES - off)
			n = IMAGE_BYTES - off;
		msg_start(c, m, c->family, CBENCH_CMD_IMAGE_CHUNK, 0);
		put_u32(m, CBENCH_A_IMAGE_ID, id);
		put_u64(m, CBENCH_A_CHUNK_OFFSET, off);
		msg_put(m, CBENCH_A_CHUNK_DATA, image + off, n);
		finish(m);
		if (crc && c->corrupt && chance(10)) {
			/* The data is the message's last bytes but for the padding. */
			size_t at = m->attr[m->nattrs - 1] + NLA_HDRLEN + below(n);

			m->bytes[at] ^= (char)(1u << below(8));
			c->corrupt = false;
			bent = true;
		}
		send_msg(c, m, false, NULL);
		off += n;
		if (chance(1))
			return;		/* left unfinished */
	}
	msg_start(c, m, c->family, CBENCH_CMD_IMAGE_MAP, 0);
	put_u32(m, CBENCH_A_IMAGE_ID, id);
	msg_put(m, CBENCH_A_IMAGE_TEXT, &text, sizeof(text));
	if (nrelocs)
		msg_put(m, CBENCH_A_IMAGE_RELOCS, relocs, nrelocs * sizeof(relocs[0]));
	if (crc)
		put_u32(m, CBENCH_A_IMAGE_CRC32, cbench_crc32(0, image, IMAGE_BYTES));
	finish(m);
	send_msg(c, m, true, NULL);
	count(&counts->images);
	if (bent) {
		/* Never kept for runs: its code is not what image_make() wrote. */
		if (c->error == -EBADMSG)
			count(&counts->bent_refused);
		else
			count(c->error == 0 ? &counts->bent_mapped : &counts->bent_other);
		on_object(c, m, CBENCH_CMD_IMAGE_DEL, CBENCH_A_IMAGE_ID, id, false);
		return;
	}
	if (c->nimages < sizeof(c->images) / sizeof(c->images[0]))
		c->images[c->nimages++] = id;
}

static uint32_t some_image(const struct client *c)
{
	return c->nimages && chance(95) ? c->images[below(c->nimages)] : (uint32_t)wild();
}

static uint32_t some_run(const struct client *c)
{
	return c->nruns && chance(95) ? c->runs[below(c->nruns)] : (uint32_t)wild();
}

static uint64_t some_reps(void)
{
	if (chance(80))
		return 1 + below(1000);
	return chance(50) ? 1ULL << 48 : 1 + below(1ULL << 48);
}

static uint64_t some_arena(void)
{
	/* Mostly small: a few clients' runs may hold theirs at once in a 512 MiB guest. */
	if (chance(70))
		return below(1 << 16);
	return chance(90) ? below(1 << 20) : below(16 << 20);
}

/*
 * A parameter set (RUN_ARGS or SIDE_ARGS): mostly well formed, sometimes
 * too many args, a nest of another type, a key or value too long, empty
 * or unterminated, or a missing KEY or INT.
 */
static void put_args(struct msg *m, uint16_t type)
{
	static const char *const words[] = { "size", "algo", "", "fnv1a",
		"a-key-of-sixty-four-bytes-is-one-byte-longer-than-the-kernel-takes" };
	struct nlattr *nest = (struct nlattr *)(m->bytes + m->len);
	size_t at = m->len;

	msg_put(m, type | (chance(95) ? NLA_F_NESTED : 0), "", 0);
	m->nattrs--;		/* the nest is corrupted as a whole, not in part */
	for (int i = 0, n = (int)below(chance(90) ? 4 : 12); i < n; i++) {
		struct nlattr *arg = (struct nlattr *)(m->bytes + m->len);
		size_t arg_at = m->len;
		const char *key = words[chance(80) ? below(2) : below(5)];

		msg_put(m, (uint16_t)(chance(95) ? CBENCH_A_ARG : below(4)) | NLA_F_NESTED, "", 0);
		m->nattrs--;
		if (chance(95))
			msg_put(m, CBENCH_A_ARG_KEY, key, strlen(key) + (chance(95) ? 1 : 0));
		if (chance(95))
			put_u64(m, CBENCH_A_ARG_INT, wild());
		if (chance(40)) {
			const char *str = words[below(5)];

			msg_put(m, CBENCH_A_ARG_STR, str, strlen(str) + (chance(95) ? 1 : 0));
		}
		arg->nla_len = (uint16_t)(m->len - arg_at);
	}
	nest->nla_len = (uint16_t)(m->len - at);
}

/* The optional attributes a run and a side share. */
static void run_options(struct msg *m)
{
	if (chance(30))
		put_u64(m, CBENCH_A_RUN_SETUP, entries[below(4)]);
	if (chance(10))
		put_u64(m, CBENCH_A_RUN_BEFORE_REP, entries[below(4)]);
	if (chance(10))
		put_u64(m, CBENCH_A_RUN_AFTER_REP, entries[below(4)]);
	if (chance(50))
		put_u64(m, CBENCH_A_RUN_ARENA_BYTES, some_arena());
	if (chance(30))
		put_u64(m, CBENCH_A_RUN_PARAM, rnd());
	if (chance(20))
		put_args(m, CBENCH_A_RUN_ARGS);
	if (chance(30))
		put_u64(m, CBENCH_A_RUN_BUDGET_NS, 1000 + below(500000));
	if (chance(10))
		put_u32(m, CBENCH_A_RUN_TP_RECORDS, (uint32_t)below(64));
	if (chance(5))
		put_u64(m, CBENCH_A_RUN_TP_EVERY, below(1 << 16));
}

static void keep_run(struct client *c, uint32_t id)
{
	if (id && c->nruns < sizeof(c->runs) / sizeof(c->runs[0]))
		c->runs[c->nruns++] = id;
}

static void run_start(struct client *c, struct msg *m)
{
	uint32_t id = 0;

	msg_start(c, m, c->family, CBENCH_CMD_RUN_START, 0);
	put_u32(m, CBENCH_A_IMAGE_ID, some_image(c));
	put_u64(m, CBENCH_A_RUN_ENTRY, chance(70) ? E_LOOP : entries[below(4)]);
	put_u64(m, CBENCH_A_RUN_REPS, some_reps());
	if (chance(20))
		put_u64(m, CBENCH_A_RUN_REPS_STEP, below(100));
	put_u32(m, CBENCH_A_RUN_SAMPLES, (uint32_t)(1 + below(chance(80) ? 1000 : 20000)));
	put_u32(m, CBENCH_A_RUN_CPU, (uint32_t)below(4));
	run_options(m);
	finish(m);
	send_msg(c, m, true, &id);
	if (id)
		count(&counts->runs);
	keep_run(c, id);
}

static void put_side(struct client *c, struct msg *m)
{
	struct nlattr *nest = (struct nlattr *)(m->bytes + m->len);
	size_t at = m->len;

	msg_put(m, NLA_F_NESTED | (uint16_t)(1 + below(2)), "", 0);
	m->nattrs--;		/* the nest is corrupted as a whole, not in part */
	put_u32(m, CBENCH_A_SIDE_IMAGE_ID, some_image(c));
	put_u64(m, CBENCH_A_SIDE_ENTRY, chance(70) ? E_LOOP : entries[below(4)]);
	put_u64(m, CBENCH_A_SIDE_REPS, some_reps());
	if (chance(30))
		put_u64(m, CBENCH_A_SIDE_SETUP, entries[below(4)]);
	if (chance(30))
		put_u64(m, CBENCH_A_SIDE_ARENA_BYTES, some_arena());
	if (chance(10))
		put_u64(m, CBENCH_A_SIDE_BEFORE_REP, entries[below(4)]);
	if (chance(20))
		put_args(m, CBENCH_A_SIDE_ARGS);
	nest->nla_len = (uint16_t)(m->len - at);
}

static void audit_start(struct client *c, struct msg *m)
{
	struct nlattr *sides;
	size_t at;
	uint32_t id = 0;

	msg_start(c, m, c->family, CBENCH_CMD_AUDIT_START, 0);
	put_u32(m, CBENCH_A_RUN_CPU, (uint32_t)below(4));
	put_u64(m, CBENCH_A_AUDIT_SEED, rnd());
	put_u32(m, CBENCH_A_AUDIT_PER_SIDE, (uint32_t)(1 + below(8)));
	put_u32(m, CBENCH_A_AUDIT_ROUNDS, (uint32_t)(1 + below(64)));
	at = m->len;
	sides = (struct nlattr *)(m->bytes + at);
	msg_put(m, CBENCH_A_AUDIT_SIDES | NLA_F_NESTED, "", 0);
	for (int i = 0, n = chance(90) ? 2 : (int)below(4); i < n; i++)
		put_side(c, m);
	sides->nla_len = (uint16_t)(m->len - at);
	finish(m);
	send_msg(c, m, true, &id);
	if (id)
		count(&counts->audits);
	keep_run(c, id);
}

/* A command on one run or image: get, cancel, delete, or a dump. */
static void on_object(struct client *c, struct msg *m, uint8_t cmd, uint16_t type, uint32_t id,
		      bool dump)
{
	msg_start(c, m, c->family, cmd, dump ? NLM_F_DUMP : 0);
	put_u32(m, type, id);
	if (cmd == CBENCH_CMD_TPOINTS && chance(50))
		put_u32(m, CBENCH_A_TP_SAMPLE, (uint32_t)below(100));
	finish(m);
	send_msg(c, m, true, NULL);
}

/* A command with random attributes, of random types and sizes. */
static void raw(struct client *c, struct msg *m)
{
	uint8_t junk[64];

	msg_start(c, m, chance(90) ? c->family : (uint16_t)rnd(), (uint8_t)below(CBENCH_CMD_MAX + 4),
		  chance(20) ? NLM_F_DUMP : 0);
	for (int i = 0, n = (int)below(8); i < n; i++) {
		for (size_t k = 0; k < sizeof(junk); k++)
			junk[k] = (uint8_t)rnd();
		msg_put(m, (uint16_t)(below(CBENCH_A_MAX + 4) | (chance(10) ? NLA_F_NESTED : 0)),
			junk, below(sizeof(junk)));
	}
	finish(m);
	send_msg(c, m, true, NULL);
}

static void step(struct client *c, struct msg *m)
{
	uint64_t what = below(100);

	if (what < 15)
		upload(c, m);
	else if (what < 35)
		run_start(c, m);
	else if (what < 45)
		audit_start(c, m);
	else if (what < 60)
		on_object(c, m, CBENCH_CMD_RUN_GET, CBENCH_A_RUN_ID, some_run(c), false);
	else if (what < 66)
		on_object(c, m, CBENCH_CMD_SAMPLES, CBENCH_A_RUN_ID, some_run(c), true);
	else if (what < 69)
		on_object(c, m, CBENCH_CMD_TPOINTS, CBENCH_A_RUN_ID, some_run(c), true);
	else if (what < 74)
		on_object(c, m, CBENCH_CMD_RUN_CANCEL, CBENCH_A_RUN_ID, some_run(c), false);
	else if (what < 80)
		on_object(c, m, CBENCH_CMD_RUN_DEL, CBENCH_A_RUN_ID, some_run(c), false);
	else if (what < 84)
		on_object(c, m, CBENCH_CMD_IMAGE_DEL, CBENCH_A_IMAGE_ID, some_image(c), false);
	else if (what < 87)
		on_object(c, m, CBENCH_CMD_INFO, CBENCH_A_UNSPEC, 0, false);
	else if (what < 89)
		on_object(c, m, CBENCH_CMD_PROBE_COUNTERS, CBENCH_A_PROBE_CPU, (uint32_t)below(4),
			  chance(50));
	else
		raw(c, m);
}

static void drop_caps(void)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d))
		return;
	for (int i = 0; i < 2; i++)
		d[i].effective = d[i].permitted = 0;
	syscall(SYS_capset, &h, d);
}

/* One client: sequences until the deadline, reopening its socket now and then. */
static int client(uint64_t seed, double seconds, bool unprivileged)
{
	struct client c = { 0 };
	struct msg *m = calloc(1, sizeof(*m));
	struct timespec t0, t;

	if (!m)
		return 2;
	rng_state = seed | 1;
	if (unprivileged)
		drop_caps();
	if (client_open(&c)) {
		fprintf(stderr, "fuzz: client %" PRIu64 ": no cbench family\n", seed);
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		int n = 1 + (int)below(12);

		c.corrupt = chance(70);
		for (int i = 0; i < n; i++)
			step(&c, m);
		if (chance(5)) {
			close(c.fd);
			if (client_open(&c))
				return 2;
		}
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((double)(t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) * 1e-9 < seconds);
	close(c.fd);
	free(m);
	return 0;
}

static pid_t spawn(uint64_t seed, double seconds, bool unprivileged)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(client(seed, seconds, unprivileged));
	printf("fuzz: client seed %" PRIu64 "%s (replay: cbench-fuzz --client %" PRIu64 "%s)\n",
	       seed, unprivileged ? ", unprivileged" : "", seed,
	       unprivileged ? " --unprivileged" : "");
	fflush(stdout);
	return pid;
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char *argv[])
{
	double seconds = 120, end;
	int nclients = 5, failed = 0, kills = 0;
	uint64_t seed = (uint64_t)time(NULL), one = 0;
	bool unprivileged = false;
	pid_t pids[MAX_CLIENTS];

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
			seconds = strtod(argv[++i], NULL);
		else if (!strcmp(argv[i], "--clients") && i + 1 < argc)
			nclients = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
			seed = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--client") && i + 1 < argc)
			one = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--unprivileged"))
			unprivileged = true;
		else {
			fprintf(stderr, "usage: cbench-fuzz [--seconds N] [--clients K] [--seed S] | "
				"--client SEED [--unprivileged] [--seconds N]\n");
			return 2;
		}
	}
	counts = mmap(NULL, sizeof(*counts), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		      -1, 0);
	if (counts == MAP_FAILED) {
		perror("cbench-fuzz: mmap");
		return 2;
	}
	if (one)
		return client(one, seconds, unprivileged);
	if (nclients < 1 || nclients > MAX_CLIENTS || !(seconds > 0)) {
		fprintf(stderr, "cbench-fuzz: --clients 1 to %d, --seconds above 0\n", MAX_CLIENTS);
		return 2;
	}
	printf("fuzz: seed %" PRIu64 ", %d clients, %.0f s (replay: cbench-fuzz --seed %" PRIu64
	       " --clients %d --seconds %.0f)\n", seed, nclients, seconds, seed, nclients, seconds);
	rng_state = seed | 1;
	end = now() + seconds;
	for (int i = 0; i < nclients; i++)
		pids[i] = spawn(rnd(), seconds, i % 2 == 1);
	while (now() < end) {
		int i, status;

		usleep((useconds_t)(200000 + below(1800000)));
		/* A client killed at a random point, and a new one in its place. */
		i = (int)below((uint64_t)nclients);
		if (now() < end && chance(50)) {
			kill(pids[i], SIGKILL);
			kills++;
		}
		if (waitpid(pids[i], &status, WNOHANG) == pids[i]) {
			if (WIFEXITED(status) && WEXITSTATUS(status) == 2)
				failed = 1;
			if (now() < end)
				pids[i] = spawn(rnd(), end - now(), i % 2 == 1);
			else
				pids[i] = 0;
		}
	}
	for (int i = 0; i < nclients; i++) {
		int status;

		if (pids[i] <= 0)
			continue;
		kill(pids[i], SIGKILL);
		waitpid(pids[i], &status, 0);
	}
	printf("fuzz: %.0f s: %" PRIu64 " requests, %" PRIu64 " images uploaded (mapped or "
	       "not), %" PRIu64 " runs and %" PRIu64 " audit runs started, %d clients killed on "
	       "the way%s\n", seconds, counts->sent, counts->images, counts->runs, counts->audits,
	       kills, failed ? "; a client could not talk to the module" : "");
	printf("fuzz: %" PRIu64 " uploads with a bit changed on the way: %" PRIu64 " maps refused "
	       "for the CRC-32, %" PRIu64 " answered otherwise or not at all, %" PRIu64 " mapped%s\n",
	       counts->bent_refused + counts->bent_other + counts->bent_mapped, counts->bent_refused,
	       counts->bent_other, counts->bent_mapped,
	       counts->bent_mapped ? " (the module mapped bytes that fail their CRC-32)" : "");
	return failed || counts->bent_mapped;
}
