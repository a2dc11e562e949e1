// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel-safe objects whose calls do in ring 0 what the kernel would die
 * of, or what would corrupt the measurement, beyond the exceptions of
 * faulting.c: page faults, both encodings of int3, int1 and into, the trap
 * flag, and flags left changed.  The VM tests send them to cbench.ko
 * directly, as a raw client that skips cbenchctl's rehearsal and its code
 * check would (kmod_endings.c: hazards); ring0_only.c has those that reach the
 * module through cbenchctl.  Each faulting instruction is asm, so the test
 * finds it at the offset the module reports.
 *
 *   pf_user_read     reads address 0x1000 (a user address: SMAP's path)
 *   pf_fs_canary     reads %fs:0x28, a stack protector's canary in user mode
 *   pf_kernel_read   reads past its 4 KiB arena (vmalloc's guard page)
 *   pf_text_write    writes its own code (read-only)
 *   pf_arena_call    calls into its arena (not executable): a fetch outside
 *                    the image, placed by the return address
 *   pf_null_call     calls address 0: an instruction fetch at a user
 *                    address, which the kernel oopses on first
 *   int3_long        int $3 (cd 03), the two-byte encoding, then an add
 *                    that 6.1's kprobes resume at (they take it for a
 *                    breakpoint removed under them)
 *   int1             int1 (f1), which the kernel ignores in ring 0
 *   into             into (ce), #UD in 64-bit mode
 *   tf_step          sets the trap flag and runs on: #DB after one step
 *   tf_return        sets the trap flag as its last act, so the step
 *                    traps in the module's trampoline, after its ret
 *   sti_left         turns interrupts on (in a call made with them off)
 *   cli_left         turns interrupts off (a call made with them on, LVT)
 *   std_left         sets the direction flag and returns
 *   quick            returns at once
 */
#include <cbench.h>

/* mov 0x1000, %rax (48 8b 04 25 00 10 00 00). */
static inline void read_user(void)
{
	__asm__ volatile("mov 0x1000, %%rax" ::: "rax", "memory");
}

static void pf_user_read(struct cbench_ctx *ctx, uint64_t reps)
{
	cbench_launder(reps);
	read_user();
}
CBENCH(pf_user_read);

/* mov %fs:0x28, %rax (64 48 8b 04 25 28 00 00 00). */
static void pf_fs_canary(struct cbench_ctx *ctx, uint64_t reps)
{
	cbench_launder(reps);
	__asm__ volatile("mov %%fs:0x28, %%rax" ::: "rax", "memory");
}
CBENCH(pf_fs_canary);

/* mov 0x1000(%rax), %rax (48 8b 80 00 10 00 00) with %rax the arena. */
static void pf_kernel_read(struct cbench_ctx *ctx, uint64_t reps)
{
	cbench_launder(reps);
	__asm__ volatile("mov 0x1000(%%rax), %%rax" : : "a"(ctx->arena) : "memory");
}
CBENCH(pf_kernel_read, .arena_bytes = 4096);

/* movb $0, (%rax) (c6 00 00) with %rax this function. */
static void pf_text_write(struct cbench_ctx *ctx, uint64_t reps)
{
	cbench_launder(reps);
	__asm__ volatile("lea (%%rip), %%rax\n\tmovb $0, (%%rax)" ::: "rax", "memory");
}
CBENCH(pf_text_write);

/* call *%rax (ff d0) with %rax the arena: the return address follows it. */
static void pf_arena_call(struct cbench_ctx *ctx, uint64_t reps)
{
	cbench_launder(reps);
	__asm__ volatile("call *%%rax" : : "a"(ctx->arena) : "memory", "rcx", "rdx", "rsi", "rdi",
			 "r8", "r9", "r10", "r11");
}
CBENCH(pf_arena_call, .arena_bytes = 4096);

/* call *%rax (ff d0) with %rax 0. */
static void pf_null_call(struct cbench_ctx *ctx, uint64_t reps)
{
	cbench_launder(reps);
	__asm__ volatile("xor %%eax, %%eax\n\tcall *%%rax" ::: "rax", "memory", "rcx", "rdx",
			 "rsi", "rdi", "r8", "r9", "r10", "r11");
}
CBENCH(pf_null_call);

/* cd 03, then add %eax, %eax (01 c0): from the 03 byte, 03 c0 is an add too. */
static inline void int3_two_bytes(void)
{
	__asm__ volatile(".byte 0xcd, 0x03, 0xc0" ::: "rax", "cc");
}

static void int3_long(struct cbench_ctx *ctx, uint64_t reps)
{
	cbench_launder(reps);
	int3_two_bytes();
}
CBENCH(int3_long);

static void int1(struct cbench_ctx *ctx, uint64_t reps)
{
	cbench_launder(reps);
	__asm__ volatile(".byte 0xf1");
}
CBENCH(int1);

static void into(struct cbench_ctx *ctx, uint64_t reps)
{
	cbench_launder(reps);
	__asm__ volatile(".byte 0xce");
}
CBENCH(into);

/* pushf; orl $0x100, (%rsp); popf: TF set; the step traps after the nop. */
static inline void set_tf(void)
{
	__asm__ volatile("pushf\n\torl $0x100, (%%rsp)\n\tpopf" ::: "memory", "cc");
}

static void tf_step(struct cbench_ctx *ctx, uint64_t reps)
{
	cbench_launder(reps);
	set_tf();
	__asm__ volatile("nop\n\tnop");
}
CBENCH(tf_step);

/* Sets the trap flag as its last act: the step traps after its ret. */
void tf_return(struct cbench_ctx *ctx, uint64_t reps);
__asm__(".text\n"
	".globl tf_return\n"
	".hidden tf_return\n"
	".type tf_return, @function\n"
	"tf_return:\n"
	"	endbr64\n"
	"	pushf\n"
	"	orl $0x100, (%rsp)\n"
	"	popf\n"
	"	ret\n"
	".size tf_return, .-tf_return\n");
CBENCH(tf_return);

static void sti_left(struct cbench_ctx *ctx, uint64_t reps)
{
	cbench_launder(reps);
	__asm__ volatile("sti");
}
CBENCH(sti_left);

static void cli_left(struct cbench_ctx *ctx, uint64_t reps)
{
	cbench_launder(reps);
	__asm__ volatile("cli");
}
CBENCH(cli_left);

static void std_left(struct cbench_ctx *ctx, uint64_t reps)
{
	cbench_launder(reps);
	__asm__ volatile("std");
}
CBENCH(std_left);

static void quick(struct cbench_ctx *ctx, uint64_t reps)
{
	cbench_launder(reps);
}
CBENCH(quick);
