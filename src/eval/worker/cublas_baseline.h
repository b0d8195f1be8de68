// eval/worker/cublas_baseline.h — the vendor baseline at the candidate's precision: one cublasLt matmul
// with the same operand types and layouts, fusing as much of the problem's epilogue as cuBLASLt can
// (alpha/beta, bias, ReLU, GELU); what it could not fuse is stated in its description.
#pragma once

#include <string>

#include "eval/worker/device_buffer.h"
#include "eval/worker/problem_desc.h"
#include "eval/worker/reference.h"

namespace ucut::worker {

/// The CUDA data type of an element type (tf32 data is stored as f32).
cudaDataType_t cuda_type(DType t);

/// A logical R x C operand stored row- or column-major with leading dimension `ld`, as cuBLAS (column-major)
/// sees it: a layout and the op that recovers R x C.
struct LtOperand {
  uint64_t rows, cols;
  int64_t ld;
  cublasOperation_t op;
};
LtOperand lt_operand(int64_t r, int64_t c, bool row_major, int64_t ld);

/// Per-operand device scale pointers for FP8 (fixed for the plan's life: cuBLASLt picks algorithms knowing them).
struct BaselineScales {
  const float* a = nullptr;
  const float* b = nullptr;
  const float* d = nullptr;
};

struct BaselineOperands {
  const void* a = nullptr;
  const void* b = nullptr;
  const void* c = nullptr;     // residual source, when fused as beta * C
  void* d = nullptr;
  const void* bias = nullptr;  // when fused
};

class CublasBaseline {
 public:
  static constexpr size_t kWorkspaceBytes = size_t(32) << 20;

  /// Plans the matmul; `math` is the candidate's (tf32 → CUBLAS_COMPUTE_32F_FAST_TF32), and f32 operands that the
  /// candidate converts (problem.converted) multiply as bf16 or f16 (CUBLAS_COMPUTE_32F_FAST_16BF/16F). When cuBLASLt has no
  /// algorithm for the fused epilogue it plans the bare GEMM and says so. Throws on CUDA errors; a combination
  /// cuBLASLt cannot run at all leaves supported() false with the reason in why_not(). `workspace`: a buffer
  /// to share with other plans launched on the same stream (default: its own, kWorkspaceBytes).
  CublasBaseline(cublasLtHandle_t handle, const ProblemDesc& problem, MathMode math, const Extents& e,
                 const BaselineScales& scales, const DeviceBuffer* workspace = nullptr);
  ~CublasBaseline();
  CublasBaseline(const CublasBaseline&) = delete;
  CublasBaseline& operator=(const CublasBaseline&) = delete;

  bool supported() const { return supported_; }
  const std::string& why_not() const { return why_not_; }
  const std::string& description() const { return description_; }
  bool fused_epilogue() const { return fused_; }
  /// The problem's chain stages (in order) that this matmul computes; the rest are not run.
  bool fuses_bias() const { return bias_slot_ >= 0; }
  int bias_slot() const { return bias_slot_; }

  void launch(const BaselineOperands& ops, cudaStream_t s);

 private:
  /// Builds descriptors for a chain prefix (`fuse`: try the epilogue) and asks for an algorithm.
  bool plan(const ProblemDesc& p, MathMode math, const Extents& e, const BaselineScales& scales, bool fuse);
  void destroy();

  cublasLtHandle_t handle_;
  cublasLtMatmulDesc_t op_ = nullptr;
  cublasLtMatrixLayout_t la_ = nullptr, lb_ = nullptr, lc_ = nullptr, ld_ = nullptr;
  cublasLtMatmulAlgo_t algo_{};
  DeviceBuffer own_workspace_;
  const DeviceBuffer* workspace_;  // own_workspace_ or a shared one
  DeviceBuffer dummy_c_;  // FP8 outputs need a 16-bit C descriptor even with beta = 0
  bool supported_ = false, fused_ = false, swap_ab_ = false, int_scale_ = false, uses_c_ = false;
  int bias_slot_ = -1;
  float alpha_ = 1.f, beta_ = 0.f;
  std::string why_not_, description_;
};

}  // namespace ucut::worker
