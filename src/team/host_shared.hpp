// Pinned host memory that every member's GPU addresses directly (host-mapped): the medium of the
// cuda-samples PeerGroup::sync pattern. threads mode: cudaHostAlloc; mpi mode: one POSIX
// shared-memory segment of the node, registered with cudaHostRegister in every rank.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "team/team.hpp"

namespace gb::mg {

class HostShared {
 public:
  HostShared(const Team& team, std::size_t bytes);  // collective; zeroed
  ~HostShared();
  HostShared(const HostShared&) = delete;
  HostShared& operator=(const HostShared&) = delete;

  // The memory as the GPU of local member l addresses it.
  void* device_view(int local) const { return views_[local]; }

 private:
  const Team& team_;
  std::size_t bytes_;
  void* host_ = nullptr;
  bool shm_ = false;
  std::vector<void*> views_;
};

}  // namespace gb::mg
