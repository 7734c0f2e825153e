// Where rows go. Several sinks may receive the same rows (CSV file + console table).
#pragma once

#include "io/row.hpp"

namespace gb {

class ResultSink {
 public:
  virtual ~ResultSink() = default;
  virtual void write(const Row& row) = 0;  // must make the row durable/visible before returning
  virtual void finish() {}
};

}  // namespace gb
