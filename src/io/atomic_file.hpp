// Replacing a file so that a reader (or a kill -9) sees the old content or the new, never a mix.
#pragma once

#include <string>
#include <string_view>

namespace gb {

// Writes `content` to a temporary file in the same folder, fsyncs it, renames it over `path` and
// fsyncs the folder. Throws gb::Error naming the file and the cause.
void write_file_atomically(const std::string& path, std::string_view content);

}  // namespace gb
