#include "runtime/peer_memory.hpp"

#include <exception>

#include "core/agreement.hpp"
#include "core/cuda_check.hpp"
#include "runtime/mpi_check.hpp"

namespace gb::mg {
namespace {

void enable_peer_access(int device, int peer) {
  GB_CUDA_CHECK(cudaSetDevice(device));
  const cudaError_t rc = cudaDeviceEnablePeerAccess(peer, 0);
  if (rc == cudaErrorPeerAccessAlreadyEnabled) {
    cudaGetLastError();  // the sticky "already enabled" is the state we want
    return;
  }
  GB_CUDA_CHECK(rc);
}

}  // namespace

std::string peer_access_problem(const std::vector<int>& devices) {
  for (int a : devices)
    for (int b : devices) {
      if (a == b) continue;
      int can = 0;
      GB_CUDA_CHECK(cudaDeviceCanAccessPeer(&can, a, b));
      if (!can)
        return "GPU " + std::to_string(a) + " cannot access GPU " + std::to_string(b) +
               "'s memory (no P2P over NVLink or PCIe)";
    }
  return {};
}

PeerMemory::PeerMemory(const Team& team, std::size_t bytes, Span span) : team_(team), span_(span) {
  const int n = team.local_count();
  const int members = team.size(span);
  views_.assign(n, std::vector<void*>(members, nullptr));
  for (int l = 0; l < n; ++l) {
    void* p = device_allocation(releases_, team.device(l), bytes, "peer memory");
    allocations_.push_back(p);
    GB_CUDA_CHECK(cudaMemset(p, 0, bytes));
    GB_CUDA_CHECK(cudaDeviceSynchronize());
  }
  if (team.mode() == Mode::threads) {
    for (int a = 0; a < n; ++a) {
      for (int b = 0; b < n; ++b) {
        if (a != b) enable_peer_access(team.device(a), team.device(b));
        views_[a][b] = allocations_[b];  // unified addressing: one pointer for every GPU
      }
    }
    return;
  }
#ifdef GPUBARRIER_HAVE_MPI
  cudaIpcMemHandle_t mine;
  GB_CUDA_CHECK(cudaIpcGetMemHandle(&mine, allocations_.front()));
  team.host_barrier();  // a rank whose allocation failed meets the others here, not in the gather
  std::vector<cudaIpcMemHandle_t> all(members);
  GB_MPI_CHECK(MPI_Allgather(&mine, sizeof mine, MPI_BYTE, all.data(), sizeof mine, MPI_BYTE,
                             span == Span::team ? MPI_COMM_WORLD : team.node_comm()));
  for (int m = 0; m < members; ++m) {
    if (m == team.member(span, 0)) {
      views_[0][m] = allocations_.front();
      continue;
    }
    void* p = nullptr;
    GB_CUDA_CHECK(cudaIpcOpenMemHandle(&p, all[m], cudaIpcMemLazyEnablePeerAccess));
    releases_.add("the IPC mapping of " + std::string(span == Span::team ? "rank " : "node rank ") +
                      std::to_string(m) + "'s peer memory",
                  [p] { return cuda_failure(cudaIpcCloseMemHandle(p)); });
    views_[0][m] = p;
  }
  // No rank may signal into a peer's memory before that peer has zeroed it.
  team.host_barrier();
#endif
}

PeerMemory::~PeerMemory() {
  // While an exception unwinds the barrier waits for nobody (core/agreement.hpp); releases_
  // unmaps and frees after it.
  try {
    team_.host_barrier();
  } catch (const std::exception& e) {
    report_release_failure("peer memory (the barrier before it)", e.what());
  }
}

}  // namespace gb::mg
