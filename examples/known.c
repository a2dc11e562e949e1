// SPDX-License-Identifier: MIT
/*
 * The known-answer kernels of `cbenchctl selftest`: each measures one
 * figure the hardware documents or published measurements agree on, so a
 * result that misses it says the measurement is wrong on this machine, not
 * the code.  The instructions are inline asm the compiler can neither fold
 * nor reorder, and each benchmark declares the ops one rep runs (1000, or
 * fewer where a rep of 1000 would outlast ring 0's budget), so that
 * est-cycles/op is the figure itself.  Libc-free, so the object also runs
 * in ring 0 (selftest --backend kmod).
 *
 *	latency_add ... latency_lea_scaled   dependent chains of one instruction
 *	                 (add r64, r64: not add r64, imm, whose chains Intel's
 *	                 cores since Golden Cove fold at rename)
 *	latency_div      a 64-bit divide of 1 by 1, its quotient the next dividend
 *	latency_addpd ... latency_fma   vector chains (legacy SSE, the upper
 *	                 halves cleared first, or VEX where the check needs AVX)
 *	latency_l1       a pointer chase inside one 4 KiB page (L1)
 *	latency_store_load   a value stored and loaded back at one address
 *	throughput_add, throughput_imul, throughput_load   ten or eight
 *	                 independent chains (or loads): cycles per instruction
 *	latency_chase_<K>k   a pointer chase over every line of K KiB, a page's
 *	                 lines in a row in random order, the pages in random
 *	                 order: the selftest picks K from the CPUID cache
 *	                 leaves for the L2
 *	latency_random_<K>k  K KiB of lines, one of each 128-byte pair (the
 *	                 adjacent-line prefetcher fetches the other), in one
 *	                 random cycle, for the L3
 *	latency_memory_<M>m  a chase through every line of M MiB in one random
 *	                 cycle: M past the L3
 *	tlb_miss_<P>, tlb_hit_<P>   P lines, one a page over P pages (more than
 *	                 the second-level TLB holds), or 64 a page: their
 *	                 difference is a load's page walk
 *	branch_random, branch_predictable   a branch on each byte of 1 MiB of
 *	                 random bits, or of zeros: twice their difference is a
 *	                 misprediction's cost
 *
 * The expected values, with their sources, are user/machine/known.c's.
 *
 *	make examples && build/cbenchctl selftest
 */
#include <cbench.h>

#define PAGE 4096u
#define LINE 64u

/* A rep of 1000 dependent instructions INSN on x (%0), with y (%1) beside. */
#define CHAIN(name, init, insn)								\
	static void name(struct cbench_ctx *ctx, uint64_t reps)				\
	{										\
		uint64_t x = (uint64_t)ctx->param | (init), y = 0x9e3779b97f4a7c15ULL;	\
											\
		for (uint64_t i = 0; i < reps; i++)					\
			__asm__ volatile(".rept 1000\n\t" insn "\n\t.endr" : "+r"(x) : "r"(y)); \
		cbench_keep(x);								\
	}										\
	CBENCH(name, .ops_per_rep = 1000)

CHAIN(latency_add, 0, "add %1, %0");
CHAIN(latency_imul, 3, "imul %0, %0");
CHAIN(latency_crc32, 0, "crc32q %1, %0");
CHAIN(latency_popcnt, 0, "popcnt %0, %0");
CHAIN(latency_lzcnt, 0, "lzcnt %0, %0");
/* Three operands: base, index and displacement; then with a scaled index. */
CHAIN(latency_lea, 0, "lea 8(%0,%1), %0");
CHAIN(latency_lea_scaled, 0, "lea 8(%0,%1,8), %0");

/* 1 / 1: the quotient (1) is the next dividend, the remainder (0) its high half. */
static void latency_div(struct cbench_ctx *ctx, uint64_t reps)
{
	uint64_t q = 1 | (uint64_t)ctx->param, r = 0, d = 1;

	for (uint64_t i = 0; i < reps; i++)
		__asm__ volatile(".rept 1000\n\tdiv %2\n\t.endr" : "+a"(q), "+d"(r) : "r"(d));
	cbench_keep(q);
}
CBENCH(latency_div, .ops_per_rep = 1000);

/*
 * Legacy SSE after AVX code that left the upper halves of the vector
 * registers dirty waits on them (and on Skylake blends them in): clear
 * them first where the CPU and the OS have AVX.  Whether they do is asked
 * once, in setup: CPUID in a KVM guest exits to the hypervisor, 10 us a
 * time on the development VM, which would be a tenth of a measurement.
 */
static int vector_setup(struct cbench_ctx *ctx)
{
	uint32_t a, b, c, d, lo = 0, hi;

	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(1), "c"(0));
	if ((c & (1u << 27)) && (c & (1u << 28)))
		__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	*(uint64_t *)ctx->arena = (lo & 6) == 6;
	return 0;
}

/* A rep of 500 dependent vector instructions on x (%0), y (%1) beside: a
 * rep of 1000 took 35 us in ring 0 under QEMU's emulation, 256 of them
 * over the interrupts-off budget. */
#define VCHAIN(name, y_value, insn)							\
	static void name(struct cbench_ctx *ctx, uint64_t reps)				\
	{										\
		double x = 1.5 + (double)ctx->param, y = (y_value);			\
											\
		if (*(const uint64_t *)ctx->arena)					\
			__asm__ volatile("vzeroupper");					\
		for (uint64_t i = 0; i < reps; i++)					\
			__asm__ volatile(".rept 500\n\t" insn "\n\t.endr" : "+x"(x) : "x"(y)); \
		cbench_keep(x);								\
	}										\
	CBENCH(name, .setup = vector_setup, .arena_bytes = 64, .ops_per_rep = 500)

/* x + 0, x * 1, x + 0 * 0: the value stays, never a denormal. */
VCHAIN(latency_addpd, 0.0, "addpd %1, %0");
VCHAIN(latency_mulpd, 1.0, "mulpd %1, %0");
VCHAIN(latency_paddq, 0.0, "paddq %1, %0");
VCHAIN(latency_fma, 0.0, "vfmadd231pd %1, %1, %0");

/* 64 slots 64 bytes apart in one page, each holding the next's address. */
static int ring_setup(struct cbench_ctx *ctx)
{
	uint64_t *slot = ctx->arena;

	for (unsigned int i = 0; i < 64; i++)
		slot[i * 8] = (uint64_t)(uintptr_t)&slot[((i + 1) % 64) * 8];
	return 0;
}

static void latency_l1(struct cbench_ctx *ctx, uint64_t reps)
{
	uint64_t *p = ctx->arena;

	for (uint64_t i = 0; i < reps; i++)
		__asm__ volatile(".rept 1000\n\tmov (%0), %0\n\t.endr" : "+r"(p) : : "memory");
	cbench_keep(p);
}
CBENCH(latency_l1, .setup = ring_setup, .arena_bytes = 4096, .ops_per_rep = 1000);

/* A store and the load of what it stored: one op, through memory. */
static void latency_store_load(struct cbench_ctx *ctx, uint64_t reps)
{
	uint64_t x = (uint64_t)ctx->param, *slot = ctx->arena;

	for (uint64_t i = 0; i < reps; i++)
		__asm__ volatile(".rept 1000\n\tmov %0, (%1)\n\tmov (%1), %0\n\t.endr"
				 : "+r"(x) : "r"(slot) : "memory");
	cbench_keep(x);
}
CBENCH(latency_store_load, .arena_bytes = 64, .ops_per_rep = 1000);

/*
 * Ten chains at once, 100 adds each per rep: as many adds a cycle as ALUs.
 * Eight chains would do in theory; on Golden Cove, whose ports are picked
 * at allocation, they measured 0.213 cycles an add where ten measured 0.203.
 */
static void throughput_add(struct cbench_ctx *ctx, uint64_t reps)
{
	uint64_t a = (uint64_t)ctx->param, b = a, c = a, d = a, e = a, f = a, g = a, h = a, j = a, k = a;
	uint64_t one = 1;

	for (uint64_t i = 0; i < reps; i++)
		__asm__ volatile(".rept 100\n\t"
				 "add %10, %0\n\tadd %10, %1\n\tadd %10, %2\n\tadd %10, %3\n\t"
				 "add %10, %4\n\tadd %10, %5\n\tadd %10, %6\n\tadd %10, %7\n\t"
				 "add %10, %8\n\tadd %10, %9\n\t"
				 ".endr"
				 : "+r"(a), "+r"(b), "+r"(c), "+r"(d), "+r"(e), "+r"(f), "+r"(g), "+r"(h),
				   "+r"(j), "+r"(k)
				 : "r"(one));
	cbench_keep(a + b + c + d + e + f + g + h + j + k);
}
CBENCH(throughput_add, .ops_per_rep = 1000);

/* Eight imul chains: as many a cycle as multipliers. */
static void throughput_imul(struct cbench_ctx *ctx, uint64_t reps)
{
	uint64_t a = (uint64_t)ctx->param | 1, b = a, c = a, d = a, e = a, f = a, g = a, h = a, m = 3;

	for (uint64_t i = 0; i < reps; i++)
		__asm__ volatile(".rept 125\n\t"
				 "imul %8, %0\n\timul %8, %1\n\timul %8, %2\n\timul %8, %3\n\t"
				 "imul %8, %4\n\timul %8, %5\n\timul %8, %6\n\timul %8, %7\n\t"
				 ".endr"
				 : "+r"(a), "+r"(b), "+r"(c), "+r"(d), "+r"(e), "+r"(f), "+r"(g), "+r"(h)
				 : "r"(m));
	cbench_keep(a + b + c + d + e + f + g + h);
}
CBENCH(throughput_imul, .ops_per_rep = 1000);

/* Independent loads from one line: as many a cycle as load ports. */
static void throughput_load(struct cbench_ctx *ctx, uint64_t reps)
{
	uint64_t a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0, *p = ctx->arena;

	for (uint64_t i = 0; i < reps; i++)
		__asm__ volatile(".rept 125\n\t"
				 "mov (%8), %0\n\tmov 8(%8), %1\n\tmov 16(%8), %2\n\tmov 24(%8), %3\n\t"
				 "mov 32(%8), %4\n\tmov 40(%8), %5\n\tmov 48(%8), %6\n\tmov 56(%8), %7\n\t"
				 ".endr"
				 : "=&r"(a), "=&r"(b), "=&r"(c), "=&r"(d), "=&r"(e), "=&r"(f), "=&r"(g),
				   "=&r"(h)
				 : "r"(p) : "memory");
	cbench_keep(a + b + c + d + e + f + g + h);
}
CBENCH(throughput_load, .arena_bytes = 64, .ops_per_rep = 1000);

/* xorshift64: the setups' random numbers, the same in user mode and ring 0. */
static uint64_t next_random(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/*
 * Chases keep where the last call stopped in the arena's first word and go
 * on from there: a call chases for as long as tuning asked (reps of 1000
 * loads), which can be a fraction of the ring, and each call starting from
 * the ring's first line would chase that fraction only, from a cache.  The
 * ring itself starts at the first page boundary past that word.
 */
static uint8_t *ring_base(struct cbench_ctx *ctx)
{
	uintptr_t at = (uintptr_t)ctx->arena + LINE;

	return (uint8_t *)((at + PAGE - 1) & ~(uintptr_t)(PAGE - 1));
}

/* The chase through slots in a page: slot 0 first, then the others in a random order. */
static void shuffle_slots(uint8_t *order, unsigned int n, uint64_t *seed)
{
	for (unsigned int i = 0; i < n; i++)
		order[i] = (uint8_t)i;
	for (unsigned int i = n - 1; i > 1; i--) {
		unsigned int j = 1 + (unsigned int)(next_random(seed) % i);
		uint8_t t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
}

/*
 * One random cycle through n slots (Sattolo's algorithm), slot i at
 * base + i * stride, each slot's second word holding the permutation while
 * it is built.
 */
static void random_cycle(uint8_t *base, uint64_t n, uint64_t stride, uint64_t *seed)
{
#define SLOT_NEXT(i) (*(uint64_t *)(base + (i) * stride + 8))
	for (uint64_t i = 0; i < n; i++)
		SLOT_NEXT(i) = i;
	for (uint64_t i = n - 1; i > 0; i--) {
		uint64_t j = next_random(seed) % i, t = SLOT_NEXT(i);

		SLOT_NEXT(i) = SLOT_NEXT(j);
		SLOT_NEXT(j) = t;
	}
#undef SLOT_NEXT
}

/*
 * lines_per_page of each page's lines (every 64 / lines_per_page-th), in a
 * row, slot 0 first and the rest in a random order; the pages in one random
 * cycle.  Within the L2 the prefetchers have nothing to add, and a page's
 * lines in a row cost one TLB miss for all of them.
 */
static int page_chase_setup(struct cbench_ctx *ctx, uint64_t pages, unsigned int lines_per_page)
{
	uint8_t *base = ring_base(ctx), order[64];
	unsigned int stride = (PAGE / LINE / lines_per_page) * LINE;
	uint64_t seed = 0x9e3779b97f4a7c15ULL;

	random_cycle(base, pages, PAGE, &seed);
	for (uint64_t p = 0; p < pages; p++) {
		uint8_t *page = base + p * PAGE;
		uint8_t *next_page = base + *(uint64_t *)(page + 8) * PAGE;

		shuffle_slots(order, lines_per_page, &seed);
		for (unsigned int s = 0; s + 1 < lines_per_page; s++)
			*(uint64_t *)(page + order[s] * stride) =
				(uint64_t)(uintptr_t)(page + order[s + 1] * stride);
		*(uint64_t *)(page + order[lines_per_page - 1] * stride) = (uint64_t)(uintptr_t)next_page;
	}
	*(uint64_t *)ctx->arena = (uint64_t)(uintptr_t)base;
	return 0;
}

/*
 * Every stride-th line of the ring in one random cycle.  Past the L2 the
 * streamer would fetch the rest of a page whose lines come in a row: here
 * no two loads in a row share a page, and with a stride of 128 the
 * adjacent-line prefetcher fetches only lines the chase never reads.
 */
static int line_chase_setup(struct cbench_ctx *ctx, uint64_t bytes, uint64_t stride)
{
	uint8_t *base = ring_base(ctx);
	uint64_t n = bytes / stride, seed = 0x2545f4914f6cdd1dULL;

	random_cycle(base, n, stride, &seed);
	for (uint64_t i = 0; i < n; i++)
		*(uint64_t *)(base + i * stride) =
			(uint64_t)(uintptr_t)(base + *(uint64_t *)(base + i * stride + 8) * stride);
	*(uint64_t *)ctx->arena = (uint64_t)(uintptr_t)base;
	return 0;
}

/*
 * loads a rep, each the address of the next, from where the last call
 * stopped.  In ring 0 the tuner's sweep asks for up to 256 reps in one
 * interrupts-off window (10 ms by default): a rep must take well under
 * 39 us, so the chases past the L2 take fewer loads a rep (1000 loads from
 * memory would take 100 us and more).
 */
#define CHASE(loads)									\
	static void chase_##loads(struct cbench_ctx *ctx, uint64_t reps)		\
	{										\
		uint64_t *p = *(uint64_t **)ctx->arena;					\
											\
		for (uint64_t i = 0; i < reps; i++)					\
			__asm__ volatile(".rept " #loads "\n\tmov (%0), %0\n\t.endr"	\
					 : "+r"(p) : : "memory");			\
		*(uint64_t **)ctx->arena = p;						\
	}
CHASE(1000)
CHASE(100)
CHASE(32)

/* The arena a ring of bytes needs: the saved word, and a page to align in. */
#define RING_ARENA(bytes) ((bytes) + 2 * (uint64_t)PAGE)

/*
 * L2: every line of K KiB, a page's in a row.  Every line: the L2's
 * spatial prefetcher completes each 128-byte pair, and a chase over one
 * line of each would fill the L2 twice as fast as it counts.
 */
#define L2_CHASE(kib)									\
	static int latency_chase_##kib##k_setup(struct cbench_ctx *ctx)			\
	{										\
		return page_chase_setup(ctx, (kib) * 1024ull / PAGE, 64);		\
	}										\
	static void latency_chase_##kib##k(struct cbench_ctx *ctx, uint64_t reps)	\
	{										\
		chase_1000(ctx, reps);							\
	}										\
	CBENCH(latency_chase_##kib##k, .setup = latency_chase_##kib##k_setup,		\
	       .arena_bytes = RING_ARENA((kib) * 1024ull), .ops_per_rep = 1000,		\
	       .flags = CBENCH_F_ARENA_HUGE)

L2_CHASE(128);
L2_CHASE(256);
L2_CHASE(512);
L2_CHASE(1024);
L2_CHASE(2048);

/* L3: K KiB of lines, one of each 128-byte pair, all in one random cycle. */
#define L3_CHASE(kib)									\
	static int latency_random_##kib##k_setup(struct cbench_ctx *ctx)		\
	{										\
		return line_chase_setup(ctx, 2 * (kib) * 1024ull, 2 * LINE);		\
	}										\
	static void latency_random_##kib##k(struct cbench_ctx *ctx, uint64_t reps)	\
	{										\
		chase_100(ctx, reps);							\
	}										\
	CBENCH(latency_random_##kib##k, .setup = latency_random_##kib##k_setup,		\
	       .arena_bytes = RING_ARENA(2 * (kib) * 1024ull), .ops_per_rep = 100,	\
	       .flags = CBENCH_F_ARENA_HUGE)

L3_CHASE(1024);
L3_CHASE(2048);
L3_CHASE(4096);
L3_CHASE(8192);
L3_CHASE(16384);
L3_CHASE(32768);

/* Memory: every line of M MiB in one random cycle; past the L3, a line's
 * pair that the adjacent-line prefetcher fetched is long gone when the
 * chase comes to it. */
#define MEMORY_CHASE(mib)								\
	static int latency_memory_##mib##m_setup(struct cbench_ctx *ctx)		\
	{										\
		return line_chase_setup(ctx, (mib) * 1024ull * 1024, LINE);		\
	}										\
	static void latency_memory_##mib##m(struct cbench_ctx *ctx, uint64_t reps)	\
	{										\
		chase_32(ctx, reps);							\
	}										\
	CBENCH(latency_memory_##mib##m, .setup = latency_memory_##mib##m_setup,		\
	       .arena_bytes = RING_ARENA((mib) * 1024ull * 1024), .ops_per_rep = 32,	\
	       .flags = CBENCH_F_ARENA_HUGE)

MEMORY_CHASE(32);
MEMORY_CHASE(64);
MEMORY_CHASE(128);
MEMORY_CHASE(256);
MEMORY_CHASE(512);
MEMORY_CHASE(1024);

/*
 * P lines, one in each of P pages (its offset moving by 7 lines from page
 * to page, so the lines spread over the cache's sets), the pages in a
 * random cycle: every load misses the TLBs once P is past what the
 * second-level TLB holds.  tlb_hit_P chases as many lines, 64 a page, a
 * page's in a row: the same data, one page change in 64 loads.  Base
 * pages, or no TLB would miss.
 */
static int tlb_miss_setup(struct cbench_ctx *ctx, uint64_t pages)
{
	uint8_t *base = ring_base(ctx);
	uint64_t seed = 0xd1b54a32d192ed03ULL;

#define PAGE_LINE(p) (base + (p) * PAGE + (((p) * 7) % 64) * LINE)
	/* The permutation in each page's own line: its second word. */
	for (uint64_t p = 0; p < pages; p++)
		*(uint64_t *)(PAGE_LINE(p) + 8) = p;
	for (uint64_t i = pages - 1; i > 0; i--) {
		uint64_t j = next_random(&seed) % i, t = *(uint64_t *)(PAGE_LINE(i) + 8);

		*(uint64_t *)(PAGE_LINE(i) + 8) = *(uint64_t *)(PAGE_LINE(j) + 8);
		*(uint64_t *)(PAGE_LINE(j) + 8) = t;
	}
	for (uint64_t p = 0; p < pages; p++)
		*(uint64_t *)PAGE_LINE(p) = (uint64_t)(uintptr_t)PAGE_LINE(*(uint64_t *)(PAGE_LINE(p) + 8));
#undef PAGE_LINE
	*(uint64_t *)ctx->arena = (uint64_t)(uintptr_t)base;
	return 0;
}

#define TLB_CHASE(pages)								\
	static int tlb_miss_##pages##_setup(struct cbench_ctx *ctx)			\
	{										\
		return tlb_miss_setup(ctx, (pages));					\
	}										\
	static void tlb_miss_##pages(struct cbench_ctx *ctx, uint64_t reps)		\
	{										\
		chase_100(ctx, reps);							\
	}										\
	CBENCH(tlb_miss_##pages, .setup = tlb_miss_##pages##_setup,			\
	       .arena_bytes = RING_ARENA((pages) * (uint64_t)PAGE), .ops_per_rep = 100,	\
	       .flags = CBENCH_F_ARENA_BASE);						\
	static int tlb_hit_##pages##_setup(struct cbench_ctx *ctx)			\
	{										\
		return page_chase_setup(ctx, (pages) / 64, 64);				\
	}										\
	static void tlb_hit_##pages(struct cbench_ctx *ctx, uint64_t reps)		\
	{										\
		chase_100(ctx, reps);							\
	}										\
	CBENCH(tlb_hit_##pages, .setup = tlb_hit_##pages##_setup,			\
	       .arena_bytes = RING_ARENA((pages) / 64 * (uint64_t)PAGE), .ops_per_rep = 100,	\
	       .flags = CBENCH_F_ARENA_BASE)

TLB_CHASE(4096);
TLB_CHASE(8192);
TLB_CHASE(16384);
TLB_CHASE(32768);

/*
 * A branch on each byte of 1 MiB, 96 a rep; where the last call stopped is
 * kept in the arena's first word, so the sequence repeats only every 1 MiB
 * of branches, more than a predictor can learn.  branch_random's bytes are
 * random bits: half its branches go the way not predicted.  Each byte is
 * loaded eight branches ahead, into one of eight registers in turn, so the
 * branches after a mispredicted one have their condition at hand when the
 * pipeline refills (the loads younger than the branch are thrown away with
 * the rest): the difference is the refill, not a load's latency too.
 */
#define BRANCH_BYTES (1u << 20)
#define BRANCHES_PER_REP 96

static int branch_random_setup(struct cbench_ctx *ctx)
{
	uint8_t *bits = (uint8_t *)ctx->arena + LINE;
	uint64_t seed = 0x853c49e6748fea9bULL;

	for (uint32_t i = 0; i < BRANCH_BYTES; i++)
		bits[i] = (uint8_t)(next_random(&seed) >> 32) & 1;
	return 0;
}

/* One branch on a, then a's byte eight ahead (at off from p). */
#define BRANCH_ON(a, off)								\
	"test %[" #a "], %[" #a "]\n\t"							\
	"jz 1f\n\t"									\
	"add %[" #a "], %[sum]\n"							\
	"1:\n\t"									\
	"movzbl " #off "(%[p]), %k[" #a "]\n\t"

static void branches(struct cbench_ctx *ctx, uint64_t reps)
{
	uint64_t *at = ctx->arena, sum = 0, a0, a1, a2, a3, a4, a5, a6, a7;
	const uint8_t *bits = (const uint8_t *)ctx->arena + LINE, *p = bits + *at;

#define LOAD_AHEAD()									\
	do {										\
		a0 = p[0], a1 = p[1], a2 = p[2], a3 = p[3];				\
		a4 = p[4], a5 = p[5], a6 = p[6], a7 = p[7];				\
	} while (0)
	LOAD_AHEAD();
	for (uint64_t r = 0; r < reps; r++) {
		if (p + BRANCHES_PER_REP + 8 > bits + BRANCH_BYTES) {
			p = bits;
			LOAD_AHEAD();
		}
		__asm__ volatile(".rept 12\n\t"
				 BRANCH_ON(a0, 8) BRANCH_ON(a1, 9) BRANCH_ON(a2, 10) BRANCH_ON(a3, 11)
				 BRANCH_ON(a4, 12) BRANCH_ON(a5, 13) BRANCH_ON(a6, 14) BRANCH_ON(a7, 15)
				 "add $8, %[p]\n\t"
				 ".endr"
				 : [p] "+r"(p), [sum] "+r"(sum), [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2),
				   [a3] "+r"(a3), [a4] "+r"(a4), [a5] "+r"(a5), [a6] "+r"(a6), [a7] "+r"(a7)
				 : : "cc", "memory");
	}
#undef LOAD_AHEAD
	*at = (uint64_t)(p - bits);
	cbench_keep(sum);
}

static void branch_random(struct cbench_ctx *ctx, uint64_t reps)
{
	branches(ctx, reps);
}
CBENCH(branch_random, .setup = branch_random_setup, .arena_bytes = BRANCH_BYTES + LINE,
       .ops_per_rep = BRANCHES_PER_REP);

static void branch_predictable(struct cbench_ctx *ctx, uint64_t reps)
{
	branches(ctx, reps);
}
CBENCH(branch_predictable, .arena_bytes = BRANCH_BYTES + LINE, .ops_per_rep = BRANCHES_PER_REP);
