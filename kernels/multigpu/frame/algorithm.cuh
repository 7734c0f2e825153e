// What a device-side multi-GPU barrier algorithm is (frame/crossing.cuh runs its crossing in the
// persistent kernel; frame/device_barrier.cuh makes its Method), and the concept that checks it.
//
// An algorithm is a struct that derives from mg::Algorithm and holds
//   static constexpr std::string_view name, description;  its method's name and a sentence
//   struct Words;  its signal words, one set per GPU in that GPU's memory (peers write them), or
//                  words_bytes below
//   template <class Bar> __device__ static bool cross(const Bar&, const Args&, Word epoch);
// and, where Algorithm's default does not fit, a member of its own of the same name, which hides
// the default:
//   struct Args;  its kernel arguments (default: none), made on the host by
//   static Args args(const AlgoSetup&, int local);  (required with Args of its own)
//   static std::size_t words_bytes(int blocks, int members);  its words' bytes per member where
//                  they grow with the grid, in place of Words
//   static constexpr std::size_t host_bytes;  host-mapped memory it needs (default 0)
//   static std::string note(const AlgoSetup&);  added to its rows' notes (default none)
//   static std::vector<Axis> axes();  its own axes (default none)
//   static std::string infeasible(const Point&);  empty, or why a point cannot run
//   static std::string unverified(const Point&);  empty, or why a point of its axes is no barrier
//                  that can be checked
//   static constexpr bool peer_atomics;  needs native atomics on peer memory (skipped where
//                  cudaDevP2PAttrNativeAtomicSupported is 0; default false)
//   static constexpr bool grid_sync;  crosses with cooperative_groups' grid.sync, so its
//                  launch=graph kernels must be cooperative launches (default false: the others
//                  are plain launches, since a cooperative one costs more per launch)
// Any of them may be a template (push.cuh's are). The concept DeviceAlgorithm checks every one of
// them, the defaults included, with its signature: a member that lacks one, or has another (a
// `note(const Point&)` hides the default and does not fit), does not compile. A member under
// another name is one the frame never reads.
#pragma once

#include <concepts>
#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/method.hpp"
#include "core/run_context.hpp"
#include "multigpu/frame/crossing.cuh"
#include "runtime/host_shared.hpp"
#include "runtime/team.hpp"

namespace gb::mg {

// What an algorithm's host side may use to make its kernel arguments and its notes.
struct AlgoSetup {
  const RunContext& ctx;
  const Team& team;
  const Point& point;
  int blocks = 0;
  const HostShared* host = nullptr;  // the algorithm's host-mapped memory (host_bytes), if any

  void* host_view(int local) const { return host ? host->device_view(local) : nullptr; }
};

// The defaults of every optional member of an algorithm.
struct Algorithm {
  struct Args {};
  static Args args(const AlgoSetup&, int) { return {}; }
  static constexpr std::size_t host_bytes = 0;
  static std::string note(const AlgoSetup&) { return {}; }
  static std::vector<Axis> axes() { return {}; }
  static std::string infeasible(const Point&) { return {}; }
  static std::string unverified(const Point&) { return {}; }
  static constexpr bool peer_atomics = false;
  static constexpr bool grid_sync = false;
};

// Its name, its sentence, and the defaults of Algorithm to fall back on.
template <class A>
concept AlgorithmTraits = std::derived_from<A, Algorithm> && requires {
  { A::name } -> std::convertible_to<std::string_view>;
  { A::description } -> std::convertible_to<std::string_view>;
};

// Its crossing, on arguments whose ordering is a constant.
template <class A>
concept AlgorithmCrossing = requires(const OrderedArgs<Ordering::acquire_release>& a,
                                     const typename A::Args& x, Word e) {
  { A::cross(a, x, e) } -> std::same_as<bool>;
};

// Its words: Words, or the bytes that words_bytes gives.
template <class A>
concept HasWords = requires {
  sizeof(typename A::Words);
};
template <class A>
concept SizesWords = requires(int n) {
  { A::words_bytes(n, n) } -> std::same_as<std::size_t>;
};
template <class A>
concept SizesItsWords = HasWords<A> || SizesWords<A>;

// What the host reads of it, each member its own or Algorithm's.
template <class A>
concept AlgorithmHostMembers = requires(const AlgoSetup& s, const Point& p, int local) {
  { A::args(s, local) } -> std::same_as<typename A::Args>;
  { A::note(s) } -> std::same_as<std::string>;
  { A::axes() } -> std::same_as<std::vector<Axis>>;
  { A::infeasible(p) } -> std::same_as<std::string>;
  { A::unverified(p) } -> std::same_as<std::string>;
  typename std::integral_constant<std::size_t, A::host_bytes>;
  typename std::bool_constant<A::peer_atomics>;
  typename std::bool_constant<A::grid_sync>;
};

template <class A>
concept DeviceAlgorithm =
    AlgorithmTraits<A> && AlgorithmCrossing<A> && SizesItsWords<A> && AlgorithmHostMembers<A>;

// The bytes of A's words per member: words_bytes where A sizes them, else sizeof(Words).
template <DeviceAlgorithm A>
std::size_t words_bytes(int blocks, int members) {
  if constexpr (SizesWords<A>)
    return A::words_bytes(blocks, members);
  else
    return sizeof(typename A::Words);
}

}  // namespace gb::mg
