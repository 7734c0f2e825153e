// The names of what a warp-level method does between its steps (the `variant` axis of
// gpu.warp.reduce and pitfall.warp.wait-check), and what each means; each method numbers them
// its own way.
#pragma once

#include "core/method.hpp"

namespace gb::warp_detail::variants {

inline constexpr NamedValue serial{"serial",
                                   "one lane does the whole work alone: nothing to synchronise"};
inline constexpr NamedValue no_sync{"no-sync",
                                    "no synchronisation between the steps (the negative control)"};
inline constexpr NamedValue syncwarp_mask{"syncwarp-mask",
                                          "__syncwarp(mask) over the group's lanes"};
inline constexpr NamedValue tile_sync{"tile-sync",
                                      "sync() of a cooperative-groups tile (tiled_partition)"};
inline constexpr NamedValue coalesced_sync{"coalesced-sync",
                                           "sync() of a cooperative-groups coalesced group"};
inline constexpr NamedValue tile_shuffle{"tile-shuffle",
                                         "the lanes of a tile exchange values by shuffles"};
inline constexpr NamedValue coalesced_shuffle{
    "coalesced-shuffle", "the lanes of a coalesced group exchange values by shuffles"};

}  // namespace gb::warp_detail::variants
