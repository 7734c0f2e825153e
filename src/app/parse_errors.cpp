#include "app/parse_errors.hpp"

#include <string_view>
#include <vector>

#include "core/glob.hpp"

namespace gb::cli {
namespace {

// The innermost subcommand the parser selected, or the app itself.
const CLI::App* selected(const CLI::App& app) {
  const CLI::App* at = &app;
  for (auto subs = at->get_subcommands(); !subs.empty(); subs = at->get_subcommands())
    at = subs.front();
  return at;
}

std::string command_name(const CLI::App& app, const CLI::App* at) {
  return at == &app ? "gpubarrier" : "gpubarrier " + at->get_name();
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

}  // namespace

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
  return cmd + ": " + e.what() + help;
}

}  // namespace gb::cli
