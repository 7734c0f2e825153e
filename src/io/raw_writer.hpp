// `--raw FILE`: every sample behind every figure, one CSV line each (results/SCHEMA.md, "The raw
// file"), appended and fsynced one record at a time like the main CSV.
#pragma once

#include <string>
#include <vector>

#include "core/result_sink.hpp"
#include "io/csv_file.hpp"

namespace gb {

class RawWriter : public ResultSink {
 public:
  // run_id,method,config,gpu_ids,launcher,metric,unit,statistic,sample,value
  static const std::vector<std::string>& columns();
  // Throws gb::UsageError naming the path when it cannot be written.
  explicit RawWriter(const std::string& path, CsvFile::Open mode = CsvFile::Open::fresh);
  // One line per sample of the record's figure; nothing for a record without figures.
  void write(const Record& record) override;
  const std::string& path() const { return file_.path(); }

 private:
  CsvFile file_;
};

// The raw lines of one record, in columns() order.
std::vector<std::vector<std::string>> raw_lines(const Record& record);

}  // namespace gb
