/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What proves a run's JSON report whole: its last member, "digest", is
 * "sha256:" and the SHA-256 (FIPS 180-4) of the report's text before it,
 * up to the comma that opens it, as cbenchctl wrote it.  An edit of any
 * byte (a trial's number, a date, a name), or the text rewritten by
 * another tool, no longer matches.  Nothing secret: it proves a report
 * whole, not who wrote it.
 */
#ifndef _CBENCH_DIGEST_H
#define _CBENCH_DIGEST_H

#include <stddef.h>
#include <stdint.h>

/* The member as written: ,"digest":"sha256:<64 hex digits>"} */
#define CBENCH_DIGEST_MEMBER ",\"digest\":\"sha256:"

/* SHA-256 of data[0..len) as 64 lowercase hex digits and a NUL into hex[65]. */
void cbench_sha256_hex(const void *data, size_t len, char hex[65]);

enum cbench_digest_state {
	CBENCH_DIGEST_NONE,		/* no digest: an older cbenchctl wrote it */
	CBENCH_DIGEST_WHOLE,		/* the digest matches the text before it */
	CBENCH_DIGEST_EDITED,		/* it does not: edited after it was written */
	CBENCH_DIGEST_REWRITTEN,	/* a digest, but not where cbenchctl writes it */
};

/*
 * Checks a report's text against its digest; has_member says whether the
 * parsed report has a "digest" member at all.
 */
enum cbench_digest_state cbench_digest_check(const char *text, size_t len, int has_member);

#endif /* _CBENCH_DIGEST_H */
