// RAII device allocation; zeroed on creation so checks never read stale data. Given back when
// the zeroing throws; a failed cudaFree is reported on stderr (core/teardown.hpp), never thrown.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/teardown.hpp"

namespace gb {

template <typename T>
class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    GB_CUDA_CHECK(cudaMalloc(&ptr_, count * sizeof(T)));
    try {
      zero();
    } catch (...) {
      release();  // the destructor does not run for a constructor that throws
      throw;
    }
  }
  ~DeviceBuffer() { release(); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  T* get() const { return ptr_; }
  std::vector<T> to_host() const {
    std::vector<T> host(count_);
    GB_CUDA_CHECK(cudaMemcpy(host.data(), ptr_, count_ * sizeof(T), cudaMemcpyDeviceToHost));
    return host;
  }
  void zero() { GB_CUDA_CHECK(cudaMemset(ptr_, 0, count_ * sizeof(T))); }

 private:
  void release() noexcept {
    const cudaError_t rc = cudaFree(ptr_);
    if (rc != cudaSuccess) report_release_failure("a device buffer", cudaGetErrorString(rc));
  }

  T* ptr_ = nullptr;
  std::size_t count_;
};

}  // namespace gb
