#include <string>

#include "helper.hpp"

namespace legacy {

void check(cudaError_t rc, const char* call, const char* file, int line) {
  if (rc == cudaSuccess) return;
  throw Failure(std::string(call) + " failed: " + cudaGetErrorName(rc) + " (" +
                cudaGetErrorString(rc) + ") at " + file + ":" + std::to_string(line));
}

Devices::Devices(const std::vector<int>& ids, int host_wait) : ids_(ids) {
  static const unsigned kFlags[] = {cudaDeviceScheduleAuto, cudaDeviceScheduleSpin,
                                    cudaDeviceScheduleBlockingSync};
  if (host_wait < 0 || host_wait > 2) throw Failure("--host-wait must be 0, 1 or 2");
  for (int d : ids_) {
    int multi = 0, sms = 0;
    LEGACY_CHECK(cudaDeviceGetAttribute(&multi, cudaDevAttrCooperativeMultiDeviceLaunch, d));
    if (!multi)
      throw Unsupported("GPU " + std::to_string(d) +
                        " has no cooperative multi-device launch "
                        "(cudaDevAttrCooperativeMultiDeviceLaunch = 0)");
    LEGACY_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, d));
    if (sms_ && sms != sms_)
      throw Unsupported("GPUs with different SM counts (" + std::to_string(sms_) + ", " +
                        std::to_string(sms) + "): a multi-device launch has one grid size");
    sms_ = sms;
    LEGACY_CHECK(cudaSetDevice(d));
    LEGACY_CHECK(cudaSetDeviceFlags(kFlags[host_wait]));
    cudaStream_t s = nullptr;
    LEGACY_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    streams_.push_back(s);
  }
}

Devices::~Devices() {
  for (cudaStream_t s : streams_) cudaStreamDestroy(s);
}

void Devices::enable_peer_access(const char* need) const {
  for (int a : ids_)
    for (int b : ids_) {
      if (a == b) continue;
      int can = 0;
      LEGACY_CHECK(cudaDeviceCanAccessPeer(&can, a, b));
      if (!can)
        throw Unsupported("GPU " + std::to_string(a) + " cannot access GPU " + std::to_string(b) +
                          "'s memory (" + need + ")");
      LEGACY_CHECK(cudaSetDevice(a));
      const cudaError_t rc = cudaDeviceEnablePeerAccess(b, 0);
      if (rc == cudaErrorPeerAccessAlreadyEnabled)
        cudaGetLastError();  // clears the sticky-looking last error; nothing is wrong
      else
        LEGACY_CHECK(rc);
    }
}

void Devices::launch(const void* kernel, dim3 grid, dim3 block,
                     const std::vector<void**>& params) const {
  std::vector<cudaLaunchParams> p(ids_.size());
  for (std::size_t i = 0; i < ids_.size(); ++i)
    p[i] = {const_cast<void*>(kernel), grid, block, params[i], 0, streams_[i]};
  LEGACY_CHECK(cudaLaunchCooperativeKernelMultiDevice(p.data(), count(), 0));
}

void Devices::wait() const {
  for (std::size_t i = 0; i < ids_.size(); ++i) {
    LEGACY_CHECK(cudaSetDevice(ids_[i]));
    LEGACY_CHECK(cudaStreamSynchronize(streams_[i]));
  }
}

std::string residency_problem(const void* kernel, const char* name, int blocks_per_sm,
                              int threads) {
  if (blocks_per_sm < 1 || threads < 1 || threads > 1024)
    return "needs blocks_per_sm >= 1 and 1..1024 threads_per_block";
  int fit = 0;
  LEGACY_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, kernel, threads, 0));
  if (blocks_per_sm <= fit) return {};
  return std::to_string(blocks_per_sm) + " blocks/SM x " + std::to_string(threads) +
         " threads: only " + std::to_string(fit) + " blocks of " + name +
         " fit on an SM, and a cooperative launch needs every block resident";
}

}  // namespace legacy
