// SPDX-License-Identifier: GPL-2.0
/*
 * The netlink client's error mapping: libnl's codes become the errno values
 * the rest of cbenchctl and its messages speak, whichever sign libnl used;
 * and a message without the kernel's text is strerror's alone.
 */
#include <errno.h>
#include <string.h>

#include <CUnit/CUnit.h>
#include <netlink/errno.h>

#include "backend/netlink.h"

static void error_mapping(void)
{
	static const struct {
		int nle, err;
	} map[] = {
		{ 0, 0 },
		{ NLE_NOMEM, -ENOMEM },
		{ NLE_PERM, -EPERM },
		{ NLE_NOACCESS, -EACCES },
		{ NLE_OBJ_NOTFOUND, -ENOENT },
		{ NLE_AGAIN, -EAGAIN },
		{ NLE_INVAL, -EINVAL },
		{ NLE_RANGE, -ERANGE },
		{ NLE_MSGSIZE, -EMSGSIZE },
		{ NLE_OPNOTSUPP, -EOPNOTSUPP },
		{ NLE_BUSY, -EBUSY },
		{ NLE_NODEV, -ENODEV },
		/* Every malformed-reply code is a protocol error to us. */
		{ NLE_SEQ_MISMATCH, -EPROTO },
		{ NLE_MSG_TRUNC, -EPROTO },
		{ NLE_PARSE_ERR, -EPROTO },
		/* And what we do not know, an I/O error: never 0, never positive. */
		{ NLE_FAILURE, -EIO },
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		CU_ASSERT_EQUAL(cbench_nl_errno(map[i].nle), map[i].err);
		CU_ASSERT_EQUAL(cbench_nl_errno(-map[i].nle), map[i].err);
	}
}

static void message_without_kernel_text(void)
{
	CU_ASSERT_STRING_EQUAL(cbench_nl_strerror(NULL, -EPERM), strerror(EPERM));
}

static CU_TestInfo netlink_tests[] = {
	{ "libnl errors as errno", error_mapping },
	{ "strerror without the kernel's text", message_without_kernel_text },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_netlink_suites[] = {
	{ "netlink client", NULL, NULL, NULL, NULL, netlink_tests },
	CU_SUITE_INFO_NULL,
};
