// What `gpubarrier topo --smi-file` accepts as input: at most kMaxSmiBytes of text, read with a
// bound from a file or standard input; binary input and directories refused with messages that
// hold no raw byte of the input.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "errors/errors.hpp"
#include "helpers.hpp"
#include "topology/json.hpp"
#include "topology/printable.hpp"
#include "topology/text_input.hpp"

namespace gb::topo::test {
namespace {

namespace fs = std::filesystem;

// The ParseError message for `text`, or "" when it is accepted.
std::string check_error(const std::string& text, std::size_t max_bytes = 64) {
  try {
    check_text_input(text, "in.txt", max_bytes, "text");
  } catch (const ParseError& e) {
    return e.what();
  }
  return "";
}

bool printable_ascii(const std::string& text) {
  for (const char c : text)
    if (c < 0x20 || c > 0x7e) return false;
  return true;
}

std::string sample() {
  return read_file(fs::path(GB_TOPO_TEST_DATA) / "crlf_ansi_tabs.txt");
}

TEST(SmiInput, SizeLimit) {
  EXPECT_EQ(check_error(std::string(64, 'a')), "");
  EXPECT_EQ(check_error(std::string(65, 'a')),
            "in.txt:1: more than 64 bytes, the most accepted for text");
  // The line where the limit is crossed.
  EXPECT_EQ(check_error(std::string(70, '\n')).rfind("in.txt:65: more than 64 bytes", 0), 0u);
  EXPECT_NE(check_error(std::string(kMaxSmiBytes + 1, 'a'), kMaxSmiBytes)
                .find("more than 1 MiB (1048576 bytes)"),
            std::string::npos);
}

TEST(SmiInput, TextPasses) {
  // Tabs, CRLF, ANSI underlines, a BOM, no-break spaces, accents, a 4-byte character.
  EXPECT_EQ(check_error("a\tb\r\n\x1b[4mGPU0\x1b[0m\n"), "");
  EXPECT_EQ(check_error("\xEF\xBB\xBF\xC2\xA0 caf\xC3\xA9 \xF0\x9F\x98\x80\n"), "");
  EXPECT_EQ(check_error(sample(), kMaxSmiBytes), "");
}

TEST(SmiInput, BinaryNamesLineAndColumnWithoutRawBytes) {
  const std::pair<std::string, std::string> cases[] = {
      {std::string("ok\nab\0c", 6), "in.txt:2:3: a NUL byte (binary data?); expected text"},
      {"ok\n\xff", "in.txt:2:1: byte 0xff that is not UTF-8"},
      {"\x80", "in.txt:1:1: byte 0x80 that is not UTF-8"},          // stray continuation
      {"a\xC0\xAF", "in.txt:1:2: byte 0xc0 that is not UTF-8"},     // overlong '/'
      {"\xED\xA0\x80", "in.txt:1:1: byte 0xed that is not UTF-8"},  // a surrogate
      {"\xF4\x90\x80\x80", "in.txt:1:1: byte 0xf4"},                // past U+10FFFF
      {"ab\xC3", "in.txt:1:3: byte 0xc3 that is not UTF-8"},        // cut at the end
      {"\x07", "in.txt:1:1: control character U+0007"},
      {"x\x7f", "in.txt:1:2: control character U+007f"},
      {"x\xC2\x9B", "in.txt:1:2: control character U+009b"},  // the C1 CSI
      {"\v\f", "in.txt:1:1: control character U+000b"},
  };
  for (const auto& [text, expected] : cases) {
    const std::string error = check_error(text);
    EXPECT_EQ(error.rfind(expected, 0), 0u) << printable(text) << ": " << error;
    EXPECT_TRUE(printable_ascii(error)) << printable(error);
  }
}

TEST(SmiInput, ParserRefusesBinaryAndOversizedInput) {
  std::string binary = sample();
  binary.insert(binary.find("\nGPU1\t") + 1, std::string("\0\x01", 2));  // the row of GPU1
  try {
    parse_nvidia_smi_topo(binary, "dump.bin");
    FAIL() << "binary input parsed";
  } catch (const ParseError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("dump.bin:3:1: a NUL byte", 0), 0u) << e.what();
  }
  EXPECT_THROW(parse_nvidia_smi_topo(sample() + std::string(kMaxSmiBytes, '\n'), "big.txt"),
               ParseError);
}

TEST(SmiInput, ParserMessagesEscapeWhatTheyQuote) {
  for (const std::string text :
       {"h\xC3\xA9llo \x1b[31mw\xC3\xB6rld\n", "  GPU0 GPU1\nGPU0 X N\xC3\xA9\n",
        "  GPU0\nGPU0 X caf\xC3\xA9\n"}) {
    try {
      parse_nvidia_smi_topo(text, "in.txt");
      FAIL() << "parsed " << printable(text);
    } catch (const ParseError& e) {
      EXPECT_TRUE(printable_ascii(e.what())) << printable(e.what());
      EXPECT_NE(std::string(e.what()).find("\\xc3\\x"), std::string::npos) << e.what();
    }
  }
}

TEST(SmiInput, EscapeBeforeAnAccentKeepsUtf8) {
  // ESC followed by a multibyte character: dropping ESC must not take half the character along.
  std::string text = sample();
  text.replace(text.find("mlx5_bond_0"), 11, "mlx5_\x1b\xC3\xA9");
  const Topology topo = parse_nvidia_smi_topo(text, "in.txt");
  ASSERT_EQ(topo.nics.size(), 1u);
  EXPECT_EQ(topo.nics[0].name, "mlx5_\xC3\xA9");
  EXPECT_NO_THROW((void)to_json(topo).dump(2));  // strict: throws on bytes that are not UTF-8
}

TEST(SmiInput, ReadsAtMostOneByteOverTheLimit) {
  EXPECT_EQ(read_text_input("/dev/zero", 1000).size(), 1001u);
  const fs::path path = fs::temp_directory_path() / "gb-test-text-input.txt";
  std::ofstream(path) << "GPU0\n";
  EXPECT_EQ(read_text_input(path.string(), 1000), "GPU0\n");
  fs::remove(path);
}

TEST(SmiInput, DirectoryAndMissingFile) {
  const std::string dir = fs::temp_directory_path().string();
  try {
    read_text_input(dir, 1000);
    FAIL() << "read a directory";
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()),
              dir + " is a directory; expected a file (or - for standard input)");
  }
  try {
    read_text_input("/nonexistent/smi.txt", 1000);
    FAIL() << "read a missing file";
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()), "cannot read /nonexistent/smi.txt: No such file or directory");
  }
  EXPECT_EQ(input_name("-"), "<stdin>");
  EXPECT_EQ(input_name("a\nb.txt"), "a\\x0ab.txt");
}

}  // namespace
}  // namespace gb::topo::test
