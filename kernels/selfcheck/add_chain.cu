#include "selfcheck/add_chain.hpp"

#include <chrono>
#include <climits>
#include <cstdint>
#include <string>
#include <utility>

#include "errors/errors.hpp"
#include "runtime/timers.cuh"

namespace gb::selfcheck {
namespace {

// p = p + q; q = p + q: every add waits for the one before, so the chain runs at the latency of
// FADD. Split in halves so that nvcc unrolls it completely: a single `#pragma unroll` loop this
// long comes out as a loop, whose body would fit the instruction cache at every length.
template <long Adds>
__device__ __forceinline__ void chain(float& p, float& q) {
  if constexpr (Adds <= 1024) {
#pragma unroll
    for (long i = 0; i < Adds / 2; ++i) {
      p = p + q;
      q = p + q;
    }
  } else {
    chain<Adds / 2>(p, q);
    chain<Adds - Adds / 2>(p, q);
  }
}

// Both kernels branch on their inputs before the first clock read: ptxas would otherwise load the
// kernel parameters after it, inside the timed region (cuobjdump -sass shows it). FMUL, not FADD:
// an add there would be shared with the chain's first one. tests/gpu/test_sass.py checks the
// result.

template <long Adds>
__global__ void add_chain(float p, float q, float* out, long long* cycles) {
  if (isnan(p * q)) return;
  const long long t0 = dev::sm_clock();
  chain<Adds>(p, q);
  const long long t1 = dev::sm_clock();
  *out = q;
  *cycles = t1 - t0;
}

// `trips` > 0 is part of the guard: it puts the trip count in a register before t0, so the
// bracket holds the body and the loop's counter and back edge only. The store on the early exit
// is there for the same reason: without it ptxas loads the global-memory descriptor that the
// final stores use right after t0 (a ULDC inside the bracket); with it, before the branch.
// *cycles = -1 also tells the host that no figure was taken. %globaltimer is read just outside
// the clock bracket: cycles[1] is the same stretch in ns, so the host knows the SM clock that
// this very kernel ran at.
__global__ void add_loop(float p, float q, int trips, float* out, long long* cycles) {
  if (isnan(p * q) || trips <= 0) {
    *cycles = -1;
    return;
  }
  const std::uint64_t g0 = dev::global_ns();
  const long long t0 = dev::sm_clock();
  // Not unrolled further: every trip count must run the same instructions.
#pragma unroll 1
  for (int t = 0; t < trips; ++t) chain<kLoopBody>(p, q);
  const long long t1 = dev::sm_clock();
  const std::uint64_t g1 = dev::global_ns();
  *out = q;
  cycles[0] = t1 - t0;
  cycles[1] = static_cast<long long>(g1 - g0);
}

using Kernel = void (*)(float, float, float*, long long*);

constexpr std::array<long, kDifferences.size() + 1> kLengths = [] {
  std::array<long, kDifferences.size() + 1> a{kBaseAdds};
  for (std::size_t i = 0; i < kDifferences.size(); ++i) a[i + 1] = kBaseAdds + kDifferences[i];
  return a;
}();

template <std::size_t... I>
constexpr std::array<Kernel, sizeof...(I)> kernels(std::index_sequence<I...>) {
  return {&add_chain<kLengths[I]>...};
}

constexpr auto kKernels = kernels(std::make_index_sequence<kLengths.size()>());

// Launch, wait, and read the kernel's clock figure back; the host time covers the launch and the
// synchronisation, as the differential technique expects (the study (Zhang, Wahib, Zhang,
// Matsuoka), Eq. 7).
template <typename Launch>
ChainSample timed(const Launch& launch, const DeviceBuffer<long long>& cycles) {
  const auto t0 = std::chrono::steady_clock::now();
  launch();
  GB_CUDA_CHECK(cudaGetLastError());
  GB_CUDA_CHECK(cudaDeviceSynchronize());
  const auto t1 = std::chrono::steady_clock::now();
  const auto back = cycles.to_host();
  return {static_cast<double>(back[0]), std::chrono::duration<double>(t1 - t0).count(),
          back.size() > 1 ? static_cast<double>(back[1]) : 0.0};
}

}  // namespace

AddChain::AddChain() : out_(1), cycles_(1), loop_cycles_(2) {}

// Zeros keep the chains finite; the latency of FADD does not depend on the values.

ChainSample AddChain::run(long adds) {
  for (std::size_t i = 0; i < kLengths.size(); ++i) {
    if (kLengths[i] != adds) continue;
    return timed([&] { kKernels[i]<<<1, 1>>>(0.0f, 0.0f, out_.get(), cycles_.get()); }, cycles_);
  }
  throw Error("no add chain of " + std::to_string(adds) + " adds is compiled in");
}

ChainSample AddChain::run_loop(long adds) {
  if (adds <= 0 || adds % kLoopBody != 0 || adds / kLoopBody > INT_MAX)
    throw Error("the add loop runs a positive multiple of " + std::to_string(kLoopBody) +
                " adds, not " + std::to_string(adds));
  const int trips = static_cast<int>(adds / kLoopBody);
  return timed([&] { add_loop<<<1, 1>>>(0.0f, 0.0f, trips, out_.get(), loop_cycles_.get()); },
               loop_cycles_);
}

}  // namespace gb::selfcheck
