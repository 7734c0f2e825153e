#include "io/json_writer.hpp"

#include <algorithm>
#include <cstdlib>

namespace gb {

nlohmann::json row_to_json(const Row& row) {
  // Numeric columns become numbers so that readers need no schema to compare figures.
  static const std::vector<std::string> numeric = {"schema_version",
                                                   "gpu_count",
                                                   "ranks",
                                                   "nodes",
                                                   "blocks_per_sm",
                                                   "threads_per_block",
                                                   "group_size",
                                                   "cluster_size",
                                                   "reps_lo",
                                                   "reps_hi",
                                                   "samples",
                                                   "value",
                                                   "mean",
                                                   "stddev",
                                                   "min",
                                                   "max",
                                                   "median",
                                                   "p95",
                                                   "p99",
                                                   "cv"};
  nlohmann::json obj = nlohmann::json::object();
  const auto& cols = Row::columns();
  for (std::size_t i = 0; i < cols.size(); ++i) {
    const std::string& f = row.fields[i];
    const bool is_num = std::find(numeric.begin(), numeric.end(), cols[i]) != numeric.end();
    if (is_num && f.empty())
      obj[cols[i]] = nullptr;
    else if (is_num)
      obj[cols[i]] = std::strtod(f.c_str(), nullptr);
    else
      obj[cols[i]] = f;
  }
  return obj;
}

void JsonWriter::finish() {
  const std::string text = rows_.dump(2) + "\n";
  std::fwrite(text.data(), 1, text.size(), out_);
  std::fflush(out_);
}

}  // namespace gb
