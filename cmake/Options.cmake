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
