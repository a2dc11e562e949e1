// SPDX-License-Identifier: GPL-2.0
/*
 * `cbenchctl insn`'s benchmark object (see asmgen.h): its source, and its
 * build by the C compiler and the GNU assembler, which the machine that
 * measures must have (binutils' as, driven by gcc or clang).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "object/asmgen.h"

#ifndef CBENCH_KERNEL_CFLAGS
#define CBENCH_KERNEL_CFLAGS "-fPIC -nostdlib -ffreestanding -fno-stack-protector -mno-red-zone"
#endif
#ifndef CBENCH_KERNEL_LIBS
#define CBENCH_KERNEL_LIBS "-shared -nostdlib -Wl,-z,now -Wl,-z,defs"
#endif

static const char *const gprs[16] = { "rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
				      "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15" };

/* Lines of assembly as a C string's lines, each "\t<line>\n". */
static void asm_lines(FILE *f, const char *text)
{
	while (text && *text) {
		size_t n = strcspn(text, "\n");

		fputs("\t\"\\t", f);
		for (size_t i = 0; i < n; i++) {
			if (text[i] == '"' || text[i] == '\\')
				fputc('\\', f);
			fputc(text[i], f);
		}
		fputs("\\n\"\n", f);
		text += n + (text[n] == '\n');
	}
}

static void asm_line(FILE *f, const char *line)
{
	asm_lines(f, line);
}

/* The word of the scratch area where setup() leaves what the vector registers may be. */
#define VECTOR_STATE (CBENCH_ASM_SCRATCH_BYTES / 2 + 64)

/* The vector registers set one way: width 'z', 'y' or 'x'. */
static void vector_set(FILE *f, const char *op, char width, int n)
{
	char line[64];

	for (int i = 0; i < n; i++) {
		snprintf(line, sizeof(line), "%s %d(%%rsi), %%%cmm%d", op, CBENCH_ASM_SCRATCH_BYTES / 2,
			 width, i);
		asm_line(f, line);
	}
}

/*
 * Every vector register to 1.0 a lane: with EVEX or VEX where the kernel
 * uses them and the CPU and the kernel allow it, else with legacy SSE,
 * the upper halves cleaned first where there are any (legacy SSE after
 * dirty upper halves waits on them).  What the CPU allows is asked at run
 * time (setup() leaves it in the scratch area), so the object is the
 * same whichever machine built it.
 */
static void vector_setup(FILE *f, const struct cbench_asm_kernel *k)
{
	char line[160];

	snprintf(line, sizeof(line), "cmpq $0, %d(%%rsi)\nje .Lcbench_sse_%s\nvzeroupper", VECTOR_STATE,
		 k->name);
	asm_lines(f, line);
	if (k->vex) {
		snprintf(line, sizeof(line), "cmpq $2, %d(%%rsi)\njne .Lcbench_avx_%s", VECTOR_STATE,
			 k->name);
		asm_lines(f, line);
		vector_set(f, "vmovupd", 'z', 32);
		for (int i = 1; i < 8; i++) {
			snprintf(line, sizeof(line), "kxnorw %%k0, %%k0, %%k%d", i);
			asm_line(f, line);
		}
		snprintf(line, sizeof(line), "jmp .Lcbench_set_%s\n.Lcbench_avx_%s:", k->name, k->name);
		asm_lines(f, line);
		vector_set(f, "vmovupd", 'y', 16);
		snprintf(line, sizeof(line), "jmp .Lcbench_set_%s", k->name);
		asm_line(f, line);
	}
	snprintf(line, sizeof(line), ".Lcbench_sse_%s:", k->name);
	asm_line(f, line);
	vector_set(f, "movupd", 'x', 16);
	snprintf(line, sizeof(line), ".Lcbench_set_%s:", k->name);
	asm_line(f, line);
}

/* The function's entry: callee-saved registers kept, the counter, the registers set. */
static void prologue(FILE *f, const struct cbench_asm_kernel *k)
{
	char line[64];

	fprintf(f, "__asm__(\n\t\".text\\n\"\n\t\".p2align 6\\n\"\n\t\".globl cbench_insn_%s\\n\"\n"
		"\t\".hidden cbench_insn_%s\\n\"\n\t\".type cbench_insn_%s, @function\\n\"\n"
		"\t\"cbench_insn_%s:\\n\"\n", k->name, k->name, k->name, k->name);
	/* Two words on the stack: the loop counter, if no register is free, and the vector state. */
	asm_lines(f, "push %rbp\npush %rbx\npush %r12\npush %r13\npush %r14\npush %r15\nsub $24, %rsp");
	snprintf(line, sizeof(line), "mov %d(%%rsi), %%rax\nmov %%rax, 8(%%rsp)", VECTOR_STATE);
	asm_lines(f, line);
	if (k->ring0_only) {
		snprintf(line, sizeof(line), "mov %%cs, %%eax\ntest $3, %%eax\njnz .Lcbench_end_%s", k->name);
		asm_lines(f, line);
	}
	if (k->counter >= 0)
		snprintf(line, sizeof(line), "mov %%rdi, %%%s", gprs[k->counter]);
	else
		snprintf(line, sizeof(line), "mov %%rdi, (%%rsp)");
	asm_line(f, line);
	vector_setup(f, k);
	for (int r = 0; r < 16; r++) {
		if (r == 4 || r == 6 || r == k->counter)
			continue;
		snprintf(line, sizeof(line), "mov %%rsi, %%%s", gprs[r]);
		asm_line(f, line);
	}
}

static void kernel_asm(FILE *f, const struct cbench_asm_kernel *k)
{
	char line[160];

	prologue(f, k);
	asm_lines(f, k->init);
	asm_line(f, ".p2align 6");
	snprintf(line, sizeof(line), ".Lcbench_loop_%s:", k->name);
	asm_line(f, line);
	snprintf(line, sizeof(line), ".rept %d", k->instances);
	asm_line(f, line);
	asm_lines(f, k->instance);
	asm_line(f, ".endr");
	if (k->counter >= 0)
		snprintf(line, sizeof(line), "dec %%%s\njnz .Lcbench_loop_%s", gprs[k->counter], k->name);
	else
		snprintf(line, sizeof(line), "decq (%%rsp)\njnz .Lcbench_loop_%s", k->name);
	asm_lines(f, line);
	snprintf(line, sizeof(line), ".Lcbench_end_%s:\ncmpq $0, %d(%%rsp)\nje .Lcbench_out_%s\n"
		 "vzeroupper\n.Lcbench_out_%s:", k->name, 8, k->name, k->name);
	asm_lines(f, line);
	asm_lines(f, "add $24, %rsp\npop %r15\npop %r14\npop %r13\npop %r12\npop %rbx\npop %rbp\nret");
	fprintf(f, "\t\".size cbench_insn_%s, .-cbench_insn_%s\\n\"\n);\n\n", k->name, k->name);
}

int cbench_asm_write(FILE *f, const struct cbench_asm_kernel *k, int n)
{
	fprintf(f, "/* Generated by cbenchctl insn: kernels of the sequences asked for. */\n"
		"#include \"cbench.h\"\n\n"
		"/*\n * The scratch area: every word holds its middle's address; past it, 1.0\n"
		" * eight times, then what the vector registers may be here: 2 AVX-512, 1\n"
		" * AVX, 0 neither (CPUID and XCR0, asked here: in a KVM guest CPUID exits\n"
		" * to the hypervisor, which no measurement should include).\n */\n"
		"static int scratch_setup(struct cbench_ctx *ctx)\n{\n"
		"\tuint64_t *word = ctx->arena;\n"
		"\tuint64_t mid = (uint64_t)(uintptr_t)((char *)ctx->arena + %d);\n"
		"\tuint32_t a, b, c, d, lo = 0, hi = 0;\n\n"
		"\tfor (unsigned int i = 0; i < %d; i++)\n\t\tword[i] = mid;\n"
		"\tfor (unsigned int i = 0; i < 8; i++)\n\t\tword[%d + i] = 0x3ff0000000000000ULL;\n"
		"\t__asm__ volatile(\"cpuid\" : \"=a\"(a), \"=b\"(b), \"=c\"(c), \"=d\"(d) : \"a\"(1), \"c\"(0));\n"
		"\tif ((c & (1u << 27)) && (c & (1u << 28)))\n"
		"\t\t__asm__ volatile(\"xgetbv\" : \"=a\"(lo), \"=d\"(hi) : \"c\"(0));\n"
		"\tword[%d] = (lo & 0xe6) == 0xe6 ? 2 : (lo & 6) == 6;\n"
		"\treturn 0;\n}\n\n", CBENCH_ASM_SCRATCH_BYTES / 2, CBENCH_ASM_SCRATCH_BYTES / 8,
		CBENCH_ASM_SCRATCH_BYTES / 8, (CBENCH_ASM_SCRATCH_BYTES / 2 + VECTOR_STATE) / 8);
	for (int i = 0; i < n; i++) {
		kernel_asm(f, &k[i]);
		fprintf(f, "void cbench_insn_%s(uint64_t reps, void *mid) __attribute__((visibility(\"hidden\")));\n"
			"static void %s(struct cbench_ctx *ctx, uint64_t reps)\n{\n"
			"\tif (reps)\n\t\tcbench_insn_%s(reps, (char *)ctx->arena + %d);\n}\n"
			"CBENCH(%s, .setup = scratch_setup, .arena_bytes = %d, .ops_per_rep = 1);\n\n",
			k[i].name, k[i].name, k[i].name, CBENCH_ASM_SCRATCH_BYTES / 2, k[i].name,
			CBENCH_ASM_SCRATCH_BYTES + 128);
	}
	return ferror(f) ? -EIO : 0;
}

/* Splits a flag string at its spaces into argv (which keeps pointers into buf). */
static int split(char *buf, const char **argv, int at, int max)
{
	for (char *tok = strtok(buf, " "); tok && at < max - 1; tok = strtok(NULL, " "))
		argv[at++] = tok;
	return at;
}

/* The assembler's (or compiler's) first complaint, its file and line dropped. */
static void complaints(const char *err_path, char *why, size_t why_bytes)
{
	char line[512];
	size_t at = 0;
	FILE *f = fopen(err_path, "re");

	*why = '\0';
	/* The first complaint: the others are the same about the copies. */
	while (f && fgets(line, sizeof(line), f) && !at) {
		char *msg = strstr(line, "Error: ");

		if (!msg)
			msg = strstr(line, "error: ");
		if (!msg)
			continue;
		msg[strcspn(msg, "\n")] = '\0';
		/* Each instance of the sequence says it again: once is enough. */
		if (strstr(why, msg))
			continue;
		at += (size_t)snprintf(why + at, why_bytes - at, "%s%s", at ? "; " : "", msg);
	}
	if (f)
		fclose(f);
	if (!*why)
		snprintf(why, why_bytes, "the compiler failed (its messages: %s)", err_path);
}

/*
 * Runs argv in dir with stderr into err_path; its exit status, 127 if it
 * could not run.  In dir, so that the object says "insn.c" where
 * CBENCH() records its file: the same sequence builds the same object,
 * whose build ID the tuning cache knows again.
 */
static int run(const char *const *argv, const char *dir, const char *err_path)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (!pid) {
		int fd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

		if (fd >= 0) {
			dup2(fd, STDERR_FILENO);
			dup2(fd, STDOUT_FILENO);
		}
		if (chdir(dir))
			_exit(126);
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return -errno;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int write_header(const char *dir)
{
	char path[PATH_MAX];
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), "%.4000s/cbench.h", dir);
	f = fopen(path, "we");
	if (!f)
		return -errno;
	fputs(cbench_header_text, f);
	ret = ferror(f) ? -EIO : 0;
	return fclose(f) || ret ? -EIO : 0;
}

int cbench_asm_build(const char *c_path, const char *so_path, char *why, size_t why_bytes)
{
	char dir[PATH_MAX], err[PATH_MAX + 8], flags[] = CBENCH_KERNEL_CFLAGS, libs[] = CBENCH_KERNEL_LIBS;
	char cc[256];
	const char *argv[64];
	const char *env = getenv("CC");
	int argc, ret;

	snprintf(dir, sizeof(dir), "%s", c_path);
	if (strrchr(dir, '/'))
		*strrchr(dir, '/') = '\0';
	snprintf(err, sizeof(err), "%.4000s/cc.err", dir);
	ret = write_header(dir);
	if (ret) {
		snprintf(why, why_bytes, "unable to write %s/cbench.h: %s", dir, strerror(-ret));
		return ret;
	}
	snprintf(cc, sizeof(cc), "%s", env && *env ? env : "cc");
	argc = split(cc, argv, 0, 64);
	argv[argc++] = "-O2";
	argc = split(flags, argv, argc, 64);
	argv[argc++] = "-I.";
	argc = split(libs, argv, argc, 64);
	argv[argc++] = "-o";
	argv[argc++] = so_path;
	argv[argc++] = strrchr(c_path, '/') ? strrchr(c_path, '/') + 1 : c_path;
	argv[argc] = NULL;
	ret = run(argv, dir, err);
	if (ret == 127) {
		snprintf(why, why_bytes, "no C compiler runs as '%s': insn builds what it measures at run "
			 "time with a C compiler and the GNU assembler: install gcc (or clang) and "
			 "binutils, or set CC", argv[0]);
		return -ENOENT;
	}
	if (ret) {
		complaints(err, why, why_bytes);
		return -EINVAL;
	}
	unlink(err);
	return 0;
}
