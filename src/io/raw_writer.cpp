#include "io/raw_writer.hpp"

#include <cstdio>

namespace gb {

const std::vector<std::string>& RawWriter::columns() {
  static const std::vector<std::string> cols{"run_id", "method", "config",    "gpu_ids", "launcher",
                                             "metric", "unit",   "statistic", "sample",  "value"};
  return cols;
}

RawWriter::RawWriter(const std::string& path, CsvFile::Open mode)
    : file_(path, mode, columns(), "--raw") {}

void RawWriter::write(const Record& record) {
  const auto lines = raw_lines(record);
  if (!lines.empty()) file_.append(lines);
}

std::vector<std::vector<std::string>> raw_lines(const Record& r) {
  std::vector<std::vector<std::string>> lines;
  if (!r.has_figures) return lines;
  const Measurement& m = r.figure;
  const std::string config = r.point.to_string(), gpus = join_ids(r.gpu_ids);
  for (std::size_t i = 0; i < m.samples.size(); ++i) {
    char value[40];
    std::snprintf(value, sizeof value, "%.10g", m.samples[i]);
    lines.push_back({r.run_id, r.method, config, gpus, r.launcher, std::string(name_of(m.metric)),
                     m.unit, std::string(name_of(m.statistic)), std::to_string(i), value});
  }
  return lines;
}

}  // namespace gb
