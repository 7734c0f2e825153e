// Text a user hands over as a file or on standard input (saved `nvidia-smi topo -m` output):
// read with a bound, so that /dev/zero or a wrong file cannot make the process grow without end,
// and refused when it is binary rather than text.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace gb::topo {

// How messages name `path`: "<stdin>" for "-", else the path with odd bytes escaped.
std::string input_name(const std::string& path);

// The first `max_bytes` + 1 bytes of the file `path` ("-": standard input), so that
// check_text_input can tell input that is over the limit. Throws gb::UsageError naming the input
// when it is a directory or cannot be read.
std::string read_text_input(const std::string& path, std::size_t max_bytes);

// Throws gb::ParseError "source:line[:column]: ..." when `text` is longer than `max_bytes` (the
// line where the limit is crossed) or is not text: a NUL byte, a byte that is not UTF-8, or a
// control character other than tab, CR, LF and ESC (ANSI underlines are part of real output).
// `expected` says what the text should have been ("the text of `nvidia-smi topo -m`"). The
// message holds no byte of the input.
void check_text_input(std::string_view text, const std::string& source, std::size_t max_bytes,
                      const std::string& expected);

}  // namespace gb::topo
