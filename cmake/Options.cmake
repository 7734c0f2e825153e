# Optional dependencies: AUTO uses them when found, ON requires them, OFF ignores them.
# A method whose dependency is absent reports `skipped` with the reason at run time.
foreach(dep MPI NCCL NVML)
  set(GPUBARRIER_WITH_${dep} AUTO CACHE STRING "Use ${dep} (AUTO, ON, OFF)")
  set_property(CACHE GPUBARRIER_WITH_${dep} PROPERTY STRINGS AUTO ON OFF)
endforeach()

# Fail configuration when a dependency was required (ON) but not found.
function(gpubarrier_check_required dep found)
  if(GPUBARRIER_WITH_${dep} STREQUAL "ON" AND NOT ${found})
    message(FATAL_ERROR "GPUBARRIER_WITH_${dep}=ON but ${dep} was not found")
  endif()
endfunction()

# AddressSanitizer + UndefinedBehaviorSanitizer for the host C++ code (scripts/test builds
# build-asan with it and runs the unit and CLI tests there). CUDA sources are compiled by nvcc as
# usual, uninstrumented; only what is compiled and linked as CXX gets the flags. Every test of
# such a build runs with the sanitizer options and suppressions of tests/sanitizers/ (set in the
# ctest environment by tests/sanitizers/env.cmake).
option(GPUBARRIER_SANITIZE "Build host C++ code with -fsanitize=address,undefined" OFF)
if(GPUBARRIER_SANITIZE)
  set(GB_SANITIZE_FLAGS
    -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_compile_options("$<$<COMPILE_LANGUAGE:CXX>:${GB_SANITIZE_FLAGS}>")
  add_link_options("$<$<LINK_LANGUAGE:CXX>:${GB_SANITIZE_FLAGS}>")
  set(GB_SANITIZER_DIR ${CMAKE_CURRENT_SOURCE_DIR}/tests/sanitizers)
  # LeakSanitizer's options but the unwinder (env.cmake.in chooses it per test).
  set(GB_LSAN_OPTIONS "suppressions=${GB_SANITIZER_DIR}/lsan.supp:print_suppressions=0:exitcode=86:intercept_tls_get_addr=0")
  configure_file(${GB_SANITIZER_DIR}/env.cmake.in ${CMAKE_BINARY_DIR}/sanitizer_env.cmake @ONLY)
  # Read by ctest before any test (and before test_unit lists its tests): the environment of
  # every test of this build.
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${CMAKE_BINARY_DIR}/sanitizer_env.cmake)
  # No library is unloaded in a sanitized executable (tests/sanitizers/keep_modules.cpp says
  # why): its dlclose, linked into every executable defined after this and exported, replaces
  # the C library's.
  add_library(gb_keep_modules OBJECT ${GB_SANITIZER_DIR}/keep_modules.cpp)
  link_libraries(gb_keep_modules)
  add_link_options("LINKER:--export-dynamic-symbol=dlclose")
endif()

# Host C++ compiled in batches of eight files a target (CMake's unity build; the .cu files have
# their own batches, cmake/CudaBatches.cmake): each batch parses the shared headers and
# instantiates the shared templates (fmt, spdlog, the standard library) once instead of once a
# file, which takes a fresh build's host C++ time on 2 cores from about 28 to about 6 minutes of
# CPU. OFF compiles one object a file, e.g. to see that each file includes what it uses.
option(GPUBARRIER_UNITY_BUILD "Compile host C++ (and CUDA) sources in batches" ON)
if(GPUBARRIER_UNITY_BUILD)
  set(CMAKE_UNITY_BUILD ON)
  set(CMAKE_UNITY_BUILD_BATCH_SIZE 8)
endif()

# The host unit-test executables (test_unit, test_topology, test_systems, node_proxy_check) are
# built with `all` only where this is ON (the default). scripts/setup turns it OFF: the main job
# needs none of them, scripts/test builds them (target gb_host_tests) in the build whose unit
# tests it runs (the sanitized one by default), and building them twice cost the plain build
# about 160 s of CPU on 2 cores. A sanitized build always builds them.
option(GPUBARRIER_HOST_TESTS_IN_ALL "Build the unit-test executables with the default target" ON)
add_custom_target(gb_host_tests)
function(gb_host_test target)
  add_dependencies(gb_host_tests ${target})
  if(NOT GPUBARRIER_HOST_TESTS_IN_ALL AND NOT GPUBARRIER_SANITIZE)
    set_target_properties(${target} PROPERTIES EXCLUDE_FROM_ALL TRUE)
  endif()
endfunction()
