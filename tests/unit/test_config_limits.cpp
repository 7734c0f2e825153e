// The size and nesting limits that sweep and system files meet before yaml-cpp parses them
// (src/io/config_limits.hpp), and the inputs the fuzzers (tests/fuzz/fuzz_config_files.cpp)
// found: each is refused with file, line and what was expected, never a crash.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "errors/errors.hpp"
#include "io/config_limits.hpp"
#include "io/sweep_file.hpp"
#include "io/system_file.hpp"

using namespace gb;

namespace {

const char* const kDepthError = "nested deeper than 32 levels";
const char* const kSizeError = "larger than 1048576 bytes (1 MiB)";

// The ParseError `parse(text)` throws; a failure when it throws none.
template <typename Parse>
ParseError error_of(Parse parse, const std::string& text) {
  try {
    parse(text);
  } catch (const ParseError& e) {
    return e;
  }
  ADD_FAILURE() << "accepted:\n" << text.substr(0, 400);
  return ParseError("none", 0, 0, "no error");
}

ParseError sweep_error(const std::string& text) {
  return error_of([](const std::string& t) { parse_sweep_text(t, "s.yaml"); }, text);
}

ParseError system_error(const std::string& text) {
  return error_of([](const std::string& t) { parse_system_text(t, "t.yaml"); }, text);
}

std::string repeat(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

// `levels` maps nested by indentation, one key a line: a: / b: / ...
std::string indented_maps(int levels) {
  std::string text;
  for (int i = 0; i < levels; ++i)
    text += std::string(2 * i, ' ') + "k" + std::to_string(i) + ":\n";
  return text + std::string(2 * levels, ' ') + "x\n";
}

const std::string kSweep = "name: t\nruns:\n  - methods: host.omp.barrier\n";

std::filesystem::path write_temp(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

}  // namespace

TEST(ConfigLimits, ShippedFilesAreWellInside) {
  for (const char* dir : {GB_SOURCE_DIR "/configs/sweeps", GB_SOURCE_DIR "/configs/systems"}) {
    for (const auto& f : std::filesystem::directory_iterator(dir)) {
      if (f.path().extension() != ".yaml") continue;
      const std::string text = read_config_text(f.path().string(), "config file");
      EXPECT_NO_THROW(check_config_limits(text, f.path().string())) << f.path();
      // Half the depth limit would still hold every shipped file.
      EXPECT_NO_THROW(check_config_limits(indented_maps(15) + text, f.path().string()));
    }
  }
}

TEST(ConfigLimits, SizeOverOneMebibyteIsRefusedWithItsLine) {
  std::string text = kSweep;
  const std::string comment = "# " + std::string(1021, 'x') + "\n";  // 1 KiB a line
  while (text.size() < kMaxConfigBytes) text += comment;
  text.resize(kMaxConfigBytes);
  EXPECT_NO_THROW(check_config_limits(text, "s.yaml"));  // exactly 1 MiB is allowed
  text += "\n";
  const ParseError e = sweep_error(text);
  EXPECT_EQ(e.line(), 1024 + 3);  // the line where the limit is crossed
  EXPECT_NE(std::string(e.what()).find(kSizeError), std::string::npos) << e.what();
  EXPECT_EQ(std::string(e.what()).rfind("s.yaml:1027: ", 0), 0u) << e.what();
  const ParseError s = system_error(text);
  EXPECT_NE(std::string(s.what()).find(kSizeError), std::string::npos) << s.what();
}

TEST(ConfigLimits, LoadersReadNoMoreThanTheLimit) {
  const auto big = write_temp("gb_limits_big.yaml", kSweep + std::string(3 << 20, '#'));
  try {
    load_sweep_file(big.string());
    ADD_FAILURE() << "a 3 MiB sweep file was accepted";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.source(), big.string());
    EXPECT_NE(std::string(e.what()).find(kSizeError), std::string::npos) << e.what();
  }
  EXPECT_THROW(load_system_file(big.string()), ParseError);
  std::filesystem::remove(big);
  // A folder is a file that cannot be read, not an empty sweep.
  try {
    load_sweep_file(std::filesystem::temp_directory_path().string());
    ADD_FAILURE() << "a folder was read as a sweep file";
  } catch (const ParseError& e) {
    ADD_FAILURE() << e.what();
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot read sweep file"), std::string::npos) << e.what();
  }
}

TEST(ConfigLimits, FlowNestingIsRefusedAtTheFirstLevelTooMany) {
  // `runs:` is level 1; the 32nd '[' is level 33, at column 6 + 32.
  const ParseError e = sweep_error("runs: " + repeat("[", 40) + repeat("]", 40) + "\n");
  EXPECT_EQ(e.line(), 1);
  EXPECT_EQ(e.column(), 38);
  EXPECT_NE(std::string(e.what()).find(kDepthError), std::string::npos) << e.what();
  EXPECT_EQ(std::string(e.what()).rfind("s.yaml:1:38: ", 0), 0u) << e.what();
  // 31 levels of '[' reach yaml-cpp and the loader, which says what it expected instead.
  const ParseError ok = sweep_error("runs: " + repeat("[", 31) + repeat("]", 31) + "\n");
  EXPECT_EQ(std::string(ok.what()).find(kDepthError), std::string::npos) << ok.what();
  // Maps, across lines, in a system file.
  const ParseError m = system_error("name: t\nenv:\n" + repeat("  {a:\n", 40) + repeat("}", 40));
  EXPECT_EQ(m.line(), 33);
  EXPECT_NE(std::string(m.what()).find(kDepthError), std::string::npos) << m.what();
}

TEST(ConfigLimits, IndentationAndEntryNestingAreRefused) {
  const ParseError e = sweep_error(indented_maps(40));
  EXPECT_EQ(e.line(), 33);
  EXPECT_EQ(e.column(), 65);
  EXPECT_NE(std::string(e.what()).find(kDepthError), std::string::npos) << e.what();
  // 31 levels reach the loader, which names the key it does not know.
  const ParseError ok = sweep_error(indented_maps(31));
  EXPECT_EQ(std::string(ok.what()).rfind("s.yaml:1:1: k0: unknown key 'k0'", 0), 0u) << ok.what();
  // `- - - x`: entries on one line nest too.
  const ParseError d = sweep_error("runs:\n" + repeat("- ", 40) + "x\n");
  EXPECT_EQ(d.line(), 2);
  EXPECT_NE(std::string(d.what()).find(kDepthError), std::string::npos) << d.what();
  const ParseError s = system_error("name: t\nnics:\n" + repeat("- ", 40) + "x\n");
  EXPECT_EQ(s.line(), 3);
  EXPECT_NE(std::string(s.what()).find(kDepthError), std::string::npos) << s.what();
}

TEST(ConfigLimits, QuotesCommentsAndBlockScalarsDoNotCount) {
  const std::string brackets = repeat("[{", 50);
  EXPECT_NO_THROW(parse_sweep_text("name: \"" + brackets + "\"\n" + kSweep.substr(8), "s.yaml"));
  EXPECT_NO_THROW(parse_sweep_text("name: '" + brackets + "'\n" + kSweep.substr(8), "s.yaml"));
  EXPECT_NO_THROW(parse_sweep_text("# " + brackets + "\n" + kSweep, "s.yaml"));
  EXPECT_NO_THROW(parse_sweep_text("name: a" + brackets + "\n" + kSweep.substr(8), "s.yaml"));
  std::string block = "name: |\n";
  for (int i = 1; i <= 40; ++i) block += std::string(i + 1, ' ') + "line\n";
  const SweepFile s = parse_sweep_text(block + kSweep.substr(8), "s.yaml");
  EXPECT_EQ(s.runs.size(), 1u);
  EXPECT_NE(s.name.find("line"), std::string::npos);
  // A quoted scalar over several lines, its brackets unbalanced.
  EXPECT_NO_THROW(parse_sweep_text("name: \"a [[[[\n  {{{{ b\"\n" + kSweep.substr(8), "s.yaml"));
}

TEST(ConfigLimits, AliasIsANameOfTheFolderNotAPath) {
  for (const char* target : {"../systems/dgx-h100", "/etc/x", "sub/dgx-h100", "..", "''"}) {
    const ParseError e = system_error("name: t\nalias_of: " + std::string(target) + "\n");
    EXPECT_EQ(e.line(), 2) << e.what();
    EXPECT_NE(std::string(e.what()).find("alias_of: expected a system name"), std::string::npos)
        << e.what();
  }
}
