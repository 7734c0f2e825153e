#include "io/csv_reader.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>

#include "errors/errors.hpp"

namespace gb {
namespace {

// 256 MiB, 1 GiB: a bound as a user reads it.
std::string bound_text(std::size_t bytes) {
  if (bytes >= (std::size_t{1} << 30) && bytes % (std::size_t{1} << 30) == 0)
    return std::to_string(bytes >> 30) + " GiB";
  return std::to_string(bytes >> 20) + " MiB";
}

UsageError larger_than_read(const std::string& path, std::size_t limit) {
  return UsageError("'" + path + "' holds more than " + bound_text(limit) +
                    ", more than gpubarrier reads from one file (a CSV of its own is a few MB): "
                    "split it, or give the file gpubarrier wrote");
}

UsageError unreadable(const std::string& path) {
  return UsageError("cannot read '" + path + "': " + std::strerror(errno));
}

// The next field of `record` to fill (its string reused, emptied).
std::string& field_at(CsvRecord& record, std::size_t n) {
  if (n == record.fields.size()) record.fields.emplace_back();
  record.fields[n].clear();
  return record.fields[n];
}

// The file open for reading; a regular file larger than the bound is refused before it is read.
int open_bounded(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw unreadable(path);
  struct stat st {};
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
      static_cast<std::uintmax_t>(st.st_size) > kMaxStreamedCsvBytes) {
    close(fd);
    throw larger_than_read(path, kMaxStreamedCsvBytes);
  }
  return fd;
}

// What the file is when it is no regular file (it may never end), else "".
std::string stream_kind(int fd) {
  struct stat st {};
  if (fstat(fd, &st) != 0 || S_ISREG(st.st_mode)) return "";
  if (S_ISCHR(st.st_mode)) return "a character device";
  if (S_ISFIFO(st.st_mode)) return "a pipe";
  if (S_ISSOCK(st.st_mode)) return "a socket";
  return S_ISBLK(st.st_mode) ? "a block device" : "";
}

}  // namespace

CsvRecordReader::CsvRecordReader(Source source, std::size_t limit, std::string name,
                                 std::string kind)
    : source_(std::move(source)), limit_(limit), name_(std::move(name)), kind_(std::move(kind)) {}

int CsvRecordReader::peek() {
  if (at_ == piece_.size()) {
    piece_ = source_();
    at_ = 0;
    if (piece_.empty()) return -1;
  }
  return static_cast<unsigned char>(piece_[at_]);
}

void CsvRecordReader::too_long(int line, int quote_line) const {
  throw UsageError(name_ + ":" + std::to_string(line) + ": row longer than " + bound_text(limit_) +
                   (quote_line ? ", in a field whose quote (line " + std::to_string(quote_line) +
                                     ") is never closed"
                               : std::string()) +
                   (kind_.empty() ? std::string() : " (" + kind_ + ", which may never end)") +
                   ": expected a gpubarrier CSV, whose rows are far shorter");
}

void CsvRecordReader::take_run(std::string& field, bool quoted, std::size_t& bytes, int line,
                               int quote_line) {
  // The bytes that only join the field: in quotes all but '"' and LF (which counts a line),
  // outside them all but the separators, the line ends and '"'.
  std::size_t end = at_;
  if (quoted)
    while (end < piece_.size() && piece_[end] != '"' && piece_[end] != '\n') ++end;
  else
    while (end < piece_.size() && piece_[end] != ',' && piece_[end] != '"' && piece_[end] != '\r' &&
           piece_[end] != '\n')
      ++end;
  const std::size_t n = end - at_;
  if ((bytes += n) > limit_) too_long(line, quote_line);
  field.append(piece_.data() + at_, n);
  at_ = end;
  offset_ += n;
}

bool CsvRecordReader::next(CsvRecord& record) {
  std::size_t n = 0, bytes = 0;
  bool quoted = false, field_started = false;
  int quote_line = 0;
  record.line = line_;
  std::string* field = &field_at(record, n);
  while (peek() >= 0) {
    const char c = piece_[at_++];
    ++offset_;
    if (++bytes > limit_) too_long(record.line, quoted ? quote_line : 0);
    if (quoted) {
      if (c == '"' && peek() == '"') {
        *field += '"';
        ++at_;
        ++offset_;
      } else if (c == '"') {
        quoted = false;
      } else {
        if (c == '\n') ++line_;
        *field += c;
        take_run(*field, true, bytes, record.line, quote_line);
      }
      continue;
    }
    if (c == '"' && !field_started) {
      quoted = field_started = true;
      quote_line = line_;
    } else if (c == ',') {
      field = &field_at(record, ++n);
      field_started = false;
    } else if (c == '\n' || (c == '\r' && peek() >= 0)) {
      // A CR is a terminator only with its LF or before other text: a file ending in a bare CR
      // lost the LF of a CRLF, so its last row is torn.
      if (c == '\r' && peek() == '\n') {
        ++at_;
        ++offset_;
      }
      record.fields.resize(n + 1);
      record.end = offset_;
      ++line_;
      return true;
    } else if (c != '\r') {
      *field += c;
      field_started = true;
      take_run(*field, false, bytes, record.line, 0);
    }
  }
  if (bytes > 0) {
    record.fields.resize(n + 1);
    record.end = offset_;
    torn_ = std::move(record);
  }
  if (quoted) open_quote_line_ = quote_line;
  return false;
}

CsvText split_csv(std::string_view text) {
  CsvText out;
  bool given = false;
  CsvRecordReader reader([&]() {
    const std::string_view piece = given ? std::string_view() : text;
    given = true;
    return piece;
  });
  for (CsvRecord record; reader.next(record); record = CsvRecord{})
    out.records.push_back(std::move(record));
  out.torn = std::move(reader.torn());
  out.open_quote_line = reader.open_quote_line();
  return out;
}

std::string excerpt(std::string_view text, std::size_t max) {
  std::string out;
  for (std::size_t i = 0; i < text.size() && i < max; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  if (text.size() > max) out += "...";
  return out;
}

std::string read_text_file(const std::string& path, std::size_t limit) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw unreadable(path);
  // A regular file states its size: one over the bound is refused before a byte is read.
  if (struct stat st{}; stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
                        static_cast<std::uint64_t>(st.st_size) > limit)
    throw larger_than_read(path, limit);
  std::string text;
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
    text.append(chunk, static_cast<std::size_t>(in.gcount()));
    if (text.size() > limit) throw larger_than_read(path, limit);
  }
  if (in.bad()) throw unreadable(path);
  return text;
}

CsvFileReader::CsvFileReader(const std::string& path)
    : path_(path),
      fd_(open_bounded(path)),
      buffer_(std::size_t{1} << 20),
      records_([this] { return read_piece(); }, kMaxCsvRecordBytes, path, stream_kind(fd_)) {}

CsvFileReader::~CsvFileReader() {
  close(fd_);
}

std::string_view CsvFileReader::read_piece() {
  const bool first = read_ == 0;
  std::size_t got = 0;
  // The first piece holds at least the 3 bytes of a byte order mark, where the file has them.
  do {
    const ssize_t n = ::read(fd_, buffer_.data() + got, buffer_.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw unreadable(path_);
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  } while (first && got < 3);
  read_ += got;
  if (read_ > kMaxStreamedCsvBytes) throw larger_than_read(path_, kMaxStreamedCsvBytes);
  std::string_view piece(buffer_.data(), got);
  if (first && piece.starts_with("\xEF\xBB\xBF")) piece.remove_prefix(3);
  // An empty piece ends the text: a first piece that was only the mark is followed by the next.
  return piece.empty() && got > 0 ? read_piece() : piece;
}

}  // namespace gb
