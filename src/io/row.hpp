// One CSV row: a record (core/record.hpp) in the order and format of the CSV schema.
// The column list is the schema; results/SCHEMA.md documents it. Bump kSchemaVersion whenever
// a column is added, removed or changes meaning. `gpubarrier schema` states it; the Python tools
// read its copy in gpubarrier_tools/data/schema.json (rewrite it with `gpubarrier --json schema`).
#pragma once

#include <string>
#include <vector>

#include "core/record.hpp"

namespace gb {

inline constexpr int kSchemaVersion = 5;

struct Row {
  std::vector<std::string> fields;  // in the order of columns()
  static const std::vector<std::string>& columns();
  // The columns of an older (or the current) schema version; empty for an unknown version.
  static std::vector<std::string> columns_of_version(int version);
  // Per column: true where the field holds a number (empty when there is none).
  static const std::vector<bool>& numeric();
  // Per column: the schema version that added it (`gpubarrier schema` states it).
  static const std::vector<int>& since();
  const std::string& get(const std::string& column) const;
};

// The CSV row of a record: the fixed columns filled from its fields; the four axis columns
// from its point where it has those axes (every axis is also in `config`).
Row to_row(const Record& record);

}  // namespace gb
