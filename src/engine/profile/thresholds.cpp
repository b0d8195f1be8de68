// engine/profile/thresholds.cpp — learning thresholds by Otsu, and their JSON form (schema in thresholds.h).
#include "engine/profile/thresholds.h"

#include <fmt/format.h>

#include <fstream>
#include <functional>
#include <stdexcept>

#include "engine/profile/metrics.h"
#include "engine/profile/otsu.h"
#include "support/files.h"

namespace ucut::profile {
namespace {

using nlohmann::json;

// One threshold learned over the corpus, and the words for `source`.
std::pair<double, std::string> learn_one(
    const std::vector<KernelProfile>& corpus, std::string_view label,
    const std::function<std::optional<double>(const KernelProfile&)>& read) {
  std::vector<double> values;
  for (const KernelProfile& p : corpus)
    if (auto v = read(p)) values.push_back(*v);
  const int distinct = distinct_count(values);
  if (distinct >= kMinDistinctForOtsu)
    if (auto t = otsu_threshold(values))
      return {*t, fmt::format("{} {:.4g}% (otsu over {} values)", label, *t, values.size())};
  return {kPriorThresholdPct,
          fmt::format("{} {:.4g}% (prior: only {} distinct value{} among {})", label, kPriorThresholdPct,
                      distinct, distinct == 1 ? "" : "s", values.size())};
}

double percentage(const json& j, const char* field) {
  if (!j.contains(field)) throw std::invalid_argument(fmt::format("field `{}` is missing", field));
  const json& v = j[field];
  if (!v.is_number() || v.get<double>() < 0 || v.get<double>() > 100)
    throw std::invalid_argument(fmt::format("field `{}` must be a number in [0, 100]", field));
  return v.get<double>();
}

std::string string_field(const json& j, const char* field, const std::string& where) {
  if (!j.contains(field) || !j[field].is_string())
    throw std::invalid_argument(fmt::format("field `{}{}` is missing or not a string", where, field));
  return j[field].get<std::string>();
}

// The table's metrics (metrics.h) that `p` has: what a corpus keeps of each profile.
std::map<std::string, double> table_metrics(const KernelProfile& p) {
  std::map<std::string, double> out;
  for (const MetricInfo& m : metric_table())
    if (auto v = p.get(m.name)) out[std::string(m.name)] = *v;
  return out;
}

std::map<std::string, double> metrics_field(const json& k, const std::string& where) {
  std::map<std::string, double> out;
  if (!k.contains("metrics")) return out;
  const json& m = k["metrics"];
  if (!m.is_object()) throw std::invalid_argument(fmt::format("field `{}metrics` is not an object", where));
  for (const auto& [name, value] : m.items()) {
    if (!value.is_number())
      throw std::invalid_argument(fmt::format("field `{}metrics.{}` is not a number", where, name));
    out[name] = value.get<double>();
  }
  return out;
}

Thresholds parse(const json& j) {
  if (!j.is_object()) throw std::invalid_argument("thresholds are a JSON object");
  if (!j.contains("schema") || j["schema"] != std::string(kThresholdsSchema))
    throw std::invalid_argument(fmt::format("field `schema` must be \"{}\"", kThresholdsSchema));
  Thresholds t;
  t.sm_pct = percentage(j, "sm_pct");
  t.dram_pct = percentage(j, "dram_pct");
  t.mem_pct = percentage(j, "mem_pct");
  t.source = string_field(j, "source", "");
  t.date = string_field(j, "date", "");
  if (!j.contains("corpus") || !j["corpus"].is_object())
    throw std::invalid_argument("field `corpus` is missing or not an object");
  const json& corpus = j["corpus"];
  t.corpus_name = string_field(corpus, "name", "corpus.");
  if (!corpus.contains("kernels") || !corpus["kernels"].is_array())
    throw std::invalid_argument("field `corpus.kernels` is missing or not an array");
  for (size_t i = 0; i < corpus["kernels"].size(); ++i) {
    const json& k = corpus["kernels"][i];
    std::string where = fmt::format("corpus.kernels[{}].", i);
    if (!k.is_object())
      throw std::invalid_argument(fmt::format("field `corpus.kernels[{}]` is not an object", i));
    t.corpus.push_back({string_field(k, "kernel", where), string_field(k, "source", where), metrics_field(k, where)});
  }
  return t;
}

}  // namespace

Thresholds prior_thresholds() {
  Thresholds t;
  t.source = fmt::format("prior: {:.4g}% (CUDAMaster's brief), no corpus yet", kPriorThresholdPct);
  return t;
}

Thresholds learn_thresholds(const std::vector<KernelProfile>& corpus, std::string corpus_name) {
  if (corpus.empty()) return prior_thresholds();
  Thresholds t;
  auto [sm, sm_how] = learn_one(corpus, "SM", sm_pct);
  auto [dram, dram_how] = learn_one(corpus, "DRAM", dram_pct);
  auto [mem, mem_how] = learn_one(corpus, "Memory", memory_pct);
  t.sm_pct = sm;
  t.dram_pct = dram;
  t.mem_pct = mem;
  t.source = fmt::format("otsu over {} profiles of '{}': {}; {}; {}", corpus.size(), corpus_name, sm_how,
                         dram_how, mem_how);
  t.date = utc_now();
  t.corpus_name = std::move(corpus_name);
  for (const KernelProfile& p : corpus) t.corpus.push_back({p.kernel, p.source, table_metrics(p)});
  return t;
}

std::vector<KernelProfile> corpus_profiles(const Thresholds& t) {
  std::vector<KernelProfile> out;
  for (const CorpusKernel& k : t.corpus) {
    KernelProfile p;
    p.kernel = k.kernel;
    p.source = k.source;
    p.metrics.insert(k.metrics.begin(), k.metrics.end());
    out.push_back(std::move(p));
  }
  return out;
}

json thresholds_json(const Thresholds& t) {
  json kernels = json::array();
  for (const CorpusKernel& k : t.corpus) {
    json entry = {{"kernel", k.kernel}, {"source", k.source}};
    if (!k.metrics.empty()) entry["metrics"] = k.metrics;
    kernels.push_back(entry);
  }
  return json{{"schema", std::string(kThresholdsSchema)},
              {"sm_pct", t.sm_pct},
              {"dram_pct", t.dram_pct},
              {"mem_pct", t.mem_pct},
              {"source", t.source},
              {"date", t.date},
              {"corpus", {{"name", t.corpus_name}, {"kernels", kernels}}}};
}

std::optional<Thresholds> thresholds_from_json(const json& j, std::string* error) {
  try {
    return parse(j);
  } catch (const std::exception& e) {
    if (error) *error = e.what();
    return std::nullopt;
  }
}

bool save_thresholds(const Thresholds& t, const std::string& path, std::string* error) {
  std::ofstream out(path);
  out << thresholds_json(t).dump(2) << '\n';
  if (!out) {
    if (error) *error = path + ": cannot write";
    return false;
  }
  return true;
}

std::optional<Thresholds> load_thresholds(const std::string& path, std::string* error) {
  auto text = read_file(path);
  if (!text) {
    if (error) *error = path + ": cannot read";
    return std::nullopt;
  }
  json j;
  try {
    j = json::parse(*text);
  } catch (const json::parse_error& e) {
    if (error) *error = path + ": not valid JSON: " + e.what();
    return std::nullopt;
  }
  std::string why;
  auto t = thresholds_from_json(j, &why);
  if (!t && error) *error = path + ": " + why;
  return t;
}

}  // namespace ucut::profile
