// eval/worker/grouped_cublas.cpp — see grouped_cublas.h.
#include "eval/worker/grouped_cublas.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>

namespace ucut::worker {

GroupedCublasLoop::GroupedCublasLoop(cublasLtHandle_t lt, const ProblemDesc& p, MathMode math, const PackedGroup& g,
                                     const BaselineScales& scales)
    : p_(p), g_(g) {
  if (!p.vectors.empty() || !p.aux.empty()) {
    why_not_ = "a grouped GEMM's epilogue has no per-problem vectors or aux outputs to give cuBLASLt";
    return;
  }
  workspace_ = DeviceBuffer(CublasBaseline::kWorkspaceBytes);
  std::map<std::array<int64_t, 3>, size_t> plan_for;
  for (size_t i = 0; i < g.problems.size(); ++i) {
    const PackedProblem& q = g.problems[i];
    auto [it, added] = plan_for.try_emplace({q.m, q.n, q.k}, plans_.size());
    if (added) {
      plans_.push_back(std::make_unique<CublasBaseline>(lt, p, math, Extents{1, q.m, q.n, q.k}, scales, &workspace_));
      if (!plans_.back()->supported()) {
        why_not_ = fmt::format("problem {} ({}x{}x{}): {}", i + 1, q.m, q.n, q.k, plans_.back()->why_not());
        return;
      }
    }
    plan_of_.push_back(it->second);
  }
  supported_ = true;
  fused_ = std::all_of(plans_.begin(), plans_.end(), [](const auto& pl) { return pl->fused_epilogue(); });
  std::string kinds;  // the distinct descriptions, in problem order
  for (const auto& pl : plans_)
    if (kinds.find(pl->description()) == std::string::npos)
      kinds += (kinds.empty() ? "" : " | ") + pl->description();
  description_ = fmt::format("one call per problem ({} back to back on the launch stream, {} distinct extent{}): {}",
                             g.problems.size(), plans_.size(), plans_.size() == 1 ? "" : "s", kinds);
}

void GroupedCublasLoop::launch(const void* a, const void* b, const void* c, void* d, cudaStream_t s) {
  for (size_t i = 0; i < g_.problems.size(); ++i) {
    const PackedProblem& q = g_.problems[i];
    BaselineOperands o;
    o.a = packed_at(a, p_.a.dtype, q.a_offset);
    o.b = packed_at(b, p_.b.dtype, q.b_offset);
    o.c = c ? packed_at(c, p_.c.dtype, q.d_offset) : nullptr;
    o.d = packed_at(d, p_.d.dtype, q.d_offset);
    plans_[plan_of_[i]]->launch(o, s);
  }
}

GroupedCublasBatched::GroupedCublasBatched(cublasHandle_t blas, const ProblemDesc& p, MathMode math,
                                           const PackedGroup& g)
    : blas_(blas) {
#if CUBLAS_VERSION < 120500
  why_not_ = fmt::format("this worker was built with cuBLAS {}, older than 12.5, which added cublasGemmGroupedBatchedEx",
                         CUBLAS_VERSION);
  return;
#endif
  DType t = p.a.dtype;
  bool f32 = t == DType::f32 || t == DType::tf32;
  std::string types = fmt::format("{}x{}->{}", dtype_name(p.a.dtype), dtype_name(p.b.dtype), dtype_name(p.d.dtype));
  if (p.b.dtype != t || p.d.dtype != t || !(f32 || t == DType::f16 || t == DType::bf16 || t == DType::f64)) {
    why_not_ = fmt::format("cublasGemmGroupedBatchedEx has no {} variant (it multiplies f16, bf16, f32 or f64 "
                           "operands into an output of the same type)",
                           types);
    return;
  }
  f64_ = t == DType::f64;
  bool tf32 = f32 && (math == MathMode::tf32 || t == DType::tf32);
  compute_ = f64_ ? CUBLAS_COMPUTE_64F : tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
  ab_type_ = d_type_ = cuda_type(t);
  // cuBLAS computes alpha·A·B (+ beta·C in place): the chain's leading scales become alpha, the rest is not run.
  double alpha = 1;
  int fused = 0;
  while (fused < p.chain.count && p.chain.stages[fused].kind == EpiKind::scale)
    alpha *= p.scalars[p.chain.stages[fused++].slot];
  fused_ = fused >= p.chain.count - 1;  // everything but the store
  // Row-major D: compute D^T = B^T A^T in cuBLAS's column-major terms; column-major D: D = A B.
  swap_ab_ = p.d.layout == Layout::row;
  LtOperand x{}, y{};
  for (const PackedProblem& q : g.problems) {
    if (swap_ab_) {
      x = lt_operand(q.n, q.k, p.b.layout == Layout::col, q.ldb);  // B^T: row-major iff B is column-major
      y = lt_operand(q.k, q.m, p.a.layout == Layout::col, q.lda);  // A^T
    } else {
      x = lt_operand(q.m, q.k, p.a.layout == Layout::row, q.lda);
      y = lt_operand(q.k, q.n, p.b.layout == Layout::row, q.ldb);
    }
    trans_x_.push_back(x.op);
    trans_y_.push_back(y.op);
    m_.push_back(static_cast<int>(swap_ab_ ? q.n : q.m));
    n_.push_back(static_cast<int>(swap_ab_ ? q.m : q.n));
    k_.push_back(static_cast<int>(q.k));
    ld_x_.push_back(static_cast<int>(x.ld));
    ld_y_.push_back(static_cast<int>(y.ld));
    ld_d_.push_back(static_cast<int>(q.ldd));
    group_size_.push_back(1);
    alpha_.push_back(static_cast<float>(alpha));
    beta_.push_back(0.f);
    alpha64_.push_back(alpha);
    beta64_.push_back(0.0);
  }
  supported_ = true;
  description_ = fmt::format(
      "cublasGemmGroupedBatchedEx {} {}{} {}-compute, {} groups of one problem{}{}", types,
      x.op == CUBLAS_OP_T ? "T" : "N", y.op == CUBLAS_OP_T ? "T" : "N",
      f64_ ? "f64" : tf32 ? "tf32" : "f32", g.problems.size(), fused > 0 ? " + alpha" : "",
      fused_ ? "" : " (the rest of the epilogue is NOT run: GEMM-only baseline)");
}

void GroupedCublasBatched::launch(const GroupPointers& ptrs, cudaStream_t s) {
#if CUBLAS_VERSION >= 120500
  CUBLAS_OK(cublasSetStream(blas_, s));
  CUBLAS_OK(cublasSetMathMode(blas_, CUBLAS_DEFAULT_MATH));  // the FP32 reference leaves the handle pedantic
  const DeviceBuffer& x = swap_ab_ ? ptrs.b : ptrs.a;
  const DeviceBuffer& y = swap_ab_ ? ptrs.a : ptrs.b;
  const void* alpha = f64_ ? static_cast<const void*>(alpha64_.data()) : alpha_.data();
  const void* beta = f64_ ? static_cast<const void*>(beta64_.data()) : beta_.data();
  CUBLAS_OK(cublasGemmGroupedBatchedEx(blas_, trans_x_.data(), trans_y_.data(), m_.data(), n_.data(), k_.data(), alpha,
                                       x.as<const void* const>(), ab_type_, ld_x_.data(), y.as<const void* const>(),
                                       ab_type_, ld_y_.data(), beta, ptrs.d.as<void* const>(), d_type_, ld_d_.data(),
                                       static_cast<int>(m_.size()), group_size_.data(), compute_));
#else
  (void)ptrs, (void)s;
#endif
}

}  // namespace ucut::worker
