// SPDX-License-Identifier: GPL-2.0
/*
 * The x86-64 length decoder (object/x86insn.c): known encodings of every
 * kind, the instructions it names as ring-0 hazards and those it must not,
 * and agreement with objdump on every instruction of real objects (glibc's
 * string functions alone use SSE, AVX2, AVX-512 and EVEX).
 */
#include <CUnit/CUnit.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "object/x86insn.h"

struct known {
	const char *bytes;		/* hex, no spaces */
	size_t length;			/* 0: not an instruction */
};

/* Parses hex into out; returns the bytes. */
static size_t unhex(const char *hex, uint8_t *out, size_t max)
{
	size_t n = 0;

	for (; hex[0] && hex[1] && n < max; hex += 2) {
		unsigned int b;

		if (sscanf(hex, "%2x", &b) != 1)
			break;
		out[n++] = (uint8_t)b;
	}
	return n;
}

static size_t decode_hex(const char *hex, struct cbench_x86_insn *insn)
{
	uint8_t code[32];
	size_t n = unhex(hex, code, sizeof(code));

	return cbench_x86_decode(code, n, insn);
}

static void lengths(void)
{
	static const struct known known[] = {
		{ "90", 1 }, { "c3", 1 }, { "cc", 1 }, { "f4", 1 },
		{ "4889c8", 3 },			/* mov %rcx, %rax */
		{ "488b042500100000", 8 },		/* mov 0x1000, %rax (SIB, disp32) */
		{ "64488b042528000000", 9 },		/* mov %fs:0x28, %rax */
		{ "488b0500000000", 7 },		/* mov 0(%rip), %rax */
		{ "48b88877665544332211", 10 },		/* movabs $imm64, %rax */
		{ "66b83412", 4 },			/* mov $0x1234, %ax */
		{ "b878563412", 5 },			/* mov $imm32, %eax */
		{ "81c078563412", 6 }, { "83c001", 3 },	/* add $imm32, %eax; add $1 */
		{ "6681c03412", 5 },			/* add $imm16, %ax */
		{ "664881c078563412", 8 },		/* add $imm32, %rax: REX.W over 66 */
		{ "f7c078563412", 6 }, { "f7d8", 2 },	/* test $imm32, %eax; neg %eax */
		{ "f6c001", 3 }, { "f6d8", 2 },		/* test $1, %al; neg %al */
		{ "e800000000", 5 }, { "eb00", 2 }, { "0f8400000000", 6 },
		{ "c8100001", 4 },			/* enter $16, $1 */
		{ "c21000", 3 },			/* ret $16 */
		{ "48a18877665544332211", 10 },		/* movabs moffs64, %rax */
		{ "66660f1f840000000000", 10 },		/* data16 nopw (%rax,%rax) */
		{ "0f1f4000", 4 }, { "0f05", 2 }, { "0f0b", 2 },
		{ "0f2387", 3 },			/* mov %rdi, %db0: mod ignored */
		{ "f30f1efa", 4 },			/* endbr64 */
		{ "660f3a0fc108", 6 },			/* palignr $8 */
		{ "660f3800c1", 5 },			/* pshufb */
		{ "f20f38f1c1", 5 },			/* crc32 %rcx, %eax */
		{ "660f70c01b", 5 },			/* pshufd $0x1b */
		{ "c5f877", 3 },			/* vzeroupper */
		{ "c5fd6fc1", 4 },			/* vmovdqa %ymm1, %ymm0 */
		{ "c4e27d18c1", 5 },			/* vbroadcastss */
		{ "c4e37d18c101", 6 },			/* vinsertf128 $1 */
		{ "62f1fe486f07", 6 },			/* vmovdqu64 (%rdi), %zmm0 */
		{ "62f17c48104701", 7 },		/* vmovups 0x40(%rdi), %zmm0 (disp8*N) */
		{ "62f37d483ac101", 7 },		/* vinserti32x8 $1 */
		{ "8fe8788ec1", 0 },			/* XOP with map 8 needs its imm8 */
		{ "8fe8788ec100", 6 },			/* vpcomb: XOP map 8, imm8 */
		{ "8f00", 2 },				/* pop (%rax) */
		{ "0f0fc1b4", 4 },			/* 3DNow! pfmul */
		{ "f0480fb10f", 5 },			/* lock cmpxchg %rcx, (%rdi) */
		{ "cd03", 2 }, { "cd80", 2 }, { "f1", 1 }, { "ce", 1 },
		{ "0f01f8", 3 }, { "f3480faed0", 5 },	/* swapgs; wrfsbase %rax */
		{ "06", 0 }, { "62", 0 }, { "48", 0 }, { "0f04", 0 }, { "d4", 0 },
		{ "488b04", 0 },			/* cut in its SIB */
		{ "e8000000", 0 },			/* cut in its rel32 */
	};
	struct cbench_x86_insn insn;

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		size_t got = decode_hex(known[i].bytes, &insn);

		CU_ASSERT_EQUAL(got, known[i].length);
		if (got != known[i].length)
			fprintf(stderr, "x86insn: %s: %zu bytes, want %zu\n", known[i].bytes, got,
				known[i].length);
	}
}

/* hazard(hex) in why, or NULL. */
static const char *hazard(const char *hex, char *why, size_t why_bytes)
{
	struct cbench_x86_insn insn;

	if (!decode_hex(hex, &insn))
		return "undecodable";
	return cbench_x86_ring0_hazard(&insn, why, why_bytes);
}

static void hazards(void)
{
	static const char *const refused[] = {
		"cd03", "cd80", "cd20", "f1", "0f05", "0f34", "480f07", "0f35", "48cf", "0f01f8",
		"0f30", "0f22d8", "0f23c0", "0f0110", "0f0118", "0f00d8", "0f0138", "0f01f0",
		"0f09", "0f08", "0f06", "0f01d1", "0f01c1", "0f01d9", "f3480faed0", "f30faed8",
		"660f388210", "e460", "ec", "e660", "ee", "6c", "6f",
	};
	static const char *const allowed[] = {
		"cc", "ce", "f4", "fa", "fb", "9c", "9d", "0f0b", "0f31", "0f01f9", "0f32", "0f33",
		"0fa2", "f3480faec0", "0f01cb", "0f01ca", "0f01c8", "0f01c9", "0f0100", "0f0108",
		"c5f877", "62f1fe486f07", "c4e27d18c1", "0f1f4000", "f30f1efa",
	};
	char why[256];

	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		const char *w = hazard(refused[i], why, sizeof(why));

		CU_ASSERT(w != NULL && strcmp(w, "undecodable"));
		if (!w)
			fprintf(stderr, "x86insn: %s is not named a hazard\n", refused[i]);
	}
	for (size_t i = 0; i < sizeof(allowed) / sizeof(allowed[0]); i++) {
		const char *w = hazard(allowed[i], why, sizeof(why));

		CU_ASSERT_PTR_NULL(w);
		if (w)
			fprintf(stderr, "x86insn: %s named a hazard: %s\n", allowed[i], w);
	}
	CU_ASSERT_PTR_NOT_NULL(strstr(hazard("cd03", why, sizeof(why)), "int $3 (cd 03)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(hazard("cd80", why, sizeof(why)), "int $0x80"));
	CU_ASSERT_PTR_NOT_NULL(strstr(hazard("0f05", why, sizeof(why)), "syscall"));
	CU_ASSERT_PTR_NOT_NULL(strstr(hazard("f3480faed8", why, sizeof(why)), "wrgsbase"));
}

/* Whether objdump's text is prefixes alone ("cs rex.W"): it walked into data. */
static bool prefixes_only(const char *text)
{
	static const char *const prefixes[] = {
		"rex", "repnz", "repz", "rep", "lock", "cs", "ds", "es", "fs", "gs", "ss", "data16",
		"addr32",
	};
	char copy[256], *save = NULL;

	snprintf(copy, sizeof(copy), "%s", text);
	for (char *w = strtok_r(copy, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save)) {
		bool prefix = false;

		for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
			prefix |= !strncmp(w, prefixes[i], strlen(prefixes[i]));
		if (!prefix)
			return false;
	}
	return true;
}

/*
 * Every instruction objdump decodes in path, at its length: returns the
 * instructions compared, counting those whose length we got wrong in *bad.
 */
static size_t against_objdump(const char *path, size_t *bad)
{
	char cmd[512], line[512];
	size_t n = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "objdump -d -w --insn-width=16 --no-addresses '%s' 2>/dev/null",
		 path);
	p = popen(cmd, "r");
	if (!p)
		return 0;
	while (fgets(line, sizeof(line), p)) {
		char hex[64] = "", *tab = strchr(line, '\t');
		struct cbench_x86_insn insn;
		size_t len = 0, got;

		/* "\t48 8b 04 25 ... \tmov ...": the bytes between two tabs.  Where
		 * objdump walks into data in code (libcrypto's tables) it shows
		 * lone prefixes, .byte, and 66-prefixed branches decoded as AMD does
		 * (rel16; Intel ignores the 66): those we skip. */
		if (!tab || line[0] != '\t' || strstr(line, "(bad)") || strstr(line, "...") ||
		    strstr(line, "\trex") || strstr(line, "\t.byte") || strstr(line, "\tjmpw") ||
		    strstr(line, "\tcallw"))
			continue;
		for (char *c = tab + 1; *c && *c != '\t' && len + 2 < sizeof(hex); c++)
			if (*c != ' ')
				hex[len++] = *c;
		hex[len] = '\0';
		if (len < 2 || !strchr(tab + 1, '\t') || prefixes_only(strchr(tab + 1, '\t')))
			continue;
		got = decode_hex(hex, &insn);
		/* objdump shows fwait and the x87 instruction after it as one. */
		if (!strncmp(hex, "9b", 2) && len > 2 && got == 1)
			got += decode_hex(hex + 2, &insn);
		n++;
		if (got != len / 2) {
			if (*bad < 10)
				fprintf(stderr, "x86insn: %s: %s: %zu bytes, objdump %zu: %s", path, hex,
					got, len / 2, line);
			(*bad)++;
		}
	}
	pclose(p);
	return n;
}

static void objdump_agrees(void)
{
	static const char *const objects[] = {
		"build/cbenchctl", "/lib/x86_64-linux-gnu/libc.so.6", "/lib/x86_64-linux-gnu/libm.so.6",
		"/lib64/ld-linux-x86-64.so.2", "/lib/x86_64-linux-gnu/libcrypto.so.3",
	};
	size_t total = 0, bad = 0;

	for (size_t i = 0; i < sizeof(objects) / sizeof(objects[0]); i++)
		total += against_objdump(objects[i], &bad);
	/* glibc alone has well over 100,000 instructions. */
	CU_ASSERT(total > 100000);
	CU_ASSERT_EQUAL(bad, 0);
	if (bad || total <= 100000)
		fprintf(stderr, "x86insn: %zu of %zu instructions at another length than objdump's\n",
			bad, total);
}

/* The PC-relative field of branches and RIP-relative operands (what code
 * layout patches): where it starts and how wide it is; none elsewhere. */
static void pcrel_fields(void)
{
	static const struct {
		const char *bytes;
		uint8_t at, width;
	} known[] = {
		{ "e800000000", 1, 4 },			/* call rel32 */
		{ "e900000000", 1, 4 }, { "eb00", 1, 1 },	/* jmp rel32, rel8 */
		{ "7500", 1, 1 }, { "0f8400000000", 2, 4 },	/* jne rel8, je rel32 */
		{ "e300", 1, 1 }, { "e200", 1, 1 },		/* jrcxz, loop */
		{ "488b0500000000", 3, 4 },			/* mov 0(%rip), %rax */
		{ "833d0000000005", 2, 4 },			/* cmpl $5, 0(%rip): imm8 after */
		{ "c7050000000078563412", 2, 4 },		/* movl $imm32, 0(%rip) */
		{ "ff2500000000", 2, 4 },			/* jmp *0(%rip): a PLT entry */
		{ "f30f1efa", 0, 0 },				/* endbr64 */
		{ "488b042500100000", 0, 0 },			/* mov 0x1000, %rax: absolute */
		{ "ffd0", 0, 0 }, { "c3", 0, 0 },		/* call *%rax, ret */
		{ "c5fd6f0500000000", 4, 4 },			/* vmovdqa 0(%rip), %ymm0 */
	};

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		struct cbench_x86_insn insn;

		CU_ASSERT(decode_hex(known[i].bytes, &insn) > 0);
		if (insn.pcrel_at != known[i].at || insn.pcrel_bytes != known[i].width)
			fprintf(stderr, "\n%s: field at %u, %u bytes\n", known[i].bytes, insn.pcrel_at,
				insn.pcrel_bytes);
		CU_ASSERT_EQUAL(insn.pcrel_at, known[i].at);
		CU_ASSERT_EQUAL(insn.pcrel_bytes, known[i].width);
	}
}

static CU_TestInfo x86insn_tests[] = {
	{ "PC-relative fields", pcrel_fields },
	{ "lengths of known encodings", lengths },
	{ "ring-0 hazards named, the rest not", hazards },
	{ "every instruction of real objects at objdump's length", objdump_agrees },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_x86insn_suites[] = {
	{ "x86-64 instruction decoder", NULL, NULL, NULL, NULL, x86insn_tests },
	CU_SUITE_INFO_NULL,
};
