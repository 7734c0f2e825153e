# cmake -DSOURCE_DIR=... -DOUT=... -DVERSION=... -P WriteVersion.cmake: writes the version header
# (cmake/version.hpp.in) with the current git sha, `-dirty` when tracked files differ from it,
# `unknown` outside a git checkout. configure_file leaves OUT untouched when its text is the same.
execute_process(COMMAND git rev-parse --short=12 HEAD
  WORKING_DIRECTORY ${SOURCE_DIR}
  OUTPUT_VARIABLE GPUBARRIER_GIT_SHA OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT GPUBARRIER_GIT_SHA)
  set(GPUBARRIER_GIT_SHA "unknown")
else()
  execute_process(COMMAND git diff --quiet HEAD --
    WORKING_DIRECTORY ${SOURCE_DIR} RESULT_VARIABLE dirty ERROR_QUIET)
  if(dirty EQUAL 1)
    string(APPEND GPUBARRIER_GIT_SHA "-dirty")
  endif()
endif()
set(PROJECT_VERSION ${VERSION})
configure_file(${CMAKE_CURRENT_LIST_DIR}/version.hpp.in ${OUT} @ONLY)
