// Text from an input file, made safe to put in a message: pasted or binary input must not reach
// the terminal as raw bytes (escape sequences, NULs, half a UTF-8 character).
#pragma once

#include <string>
#include <string_view>

namespace gb::topo {

// `text` with every byte outside printable ASCII written as \xNN.
std::string printable(std::string_view text);

// printable() of at most the first `max_bytes` bytes, "..." marking a cut: long lines of garbage
// would make unreadable messages.
std::string excerpt(std::string_view text, std::size_t max_bytes = 60);

}  // namespace gb::topo
