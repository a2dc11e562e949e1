// SPDX-License-Identifier: GPL-2.0
// The selftest's known-answer kernels (examples/known.c) for Google
// Benchmark: the same inline asm, 1000 instructions per iteration, so
// bench/run.sh can print Google Benchmark's ns per instruction beside the
// selftest's cycles.
#include <benchmark/benchmark.h>

#include <cstdint>

#define CHAIN(name, init, insn)								\
	static void BM_##name(benchmark::State &state)					\
	{										\
		uint64_t x = (init), y = 0x9e3779b97f4a7c15ULL;				\
											\
		for (auto _ : state)							\
			asm volatile(".rept 1000\n\t" insn "\n\t.endr" : "+r"(x) : "r"(y));	\
		benchmark::DoNotOptimize(x);						\
	}										\
	BENCHMARK(BM_##name)

CHAIN(latency_add, 0, "add %1, %0");
CHAIN(latency_imul, 3, "imul %0, %0");
CHAIN(latency_crc32, 0, "crc32q %1, %0");
CHAIN(latency_popcnt, 0, "popcnt %0, %0");

static void BM_latency_l1(benchmark::State &state)
{
	alignas(4096) static uint64_t ring[512];
	uint64_t *p = ring;

	for (unsigned int i = 0; i < 64; i++)
		ring[i * 8] = (uint64_t)(uintptr_t)&ring[((i + 1) % 64) * 8];
	for (auto _ : state)
		asm volatile(".rept 1000\n\tmov (%0), %0\n\t.endr" : "+r"(p) : : "memory");
	benchmark::DoNotOptimize(p);
}
BENCHMARK(BM_latency_l1);

static void BM_throughput_add(benchmark::State &state)
{
	uint64_t a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0, one = 1;

	for (auto _ : state)
		asm volatile(".rept 125\n\t"
			     "add %8, %0\n\tadd %8, %1\n\tadd %8, %2\n\tadd %8, %3\n\t"
			     "add %8, %4\n\tadd %8, %5\n\tadd %8, %6\n\tadd %8, %7\n\t"
			     ".endr"
			     : "+r"(a), "+r"(b), "+r"(c), "+r"(d), "+r"(e), "+r"(f), "+r"(g), "+r"(h)
			     : "r"(one));
	benchmark::DoNotOptimize(a + b + c + d + e + f + g + h);
}
BENCHMARK(BM_throughput_add);

BENCHMARK_MAIN();
