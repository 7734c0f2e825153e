// Limits every YAML config file (sweep files, system files) must meet before yaml-cpp reads it.
// yaml-cpp recurses once per nesting level and holds the whole document in memory, so a file that
// is huge or nested absurdly deep is refused here, with the file and line, instead of reaching it.
// Real config files are a few KiB and nest 5 or 6 levels.
#pragma once

#include <cstddef>
#include <string>

namespace gb {

inline constexpr std::size_t kMaxConfigBytes = std::size_t{1} << 20;  // 1 MiB
inline constexpr int kMaxConfigDepth = 32;

// Throws gb::ParseError "source:line:column: ..." when `text` is over kMaxConfigBytes (the line
// where the limit is crossed) or nests deeper than kMaxConfigDepth levels (the line and column
// of the first level too many). A level is an indentation level, a `- ` or `? ` entry that opens
// on the line of another entry, or an open `[` or `{`; quoted scalars, block scalars (| and >)
// and comments are skipped.
void check_config_limits(const std::string& text, const std::string& source);

// Reads the config file `path` ("sweep file", "system file": `kind`), at most kMaxConfigBytes
// and one byte more; throws gb::UsageError "cannot read <kind> '<path>': <why>" when it cannot
// be read. Pass the text to check_config_limits (the parse functions do) to refuse it when over.
std::string read_config_text(const std::string& path, const std::string& kind);

}  // namespace gb
