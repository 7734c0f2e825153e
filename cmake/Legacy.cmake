# The legacy helper: gpubarrier-legacy, built by legacy/CMakeLists.txt with an older
# CUDA toolkit than the main project's (CUDA 13 removed this_multi_grid() and
# cudaLaunchCooperativeKernelMultiDevice). One CMake project cannot use two CUDA toolkits, so it
# is an ExternalProject, and only when asked for:
#   -DGPUBARRIER_LEGACY_CUDA=/path/to/cuda-11.x-or-12.x   (`GPUBARRIER_LEGACY=1 scripts/setup`
#                                                         unpacks CUDA 11.8 and passes it)
#   cmake --build build --target gpubarrier-legacy
# Not part of `all`: the main build never depends on it, and a helper that fails to build says
# so in its own step. The binary lands next to gpubarrier, where gpubarrier looks for it.
set(GPUBARRIER_LEGACY_CUDA "" CACHE PATH
  "CUDA 11.x/12.x toolkit (folder with bin/nvcc) for the gpubarrier-legacy helper; empty: none")
set(GPUBARRIER_LEGACY_CUDA_ARCH "" CACHE STRING
  "CUDA architectures of the helper (default: CMAKE_CUDA_ARCHITECTURES)")

if(GPUBARRIER_LEGACY_CUDA)
  include(ExternalProject)
  set(gb_legacy_arch "${GPUBARRIER_LEGACY_CUDA_ARCH}")
  if(NOT gb_legacy_arch)
    set(gb_legacy_arch "${CMAKE_CUDA_ARCHITECTURES}")
  endif()
  string(REPLACE ";" "$<SEMICOLON>" gb_legacy_arch "${gb_legacy_arch}")
  ExternalProject_Add(gpubarrier-legacy
    SOURCE_DIR ${CMAKE_SOURCE_DIR}/legacy
    BINARY_DIR ${CMAKE_BINARY_DIR}/legacy
    CMAKE_ARGS
      -DGPUBARRIER_LEGACY_CUDA=${GPUBARRIER_LEGACY_CUDA}
      -DCMAKE_BUILD_TYPE=Release
      -DCMAKE_CUDA_ARCHITECTURES=${gb_legacy_arch}
      -DCMAKE_RUNTIME_OUTPUT_DIRECTORY=${CMAKE_BINARY_DIR}
    INSTALL_COMMAND ""
    BUILD_ALWAYS ON  # its own ninja decides what is out of date in legacy/
    EXCLUDE_FROM_ALL ON
    USES_TERMINAL_BUILD ON)
endif()
