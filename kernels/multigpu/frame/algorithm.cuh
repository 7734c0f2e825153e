// What a device-side multi-GPU barrier algorithm is (frame/crossing.cuh runs its crossing in the
// persistent kernel; frame/device_barrier.cuh makes its Method), and the concept that checks it.
//
// An algorithm is a struct that derives from mg::Algorithm and holds
//   static inline const MethodInfo info{.name, .description, .axes};
//                  its method's name, a sentence and its own axes (the frame adds its own before
//                  them)
//   static constexpr Traits traits{...};
//                  what the frame must know of it, each field false, 0 or none unless named
//                  (Traits below): what it needs (host-mapped memory, native peer atomics,
//                  cooperative launches) and its host-side hooks (a note, why a point cannot run
//                  or cannot be checked, the bytes of its words)
//   struct Words;  its signal words, one set per GPU in that GPU's memory (peers write them), or
//                  Traits' words_bytes in place of it
//   template <class Bar> __device__ static bool cross(const Bar&, const Args&, Word epoch);
// and, where it has kernel arguments, both of
//   struct Args;   its kernel arguments (Algorithm's: none), made on the host by
//   static Args args(const AlgoSetup&, int local);  (may be a template)
//
// Nothing an algorithm states may be lost to a default, so that what compiles is what runs: what
// is optional is a designated initializer of Traits, so a misspelt field does not compile ("class
// Traits has no field ..."), nor does a hook of another signature; the concept DeviceAlgorithm
// checks the rest (an Args without its args, or args without its Args, Words and words_bytes
// both or neither).
#pragma once

#include <concepts>
#include <cstddef>
#include <string>

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
  const HostShared* host = nullptr;  // the algorithm's host-mapped memory (Traits), if any

  void* host_view(int local) const { return host ? host->device_view(local) : nullptr; }
};

// What the frame must know of an algorithm, nothing unless it names it (see the opening comment).
struct Traits {
  std::size_t host_bytes = 0;  // host-mapped memory it needs (AlgoSetup::host_view)
  bool peer_atomics = false;   // native atomics on peer memory: skipped where
                               // cudaDevP2PAttrNativeAtomicSupported is 0
  bool grid_sync = false;      // crosses with cooperative_groups' grid.sync, so its launch=graph
                               // kernels must be cooperative launches (the others are plain
                               // launches, since a cooperative one costs more per launch)
  std::string (*note)(const AlgoSetup&) = nullptr;    // added to its rows' notes
  std::string (*infeasible)(const Point&) = nullptr;  // empty, or why a point cannot run
  std::string (*unverified)(const Point&) = nullptr;  // empty, or why a point of its axes is no
                                                      // barrier that can be checked
  std::size_t (*words_bytes)(int blocks, int members) = nullptr;  // its words' bytes per member
                                                                  // where they grow with the
                                                                  // grid, in place of Words
};

// An algorithm's base: no kernel arguments unless it declares Args and args of its own, which hide
// these.
struct Algorithm {
  struct Args {};
  static Args args(const AlgoSetup&, int) { return {}; }
};

// Its name, its sentence, what the frame must know of it and Algorithm's defaults to fall back on.
template <class A>
concept AlgorithmTraits = std::derived_from<A, Algorithm> && requires {
  { A::info } -> std::same_as<const MethodInfo&>;
  { A::traits } -> std::same_as<const Traits&>;
};

// Its crossing, on arguments whose ordering is a constant.
template <class A>
concept AlgorithmCrossing = requires(const OrderedArgs<Ordering::acquire_release>& a,
                                     const typename A::Args& x, Word e) {
  { A::cross(a, x, e) } -> std::same_as<bool>;
};

// Its words: Words, or the bytes that Traits' words_bytes gives, not both.
template <class A>
concept HasWords = requires {
  sizeof(typename A::Words);
};
template <class A>
concept SizesItsWords = HasWords<A> != (A::traits.words_bytes != nullptr);

// Its kernel arguments, made by its own args where it has Args of its own.
template <class A>
concept MakesItsArgs = requires(const AlgoSetup& s, int local) {
  { A::args(s, local) } -> std::same_as<typename A::Args>;
};

template <class A>
concept DeviceAlgorithm =
    AlgorithmTraits<A> && AlgorithmCrossing<A> && SizesItsWords<A> && MakesItsArgs<A>;

// The bytes of A's words per member: Traits' words_bytes where A sizes them, else sizeof(Words).
template <DeviceAlgorithm A>
std::size_t words_bytes(int blocks, int members) {
  if constexpr (HasWords<A>)
    return sizeof(typename A::Words);
  else
    return A::traits.words_bytes(blocks, members);
}

// A hook of A's Traits called with `in`, or "" where A gives none.
template <class In>
std::string hook_text(std::string (*hook)(const In&), const In& in) {
  return hook ? hook(in) : std::string();
}

}  // namespace gb::mg
