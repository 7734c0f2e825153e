// The parts of a device-side multi-GPU barrier algorithm type (frame/crossing.cuh) that its
// Method reads on the host, and the check that makes a misspelt one a compile error.
//
// Every algorithm has name, summary, Args and cross (the concept DeviceAlgorithm), and Words
// unless it sizes its words itself. Its optional hooks it lists, and only those are read:
//
//   using Hooks = HookList<hook::Args, hook::Note>;
//
//   hook::WordsBytes   static std::size_t words_bytes(int blocks, int members);  its words' bytes
//                      per member where they grow with the grid (default: sizeof(Words))
//   hook::HostBytes    static constexpr std::size_t host_bytes;  host-mapped memory it needs
//   hook::Args         static Args args(const AlgoSetup&, int local);  its kernel arguments
//                      (default: Args{})
//   hook::Note         static std::string note(const AlgoSetup&);  added to its rows' notes
//   hook::ExtraAxes    static std::vector<Axis> extra_axes();  its own axes
//   hook::Infeasible   static std::string infeasible(const Point&);  empty, or why not
//   hook::Unverified   static std::string unverified(const Point&);  empty, or why a point of
//                      its axes is no barrier that can be checked
//   hook::PeerAtomics  static constexpr bool peer_atomics;  needs native atomics on peer memory
//                      (skipped where cudaDevP2PAttrNativeAtomicSupported is 0)
//   hook::GridSync     static constexpr bool grid_sync;  crosses with cooperative_groups'
//                      grid.sync, so its launch=graph kernels must be cooperative launches (the
//                      others are plain launches: a cooperative one costs more per launch)
//
// A listed hook that is missing, misspelt or of another signature, and a member named like a
// hook that the list leaves out (which would be ignored), each fail a static_assert in
// CheckHook<Algorithm, hook::...>; a list entry that is no hook fails CheckList's. Hooks may be
// templates (push.cuh's are). An algorithm type must not be final: the check derives from it to see
// its members' names.
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

// A's members with H's name, whatever they are, and H's own member of that name: naming that
// member through NameProbe<A, H> is ambiguous exactly when A has a member of that name.
template <class A, class H>
struct NameProbe : A, H {};

// Each hook: a member of the hook's name (see NameProbe), whether an algorithm A has a member
// of that name (`named`), and whether it has the hook's signature (`fits`).
namespace hook {

struct WordsBytes {
  int words_bytes;
  template <class A>
  static constexpr bool named = !requires {
    &NameProbe<A, WordsBytes>::words_bytes;
  };
  template <class A>
  static constexpr bool fits = requires(int n) {
    { A::words_bytes(n, n) } -> std::same_as<std::size_t>;
  };
};

struct HostBytes {
  int host_bytes;
  template <class A>
  static constexpr bool named = !requires {
    &NameProbe<A, HostBytes>::host_bytes;
  };
  template <class A>
  static constexpr bool fits = requires {
    typename std::integral_constant<std::size_t, A::host_bytes>;
  };
};

struct Args {
  int args;
  template <class A>
  static constexpr bool named = !requires {
    &NameProbe<A, Args>::args;
  };
  template <class A>
  static constexpr bool fits = requires(const AlgoSetup& s, int local) {
    { A::args(s, local) } -> std::same_as<typename A::Args>;
  };
};

struct Note {
  int note;
  template <class A>
  static constexpr bool named = !requires {
    &NameProbe<A, Note>::note;
  };
  template <class A>
  static constexpr bool fits = requires(const AlgoSetup& s) {
    { A::note(s) } -> std::same_as<std::string>;
  };
};

struct ExtraAxes {
  int extra_axes;
  template <class A>
  static constexpr bool named = !requires {
    &NameProbe<A, ExtraAxes>::extra_axes;
  };
  template <class A>
  static constexpr bool fits = requires {
    { A::extra_axes() } -> std::same_as<std::vector<Axis>>;
  };
};

struct Infeasible {
  int infeasible;
  template <class A>
  static constexpr bool named = !requires {
    &NameProbe<A, Infeasible>::infeasible;
  };
  template <class A>
  static constexpr bool fits = requires(const Point& p) {
    { A::infeasible(p) } -> std::same_as<std::string>;
  };
};

struct Unverified {
  int unverified;
  template <class A>
  static constexpr bool named = !requires {
    &NameProbe<A, Unverified>::unverified;
  };
  template <class A>
  static constexpr bool fits = requires(const Point& p) {
    { A::unverified(p) } -> std::same_as<std::string>;
  };
};

struct PeerAtomics {
  int peer_atomics;
  template <class A>
  static constexpr bool named = !requires {
    &NameProbe<A, PeerAtomics>::peer_atomics;
  };
  template <class A>
  static constexpr bool fits = requires {
    typename std::bool_constant<A::peer_atomics>;
  };
};

struct GridSync {
  int grid_sync;
  template <class A>
  static constexpr bool named = !requires {
    &NameProbe<A, GridSync>::grid_sync;
  };
  template <class A>
  static constexpr bool fits = requires {
    typename std::bool_constant<A::grid_sync>;
  };
};

}  // namespace hook

template <class... Hooks>
struct HookList {};

using AllHooks = HookList<hook::WordsBytes, hook::HostBytes, hook::Args, hook::Note,
                          hook::ExtraAxes, hook::Infeasible, hook::Unverified, hook::PeerAtomics,
                          hook::GridSync>;

template <class H, class List>
inline constexpr bool in_list = false;
template <class H, class... Hs>
inline constexpr bool in_list<H, HookList<Hs...>> = (std::is_same_v<H, Hs> || ...);

// A's list: A::Hooks, none where A has no such member.
template <class A>
struct HooksOf {
  using type = HookList<>;
};
template <class A>
requires requires {
  typename A::Hooks;
}
struct HooksOf<A> {
  using type = typename A::Hooks;
};

// Whether A lists hook H, so that A's Method reads it.
template <class A, class H>
inline constexpr bool provides = in_list<H, typename HooksOf<A>::type>;

template <class List>
inline constexpr bool only_hooks = false;
template <class... Hs>
inline constexpr bool only_hooks<HookList<Hs...>> = (in_list<Hs, AllHooks> && ...);

template <class A>
struct CheckList {
  static_assert(only_hooks<typename HooksOf<A>::type>,
                "the algorithm's 'using Hooks = HookList<...>' holds something that is none of "
                "the hook:: tags of frame/algo_hooks.cuh");
  static constexpr bool ok = true;
};

template <class A, class H>
struct CheckHook {
  static_assert(!H::template named<A> || provides<A, H>,
                "the algorithm has a member named like an optional hook (the H of this "
                "CheckHook) that its 'using Hooks = HookList<...>' leaves out, so it would be "
                "ignored: list the hook, or rename the member");
  static_assert(!provides<A, H> || H::template named<A>,
                "the algorithm lists a hook (the H of this CheckHook) that it does not define: "
                "is the member's name misspelt? (frame/algo_hooks.cuh lists the hooks)");
  static_assert(!provides<A, H> || !H::template named<A> || H::template fits<A>,
                "the algorithm's hook (the H of this CheckHook) has not the signature that "
                "frame/algo_hooks.cuh gives for it");
  static constexpr bool ok = true;
};

template <class A, class List>
inline constexpr bool hooks_checked = false;
template <class A, class... Hs>
inline constexpr bool hooks_checked<A, HookList<Hs...>> = (CheckHook<A, Hs>::ok && ...);

template <class A>
concept DeviceAlgorithmMembers = requires(const OrderedArgs<Ordering::acquire_release>& a,
                                          const typename A::Args& x, Word e) {
  { A::name } -> std::convertible_to<std::string_view>;
  { A::summary } -> std::convertible_to<std::string_view>;
  { A::cross(a, x, e) } -> std::same_as<bool>;
};

// Its words: Words, or the bytes that words_bytes gives.
template <class A>
concept SizesItsWords = provides<A, hook::WordsBytes> || requires {
  sizeof(typename A::Words);
};

template <class A>
concept DeviceAlgorithm =
    DeviceAlgorithmMembers<A> && SizesItsWords<A> && CheckList<A>::ok && hooks_checked<A, AllHooks>;

// The hooks as the Method reads them, with their defaults.
template <DeviceAlgorithm A>
std::size_t words_bytes(int blocks, int members) {
  if constexpr (provides<A, hook::WordsBytes>)
    return A::words_bytes(blocks, members);
  else
    return sizeof(typename A::Words);
}

template <DeviceAlgorithm A>
constexpr std::size_t host_bytes() {
  if constexpr (provides<A, hook::HostBytes>)
    return A::host_bytes;
  else
    return 0;
}

template <DeviceAlgorithm A>
typename A::Args algo_args(const AlgoSetup& s, int local) {
  if constexpr (provides<A, hook::Args>)
    return A::args(s, local);
  else
    return {};
}

template <DeviceAlgorithm A>
std::string algo_note(const AlgoSetup& s) {
  if constexpr (provides<A, hook::Note>)
    return A::note(s);
  else
    return {};
}

template <DeviceAlgorithm A>
std::vector<Axis> algo_axes() {
  if constexpr (provides<A, hook::ExtraAxes>)
    return A::extra_axes();
  else
    return {};
}

template <DeviceAlgorithm A>
std::string algo_infeasible(const Point& p) {
  if constexpr (provides<A, hook::Infeasible>)
    return A::infeasible(p);
  else
    return {};
}

template <DeviceAlgorithm A>
std::string algo_unverified(const Point& p) {
  if constexpr (provides<A, hook::Unverified>)
    return A::unverified(p);
  else
    return {};
}

template <DeviceAlgorithm A>
constexpr bool needs_peer_atomics() {
  if constexpr (provides<A, hook::PeerAtomics>)
    return A::peer_atomics;
  else
    return false;
}

template <DeviceAlgorithm A>
constexpr bool needs_grid_sync() {
  if constexpr (provides<A, hook::GridSync>)
    return A::grid_sync;
  else
    return false;
}

}  // namespace gb::mg
