#include "topology/text_input.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "errors/errors.hpp"
#include "topology/printable.hpp"

namespace gb::topo {
namespace {

class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  ~Descriptor() {
    if (fd_ > STDIN_FILENO) ::close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

std::string hex_byte(unsigned char byte) {
  static constexpr char kHex[] = "0123456789abcdef";
  return std::string("0x") + kHex[byte >> 4] + kHex[byte & 0xf];
}

std::string size_text(std::size_t bytes) {
  const std::size_t mib = std::size_t{1} << 20;
  return bytes % mib == 0
             ? std::to_string(bytes / mib) + " MiB (" + std::to_string(bytes) + " bytes)"
             : std::to_string(bytes) + " bytes";
}

// The code point of the UTF-8 sequence at text[i] and its length, or length 0 when the bytes
// there are no well-formed sequence (stray continuation, overlong form, surrogate, past U+10FFFF).
struct CodePoint {
  char32_t value = 0;
  std::size_t length = 0;
};

CodePoint decode_utf8(std::string_view text, std::size_t i) {
  const auto lead = static_cast<unsigned char>(text[i]);
  if (lead < 0x80) return {lead, 1};
  // The lead byte tells the length (110xxxxx: 2, 1110xxxx: 3, 11110xxx: 4) and the value's top.
  const std::size_t length = (lead & 0xe0) == 0xc0   ? 2
                             : (lead & 0xf0) == 0xe0 ? 3
                             : (lead & 0xf8) == 0xf0 ? 4
                                                     : 0;
  if (length == 0 || i + length > text.size()) return {};
  char32_t value = lead & (0x7f >> length);
  for (std::size_t k = 1; k < length; ++k) {
    const auto next = static_cast<unsigned char>(text[i + k]);
    if ((next & 0xc0) != 0x80) return {};
    value = (value << 6) | (next & 0x3f);
  }
  constexpr char32_t kSmallest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (value < kSmallest[length] || value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff))
    return {};
  return {value, length};
}

// What makes the code point `c` (starting with `lead`) binary rather than text; empty if nothing.
std::string not_text(const CodePoint& c, unsigned char lead) {
  if (c.length == 0) return "byte " + hex_byte(lead) + " that is not UTF-8";
  if (c.value == 0) return "a NUL byte";
  const bool allowed = c.value == '\t' || c.value == '\r' || c.value == '\n' || c.value == 0x1b;
  if ((c.value < 0x20 && !allowed) || (c.value >= 0x7f && c.value <= 0x9f))
    return "control character U+00" + hex_byte(static_cast<unsigned char>(c.value)).substr(2);
  return {};
}

}  // namespace

std::string input_name(const std::string& path) {
  return path == "-" ? "<stdin>" : printable(path);
}

std::string read_text_input(const std::string& path, std::size_t max_bytes) {
  const std::string name = input_name(path);
  const Descriptor fd(path == "-" ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) throw UsageError("cannot read " + name + ": " + std::strerror(errno));
  struct stat info {};
  if (::fstat(fd.get(), &info) == 0 && S_ISDIR(info.st_mode))
    throw UsageError(name + " is a directory; expected a file (or - for standard input)");
  std::string text(max_bytes + 1, '\0');
  std::size_t got = 0;
  while (got < text.size()) {
    const ssize_t n = ::read(fd.get(), text.data() + got, text.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw UsageError("cannot read " + name + ": " + std::strerror(errno));
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  text.resize(got);
  return text;
}

void check_text_input(std::string_view text, const std::string& source, std::size_t max_bytes,
                      const std::string& expected) {
  if (text.size() > max_bytes) {
    const auto line = 1 + std::count(text.begin(), text.begin() + max_bytes, '\n');
    throw ParseError(source, static_cast<int>(line), 0,
                     "more than " + size_text(max_bytes) + ", the most accepted for " + expected);
  }
  int line = 1;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < text.size();) {
    const CodePoint c = decode_utf8(text, i);
    if (const std::string why = not_text(c, static_cast<unsigned char>(text[i])); !why.empty())
      throw ParseError(source, line, static_cast<int>(i - line_start) + 1,
                       why + " (binary data?); expected " + expected);
    i += c.length;
    if (c.value == '\n') {
      ++line;
      line_start = i;
    }
  }
}

}  // namespace gb::topo
