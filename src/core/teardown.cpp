#include "core/teardown.hpp"

#include <cstdio>
#include <exception>

#include "core/cuda_check.hpp"
#include "errors/errors.hpp"

namespace gb {

void report_release_failure(std::string_view what, std::string_view error) noexcept {
  try {
    std::fprintf(stderr, "gpubarrier: %s: releasing %.*s failed: %.*s\n", process_label().c_str(),
                 static_cast<int>(what.size()), what.data(), static_cast<int>(error.size()),
                 error.data());
  } catch (...) {  // no memory for the label: say it without
    std::fprintf(stderr, "gpubarrier: releasing %.*s failed: %.*s\n", static_cast<int>(what.size()),
                 what.data(), static_cast<int>(error.size()), error.data());
  }
}

std::string cuda_failure(cudaError_t rc) {
  if (rc == cudaSuccess) return {};
  return std::string(cudaGetErrorName(rc)) + ": " + cudaGetErrorString(rc);
}

namespace {

// What `release` says went wrong ("" for nothing), exceptions turned into their text.
std::string attempt(const std::function<std::string()>& release) noexcept {
  try {
    return release();
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "unknown exception";
  }
}

}  // namespace

void Releases::add(std::string what, std::function<std::string()> release) {
  try {
    steps_.emplace_back(std::move(what), release);
  } catch (...) {
    if (const std::string error = attempt(release); !error.empty())
      report_release_failure("(not recorded: out of memory)", error);
    throw;
  }
}

int Releases::release_all() noexcept {
  int failures = 0;
  while (!steps_.empty()) {
    auto& [what, release] = steps_.back();
    if (const std::string error = attempt(release); !error.empty()) {
      ++failures;
      report_release_failure(what, error);
    }
    steps_.pop_back();
  }
  return failures;
}

void* device_allocation(Releases& releases, int device, std::size_t bytes,
                        const std::string& what) {
  GB_CUDA_CHECK(cudaSetDevice(device));
  void* p = nullptr;
  GB_CUDA_CHECK(cudaMalloc(&p, bytes));
  releases.add(what + " on GPU " + std::to_string(device), [device, p] {
    const std::string set = cuda_failure(cudaSetDevice(device));
    return set.empty() ? cuda_failure(cudaFree(p)) : set;
  });
  return p;
}

}  // namespace gb
