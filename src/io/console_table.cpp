#include "io/console_table.hpp"

#include <cstdlib>
#include <string>

#include "io/row.hpp"

namespace gb {
namespace {
// Latencies in ns read best in us once above a microsecond.
std::string human_value(const Row& row) {
  const std::string& v = row.get("value");
  if (v.empty()) return "-";
  const double value = std::atof(v.c_str());
  char buf[64];
  if (row.get("unit") == "ns" && value >= 1000)
    std::snprintf(buf, sizeof buf, "%.3f us", value / 1000);
  else
    std::snprintf(buf, sizeof buf, "%.4g %s", value, row.get("unit").c_str());
  return buf;
}

std::string percent(const std::string& cv) {
  if (cv.empty()) return "";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", std::atof(cv.c_str()) * 100);
  return buf;
}
}  // namespace

void ConsoleTable::write(const Record& record) {
  const Row row = to_row(record);
  if (!header_done_) {
    std::fprintf(out_, "%-28s %-40s %-15s %14s %7s %7s %-9s %-10s %s\n", "method", "config",
                 "metric", "value", "cv", "samples", "stop", "status", "note");
    header_done_ = true;
  }
  std::fprintf(out_, "%-28s %-40s %-15s %14s %7s %7s %-9s %-10s %s\n", row.get("method").c_str(),
               row.get("config").c_str(), row.get("metric").c_str(), human_value(row).c_str(),
               percent(row.get("cv")).c_str(), row.get("samples").c_str(), row.get("stop").c_str(),
               row.get("status").c_str(), row.get("note").c_str());
  std::fflush(out_);
}

}  // namespace gb
