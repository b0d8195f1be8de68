// ir/epilogue_ops.h — the epilogue catalogue (ir/epilogues.def) as data.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace ucut {

enum class EpiKind {
#define EPILOGUE(id, spelling, category, params, functor, formula) id,
#define EPILOGUE_ALIAS(id, spelling, target)
#include "ir/epilogues.def"
#undef EPILOGUE
#undef EPILOGUE_ALIAS
};

enum class EpiCategory { scalar, source, vector, activation, expr, aux, cast, store };

struct EpiParam {
  std::string_view name;
  std::optional<double> default_value;  // none: required
};

struct EpiOpInfo {
  EpiKind kind;
  std::string_view name;
  EpiCategory category;
  std::vector<EpiParam> params;
  std::string_view cutlass_functor;
  std::string_view formula;
};

const EpiOpInfo& epi_info(EpiKind k);
const std::vector<EpiOpInfo>& all_epilogues();
/// Resolves a spelling or alias (`swish` → silu).
std::optional<EpiKind> find_epilogue(std::string_view spelling);
/// Every accepted spelling, aliases included (for suggestions and docs).
std::vector<std::string_view> epilogue_spellings();

}  // namespace ucut
