// The command line's mistakes in gpubarrier's words: one line that says what was wrong and what
// is expected (the closest subcommand or option for a misspelt one), always exit status 2, never
// the parser library's own codes.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace gb::cli {

// Every numeric option of `app` and its subcommands refuses an empty value (`--samples ''`),
// naming the option and what it expects, instead of the parser reading it as 0.
void refuse_empty_numbers(CLI::App& app);

// The message for a parse error of `app` (already parsed as far as it got) on argv.
std::string describe_parse_error(const CLI::App& app, const CLI::ParseError& e, int argc,
                                 char** argv);

}  // namespace gb::cli
