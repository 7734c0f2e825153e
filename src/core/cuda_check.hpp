// GB_CUDA_CHECK: turns a failed CUDA runtime call into gb::ApiError with call text, file:line,
// host and rank.
#pragma once
#include <cuda_runtime.h>

#include <string>

#include "errors/errors.hpp"

#define GB_CUDA_CHECK(call)                                                                    \
  do {                                                                                         \
    const cudaError_t gb_rc_ = (call);                                                         \
    if (gb_rc_ != cudaSuccess)                                                                 \
      throw ::gb::ApiError(                                                                    \
          "CUDA", #call,                                                                       \
          std::string(cudaGetErrorName(gb_rc_)) + ": " + cudaGetErrorString(gb_rc_), __FILE__, \
          __LINE__);                                                                           \
  } while (0)
