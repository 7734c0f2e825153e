#include "app/point_book.hpp"

#include <cstdio>
#include <exception>

#include "io/inflight_mark.hpp"

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

void PointBook::record_to(DoneLog* log, const CsvWriter* csv, long base_rows,
                          bool mark_inflight) {
  log_ = log;
  csv_ = csv;
  base_rows_ = base_rows;
  mark_inflight_ = mark_inflight && log && csv;
}

bool PointBook::start(const Record& point) {
  if (done(point_key(point))) return false;
  // Rank 0 alone writes the mark, between the ranks' collectives: a failure must not throw there
  // (the other ranks would wait for rank 0 forever), and it costs only the mark.
  if (mark_inflight_) {
    try {
      write_inflight(csv_->path(), point);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "gpubarrier: warning: %s; a rank that dies in this point leaves no "
                   "mark for `gpubarrier lost-point`\n", e.what());
    }
  }
  return true;
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
  if (mark_inflight_) {  // after its completion line: a point that finished is never lost
    try {
      clear_inflight(csv_->path());
    } catch (const std::exception& e) {  // lost-point sees the point done, and removes the mark
      std::fprintf(stderr, "gpubarrier: warning: %s\n", e.what());
    }
  }
  finished_.push_back(std::move(e));
}

std::vector<DoneEntry> PointBook::done_entries() const {
  std::vector<DoneEntry> out = finished_;
  for (const auto& [key, h] : history_)
    if (!this_session_.contains(key) && done(key)) out.push_back(h.entry);
  return out;
}

}  // namespace gb::cli
