# The public barrier headers, include/gpubarrier/ (docs/library.md): an INTERFACE library below
# every layer, which includes nothing of the project. The benchmark's methods are built on it
# (gpu.grid.count-epoch, multigpu.device.push), and users get it as gpubarrier::barriers from
# `find_package(gpubarrier CONFIG)` on an installed prefix (`cmake --install build --component
# barriers` installs these alone):
#   P/include/gpubarrier/*.cuh
#   P/lib/cmake/gpubarrier/gpubarrierConfig.cmake, gpubarrierConfigVersion.cmake,
#                          gpubarrierTargets.cmake
include(CMakePackageConfigHelpers)

add_library(gpubarrier_barriers INTERFACE)
add_library(gpubarrier::barriers ALIAS gpubarrier_barriers)
target_include_directories(gpubarrier_barriers INTERFACE
  $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include> $<INSTALL_INTERFACE:include>)
# C++17 and CUDA 12 or newer (the package's config asks for the toolkit); the headers call the
# CUDA runtime.
target_compile_features(gpubarrier_barriers INTERFACE cxx_std_17 cuda_std_17)
target_link_libraries(gpubarrier_barriers INTERFACE CUDA::cudart)
set_target_properties(gpubarrier_barriers PROPERTIES EXPORT_NAME barriers)

set(GB_INSTALL_CMAKE lib/cmake/gpubarrier)
install(DIRECTORY include/gpubarrier DESTINATION include COMPONENT barriers)
install(TARGETS gpubarrier_barriers EXPORT gpubarrierTargets COMPONENT barriers)
install(EXPORT gpubarrierTargets NAMESPACE gpubarrier:: DESTINATION ${GB_INSTALL_CMAKE}
  COMPONENT barriers)
configure_package_config_file(cmake/gpubarrierConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/gpubarrierConfig.cmake INSTALL_DESTINATION ${GB_INSTALL_CMAKE})
# Header only: any architecture may use it.
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/gpubarrierConfigVersion.cmake
  COMPATIBILITY SameMinorVersion ARCH_INDEPENDENT)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/gpubarrierConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/gpubarrierConfigVersion.cmake DESTINATION ${GB_INSTALL_CMAKE}
  COMPONENT barriers)
