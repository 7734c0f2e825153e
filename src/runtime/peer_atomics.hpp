// Whether the GPUs of a team can do atomics on each other's memory natively: `central` and
// `all-count` count with system-scope atomics on peer memory, which PCIe peers without native
// atomics do not carry (the count never completes: a timeout, not a figure).
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace gb::mg {

// cudaDevP2PAttrNativeAtomicSupported of the ordered pair (from, to): nonzero when `from` can do
// atomics on `to`'s memory. Injected by tests.
using PeerAtomicAttr = std::function<int(int from, int to)>;

// The CUDA runtime's answer.
int native_peer_atomics(int from, int to);

// Empty when every ordered pair of distinct GPUs of `gpus` has native peer atomics, else why not
// (the first pair without), for a skipped row.
std::string peer_atomics_problem(const std::vector<int>& gpus,
                                 const PeerAtomicAttr& attr = native_peer_atomics);

}  // namespace gb::mg
