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

enum class Axis { row, col };  // row: one value per M (broadcast along N); col: one per N

enum class EpiCategory { scalar, source, vector, activation, expr, aux, reduce, cast, store };

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

/// Reductions (`row_sum`, `row_max`, `col_sum`, `col_max`): an output vector of the chain's value at that stage,
/// one value per row m (reduced over n) or per column n (reduced over m); x passes on unchanged.
bool is_reduction(EpiKind k);
/// The reduction's output axis: Axis::row (one per M) for row_*, Axis::col (one per N) for col_*.
Axis reduction_axis(EpiKind k);
bool reduction_is_max(EpiKind k);

}  // namespace ucut
