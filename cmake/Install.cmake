# `cmake --install build --prefix P` (docs/install.md): one fixed layout, which the installed
# executable finds relative to itself (src/paths/data_dir.cpp):
#   P/bin/gpubarrier, P/bin/gpubarrier-legacy (when built)
#   P/lib/gpubarrier/          NVSHMEM's host libraries, when gpubarrier is built with NVSHMEM
#   P/share/gpubarrier/gpubarrier_tools/ the Python tools of compare, plot, model and report
#   P/share/gpubarrier/configs/ sweeps, systems and network data (`--sweep quick`, `--system ...`)
#   P/share/gpubarrier/jobs/templates/ the job script templates (compiled in; installed to read)
#   P/share/gpubarrier/reframe/ the ReFrame checks (docs/reframe.md)
#   P/share/doc/gpubarrier/    README.md and docs/
set(GB_INSTALL_DATA share/gpubarrier)  # = paths::kInstalledData
set(GB_INSTALL_LIBS lib/gpubarrier)

# The installed executable finds NVSHMEM's libraries in the prefix first, then the toolkit's and
# MPI's where the build found them (outside the build tree).
set_target_properties(gpubarrier PROPERTIES INSTALL_RPATH "\$ORIGIN/../${GB_INSTALL_LIBS}"
  INSTALL_RPATH_USE_LINK_PATH TRUE)
install(TARGETS gpubarrier RUNTIME DESTINATION bin)
if(GPUBARRIER_LEGACY_CUDA)
  # Built on request (cmake --build build --target gpubarrier-legacy); installed where it exists.
  install(PROGRAMS ${CMAKE_BINARY_DIR}/gpubarrier-legacy DESTINATION bin OPTIONAL)
endif()
if(GB_NVSHMEM_TARGET)
  install(DIRECTORY ${GPUBARRIER_NVSHMEM_ROOT}/lib/ DESTINATION ${GB_INSTALL_LIBS}
    FILES_MATCHING PATTERN "*.so*")
endif()

install(DIRECTORY gpubarrier_tools/ DESTINATION ${GB_INSTALL_DATA}/gpubarrier_tools
  FILES_MATCHING PATTERN "*.py" PATTERN "schema.json" PATTERN "noise_floors.json"
  PATTERN "study_conclusions.json"
  PATTERN "__pycache__" EXCLUDE PATTERN "reference" EXCLUDE)
install(DIRECTORY configs/ DESTINATION ${GB_INSTALL_DATA}/configs)
install(DIRECTORY jobs/templates/ DESTINATION ${GB_INSTALL_DATA}/jobs/templates)
install(DIRECTORY reframe/ DESTINATION ${GB_INSTALL_DATA}/reframe
  PATTERN "__pycache__" EXCLUDE PATTERN "*.pyc" EXCLUDE)
install(FILES README.md DESTINATION share/doc/gpubarrier)
install(DIRECTORY docs/ DESTINATION share/doc/gpubarrier/docs)
