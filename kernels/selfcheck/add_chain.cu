#include "selfcheck/add_chain.hpp"

#include <chrono>
#include <string>
#include <utility>

#include "common/timers.cuh"
#include "core/errors.hpp"

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

template <long Adds>
__global__ void add_chain(float p, float q, float* out, long long* cycles) {
  // A branch on the inputs before the first clock read: ptxas would otherwise load the kernel
  // parameters after it, inside the timed region (seed 004). FMUL, not FADD: an add here would be
  // shared with the chain's first one. tests/gpu/test_sass.py checks the result.
  if (isnan(p * q)) return;
  const long long t0 = dev::sm_clock();
  chain<Adds>(p, q);
  const long long t1 = dev::sm_clock();
  *out = q;
  *cycles = t1 - t0;
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

}  // namespace

AddChain::AddChain() : out_(1), cycles_(1) {}

ChainSample AddChain::run(long adds) {
  for (std::size_t i = 0; i < kLengths.size(); ++i) {
    if (kLengths[i] != adds) continue;
    // Zeros keep the chain finite; the latency of FADD does not depend on the values.
    const auto t0 = std::chrono::steady_clock::now();
    kKernels[i]<<<1, 1>>>(0.0f, 0.0f, out_.get(), cycles_.get());
    GB_CUDA_CHECK(cudaGetLastError());
    GB_CUDA_CHECK(cudaDeviceSynchronize());
    const auto t1 = std::chrono::steady_clock::now();
    return {static_cast<double>(cycles_.to_host()[0]),
            std::chrono::duration<double>(t1 - t0).count()};
  }
  throw Error("no add chain of " + std::to_string(adds) + " adds is compiled in");
}

}  // namespace gb::selfcheck
