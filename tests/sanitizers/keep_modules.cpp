// Linked into every executable of a GPUBARRIER_SANITIZE=ON build (cmake/Options.cmake), and
// exported from it, so that it replaces the C library's dlclose for every library the process
// loads: no shared object is ever unloaded in a sanitized test.
//
// Why: hwloc unloads its pci plugin, and OpenMPI its MCA components and PMIx, before exit. What
// they still hold is then reported as leaked, from frames LeakSanitizer can name only as
// "<unknown module>", and matching such a report to its library needed the slow unwinder on every
// allocation (fast_unwind_on_malloc=0), which made the sanitized executable about ten times
// slower in allocation-heavy commands. With the modules kept loaded, what a plugin holds stays
// reachable from its own globals (hwloc's plugin reports nothing) or is named by its module (an
// OpenMPI component), and the default fast unwinder serves every test but those that start
// OpenMPI (tests/sanitizers/env.cmake.in). Unloading is never needed for correctness: the
// process ends soon after.
extern "C" int dlclose(void* handle) noexcept {
  (void)handle;
  return 0;
}
