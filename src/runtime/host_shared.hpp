// Pinned host memory that every member's GPU addresses directly (host-mapped): the medium of the
// cuda-samples PeerGroup::sync pattern, and of the host proxy of multinode.hierarchical.
// threads mode: cudaHostAlloc; mpi mode: one POSIX shared-memory segment per node, shared by the
// node's ranks and registered with cudaHostRegister in every rank. A
// constructor that throws halfway gives back what it had acquired (core/teardown.hpp).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/teardown.hpp"
#include "runtime/team.hpp"

namespace gb::mg {

class HostShared {
 public:
  HostShared(const Team& team, std::size_t bytes);  // collective; zeroed
  // Collective, except while an exception unwinds (core/agreement.hpp).
  ~HostShared();
  HostShared(const HostShared&) = delete;
  HostShared& operator=(const HostShared&) = delete;

  // The memory as the GPU of local member l addresses it.
  void* device_view(int local) const { return views_[local]; }
  // The memory as this process addresses it.
  void* host() const { return host_; }

 private:
  const Team& team_;
  std::size_t bytes_;
  Releases releases_;  // the host memory, then its registration with CUDA (mpi mode)
  void* host_ = nullptr;
  std::vector<void*> views_;
};

}  // namespace gb::mg
