#include "cli/point_book.hpp"

namespace gb::cli {
namespace {

bool failed(Status s) {
  return s == Status::failed || s == Status::timeout;
}

}  // namespace

PointBook::PointBook(const std::vector<DoneEntry>& history, RetryPolicy retry) : retry_(retry) {
  for (const DoneEntry& e : history) {
    History& h = history_[e.key];
    h.failures += failed(e.status) ? 1 : 0;
    h.last = e.status;
    h.entry = e;
  }
}

void PointBook::record_to(DoneLog* log, const CsvWriter* csv, long base_rows) {
  log_ = log;
  csv_ = csv;
  base_rows_ = base_rows;
}

bool PointBook::done(const PointKey& key) const {
  if (this_session_.contains(key)) return true;
  const auto it = history_.find(key);
  if (it == history_.end()) return false;
  const History& h = it->second;
  return !(retry_.retry_failed && failed(h.last) && h.failures <= retry_.max_retries);
}

void PointBook::finished(const Record& point, Status outcome) {
  DoneEntry e;
  e.key = point_key(point);
  e.status = outcome;
  e.run_id = point.run_id;
  e.rows = base_rows_ + (csv_ ? csv_->rows_written() : 0);
  this_session_.insert(e.key);
  if (log_) log_->append(e);
  finished_.push_back(std::move(e));
}

std::vector<DoneEntry> PointBook::done_entries() const {
  std::vector<DoneEntry> out = finished_;
  for (const auto& [key, h] : history_)
    if (!this_session_.contains(key) && done(key)) out.push_back(h.entry);
  return out;
}

}  // namespace gb::cli
