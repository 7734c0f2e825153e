#include "core/registry.hpp"

#include <algorithm>

namespace gb {

Registry& Registry::instance() {
  static Registry registry;
  return registry;
}

bool Registry::add(Factory factory) {
  factories_.push_back(factory);
  return true;
}

std::vector<std::unique_ptr<Method>> Registry::create_all() const {
  std::vector<std::unique_ptr<Method>> methods;
  for (Factory f : factories_) methods.push_back(f());
  std::sort(methods.begin(), methods.end(),
            [](const auto& a, const auto& b) { return a->name() < b->name(); });
  return methods;
}

}  // namespace gb
