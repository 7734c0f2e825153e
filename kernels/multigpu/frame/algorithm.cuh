// What a device-side multi-GPU barrier algorithm is (frame/crossing.cuh runs its crossing in the
// persistent kernel; frame/device_barrier.cuh makes its Method), and the concept that checks it.
//
// An algorithm is a struct that derives from mg::Algorithm<Needs{...}> (Algorithm<> where it needs
// nothing) and holds
//   static inline const MethodInfo info{.name, .description, .axes};
//                  its method's name, a sentence and its own axes (the frame adds its own before
//                  them)
//   struct Words;  its signal words, one set per GPU in that GPU's memory (peers write them), or
//                  words_bytes below
//   template <class Bar> __device__ static bool cross(const Bar&, const Args&, Word epoch);
// What it needs of the frame it passes to its base by name, each need false or 0 unless named:
//   Needs{.host_bytes = n}  host-mapped memory it needs
//   Needs{.peer_atomics = true}  native atomics on peer memory (skipped where
//                  cudaDevP2PAttrNativeAtomicSupported is 0)
//   Needs{.grid_sync = true}  crosses with cooperative_groups' grid.sync, so its launch=graph
//                  kernels must be cooperative launches (the others are plain launches, since a
//                  cooperative one costs more per launch)
// and, where Algorithm's default does not fit, a member of its own of the same name, which hides
// the default:
//   struct Args;  its kernel arguments (default: none), made on the host by
//   static Args args(const AlgoSetup&, int local);  (required with Args of its own)
//   static std::size_t words_bytes(int blocks, int members);  its words' bytes per member where
//                  they grow with the grid, in place of Words
//   static std::string note(const AlgoSetup&);  added to its rows' notes (default none)
//   static std::string infeasible(const Point&);  empty, or why a point cannot run
//   static std::string unverified(const Point&);  empty, or why a point of its axes is no barrier
//                  that can be checked
// Any of them may be a template (push.cuh's are).
//
// Nothing an algorithm states may be lost to a default, so that what compiles is what runs:
// - a need is a designated initializer of Needs, so a misspelt one does not compile ("class Needs
//   has no field ...");
// - the concept DeviceAlgorithm checks every member with its signature, the defaults included: a
//   member that lacks one, or has another (a `note(const Point&)` hides the default and does not
//   fit), does not compile;
// - a member named close to an optional one (`notes`, `axes`, `feasible`, ...; the list is
//   NamesNoneReads below) or named like a need (`static constexpr bool peer_atomics`) would
//   compile and never be read, so it fails a static_assert (ReadsEveryMember, part of
//   DeviceAlgorithm) that names it and the name the frame reads. C++20 cannot list a class's
//   members, so this check knows the likely names only; an algorithm type must not be final,
//   since the check derives from it to see its members.
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
  const HostShared* host = nullptr;  // the algorithm's host-mapped memory (Needs), if any

  void* host_view(int local) const { return host ? host->device_view(local) : nullptr; }
};

// What an algorithm needs of the frame, none unless it names it (see the opening comment).
struct Needs {
  std::size_t host_bytes = 0;
  bool peer_atomics = false;
  bool grid_sync = false;
};

// The defaults of every optional member of an algorithm.
struct AlgorithmDefaults {
  struct Args {};
  static Args args(const AlgoSetup&, int) { return {}; }
  static std::string note(const AlgoSetup&) { return {}; }
  static std::string infeasible(const Point&) { return {}; }
  static std::string unverified(const Point&) { return {}; }
};

// An algorithm's base: its needs, and the defaults to fall back on.
template <Needs N = Needs{}>
struct Algorithm : AlgorithmDefaults {
  static constexpr Needs needs = N;
};

// A's members named like P's one member, whatever they are (functions, templates, types, values),
// and P's own: naming that member through NameProbe<A, P> is ambiguous exactly when A declares it.
template <class A, class P>
struct NameProbe : A, P {};

// GB_MG_NOT_READ(member, what the frame reads instead): a static_assert that A declares no such
// member.
#define GB_MG_NOT_READ(member, instead)                    \
  struct Probe_##member {                                  \
    int member;                                            \
  };                                                       \
  static_assert(                                           \
      requires { &NameProbe<A, Probe_##member>::member; }, \
      "the algorithm declares '" #member "', which the frame never reads: it reads " instead)

// The names close to an optional member's that an algorithm may not declare (its plural or
// singular, a variant of it, the Method's or another level's word for it), and the needs, which
// are no members.
template <class A>
struct NamesNoneReads {
  GB_MG_NOT_READ(arg, "'args'");
  GB_MG_NOT_READ(notes, "'note'");
  GB_MG_NOT_READ(axes, "info's .axes");
  GB_MG_NOT_READ(axis, "info's .axes");
  GB_MG_NOT_READ(feasible, "'infeasible' (empty, or why a point cannot run)");
  GB_MG_NOT_READ(unverifiable, "'unverified'");
  GB_MG_NOT_READ(word_bytes, "'words_bytes'");
  GB_MG_NOT_READ(host_bytes, "Algorithm<Needs{.host_bytes = ...}>");
  GB_MG_NOT_READ(peer_atomics, "Algorithm<Needs{.peer_atomics = true}>");
  GB_MG_NOT_READ(grid_sync, "Algorithm<Needs{.grid_sync = true}>");
  static constexpr bool ok = true;
};

#undef GB_MG_NOT_READ

// Its name, its sentence, its needs and the defaults of Algorithm to fall back on.
template <class A>
concept AlgorithmTraits = std::derived_from<A, AlgorithmDefaults> && requires {
  { A::info } -> std::same_as<const MethodInfo&>;
  { A::needs } -> std::convertible_to<Needs>;
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
  { A::infeasible(p) } -> std::same_as<std::string>;
  { A::unverified(p) } -> std::same_as<std::string>;
};

// No member that would never be read (NamesNoneReads).
template <class A>
concept ReadsEveryMember = !std::is_final_v<A> && NamesNoneReads<A>::ok;

template <class A>
concept DeviceAlgorithm = AlgorithmTraits<A> && AlgorithmCrossing<A> && SizesItsWords<A> &&
    AlgorithmHostMembers<A> && ReadsEveryMember<A>;

// The bytes of A's words per member: words_bytes where A sizes them, else sizeof(Words).
template <DeviceAlgorithm A>
std::size_t words_bytes(int blocks, int members) {
  if constexpr (SizesWords<A>)
    return A::words_bytes(blocks, members);
  else
    return sizeof(typename A::Words);
}

}  // namespace gb::mg
