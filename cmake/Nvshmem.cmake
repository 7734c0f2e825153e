# NVSHMEM for multigpu.nvshmem.barrier (kernels/multigpu/nvshmem_barrier.cu) and for
# multinode.hierarchical's network=1: the process's runtime
# (src/runtime/nvshmem_runtime.*) and the node leaders' device-initiated signals
# (kernels/multinode/nvshmem_leaders.cu) exist only in a build with NVSHMEM.
# GPUBARRIER_NVSHMEM_ROOT: a prefix with include/, lib/libnvshmem_device.a and
# lib/libnvshmem_host.so.3, as scripts/setup-nvshmem unpacks PyPI's nvidia-nvshmem-cu13 (scripts/setup
# passes it; empty: built without NVSHMEM, and the method says so). NVSHMEM's device code needs
# separable compilation (-rdc), which would change every other kernel's code and timings: the
# methods are a static library of their own that resolves its device symbols itself, linked whole
# into gpubarrier (its registrations must reach the link) with libnvshmem_host.so.3 found by rpath.
# The NVSHMEM runtime's initialisation registers NVSHMEM's device state in that same device link,
# so src/runtime/nvshmem_runtime.cu is compiled there too (gpubarrier_runtime leaves it out): the
# one file of a layer folder that another target compiles (tests/layering: RDC_SLICES).
# Included after GB_METHOD_SOURCES is globbed; sets GB_NVSHMEM_TARGET for the executable's link.
set(GPUBARRIER_NVSHMEM_ROOT "" CACHE PATH
  "NVSHMEM prefix (include/, lib/libnvshmem_device.a, lib/libnvshmem_host.so.3); empty: without")
set(GB_NVSHMEM_TARGET "")
set(_nvshmem_only ${CMAKE_CURRENT_SOURCE_DIR}/kernels/multinode/nvshmem_leaders.cu)
list(REMOVE_ITEM GB_METHOD_SOURCES ${_nvshmem_only})
set(_nvshmem_runtime ${CMAKE_CURRENT_SOURCE_DIR}/src/runtime/nvshmem_runtime.cu)
if(GPUBARRIER_NVSHMEM_ROOT)
  set(_root ${GPUBARRIER_NVSHMEM_ROOT})
  foreach(_file include/nvshmem.h lib/libnvshmem_device.a lib/libnvshmem_host.so.3)
    if(NOT EXISTS ${_root}/${_file})
      message(FATAL_ERROR "GPUBARRIER_NVSHMEM_ROOT=${_root} has no ${_file} "
                          "(scripts/setup-nvshmem unpacks one; leave it empty to build without)")
    endif()
  endforeach()
  set(_method ${CMAKE_CURRENT_SOURCE_DIR}/kernels/multigpu/nvshmem_barrier.cu)
  list(REMOVE_ITEM GB_METHOD_SOURCES ${_method})

  add_library(gb_nvshmem_device STATIC IMPORTED)
  set_target_properties(gb_nvshmem_device PROPERTIES
    IMPORTED_LOCATION ${_root}/lib/libnvshmem_device.a)
  add_library(gb_nvshmem_host SHARED IMPORTED)
  set_target_properties(gb_nvshmem_host PROPERTIES
    IMPORTED_LOCATION ${_root}/lib/libnvshmem_host.so.3 IMPORTED_SONAME libnvshmem_host.so.3)

  set(_nvshmem_sources ${_method} ${_nvshmem_only} ${_nvshmem_runtime})
  gb_cuda_outside_unity(_nvshmem_sources)
  add_library(gpubarrier_nvshmem STATIC ${_nvshmem_sources})
  set_target_properties(gpubarrier_nvshmem PROPERTIES
    CUDA_SEPARABLE_COMPILATION ON CUDA_RESOLVE_DEVICE_SYMBOLS ON)
  target_compile_definitions(gpubarrier_nvshmem PRIVATE GPUBARRIER_HAVE_NVSHMEM)
  target_include_directories(gpubarrier_nvshmem PRIVATE ${_root}/include kernels)
  target_link_libraries(gpubarrier_nvshmem PUBLIC gpubarrier_runtime gpubarrier_core
    PRIVATE gb_nvshmem_device gb_nvshmem_host gpubarrier_barriers)
  target_compile_options(gpubarrier_nvshmem PRIVATE
    $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr -lineinfo>)
  set(GB_NVSHMEM_TARGET gpubarrier_nvshmem)
  message(STATUS "NVSHMEM: ${_root} (multigpu.nvshmem.barrier and multinode.hierarchical "
                 "network=1 built)")
else()
  message(STATUS "NVSHMEM: not used (GPUBARRIER_NVSHMEM_ROOT empty; multigpu.nvshmem.barrier "
                 "and multinode.hierarchical network=1 say so when run)")
endif()
