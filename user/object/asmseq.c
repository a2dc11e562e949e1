// SPDX-License-Identifier: GPL-2.0
/*
 * Assembly sequences for `cbenchctl insn` (see asmseq.h): read in AT&T
 * syntax, checked against the CPU and the privilege they will run at, and
 * rewritten into a latency chain and into independent copies.
 *
 * We read operands, not semantics: which operand is the destination
 * (AT&T's last), whether the instruction reads it too (add does, mov does
 * not: a short list of the write-only ones, and the VEX and EVEX forms
 * whose destination is a source, FMA, VNNI, ternlog), and which
 * instructions have operands their text does not name.  That is enough to
 * rename registers; it is not enough to know what an instruction computes,
 * and the report shows the code that ran so that a reader can judge.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine/uarch.h"
#include "object/asmseq.h"

static const char *const gpr64[16] = { "rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
				       "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15" };
static const char *const gpr32[16] = { "eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi",
				       "r8d", "r9d", "r10d", "r11d", "r12d", "r13d", "r14d", "r15d" };
static const char *const gpr16[16] = { "ax", "cx", "dx", "bx", "sp", "bp", "si", "di",
				       "r8w", "r9w", "r10w", "r11w", "r12w", "r13w", "r14w", "r15w" };
static const char *const gpr8[16] = { "al", "cl", "dl", "bl", "spl", "bpl", "sil", "dil",
				      "r8b", "r9b", "r10b", "r11b", "r12b", "r13b", "r14b", "r15b" };
static const char *const high8[4] = { "ah", "ch", "dh", "bh" };

#define RSP 4
#define RBP 5

/* The register a name (without its %) is; cls NONE if it is none we know. */
static struct cbench_asm_reg reg_of(const char *name, size_t len)
{
	static const char *const *const widths[4] = { gpr64, gpr32, gpr16, gpr8 };
	static const uint16_t bits[4] = { 64, 32, 16, 8 };
	struct cbench_asm_reg r = { .cls = CBENCH_ASM_NONE };
	char n[16];

	if (!len || len >= sizeof(n))
		return r;
	for (size_t i = 0; i < len; i++)
		n[i] = (char)tolower((unsigned char)name[i]);
	n[len] = '\0';
	for (int w = 0; w < 4; w++) {
		for (int i = 0; i < 16; i++) {
			if (!strcmp(n, widths[w][i]))
				return (struct cbench_asm_reg){ CBENCH_ASM_GPR, (uint8_t)i, bits[w], false };
		}
	}
	for (int i = 0; i < 4; i++) {
		if (!strcmp(n, high8[i]))
			return (struct cbench_asm_reg){ CBENCH_ASM_GPR, (uint8_t)i, 8, true };
	}
	if ((n[0] == 'x' || n[0] == 'y' || n[0] == 'z') && !strncmp(n + 1, "mm", 2) && isdigit(n[3])) {
		int num = n[3] - '0';

		if (isdigit(n[4]))
			num = num * 10 + n[4] - '0';
		if (num < 32 && n[isdigit(n[4]) ? 5 : 4] == '\0')
			return (struct cbench_asm_reg){ CBENCH_ASM_VEC, (uint8_t)num,
							n[0] == 'x' ? 128 : n[0] == 'y' ? 256 : 512, false };
	}
	return (struct cbench_asm_reg){ CBENCH_ASM_OTHER, 0, 0, false };
}

/* The name of register r renamed to number num, its width kept. */
static void reg_name(const struct cbench_asm_reg *r, int num, char *out, size_t len)
{
	if (r->cls == CBENCH_ASM_VEC)
		snprintf(out, len, "%cmm%d", r->bits == 128 ? 'x' : r->bits == 256 ? 'y' : 'z', num & 31);
	else if (r->bits == 64)
		snprintf(out, len, "%s", gpr64[num]);
	else if (r->bits == 32)
		snprintf(out, len, "%s", gpr32[num]);
	else if (r->bits == 16)
		snprintf(out, len, "%s", gpr16[num]);
	else
		snprintf(out, len, "%s", gpr8[num]);
}

static size_t name_len(const char *s)
{
	size_t n = 0;

	while (isalnum((unsigned char)s[n]))
		n++;
	return n;
}

static bool in_list(const char *word, const char *const *list)
{
	for (; *list; list++) {
		size_t n = strlen(*list);

		/* "cmov*": a prefix; otherwise the whole word. */
		if ((*list)[n - 1] == '*' ? !strncmp(word, *list, n - 1) : !strcmp(word, *list))
			return true;
	}
	return false;
}

/* Instructions whose (last) destination they only write. */
static const char *const write_only[] = {
	"mov", "movq", "movl", "movw", "movb", "movabs", "movz*", "movsx*", "movsb*", "movsw*",
	"movslq", "movsl", "lea*", "popcnt*", "lzcnt*", "tzcnt*", "bsf*", "bsr*", "cvt*", "movd",
	"movdq*", "movap*", "movup*", "movmsk*", "pmovmskb", "pmovzx*", "pmovsx*", "set*", "sqrtp*",
	"rcpp*", "rsqrtp*", "roundp*", "pshufd", "pshufhw", "pshuflw", "aeskeygenassist", "pextr*",
	"extractps", "andn*", "bextr*", "blsi*", "blsmsk*", "blsr*", "bzhi*", "pdep*", "pext*",
	"rorx*", "sarx*", "shlx*", "shrx*", "movbe*", "lddqu", "movntdqa", "rdrand*", "rdseed*",
	"rdpid", NULL
};

/* VEX and EVEX forms whose destination is a source as well. */
static const char *const vex_read_dest[] = {
	"vfmadd*", "vfmsub*", "vfnmadd*", "vfnmsub*", "vpdp*", "vdpbf16*", "vpermi2*", "vpermt2*",
	"vpternlog*", "vpmadd52*", "vpshldv*", "vpshrdv*", "vgather*", "vpgather*", "vpcompress*",
	"vcompress*", "vpexpand*", "vexpand*", NULL
};

/* Instructions with register operands their text does not name. */
static const char *const implicit_ops[] = {
	"cwd", "cdq", "cqo", "cbw", "cwde", "cdqe", "cltq", "cqto", "cltd", "cwtl", "cbtw", "cwtd",
	"cpuid", "rdtsc", "rdtscp", "rdpmc", "rdmsr", "wrmsr", "xgetbv", "lods*", "stos*", "cmps*",
	"scas*", "ins", "outs", "loop*", "jrcxz", "jecxz", "xlat*", "cmpxchg*", "pcmpestr*",
	"pcmpistr*", "blendvp*", "pblendvb", "sha256rnds2", "maskmovdqu", "mulx*", "xchg*", "xadd*",
	"rep", "repe", "repne", "lahf", "sahf", NULL
};

/* Instructions that read the flags: copies of them stay chained through them. */
static const char *const flag_readers[] = {
	"adc*", "sbb*", "cmov*", "set*", "rcl*", "rcr*", "adcx*", "adox*", "lahf", "pushf*", NULL
};

static bool implicit(const struct cbench_asm_insn *in)
{
	static const char *const one_op[] = { "mul*", "div*", "idiv*", "imul*", NULL };

	if (in_list(in->mnemonic, implicit_ops))
		return true;
	if (in->nops == 1 && in_list(in->mnemonic, one_op))
		return true;
	/* The string moves (movsb ...) have no operands; movsbl and kin have two. */
	return in->nops == 0 && !strncmp(in->mnemonic, "movs", 4);
}

static void mark(uint32_t *set, const struct cbench_asm_reg *r)
{
	if (r->cls == CBENCH_ASM_GPR || r->cls == CBENCH_ASM_VEC)
		*set |= 1u << r->num;
}

/* "disp(base,index,scale)": its registers. */
static int parse_mem(const char *s, struct cbench_asm_operand *op)
{
	const char *open = strchr(s, '('), *p;

	op->kind = CBENCH_OP_MEM;
	if (!open)
		return 0;
	p = open + 1;
	if (*p == '%') {
		op->base = reg_of(p + 1, name_len(p + 1));
		p += 1 + name_len(p + 1);
	}
	if (*p == ',') {
		p++;
		if (*p == '%')
			op->index = reg_of(p + 1, name_len(p + 1));
	}
	return strchr(open, ')') ? 0 : -EINVAL;
}

static int parse_operand(const char *s, struct cbench_asm_operand *op)
{
	memset(op, 0, sizeof(*op));
	while (isspace((unsigned char)*s))
		s++;
	if (*s == '$') {
		op->kind = CBENCH_OP_IMM;
		return 0;
	}
	if (*s == '%' && !strchr(s, '(') && !strchr(s, ':')) {
		op->kind = CBENCH_OP_REG;
		op->reg = reg_of(s + 1, name_len(s + 1));
		return op->reg.cls == CBENCH_ASM_NONE ? -EINVAL : 0;
	}
	if (*s == '*' || *s == '{') {
		op->kind = CBENCH_OP_OTHER;
		return 0;
	}
	return parse_mem(s, op);
}

/* Splits the operands at the commas outside parentheses and braces. */
static int split_operands(struct cbench_asm_insn *in, const char *rest)
{
	char buf[CBENCH_ASM_TEXT];
	int depth = 0;
	size_t at = 0;

	for (const char *p = rest;; p++) {
		if (*p == '(' || *p == '{')
			depth++;
		else if (*p == ')' || *p == '}')
			depth--;
		if ((*p == ',' && !depth) || !*p) {
			buf[at] = '\0';
			if (at && in->nops == CBENCH_ASM_MAX_OPERANDS)
				return -EINVAL;
			if (at && parse_operand(buf, &in->op[in->nops++]))
				return -EINVAL;
			at = 0;
			if (!*p)
				return 0;
			continue;
		}
		if (at + 1 < sizeof(buf))
			buf[at++] = *p;
	}
}

static const char *const prefixes[] = { "lock", "rep", "repe", "repz", "repne", "repnz", "data16",
					"addr32", "notrack", "{vex}", "{vex3}", "{evex}", NULL };

static bool reads_dest(const struct cbench_asm_insn *in)
{
	if (in->vex && in->nops >= 3)
		return in_list(in->mnemonic, vex_read_dest);
	if (in->nops == 3 && !strncmp(in->mnemonic, "imul", 4))
		return false;
	return !in_list(in->mnemonic, write_only);
}

/* One instruction (or label) of the text. */
static int parse_insn(const char *text, struct cbench_asm_insn *in)
{
	const char *p = text;
	size_t n;

	memset(in, 0, sizeof(*in));
	snprintf(in->text, sizeof(in->text), "%s", text);
	n = strlen(text);
	if (n && text[n - 1] == ':' && !strpbrk(text, " \t,%$")) {
		in->label = true;
		return 0;
	}
	for (;;) {
		n = strcspn(p, " \t");
		snprintf(in->mnemonic, sizeof(in->mnemonic), "%.*s", (int)n, p);
		for (char *c = in->mnemonic; *c; c++)
			*c = (char)tolower((unsigned char)*c);
		p += n;
		p += strspn(p, " \t");
		if (!in_list(in->mnemonic, prefixes) || !*p)
			break;
	}
	in->vex = in->mnemonic[0] == 'v';
	if (split_operands(in, p))
		return -EINVAL;
	in->dest_read = reads_dest(in);
	return 0;
}

/* Every %register the text names, into the sequence's sets. */
static void note_named(struct cbench_asm_seq *seq, const char *text)
{
	for (const char *p = strchr(text, '%'); p; p = strchr(p + 1, '%')) {
		struct cbench_asm_reg r = reg_of(p + 1, name_len(p + 1));

		mark(r.cls == CBENCH_ASM_GPR ? &seq->gpr_named : &seq->vec_named, &r);
		seq->any_zmm |= r.cls == CBENCH_ASM_VEC && r.bits == 512;
		seq->any_ymm |= r.cls == CBENCH_ASM_VEC && r.bits == 256;
	}
}

static void note_insn(struct cbench_asm_seq *seq, const struct cbench_asm_insn *in)
{
	const struct cbench_asm_operand *dest = in->nops ? &in->op[in->nops - 1] : NULL;

	note_named(seq, in->text);
	seq->implicit |= implicit(in);
	seq->reads_flags |= in_list(in->mnemonic, flag_readers);
	seq->any_vex |= in->vex;
	if (dest && dest->kind == CBENCH_OP_REG)
		mark(dest->reg.cls == CBENCH_ASM_GPR ? &seq->gpr_written : &seq->vec_written, &dest->reg);
	/* Both of xchg's and xadd's operands are written. */
	if (in->nops == 2 && in->op[0].kind == CBENCH_OP_REG &&
	    (!strncmp(in->mnemonic, "xchg", 4) || !strncmp(in->mnemonic, "xadd", 4)))
		mark(in->op[0].reg.cls == CBENCH_ASM_GPR ? &seq->gpr_written : &seq->vec_written,
		     &in->op[0].reg);
}

int cbench_asm_parse(const char *text, struct cbench_asm_seq *seq, char *why, size_t why_bytes)
{
	char line[CBENCH_ASM_TEXT];
	const char *p = text;

	memset(seq, 0, sizeof(*seq));
	while (*p) {
		size_t n = strcspn(p, ";\n"), len = n;
		const char *s = p, *hash = memchr(p, '#', n);

		if (hash)
			len = (size_t)(hash - p);
		while (len && isspace((unsigned char)*s))
			s++, len--;
		while (len && isspace((unsigned char)s[len - 1]))
			len--;
		p += n + (p[n] != '\0');
		if (!len)
			continue;
		if (len >= sizeof(line) || seq->n == CBENCH_ASM_MAX_INSNS) {
			if (len >= sizeof(line))
				snprintf(why, why_bytes, "an instruction longer than %zu characters",
					 sizeof(line) - 1);
			else
				snprintf(why, why_bytes, "more than %d instructions", CBENCH_ASM_MAX_INSNS);
			return -EINVAL;
		}
		snprintf(line, sizeof(line), "%.*s", (int)len, s);
		if (parse_insn(line, &seq->insn[seq->n])) {
			snprintf(why, why_bytes, "cannot read the operands of '%s'", line);
			return -EINVAL;
		}
		note_insn(seq, &seq->insn[seq->n++]);
	}
	if (!seq->n) {
		snprintf(why, why_bytes, "no instruction given");
		return -EINVAL;
	}
	return 0;
}

/* Instructions the harness cannot run whatever the privilege: they would
 * leave its stack or its control flow, stop the CPU, or change what the
 * kernel relies on. */
static const char *const never[] = {
	"push*", "pop", "popq", "popw", "popl", "popf*", "call*", "ret*", "lret*", "leave*",
	"enter*", "syscall", "sysenter", "sysexit*", "sysret*", "int", "int1", "int3", "into",
	"iret*", "hlt", "mwait*", "monitor*", "umwait", "umonitor", "tpause", "invd", "wbinvd",
	"wbnoinvd", "ud0", "ud1", "ud2", "lgdt*", "lidt*", "lldt*", "ltr*", "lmsw*", "clts",
	"wrmsr*", "xsetbv", "swapgs", "invlpg*", "invpcid", "cli", "sti", "clac", "stac", "in",
	"inb", "inw", "inl", "out", "outb", "outw", "outl", "ins*", "outs*", "vmcall", "vmlaunch",
	"vmresume", "vmxoff", "vmxon", "vmptrld", "vmptrst", "vmclear", "vmread", "vmwrite",
	"vmfunc", "vmrun", "vmload", "vmsave", "vmmcall", "rsm", "xrstors*", "wrpkru", "senduipi",
	"ljmp*", "lcall*", "jmpq", "ldtilecfg", "sttilecfg", "tile*", "tdp*", "tcmm*", NULL
};

/* Privileged instructions that only read: user mode refuses them, ring 0 runs them. */
static const char *const privileged_reads[] = {
	"rdmsr", "rdpmc", "sgdt*", "sidt*", "sldt*", "str", "smsw*", "xsaves*", NULL
};

/* CPUID features some instructions need, by mnemonic. */
static const struct {
	const char *mnemonic;
	uint32_t feature;
} needs[] = {
	{ "crc32*", CBENCH_FEAT_SSE42 }, { "popcnt*", CBENCH_FEAT_POPCNT },
	{ "lzcnt*", CBENCH_FEAT_LZCNT }, { "tzcnt*", CBENCH_FEAT_BMI1 }, { "andn*", CBENCH_FEAT_BMI1 },
	{ "bextr*", CBENCH_FEAT_BMI1 }, { "blsi*", CBENCH_FEAT_BMI1 }, { "blsmsk*", CBENCH_FEAT_BMI1 },
	{ "blsr*", CBENCH_FEAT_BMI1 }, { "bzhi*", CBENCH_FEAT_BMI2 }, { "pdep*", CBENCH_FEAT_BMI2 },
	{ "pext*", CBENCH_FEAT_BMI2 }, { "rorx*", CBENCH_FEAT_BMI2 }, { "sarx*", CBENCH_FEAT_BMI2 },
	{ "shlx*", CBENCH_FEAT_BMI2 }, { "shrx*", CBENCH_FEAT_BMI2 }, { "mulx*", CBENCH_FEAT_BMI2 },
	{ "adcx*", CBENCH_FEAT_ADX }, { "adox*", CBENCH_FEAT_ADX }, { "aes*", CBENCH_FEAT_AES },
	{ "vaes*", CBENCH_FEAT_AES }, { "sha1*", CBENCH_FEAT_SHA }, { "sha256*", CBENCH_FEAT_SHA },
	{ "gf2p8*", CBENCH_FEAT_GFNI }, { "vgf2p8*", CBENCH_FEAT_GFNI }, { "vfmadd*", CBENCH_FEAT_FMA },
	{ "vfmsub*", CBENCH_FEAT_FMA }, { "vfnmadd*", CBENCH_FEAT_FMA }, { "vfnmsub*", CBENCH_FEAT_FMA },
	{ "vp2intersect*", CBENCH_FEAT_AVX512_VP2INTERSECT }, { "vpdpbusd*", CBENCH_FEAT_AVX512_VNNI },
	{ "vpdpwssd*", CBENCH_FEAT_AVX512_VNNI }, { "vcvtne2ps2bf16", CBENCH_FEAT_AVX512_BF16 },
	{ "vdpbf16ps", CBENCH_FEAT_AVX512_BF16 }, { "vfcmaddcph", CBENCH_FEAT_AVX512_FP16 },
	{ "vaddph", CBENCH_FEAT_AVX512_FP16 }, { "vmulph", CBENCH_FEAT_AVX512_FP16 },
};

static const char *feature_name(uint32_t flag)
{
	for (const struct cbench_feature_name *f = cbench_feature_names; f->name; f++) {
		if (f->flag == flag)
			return f->name;
	}
	return "?";
}

/* The features an instruction needs: its mnemonic's, and its registers' width. */
static uint32_t needed(const struct cbench_asm_insn *in, bool *avx512)
{
	uint32_t f = 0;
	bool zmm = strstr(in->text, "%zmm") || strstr(in->text, "%k") || strchr(in->text, '{');

	for (size_t i = 0; i < sizeof(needs) / sizeof(needs[0]); i++) {
		const char *const one[] = { needs[i].mnemonic, NULL };

		if (in_list(in->mnemonic, one))
			f |= needs[i].feature;
	}
	*avx512 = in->vex && zmm;
	if (!*avx512 && (f & CBENCH_FEAT_AVX512_VNNI))
		f = (f & ~CBENCH_FEAT_AVX512_VNNI) | CBENCH_FEAT_AVX_VNNI;
	if (*avx512)
		f = (f & ~CBENCH_FEAT_FMA) | CBENCH_FEAT_AVX512F;
	else if (in->vex && strstr(in->text, "%ymm") && !strncmp(in->mnemonic, "vp", 2))
		f |= CBENCH_FEAT_AVX2 | CBENCH_FEAT_AVX;
	else if (in->vex)
		f |= CBENCH_FEAT_AVX;
	return f;
}

/* A jump may go to a numeric label of the sequence ("1f", "2b"), nowhere else. */
static bool local_jump(const struct cbench_asm_insn *in)
{
	const char *t = in->text + strlen(in->mnemonic);

	t += strspn(t, " \t");
	return isdigit((unsigned char)*t) && (t[strspn(t, "0123456789")] == 'f' ||
					      t[strspn(t, "0123456789")] == 'b') &&
	       !t[strspn(t, "0123456789") + 1];
}

static int check_insn(const struct cbench_asm_insn *in, const struct cbench_asm_target *t,
		      bool *ring0_only, char *why, size_t why_bytes)
{
	bool avx512 = false;
	uint32_t f = needed(in, &avx512);

	if (in_list(in->mnemonic, never) || (in->mnemonic[0] == 'j' && !local_jump(in)) ||
	    strstr(in->text, "%cr") || strstr(in->text, "%dr")) {
		snprintf(why, why_bytes, "'%s' would leave the harness's stack or control flow, stop "
			 "the CPU or change the kernel's state: cbench runs no such instruction", in->text);
		return -EPERM;
	}
	if (in_list(in->mnemonic, privileged_reads)) {
		if (!t->ring0) {
			snprintf(why, why_bytes, "'%s' is privileged: it faults in user mode; measure it "
				 "in ring 0 (--backend kmod)", in->text);
			return -EPERM;
		}
		*ring0_only = true;
	}
	if ((f & t->features) != f || (avx512 && !t->avx512_usable) ||
	    ((f & CBENCH_FEAT_AVX) && !t->avx_usable)) {
		uint32_t missing = f & ~t->features;

		snprintf(why, why_bytes, "'%s' needs %s, which this CPU %s", in->text,
			 missing ? feature_name(missing & -missing) : avx512 ? "AVX-512" : "AVX",
			 missing ? "lacks (CPUID)" : "has but the kernel does not enable (XCR0)");
		return -ENOTSUP;
	}
	return 0;
}

int cbench_asm_check(const struct cbench_asm_seq *seq, const struct cbench_asm_target *target,
		     bool *ring0_only, char *why, size_t why_bytes)
{
	*ring0_only = false;
	if (seq->gpr_named & (1u << RSP)) {
		snprintf(why, why_bytes, "the sequence names %%rsp (or %%esp, %%sp, %%spl), the "
			 "harness's stack pointer");
		return -EPERM;
	}
	for (int i = 0; i < seq->n; i++) {
		int ret;

		if (seq->insn[i].label)
			continue;
		ret = check_insn(&seq->insn[i], target, ring0_only, why, why_bytes);
		if (ret)
			return ret;
	}
	return 0;
}

/* A renaming: register number from -> to, by class; -1 keeps it. */
struct rename {
	int gpr[16], vec[32];
	int only_at;		/* rename only the only_at-th register token; -1: every one */
	long disp;		/* added to the displacement of each memory operand */
	/* Sources before token dest_token naming register from (of class cls)
	 * read register to instead; cls CBENCH_ASM_NONE: none do. */
	struct {
		int cls, from, to, dest_token;
	} held;
};

static void no_rename(struct rename *r)
{
	memset(r->gpr, -1, sizeof(r->gpr));
	memset(r->vec, -1, sizeof(r->vec));
	r->only_at = -1;
	r->disp = 0;
	r->held.cls = CBENCH_ASM_NONE;
}

/*
 * Out holds an instruction up to a memory operand's '(' (at): its
 * displacement, the number just before, moves by add.  Absolute and
 * RIP-relative operands, and symbols, are left as they are.
 */
static size_t move_displacement(char *out, size_t at, size_t len, long add, const char *rest)
{
	size_t start = at;
	char *end;
	long disp = 0;

	if (!add || !strncmp(rest, "(%rip", 5))
		return at;
	out[at] = '\0';	/* strtol must not read on into what out held before */
	while (start && (isxdigit((unsigned char)out[start - 1]) || out[start - 1] == 'x' ||
			 out[start - 1] == '-'))
		start--;
	if (start < at) {
		disp = strtol(out + start, &end, 0);
		if (end != out + at)
			return at;
	}
	if (start && !strchr(" \t,", out[start - 1]))
		return at;
	return start + (size_t)snprintf(out + start, len - start, "%ld", disp + add);
}

/* An instruction's text with its registers renamed, appended to out. */
static void render(const struct cbench_asm_insn *in, const struct rename *rn, char *out, size_t len)
{
	size_t at = strlen(out);
	int token = 0;

	for (const char *p = in->text; *p && at + 1 < len;) {
		size_t n = *p == '%' ? name_len(p + 1) : 0;
		struct cbench_asm_reg r = reg_of(p + 1, n);
		int to = -1;

		if (*p == '(')
			at = move_displacement(out, at, len, rn->disp, p);
		if (*p != '%' || r.cls == CBENCH_ASM_NONE || r.cls == CBENCH_ASM_OTHER || r.high_byte) {
			out[at++] = *p++;
			continue;
		}
		if (rn->only_at < 0 || rn->only_at == token)
			to = r.cls == CBENCH_ASM_GPR ? rn->gpr[r.num] : rn->vec[r.num];
		if ((int)r.cls == rn->held.cls && r.num == rn->held.from && token < rn->held.dest_token)
			to = rn->held.to;
		token++;
		if (to < 0) {
			at += (size_t)snprintf(out + at, len - at, "%%%.*s", (int)n, p + 1);
		} else {
			char name[16];

			reg_name(&r, to, name, sizeof(name));
			at += (size_t)snprintf(out + at, len - at, "%%%s", name);
		}
		p += 1 + n;
		if (at >= len)
			at = len - 1;
	}
	out[at] = '\0';
	if (at + 1 < len)
		strcat(out, "\n");
}

void cbench_asm_render(const struct cbench_asm_seq *seq, char *out, size_t out_bytes)
{
	struct rename rn;

	no_rename(&rn);
	*out = '\0';
	for (int i = 0; i < seq->n; i++)
		render(&seq->insn[i], &rn, out, out_bytes);
}

/* The sequence's one instruction, or NULL if it has several (or labels). */
static const struct cbench_asm_insn *single(const struct cbench_asm_seq *seq)
{
	return seq->n == 1 && !seq->insn[0].label ? &seq->insn[0] : NULL;
}

/* The register tokens operand o holds, as render() counts them: renameable registers only. */
static int tokens_of(const struct cbench_asm_operand *o)
{
	if (o->kind == CBENCH_OP_REG)
		return (o->reg.cls == CBENCH_ASM_GPR || o->reg.cls == CBENCH_ASM_VEC) && !o->reg.high_byte;
	if (o->kind == CBENCH_OP_MEM)
		return (o->base.cls == CBENCH_ASM_GPR) + (o->index.cls == CBENCH_ASM_GPR);
	return 0;
}

/* The register token (counting from 0) that is the first source of dest's class. */
static int chain_source(const struct cbench_asm_insn *in, const struct cbench_asm_reg *dest)
{
	int token = 0;

	for (int i = 0; i < in->nops - 1; i++) {
		const struct cbench_asm_operand *o = &in->op[i];

		if (o->kind == CBENCH_OP_REG && o->reg.cls == dest->cls && !o->reg.high_byte)
			return token;
		if (o->kind == CBENCH_OP_MEM && o->base.cls == CBENCH_ASM_GPR && dest->cls == CBENCH_ASM_GPR)
			return token;
		token += tokens_of(o);
	}
	return -1;
}

/* The register token (as render() counts them) of in's last operand. */
static int last_token(const struct cbench_asm_insn *in)
{
	int token = 0;

	for (int i = 0; i < in->nops - 1; i++)
		token += tokens_of(&in->op[i]);
	return token;
}

int cbench_asm_chain(const struct cbench_asm_seq *seq, char *out, size_t out_bytes, char *how,
		     size_t how_bytes, char *why, size_t why_bytes)
{
	const struct cbench_asm_insn *in = single(seq);
	const struct cbench_asm_reg *dest;
	struct rename rn;
	int token;

	no_rename(&rn);
	*out = '\0';
	if (!in) {
		cbench_asm_render(seq, out, out_bytes);
		snprintf(how, how_bytes, "the sequence as given, repeated: its latency is that of "
			 "the chain its output makes to its input");
		return 0;
	}
	if (implicit(in)) {
		render(in, &rn, out, out_bytes);
		snprintf(how, how_bytes, "its operands are implicit: repeated as given, a chain only "
			 "where its outputs feed its inputs");
		return 0;
	}
	dest = in->nops ? &in->op[in->nops - 1].reg : NULL;
	if (!dest || in->op[in->nops - 1].kind != CBENCH_OP_REG || dest->cls == CBENCH_ASM_OTHER) {
		snprintf(why, why_bytes, "it writes no register to chain through (a store, a compare): "
			 "give a sequence whose output feeds its input");
		return -EINVAL;
	}
	if (in->dest_read) {
		render(in, &rn, out, out_bytes);
		snprintf(how, how_bytes, "its destination is a source too: repeated as given");
		return 0;
	}
	token = chain_source(in, dest);
	if (token < 0 || dest->high_byte) {
		snprintf(why, why_bytes, "no source of its destination's kind to chain through: give a "
			 "sequence whose output feeds its input");
		return -EINVAL;
	}
	rn.only_at = token;
	for (int i = 0; i < 32; i++) {
		if (i < 16)
			rn.gpr[i] = dest->cls == CBENCH_ASM_GPR ? dest->num : -1;
		rn.vec[i] = dest->cls == CBENCH_ASM_VEC ? dest->num : -1;
	}
	render(in, &rn, out, out_bytes);
	snprintf(how, how_bytes, "it only writes its destination: its first source of that kind "
		 "renamed to it");
	return 0;
}

int cbench_asm_free_gpr(const struct cbench_asm_seq *seq)
{
	static const int order[] = { 15, 14, 13, 12, 11, 10, 9, 8, 3, 6, 7, 1, 2, 0 };

	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		int r = order[i];

		if (seq->gpr_named & (1u << r))
			continue;
		/* Instructions with implicit operands may use the legacy registers unnamed. */
		if (seq->implicit && r < 8)
			continue;
		return r;
	}
	return -1;
}

static int count_bits(uint32_t x)
{
	int n = 0;

	for (; x; x &= x - 1)
		n++;
	return n;
}

/* Hands copy k its registers for each written one: from free, in order. */
static void assign(uint32_t written, uint32_t *free_set, int *map, int nregs)
{
	for (int r = 0; r < nregs; r++) {
		if (!(written & (1u << r)))
			continue;
		for (int f = 0; f < nregs; f++) {
			if (*free_set & (1u << f)) {
				map[r] = f;
				*free_set &= ~(1u << f);
				break;
			}
		}
	}
}

static int copies_refused(const struct cbench_asm_seq *seq, char *why, size_t why_bytes)
{
	for (int i = 0; i < seq->n; i++) {
		const struct cbench_asm_operand *d;

		if (!seq->insn[i].nops)
			continue;
		d = &seq->insn[i].op[seq->insn[i].nops - 1];
		if (d->kind == CBENCH_OP_REG &&
		    (d->reg.high_byte || d->reg.cls == CBENCH_ASM_OTHER)) {
			snprintf(why, why_bytes, "'%s' writes a register that has no others of its kind to "
				 "rename it to", seq->insn[i].text);
			return -EINVAL;
		}
	}
	if (seq->implicit) {
		snprintf(why, why_bytes, "an instruction of it has operands its text does not name "
			 "(mul, div, cpuid, string instructions, ...), which cannot be renamed");
		return -EINVAL;
	}
	return 0;
}

/*
 * One instruction that only writes its destination but names it as a
 * source too (mov (%rax), %rax; vaddpd %ymm1, %ymm0, %ymm0) would make
 * each copy a chain through itself, and its throughput a latency over the
 * copies (a load's 5 cycles over 12 copies: 0.42, where three load ports
 * give 0.33).  Its sources read a register of their own no copy writes,
 * taken from the free ones (the last), holding what every register holds.
 */
static void held_source(const struct cbench_asm_seq *seq, struct rename *held, uint32_t *free_gpr,
			uint32_t *free_vec)
{
	const struct cbench_asm_insn *in = single(seq);
	const struct cbench_asm_reg *dest;
	uint32_t *set;
	int dest_token;

	no_rename(held);
	if (!in || implicit(in) || in->dest_read || !in->nops || in->op[in->nops - 1].kind != CBENCH_OP_REG)
		return;
	dest = &in->op[in->nops - 1].reg;
	if (dest->high_byte || (dest->cls != CBENCH_ASM_GPR && dest->cls != CBENCH_ASM_VEC))
		return;
	set = dest->cls == CBENCH_ASM_GPR ? free_gpr : free_vec;
	dest_token = last_token(in);
	for (int i = 0; i < in->nops - 1; i++) {
		const struct cbench_asm_operand *o = &in->op[i];
		bool names = o->kind == CBENCH_OP_REG ? o->reg.cls == dest->cls && o->reg.num == dest->num :
			     o->kind == CBENCH_OP_MEM && dest->cls == CBENCH_ASM_GPR &&
			     ((o->base.cls == CBENCH_ASM_GPR && o->base.num == dest->num) ||
			      (o->index.cls == CBENCH_ASM_GPR && o->index.num == dest->num));

		if (!names || !*set)
			continue;
		held->held.cls = dest->cls;
		held->held.from = dest->num;
		held->held.to = 31 - __builtin_clz(*set);
		held->held.dest_token = dest_token;
		*set &= ~(1u << held->held.to);
		return;
	}
}

int cbench_asm_copies(const struct cbench_asm_seq *seq, int max, int avoid, int nvec, char *out,
		      size_t out_bytes, int *copies, char *held_how, size_t held_bytes, char *why,
		      size_t why_bytes)
{
	uint32_t free_gpr = 0xffffu & ~seq->gpr_named & ~(1u << RSP) & ~(1u << RBP);
	uint32_t free_vec = (nvec >= 32 ? ~0u : 0xffffu) & ~seq->vec_named;
	struct rename held;
	int wg = count_bits(seq->gpr_written), wv = count_bits(seq->vec_written), n;

	*out = '\0';
	if (copies_refused(seq, why, why_bytes))
		return -EINVAL;
	if (avoid >= 0)
		free_gpr &= ~(1u << avoid);
	held_source(seq, &held, &free_gpr, &free_vec);
	n = max;
	if (wg && 1 + count_bits(free_gpr) / wg < n)
		n = 1 + count_bits(free_gpr) / wg;
	if (wv && 1 + count_bits(free_vec) / wv < n)
		n = 1 + count_bits(free_vec) / wv;
	/* A sequence that writes no register: every copy is independent as given. */
	if ((wg || wv) && n < 2) {
		snprintf(why, why_bytes, "too few registers left to rename its %d written ones for a "
			 "second copy", wg + wv);
		return -EINVAL;
	}
	for (int k = 0; k < n; k++) {
		struct rename rn;

		no_rename(&rn);
		rn.held = held.held;
		/*
		 * Each copy's memory at an address of its own, so that no copy waits
		 * on another's store: 8 bytes apart, which on Golden Cove keeps
		 * loads at three a cycle (one address for all took 0.5 cycles a
		 * load, a line each 0.55); a line apart for vectors, which would
		 * otherwise split lines.
		 */
		rn.disp = (seq->vec_named ? 64L : 8L) * k;
		if (k) {
			assign(seq->gpr_written, &free_gpr, rn.gpr, 16);
			assign(seq->vec_written, &free_vec, rn.vec, 32);
		}
		for (int i = 0; i < seq->n; i++)
			render(&seq->insn[i], &rn, out, out_bytes);
	}
	*copies = n;
	*held_how = '\0';
	if (held.held.cls != CBENCH_ASM_NONE) {
		const struct cbench_asm_reg *d = &seq->insn[0].op[seq->insn[0].nops - 1].reg;
		struct cbench_asm_reg to = *d;
		char from_name[16], to_name[16];

		to.num = (uint8_t)held.held.to;
		reg_name(d, d->num, from_name, sizeof(from_name));
		reg_name(&to, to.num, to_name, sizeof(to_name));
		snprintf(held_how, held_bytes, "its sources that named its destination %%%s read %%%s, "
			 "which no copy writes, so that no copy waits on itself", from_name, to_name);
	}
	return 0;
}
