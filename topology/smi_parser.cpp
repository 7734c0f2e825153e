#include "topology/smi_parser.hpp"

#include <algorithm>
#include <map>

#include "errors/errors.hpp"
#include "topology/cpulist.hpp"
#include "topology/path_type.hpp"
#include "topology/printable.hpp"
#include "topology/text_input.hpp"

namespace gb::topo {
namespace {

struct Token {
  std::string_view text;
  int column = 0;  // 1-based position in the cleaned line
};

struct Row {
  int line = 0;
  std::vector<Token> tokens;  // tokens[0] is the row label
};

// Drops what only decorates the text (CR, ANSI escapes, a BOM, the no-break spaces that web
// pages put in pasted output) and turns tabs into spaces. The text is UTF-8 without other
// control characters (check_text_input), and stays UTF-8.
std::string clean_line(std::string_view raw) {
  std::string out;
  out.reserve(raw.size());
  for (std::size_t i = 0; i < raw.size(); ++i) {
    const char c = raw[i];
    if (c == '\x1b') {
      if (i + 1 < raw.size() && raw[i + 1] == '[') {
        i += 2;
        while (i < raw.size() && !(raw[i] >= '\x40' && raw[i] <= '\x7e')) ++i;
      } else if (i + 1 < raw.size() && raw[i + 1] >= '\x40' && raw[i + 1] <= '\x5f') {
        ++i;  // a two-byte escape (ESC M, ESC 7 ...); never half of a UTF-8 character
      }
      continue;
    }
    if (raw.substr(i, 3) == "\xEF\xBB\xBF") {
      i += 2;
      continue;
    }
    if (raw.substr(i, 2) == "\xC2\xA0") {
      out += ' ';
      ++i;
      continue;
    }
    if (c == '\r') continue;
    out += c == '\t' ? ' ' : c;
  }
  return out;
}

std::vector<Token> tokenize(const std::string& line) {
  std::vector<Token> tokens;
  std::size_t pos = 0;
  while (true) {
    pos = line.find_first_not_of(' ', pos);
    if (pos == std::string::npos) break;
    const std::size_t end = std::min(line.find(' ', pos), line.size());
    tokens.push_back({std::string_view(line).substr(pos, end - pos), static_cast<int>(pos) + 1});
    pos = end;
  }
  return tokens;
}

bool has_x_token(const std::vector<Token>& tokens) {
  return std::any_of(tokens.begin(), tokens.end(), [](const Token& t) { return t.text == "X"; });
}

// "GPU12" or "NIC3" starts at `pos`; returns its length or 0.
std::size_t numbered_name_at(std::string_view text, std::size_t pos) {
  const std::string_view rest = text.substr(pos);
  if (rest.size() < 4 || (rest.substr(0, 3) != "GPU" && rest.substr(0, 3) != "NIC") ||
      !is_ascii_digit(rest[3]))
    return 0;
  std::size_t end = 3;
  while (end < rest.size() && is_ascii_digit(rest[end])) ++end;
  return end;
}

bool is_gpu_name(std::string_view name) {
  return name.substr(0, 3) == "GPU" && numbered_name_at(name, 0) == name.size();
}

// Old drivers print the header without separators ("GPU0GPU1GPU2mlx5_0"): GPUn and NICn
// names end where their digits end, any other name ends where the next GPUn/NICn starts.
std::vector<std::string> split_device_names(std::string_view token) {
  std::vector<std::string> names;
  std::size_t pos = 0;
  while (pos < token.size()) {
    std::size_t end = pos + numbered_name_at(token, pos);
    if (end == pos) {
      end = pos + 1;
      while (end < token.size() && numbered_name_at(token, end) == 0) ++end;
    }
    names.emplace_back(token.substr(pos, end - pos));
    pos = end;
  }
  return names;
}

std::string join(const std::vector<std::string>& names, std::string_view separator) {
  std::string out;
  for (const auto& name : names) {
    if (!out.empty()) out += separator;
    out += name;
  }
  return out;
}

std::string quoted(std::string_view text) {
  return "'" + excerpt(text) + "'";
}

struct Header {
  int line = 0;
  std::vector<std::string> devices;   // GPU and NIC columns, in order
  std::vector<std::string> trailing;  // "CPU Affinity", "NUMA Affinity", "GPU NUMA ID", ...
};

class Parser {
 public:
  Parser(std::string_view text, std::string source) : source_(std::move(source)) {
    std::size_t pos = 0;
    while (pos <= text.size()) {
      const std::size_t end = std::min(text.find('\n', pos), text.size());
      lines_.push_back(clean_line(text.substr(pos, end - pos)));
      pos = end + 1;
    }
  }

  Topology run() {
    const Header header = read_header(find_header());
    const std::vector<Row> rows = read_rows(header.line);
    const std::vector<std::string> columns = resolve_columns(header, rows);
    return build(header, rows, columns);
  }

 private:
  [[noreturn]] void fail(int line, int column, const std::string& what) const {
    throw ParseError(source_, line, column, what);
  }

  int line_count() const { return static_cast<int>(lines_.size()); }

  // The header is the first line starting with GPU0 that has no X: every row has an X on the
  // diagonal, so the GPU0 row is never taken for the header.
  int find_header() const {
    for (int i = 0; i < line_count(); ++i) {
      const auto tokens = tokenize(lines_[i]);
      if (tokens.empty() || tokens[0].text.substr(0, 4) != "GPU0") continue;
      if (!has_x_token(tokens)) return i;
      fail(i + 1, tokens[0].column,
           "expected the header line of `nvidia-smi topo -m` (GPU0 GPU1 ... CPU Affinity) "
           "before the row of GPU0");
    }
    for (int i = 0; i < line_count(); ++i) {
      const auto tokens = tokenize(lines_[i]);
      if (tokens.empty()) continue;
      fail(i + 1, tokens[0].column,
           "expected the output of `nvidia-smi topo -m` (a header line starting with GPU0, "
           "then one row per GPU and NIC), got " +
               quoted(lines_[i].substr(tokens[0].column - 1)));
    }
    fail(1, 0, "empty input: expected the output of `nvidia-smi topo -m`");
  }

  Header read_header(int index) const {
    Header header;
    header.line = index + 1;
    const auto tokens = tokenize(lines_[index]);
    const auto word = [&](std::size_t i) {
      return i < tokens.size() ? tokens[i].text : std::string_view();
    };
    for (std::size_t i = 0; i < tokens.size(); ++i) {
      const std::string_view text = tokens[i].text;
      if (word(i + 1) == "Affinity" && (text.ends_with("CPU") || text.ends_with("NUMA"))) {
        const std::string_view name = text.ends_with("CPU") ? "CPU" : "NUMA";
        // The CPU column's name can run into the last device name ("mlx5_3CPU Affinity").
        if (text.size() > name.size() && header.trailing.empty())
          add_devices(header, text.substr(0, text.size() - name.size()));
        header.trailing.push_back(std::string(name) + " Affinity");
        ++i;
      } else if (text == "GPU" && word(i + 1) == "NUMA" && word(i + 2) == "ID") {
        header.trailing.emplace_back("GPU NUMA ID");
        i += 2;
      } else if (header.trailing.empty()) {
        add_devices(header, text);
      } else {
        header.trailing.emplace_back(text);
      }
    }
    return header;
  }

  static void add_devices(Header& header, std::string_view token) {
    for (auto& name : split_device_names(token)) header.devices.push_back(std::move(name));
  }

  // Rows follow the header up to a blank line, the Legend, or any line without an X.
  std::vector<Row> read_rows(int header_line) const {
    std::vector<Row> rows;
    for (int i = header_line; i < line_count(); ++i) {
      auto tokens = tokenize(lines_[i]);
      if (tokens.empty()) {
        if (rows.empty()) continue;
        break;
      }
      if (!has_x_token(tokens)) break;
      rows.push_back({i + 1, std::move(tokens)});
    }
    if (rows.empty())
      fail(header_line + 1, 0,
           "expected the row of GPU0 (GPU0 followed by one cell per column) after the header");
    return rows;
  }

  std::vector<std::string> resolve_columns(const Header& header,
                                           const std::vector<Row>& rows) const {
    std::vector<std::string> labels;
    for (const auto& row : rows) labels.emplace_back(row.tokens[0].text);
    const auto first_duplicate = [](std::vector<std::string> names) {
      std::sort(names.begin(), names.end());
      const auto it = std::adjacent_find(names.begin(), names.end());
      return it == names.end() ? std::string() : *it;
    };
    if (const auto dup = first_duplicate(header.devices); !dup.empty())
      fail(header.line, 0, "column " + quoted(dup) + " appears twice in the header");
    if (const auto dup = first_duplicate(labels); !dup.empty()) {
      const auto it = std::find(labels.rbegin(), labels.rend(), dup);
      fail(rows[labels.rend() - it - 1].line, 1, "a second row for " + quoted(dup));
    }
    const auto in_header = [&](const std::string& label) {
      return std::find(header.devices.begin(), header.devices.end(), label) != header.devices.end();
    };
    if (std::all_of(labels.begin(), labels.end(), in_header)) return header.devices;
    // Names that ran together in the header are recovered from the row labels.
    if (join(header.devices, "") == join(labels, "")) return labels;
    for (std::size_t r = 0; r < rows.size(); ++r)
      if (!in_header(labels[r]))
        fail(rows[r].line, rows[r].tokens[0].column,
             "row " + quoted(labels[r]) + " is not one of the header's columns (" +
                 excerpt(join(header.devices, " "), 200) + ")");
    return header.devices;
  }

  int check_gpu_columns(const Header& header, const std::vector<std::string>& columns) const {
    int gpus = 0;
    while (gpus < static_cast<int>(columns.size()) && is_gpu_name(columns[gpus])) {
      if (columns[gpus] != "GPU" + std::to_string(gpus))
        fail(header.line, 0,
             "expected column GPU" + std::to_string(gpus) + ", got " + quoted(columns[gpus]));
      ++gpus;
    }
    for (std::size_t c = gpus; c < columns.size(); ++c)
      if (is_gpu_name(columns[c]))
        fail(header.line, 0, "GPU column " + quoted(columns[c]) + " after the NIC columns");
    if (gpus == 0) fail(header.line, 0, "expected GPU0 as the first column of the header");
    if (gpus > kMaxGpus)
      fail(header.line, 0,
           "more than " + std::to_string(kMaxGpus) + " GPU columns; one node has fewer");
    return gpus;
  }

  struct ParsedRow {
    std::vector<Cell> cells;
    std::vector<std::string> printed;
    std::vector<Token> cell_tokens;
    std::vector<Token> trailing;
  };

  ParsedRow parse_row(const Row& row, const std::vector<std::string>& columns,
                      std::size_t self) const {
    ParsedRow parsed;
    std::vector<Token> work(row.tokens.begin() + 1, row.tokens.end());
    const std::string label(row.tokens[0].text);
    std::size_t cursor = 0;
    for (std::size_t c = 0; c < columns.size(); ++c, ++cursor) {
      if (cursor >= work.size())
        fail(row.line, static_cast<int>(lines_[row.line - 1].size()) + 1,
             "row " + quoted(label) + " ends after " + std::to_string(c) + " cells; expected " +
                 std::to_string(columns.size()) + " (one per column " +
                 excerpt(join(columns, " "), 200) + ")");
      Token token = work[cursor];
      auto cell = parse_cell(token.text);
      if (!cell) {
        if (const std::size_t length = glued_cell_length(token.text); length > 0) {
          const Token rest{token.text.substr(length), token.column + static_cast<int>(length)};
          token.text = token.text.substr(0, length);
          work[cursor] = token;
          work.insert(work.begin() + static_cast<std::ptrdiff_t>(cursor) + 1, rest);
          cell = parse_cell(token.text);
        }
      }
      const std::string where = excerpt(label) + "/" + excerpt(columns[c]);
      if (!cell)
        fail(row.line, token.column,
             "expected a connection code (X, NV#, PIX, PXB, PHB, NODE, SYS, SOC or N/A) for " +
                 where + ", got " + quoted(token.text));
      if ((cell->path == PathType::X) != (c == self))
        fail(row.line, token.column,
             c == self ? "expected X on the diagonal (" + where + "), got " + quoted(token.text)
                       : "X off the diagonal (" + where +
                             "): the row has a missing or extra "
                             "cell before this one");
      parsed.cells.push_back(*cell);
      parsed.printed.emplace_back(token.text);
      parsed.cell_tokens.push_back(token);
    }
    parsed.trailing.assign(work.begin() + static_cast<std::ptrdiff_t>(cursor), work.end());
    return parsed;
  }

  void read_affinities(Gpu& gpu, const Header& header, const Row& row,
                       const std::vector<Token>& values) const {
    for (std::size_t v = 0; v < values.size(); ++v) {
      const Token& value = values[v];
      if (v >= header.trailing.size())
        fail(row.line, value.column,
             "unexpected " + quoted(value.text) + " after the last column" +
                 (header.trailing.empty() ? "" : " (" + header.trailing.back() + ")"));
      const std::string& name = header.trailing[v];
      const std::string text(value.text);
      if (name == "CPU Affinity" || name == "NUMA Affinity") {
        const auto ids = parse_cpulist(text);
        if (!ids)
          fail(row.line, value.column,
               "expected a list such as 0-15,32-47 or N/A for the " + name + " of GPU" +
                   std::to_string(gpu.index) + ", got " + quoted(text));
        if (name == "CPU Affinity") {
          gpu.cpu_affinity = text;
          gpu.cpus = *ids;
        } else {
          gpu.numa_affinity = text;
          gpu.numa_nodes = *ids;
        }
      } else if (name == "GPU NUMA ID") {
        gpu.gpu_numa_id = text;
      }
    }
  }

  std::map<std::string, std::string> read_nic_legend(int after_line) const {
    std::map<std::string, std::string> legend;
    bool in_legend = false;
    for (int i = after_line; i < line_count(); ++i) {
      const auto tokens = tokenize(lines_[i]);
      if (tokens.size() == 2 && tokens[0].text == "NIC" && tokens[1].text == "Legend:") {
        in_legend = true;
      } else if (in_legend && tokens.size() == 2 && tokens[0].text.ends_with(':') &&
                 numbered_name_at(tokens[0].text, 0) == tokens[0].text.size() - 1) {
        legend[std::string(tokens[0].text.substr(0, tokens[0].text.size() - 1))] = tokens[1].text;
      }
    }
    return legend;
  }

  Topology build(const Header& header, const std::vector<Row>& rows,
                 const std::vector<std::string>& columns) const {
    const int gpu_count = check_gpu_columns(header, columns);
    std::map<std::string, ParsedRow> parsed;
    for (const auto& row : rows) {
      const auto self = std::find(columns.begin(), columns.end(), row.tokens[0].text);
      parsed.emplace(std::string(row.tokens[0].text),
                     parse_row(row, columns, static_cast<std::size_t>(self - columns.begin())));
    }
    Topology topo;
    topo.source = source_;
    topo.links.assign(gpu_count, std::vector<Link>(gpu_count));
    for (int g = 0; g < gpu_count; ++g) {
      const auto it = parsed.find(columns[g]);
      if (it == parsed.end())
        fail(rows.back().line + 1, 0,
             "expected the row of " + columns[g] + " (the header has " + std::to_string(gpu_count) +
                 " GPU columns)");
      Gpu gpu;
      gpu.index = g;
      const auto row = std::find_if(rows.begin(), rows.end(),
                                    [&](const Row& r) { return r.tokens[0].text == columns[g]; });
      read_affinities(gpu, header, *row, it->second.trailing);
      topo.gpus.push_back(std::move(gpu));
      for (int peer = 0; peer < gpu_count; ++peer) {
        Link& link = topo.links[g][peer];
        link.nvlink = it->second.cells[peer].nvlink;
        link.path = it->second.cells[peer].path;
        link.printed = it->second.printed[peer];
      }
    }
    check_symmetric_nvlinks(topo, rows, columns);
    const auto legend = read_nic_legend(rows.back().line);
    for (std::size_t c = gpu_count; c < columns.size(); ++c) {
      Nic nic;
      nic.label = columns[c];
      const auto name = legend.find(nic.label);
      nic.name = name == legend.end() ? nic.label : name->second;
      for (int g = 0; g < gpu_count; ++g) {
        const ParsedRow& row = parsed.at(columns[g]);
        Link link;
        link.path = row.cells[c].path;
        link.nvlink = row.cells[c].nvlink;
        link.printed = row.printed[c];
        nic.gpu_path.push_back(std::move(link));
      }
      topo.nics.push_back(std::move(nic));
    }
    return topo;
  }

  // nvidia-smi prints a symmetric matrix; asymmetric NVLink counts mean a corrupted paste.
  void check_symmetric_nvlinks(const Topology& topo, const std::vector<Row>& rows,
                               const std::vector<std::string>& columns) const {
    for (int a = 0; a < topo.gpu_count(); ++a) {
      for (int b = 0; b < a; ++b) {
        if (topo.nvlink(a, b) == topo.nvlink(b, a)) continue;
        const auto row = std::find_if(rows.begin(), rows.end(),
                                      [&](const Row& r) { return r.tokens[0].text == columns[a]; });
        fail(row->line, 0,
             columns[a] + "/" + columns[b] + " is " + topo.links[a][b].printed + " but " +
                 columns[b] + "/" + columns[a] + " is " + topo.links[b][a].printed +
                 "; expected the same NVLink count both ways");
      }
    }
  }

  std::string source_;
  std::vector<std::string> lines_;
};

}  // namespace

Topology parse_nvidia_smi_topo(std::string_view text, const std::string& source_name) {
  check_text_input(text, source_name, kMaxSmiBytes, "the text of `nvidia-smi topo -m`");
  return Parser(text, source_name).run();
}

}  // namespace gb::topo
