# The git sha goes into --version so every CSV row can be traced to the code that produced it.
execute_process(COMMAND git rev-parse --short=12 HEAD
  WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
  OUTPUT_VARIABLE GPUBARRIER_GIT_SHA OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT GPUBARRIER_GIT_SHA)
  set(GPUBARRIER_GIT_SHA "unknown")
endif()
configure_file(${CMAKE_CURRENT_SOURCE_DIR}/cmake/version.hpp.in
  ${CMAKE_CURRENT_BINARY_DIR}/generated/gpubarrier_version.hpp @ONLY)
