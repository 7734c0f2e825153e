// RAII device allocation; zeroed on creation so checks never read stale data.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

#include "core/cuda_check.hpp"

namespace gb {

template <typename T>
class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    GB_CUDA_CHECK(cudaMalloc(&ptr_, count * sizeof(T)));
    GB_CUDA_CHECK(cudaMemset(ptr_, 0, count * sizeof(T)));
  }
  ~DeviceBuffer() { cudaFree(ptr_); }
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
  T* ptr_ = nullptr;
  std::size_t count_;
};

}  // namespace gb
