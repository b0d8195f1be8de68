// sol/gpu_table.cpp — reads and validates data/gpus.toml, finds it at run time, looks GPUs up by key or by
// CUDA device name. Every message names the file, the GPU and the field.
#include "sol/gpu_table.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>
#include <toml++/toml.h>

#include "support/error.h"
#include "support/suggest.h"

namespace ucut::sol {
namespace {

namespace fs = std::filesystem;

struct NumberField {
  const char* name;
  bool required;
  double lo, hi;  // sane range, inclusive
};

// The numeric fields of one GPU and their sane ranges (units in data/gpus.toml's header).
constexpr NumberField kNumbers[] = {
    {"sm", true, 30, 200},           {"sms", true, 1, 1000},           {"l2_mb", true, 0.1, 2048},
    {"boost_clock_mhz", true, 100, 5000}, {"memory_gb", true, 1, 4096}, {"bandwidth_tbs", true, 0.1, 20},
    {"fp64", true, 1e-3, 1e5},       {"fp64_tensor", false, 1e-3, 1e5}, {"fp32", true, 1e-3, 1e5},
    {"tf32", true, 1e-3, 1e5},       {"fp16", true, 1e-3, 1e5},        {"bf16", true, 1e-3, 1e5},
    {"fp8", false, 1e-3, 1e5},       {"int8", true, 1e-3, 1e5},
};
constexpr const char* kOtherFields[] = {"name", "aliases", "sources", "notes"};

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

/// True when `needle` occurs in `hay` with no letter or digit right before or after it.
bool contains_word(const std::string& hay, const std::string& needle) {
  if (needle.empty()) return false;
  for (size_t at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + 1)) {
    bool left = at == 0 || !is_word_char(hay[at - 1]);
    size_t end = at + needle.size();
    bool right = end == hay.size() || !is_word_char(hay[end]);
    if (left && right) return true;
  }
  return false;
}

std::optional<std::vector<std::string>> string_list(const toml::node* node) {
  const toml::array* arr = node ? node->as_array() : nullptr;
  if (!arr) return std::nullopt;
  std::vector<std::string> out;
  for (const toml::node& item : *arr) {
    auto s = item.value<std::string>();
    if (!s || !item.is_string()) return std::nullopt;
    out.push_back(*s);
  }
  return out;
}

/// Reads one GPU table; false with `error` set on the first bad field.
bool parse_gpu(const std::string& key, const toml::table& t, const std::string& path, GpuSpec& g, std::string* error) {
  auto fail = [&](const std::string& field, const std::string& what) {
    if (error) *error = fmt::format("{}: GPU `{}`: field `{}` {}", path, key, field, what);
    return false;
  };
  std::vector<std::string_view> known;
  for (const NumberField& f : kNumbers) known.push_back(f.name);
  for (const char* f : kOtherFields) known.push_back(f);
  for (const auto& [k, v] : t) {
    std::string_view name = k.str();
    if (std::find(known.begin(), known.end(), name) != known.end()) continue;
    auto best = closest_name(name, known);
    return fail(std::string(name), best ? fmt::format("is not a known field; did you mean `{}`?", *best)
                                        : std::string("is not a known field"));
  }
  g.key = key;
  auto name = t["name"].value<std::string>();
  if (!t["name"].is_string() || !name || name->empty()) return fail("name", "is missing or not a non-empty string");
  g.name = *name;
  auto aliases = string_list(t.get("aliases"));
  if (!aliases) return fail("aliases", "is missing or not a list of strings (CUDA device names, e.g. \"NVIDIA H200\")");
  g.aliases = *aliases;
  auto sources = string_list(t.get("sources"));
  if (!sources) return fail("sources", "is missing or not a list of strings naming the datasheets");
  if (sources->empty()) return fail("sources", "is empty; name the datasheet or whitepaper each figure comes from");
  g.sources = *sources;
  if (const toml::node* n = t.get("notes")) {
    if (!n->is_string()) return fail("notes", "must be a string");
    g.notes = *n->value<std::string>();
  }
  for (const NumberField& f : kNumbers) {
    const toml::node* n = t.get(f.name);
    if (!n) {
      if (f.required) return fail(f.name, "is missing");
      continue;
    }
    if (!n->is_number()) return fail(f.name, "must be a number");
    double v = *n->value<double>();
    if (!(v > 0)) return fail(f.name, fmt::format("must be positive, not {}", v));
    if (v < f.lo || v > f.hi)
      return fail(f.name, fmt::format("is {}, outside the sane range {}..{} (check the units in the file header)", v,
                                      f.lo, f.hi));
    std::string_view fname = f.name;
    if (fname == "sm") g.sm = int(v);
    else if (fname == "sms") g.sms = int(v);
    else if (fname == "l2_mb") g.l2_mb = v;
    else if (fname == "boost_clock_mhz") g.boost_clock_mhz = v;
    else if (fname == "memory_gb") g.memory_gb = v;
    else if (fname == "bandwidth_tbs") g.bandwidth_tbs = v;
    else if (auto p = find_precision(fname)) {
      switch (*p) {
        case Precision::fp64: g.fp64 = v; break;
        case Precision::fp64_tensor: g.fp64_tensor = v; break;
        case Precision::fp32: g.fp32 = v; break;
        case Precision::tf32: g.tf32 = v; break;
        case Precision::fp16: g.fp16 = v; break;
        case Precision::bf16: g.bf16 = v; break;
        case Precision::fp8: g.fp8 = v; break;
        case Precision::int8: g.int8 = v; break;
      }
    }
  }
  return true;
}

fs::path executable_dir() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : exe.parent_path();
}

}  // namespace

std::string_view precision_name(Precision p) {
  switch (p) {
    case Precision::fp64: return "fp64";
    case Precision::fp64_tensor: return "fp64_tensor";
    case Precision::fp32: return "fp32";
    case Precision::tf32: return "tf32";
    case Precision::fp16: return "fp16";
    case Precision::bf16: return "bf16";
    case Precision::fp8: return "fp8";
    case Precision::int8: return "int8";
  }
  UC_UNREACHABLE() << "Precision " << static_cast<int>(p);
}

std::optional<Precision> find_precision(std::string_view name) {
  std::string n = lower(name);
  for (Precision p : all_precisions())
    if (n == precision_name(p)) return p;
  if (n == "f64") return Precision::fp64;
  if (n == "f32") return Precision::fp32;
  if (n == "f16") return Precision::fp16;
  if (n == "e4m3" || n == "e5m2") return Precision::fp8;
  if (n == "i8") return Precision::int8;
  return std::nullopt;
}

const std::vector<Precision>& all_precisions() {
  static const std::vector<Precision> all = {Precision::fp64, Precision::fp64_tensor, Precision::fp32,
                                             Precision::tf32, Precision::fp16,        Precision::bf16,
                                             Precision::fp8,  Precision::int8};
  return all;
}

std::optional<double> GpuSpec::peak_tflops(Precision p) const {
  switch (p) {
    case Precision::fp64: return fp64;
    case Precision::fp64_tensor: return fp64_tensor;
    case Precision::fp32: return fp32;
    case Precision::tf32: return tf32;
    case Precision::fp16: return fp16;
    case Precision::bf16: return bf16;
    case Precision::fp8: return fp8;
    case Precision::int8: return int8;
  }
  UC_UNREACHABLE() << "Precision " << static_cast<int>(p);
}

const GpuSpec* GpuTable::find_key(std::string_view key) const {
  std::string k = lower(key);
  for (const GpuSpec& g : gpus)
    if (lower(g.key) == k) return &g;
  return nullptr;
}

const GpuSpec* GpuTable::find_device(std::string_view device_name) const {
  std::string dev = lower(device_name);
  for (const GpuSpec& g : gpus) {
    if (lower(g.name) == dev) return &g;
    for (const std::string& a : g.aliases)
      if (lower(a) == dev) return &g;
  }
  const GpuSpec* best = nullptr;
  size_t best_len = 0;
  for (const GpuSpec& g : gpus)
    for (const std::string& a : g.aliases)
      if (a.size() > best_len && contains_word(dev, lower(a))) {
        best = &g;
        best_len = a.size();
      }
  return best;
}

const GpuSpec* GpuTable::find(std::string_view key_or_name) const {
  if (const GpuSpec* g = find_key(key_or_name)) return g;
  return find_device(key_or_name);
}

std::vector<std::string_view> GpuTable::keys() const {
  std::vector<std::string_view> out;
  for (const GpuSpec& g : gpus) out.push_back(g.key);
  return out;
}

std::optional<GpuTable> parse_gpu_table(const std::string& text, const std::string& path, std::string* error) {
  toml::table root;
  try {
    root = toml::parse(text, path);
  } catch (const toml::parse_error& e) {
    if (error)
      *error = fmt::format("{}:{}:{}: {}", path, e.source().begin.line, e.source().begin.column, e.description());
    return std::nullopt;
  }
  GpuTable table;
  table.path = path;
  for (const auto& [k, v] : root) {
    std::string key(k.str());
    const toml::table* t = v.as_table();
    if (!t) {
      if (error) *error = fmt::format("{}: `{}` must be a table `[{}]` describing one GPU", path, key, key);
      return std::nullopt;
    }
    GpuSpec g;
    if (!parse_gpu(key, *t, path, g, error)) return std::nullopt;
    table.gpus.push_back(std::move(g));
  }
  if (table.gpus.empty()) {
    if (error) *error = fmt::format("{}: no GPU tables found", path);
    return std::nullopt;
  }
  // toml++ iterates tables in key order; keep the file's order for listings.
  std::stable_sort(table.gpus.begin(), table.gpus.end(), [&](const GpuSpec& a, const GpuSpec& b) {
    const toml::node* na = root.get(a.key);
    const toml::node* nb = root.get(b.key);
    auto la = na->source().begin, lb = nb->source().begin;
    return la.line != lb.line ? la.line < lb.line : la.column < lb.column;
  });
  return table;
}

std::optional<GpuTable> load_gpu_table(const std::string& path, std::string* error) {
  std::ifstream in(path);
  if (!in) {
    if (error) *error = fmt::format("cannot read GPU table '{}'", path);
    return std::nullopt;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_gpu_table(ss.str(), path, error);
}

std::vector<std::string> data_dir_candidates() {
  std::vector<std::string> dirs;
  if (const char* env = std::getenv("UCUT_DATA_DIR"); env && *env) dirs.push_back(env);
  fs::path exe = executable_dir();
  if (!exe.empty()) {
    dirs.push_back((exe / ".." / "share" / "ucutlass" / "data").lexically_normal().string());
    dirs.push_back((exe / ".." / "data").lexically_normal().string());
  }
#ifdef UCUT_SOURCE_DATA_DIR
  dirs.push_back(UCUT_SOURCE_DATA_DIR);
#endif
  return dirs;
}

std::optional<GpuTable> load_default_gpu_table(std::string* error) {
  std::vector<std::string> dirs = data_dir_candidates();
  for (const std::string& d : dirs) {
    fs::path p = fs::path(d) / "gpus.toml";
    std::error_code ec;
    if (fs::is_regular_file(p, ec)) return load_gpu_table(p.string(), error);
  }
  if (error) {
    std::string looked;
    for (const std::string& d : dirs) looked += fmt::format("\n  {}/gpus.toml", d);
    *error = fmt::format("cannot find gpus.toml; looked in:{}\nset UCUT_DATA_DIR to the folder holding it", looked);
  }
  return std::nullopt;
}

}  // namespace ucut::sol
