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


/* The GPR objdump names %name (any width), or -1. */
static int gpr_number(const char *name)
{
	static const char *const names[16][4] = {
		{ "rax", "eax", "ax", "al" }, { "rcx", "ecx", "cx", "cl" }, { "rdx", "edx", "dx", "dl" },
		{ "rbx", "ebx", "bx", "bl" }, { "rsp", "esp", "sp", "spl" }, { "rbp", "ebp", "bp", "bpl" },
		{ "rsi", "esi", "si", "sil" }, { "rdi", "edi", "di", "dil" },
	};
	char base[8];
	int n;

	if (!strcmp(name, "ah") || !strcmp(name, "ch") || !strcmp(name, "dh") || !strcmp(name, "bh"))
		return name[0] == 'a' ? 0 : name[0] == 'c' ? 1 : name[0] == 'd' ? 2 : 3;
	for (int i = 0; i < 8; i++)
		for (int j = 0; j < 4; j++)
			if (!strcmp(name, names[i][j]))
				return i;
	if (sscanf(name, "r%d%7s", &n, base) >= 1 && n >= 8 && n <= 31)
		return n;
	return -1;
}

/* Whether mnemonic m (prefixes dropped) leaves its last operand alone. */
static bool reads_last(const char *m)
{
	static const char *const readers[] = {
		"cmp", "test", "push", "call", "jmp", "ucomis", "comis", "ptest", "vptest", "vucomis",
		"vcomis", "ktest", "kortest", "prefetch", "nop", "out", "ljmp", "lcall", "wrfsbase",
		"wrgsbase", "lmsw", "ltr", "lldt", "verr", "verw", "vmwrite", "movdir64b", "enqcmd",
		"invpcid", "umonitor", "tpause", "umwait", "incssp", "ptwrite", "invept", "invvpid",
		"kmov", "vpbroadcast", "vpinsr", "pinsr", "vcvtsi2", "cvtsi2", "vcvtusi2", "movq2dq",
		"scas", "cmps", "ud0", "ud1",
	};

	if (!strcmp(m, "bt") || !strcmp(m, "btl") || !strcmp(m, "btq") || !strcmp(m, "btw"))
		return true;
	/* One operand: the source; %rax and %rdx are written. */
	if (!strncmp(m, "mul", 3) && strncmp(m, "mulx", 4))
		return true;
	if (!strncmp(m, "div", 3) || !strncmp(m, "idiv", 4))
		return true;
	for (size_t i = 0; i < sizeof(readers) / sizeof(readers[0]); i++)
		if (!strncmp(m, readers[i], strlen(readers[i])))
			return true;
	return false;
}

/* Whether mnemonic m writes %rsp (%rbp: bp) without naming it. */
static bool implicit_stack(const char *m, bool bp)
{
	static const char *const sp[] = {
		"push", "pop", "call", "ret", "leave", "enter", "iret", "lret", "lcall",
	};

	if (bp)
		return !strncmp(m, "leave", 5) || !strncmp(m, "enter", 5);
	for (size_t i = 0; i < sizeof(sp) / sizeof(sp[0]); i++)
		if (!strncmp(m, sp[i], strlen(sp[i])))
			return true;
	return false;
}

/*
 * One line of objdump: *writes, the register its last operand names if it
 * writes it (-1 if not a register it writes), and whether its text names
 * %rsp and %rbp.  Returns the mnemonic's start in text, or NULL.
 */
static const char *objdump_operands(char *text, int *writes, bool *names_sp, bool *names_bp)
{
	static const char *const prefixes[] = {
		"lock", "rep", "repz", "repnz", "repe", "repne", "bnd", "notrack", "data16", "addr32",
		"cs", "ds", "es", "fs", "gs", "ss", "xacquire", "xrelease", "{vex}", "{evex}",
	};
	char *save = NULL, *m = NULL, *ops, *hash, *last;
	int depth = 0;

	*writes = -1;
	if ((hash = strchr(text, '#')))
		*hash = '\0';
	if ((hash = strchr(text, '<')))
		*hash = '\0';
	*names_sp = strstr(text, "sp") != NULL;
	*names_bp = strstr(text, "bp") != NULL;
	for (m = strtok_r(text, " \t\n", &save); m; m = strtok_r(NULL, " \t\n", &save)) {
		bool prefix = false;

		for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
			prefix |= !strcmp(m, prefixes[i]);
		if (!prefix && strncmp(m, "rex", 3))
			break;
	}
	if (!m)
		return NULL;
	ops = strtok_r(NULL, "\n", &save);
	while (ops && *ops == ' ')
		ops++;
	/* imul's one-operand form reads it; xchg %ax, %ax is a nop. */
	if (!ops || reads_last(m) || (!strncmp(m, "imul", 4) && !strchr(ops, ',')) ||
	    !strncmp(ops, "%ax,%ax", 7))
		return m;
	last = ops;
	for (char *c = ops; *c; c++) {
		depth += *c == '(' ? 1 : *c == ')' ? -1 : 0;
		if (*c == ',' && !depth)
			last = c + 1;
	}
	while (*last == ' ')
		last++;
	if (last[0] == '%') {
		char name[16] = "";

		sscanf(last + 1, "%15[a-z0-9]", name);
		*writes = gpr_number(name);
	}
	return m;
}

/* Whether objdump and cbench_x86_writes() agree on one line's registers. */
static bool writes_agree(const char *hex, char *text, uint32_t *mask)
{
	struct cbench_x86_insn insn;
	bool sp, bp;
	int dest;
	const char *m = objdump_operands(text, &dest, &sp, &bp);

	if (!m || !decode_hex(hex, &insn))
		return true;
	*mask = cbench_x86_writes(&insn);
	if (dest >= 0 && !(*mask & 1u << dest))
		return false;
	if ((*mask & 1u << CBENCH_X86_RSP) && !sp && !implicit_stack(m, false))
		return false;
	if ((*mask & 1u << CBENCH_X86_RBP) && !bp && !implicit_stack(m, true))
		return false;
	return true;
}

/*
 * Registers written, against objdump's operands over path: its last
 * operand, where a register the instruction writes, is in our mask, and
 * %rsp or %rbp in our mask is named by objdump or written implicitly (push,
 * leave, ...).  Returns the instructions compared, the disagreements in *bad.
 */
static size_t writes_against_objdump(const char *path, size_t *bad)
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
		char hex[64] = "", text[512], *tab = strchr(line, '\t'), *second;
		size_t len = 0;
		uint32_t mask = 0;

		/* fwait and the x87 instruction after it are one line of objdump's. */
		if (!tab || line[0] != '\t' || strstr(line, "(bad)") || strstr(line, "\t.byte") ||
		    !(second = strchr(tab + 1, '\t')) || !strncmp(tab + 1, "9b", 2))
			continue;
		for (char *c = tab + 1; c < second && len + 2 < sizeof(hex); c++)
			if (*c != ' ')
				hex[len++] = *c;
		hex[len] = '\0';
		snprintf(text, sizeof(text), "%s", second + 1);
		n++;
		if (!writes_agree(hex, text, &mask)) {
			if (*bad < 100000)
				fprintf(stderr, "x86insn: %s: %s writes 0x%x: %s", path, hex, mask, second + 1);
			(*bad)++;
		}
	}
	pclose(p);
	return n;
}

static void writes_objdump(void)
{
	static const char *const objects[] = {
		"build/cbenchctl", "/lib/x86_64-linux-gnu/libc.so.6", "/lib/x86_64-linux-gnu/libm.so.6",
		"/lib/x86_64-linux-gnu/libcrypto.so.3",
	};
	size_t total = 0, bad = 0;

	for (size_t i = 0; i < sizeof(objects) / sizeof(objects[0]); i++)
		total += writes_against_objdump(objects[i], &bad);
	CU_ASSERT(total > 100000);
	CU_ASSERT_EQUAL(bad, 0);
	if (bad)
		fprintf(stderr, "x86insn: %zu of %zu instructions write other registers than objdump says\n",
			bad, total);
}

/* Every way we know to write %rsp or %rbp, and look-alikes that do not. */
static void writes_known(void)
{
	static const struct {
		const char *bytes;
		bool sp, bp;
	} known[] = {
		{ "4889ec", true, false },		/* mov %rbp, %rsp */
		{ "4889e5", false, true },		/* mov %rsp, %rbp */
		{ "4c89e4", true, false },		/* mov %r12, %rsp */
		{ "4989e4", false, false },		/* mov %rsp, %r12 */
		{ "bc00100000", true, false },		/* mov $0x1000, %esp */
		{ "41bc00100000", false, false },	/* mov $0x1000, %r12d */
		{ "4881ec00100000", true, false },	/* sub $0x1000, %rsp */
		{ "4883c410", true, false },		/* add $16, %rsp */
		{ "4883e4f0", true, false },		/* and $-16, %rsp */
		{ "4883fc10", false, false },		/* cmp $16, %rsp */
		{ "4829c4", true, false },		/* sub %rax, %rsp */
		{ "488d6424f8", true, false },		/* lea -8(%rsp), %rsp */
		{ "488d65f8", true, false },		/* lea -8(%rbp), %rsp */
		{ "488d2c24", false, true },		/* lea (%rsp), %rbp */
		{ "4887e0", true, false },		/* xchg %rsp, %rax */
		{ "94", true, false },			/* xchg %rsp, %rax (short) */
		{ "5c", true, false }, { "5d", true, true }, { "415c", true, false },	/* pop */
		{ "54", true, false }, { "c9", true, true }, { "c8100000", true, true },
		{ "c3", true, false }, { "e800000000", true, false }, { "ffd0", true, false },
		{ "ffe0", false, false },		/* jmp *%rax */
		{ "480f44e0", true, false },		/* cmove %rax, %rsp */
		{ "480fcc", true, false },		/* bswap %rsp */
		{ "400f94c4", true, false },		/* sete %spl */
		{ "66480f7ec4", true, false },		/* movq %xmm0, %rsp */
		{ "c4e2f8f7e0", true, false },		/* bextr %rax, %rax, %rsp */
		{ "c4e2d8f3c8", true, false },		/* blsr %rax, %rsp (vvvv) */
		{ "c4e2d8f3c9", true, false },		/* blsr %rcx, %rsp */
		{ "f3480faec4", true, false },		/* rdfsbase %rsp */
		{ "480fc7f4", true, false },		/* rdrand %rsp */
		{ "480fc1c4", true, false },		/* xadd %rax, %rsp */
		{ "8fc4", true, false },		/* pop %rsp (8F /0) */
		{ "48f7dc", true, false },		/* neg %rsp */
		{ "48ffc4", true, false },		/* inc %rsp */
		{ "48c1e404", true, false },		/* shl $4, %rsp */
		{ "4c8b2424", false, false },		/* mov (%rsp), %r12 */
		{ "488b2424", true, false },		/* mov (%rsp), %rsp */
		{ "c5f97ee4", true, false },		/* vmovd %xmm4, %esp */
		{ "f20f38f1e0", true, false },		/* crc32 %eax, %esp */
		{ "c4e2fbf6e0", true, false },		/* mulx %rax, %rax, %rsp */
		{ "660fd7e0", true, false },		/* pmovmskb %xmm0, %esp */
		{ "c5f9c5e000", true, false },		/* vpextrw $0, %xmm0, %esp */
		{ "0f1f4000", false, false }, { "f30f1efa", false, false },	/* nop, endbr64 */
		{ "c5f877", false, false }, { "62f1fe486f07", false, false },	/* vzeroupper, vmovdqu64 */
		{ "c5fd6fe1", false, false },		/* vmovdqa %ymm1, %ymm4 */
		{ "0f28e1", false, false },		/* movaps %xmm1, %xmm4 */
	};

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		struct cbench_x86_insn insn;
		uint32_t w;

		CU_ASSERT(decode_hex(known[i].bytes, &insn) > 0);
		w = cbench_x86_writes(&insn);
		if (!!(w & 1u << CBENCH_X86_RSP) != known[i].sp || !!(w & 1u << CBENCH_X86_RBP) != known[i].bp)
			fprintf(stderr, "x86insn: %s writes 0x%x\n", known[i].bytes, w);
		CU_ASSERT_EQUAL(!!(w & 1u << CBENCH_X86_RSP), known[i].sp);
		CU_ASSERT_EQUAL(!!(w & 1u << CBENCH_X86_RBP), known[i].bp);
	}
}

/* Immediates, displacements and the SIB byte, as the stack analysis reads them. */
static void operands(void)
{
	struct cbench_x86_insn insn;

	CU_ASSERT(decode_hex("4881ec00100000", &insn) == 7);
	CU_ASSERT(insn.imm == 0x1000 && insn.imm_bytes == 4 && insn.rex == 8);
	CU_ASSERT(decode_hex("4883e4f0", &insn) == 4 && insn.imm == -16);
	CU_ASSERT(decode_hex("488d6424f8", &insn) == 5);
	CU_ASSERT(insn.has_sib && insn.base == 4 && insn.index == 4 && insn.disp == -8);
	CU_ASSERT(decode_hex("488d65f0", &insn) == 4 && !insn.has_sib && insn.disp == -16);
	CU_ASSERT(decode_hex("c8100001", &insn) == 4 && insn.imm == 16);
	CU_ASSERT(decode_hex("c4e2d8f3c8", &insn) == 5 && insn.vvvv == 4 && insn.vex_map == 2);
}

static CU_TestInfo x86insn_tests[] = {
	{ "PC-relative fields", pcrel_fields },
	{ "lengths of known encodings", lengths },
	{ "ring-0 hazards named, the rest not", hazards },
	{ "every instruction of real objects at objdump's length", objdump_agrees },
	{ "registers written: known encodings", writes_known },
	{ "registers written: objdump's operands over real objects", writes_objdump },
	{ "immediates, displacements, SIB", operands },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_x86insn_suites[] = {
	{ "x86-64 instruction decoder", NULL, NULL, NULL, NULL, x86insn_tests },
	CU_SUITE_INFO_NULL,
};
