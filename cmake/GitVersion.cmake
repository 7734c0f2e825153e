# The git sha goes into --version and every CSV row (git_sha), so that each row can be traced to
# the code that produced it. It is read at every build, not only at configure time (a later
# commit must not be reported as the earlier one), and carries `-dirty` when the tree differs from
# that commit. cmake/WriteVersion.cmake writes the header only when its text changes, so an
# unchanged tree rebuilds nothing.
set(GPUBARRIER_VERSION_HEADER ${CMAKE_CURRENT_BINARY_DIR}/generated/gpubarrier_version.hpp)
set(_gb_write_version ${CMAKE_COMMAND} -DSOURCE_DIR=${CMAKE_CURRENT_SOURCE_DIR}
  -DOUT=${GPUBARRIER_VERSION_HEADER} -DVERSION=${PROJECT_VERSION}
  -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/WriteVersion.cmake)
execute_process(COMMAND ${_gb_write_version})
add_custom_target(gpubarrier_version_header ALL COMMAND ${_gb_write_version}
  BYPRODUCTS ${GPUBARRIER_VERSION_HEADER}
  COMMENT "Reading the git sha" VERBATIM)
