// SPDX-License-Identifier: GPL-2.0
// The known-answer kernels of examples/suite.c for Google Benchmark, the
// same inline asm, 1000 dependent instructions per iteration; bench/run.sh
// compares how stable each harness's estimate is.
#include <benchmark/benchmark.h>

#include <cstdint>

static void BM_add_chain(benchmark::State &state)
{
	uint64_t x = 0;

	for (auto _ : state)
		asm volatile(".rept 1000\n\tadd %1, %0\n\t.endr" : "+r"(x) : "r"(1UL));
	benchmark::DoNotOptimize(x);
	state.SetItemsProcessed(state.iterations() * 1000);
}
BENCHMARK(BM_add_chain);

static void BM_imul_chain(benchmark::State &state)
{
	uint64_t x = 3;

	for (auto _ : state)
		asm volatile(".rept 1000\n\timul %0, %0\n\t.endr" : "+r"(x));
	benchmark::DoNotOptimize(x);
	state.SetItemsProcessed(state.iterations() * 1000);
}
BENCHMARK(BM_imul_chain);

BENCHMARK_MAIN();
