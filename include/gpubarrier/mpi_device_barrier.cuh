// gpubarrier: the MPI adapter of the one-rank-per-GPU device barrier (ipc_device_barrier.cuh):
// the handle exchange as an MPI_Allgather over a communicator whose ranks are the members, in
// rank order. Include it only where MPI is; the rest of gpubarrier does not need MPI.
//
//   MPI_Comm node;   // the ranks of one node, one per GPU
//   MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
//   cudaSetDevice(local_rank);
//   gpubarrier::DeviceBarrierState state;
//   gpubarrier::make_mpi_device_barrier(node, &state, 2'000'000'000);
//   ... kernels ...; MPI_Barrier(node);
//   gpubarrier::free_ipc_device_barrier(&state);
#pragma once

#include <mpi.h>

#include <cstdint>

#include "gpubarrier/ipc_device_barrier.cuh"

namespace gpubarrier {

inline AllGather mpi_allgather(MPI_Comm comm) {
  return [comm](const void* mine, void* all, std::size_t bytes) {
    return MPI_Allgather(mine, static_cast<int>(bytes), MPI_BYTE, all, static_cast<int>(bytes),
                         MPI_BYTE, comm) == MPI_SUCCESS;
  };
}

// A collective over `comm`: member = rank in comm, members = its size.
inline cudaError_t make_mpi_device_barrier(MPI_Comm comm, DeviceBarrierState* state,
                                           std::uint64_t watchdog_ns = 0) {
  int rank = 0, size = 0;
  if (MPI_Comm_rank(comm, &rank) != MPI_SUCCESS || MPI_Comm_size(comm, &size) != MPI_SUCCESS)
    return cudaErrorUnknown;
  return make_ipc_device_barrier(rank, size, mpi_allgather(comm), state, watchdog_ns);
}

}  // namespace gpubarrier
