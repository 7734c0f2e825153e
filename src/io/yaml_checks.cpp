#include "io/yaml_checks.hpp"

#include <yaml-cpp/eventhandler.h>

#include <map>
#include <sstream>

#include "errors/errors.hpp"
#include "io/config_limits.hpp"
#include "io/yaml_messages.hpp"

namespace gb {
namespace {

void check_unique_keys(const YAML::Node& node, const std::string& source, int depth) {
  if (depth > kMaxConfigDepth) return;  // check_config_limits refused deeper files already
  if (node.IsSequence()) {
    for (const auto& item : node) check_unique_keys(item, source, depth + 1);
    return;
  }
  if (!node.IsMap()) return;
  std::map<std::string, int> seen;  // key -> its line
  for (const auto& kv : node) {
    if (kv.first.IsScalar()) {
      const YAML::Mark m = kv.first.Mark();
      const auto [it, fresh] = seen.emplace(kv.first.Scalar(), m.line + 1);
      if (!fresh)
        throw ParseError(source, m.line + 1, m.column + 1,
                         kv.first.Scalar() + ": duplicate key (first given at line " +
                             std::to_string(it->second) + "; give each key once)");
    }
    check_unique_keys(kv.second, source, depth + 1);
  }
}

// yaml-cpp's events for the whole stream, before any node is built. An alias is a reference that
// every walk of the loaded tree follows, so a kilobyte of anchors nested 19 deep with 9 aliases
// each stands for 9^19 nodes; config files have no use for them, so the first anchor or alias is
// refused. yaml-cpp loads the first document only, so a second one would be ignored silently.
class StreamCheck : public YAML::EventHandler {
 public:
  explicit StreamCheck(const std::string& source) : source_(source) {}

  void OnDocumentStart(const YAML::Mark& mark) override {
    if (++documents_ > 1)
      throw ParseError(source_, mark.line + 1, mark.column + 1,
                       "a config file holds one YAML document; found a second one here (remove "
                       "the '---' and what follows, or put it in a file of its own)");
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override { node(mark, anchor); }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override { refuse(mark); }
  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                const std::string&) override {
    node(mark, anchor);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    node(mark, anchor);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    node(mark, anchor);
  }
  void OnMapEnd() override {}
  void OnAnchor(const YAML::Mark& mark, const std::string&) override { refuse(mark); }

 private:
  void node(const YAML::Mark& mark, YAML::anchor_t anchor) const {
    if (anchor != YAML::NullAnchor) refuse(mark);
  }
  [[noreturn]] void refuse(const YAML::Mark& mark) const {
    throw ParseError(source_, mark.line + 1, mark.column + 1,
                     "YAML aliases (*name) and anchors (&name) are not accepted in sweep and "
                     "system files: write the value out");
  }

  const std::string& source_;
  int documents_ = 0;
};

}  // namespace

void check_indentation(const std::string& text, const std::string& source) {
  int line = 1;
  bool at_indent = true;
  int column = 1;
  for (char c : text) {
    if (c == '\n') {
      ++line;
      column = 1;
      at_indent = true;
      continue;
    }
    if (at_indent && c == '\t')
      throw ParseError(source, line, column,
                       "a tab in the indentation: YAML indents with spaces only (replace the tab "
                       "with spaces)");
    if (c != ' ') at_indent = false;
    ++column;
  }
}

YAML::Node load_yaml(const std::string& text, const std::string& source) {
  check_indentation(text, source);
  YAML::Node root;
  try {
    std::istringstream in(text);
    YAML::Parser parser(in);
    StreamCheck stream(source);
    while (parser.HandleNextDocument(stream)) {
    }
    root = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    throw ParseError(source, e.mark.line + 1, e.mark.column + 1, explain_yaml_error(e.msg));
  }
  check_unique_keys(root, source, 0);
  return root;
}

}  // namespace gb
