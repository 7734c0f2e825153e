#include "io/json_writer.hpp"

#include <cstdlib>

namespace gb {

nlohmann::json row_to_json(const Row& row) {
  // Numeric columns become numbers so that readers need no schema to compare figures.
  nlohmann::json obj = nlohmann::json::object();
  const auto& cols = Row::columns();
  for (std::size_t i = 0; i < cols.size(); ++i) {
    const std::string& f = row.fields[i];
    const bool is_num = Row::numeric()[i];
    if (is_num && f.empty())
      obj[cols[i]] = nullptr;
    else if (is_num)
      obj[cols[i]] = std::strtod(f.c_str(), nullptr);
    else
      obj[cols[i]] = f;
  }
  return obj;
}

void JsonWriter::finish() {
  const std::string text = rows_.dump(2) + "\n";
  std::fwrite(text.data(), 1, text.size(), out_);
  std::fflush(out_);
}

}  // namespace gb
