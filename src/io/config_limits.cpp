#include "io/config_limits.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include "errors/errors.hpp"

namespace gb {
namespace {

bool blank(char c) {
  return c == ' ' || c == '\t';
}

// A YAML indicator ("- ", "? ", ": ") is followed by a space, a tab or the end of the line.
bool ends_token(const std::string& line, std::size_t i) {
  return i >= line.size() || blank(line[i]);
}

// The nesting scan: an estimate of yaml-cpp's recursion depth that never runs yaml-cpp.
class DepthScan {
 public:
  explicit DepthScan(const std::string& source) : source_(source) {}

  void line(std::string text, int number) {
    if (!text.empty() && text.back() == '\r') text.pop_back();
    number_ = number;
    std::size_t i = 0;
    while (i < text.size() && text[i] == ' ') ++i;
    const int indent = static_cast<int>(i);
    if (block_scalar_indent_ >= 0) {
      if (i == text.size() || indent > block_scalar_indent_) return;  // inside a | or > scalar
      block_scalar_indent_ = -1;
    }
    bool node_start = true;
    if (quote_ == 0 && flow_ == 0) {
      if (i == text.size() || text[i] == '#') return;  // blank or comment line
      line_indent_ = indent;
      const bool marker = (text.compare(i, 3, "---") == 0 || text.compare(i, 3, "...") == 0) &&
                          i == 0 && ends_token(text, 3);
      if (marker) {
        block_.clear();
        i = 3;
      } else {
        while (!block_.empty() && block_.back() > indent) block_.pop_back();
        if (block_.empty() || block_.back() < indent) open_block(indent);
      }
    } else {
      i = 0;
      node_start = quote_ == 0;
    }
    scan(text, i, node_start);
  }

 private:
  void check(std::size_t column) const {
    if (static_cast<int>(block_.size()) + flow_ > kMaxConfigDepth)
      throw ParseError(source_, number_, static_cast<int>(column) + 1,
                       "nested deeper than " + std::to_string(kMaxConfigDepth) +
                           " levels (indentation, '- ' entries, '[' and '{'); a config file "
                           "needs a handful");
  }

  void open_block(int column) {
    block_.push_back(column);
    check(static_cast<std::size_t>(column));
  }

  void scan(const std::string& text, std::size_t i, bool node_start) {
    bool first_entry = true;  // the line's first `- ` sits on the level its indentation opened
    for (; i < text.size(); ++i) {
      const char c = text[i];
      if (quote_ == '\'') {
        if (c == '\'') {
          if (i + 1 < text.size() && text[i + 1] == '\'')
            ++i;  // '' is a quote inside the scalar
          else
            quote_ = 0;
        }
        node_start = false;
        continue;
      }
      if (quote_ == '"') {
        if (c == '\\')
          ++i;
        else if (c == '"')
          quote_ = 0;
        node_start = false;
        continue;
      }
      if (blank(c)) continue;
      if (c == '#' && (i == 0 || blank(text[i - 1]))) return;  // a comment to the end of line
      if (node_start && (c == '\'' || c == '"')) {
        quote_ = c;
        continue;
      }
      if ((c == '[' || c == '{') && (node_start || flow_ > 0)) {
        ++flow_;
        check(i);
        node_start = true;
        continue;
      }
      if ((c == ']' || c == '}') && flow_ > 0) {
        --flow_;
        node_start = false;
        continue;
      }
      if (c == ',' && flow_ > 0) {
        node_start = true;
        continue;
      }
      if ((c == '-' || c == '?') && node_start && flow_ == 0 && ends_token(text, i + 1)) {
        // `- - x`: every entry after the first on a line opens a level at its column
        if (!first_entry) {
          while (!block_.empty() && block_.back() >= static_cast<int>(i)) block_.pop_back();
          open_block(static_cast<int>(i));
        }
        first_entry = false;
        continue;
      }
      if (c == ':' && (ends_token(text, i + 1) ||
                       (flow_ > 0 && std::strchr(",[]{}", text[i + 1]) != nullptr))) {
        node_start = true;
        continue;
      }
      if ((c == '|' || c == '>') && node_start && flow_ == 0) {
        block_scalar_indent_ = line_indent_;  // the lines below, indented more, are its text
        return;
      }
      if (node_start && (c == '&' || c == '!' || c == '*')) {  // an anchor, tag or alias
        while (i + 1 < text.size() && !blank(text[i + 1])) ++i;
        continue;
      }
      node_start = false;
      first_entry = false;
    }
  }

  const std::string& source_;
  int number_ = 0;
  std::vector<int> block_;  // columns of the open indentation levels
  int flow_ = 0;            // open [ and {
  char quote_ = 0;          // ' or " inside a quoted scalar, which may span lines
  int line_indent_ = 0;
  int block_scalar_indent_ = -1;  // inside a | or > scalar: lines indented more than this
};

}  // namespace

void check_config_limits(const std::string& text, const std::string& source) {
  if (text.size() > kMaxConfigBytes) {
    const int line =
        1 + static_cast<int>(std::count(text.begin(), text.begin() + kMaxConfigBytes, '\n'));
    throw ParseError(source, line, 0,
                     "the file is larger than " + std::to_string(kMaxConfigBytes) +
                         " bytes (1 MiB), the most a config file may hold");
  }
  DepthScan scan(source);
  int number = 1;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    scan.line(text.substr(start, end - start), number++);
    start = end + 1;
  }
}

std::string read_config_text(const std::string& path, const std::string& kind) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw UsageError("cannot read " + kind + " '" + path + "': " + std::strerror(EISDIR));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError("cannot read " + kind + " '" + path + "': " + std::strerror(errno));
  std::string text(kMaxConfigBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (in.bad())
    throw UsageError("cannot read " + kind + " '" + path + "': " + std::strerror(errno));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return text;
}

}  // namespace gb
