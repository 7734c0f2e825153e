#include "io/resume_recover.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <set>
#include <utility>

#include "errors/errors.hpp"
#include "io/csv_reader.hpp"
#include "io/row.hpp"

namespace gb {

void truncate_file(const std::string& path, std::size_t bytes) {
  const int fd = open(path.c_str(), O_WRONLY | O_CLOEXEC);
  const bool ok = fd >= 0 && ftruncate(fd, static_cast<off_t>(bytes)) == 0 && fsync(fd) == 0;
  const int err = errno;
  if (fd >= 0) close(fd);
  if (!ok) throw Error("cannot truncate '" + path + "': " + std::strerror(err));
}

namespace {

std::size_t column(const std::string& name) {
  const auto& cols = Row::columns();
  return static_cast<std::size_t>(std::find(cols.begin(), cols.end(), name) - cols.begin());
}

std::string version_word(int v) {
  return "schema v" + std::to_string(v);
}

std::string key_text(const std::string& method, const std::string& config) {
  return config.empty() ? method : method + " " + config;
}

// Every kept row belongs to the point whose completion line counts it: the rows a point wrote
// lie between the previous line's count and its own, and carry its run_id and key, each figure
// (technique and metric) once. A CSV whose rows were sorted, edited or written beside another
// run's log fails here, naming the first row that does not match, instead of keeping rows of
// points that would then never run again, or a point whose figure was replaced by a copy of
// another.
void check_rows_against_log(const CsvText& csv, const std::vector<DoneEntry>& entries,
                            const std::string& csv_path, const std::string& log_path) {
  static const std::size_t run_id = column("run_id"), method = column("method"),
                           config = column("config"), gpu_ids = column("gpu_ids"),
                           launcher = column("launcher"), ranks = column("ranks"),
                           nodes = column("nodes"), technique = column("technique"),
                           metric = column("metric");
  const long total = static_cast<long>(csv.records.size()) - 1;
  long first = 0;
  for (std::size_t n = 0; n < entries.size(); ++n) {
    const DoneEntry& e = entries[n];
    const std::string line = log_path + " line " + std::to_string(n + 2);
    if (e.rows < first || e.rows > total)
      throw UsageError("--resume: " + line + " counts " + std::to_string(e.rows) + " rows, " +
                       (e.rows < first ? "fewer than the line before it (" + std::to_string(first)
                                       : "more than the CSV holds (" + std::to_string(total)) +
                       "): the completion log was edited; write to a new --out");
    std::set<std::pair<std::string, std::string>> figures;
    for (long i = first; i < e.rows; ++i) {
      const CsvRecord& r = csv.records[static_cast<std::size_t>(i) + 1];
      const auto& f = r.fields;
      const bool same = f[run_id] == e.run_id && f[method] == e.key.method &&
                        f[config] == e.key.config && f[gpu_ids] == e.key.gpu_ids &&
                        f[launcher] == e.key.launcher && f[ranks] == e.key.ranks &&
                        f[nodes] == e.key.nodes;
      if (!same)
        throw UsageError("--resume: " + csv_path + ":" + std::to_string(r.line) + ": the row (" +
                         key_text(f[method], f[config]) + ", run " + f[run_id] +
                         ") is not of the point that " + line + " counts there (" +
                         key_text(e.key.method, e.key.config) + ", run " + e.run_id +
                         "): the CSV was edited or sorted, or the log is another run's; write " +
                         "to a new --out (`gpubarrier merge` joins files)");
      if (!figures.emplace(f[technique], f[metric]).second)
        throw UsageError("--resume: " + csv_path + ":" + std::to_string(r.line) + ": a second " +
                         f[metric] + " row (technique " + f[technique] + ") of the point that " +
                         line + " counts (" + key_text(e.key.method, e.key.config) +
                         "), which writes each figure once: the CSV was edited; write to a new " +
                         "--out (`gpubarrier merge` joins files)");
    }
    first = e.rows;
  }
}

}  // namespace

std::string header_problem(const std::vector<std::string>& header) {
  const auto& want = Row::columns();
  if (header == want) return {};
  for (int v = 1; v < kSchemaVersion; ++v)
    if (header == Row::columns_of_version(v))
      return "it is a " + version_word(v) + " file and this gpubarrier writes " +
             version_word(kSchemaVersion) + " (column '" + want[header.size()] +
             "' is new): write to a new --out and join the files with `gpubarrier merge`";
  for (std::size_t i = 0; i < std::max(header.size(), want.size()); ++i) {
    const std::string col = "header column " + std::to_string(i + 1);
    if (i >= header.size()) return col + " is missing: expected '" + want[i] + "'";
    if (i >= want.size())
      return col + " '" + excerpt(header[i]) + "' is not a " + version_word(kSchemaVersion) +
             " column";
    if (i == 0 && header[i].starts_with("\xEF\xBB\xBF"))
      return "the file starts with a byte-order mark (as a spreadsheet saves \"CSV UTF-8\"), "
             "which gpubarrier never writes: it is not the CSV this run wrote; write to a new "
             "--out (`gpubarrier merge` reads such a file)";
    if (header[i] != want[i])
      return col + " is '" + excerpt(header[i]) + "', expected '" + want[i] + "'";
  }
  return {};
}

ResumeState recover_output(const std::string& csv_path, DoneLog& log,
                           std::vector<std::string>& notes) {
  const DoneLogText done = parse_done_log(log.read(), log.path());
  if (done.torn) {
    log.truncate(done.good_bytes);
    notes.push_back(log.path() + ": dropped a torn last line (a killed run)");
  }
  ResumeState state;
  if (!std::filesystem::exists(csv_path)) {
    if (!done.entries.empty())
      notes.push_back(log.path() + " lists " + std::to_string(done.entries.size()) +
                      " finished points but '" + csv_path + "' does not exist: starting afresh");
    return state;
  }
  const std::string text = read_text_file(csv_path);
  const CsvText csv = split_csv(text);
  const std::string refuse = "--resume: cannot continue '" + csv_path + "': ";
  if (csv.records.empty()) {  // empty, or killed while writing the header
    if (!done.entries.empty())
      throw UsageError(refuse + "it has no rows but " + log.path() + " lists finished points");
    return state;
  }
  if (const std::string why = header_problem(csv.records.front().fields); !why.empty())
    throw UsageError(refuse + why);
  const std::size_t width = Row::columns().size();
  for (std::size_t i = 1; i < csv.records.size(); ++i) {
    const CsvRecord& r = csv.records[i];
    const std::string where = csv_path + ":" + std::to_string(r.line) + ": ";
    if (r.fields.size() != width)
      throw UsageError("--resume: " + where + std::to_string(r.fields.size()) +
                       " fields, the header has " + std::to_string(width));
    if (r.fields.front() != std::to_string(kSchemaVersion))
      throw UsageError("--resume: " + where + "column schema_version is '" + r.fields.front() +
                       "', expected " + std::to_string(kSchemaVersion));
  }
  const long rows = static_cast<long>(csv.records.size()) - 1;
  const long finished = done.entries.empty() ? 0 : done.entries.back().rows;
  if (rows < finished)
    throw UsageError(refuse + "it has " + std::to_string(rows) + " rows but its completion log " +
                     log.path() + " says the finished points wrote " + std::to_string(finished) +
                     ": the files do not belong together (write to a new --out)");
  if (rows > 0 && !done.headed)
    throw UsageError(refuse + "it has " + std::to_string(rows) + " rows but no completion log (" +
                     log.path() + "), so which points finished is unknown: write to a new --out " +
                     "(`gpubarrier merge` joins the files)");
  check_rows_against_log(csv, done.entries, csv_path, log.path());
  const std::size_t keep = csv.records[static_cast<std::size_t>(finished)].end;
  if (csv.torn)
    notes.push_back(csv_path + ":" + std::to_string(csv.torn->line) +
                    ": dropped a torn last row (" +
                    std::to_string(text.size() - csv.records.back().end) +
                    " bytes, cut short by a killed run)");
  if (rows > finished) {
    // Normally the rows of the one point that was running; a lost log line adds its point too.
    std::vector<std::string> points;
    for (std::size_t i = static_cast<std::size_t>(finished) + 1; i < csv.records.size(); ++i) {
      const auto& f = csv.records[i].fields;
      const std::string point = f[column("method")] + " " + f[column("config")];
      if (std::find(points.begin(), points.end(), point) == points.end()) points.push_back(point);
    }
    std::string names;
    for (const auto& p : points) {
      if (!names.empty()) names += ", ";
      names += p;
    }
    notes.push_back(csv_path + ":" +
                    std::to_string(csv.records[static_cast<std::size_t>(finished) + 1].line) + "-" +
                    std::to_string(csv.records.back().line) + ": dropped " +
                    std::to_string(rows - finished) + " row(s) without a completion line (" +
                    names + "): their points run again");
  }
  if (keep < text.size()) truncate_file(csv_path, keep);
  for (const auto& e : done.entries) state.runs.insert(e.run_id);
  for (std::size_t i = 1; i < csv.records.size(); ++i)
    state.runs.insert(csv.records[i].fields[column("run_id")]);
  state.fresh = false;
  state.done = done.entries;
  state.rows = finished;
  return state;
}

}  // namespace gb
