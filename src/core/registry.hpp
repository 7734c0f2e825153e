// Methods register a factory at static-initialisation time. Factories only construct plain
// objects: no CUDA, MPI or NCCL call may happen before main().
#pragma once

#include <memory>
#include <vector>

#include "core/method.hpp"

namespace gb {

class Registry {
 public:
  using Factory = std::unique_ptr<Method> (*)();
  static Registry& instance();
  bool add(Factory factory);
  // One instance of every registered method, sorted by name.
  std::vector<std::unique_ptr<Method>> create_all() const;

 private:
  std::vector<Factory> factories_;
};

}  // namespace gb

#define GB_CONCAT_INNER(a, b) a##b
#define GB_CONCAT(a, b) GB_CONCAT_INNER(a, b)
// Registers Type (a default-constructible Method) with the global registry.
#define GB_REGISTER_METHOD(Type)                                             \
  namespace {                                                                \
  [[maybe_unused]] const bool GB_CONCAT(gb_registered_, __COUNTER__) =       \
      ::gb::Registry::instance().add([]() -> std::unique_ptr<::gb::Method> { \
        return std::make_unique<Type>();                                     \
      });                                                                    \
  }
