// eval/worker/cublas_baseline.cpp — cublasLt planning and launch.
#include "eval/worker/cublas_baseline.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace ucut::worker {

cudaDataType_t cuda_type(DType t) {
  switch (t) {
    case DType::f64: return CUDA_R_64F;
    case DType::f32:
    case DType::tf32: return CUDA_R_32F;
    case DType::f16: return CUDA_R_16F;
    case DType::bf16: return CUDA_R_16BF;
    case DType::e4m3: return CUDA_R_8F_E4M3;
    case DType::e5m2: return CUDA_R_8F_E5M2;
    case DType::i8: return CUDA_R_8I;
    case DType::i32: return CUDA_R_32I;
  }
  return CUDA_R_32F;
}

LtOperand lt_operand(int64_t r, int64_t c, bool row_major, int64_t ld) {
  if (row_major) return {static_cast<uint64_t>(c), static_cast<uint64_t>(r), ld, CUBLAS_OP_T};
  return {static_cast<uint64_t>(r), static_cast<uint64_t>(c), ld, CUBLAS_OP_N};
}

namespace {

void make_layout(cublasLtMatrixLayout_t* out, cudaDataType_t t, const LtOperand& o, int64_t batch, int64_t stride) {
  CUBLAS_OK(cublasLtMatrixLayoutCreate(out, t, o.rows, o.cols, o.ld));
  if (batch > 1) {
    int32_t count = static_cast<int32_t>(batch);
    CUBLAS_OK(cublasLtMatrixLayoutSetAttribute(*out, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &count, sizeof count));
    CUBLAS_OK(cublasLtMatrixLayoutSetAttribute(*out, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride, sizeof stride));
  }
}

template <class T>
void set_attr(cublasLtMatmulDesc_t d, cublasLtMatmulDescAttributes_t a, const T& v) {
  CUBLAS_OK(cublasLtMatmulDescSetAttribute(d, a, &v, sizeof v));
}

}  // namespace

CublasBaseline::CublasBaseline(cublasLtHandle_t handle, const ProblemDesc& p, MathMode math, const Extents& e,
                               const BaselineScales& scales, const DeviceBuffer* workspace)
    : handle_(handle),
      own_workspace_(workspace ? 0 : kWorkspaceBytes),
      workspace_(workspace ? workspace : &own_workspace_) {
  if (plan(p, math, e, scales, true)) return;
  std::string fused_failure = why_not_;
  destroy();
  if (plan(p, math, e, scales, false))
    description_ += " [cuBLASLt has no algorithm with the fused epilogue (" + fused_failure + "); timed as GEMM only]";
}

void CublasBaseline::destroy() {
  for (cublasLtMatrixLayout_t* l : {&la_, &lb_, &lc_, &ld_}) {
    if (*l) cublasLtMatrixLayoutDestroy(*l);
    *l = nullptr;
  }
  if (op_) cublasLtMatmulDescDestroy(op_);
  op_ = nullptr;
  supported_ = fused_ = uses_c_ = false;
  bias_slot_ = -1;
  alpha_ = 1.f;
  beta_ = 0.f;
}

bool CublasBaseline::plan(const ProblemDesc& p, MathMode math, const Extents& e, const BaselineScales& scales,
                          bool fuse) {
  bool int_ops = dtype_kind(p.a.dtype) == DTypeKind::int_;
  bool fp8 = is_fp8(p.a.dtype);
  bool f32 = p.a.dtype == DType::f32;
  cublasComputeType_t compute = int_ops                                  ? CUBLAS_COMPUTE_32I
                                : f32 && p.converted == DType::bf16      ? CUBLAS_COMPUTE_32F_FAST_16BF
                                : f32 && p.converted == DType::f16       ? CUBLAS_COMPUTE_32F_FAST_16F
                                : f32 && math == MathMode::tf32          ? CUBLAS_COMPUTE_32F_FAST_TF32
                                                                         : CUBLAS_COMPUTE_32F;
  int_scale_ = int_ops;
  CUBLAS_OK(cublasLtMatmulDescCreate(&op_, compute, int_ops ? CUDA_R_32I : CUDA_R_32F));

  // Which prefix of the chain cuBLASLt computes: scale* residual? bias? activation? Reductions pass x on
  // unchanged, so the prefix continues past them, but cuBLASLt cannot compute their vectors: they are not run.
  const RefChain& ch = p.chain;
  int i = 0;
  std::string fused_stages;
  std::vector<std::string> unrun_reductions;
  auto skip_reductions = [&] {
    while (i < ch.count && is_reduction(ch.stages[i].kind)) {
      const AuxSlot& a = p.aux[static_cast<size_t>(ch.stages[i].slot)];
      unrun_reductions.push_back(fmt::format("{}({})", epi_info(ch.stages[i].kind).name, a.name));
      ++i;
    }
  };
  bool row_out = p.d.layout == Layout::row;
  cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_DEFAULT;
  if (fuse) {
    for (skip_reductions(); i < ch.count && ch.stages[i].kind == EpiKind::scale; skip_reductions()) {
      alpha_ *= p.scalars[ch.stages[i].slot];
      fused_stages += "alpha ";
      ++i;
    }
    if (i < ch.count && ch.stages[i].kind == EpiKind::residual && p.c.dtype == p.d.dtype &&
        p.c.layout == p.d.layout && !fp8) {
      beta_ = p.scalars[ch.stages[i].slot];
      uses_c_ = true;
      fused_stages += "beta*C ";
      ++i;
    }
    skip_reductions();
    // cuBLASLt's bias is one value per row of its (column-major) output: per n when we compute D^T.
    if (i < ch.count && ch.stages[i].kind == EpiKind::bias && ch.stages[i].per_row != row_out) {
      bias_slot_ = ch.stages[i].slot;
      epi = CUBLASLT_EPILOGUE_BIAS;
      fused_stages += "bias ";
      ++i;
    }
    skip_reductions();
    if (i < ch.count && (ch.stages[i].kind == EpiKind::relu || ch.stages[i].kind == EpiKind::gelu ||
                         ch.stages[i].kind == EpiKind::gelu_tanh)) {
      bool relu = ch.stages[i].kind == EpiKind::relu;
      epi = relu ? (bias_slot_ >= 0 ? CUBLASLT_EPILOGUE_RELU_BIAS : CUBLASLT_EPILOGUE_RELU)
                 : (bias_slot_ >= 0 ? CUBLASLT_EPILOGUE_GELU_BIAS : CUBLASLT_EPILOGUE_GELU);
      fused_stages += relu ? "relu " : (ch.stages[i].kind == EpiKind::gelu ? "gelu(tanh approximation) " : "gelu_tanh ");
      ++i;
    }
    skip_reductions();
  }
  // Reductions after the fused prefix are in "the rest of the epilogue"; name them all the same.
  for (int j = i; j < ch.count; ++j)
    if (is_reduction(ch.stages[j].kind))
      unrun_reductions.push_back(
          fmt::format("{}({})", epi_info(ch.stages[j].kind).name, p.aux[static_cast<size_t>(ch.stages[j].slot)].name));
  int epilogue_stages = ch.count - 1;  // minus the store
  fused_ = i >= epilogue_stages && unrun_reductions.empty();
  if (epi != CUBLASLT_EPILOGUE_DEFAULT) set_attr(op_, CUBLASLT_MATMUL_DESC_EPILOGUE, epi);
  if (bias_slot_ >= 0) set_attr(op_, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, cuda_type(p.vectors[bias_slot_].dtype));

  // Row-major D: compute D^T = B^T A^T in cuBLASLt's column-major terms; column-major D: D = A B.
  swap_ab_ = row_out;
  int64_t lda_rows = p.a.layout == Layout::row ? e.k : e.m;  // leading dimensions of the packed operands
  int64_t ldb_rows = p.b.layout == Layout::row ? e.n : e.k;
  LtOperand x, y;
  if (swap_ab_) {
    x = lt_operand(e.n, e.k, p.b.layout == Layout::col, ldb_rows);  // B^T: row-major iff B is column-major
    y = lt_operand(e.k, e.m, p.a.layout == Layout::col, lda_rows);  // A^T
  } else {
    x = lt_operand(e.m, e.k, p.a.layout == Layout::row, lda_rows);
    y = lt_operand(e.k, e.n, p.b.layout == Layout::row, ldb_rows);
  }
  set_attr(op_, CUBLASLT_MATMUL_DESC_TRANSA, x.op);
  set_attr(op_, CUBLASLT_MATMUL_DESC_TRANSB, y.op);
  // cuBLASLt's A is our B when we compute D^T; scale pointers are set before the algorithm query.
  const float* lt_a_scale = swap_ab_ ? scales.b : scales.a;
  const float* lt_b_scale = swap_ab_ ? scales.a : scales.b;
  if (lt_a_scale) set_attr(op_, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, lt_a_scale);
  if (lt_b_scale) set_attr(op_, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, lt_b_scale);
  if (scales.d) set_attr(op_, CUBLASLT_MATMUL_DESC_D_SCALE_POINTER, scales.d);
  const Operand& xo = swap_ab_ ? p.b : p.a;
  const Operand& yo = swap_ab_ ? p.a : p.b;
  int64_t x_stride = swap_ab_ ? e.k * e.n : e.m * e.k, y_stride = swap_ab_ ? e.m * e.k : e.k * e.n;
  make_layout(&la_, cuda_type(xo.dtype), x, e.batch, x_stride);
  make_layout(&lb_, cuda_type(yo.dtype), y, e.batch, y_stride);
  LtOperand out = swap_ab_ ? LtOperand{static_cast<uint64_t>(e.n), static_cast<uint64_t>(e.m), e.n, CUBLAS_OP_N}
                           : LtOperand{static_cast<uint64_t>(e.m), static_cast<uint64_t>(e.n), e.m, CUBLAS_OP_N};
  make_layout(&ld_, cuda_type(p.d.dtype), out, e.batch, e.m * e.n);
  if (is_fp8(p.d.dtype)) {
    // cuBLASLt FP8 GEMMs take a 16-bit C even when beta = 0.
    make_layout(&lc_, CUDA_R_16BF, out, e.batch, e.m * e.n);
    if (!dummy_c_.get()) dummy_c_ = DeviceBuffer(static_cast<size_t>(e.mn()) * 2);
  } else {
    make_layout(&lc_, cuda_type(p.d.dtype), out, e.batch, e.m * e.n);
  }

  cublasLtMatmulPreference_t pref = nullptr;
  CUBLAS_OK(cublasLtMatmulPreferenceCreate(&pref));
  uint64_t ws = workspace_->bytes();
  CUBLAS_OK(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof ws));
  cublasLtMatmulHeuristicResult_t heuristic{};
  int found = 0;
  cublasStatus_t st = cublasLtMatmulAlgoGetHeuristic(handle_, op_, la_, lb_, lc_, ld_, pref, 1, &heuristic, &found);
  cublasLtMatmulPreferenceDestroy(pref);
  std::string types = fmt::format("{}x{}->{}", dtype_name(p.a.dtype), dtype_name(p.b.dtype), dtype_name(p.d.dtype));
  std::string compute_name = compute == CUBLAS_COMPUTE_32F_FAST_TF32 ? "tf32" : int_ops ? "i32" : "f32";
  if (st != CUBLAS_STATUS_SUCCESS || found == 0) {
    why_not_ = fmt::format("cublasLt has no algorithm for {} ({} compute, {}): {}", types, compute_name,
                           fused_stages.empty() ? "no epilogue" : fused_stages, cublasGetStatusString(st));
    return false;
  }
  algo_ = heuristic.algo;
  supported_ = true;
  bool rest_unrun = i < epilogue_stages;  // stages after the fused prefix (reductions skipped over are listed apart)
  description_ = fmt::format("cublasLt {} {}{} {}-compute{}{}{}", types, x.op == CUBLAS_OP_T ? "T" : "N",
                             y.op == CUBLAS_OP_T ? "T" : "N", compute_name,
                             fused_stages.empty() ? "" : " + " + fused_stages.substr(0, fused_stages.size() - 1),
                             rest_unrun ? " (the rest of the epilogue is NOT run: GEMM-only baseline)" : "",
                             unrun_reductions.empty()
                                 ? ""
                                 : fmt::format(" (reductions NOT run: {}; cuBLASLt cannot compute them)",
                                               fmt::join(unrun_reductions, ", ")));
  return true;
}

CublasBaseline::~CublasBaseline() { destroy(); }

void CublasBaseline::launch(const BaselineOperands& o, cudaStream_t s) {
  if (bias_slot_ >= 0) set_attr(op_, CUBLASLT_MATMUL_DESC_BIAS_POINTER, o.bias);
  const void* x = swap_ab_ ? o.b : o.a;
  const void* y = swap_ab_ ? o.a : o.b;
  const void* c = uses_c_ ? o.c : (dummy_c_.get() ? dummy_c_.get() : o.d);
  int32_t ialpha = static_cast<int32_t>(alpha_), ibeta = static_cast<int32_t>(beta_);
  const void* alpha = int_scale_ ? static_cast<const void*>(&ialpha) : &alpha_;
  const void* beta = int_scale_ ? static_cast<const void*>(&ibeta) : &beta_;
  CUBLAS_OK(cublasLtMatmul(handle_, op_, alpha, x, la_, y, lb_, beta, c, lc_, o.d, ld_, &algo_, workspace_->get(),
                           workspace_->bytes(), s));
}

}  // namespace ucut::worker
