// Nothing of a user's file goes without --force: every subcommand that writes a file the user
// named checks it here before it creates or truncates anything.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace gb::cli {

// Throws gb::UsageError when `path` exists and is no regular file (a directory, a device such as
// /dev/null, a FIFO, a socket, or a symbolic link): gpubarrier replaces the files it writes
// (atomically, or by truncation) and keeps files named after them beside them, which would
// destroy a device node or replace a link; and when it holds anything and `force` is false.
// `flag` names the option that gave the path (--out, --raw). `what` describes the file in the
// message when it is not the path itself (e.g. "the completion log of 'x.csv'").
void refuse_to_overwrite(const std::string& path, const std::string& flag, bool force,
                         const std::string& continue_hint = "", const std::string& what = "");

// Throws gb::UsageError when two of `files` ({description, path}, e.g. {"--raw", "x.csv"}) are
// one file: the same path spelt two ways, or two links to one file. Writing both would leave
// only the last one's content.
void refuse_same_files(const std::vector<std::pair<std::string, std::string>>& files);

}  // namespace gb::cli
