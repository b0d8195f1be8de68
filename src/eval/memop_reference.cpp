// eval/memop_reference.cpp — see memop_reference.h: what the reference covers, and the dispatch to each family's
// (eval/memop_ref_*.cpp) with the outputs rounded at the end.
#include "eval/memop_reference.h"

#include <fmt/format.h>

#include "eval/memop_ref_call.h"
#include "support/parallel_for.h"

namespace ucut {
namespace {

/// Whether an output of type `t` is one the reference rounds to (memref::round_to_dtype).
bool rounded_type(DType t) {
  return t == DType::f64 || t == DType::f32 || t == DType::bf16 || t == DType::f16 || t == DType::i32;
}

}  // namespace

std::string memop_reference_unsupported(const MemOpConfig& m) {
  if (m.library)
    return fmt::format("`{}` is a library call, which the family reference does not cover: MSKB's task "
                       "references verify sort, topk, fft and attention",
                       op_name(m.op.value));
  if (m.sparse)
    return "`sparse` kernels are not covered by the family reference: MSKB's task references verify them";
  if (m.chain.empty() || m.chain.back().kind != EpiKind::store) return "the kernel's chain does not end in a store";
  for (const EpiOp& op : m.chain) {
    EpiCategory c = epi_info(op.kind).category;
    if (c != EpiCategory::activation && c != EpiCategory::expr && c != EpiCategory::cast && c != EpiCategory::store)
      return fmt::format("the family reference evaluates no `{}` stage (a family chain holds activations, "
                         "`expr` and `cast`: C713)",
                         epi_info(op.kind).name);
    if (c == EpiCategory::activation && op.params.size() > 2)
      return fmt::format("`{}` takes {} parameters; the reference's activations take at most 2",
                         epi_info(op.kind).name, op.params.size());
  }
  for (const TensorDecl* out : m.outputs())
    if (!rounded_type(out->dtype.value))
      return fmt::format("output `{}` is {}: the family reference rounds to f32, bf16, f16 or an i32 index",
                         out->name.value, dtype_name(out->dtype.value));
  return "";
}

MemOpReference memop_reference(const MemOpConfig& m, const MemOpHostArgs& args, OutputRounding rounding) {
  MemOpReference result;
  if (std::string why = memop_reference_unsupported(m); !why.empty()) {
    result.error = why;
    return result;
  }
  memref::RefCall call;
  result.error = memref::resolve_call(m, args, call);
  if (!result.error.empty()) return result;
  using Family = std::string (*)(const memref::RefCall&, std::vector<std::vector<double>>&);
  const Family family = m.norm     ? memref::rownorm_reference
                        : m.scan   ? memref::scan_reference
                                   : memref::window_reference;
  result.error = m.reduce                      ? memref::reduce_reference(call, result.outputs, result.bounds)
                 : m.norm || m.scan || m.window ? family(call, result.outputs)
                                                : memref::map_reference(call, result.outputs, result.bounds);
  if (!result.error.empty()) {
    result.outputs.clear();
    return result;
  }
  if (rounding == OutputRounding::declared_type) {
    const std::vector<const TensorDecl*> outs = m.outputs();
    for (size_t o = 0; o < result.outputs.size(); ++o) {
      std::vector<double>& y = result.outputs[o];
      parallel_for(int64_t(y.size()), [&](int64_t begin, int64_t end) {
        for (int64_t k = begin; k < end; ++k) y[size_t(k)] = memref::round_to_dtype(y[size_t(k)], outs[o]->dtype.value);
      });
    }
  }
  return result;
}

}  // namespace ucut
