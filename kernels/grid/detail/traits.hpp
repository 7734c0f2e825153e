// What a grid barrier policy states (grid/detail/grid_barrier.cuh): its MethodInfo, and the
// Traits that the frame must know of it, both written with designated initializers.
#pragma once

#include "core/method.hpp"

namespace gb::grid {

// What the frame must know of a barrier, false unless it names it.
struct Traits {
  bool interruptible = false;  // its spin loops carry the watchdog: a block may leave on purpose
  bool clustered = false;      // its blocks meet in thread-block clusters (sm_90)
};

}  // namespace gb::grid
