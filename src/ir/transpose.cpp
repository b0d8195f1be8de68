// ir/transpose.cpp — see transpose.h.
#include "ir/transpose.h"

#include <utility>

namespace ucut {
namespace {

Layout flipped(Layout l) { return l == Layout::row ? Layout::col : l == Layout::col ? Layout::row : l; }

/// A matrix seen transposed: its last two extents exchanged, its layout flipped.
void transpose_matrix(TensorDecl& t) {
  t.layout.value = flipped(t.layout.value);
  if (t.dims.size() >= 2) std::swap(t.dims[t.dims.size() - 2], t.dims[t.dims.size() - 1]);
}

}  // namespace

KernelConfig gemm_transposed(const KernelConfig& cfg) {
  KernelConfig t = cfg;
  std::swap(t.a, t.b);
  transpose_matrix(t.a);
  transpose_matrix(t.b);
  for (EpiOp& op : t.epilogue) {
    EpiCategory c = epi_info(op.kind).category;
    if (c == EpiCategory::vector || c == EpiCategory::reduce)
      op.axis.value = op.axis.value == Axis::row ? Axis::col : Axis::row;
    else if (op.tensor && (c == EpiCategory::source || c == EpiCategory::aux || c == EpiCategory::store))
      transpose_matrix(*op.tensor);
  }
  return t;
}

KernelConfig kernel_frame(const KernelConfig& cfg) { return cfg.computes_transpose() ? gemm_transposed(cfg) : cfg; }

}  // namespace ucut
