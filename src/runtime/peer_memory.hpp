// Device memory that every member of a team (or of this process's node: Span::node) can address:
// one zeroed allocation per member in that member's own GPU, reached by the others over
// NVLink/PCIe. threads mode enables peer access (cudaDeviceEnablePeerAccess); mpi mode exchanges
// CUDA IPC handles with MPI_Allgather, among the node's ranks only for Span::node (an IPC handle
// means nothing on another node).
// A constructor that throws halfway gives back what it had acquired (core/teardown.hpp).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <vector>

#include "core/teardown.hpp"
#include "runtime/team.hpp"

namespace gb::mg {

class PeerMemory {
 public:
  // Collective; returns once every member's allocation is zeroed and mapped. Members are indexed
  // as team.member(span, local) counts them: in the team, or in this process's node.
  PeerMemory(const Team& team, std::size_t bytes, Span span = Span::team);
  // Collective: waits until no member can still touch a peer's allocation, then unmaps and
  // frees. While an exception unwinds it does not wait (core/agreement.hpp): a failure is agreed
  // on before it is thrown past a collective, so every member has left its kernels by then.
  ~PeerMemory();
  PeerMemory(const PeerMemory&) = delete;
  PeerMemory& operator=(const PeerMemory&) = delete;

  // Member m's allocation (m of the span) as the GPU of local member l addresses it.
  void* at(int local, int member) const { return views_[local][member]; }
  void* own(int local) const { return at(local, team_.member(span_, local)); }

 private:
  const Team& team_;
  Span span_;
  Releases releases_;                      // allocations, then IPC mappings (mpi mode)
  std::vector<void*> allocations_;         // one per local member
  std::vector<std::vector<void*>> views_;  // [local][member]
};

// Why these GPUs cannot address each other's memory, empty when they can (or there is one).
std::string peer_access_problem(const std::vector<int>& devices);

}  // namespace gb::mg
