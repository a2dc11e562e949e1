// SPDX-License-Identifier: GPL-2.0
/* The run's context for reports: date, host, command line. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/utsname.h>
#include <time.h>

#include "report/context.h"
#include "machine/probe.h"
#include "report/json_writer.h"

static struct cbench_context context;

const struct cbench_context *cbench_context(void)
{
	return &context;
}

/* A word as a shell would read it back: bare when it is plain, else in
 * single quotes; control characters (a newline would end a report line)
 * become '?'.  Returns the bytes written, or 0 when it does not fit. */
static size_t quote_word(const char *w, char *out, size_t len)
{
	bool plain = *w != '\0';
	size_t at = 0;
	const char *p;

	for (p = w; *p; p++)
		plain &= strchr("@%+=:,./-_", *p) || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			 (*p >= '0' && *p <= '9');
	if (!plain && at < len)
		out[at++] = '\'';
	/* Room for the longest step (4 bytes) and the closing quote. */
	for (p = w; *p && at + 5 < len; p++) {
		if (*p == '\'' && !plain) {
			memcpy(out + at, "'\\''", 4);
			at += 4;
		} else {
			out[at++] = (unsigned char)*p < 0x20 || *p == 0x7f ? '?' : *p;
		}
	}
	if (*p)
		return 0;
	if (!plain)
		out[at++] = '\'';
	return at;
}

/* The run's id (struct cbench_context.run_id). */
static void make_run_id(bool reproducible)
{
	uint64_t h[2] = { 0xcbf29ce484222325ULL, 0x84222325cbf29ce4ULL };

	if (reproducible || getrandom(h, sizeof(h), GRND_NONBLOCK) != (ssize_t)sizeof(h)) {
		/* FNV-1a of the date and the command, twice seeded. */
		for (int k = 0; k < 2; k++) {
			for (const char *p = context.date; *p; p++)
				h[k] = (h[k] ^ (unsigned char)*p) * 0x100000001b3ULL;
			for (const char *p = context.command; *p; p++)
				h[k] = (h[k] ^ (unsigned char)*p) * 0x100000001b3ULL;
		}
	}
	snprintf(context.run_id, sizeof(context.run_id), "%016" PRIx64 "%016" PRIx64, h[0], h[1]);
}

void cbench_context_init(int argc, char *argv[])
{
	const char *epoch = getenv("SOURCE_DATE_EPOCH");
	struct utsname u;
	struct tm tm;
	time_t now = time(NULL);
	size_t at = 0;
	char *end;

	/* The reproducible-builds convention: a report made again from the
	 * same measurements can carry the same date. */
	if (epoch && *epoch) {
		long long v = strtoll(epoch, &end, 10);

		if (!*end && v >= 0)
			now = (time_t)v;
	}

	if (gmtime_r(&now, &tm))
		strftime(context.date, sizeof(context.date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (!uname(&u))
		snprintf(context.host, sizeof(context.host), "%s", u.nodename);
	for (int i = 0; i < argc; i++) {
		size_t n;

		if (i && at + 1 < sizeof(context.command))
			context.command[at++] = ' ';
		n = quote_word(i ? argv[i] : "cbenchctl", context.command + at,
			       sizeof(context.command) - at - 1);
		if (!n) {
			/* Cut at a word: the rest does not fit. */
			at += (size_t)snprintf(context.command + at, sizeof(context.command) - at, "...");
			break;
		}
		at += n;
	}
	context.command[at < sizeof(context.command) ? at : sizeof(context.command) - 1] = '\0';
	make_run_id(epoch && *epoch);
}

void cbench_context_put(struct cbench_jsonw *j)
{
	cbench_jsonw_string(j, "date", context.date);
	cbench_jsonw_string(j, "host", context.host);
	cbench_jsonw_string(j, "command", context.command);
}

void cbench_report_head_put(struct cbench_jsonw *j, const struct cbench_report_head *h)
{
	const struct cbench_machine *m = h->machine;
	char model[96];

	if (m) {
		snprintf(model, sizeof(model), "%s family %u model %u stepping %u", m->cpu_vendor,
			 m->cpu_family, m->cpu_model, m->cpu_stepping);
		cbench_jsonw_string(j, "cpu", m->cpu_name[0] ? m->cpu_name : m->cpu_vendor);
		cbench_jsonw_string(j, "cpu_model", model);
		cbench_jsonw_int(j, "cpu_count", m->cpus_online);
		cbench_jsonw_string(j, "machine", m->hostname);
		cbench_jsonw_bool(j, "virtual_machine", m->hypervisor);
		cbench_jsonw_string(j, "kernel", m->kernel_release);
	}
	cbench_jsonw_string(j, "cbench_version", h->version);
	cbench_jsonw_string(j, "backend", h->backend);
	if (h->quiet && h->quiet[0])
		cbench_jsonw_string(j, "quiet_mode", h->quiet);
	if (h->timer)
		cbench_jsonw_string(j, "timer", h->timer);
	cbench_context_put(j);
}
