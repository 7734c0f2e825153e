// Shell quoting for the generated scripts: every value from a file or flag is quoted once, here.
#pragma once

#include <string>
#include <vector>

namespace gb::jobs {

// `text` as one shell word: unchanged when it holds only safe characters, else single-quoted.
std::string shell_quote(const std::string& text);

// Words joined into one command, with " \" continuations so that no line passes 100 columns:
// each part starts a line of its own, the first at no indent, the others at `indent`, and a
// part too long for one line goes on two further columns in.
std::string shell_command(const std::vector<std::vector<std::string>>& parts,
                          const std::string& indent);

}  // namespace gb::jobs
