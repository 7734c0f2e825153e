# cmake -DSOURCE_DIR=... -DOUT=... -DVERSION=... -P WriteVersion.cmake: writes the version header
# (cmake/version.hpp.in) with the current git sha, `-dirty` when tracked files differ from it,
# `unknown` outside a git checkout. A tree that is not the top of its own checkout (a copy
# unpacked inside another repository, as on a GPU machine that received the tree by a tarball)
# is outside one too: the sha git finds there is the enclosing repository's, not this tree's.
# GPUBARRIER_GIT_SHA in the environment names the commit of such a copy instead (whoever made the
# copy knows it). configure_file leaves OUT untouched when its text is the same.
if(NOT "$ENV{GPUBARRIER_GIT_SHA}" STREQUAL "")
  set(GPUBARRIER_GIT_SHA "$ENV{GPUBARRIER_GIT_SHA}")
else()
  execute_process(COMMAND git rev-parse --show-toplevel
    WORKING_DIRECTORY ${SOURCE_DIR}
    OUTPUT_VARIABLE top OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  get_filename_component(real_source "${SOURCE_DIR}" REALPATH)
  if(top)
    get_filename_component(real_top "${top}" REALPATH)
  endif()
  if(top AND real_top STREQUAL real_source)
    execute_process(COMMAND git rev-parse --short=12 HEAD
      WORKING_DIRECTORY ${SOURCE_DIR}
      OUTPUT_VARIABLE GPUBARRIER_GIT_SHA OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  endif()
  if(NOT GPUBARRIER_GIT_SHA)
    set(GPUBARRIER_GIT_SHA "unknown")
  else()
    execute_process(COMMAND git diff --quiet HEAD --
      WORKING_DIRECTORY ${SOURCE_DIR} RESULT_VARIABLE dirty ERROR_QUIET)
    if(dirty EQUAL 1)
      string(APPEND GPUBARRIER_GIT_SHA "-dirty")
    endif()
  endif()
endif()
set(PROJECT_VERSION ${VERSION})
configure_file(${CMAKE_CURRENT_LIST_DIR}/version.hpp.in ${OUT} @ONLY)
