#include "app/parse_errors.hpp"

#include <cmath>
#include <string_view>
#include <vector>

#include "core/glob.hpp"
#include "core/setting_ranges.hpp"

namespace gb::cli {
namespace {

// The innermost subcommand the parser selected, or the app itself.
const CLI::App* selected(const CLI::App& app) {
  const CLI::App* at = &app;
  for (auto subs = at->get_subcommands(); !subs.empty(); subs = at->get_subcommands())
    at = subs.front();
  return at;
}

// "gpubarrier config check": every subcommand from the top down to `at`.
std::string command_name(const CLI::App& app, const CLI::App* at) {
  std::string name;
  for (; at != nullptr && at != &app; at = at->get_parent()) name = " " + at->get_name() + name;
  return "gpubarrier" + name;
}

// What a value of `option` must be, for a value that did not convert: the range the setting
// shares with sweep files (core/setting_ranges.hpp), else the option's type in words.
std::string expected_value(const CLI::Option* option) {
  for (const SettingRange* r :
       {&kSamplesRange, &kTimeBudgetRange, &kRseTargetRange, &kPointTimeoutRange, &kWatchdogRange})
    if (option->check_lname(std::string(r->flag.substr(2))))
      return range_violation(*r, std::nan(""));
  const std::string type = option->get_type_name();
  if (type.starts_with("INT") || type.starts_with("UINT")) return "expected an integer";
  if (type.starts_with("FLOAT")) return "expected a number";
  return "expected " + (type.empty() ? std::string("another value") : type);
}

// CLI11's "Could not convert: --samples = 1e3" as "--samples '1e3': expected an integer ...".
std::string conversion_problem(const CLI::App* at, const std::string& text) {
  const auto colon = text.find(": ");
  const auto eq = text.find(" = ", colon == std::string::npos ? 0 : colon);
  if (colon == std::string::npos || eq == std::string::npos) return text;
  const std::string flag = text.substr(colon + 2, eq - colon - 2);
  const std::string value = text.substr(eq + 3);
  const CLI::Option* option = nullptr;
  try {
    option = at->get_option(flag);
  } catch (const CLI::OptionNotFound&) {
    return text;
  }
  return flag + " '" + value + "': " + expected_value(option);
}

std::vector<std::string> option_names(const CLI::App* at) {
  std::vector<std::string> names;
  for (const CLI::Option* o : at->get_options()) {
    if (o->get_group().empty()) continue;  // hidden (isolated children's plumbing)
    for (const auto& l : o->get_lnames()) names.push_back("--" + l);
    for (const auto& s : o->get_snames()) names.push_back("-" + s);
  }
  return names;
}

std::vector<std::string> subcommand_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* s : app.get_subcommands([](const CLI::App*) { return true; }))
    names.push_back(s->get_name());
  return names;
}

std::string closest(std::string_view word, const std::vector<std::string>& known) {
  const auto near = close_names(word, known, 3);
  if (near.empty()) return {};
  std::string list;
  for (const auto& n : near) list += (list.empty() ? "" : ", ") + n;
  return " (closest: " + list + ")";
}

// The first word on the command line that is not a global option or its value: the subcommand
// the user meant, when the parser found none.
std::string first_word(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "-v" || a == "--log-level") {
      ++i;
      continue;
    }
    if (!a.empty() && a.front() != '-') return std::string(a);
  }
  return {};
}

bool numeric(const CLI::Option* option) {
  const std::string type = option->get_type_name();
  return type.starts_with("INT") || type.starts_with("UINT") || type.starts_with("FLOAT");
}

void refuse_empty_numbers_of(CLI::App* at) {
  for (CLI::Option* o : at->get_options())
    if (numeric(o) && o->get_expected_max() > 0)
      o->check(CLI::Validator(
          [o](std::string& value) -> std::string {
            return value.empty() ? "'' (an empty value): " + expected_value(o) : "";
          },
          ""));
  for (CLI::App* sub : at->get_subcommands([](const CLI::App*) { return true; }))
    refuse_empty_numbers_of(sub);
}

}  // namespace

void refuse_empty_numbers(CLI::App& app) {
  refuse_empty_numbers_of(&app);
}

std::string describe_parse_error(const CLI::App& app, const CLI::ParseError& e, int argc,
                                 char** argv) {
  const CLI::App* at = selected(app);
  const std::string cmd = command_name(app, at);
  const std::string help = "; see `" + cmd + " --help`";
  if (at == &app) {
    if (const std::string word = first_word(argc, argv); !word.empty())
      return "unknown subcommand '" + word + "'" + closest(word, subcommand_names(app)) +
             "; `gpubarrier --help` lists them";
  }
  if (dynamic_cast<const CLI::ExtrasError*>(&e)) {
    // CLI11 lists the leftover arguments after a colon; an option among them is the culprit
    // (its value, if any, is left over too).
    const std::string text = e.what();
    const auto colon = text.find(": ");
    const auto words = split_list(colon == std::string::npos ? text : text.substr(colon + 2), ' ');
    for (const auto& w : words)
      if (w.size() > 1 && w.front() == '-') {
        const std::string bare = w.substr(0, w.find('='));
        return cmd + ": unknown option '" + bare + "'" + closest(bare, option_names(at)) + help;
      }
    return cmd + ": unexpected argument '" + (words.empty() ? text : words.front()) + "'" + help;
  }
  if (dynamic_cast<const CLI::ConversionError*>(&e))
    return cmd + ": " + conversion_problem(at, e.what()) + help;
  return cmd + ": " + e.what() + help;
}

}  // namespace gb::cli
