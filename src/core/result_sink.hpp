// Where records go. Several sinks may receive the same records (CSV file + console table); each
// formats them its own way (src/io).
#pragma once

#include "core/record.hpp"

namespace gb {

class ResultSink {
 public:
  virtual ~ResultSink() = default;
  // Must make the record durable/visible before returning.
  virtual void write(const Record& record) = 0;
  virtual void finish() {}
};

}  // namespace gb
