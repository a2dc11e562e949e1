// SPDX-License-Identifier: GPL-2.0
/*
 * `cbenchctl insn`'s sequences (object/asmseq.c) and the object written
 * from them (object/asmgen.c): what a sequence is read as, the chain that
 * measures its latency, the copies that measure its throughput, what is
 * refused and why, and the source handed to the assembler.  Nothing is
 * assembled or run here: tests/run/insn.sh does that.
 */
#include <CUnit/CUnit.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine/uarch.h"
#include "object/asmgen.h"
#include "object/asmseq.h"

static struct cbench_asm_seq seq;
static char why[512], how[256], held[160], out[8192];

static int parse(const char *text)
{
	return cbench_asm_parse(text, &seq, why, sizeof(why));
}

/* A user-mode target with the features of a Golden Cove server. */
static const struct cbench_asm_target golden_cove = {
	.ring0 = false, .avx_usable = true, .avx512_usable = true,
	.features = CBENCH_FEAT_SSE42 | CBENCH_FEAT_POPCNT | CBENCH_FEAT_AVX | CBENCH_FEAT_FMA |
		    CBENCH_FEAT_AVX2 | CBENCH_FEAT_AVX512F | CBENCH_FEAT_LZCNT | CBENCH_FEAT_BMI1 |
		    CBENCH_FEAT_BMI2 | CBENCH_FEAT_AVX512_VNNI | CBENCH_FEAT_AVX_VNNI,
};

static void reading(void)
{
	CU_ASSERT_EQUAL(parse("imul %rbx, %rax"), 0);
	CU_ASSERT_EQUAL(seq.n, 1);
	CU_ASSERT_STRING_EQUAL(seq.insn[0].mnemonic, "imul");
	CU_ASSERT_EQUAL(seq.insn[0].nops, 2);
	CU_ASSERT_TRUE(seq.insn[0].dest_read);
	CU_ASSERT_EQUAL(seq.gpr_written, 1u << 0);
	CU_ASSERT_EQUAL(seq.gpr_named, (1u << 0) | (1u << 3));
	CU_ASSERT_EQUAL(parse("lock addq $1, 8(%rbx,%rcx,4)  # a comment"), 0);
	CU_ASSERT_STRING_EQUAL(seq.insn[0].mnemonic, "addq");
	CU_ASSERT_EQUAL(seq.insn[0].op[1].kind, CBENCH_OP_MEM);
	CU_ASSERT_EQUAL(seq.insn[0].op[1].base.num, 3);
	CU_ASSERT_EQUAL(seq.insn[0].op[1].index.num, 1);
	CU_ASSERT_EQUAL(parse("popcnt %rbx, %rax; vaddpd %ymm1, %ymm2, %ymm0\n1:\nvfmadd231pd %zmm1, %zmm2, %zmm3{%k1}"), 0);
	CU_ASSERT_EQUAL(seq.n, 4);
	CU_ASSERT_FALSE(seq.insn[0].dest_read);		/* popcnt only writes it */
	CU_ASSERT_FALSE(seq.insn[1].dest_read);		/* a VEX add: neither */
	CU_ASSERT_TRUE(seq.insn[2].label);
	CU_ASSERT_TRUE(seq.insn[3].dest_read);		/* FMA accumulates */
	CU_ASSERT_TRUE(seq.any_zmm && seq.any_ymm && seq.any_vex);
	CU_ASSERT_EQUAL(parse("div %rcx"), 0);
	CU_ASSERT_TRUE(seq.implicit);
	CU_ASSERT_EQUAL(parse("adc %rbx, %rax"), 0);
	CU_ASSERT_TRUE(seq.reads_flags);
	CU_ASSERT_EQUAL(parse("  ;  \n"), -EINVAL);
	CU_ASSERT_STRING_EQUAL(why, "no instruction given");
	CU_ASSERT_EQUAL(parse("add %rbx, (%rax"), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "cannot read the operands"));
}

static const char *chain(const char *text)
{
	CU_ASSERT_EQUAL_FATAL(parse(text), 0);
	if (cbench_asm_chain(&seq, out, sizeof(out), how, sizeof(how), why, sizeof(why)))
		return NULL;
	return out;
}

/* The latency chain: as given where the output feeds the input, else a source renamed. */
static void chains(void)
{
	CU_ASSERT_STRING_EQUAL(chain("imul %rbx, %rax"), "imul %rbx, %rax\n");
	CU_ASSERT_PTR_NOT_NULL(strstr(how, "a source too"));
	CU_ASSERT_STRING_EQUAL(chain("popcnt %rbx, %rax"), "popcnt %rax, %rax\n");
	CU_ASSERT_STRING_EQUAL(chain("lea 8(%rax,%rbx,8), %rcx"), "lea 8(%rcx,%rbx,8), %rcx\n");
	CU_ASSERT_STRING_EQUAL(chain("mov 8(%rbx), %eax"), "mov 8(%rax), %eax\n");
	CU_ASSERT_STRING_EQUAL(chain("vaddpd %ymm1, %ymm2, %ymm0"), "vaddpd %ymm0, %ymm2, %ymm0\n");
	/* Only the first source: the second stays, so no zero idiom is made. */
	CU_ASSERT_STRING_EQUAL(chain("vpxor %xmm1, %xmm1, %xmm0"), "vpxor %xmm0, %xmm1, %xmm0\n");
	CU_ASSERT_STRING_EQUAL(chain("imul $3, %rbx, %rax"), "imul $3, %rax, %rax\n");
	CU_ASSERT_STRING_EQUAL(chain("div %rcx"), "div %rcx\n");
	CU_ASSERT_STRING_EQUAL(chain("rdmsr"), "rdmsr\n");
	CU_ASSERT_PTR_NOT_NULL(strstr(how, "implicit"));
	/* A sequence is repeated as given. */
	CU_ASSERT_STRING_EQUAL(chain("imul %rbx, %rax; add %rcx, %rax"), "imul %rbx, %rax\nadd %rcx, %rax\n");
	CU_ASSERT_PTR_NOT_NULL(strstr(how, "as given"));
	/* Nothing to chain through. */
	CU_ASSERT_PTR_NULL(chain("mov %rax, (%rbx)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "writes no register"));
	CU_ASSERT_PTR_NULL(chain("cvtsi2sd %rax, %xmm0"));
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "no source of its destination's kind"));
}

static int copies(const char *text, int max, int avoid)
{
	int n = 0;

	CU_ASSERT_EQUAL_FATAL(parse(text), 0);
	if (cbench_asm_copies(&seq, max, avoid, 32, out, sizeof(out), &n, held, sizeof(held), why,
			      sizeof(why)))
		return -1;
	return n;
}

/* Independent copies: written registers renamed apart, memory operands apart. */
static void throughput_copies(void)
{
	CU_ASSERT_EQUAL(copies("imul %rbx, %rax", 3, 15), 3);
	CU_ASSERT_STRING_EQUAL(out, "imul %rbx, %rax\nimul %rbx, %rcx\nimul %rbx, %rdx\n");
	/* Never the loop counter, %rsp, %rbp nor a register the sequence reads. */
	CU_ASSERT_EQUAL(copies("add %rbx, %rax", 20, 15), 12);
	CU_ASSERT_PTR_NULL(strstr(out, "%r15"));
	CU_ASSERT_PTR_NULL(strstr(out, "%rsp"));
	CU_ASSERT_PTR_NULL(strstr(out, "%rbp"));
	CU_ASSERT_EQUAL(copies("mov 8(%rbx), %eax", 3, -1), 3);
	CU_ASSERT_STRING_EQUAL(out, "mov 8(%rbx), %eax\nmov 16(%rbx), %ecx\nmov 24(%rbx), %edx\n");
	CU_ASSERT_EQUAL(copies("add %rax, (%rbx)", 2, -1), 2);
	CU_ASSERT_STRING_EQUAL(out, "add %rax, (%rbx)\nadd %rax, 8(%rbx)\n");
	CU_ASSERT_EQUAL(copies("vaddpd -64(%rbx), %zmm1, %zmm0", 2, -1), 2);
	CU_ASSERT_STRING_EQUAL(out, "vaddpd -64(%rbx), %zmm1, %zmm0\nvaddpd 0(%rbx), %zmm1, %zmm2\n");
	CU_ASSERT_EQUAL(copies("vaddpd %ymm1, %ymm2, %ymm0", 40, -1), 30);
	CU_ASSERT_STRING_EQUAL(held, "");
	/* A source naming the destination of an instruction that only writes
	 * it reads a register no copy writes: no copy is a chain through itself. */
	CU_ASSERT_EQUAL(copies("mov (%rax), %rax", 3, 15), 3);
	CU_ASSERT_STRING_EQUAL(out, "mov (%r14), %rax\nmov 8(%r14), %rcx\nmov 16(%r14), %rdx\n");
	CU_ASSERT_PTR_NOT_NULL(strstr(held, "%rax read %r14"));
	CU_ASSERT_EQUAL(copies("lea 8(%rax,%rbx), %eax", 2, 15), 2);
	CU_ASSERT_STRING_EQUAL(out, "lea 8(%r14,%rbx), %eax\nlea 16(%r14,%rbx), %ecx\n");
	CU_ASSERT_EQUAL(copies("vaddpd %ymm1, %ymm0, %ymm0", 2, -1), 2);
	CU_ASSERT_STRING_EQUAL(out, "vaddpd %ymm1, %ymm31, %ymm0\nvaddpd %ymm1, %ymm31, %ymm2\n");
	/* Its destination a source by nature (add): each copy its own chain. */
	CU_ASSERT_EQUAL(copies("add %rax, %rax", 2, -1), 2);
	CU_ASSERT_STRING_EQUAL(out, "add %rax, %rax\nadd %rcx, %rcx\n");
	CU_ASSERT_STRING_EQUAL(held, "");
	/* Every register a sequence writes, consistently within a copy. */
	CU_ASSERT_EQUAL(copies("imul %rbx, %rax; add %rax, %rcx", 2, -1), 2);
	CU_ASSERT_STRING_EQUAL(out, "imul %rbx, %rax\nadd %rax, %rcx\nimul %rbx, %rdx\nadd %rdx, %rsi\n");
	/* What cannot be renamed says so. */
	CU_ASSERT_EQUAL(copies("div %rcx", 4, -1), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "operands its text does not name"));
	CU_ASSERT_EQUAL(copies("add %bl, %ah", 4, -1), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "no others of its kind"));
}

static int check(const char *text, const struct cbench_asm_target *t, bool *ring0_only)
{
	CU_ASSERT_EQUAL_FATAL(parse(text), 0);
	return cbench_asm_check(&seq, t, ring0_only, why, sizeof(why));
}

static void refusals(void)
{
	struct cbench_asm_target ring0 = golden_cove, old = golden_cove;
	bool r0;

	ring0.ring0 = true;
	old.features = CBENCH_FEAT_SSE42 | CBENCH_FEAT_POPCNT;
	old.avx_usable = old.avx512_usable = false;
	CU_ASSERT_EQUAL(check("imul %rbx, %rax; vfmadd231pd %zmm1, %zmm2, %zmm0", &golden_cove, &r0), 0);
	CU_ASSERT_FALSE(r0);
	/* Privileged: user mode refuses, ring 0 runs it (its rehearsal skips it). */
	CU_ASSERT_EQUAL(check("rdmsr", &golden_cove, &r0), -EPERM);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "privileged"));
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "--backend kmod"));
	CU_ASSERT_EQUAL(check("rdmsr", &ring0, &r0), 0);
	CU_ASSERT_TRUE(r0);
	/* Never, at any privilege. */
	CU_ASSERT_EQUAL(check("wrmsr", &ring0, &r0), -EPERM);
	CU_ASSERT_EQUAL(check("hlt", &ring0, &r0), -EPERM);
	CU_ASSERT_EQUAL(check("push %rax", &golden_cove, &r0), -EPERM);
	CU_ASSERT_EQUAL(check("mov %rax, %cr3", &ring0, &r0), -EPERM);
	CU_ASSERT_EQUAL(check("jmp elsewhere", &golden_cove, &r0), -EPERM);
	CU_ASSERT_EQUAL(check("mov %rsp, %rax", &golden_cove, &r0), -EPERM);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "%rsp"));
	CU_ASSERT_EQUAL(check("dec %rcx; jnz 1b", &golden_cove, &r0), 0);	/* a local jump */
	CU_ASSERT_EQUAL(check("popcnt %rbx, %rax", &golden_cove, &r0), 0);	/* not pop */
	/* What this CPU lacks. */
	CU_ASSERT_EQUAL(check("lzcnt %rbx, %rax", &old, &r0), -ENOTSUP);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "needs LZCNT, which this CPU lacks (CPUID)"));
	CU_ASSERT_EQUAL(check("vaddpd %zmm1, %zmm2, %zmm0", &old, &r0), -ENOTSUP);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "AVX512F"));
	CU_ASSERT_EQUAL(check("vp2intersectd %zmm1, %zmm2, %k2", &golden_cove, &r0), -ENOTSUP);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "AVX512-VP2INTERSECT"));
	old.features |= CBENCH_FEAT_AVX | CBENCH_FEAT_AVX512F;
	CU_ASSERT_EQUAL(check("vaddpd %zmm1, %zmm2, %zmm0", &old, &r0), -ENOTSUP);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "the kernel does not enable (XCR0)"));
}

static void counter(void)
{
	CU_ASSERT_EQUAL(parse("add %rbx, %rax"), 0);
	CU_ASSERT_EQUAL(cbench_asm_free_gpr(&seq), 15);
	CU_ASSERT_EQUAL(parse("add %r15, %r14"), 0);
	CU_ASSERT_EQUAL(cbench_asm_free_gpr(&seq), 13);
	CU_ASSERT_EQUAL(parse("add %r8, %r9; add %r10, %r11; add %r12, %r13; add %r14, %r15; "
			      "add %rax, %rbx; add %rcx, %rdx; add %rsi, %rdi"), 0);
	CU_ASSERT_EQUAL(cbench_asm_free_gpr(&seq), -1);
}

/* The source written for the assembler: prologue, registers set, the loop, and its C side. */
static void object_source(void)
{
	struct cbench_asm_kernel k = { .name = "s0_lat1", .instance = "imul %rbx, %rax\n",
				       .instances = 100, .init = "xor %edx, %edx", .counter = 15 };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(cbench_asm_write(f, &k, 1), 0);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"\\tmov %rdi, %r15\\n\""));
	/* Legacy code: its vectors set with legacy SSE, the upper halves cleaned where there are any. */
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"\\tcmpq $0, 32832(%rsi)\\n\"\n\t\"\\tje .Lcbench_sse_s0_lat1\\n\"\n"
				      "\t\"\\tvzeroupper\\n\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"\\tmovupd 32768(%rsi), %xmm15\\n\""));
	CU_ASSERT_PTR_NULL(strstr(text, "%zmm"));
	CU_ASSERT_PTR_NULL(strstr(text, "mov %rsi, %r15"));		/* the counter keeps reps */
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"\\txor %edx, %edx\\n\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"\\t.rept 100\\n\"\n\t\"\\timul %rbx, %rax\\n\"\n\t\"\\t.endr\\n\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"\\tdec %r15\\n\"\n\t\"\\tjnz .Lcbench_loop_s0_lat1\\n\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "word[8200] = (lo & 0xe6) == 0xe6 ? 2 : (lo & 6) == 6;"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "CBENCH(s0_lat1, .setup = scratch_setup, .arena_bytes = 65664, "
				      ".ops_per_rep = 1);"));
	CU_ASSERT_PTR_NULL(strstr(text, "%cs"));			/* not privileged */
	free(text);
	/* VEX code: EVEX, VEX or SSE as the CPU allows; a privileged one tests its CPL. */
	k.vex = true;
	k.ring0_only = true;
	k.counter = -1;
	f = open_memstream(&text, &len);
	CU_ASSERT_EQUAL(cbench_asm_write(f, &k, 1), 0);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "vmovupd 32768(%rsi), %zmm31"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "vmovupd 32768(%rsi), %ymm15"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "movupd 32768(%rsi), %xmm15"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "kxnorw %k0, %k0, %k7"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"\\tmov %cs, %eax\\n\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"\\tdecq (%rsp)\\n\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(cbench_header_text, "struct cbench_desc"));
	free(text);
}

static CU_TestInfo asmseq_tests[] = {
	{ "sequences read: mnemonics, operands, what is written and read", reading },
	{ "latency chains", chains },
	{ "throughput copies", throughput_copies },
	{ "refusals: privilege, harness, CPU features", refusals },
	{ "the loop counter's register", counter },
	{ "the object's source", object_source },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_asmseq_suites[] = {
	{ "insn sequences", NULL, NULL, NULL, NULL, asmseq_tests },
	CU_SUITE_INFO_NULL,
};
