// SPDX-License-Identifier: GPL-2.0
/*
 * Parsing the TPOINTS dump (protocol.c): records land in their sample's
 * room, in order, and a message that is out of order, too long for its
 * sample or for the run's records, or names another run is a protocol
 * error, never a write past the room.
 */
#include <errno.h>
#include <string.h>

#include <CUnit/CUnit.h>
#include <netlink/attr.h>
#include <netlink/msg.h>

#include "backend/protocol.h"

#define RUN 7
#define SAMPLES 3
#define RECORDS 4

struct tp_room {
	struct cbench_tp_krecord out[SAMPLES * RECORDS + 1];	/* + a canary */
	uint64_t taken[SAMPLES];
	uint32_t kept[SAMPLES];
	struct cbench_proto_tp tp;
};

static void room_init(struct tp_room *r)
{
	memset(r, 0, sizeof(*r));
	r->out[SAMPLES * RECORDS].tsc = 0xcafe;
	r->tp = (struct cbench_proto_tp){ .id = RUN, .samples = SAMPLES, .records = RECORDS,
					  .out = r->out, .taken = r->taken, .kept = r->kept };
}

/* One TPOINTS message, parsed as the dump's parser gets it: n records
 * counting from base (tsc = count = base + i); n < 0 for none at all. */
static int message(struct tp_room *r, uint32_t id, uint32_t sample, uint64_t taken,
		   uint32_t first, int n, uint64_t base, int extra_bytes)
{
	struct nla_policy policy[CBENCH_A_MAX + 1] = {
		[CBENCH_A_RUN_ID] = { .type = NLA_U32 },
		[CBENCH_A_TP_SAMPLE] = { .type = NLA_U32 },
		[CBENCH_A_TP_TAKEN] = { .type = NLA_U64 },
		[CBENCH_A_TP_FIRST] = { .type = NLA_U32 },
	};
	struct cbench_tp_krecord rec[16];
	struct nlattr *tb[CBENCH_A_MAX + 1];
	struct nl_msg *msg = nlmsg_alloc();
	int ret;

	CU_ASSERT_FATAL(msg != NULL);
	for (int i = 0; i < n && i < 16; i++)
		rec[i] = (struct cbench_tp_krecord){ base + (uint64_t)i, base + (uint64_t)i };
	nla_put_u32(msg, CBENCH_A_RUN_ID, id);
	nla_put_u32(msg, CBENCH_A_TP_SAMPLE, sample);
	nla_put_u64(msg, CBENCH_A_TP_TAKEN, taken);
	nla_put_u32(msg, CBENCH_A_TP_FIRST, first);
	if (n >= 0)
		nla_put(msg, CBENCH_A_TP_RECORDS, n * (int)sizeof(rec[0]) + extra_bytes, rec);
	CU_ASSERT_FATAL(nla_parse(tb, CBENCH_A_MAX, nlmsg_attrdata(nlmsg_hdr(msg), 0),
				  nlmsg_attrlen(nlmsg_hdr(msg), 0), policy) == 0);
	ret = cbench_proto_tp_parse(tb, &r->tp);
	nlmsg_free(msg);
	return ret;
}

static void in_order(void)
{
	struct tp_room r;

	room_init(&r);
	/* Sample 0 took 9 points: 4 kept, in two messages. */
	CU_ASSERT_EQUAL(message(&r, RUN, 0, 9, 0, 3, 100, 0), 0);
	CU_ASSERT_EQUAL(cbench_proto_tp_complete(&r.tp), -EPROTO);
	CU_ASSERT_EQUAL(message(&r, RUN, 0, 9, 3, 1, 103, 0), 0);
	/* Sample 1 took none: one message without records. */
	CU_ASSERT_EQUAL(message(&r, RUN, 1, 0, 0, -1, 0, 0), 0);
	/* Sample 2 took 2. */
	CU_ASSERT_EQUAL(message(&r, RUN, 2, 2, 0, 2, 200, 0), 0);
	CU_ASSERT_EQUAL(r.tp.n, 3);
	CU_ASSERT_EQUAL(cbench_proto_tp_complete(&r.tp), 0);
	CU_ASSERT_EQUAL(r.taken[0], 9);
	CU_ASSERT_EQUAL(r.kept[0], 4);
	CU_ASSERT_EQUAL(r.kept[1], 0);
	CU_ASSERT_EQUAL(r.kept[2], 2);
	for (int i = 0; i < 4; i++)
		CU_ASSERT_EQUAL(r.out[i].count, 100 + (uint64_t)i);
	CU_ASSERT_EQUAL(r.out[2 * RECORDS + 1].tsc, 201);
	CU_ASSERT_EQUAL(r.out[SAMPLES * RECORDS].tsc, 0xcafe);
}

static void out_of_order(void)
{
	struct tp_room r;

	/* A sample skipped, or one not from its first record. */
	room_init(&r);
	CU_ASSERT_EQUAL(message(&r, RUN, 1, 2, 0, 2, 0, 0), -EPROTO);
	room_init(&r);
	CU_ASSERT_EQUAL(message(&r, RUN, 0, 9, 1, 2, 0, 0), -EPROTO);
	/* A continuation at the wrong record, or with another count. */
	room_init(&r);
	CU_ASSERT_EQUAL(message(&r, RUN, 0, 9, 0, 2, 0, 0), 0);
	CU_ASSERT_EQUAL(message(&r, RUN, 0, 9, 3, 1, 0, 0), -EPROTO);
	CU_ASSERT_EQUAL(message(&r, RUN, 0, 8, 2, 1, 0, 0), -EPROTO);
	/* Another run's message. */
	room_init(&r);
	CU_ASSERT_EQUAL(message(&r, RUN + 1, 0, 1, 0, 1, 0, 0), -EPROTO);
}

static void too_many(void)
{
	struct tp_room r;

	/* More records than the call took, than the run's records, than the
	 * room's samples; a length that is not whole records. */
	room_init(&r);
	CU_ASSERT_EQUAL(message(&r, RUN, 0, 2, 0, 3, 0, 0), -EPROTO);
	room_init(&r);
	CU_ASSERT_EQUAL(message(&r, RUN, 0, 1000, 0, RECORDS + 1, 0, 0), -EPROTO);
	room_init(&r);
	CU_ASSERT_EQUAL(message(&r, RUN, 0, 1000, 0, 3, 0, 0), 0);
	CU_ASSERT_EQUAL(message(&r, RUN, 0, 1000, 3, 2, 0, 0), -EPROTO);
	room_init(&r);
	for (uint32_t i = 0; i < SAMPLES; i++)
		CU_ASSERT_EQUAL(message(&r, RUN, i, 0, 0, -1, 0, 0), 0);
	CU_ASSERT_EQUAL(message(&r, RUN, SAMPLES, 1, 0, 1, 0, 0), -EPROTO);
	room_init(&r);
	CU_ASSERT_EQUAL(message(&r, RUN, 0, 4, 0, 1, 0, 8), -EPROTO);
	CU_ASSERT_EQUAL(r.out[SAMPLES * RECORDS].tsc, 0xcafe);
}

static CU_TestInfo protocol_tests[] = {
	{ "TPOINTS: records in order, in their samples", in_order },
	{ "TPOINTS: messages out of order refused", out_of_order },
	{ "TPOINTS: more records than due refused", too_many },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_protocol_suites[] = {
	{ "protocol", NULL, NULL, NULL, NULL, protocol_tests },
	CU_SUITE_INFO_NULL,
};
