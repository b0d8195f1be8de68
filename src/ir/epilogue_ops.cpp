// ir/epilogue_ops.cpp — reads ir/epilogues.def into a table.
#include "ir/epilogue_ops.h"

#include <cstdlib>
#include <string>

namespace ucut {
namespace {

std::vector<EpiParam> parse_params(std::string_view spec) {
  std::vector<EpiParam> out;
  while (!spec.empty()) {
    size_t comma = spec.find(',');
    std::string_view item = spec.substr(0, comma);
    size_t eq = item.find('=');
    EpiParam p{item.substr(0, eq), std::nullopt};
    if (eq != std::string_view::npos) p.default_value = std::strtod(std::string(item.substr(eq + 1)).c_str(), nullptr);
    out.push_back(p);
    if (comma == std::string_view::npos) break;
    spec.remove_prefix(comma + 1);
  }
  return out;
}

struct Alias {
  std::string_view spelling;
  EpiKind target;
};

const std::vector<Alias>& aliases() {
  static const std::vector<Alias> rows = {
#define EPILOGUE(id, spelling, category, params, functor, formula)
#define EPILOGUE_ALIAS(id, spelling, target) {spelling, EpiKind::target},
#include "ir/epilogues.def"
#undef EPILOGUE
#undef EPILOGUE_ALIAS
  };
  return rows;
}

}  // namespace

const std::vector<EpiOpInfo>& all_epilogues() {
  static const std::vector<EpiOpInfo> rows = {
#define EPILOGUE(id, spelling, category, params, functor, formula) \
  {EpiKind::id, spelling, EpiCategory::category, parse_params(params), functor, formula},
#define EPILOGUE_ALIAS(id, spelling, target)
#include "ir/epilogues.def"
#undef EPILOGUE
#undef EPILOGUE_ALIAS
  };
  return rows;
}

const EpiOpInfo& epi_info(EpiKind k) { return all_epilogues()[static_cast<size_t>(k)]; }

std::optional<EpiKind> find_epilogue(std::string_view s) {
  for (const EpiOpInfo& e : all_epilogues())
    if (e.name == s) return e.kind;
  for (const Alias& a : aliases())
    if (a.spelling == s) return a.target;
  return std::nullopt;
}

std::vector<std::string_view> epilogue_spellings() {
  std::vector<std::string_view> out;
  for (const EpiOpInfo& e : all_epilogues()) out.push_back(e.name);
  for (const Alias& a : aliases()) out.push_back(a.spelling);
  return out;
}

bool is_reduction(EpiKind k) { return epi_info(k).category == EpiCategory::reduce; }

Axis reduction_axis(EpiKind k) { return k == EpiKind::row_sum || k == EpiKind::row_max ? Axis::row : Axis::col; }

bool reduction_is_max(EpiKind k) { return k == EpiKind::row_max || k == EpiKind::col_max; }

}  // namespace ucut
