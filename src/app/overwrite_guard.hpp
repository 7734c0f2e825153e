// Nothing of a user's file goes without --force: every subcommand that writes a file the user
// named checks it here before it creates or truncates anything.
#pragma once

#include <string>

namespace gb::cli {

// Throws gb::UsageError when `path` is a directory, or when it holds anything and `force` is
// false; `flag` names the option that gave the path (--out, --raw). `what` describes the file
// in the message when it is not the path itself (e.g. "its completion log 'x.csv.done'").
void refuse_to_overwrite(const std::string& path, const std::string& flag, bool force,
                         const std::string& continue_hint = "", const std::string& what = "");

}  // namespace gb::cli
