// eval/worker/cudnn_baseline.h — the vendor baseline for convolutions: cuDNN's legacy convolution call of the
// problem's kind (cudnnConvolutionForward, cudnnConvolutionBackwardData for dgrad, cudnnConvolutionBackwardFilter
// for wgrad) over the same channels-last tensors at the candidate's precision, with the algorithm chosen as
// torch.backends.cudnn.benchmark chooses it (benchmark them all, keep the fastest). It runs the bare convolution
// into its own output: no epilogue stage is fused, and its description says so.
#pragma once

#include <cudnn.h>

#include <string>
#include <vector>

#include "eval/protocol.h"
#include "eval/worker/device_buffer.h"
#include "eval/worker/problem_desc.h"

namespace ucut::worker {

class CudnnConvBaseline {
 public:
  /// Describes the convolution of kind shape.kind to cuDNN and benchmarks its algorithms on `a` and `b`, the
  /// kind's operands (fprop X and W, dgrad DY and W, wgrad DY and X: device tensors of the problem's operand types),
  /// on the handle's stream. `math` is the candidate's: tf32 lets f32 use TF32 tensor cores, native f32 gets exact
  /// FMA math. Types or shapes cuDNN refuses, or no algorithm at that precision, leave supported() false with the
  /// reason in why_not(); CUDA errors throw.
  CudnnConvBaseline(cudnnHandle_t handle, const ProblemDesc& problem, MathMode math, const ConvShape& shape,
                    const void* a, const void* b);
  ~CudnnConvBaseline();
  CudnnConvBaseline(const CudnnConvBaseline&) = delete;
  CudnnConvBaseline& operator=(const CudnnConvBaseline&) = delete;

  bool supported() const { return supported_; }
  const std::string& why_not() const { return why_not_; }
  /// e.g. "cuDNN 9.14 conv2d fprop NHWC f32 tf32 IMPLICIT_PRECOMP_GEMM, ws 12 MiB; epilogue not fused".
  const std::string& description() const { return description_; }
  /// True only when the problem has no epilogue stage to fuse.
  bool fused_epilogue() const { return fused_; }

  /// Enqueues the convolution of `a` and `b` on the handle's stream (throws CudaError when cuDNN fails).
  void launch(const void* a, const void* b);
  /// What launch() writes: the kind's output tensor, packed channels-last, in output_dtype() (cuDNN's output type
  /// for the operands, which need not be the problem's D type).
  const void* output() const { return d_.get(); }
  DType output_dtype() const { return out_dtype_; }

  /// One algorithm as cudnnFind*AlgorithmEx ranks it, for any kind (algo holds the kind's algorithm enum).
  struct Ranked {
    int algo;
    cudnnStatus_t status;
    size_t memory;
    cudnnMathType_t math_type;
    cudnnDeterminism_t determinism;
  };

 private:
  bool plan(const ProblemDesc& p, MathMode math, const ConvShape& shape, const void* a, const void* b);
  bool describe(const ProblemDesc& p, const ConvShape& s, int64_t images, cudnnMathType_t search_math);
  /// cuDNN's ranking of the kind's algorithms on `a` and `b`, fastest first, with `ws` as the workspace.
  cudnnStatus_t rank(const void* a, const void* b, const DeviceBuffer& ws, std::vector<Ranked>& ranked);
  /// One call of the kind's convolution with the chosen algorithm: d = conv(a, b) + beta d.
  cudnnStatus_t run(const void* a, const void* b, void* d, const void* beta);
  /// Records why cuDNN refused `call` and returns false; true on success.
  bool ok(cudnnStatus_t status, const char* call);

  cudnnHandle_t handle_;
  ConvKind kind_ = ConvKind::fprop;
  cudnnTensorDescriptor_t x_desc_ = nullptr, y_desc_ = nullptr;
  cudnnFilterDescriptor_t w_desc_ = nullptr;
  cudnnConvolutionDescriptor_t conv_desc_ = nullptr;
  int algo_ = 0;  // the kind's algorithm: cudnnConvolutionFwdAlgo_t, ...BwdDataAlgo_t or ...BwdFilterAlgo_t
  DeviceBuffer d_, workspace_;
  int64_t launches_ = 1;  // the batch in equal parts, when a tensor exceeds cuDNN's 2^31 elements
  size_t a_step_ = 0, b_step_ = 0, d_step_ = 0;  // bytes a, b and d advance per launch (0: the whole tensor)
  bool double_scaling_ = false;  // f64 data takes double alpha and beta
  DType out_dtype_ = DType::f32;
  bool supported_ = false, fused_ = false;
  std::string why_not_, description_;
};

}  // namespace ucut::worker
