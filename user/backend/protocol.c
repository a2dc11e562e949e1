// SPDX-License-Identifier: GPL-2.0
/*
 * The protocol's commands as typed calls (see protocol.h).  Each command
 * has a builder for its request and a parser for its reply, and each reply
 * is checked against that command's own policy before the parser reads it,
 * so a parser never decodes an attribute by its length alone.
 */
#include <errno.h>
#include <string.h>

#include <netlink/attr.h>

#include "../../kmod/lib/crc32.h"
#include "object/kimage.h"
#include "backend/protocol.h"

/* ---- requests ----------------------------------------------------------- */

/* Puts that fail only when the message is full, which our sizes rule out;
 * we still check, and say so as -EMSGSIZE. */
static int put_u32(struct nl_msg *msg, int type, uint32_t v)
{
	return nla_put_u32(msg, type, v) < 0 ? -EMSGSIZE : 0;
}

static int put_u64(struct nl_msg *msg, int type, uint64_t v)
{
	return nla_put_u64(msg, type, v) < 0 ? -EMSGSIZE : 0;
}

static int put_bin(struct nl_msg *msg, int type, const void *data, size_t bytes)
{
	return bytes > INT32_MAX || nla_put(msg, type, (int)bytes, data) < 0 ? -EMSGSIZE : 0;
}

/* Requests that name one object. */
struct by_id {
	int type;
	uint32_t id;
};

static int build_by_id(struct nl_msg *msg, void *arg)
{
	const struct by_id *b = arg;

	return put_u32(msg, b->type, b->id);
}

static int simple(struct cbench_nl *nl, uint8_t cmd, int type, uint32_t id)
{
	struct by_id b = { type, id };
	struct cbench_nl_request req = { .cmd = cmd, .build = build_by_id, .arg = &b };

	return cbench_nl_request(nl, &req);
}

/* ---- INFO --------------------------------------------------------------- */

static struct nla_policy info_policy[CBENCH_A_MAX + 1] = {
	[CBENCH_A_INFO_VERSION] = { .type = NLA_STRING },
	[CBENCH_A_INFO_ABI] = { .type = NLA_U32 },
	[CBENCH_A_INFO_CPU_VENDOR] = { .type = NLA_STRING },
	[CBENCH_A_INFO_CPU_FAMILY] = { .type = NLA_U32 },
	[CBENCH_A_INFO_CPU_MODEL] = { .type = NLA_U32 },
	[CBENCH_A_INFO_CPU_STEPPING] = { .type = NLA_U32 },
	[CBENCH_A_INFO_CPU_HYPERVISOR] = { .type = NLA_FLAG },
	[CBENCH_A_INFO_TSC_KHZ] = { .type = NLA_U64 },
	[CBENCH_A_INFO_TSC_FLAGS] = { .type = NLA_U32 },
	[CBENCH_A_INFO_PMU_VERSION] = { .type = NLA_U32 },
	[CBENCH_A_INFO_PMU_GP_COUNTERS] = { .type = NLA_U32 },
	[CBENCH_A_INFO_PMU_GP_BITS] = { .type = NLA_U32 },
	[CBENCH_A_INFO_PMU_FIXED_COUNTERS] = { .type = NLA_U32 },
	[CBENCH_A_INFO_PMU_FIXED_BITS] = { .type = NLA_U32 },
	[CBENCH_A_INFO_PMU_EVENTS] = { .type = NLA_U32 },
	[CBENCH_A_INFO_COUNTERS] = { .type = NLA_U32 },
	[CBENCH_A_INFO_COUNTERS_CPU] = { .type = NLA_U32 },
	[CBENCH_A_INFO_LIMITS] = { .type = NLA_NESTED },
	[CBENCH_A_INFO_LIVE] = { .type = NLA_NESTED },
};

static int parse_limits(struct cbench_proto_info *info, struct nlattr *nest)
{
	static struct nla_policy policy[CBENCH_A_LIMIT_MAX + 1] = {
		[CBENCH_A_LIMIT_IMAGE_BYTES] = { .type = NLA_U64 },
		[CBENCH_A_LIMIT_ARENA_BYTES] = { .type = NLA_U64 },
		[CBENCH_A_LIMIT_SAMPLES] = { .type = NLA_U32 },
		[CBENCH_A_LIMIT_IRQOFF_NS] = { .type = NLA_U64 },
		[CBENCH_A_LIMIT_RUNS] = { .type = NLA_U32 },
		[CBENCH_A_LIMIT_TP_RECORDS] = { .type = NLA_U64 },
		[CBENCH_A_LIMIT_CALL_MS] = { .type = NLA_U32 },
		[CBENCH_A_LIMIT_UNWATCHED] = { .type = NLA_U32 },
		[CBENCH_A_LIMIT_QUIET] = { .type = NLA_U32 },
		[CBENCH_A_LIMIT_IMAGE_CRC32] = { .type = NLA_U32 },
		[CBENCH_A_LIMIT_STACK_BYTES] = { .type = NLA_U64 },
		[CBENCH_A_LIMIT_FAULT_NET] = { .type = NLA_U32 },
		[CBENCH_A_LIMIT_STACK_RESERVE_BYTES] = { .type = NLA_U64 },
	};
	struct nlattr *tb[CBENCH_A_LIMIT_MAX + 1];

	if (nla_parse_nested(tb, CBENCH_A_LIMIT_MAX, nest, policy) < 0 ||
	    !tb[CBENCH_A_LIMIT_IMAGE_BYTES] || !tb[CBENCH_A_LIMIT_ARENA_BYTES] ||
	    !tb[CBENCH_A_LIMIT_SAMPLES] || !tb[CBENCH_A_LIMIT_IRQOFF_NS] ||
	    !tb[CBENCH_A_LIMIT_RUNS])
		return -EPROTO;
	info->image_bytes = nla_get_u64(tb[CBENCH_A_LIMIT_IMAGE_BYTES]);
	info->arena_bytes = nla_get_u64(tb[CBENCH_A_LIMIT_ARENA_BYTES]);
	info->samples = nla_get_u32(tb[CBENCH_A_LIMIT_SAMPLES]);
	info->irqoff_ns = nla_get_u64(tb[CBENCH_A_LIMIT_IRQOFF_NS]);
	info->runs = nla_get_u32(tb[CBENCH_A_LIMIT_RUNS]);
	/* Absent from a module without loop timing points. */
	if (tb[CBENCH_A_LIMIT_TP_RECORDS])
		info->tp_records = nla_get_u64(tb[CBENCH_A_LIMIT_TP_RECORDS]);
	/* Absent from a module without the watchdog. */
	if (tb[CBENCH_A_LIMIT_CALL_MS])
		info->call_ms = nla_get_u32(tb[CBENCH_A_LIMIT_CALL_MS]);
	if (tb[CBENCH_A_LIMIT_UNWATCHED])
		info->unwatched = nla_get_u32(tb[CBENCH_A_LIMIT_UNWATCHED]) != 0;
	/* Absent from a module without LVT mode. */
	info->has_quiet = tb[CBENCH_A_LIMIT_QUIET] != NULL;
	if (info->has_quiet)
		info->quiet = nla_get_u32(tb[CBENCH_A_LIMIT_QUIET]);
	/* Absent from a module that maps uploads unchecked. */
	info->image_crc = tb[CBENCH_A_LIMIT_IMAGE_CRC32] &&
			  nla_get_u32(tb[CBENCH_A_LIMIT_IMAGE_CRC32]);
	info->stack_bytes = tb[CBENCH_A_LIMIT_STACK_BYTES] ?
			    nla_get_u64(tb[CBENCH_A_LIMIT_STACK_BYTES]) : 0;
	/* Absent from a module whose stack is not aligned for checks. */
	info->stack_reserve_bytes = tb[CBENCH_A_LIMIT_STACK_RESERVE_BYTES] ?
				    nla_get_u64(tb[CBENCH_A_LIMIT_STACK_RESERVE_BYTES]) : 0;
	info->fault_net = tb[CBENCH_A_LIMIT_FAULT_NET] ?
			  (int32_t)nla_get_u32(tb[CBENCH_A_LIMIT_FAULT_NET]) : -1;
	info->has_limits = true;
	return 0;
}

static int parse_live(struct cbench_proto_info *info, struct nlattr *nest)
{
	static struct nla_policy policy[CBENCH_A_LIVE_MAX + 1] = {
		[CBENCH_A_LIVE_IMAGES] = { .type = NLA_U32 },
		[CBENCH_A_LIVE_RUNS] = { .type = NLA_U32 },
	};
	struct nlattr *tb[CBENCH_A_LIVE_MAX + 1];

	if (nla_parse_nested(tb, CBENCH_A_LIVE_MAX, nest, policy) < 0 ||
	    !tb[CBENCH_A_LIVE_IMAGES] || !tb[CBENCH_A_LIVE_RUNS])
		return -EPROTO;
	info->live_images = nla_get_u32(tb[CBENCH_A_LIVE_IMAGES]);
	info->live_runs = nla_get_u32(tb[CBENCH_A_LIVE_RUNS]);
	info->has_live = true;
	return 0;
}

static uint32_t get_u32(struct nlattr *attr)
{
	return attr ? nla_get_u32(attr) : 0;
}

static int parse_info(struct nlattr **tb, void *arg)
{
	struct cbench_proto_info *info = arg;
	int ret = 0;

	if (!tb[CBENCH_A_INFO_VERSION] || !tb[CBENCH_A_INFO_ABI] ||
	    !tb[CBENCH_A_INFO_CPU_VENDOR] || !tb[CBENCH_A_INFO_TSC_FLAGS] ||
	    !tb[CBENCH_A_INFO_PMU_VERSION] || !tb[CBENCH_A_INFO_COUNTERS])
		return -EPROTO;
	nla_strlcpy(info->version, tb[CBENCH_A_INFO_VERSION], sizeof(info->version));
	info->abi = nla_get_u32(tb[CBENCH_A_INFO_ABI]);
	nla_strlcpy(info->cpu_vendor, tb[CBENCH_A_INFO_CPU_VENDOR], sizeof(info->cpu_vendor));
	info->cpu_family = get_u32(tb[CBENCH_A_INFO_CPU_FAMILY]);
	info->cpu_model = get_u32(tb[CBENCH_A_INFO_CPU_MODEL]);
	info->cpu_stepping = get_u32(tb[CBENCH_A_INFO_CPU_STEPPING]);
	info->hypervisor = tb[CBENCH_A_INFO_CPU_HYPERVISOR];
	info->has_tsc_khz = tb[CBENCH_A_INFO_TSC_KHZ];
	if (info->has_tsc_khz)
		info->tsc_khz = nla_get_u64(tb[CBENCH_A_INFO_TSC_KHZ]);
	info->tsc_flags = nla_get_u32(tb[CBENCH_A_INFO_TSC_FLAGS]);
	info->pmu_version = nla_get_u32(tb[CBENCH_A_INFO_PMU_VERSION]);
	info->gp_counters = get_u32(tb[CBENCH_A_INFO_PMU_GP_COUNTERS]);
	info->gp_bits = get_u32(tb[CBENCH_A_INFO_PMU_GP_BITS]);
	info->fixed_counters = get_u32(tb[CBENCH_A_INFO_PMU_FIXED_COUNTERS]);
	info->has_fixed_bits = tb[CBENCH_A_INFO_PMU_FIXED_BITS];
	info->fixed_bits = get_u32(tb[CBENCH_A_INFO_PMU_FIXED_BITS]);
	info->pmu_events = get_u32(tb[CBENCH_A_INFO_PMU_EVENTS]);
	info->counters = nla_get_u32(tb[CBENCH_A_INFO_COUNTERS]);
	info->counters_cpu = get_u32(tb[CBENCH_A_INFO_COUNTERS_CPU]);
	if (tb[CBENCH_A_INFO_LIMITS])
		ret = parse_limits(info, tb[CBENCH_A_INFO_LIMITS]);
	if (!ret && tb[CBENCH_A_INFO_LIVE])
		ret = parse_live(info, tb[CBENCH_A_INFO_LIVE]);
	return ret;
}

int cbench_proto_info(struct cbench_nl *nl, struct cbench_proto_info *info)
{
	struct cbench_nl_request req = {
		.cmd = CBENCH_CMD_INFO, .parse = parse_info, .policy = info_policy, .arg = info,
	};

	memset(info, 0, sizeof(*info));
	return cbench_nl_request(nl, &req);
}

/* ---- PROBE_COUNTERS ----------------------------------------------------- */

static struct nla_policy probe_policy[CBENCH_A_MAX + 1] = {
	[CBENCH_A_PROBE_CPU] = { .type = NLA_U32 },
	[CBENCH_A_PROBE_COUNTERS] = { .type = NLA_U32 },
};

struct probe {
	uint32_t cpu, counters;
	bool seen;
	int (*fn)(void *arg, uint32_t cpu, uint32_t counters);	/* the dump's */
	void *arg;
};

static int parse_probe(struct nlattr **tb, void *arg)
{
	struct probe *p = arg;
	uint32_t cpu;

	if (!tb[CBENCH_A_PROBE_CPU] || !tb[CBENCH_A_PROBE_COUNTERS])
		return -EPROTO;
	cpu = nla_get_u32(tb[CBENCH_A_PROBE_CPU]);
	if (p->fn)
		return p->fn(p->arg, cpu, nla_get_u32(tb[CBENCH_A_PROBE_COUNTERS]));
	if (cpu != p->cpu || p->seen)
		return -EPROTO;
	p->counters = nla_get_u32(tb[CBENCH_A_PROBE_COUNTERS]);
	p->seen = true;
	return 0;
}

int cbench_proto_probe(struct cbench_nl *nl, uint32_t cpu, uint32_t *counters)
{
	struct probe p = { .cpu = cpu };
	struct by_id b = { CBENCH_A_PROBE_CPU, cpu };
	struct cbench_nl_request req = {
		.cmd = CBENCH_CMD_PROBE_COUNTERS, .build = build_by_id, .parse = parse_probe,
		.policy = probe_policy, .arg = &p,
	};
	int ret;

	/* One request carries two arguments: the builder's and the parser's. */
	req.build_arg = &b;
	ret = cbench_nl_request(nl, &req);
	if (!ret && !p.seen)
		ret = -EPROTO;
	if (!ret)
		*counters = p.counters;
	return ret;
}

int cbench_proto_probe_all(struct cbench_nl *nl, int (*fn)(void *arg, uint32_t cpu, uint32_t counters),
			   void *arg)
{
	struct probe p = { .fn = fn, .arg = arg };
	struct cbench_nl_request req = {
		.cmd = CBENCH_CMD_PROBE_COUNTERS, .dump = true, .parse = parse_probe,
		.policy = probe_policy, .arg = &p,
	};

	return cbench_nl_request(nl, &req);
}

/* ---- images -------------------------------------------------------------- */

static struct nla_policy image_policy[CBENCH_A_MAX + 1] = {
	[CBENCH_A_IMAGE_ID] = { .type = NLA_U32 },
};

struct id_reply {
	int type;
	uint32_t id;
	bool seen;
};

static int parse_id(struct nlattr **tb, void *arg)
{
	struct id_reply *r = arg;

	if (!tb[r->type] || r->seen)
		return -EPROTO;
	r->id = nla_get_u32(tb[r->type]);
	r->seen = true;
	return 0;
}

static int build_image_new(struct nl_msg *msg, void *arg)
{
	return put_u64(msg, CBENCH_A_IMAGE_BYTES, *(const uint64_t *)arg);
}

struct chunk {
	uint32_t id;
	uint64_t offset;
	const void *data;
	size_t bytes;
};

static int build_chunk(struct nl_msg *msg, void *arg)
{
	const struct chunk *c = arg;
	int ret = put_u32(msg, CBENCH_A_IMAGE_ID, c->id);

	ret = ret ? ret : put_u64(msg, CBENCH_A_CHUNK_OFFSET, c->offset);
	return ret ? ret : put_bin(msg, CBENCH_A_CHUNK_DATA, c->data, c->bytes);
}

struct map {
	uint32_t id;
	const struct cbench_kimage *image;
	bool crc;		/* the module takes CBENCH_A_IMAGE_CRC32 */
};

static int build_map(struct nl_msg *msg, void *arg)
{
	const struct map *m = arg;
	int ret = put_u32(msg, CBENCH_A_IMAGE_ID, m->id);

	ret = ret ? ret : put_bin(msg, CBENCH_A_IMAGE_TEXT, m->image->text,
				  m->image->ntext * sizeof(m->image->text[0]));
	if (!ret && m->image->nrelocs)
		ret = put_bin(msg, CBENCH_A_IMAGE_RELOCS, m->image->relocs,
			      m->image->nrelocs * sizeof(m->image->relocs[0]));
	/* The module maps the bytes only if they are the ones we built. */
	if (!ret && m->crc)
		ret = put_u32(msg, CBENCH_A_IMAGE_CRC32,
			      cbench_crc32(0, m->image->bytes, m->image->image_bytes));
	return ret;
}

int cbench_proto_image_upload(struct cbench_nl *nl, const struct cbench_kimage *image, bool crc,
			      uint32_t *id)
{
	struct id_reply r = { .type = CBENCH_A_IMAGE_ID };
	struct cbench_nl_request req = {
		.cmd = CBENCH_CMD_IMAGE_NEW, .build = build_image_new, .parse = parse_id,
		.policy = image_policy, .arg = &r,
	};
	struct map m = { .image = image, .crc = crc };
	int ret;

	req.build_arg = (void *)&image->image_bytes;
	ret = cbench_nl_request(nl, &req);
	if (!ret && !r.seen)
		ret = -EPROTO;
	if (ret)
		return ret;
	*id = r.id;
	/* Chunks go in order, as the socket's send buffer allows them. */
	for (uint64_t off = 0; off < image->image_bytes; off += CBENCH_CHUNK_MAX_BYTES) {
		uint64_t left = image->image_bytes - off;
		struct chunk c = { .id = r.id, .offset = off, .data = image->bytes + off,
				   .bytes = left < CBENCH_CHUNK_MAX_BYTES ? left : CBENCH_CHUNK_MAX_BYTES };
		struct cbench_nl_request creq = { .cmd = CBENCH_CMD_IMAGE_CHUNK, .build = build_chunk,
						  .arg = &c };

		ret = cbench_nl_request(nl, &creq);
		if (ret)
			return ret;
	}
	m.id = r.id;
	req = (struct cbench_nl_request){ .cmd = CBENCH_CMD_IMAGE_MAP, .build = build_map, .arg = &m };
	return cbench_nl_request(nl, &req);
}

int cbench_proto_image_del(struct cbench_nl *nl, uint32_t id)
{
	return simple(nl, CBENCH_CMD_IMAGE_DEL, CBENCH_A_IMAGE_ID, id);
}

/* ---- runs ------------------------------------------------------------------ */

static struct nla_policy run_policy[CBENCH_A_MAX + 1] = {
	[CBENCH_A_RUN_ID] = { .type = NLA_U32 },
	[CBENCH_A_RUN_STATE] = { .type = NLA_U32 },
	[CBENCH_A_RUN_ERROR] = { .type = NLA_U32 },	/* NLA_S32: libnl checks the size */
	[CBENCH_A_RUN_SAMPLES_DONE] = { .type = NLA_U32 },
	[CBENCH_A_RUN_DISTURBED] = { .type = NLA_U32 },
	[CBENCH_A_RUN_COUNTERS] = { .type = NLA_U32 },
	[CBENCH_A_RUN_OVERHEAD] = { .minlen = sizeof(struct cbench_ksample) },
	[CBENCH_A_RUN_PROBE_TSC] = { .type = NLA_U64 },
	[CBENCH_A_RUN_QUIET] = { .type = NLA_U32 },
	[CBENCH_A_RUN_FAILED_IN] = { .type = NLA_U32 },
	[CBENCH_A_RUN_RECOVERED] = { .type = NLA_FLAG },
	[CBENCH_A_RUN_TRAP] = { .type = NLA_U32 },
	[CBENCH_A_RUN_TRAP_OFFSET] = { .type = NLA_U64 },
	[CBENCH_A_RUN_TRAP_FROM_CALLER] = { .type = NLA_FLAG },
	[CBENCH_A_RUN_FAULT_ADDR] = { .type = NLA_U64 },
	[CBENCH_A_RUN_FAULT_ERROR] = { .type = NLA_U32 },
	[CBENCH_A_RUN_OOPSED] = { .type = NLA_FLAG },
	[CBENCH_A_RUN_FLAGS_CHANGED] = { .type = NLA_U32 },
	[CBENCH_A_RUN_STACK_USED] = { .type = NLA_U64 },
	[CBENCH_A_RUN_WATCHER] = { .type = NLA_U32 },
	[CBENCH_A_RUN_RECOVERED_SIDE] = { .type = NLA_U32 },
	[CBENCH_A_SAMPLES_FIRST] = { .type = NLA_U32 },
	[CBENCH_A_SAMPLES] = { .type = NLA_UNSPEC },
	[CBENCH_A_SAMPLES_SIDES] = { .type = NLA_UNSPEC },
	[CBENCH_A_TP_SAMPLE] = { .type = NLA_U32 },
	[CBENCH_A_TP_TAKEN] = { .type = NLA_U64 },
	[CBENCH_A_TP_FIRST] = { .type = NLA_U32 },
	[CBENCH_A_TP_RECORDS] = { .type = NLA_UNSPEC },
};

/* A parameter set as an ARGS nest of type `type` (RUN_ARGS, SIDE_ARGS); none if nargs is 0. */
static int put_args(struct nl_msg *msg, int type, const struct cbench_arg *args, uint32_t nargs)
{
	struct nlattr *nest;

	if (!nargs)
		return 0;
	nest = nla_nest_start(msg, type | NLA_F_NESTED);
	if (!nest)
		return -EMSGSIZE;
	for (uint32_t i = 0; i < nargs; i++) {
		struct nlattr *arg = nla_nest_start(msg, CBENCH_A_ARG | NLA_F_NESTED);

		if (!arg || nla_put_string(msg, CBENCH_A_ARG_KEY, args[i].key) ||
		    put_u64(msg, CBENCH_A_ARG_INT, (uint64_t)args[i].i) ||
		    (args[i].str && nla_put_string(msg, CBENCH_A_ARG_STR, args[i].str)))
			return -EMSGSIZE;
		nla_nest_end(msg, arg);
	}
	nla_nest_end(msg, nest);
	return 0;
}

static int build_run(struct nl_msg *msg, void *arg)
{
	const struct cbench_proto_run *r = arg;
	int ret = put_u32(msg, CBENCH_A_IMAGE_ID, r->image_id);

	ret = ret ? ret : put_u64(msg, CBENCH_A_RUN_ENTRY, r->entry);
	if (!ret && r->has_setup)
		ret = put_u64(msg, CBENCH_A_RUN_SETUP, r->setup);
	if (!ret && r->has_before_rep)
		ret = put_u64(msg, CBENCH_A_RUN_BEFORE_REP, r->before_rep);
	if (!ret && r->has_after_rep)
		ret = put_u64(msg, CBENCH_A_RUN_AFTER_REP, r->after_rep);
	ret = ret ? ret : put_u64(msg, CBENCH_A_RUN_REPS, r->reps);
	if (!ret && r->reps_step)
		ret = put_u64(msg, CBENCH_A_RUN_REPS_STEP, r->reps_step);
	ret = ret ? ret : put_u32(msg, CBENCH_A_RUN_SAMPLES, r->samples);
	ret = ret ? ret : put_u32(msg, CBENCH_A_RUN_CPU, r->cpu);
	if (!ret && r->arena_bytes)
		ret = put_u64(msg, CBENCH_A_RUN_ARENA_BYTES, r->arena_bytes);
	if (!ret && r->tp_records)
		ret = put_u32(msg, CBENCH_A_RUN_TP_RECORDS, r->tp_records);
	if (!ret && r->tp_records && r->tp_every)
		ret = put_u64(msg, CBENCH_A_RUN_TP_EVERY, r->tp_every);
	ret = ret ? ret : put_args(msg, CBENCH_A_RUN_ARGS, r->args, r->nargs);
	if (!ret && r->has_quiet)
		ret = put_u32(msg, CBENCH_A_RUN_QUIET, r->quiet);
	if (!ret && r->has_watcher)
		ret = put_u32(msg, CBENCH_A_RUN_WATCHER, r->watcher);
	return ret ? ret : put_u64(msg, CBENCH_A_RUN_PARAM, (uint64_t)r->param);
}

int cbench_proto_run_start(struct cbench_nl *nl, const struct cbench_proto_run *run, uint32_t *id)
{
	struct id_reply r = { .type = CBENCH_A_RUN_ID };
	struct cbench_nl_request req = {
		.cmd = CBENCH_CMD_RUN_START, .build = build_run, .parse = parse_id,
		.policy = run_policy, .arg = &r,
	};
	int ret;

	req.build_arg = (void *)run;
	ret = cbench_nl_request(nl, &req);
	if (!ret && !r.seen)
		ret = -EPROTO;
	if (!ret)
		*id = r.id;
	return ret;
}

struct run_get {
	uint32_t id;
	struct cbench_proto_run_state *state;
	bool seen;
};

static int parse_run_get(struct nlattr **tb, void *arg)
{
	struct run_get *g = arg;
	struct cbench_proto_run_state *s = g->state;

	if (g->seen || !tb[CBENCH_A_RUN_ID] || nla_get_u32(tb[CBENCH_A_RUN_ID]) != g->id ||
	    !tb[CBENCH_A_RUN_STATE] || !tb[CBENCH_A_RUN_SAMPLES_DONE])
		return -EPROTO;
	g->seen = true;
	s->state = nla_get_u32(tb[CBENCH_A_RUN_STATE]);
	s->error = (int32_t)get_u32(tb[CBENCH_A_RUN_ERROR]);
	s->failed_in = get_u32(tb[CBENCH_A_RUN_FAILED_IN]);
	s->recovered = tb[CBENCH_A_RUN_RECOVERED] != NULL;
	s->trap = s->recovered && tb[CBENCH_A_RUN_TRAP] ?
		  (int32_t)(nla_get_u32(tb[CBENCH_A_RUN_TRAP]) & 0xff) : -1;
	s->trap_offset = s->trap >= 0 && tb[CBENCH_A_RUN_TRAP_OFFSET] ?
			 nla_get_u64(tb[CBENCH_A_RUN_TRAP_OFFSET]) : 0;
	s->trap_from_caller = s->trap >= 0 && tb[CBENCH_A_RUN_TRAP_FROM_CALLER];
	s->oopsed = s->trap >= 0 && tb[CBENCH_A_RUN_OOPSED];
	s->fault_addr = tb[CBENCH_A_RUN_FAULT_ADDR] ? nla_get_u64(tb[CBENCH_A_RUN_FAULT_ADDR]) : 0;
	s->fault_error = get_u32(tb[CBENCH_A_RUN_FAULT_ERROR]);
	s->flags_changed = get_u32(tb[CBENCH_A_RUN_FLAGS_CHANGED]);
	s->stack_used = tb[CBENCH_A_RUN_STACK_USED] ? nla_get_u64(tb[CBENCH_A_RUN_STACK_USED]) : 0;
	s->done = nla_get_u32(tb[CBENCH_A_RUN_SAMPLES_DONE]);
	s->disturbed = get_u32(tb[CBENCH_A_RUN_DISTURBED]);
	s->counters = get_u32(tb[CBENCH_A_RUN_COUNTERS]);
	if (tb[CBENCH_A_RUN_PROBE_TSC])
		s->probe_tsc = nla_get_u64(tb[CBENCH_A_RUN_PROBE_TSC]);
	s->quiet = tb[CBENCH_A_RUN_QUIET] ? (int32_t)nla_get_u32(tb[CBENCH_A_RUN_QUIET]) : -1;
	s->watcher = tb[CBENCH_A_RUN_WATCHER] ? (int32_t)nla_get_u32(tb[CBENCH_A_RUN_WATCHER]) : -1;
	s->recovered_side = s->recovered && tb[CBENCH_A_RUN_RECOVERED_SIDE] ?
			    (int32_t)(nla_get_u32(tb[CBENCH_A_RUN_RECOVERED_SIDE]) & 1) : -1;
	s->has_overhead = tb[CBENCH_A_RUN_OVERHEAD];
	if (s->has_overhead) {
		if (nla_len(tb[CBENCH_A_RUN_OVERHEAD]) != (int)sizeof(s->overhead))
			return -EPROTO;
		memcpy(&s->overhead, nla_data(tb[CBENCH_A_RUN_OVERHEAD]), sizeof(s->overhead));
	}
	return 0;
}

int cbench_proto_run_get(struct cbench_nl *nl, uint32_t id, struct cbench_proto_run_state *state)
{
	struct run_get g = { .id = id, .state = state };
	struct by_id b = { CBENCH_A_RUN_ID, id };
	struct cbench_nl_request req = {
		.cmd = CBENCH_CMD_RUN_GET, .build = build_by_id, .parse = parse_run_get,
		.policy = run_policy, .arg = &g,
	};
	int ret;

	memset(state, 0, sizeof(*state));
	req.build_arg = &b;
	ret = cbench_nl_request(nl, &req);
	return !ret && !g.seen ? -EPROTO : ret;
}

int cbench_proto_run_del(struct cbench_nl *nl, uint32_t id)
{
	return simple(nl, CBENCH_CMD_RUN_DEL, CBENCH_A_RUN_ID, id);
}

struct samples {
	uint32_t id;
	struct cbench_ksample *out;
	uint8_t *sides;			/* an audit run's; NULL: none expected */
	uint32_t n, max;
};

/* One message of the dump: the samples from SAMPLES_FIRST on, in order. */
static int parse_samples(struct nlattr **tb, void *arg)
{
	struct samples *d = arg;
	uint32_t count;
	int len;

	if (!tb[CBENCH_A_RUN_ID] || nla_get_u32(tb[CBENCH_A_RUN_ID]) != d->id ||
	    !tb[CBENCH_A_SAMPLES_FIRST] || !tb[CBENCH_A_SAMPLES])
		return -EPROTO;
	len = nla_len(tb[CBENCH_A_SAMPLES]);
	count = (uint32_t)len / sizeof(struct cbench_ksample);
	if (len < 0 || len % (int)sizeof(struct cbench_ksample) ||
	    nla_get_u32(tb[CBENCH_A_SAMPLES_FIRST]) != d->n || count > d->max - d->n)
		return -EPROTO;
	if (d->sides) {
		struct nlattr *sides = tb[CBENCH_A_SAMPLES_SIDES];

		if (!sides || nla_len(sides) != (int)count)
			return -EPROTO;
		memcpy(d->sides + d->n, nla_data(sides), count);
	}
	memcpy(d->out + d->n, nla_data(tb[CBENCH_A_SAMPLES]), count * sizeof(struct cbench_ksample));
	d->n += count;
	return 0;
}

static int samples(struct cbench_nl *nl, uint32_t id, struct cbench_ksample *out, uint8_t *sides,
		   uint32_t max, uint32_t *n)
{
	struct samples d = { .id = id, .out = out, .sides = sides, .max = max };
	struct by_id b = { CBENCH_A_RUN_ID, id };
	struct cbench_nl_request req = {
		.cmd = CBENCH_CMD_SAMPLES, .dump = true, .build = build_by_id, .parse = parse_samples,
		.policy = run_policy, .arg = &d,
	};
	int ret;

	req.build_arg = &b;
	ret = cbench_nl_request(nl, &req);
	*n = d.n;
	return ret;
}

int cbench_proto_samples(struct cbench_nl *nl, uint32_t id, struct cbench_ksample *out, uint32_t max,
			 uint32_t *n)
{
	return samples(nl, id, out, NULL, max, n);
}

int cbench_proto_audit_samples(struct cbench_nl *nl, uint32_t id, struct cbench_ksample *out,
			       uint8_t *sides, uint32_t max, uint32_t *n)
{
	return samples(nl, id, out, sides, max, n);
}

/* ---- audit runs ------------------------------------------------------------ */

static int build_side(struct nl_msg *msg, int index, const struct cbench_proto_side *s)
{
	/* The module parses each side strictly: it wants NLA_F_NESTED. */
	struct nlattr *nest = nla_nest_start(msg, (index + 1) | NLA_F_NESTED);
	int ret = nest ? put_u32(msg, CBENCH_A_SIDE_IMAGE_ID, s->image_id) : -EMSGSIZE;

	ret = ret ? ret : put_u64(msg, CBENCH_A_SIDE_ENTRY, s->entry);
	if (!ret && s->has_setup)
		ret = put_u64(msg, CBENCH_A_SIDE_SETUP, s->setup);
	ret = ret ? ret : put_u64(msg, CBENCH_A_SIDE_REPS, s->reps);
	if (!ret && s->arena_bytes)
		ret = put_u64(msg, CBENCH_A_SIDE_ARENA_BYTES, s->arena_bytes);
	ret = ret ? ret : put_u64(msg, CBENCH_A_SIDE_PARAM, (uint64_t)s->param);
	ret = ret ? ret : put_args(msg, CBENCH_A_SIDE_ARGS, s->args, s->nargs);
	if (!ret && s->has_before_rep)
		ret = put_u64(msg, CBENCH_A_SIDE_BEFORE_REP, s->before_rep);
	if (!ret && s->has_after_rep)
		ret = put_u64(msg, CBENCH_A_SIDE_AFTER_REP, s->after_rep);
	if (!ret)
		nla_nest_end(msg, nest);
	return ret;
}

static int build_audit(struct nl_msg *msg, void *arg)
{
	const struct cbench_proto_audit *a = arg;
	struct nlattr *sides;
	int ret = put_u32(msg, CBENCH_A_RUN_CPU, a->cpu);

	ret = ret ? ret : put_u64(msg, CBENCH_A_AUDIT_SEED, a->seed);
	ret = ret ? ret : put_u32(msg, CBENCH_A_AUDIT_PER_SIDE, a->per_side);
	ret = ret ? ret : put_u32(msg, CBENCH_A_AUDIT_ROUNDS, a->rounds);
	if (!ret && a->has_quiet)
		ret = put_u32(msg, CBENCH_A_RUN_QUIET, a->quiet);
	if (!ret && a->has_watcher)
		ret = put_u32(msg, CBENCH_A_RUN_WATCHER, a->watcher);
	if (ret)
		return ret;
	sides = nla_nest_start(msg, CBENCH_A_AUDIT_SIDES | NLA_F_NESTED);
	if (!sides)
		return -EMSGSIZE;
	for (int i = 0; !ret && i < CBENCH_AUDIT_SIDES; i++)
		ret = build_side(msg, i, &a->side[i]);
	if (!ret)
		nla_nest_end(msg, sides);
	return ret;
}

int cbench_proto_audit_start(struct cbench_nl *nl, const struct cbench_proto_audit *audit,
			     uint32_t *id)
{
	struct id_reply r = { .type = CBENCH_A_RUN_ID };
	struct cbench_nl_request req = {
		.cmd = CBENCH_CMD_AUDIT_START, .build = build_audit, .parse = parse_id,
		.policy = run_policy, .arg = &r,
	};
	int ret;

	req.build_arg = (void *)audit;
	ret = cbench_nl_request(nl, &req);
	if (!ret && !r.seen)
		ret = -EPROTO;
	if (!ret)
		*id = r.id;
	return ret;
}

/*
 * One message of the TPOINTS dump: sample SAMPLE's records from FIRST on.
 * Samples come in order, each from its first record on, and none with more
 * than min(TAKEN, records) records: anything else is a protocol error, so
 * no message can write past a sample's room.
 */
int cbench_proto_tp_parse(struct nlattr **tb, void *arg)
{
	struct cbench_proto_tp *tp = arg;
	uint32_t sample, first, count = 0;
	uint64_t taken, want;
	int len = 0;

	if (!tb[CBENCH_A_RUN_ID] || nla_get_u32(tb[CBENCH_A_RUN_ID]) != tp->id ||
	    !tb[CBENCH_A_TP_SAMPLE] || !tb[CBENCH_A_TP_TAKEN] || !tb[CBENCH_A_TP_FIRST])
		return -EPROTO;
	sample = nla_get_u32(tb[CBENCH_A_TP_SAMPLE]);
	taken = nla_get_u64(tb[CBENCH_A_TP_TAKEN]);
	first = nla_get_u32(tb[CBENCH_A_TP_FIRST]);
	if (tb[CBENCH_A_TP_RECORDS]) {
		len = nla_len(tb[CBENCH_A_TP_RECORDS]);
		count = (uint32_t)len / sizeof(struct cbench_tp_krecord);
		if (len <= 0 || len % (int)sizeof(struct cbench_tp_krecord))
			return -EPROTO;
	}
	/* A new sample (the next one, from its start) or more of the last. */
	if (sample == tp->n && sample < tp->samples && first == 0) {
		tp->taken[sample] = taken;
		tp->kept[sample] = 0;
		tp->n++;
	} else if (!(tp->n && sample == tp->n - 1 && first == tp->kept[sample] && first &&
		     taken == tp->taken[sample])) {
		return -EPROTO;
	}
	want = taken < tp->records ? taken : tp->records;
	if (count > want - first)
		return -EPROTO;
	if (count)
		memcpy(tp->out + (size_t)sample * tp->records + first,
		       nla_data(tb[CBENCH_A_TP_RECORDS]), (size_t)len);
	tp->kept[sample] += count;
	return 0;
}

int cbench_proto_tp_complete(const struct cbench_proto_tp *tp)
{
	for (uint32_t i = 0; i < tp->n; i++) {
		uint64_t want = tp->taken[i] < tp->records ? tp->taken[i] : tp->records;

		if (tp->kept[i] != want)
			return -EPROTO;
	}
	return 0;
}

int cbench_proto_tpoints(struct cbench_nl *nl, struct cbench_proto_tp *tp)
{
	struct by_id b = { CBENCH_A_RUN_ID, tp->id };
	struct cbench_nl_request req = {
		.cmd = CBENCH_CMD_TPOINTS, .dump = true, .build = build_by_id,
		.parse = cbench_proto_tp_parse, .policy = run_policy, .arg = tp,
	};
	int ret;

	tp->n = 0;
	req.build_arg = &b;
	ret = cbench_nl_request(nl, &req);
	return ret ? ret : cbench_proto_tp_complete(tp);
}
