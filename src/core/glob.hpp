// Selecting methods by shell-style globs ("gpu.grid.*,host.mpi.barrier").
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gb {

// '*' matches any run of characters (dots included), '?' one character.
bool glob_match(std::string_view pattern, std::string_view text);

// Splits "a,b,,c" into {"a","b","c"} (empty items dropped, spaces trimmed).
std::vector<std::string> split_list(std::string_view text, char sep = ',');

// The known word that `word` most likely misspells (within max(2, length / 3) edits), or empty:
// for "did you mean 'x'?" after an unknown key.
std::string closest_word(std::string_view word, const std::vector<std::string>& known);

// Up to `limit` candidates closest to `query` (edit distance, substring matches first).
std::vector<std::string> close_names(std::string_view query,
                                     const std::vector<std::string>& candidates,
                                     std::size_t limit = 3);

// Names matched by the comma-separated globs, in candidate order, each once. A glob that
// matches nothing throws gb::UsageError that lists the close names.
std::vector<std::string> select_names(std::string_view globs,
                                      const std::vector<std::string>& candidates);

}  // namespace gb
