// One CSV row: a figure of one (method, configuration, metric) with its full context.
// The column list is the schema; results/SCHEMA.md documents it. Bump kSchemaVersion whenever
// a column is added, removed or changes meaning.
#pragma once

#include <string>
#include <vector>

#include "core/method.hpp"
#include "core/run_context.hpp"

namespace gb {

inline constexpr int kSchemaVersion = 1;

struct Row {
  std::vector<std::string> fields;  // in the order of columns()
  static const std::vector<std::string>& columns();
  // Per column: true where the field holds a number (empty when there is none).
  static const std::vector<bool>& numeric();
  const std::string& get(const std::string& column) const;
};

struct RowSource {
  const RunContext& ctx;
  const std::string& run_id;
  const Method& method;
  const Point& point;
  std::string topology_class;
};

Row make_row(const RowSource& src, const Measurement& m);
// A row with status skipped/failed/timeout and no figures.
Row make_status_row(const RowSource& src, Status status, const std::string& reason);

// "20261122T043312Z-host-1234": unique per invocation, shared by all rows of one run.
std::string make_run_id(const std::string& host);
std::string utc_timestamp();

}  // namespace gb
