#include "io/resume_log.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "errors/errors.hpp"
#include "io/csv_reader.hpp"
#include "io/csv_writer.hpp"

namespace gb {
namespace {

const std::vector<std::string>& log_columns() {
  static const std::vector<std::string> cols{"rows",    "status",   "run_id", "method", "config",
                                             "gpu_ids", "launcher", "ranks",  "nodes"};
  return cols;
}

std::string csv_line(const std::vector<std::string>& fields) {
  std::string line;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i) line += ',';
    line += csv_quote(fields[i]);
  }
  return line + "\r\n";
}

std::string entry_line(const DoneEntry& e) {
  const PointKey& k = e.key;
  return csv_line({std::to_string(e.rows), std::string(to_string(e.status)), e.run_id, k.method,
                   k.config, k.gpu_ids, k.launcher, k.ranks, k.nodes});
}

void write_all(int fd, const std::string& text, const std::string& path, bool sync = true) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw Error("writing '" + path + "' failed: " + std::strerror(errno));
    done += static_cast<std::size_t>(n);
  }
  if (sync && fsync(fd) != 0)
    throw Error("fsync of '" + path + "' failed: " + std::strerror(errno));
}

}  // namespace

std::string done_log_path(const std::string& csv_path) {
  return csv_path + ".done";
}

Status status_from_string(std::string_view text) {
  for (Status s :
       {Status::ok, Status::skipped, Status::failed, Status::timeout, Status::unverified})
    if (to_string(s) == text) return s;
  throw UsageError("unknown status '" + std::string(text) +
                   "' (expected ok, skipped, failed, timeout or unverified)");
}

std::string format_done_log(const std::vector<DoneEntry>& entries) {
  std::string text = csv_line(log_columns());
  for (const DoneEntry& e : entries) text += entry_line(e);
  return text;
}

DoneLogText parse_done_log(std::string_view text, const std::string& source) {
  DoneLogText log;
  const CsvText csv = split_csv(text);
  log.torn = csv.torn.has_value();
  if (csv.records.empty()) return log;  // empty, or a header cut short: nothing done yet
  log.headed = true;
  if (csv.records.front().fields != log_columns())
    throw ParseError(source, 1, 0,
                     "not a gpubarrier completion log (expected the header rows,status,run_id,"
                     "method,config,gpu_ids,launcher,ranks,nodes)");
  for (std::size_t i = 1; i < csv.records.size(); ++i) {
    const CsvRecord& r = csv.records[i];
    if (r.fields.size() != log_columns().size())
      throw ParseError(source, r.line, 0,
                       std::to_string(r.fields.size()) + " fields, expected " +
                           std::to_string(log_columns().size()));
    const auto& f = r.fields;
    DoneEntry e;
    try {
      std::size_t used = 0;
      e.rows = std::stol(f[0], &used);
      if (used != f[0].size() || e.rows < 0) throw std::invalid_argument(f[0]);
      e.status = status_from_string(f[1]);
    } catch (const std::exception&) {
      throw ParseError(source, r.line, 0,
                       "expected a row count and a status, got '" + f[0] + "," + f[1] + "'");
    }
    e.run_id = f[2];
    e.key = {f[3], f[4], f[5], f[6], f[7], f[8]};
    log.entries.push_back(std::move(e));
  }
  log.good_bytes = csv.records.back().end;
  return log;
}

bool being_written(const std::string& csv_path) {
  const std::string path = done_log_path(csv_path);
  struct stat st {};
  if (lstat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return false;
  const bool locked = flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
  close(fd);
  return locked;
}

DoneLog::DoneLog(const std::string& csv_path) : path_(done_log_path(csv_path)) {
  std::error_code ec;
  const auto parent = std::filesystem::path(path_).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  fd_ = open(path_.c_str(), O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd_ < 0)
    throw UsageError("cannot write output file '" + csv_path + "': its completion log '" + path_ +
                     "': " + std::strerror(errno) + " (expected a writable path for --out)");
  // Two processes never append to one CSV (each job step writes its own; merge joins them).
  // File systems without flock (some NFS set-ups) just go without the guard.
  if (flock(fd_, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK) {
    close(fd_);
    fd_ = -1;
    throw UsageError("another gpubarrier is writing '" + csv_path + "' (its completion log '" +
                     path_ + "' is locked): give each process its own --out");
  }
}

DoneLog::~DoneLog() {
  if (fd_ < 0) return;
  if (sync_.dirty()) fsync(fd_);
  close(fd_);
}

std::string DoneLog::read() const {
  return read_text_file(path_);
}

void DoneLog::truncate(std::size_t bytes) {
  if (ftruncate(fd_, static_cast<off_t>(bytes)) != 0 || fsync(fd_) != 0)
    throw Error("cannot truncate '" + path_ + "': " + std::strerror(errno));
}

void DoneLog::start_fresh() {
  truncate(0);
  write_all(fd_, csv_line(log_columns()), path_);
}

void DoneLog::append(const DoneEntry& entry) {
  write_all(fd_, entry_line(entry), path_, sync_.due(entry.status != Status::skipped));
}

}  // namespace gb
