// GB_NCCL_CHECK: turns a failed NCCL call into gb::ApiError with call text, file:line, host, rank.
#pragma once
#ifdef GPUBARRIER_HAVE_NCCL
#include <nccl.h>

#include <string>

#include "errors/errors.hpp"

#define GB_NCCL_CHECK(call)                                                                \
  do {                                                                                     \
    const ncclResult_t gb_rc_ = (call);                                                    \
    if (gb_rc_ != ncclSuccess)                                                             \
      throw ::gb::ApiError("NCCL", #call, ncclGetErrorString(gb_rc_), __FILE__, __LINE__); \
  } while (0)
#endif
