// engine/profile/ncu_csv.cpp — the raw-page CSV reader (format in ncu_csv.h).
#include "engine/profile/ncu_csv.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

namespace ucut::profile {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::optional<long> parse_id(std::string_view s) {
  s = trim(s);
  long v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

// Metric columns are named unit__counter…; the others describe the launch (ID, Kernel Name, Grid Size, …).
bool is_metric_column(const std::string& name) { return name.find("__") != std::string::npos; }

struct Table {
  std::vector<std::string> columns;
  int id_col = -1, kernel_col = -1;
  bool has_units = false;
};

std::optional<Table> as_header(const std::vector<std::string>& fields) {
  if (fields.empty() || fields[0] != "ID") return std::nullopt;
  Table t;
  t.columns = fields;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (fields[i] == "ID") t.id_col = static_cast<int>(i);
    if (fields[i] == "Kernel Name") t.kernel_col = static_cast<int>(i);
  }
  return t;
}

}  // namespace

std::optional<std::vector<std::string>> split_csv_line(std::string_view line) {
  std::vector<std::string> fields;
  std::string field;
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quoted) {
      if (c != '"') {
        field += c;
      } else if (i + 1 < line.size() && line[i + 1] == '"') {
        field += '"';
        ++i;
      } else {
        quoted = false;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.push_back(std::move(field));
      field.clear();
    } else if (c != '\r') {
      field += c;
    }
  }
  if (quoted) return std::nullopt;
  fields.push_back(std::move(field));
  return fields;
}

std::optional<double> parse_metric_value(std::string_view text) {
  text = trim(text);
  std::string digits;
  for (char c : text)
    if (c != ',') digits += c;  // thousands separators
  if (digits.empty()) return std::nullopt;
  char* end = nullptr;
  double v = std::strtod(digits.c_str(), &end);
  if (end != digits.c_str() + digits.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

NcuCsv parse_ncu_csv(std::string_view text) {
  NcuCsv out;
  std::optional<Table> table;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos) eol = text.size();
    std::string_view line = trim(text.substr(pos, eol - pos));
    pos = eol + 1;
    if (line.empty() || line.front() != '"') continue;  // ==PROF==, ==WARNING==, program output
    auto fields = split_csv_line(line);
    if (!fields) continue;
    if (auto header = as_header(*fields)) {
      table = std::move(header);
      continue;
    }
    if (!table) continue;
    if (fields->size() != table->columns.size()) {
      ++out.skipped_rows;
      continue;
    }
    auto id = parse_id((*fields)[table->id_col]);
    if (!id) {
      // The units row: its launch columns are empty.
      if (!table->has_units) {
        table->has_units = true;
        for (size_t i = 0; i < fields->size(); ++i)
          if (is_metric_column(table->columns[i]) && !(*fields)[i].empty())
            out.units[table->columns[i]] = (*fields)[i];
      } else {
        ++out.skipped_rows;
      }
      continue;
    }
    KernelProfile k;
    k.id = *id;
    if (table->kernel_col >= 0) k.kernel = (*fields)[table->kernel_col];
    for (size_t i = 0; i < fields->size(); ++i) {
      if (!is_metric_column(table->columns[i])) continue;
      if (auto v = parse_metric_value((*fields)[i])) k.metrics[table->columns[i]] = *v;
    }
    out.kernels.push_back(std::move(k));
  }
  return out;
}

}  // namespace ucut::profile
