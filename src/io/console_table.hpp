// A readable table on a stream, one line per row as it arrives.
#pragma once

#include <cstdio>

#include "core/result_sink.hpp"

namespace gb {

class ConsoleTable : public ResultSink {
 public:
  explicit ConsoleTable(std::FILE* out) : out_(out) {}
  void write(const Record& record) override;

 private:
  std::FILE* out_;
  bool header_done_ = false;
};

}  // namespace gb
