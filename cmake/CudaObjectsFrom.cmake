# GPUBARRIER_CUDA_OBJECTS_FROM=<a plain build folder>: link that build's CUDA objects instead of
# compiling every .cu file again. For the sanitized build of scripts/test, whose sanitizers
# instrument host C++ only: nvcc's output there is uninstrumented anyway, so compiling the kernels
# a second time (most of that build's time on 2 cores) would only repeat the plain build's work.
# The plain build must be configured with the same generator (Ninja), options and CUDA
# architectures, and built first; its objects are then link inputs, so rebuilding it relinks
# this one. Its CUDA objects carry its build type (-O3 -DNDEBUG in Release): no type or
# inline function of the project changes its layout or meaning with NDEBUG.
set(GPUBARRIER_CUDA_OBJECTS_FROM "" CACHE PATH
  "A configured and built plain build whose CUDA objects are linked instead of compiled here")

# Removes from `sources_var` (absolute paths compiled into `target`) each .cu file whose object
# the plain build has (CMake's Ninja layout: CMakeFiles/<target>.dir/<path>.o), and sets
# `objects_var` to those objects. A .cu file the plain build compiled elsewhere (with NVSHMEM,
# nvshmem_barrier.cu belongs to gpubarrier_nvshmem) stays a source and is compiled here.
function(gb_cuda_objects_from target sources_var objects_var)
  set(objects "")
  if(GPUBARRIER_CUDA_OBJECTS_FROM)
    if(NOT EXISTS ${GPUBARRIER_CUDA_OBJECTS_FROM}/build.ninja)
      message(FATAL_ERROR "GPUBARRIER_CUDA_OBJECTS_FROM=${GPUBARRIER_CUDA_OBJECTS_FROM} is no "
        "Ninja build folder: configure and build it first (scripts/setup)")
    endif()
    set(kept "")
    foreach(src IN LISTS ${sources_var})
      # A generated source (a batch of cmake/CudaBatches.cmake) is named from the build folder.
      cmake_path(IS_PREFIX CMAKE_BINARY_DIR ${src} NORMALIZE generated)
      if(generated)
        file(RELATIVE_PATH rel ${CMAKE_BINARY_DIR} ${src})
      else()
        file(RELATIVE_PATH rel ${CMAKE_SOURCE_DIR} ${src})
      endif()
      set(obj ${GPUBARRIER_CUDA_OBJECTS_FROM}/CMakeFiles/${target}.dir/${rel}.o)
      if(src MATCHES "\\.cu$" AND EXISTS ${obj})
        list(APPEND objects ${obj})
      else()
        list(APPEND kept ${src})
      endif()
    endforeach()
    set(${sources_var} ${kept} PARENT_SCOPE)
  endif()
  set(${objects_var} ${objects} PARENT_SCOPE)
endfunction()
