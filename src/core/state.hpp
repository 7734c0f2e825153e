// One configuration's run, in the style of nvbench's `state`: the runner creates a State for
// every point and hands the same one to verify() and then measure(). What a method builds for the
// point (a team of GPUs, communicators, peer memory) is a resource of the state, built once and
// shared by both, and torn down when the point is done. A method that finds, at any moment, that
// the point cannot run here calls skip(reason): the point becomes a skipped row, whatever it
// returned.
#pragma once

#include <memory>
#include <string>
#include <typeinfo>
#include <utility>
#include <vector>

#include "core/agreement.hpp"
#include "core/method.hpp"

namespace gb {

class State {
 public:
  State(RunContext& ctx, const Point& point) : ctx_(ctx), point_(point) {}
  // Resources go in reverse order of creation: a later one may hold references into an earlier.
  ~State() {
    while (!resources_.empty()) resources_.pop_back();
  }
  State(const State&) = delete;
  State& operator=(const State&) = delete;

  RunContext& ctx() const { return ctx_; }
  const Point& point() const { return point_; }

  void skip(std::string reason) {
    skipped_ = true;
    skip_reason_ = std::move(reason);
  }
  bool skipped() const { return skipped_; }
  const std::string& skip_reason() const { return skip_reason_; }

  // The point's T, constructed from `args` on first use; later calls return the same object
  // (their arguments are ignored). One object per type and point. Under MPI a resource is made
  // by every rank or by none: its construction ends at an agreement point (core/agreement.hpp),
  // so a rank whose constructor threw after its last collective meets the others there, before
  // they use the resource in a collective.
  template <class T, class... Args>
  T& resource(Args&&... args) {
    for (const auto& r : resources_)
      if (r->type() == typeid(T)) return *static_cast<Held<T>&>(*r).value;
    auto held = std::make_unique<Held<T>>();
    held->value = std::make_unique<T>(std::forward<Args>(args)...);
    agree(ctx_);
    T& value = *held->value;
    resources_.push_back(std::move(held));
    return value;
  }

 private:
  struct Resource {
    virtual ~Resource() = default;
    virtual const std::type_info& type() const = 0;
  };
  template <class T>
  struct Held final : Resource {
    std::unique_ptr<T> value;
    const std::type_info& type() const override { return typeid(T); }
  };

  RunContext& ctx_;
  Point point_;
  bool skipped_ = false;
  std::string skip_reason_;
  std::vector<std::unique_ptr<Resource>> resources_;
};

}  // namespace gb
