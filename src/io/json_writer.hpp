// `--json`: all rows as one JSON array of objects (column -> value) on a stream at the end.
#pragma once

#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/result_sink.hpp"
#include "io/row.hpp"

namespace gb {

nlohmann::json row_to_json(const Row& row);

class JsonWriter : public ResultSink {
 public:
  explicit JsonWriter(std::FILE* out) : out_(out) {}
  void write(const Record& record) override { rows_.push_back(row_to_json(to_row(record))); }
  void finish() override;

 private:
  std::FILE* out_;
  nlohmann::json rows_ = nlohmann::json::array();
};

}  // namespace gb
