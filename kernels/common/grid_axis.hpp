// The `grid` axis of the memory-bound figures (model.gmem.stream, reduction.single.grid-sync):
// one block, or the resident grid.
#pragma once

#include "core/method.hpp"

namespace gb {

enum class GridShape { one_block = 0, full_grid = 1 };

inline Axis grid_axis() {
  return {"grid",
          {0, 1},
          {{GridShape::one_block, "one-block", "one block (no other block to wait for)"},
           {GridShape::full_grid, "full-grid",
            "the resident grid: as many blocks as fit on every SM"}}};
}

// Whether a point runs the resident grid.
inline bool full_grid(const Point& p) {
  return p.choice<GridShape>("grid") == GridShape::full_grid;
}

}  // namespace gb
