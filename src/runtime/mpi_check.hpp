// GB_MPI_CHECK: turns a failed MPI call into gb::ApiError with call text, file:line, host, rank.
#pragma once
#ifdef GPUBARRIER_HAVE_MPI
#include <mpi.h>

#include <string>

#include "errors/errors.hpp"

#define GB_MPI_CHECK(call)                                                                   \
  do {                                                                                       \
    const int gb_rc_ = (call);                                                               \
    if (gb_rc_ != MPI_SUCCESS) {                                                             \
      char gb_msg_[MPI_MAX_ERROR_STRING];                                                    \
      int gb_len_ = 0;                                                                       \
      MPI_Error_string(gb_rc_, gb_msg_, &gb_len_);                                           \
      throw ::gb::ApiError("MPI", #call, std::string(gb_msg_, gb_len_), __FILE__, __LINE__); \
    }                                                                                        \
  } while (0)
#endif
