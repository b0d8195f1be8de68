// eval/worker/grouped_cublas.h — the two vendor baselines of a grouped GEMM, both at the candidate's precision:
//   GroupedCublasLoop     one cuBLASLt matmul per problem, enqueued back to back on the launch stream and timed as
//                         one run (each a CublasBaseline: the epilogue fused as far as it fuses for one GEMM);
//   GroupedCublasBatched  one cublasGemmGroupedBatchedEx call (cuBLAS >= 12.5) with every problem its own group of
//                         one; it computes alpha·A·B (+ beta·C in place), so it fuses the chain's leading scales
//                         as alpha and nothing else, and has f16, bf16, f32 (TF32 for TF32 kernels) and f64 only.
// What each ran, fused or left out is in its description.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "problem/grouped_layout.h"
#include "eval/worker/cublas_baseline.h"
#include "eval/worker/grouped_operands.h"

namespace ucut::worker {

class GroupedCublasLoop {
 public:
  /// Plans one matmul per distinct problem extent (`g` must outlive this). Throws on CUDA errors; when cuBLASLt
  /// cannot run a problem, supported() is false and why_not() names it.
  GroupedCublasLoop(cublasLtHandle_t lt, const ProblemDesc& p, MathMode math, const PackedGroup& g,
                    const BaselineScales& scales);

  bool supported() const { return supported_; }
  const std::string& why_not() const { return why_not_; }
  const std::string& description() const { return description_; }
  bool fused_epilogue() const { return fused_; }

  /// Enqueues every problem's matmul on `s`: packed a, b (and c) in, packed d out.
  void launch(const void* a, const void* b, const void* c, void* d, cudaStream_t s);

 private:
  const ProblemDesc& p_;
  const PackedGroup& g_;
  DeviceBuffer workspace_;  // shared by the plans: they run one after another on one stream
  std::vector<std::unique_ptr<CublasBaseline>> plans_;
  std::vector<size_t> plan_of_;  // problem i runs plans_[plan_of_[i]]
  bool supported_ = false, fused_ = false;
  std::string why_not_, description_;
};

class GroupedCublasBatched {
 public:
  /// Prepares the per-problem arrays (`g` must outlive this). A precision the grouped API does not offer leaves
  /// supported() false with the reason in why_not().
  GroupedCublasBatched(cublasHandle_t blas, const ProblemDesc& p, MathMode math, const PackedGroup& g);

  bool supported() const { return supported_; }
  const std::string& why_not() const { return why_not_; }
  const std::string& description() const { return description_; }
  bool fused_epilogue() const { return fused_; }

  /// One call over every problem: A and B from `ptrs`, D written through ptrs.d (C is not read).
  void launch(const GroupPointers& ptrs, cudaStream_t s);

 private:
  cublasHandle_t blas_;
  bool supported_ = false, fused_ = false, swap_ab_ = false, f64_ = false;
  cudaDataType_t ab_type_ = CUDA_R_32F, d_type_ = CUDA_R_32F;
  cublasComputeType_t compute_ = CUBLAS_COMPUTE_32F;
  std::vector<cublasOperation_t> trans_x_, trans_y_;  // cuBLAS's A and B: ours swapped when D is row-major
  std::vector<int> m_, n_, k_, ld_x_, ld_y_, ld_d_, group_size_;
  std::vector<float> alpha_, beta_;
  std::vector<double> alpha64_, beta64_;
  std::string why_not_, description_;
};

}  // namespace ucut::worker
