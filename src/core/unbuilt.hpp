// The base of a method whose measuring code needs a library this build may lack (NCCL, NCCL's
// device API, NVSHMEM): the method derives from Base where the library is built in and from
// Unbuilt<Base> where it is not, and declares verify() and measure() only in the first case.
// Unbuilt's measure() is never reached: the method's usable() refuses every run with the reason
// first (Method::usable reads Requirements::nccl; the others say so themselves).
#pragma once

#include <vector>

#include "core/method.hpp"

namespace gb {

template <class Base>
class Unbuilt : public Base {
 public:
  using Base::Base;
  std::vector<Measurement> measure(State&) override { return {}; }
};

}  // namespace gb
