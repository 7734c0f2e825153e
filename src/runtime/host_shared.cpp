#include "runtime/host_shared.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <optional>

#include "core/cuda_check.hpp"
#include "runtime/mpi_check.hpp"

namespace gb::mg {
namespace {

#ifdef GPUBARRIER_HAVE_MPI
std::string errno_text() {
  return std::strerror(errno);
}

// A file descriptor, closed when it goes.
class Descriptor {
 public:
  ~Descriptor() { reset(-1); }
  void reset(int fd) {
    if (fd_ >= 0 && close(fd_) != 0)
      report_release_failure("a shared-memory descriptor", errno_text());
    fd_ = fd;
  }
  int get() const { return fd_; }
  explicit operator bool() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

// The segment's name while it is linked: unlinked when the mapping is done or abandoned, so that
// nothing is left in /dev/shm, whatever throws.
class LinkedName {
 public:
  explicit LinkedName(const char* name) : name_(name) {}
  ~LinkedName() {
    if (shm_unlink(name_.c_str()) != 0) report_release_failure("shm name " + name_, errno_text());
  }
  LinkedName(const LinkedName&) = delete;
  LinkedName& operator=(const LinkedName&) = delete;

 private:
  std::string name_;
};

// The node's leader (node-local rank 0) creates the node's segment and unlinks it once every rank
// has mapped it, so nothing is left in /dev/shm even when a rank dies later. The name travels
// among the node's ranks only: a segment never spans nodes (nor simulated ones). The mapping is
// given back by `releases`.
void* map_node_segment(const Team& team, std::size_t bytes, Releases& releases) {
  char name[64] = {};
  Descriptor fd;
  std::optional<LinkedName> linked;
  if (team.node_leader()) {
    std::snprintf(name, sizeof name, "/gpubarrier-%d-%p", static_cast<int>(getpid()),
                  static_cast<const void*>(&team));
    fd.reset(shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600));
    if (!fd) throw Error(std::string("shm_open ") + name + ": " + errno_text());
    linked.emplace(name);
    if (ftruncate(fd.get(), static_cast<off_t>(bytes)) != 0)
      throw Error(std::string("ftruncate ") + name + ": " + errno_text());
  }
  team.host_barrier();  // a leader that failed above meets the others here, not in the broadcast
  GB_MPI_CHECK(MPI_Bcast(name, sizeof name, MPI_CHAR, 0, team.node_comm()));
  if (!fd) fd.reset(shm_open(name, O_RDWR, 0600));
  if (!fd) throw Error(std::string("shm_open ") + name + ": " + errno_text());
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd.get(), 0);
  if (p == MAP_FAILED) throw Error(std::string("mmap ") + name + ": " + errno_text());
  releases.add(std::string("the mapping of ") + name,
               [p, bytes] { return munmap(p, bytes) == 0 ? std::string() : errno_text(); });
  team.host_barrier();  // every rank has mapped it: rank 0 may unlink the name (`linked`)
  return p;
}
#endif

}  // namespace

HostShared::HostShared(const Team& team, std::size_t bytes)
    : team_(team), bytes_((bytes + 4095) / 4096 * 4096) {
  GB_CUDA_CHECK(cudaSetDevice(team.device(0)));
  if (team.mode() == Mode::threads) {
    GB_CUDA_CHECK(cudaHostAlloc(&host_, bytes_, cudaHostAllocPortable | cudaHostAllocMapped));
    releases_.add("host-mapped memory", [p = host_] { return cuda_failure(cudaFreeHost(p)); });
    std::memset(host_, 0, bytes_);
  } else {
#ifdef GPUBARRIER_HAVE_MPI
    host_ = map_node_segment(team, bytes_, releases_);
    GB_CUDA_CHECK(
        cudaHostRegister(host_, bytes_, cudaHostRegisterPortable | cudaHostRegisterMapped));
    releases_.add("the registration of the node's shared memory",
                  [p = host_] { return cuda_failure(cudaHostUnregister(p)); });
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
  // While an exception unwinds the barrier waits for nobody (core/agreement.hpp); releases_
  // gives the memory back after it.
  try {
    team_.host_barrier();
  } catch (const std::exception& e) {
    report_release_failure("host-shared memory (the barrier before it)", e.what());
  }
}

}  // namespace gb::mg
