#include "team/host_shared.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "core/cuda_check.hpp"
#include "core/mpi_check.hpp"

namespace gb::mg {
namespace {

#ifdef GPUBARRIER_HAVE_MPI
// Rank 0 creates the segment and unlinks it once every rank has mapped it, so nothing is left in
// /dev/shm even when a rank dies later.
void* map_node_segment(const Team& team, std::size_t bytes) {
  char name[64] = {};
  int fd = -1;
  if (team.member(0) == 0) {
    std::snprintf(name, sizeof name, "/gpubarrier-%d-%p", static_cast<int>(getpid()),
                  static_cast<const void*>(&team));
    fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
    if (fd < 0 || ftruncate(fd, static_cast<off_t>(bytes)) != 0)
      throw Error(std::string("shm_open/ftruncate ") + name + ": " + std::strerror(errno));
  }
  GB_MPI_CHECK(MPI_Bcast(name, sizeof name, MPI_CHAR, 0, MPI_COMM_WORLD));
  if (fd < 0) fd = shm_open(name, O_RDWR, 0600);
  if (fd < 0) throw Error(std::string("shm_open ") + name + ": " + std::strerror(errno));
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  if (p == MAP_FAILED) throw Error(std::string("mmap ") + name + ": " + std::strerror(errno));
  team.host_barrier();
  if (team.member(0) == 0) shm_unlink(name);
  return p;
}
#endif

}  // namespace

HostShared::HostShared(const Team& team, std::size_t bytes)
    : team_(team), bytes_((bytes + 4095) / 4096 * 4096) {
  GB_CUDA_CHECK(cudaSetDevice(team.device(0)));
  if (team.mode() == Mode::threads) {
    GB_CUDA_CHECK(cudaHostAlloc(&host_, bytes_, cudaHostAllocPortable | cudaHostAllocMapped));
    std::memset(host_, 0, bytes_);
  } else {
#ifdef GPUBARRIER_HAVE_MPI
    host_ = map_node_segment(team, bytes_);
    shm_ = true;
    GB_CUDA_CHECK(
        cudaHostRegister(host_, bytes_, cudaHostRegisterPortable | cudaHostRegisterMapped));
#endif
  }
  for (int l = 0; l < team.local_count(); ++l) {
    void* d = nullptr;
    GB_CUDA_CHECK(cudaSetDevice(team.device(l)));
    GB_CUDA_CHECK(cudaHostGetDevicePointer(&d, host_, 0));
    views_.push_back(d);
  }
  team.host_barrier();
}

HostShared::~HostShared() {
  team_.host_barrier();
  if (shm_) {
    cudaHostUnregister(host_);
    munmap(host_, bytes_);
  } else {
    cudaFreeHost(host_);
  }
}

}  // namespace gb::mg
