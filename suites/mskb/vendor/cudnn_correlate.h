// suites/mskb/vendor/cudnn_correlate.h — what conv_1d's and conv_2d's vendor launchers share: the valid 2D
// cross-correlation of one single-channel H×W image with one kh×kw filter by cudnnConvolutionForward
// (CUDNN_CROSS_CORRELATION, no padding, unit stride, FP32 compute on FP32 or BF16 data). Descriptors are made once and
// set per call. The algorithm is cuDNN's own heuristic choice (cudnnGetConvolutionForwardAlgorithm_v7, what PyTorch
// uses without benchmark mode), once per shape and type, among those needing at most kVendorCorrelateWorkspace bytes
// of workspace (the shared vendor workspace). Not cudnnFind*: on one channel and a 32² filter, its trial of every
// algorithm took 39 s at 1024² and over 300 s at 4096² on the H200.
#pragma once

#include <map>
#include <tuple>

#include "vendor_util.h"

struct VendorCorrelateDescriptors {
  cudnnTensorDescriptor_t x = nullptr, y = nullptr;
  cudnnFilterDescriptor_t w = nullptr;
  cudnnConvolutionDescriptor_t conv = nullptr;
  VendorCorrelateDescriptors() {
    VENDOR_CUDNN(cudnnCreateTensorDescriptor(&x));
    VENDOR_CUDNN(cudnnCreateTensorDescriptor(&y));
    VENDOR_CUDNN(cudnnCreateFilterDescriptor(&w));
    VENDOR_CUDNN(cudnnCreateConvolutionDescriptor(&conv));
    VENDOR_CUDNN(cudnnSetConvolution2dDescriptor(conv, 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT));
  }
};

constexpr size_t kVendorCorrelateWorkspace = size_t(1) << 30;

// cuDNN's best-ranked algorithm for the shape now set in `d` that fits the workspace cap. FP32 stays on FMA kernels:
// TF32 tensor cores would round the inputs to 10 mantissa bits, too coarse for the 1e-2 tolerance on 32×32 windows.
inline cudnnConvolutionFwdAlgoPerf_t vendor_correlate_choose(const VendorCorrelateDescriptors& d, cudnnDataType_t type) {
  const bool fp32 = type == CUDNN_DATA_FLOAT;
  VENDOR_CUDNN(cudnnSetConvolutionMathType(d.conv, fp32 ? CUDNN_FMA_MATH : CUDNN_TENSOR_OP_MATH));
  cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
  int found = 0;
  VENDOR_CUDNN(cudnnGetConvolutionForwardAlgorithm_v7(vendor_cudnn(), d.x, d.w, d.conv, d.y,
                                                      CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &found, perf));
  for (int i = 0; i < found; ++i) {
    bool tensor_ops = perf[i].mathType == CUDNN_TENSOR_OP_MATH ||
                      perf[i].mathType == CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION;
    if (perf[i].status == CUDNN_STATUS_SUCCESS && perf[i].memory <= kVendorCorrelateWorkspace && !(fp32 && tensor_ops))
      return perf[i];
  }
  VENDOR_FAIL("cudnnGetConvolutionForwardAlgorithm_v7 offered no usable algorithm", CUDNN_STATUS_NOT_SUPPORTED);
}

// y[(H−kh+1)×(W−kw+1)] = x[H×W] ⋆ w[kh×kw], row-major, all device pointers of `type` (CUDNN_DATA_FLOAT or
// CUDNN_DATA_BFLOAT16). Runs on the default stream; the caller synchronizes.
inline void vendor_correlate_2d(const void* x, const void* w, void* y, int H, int W, int kh, int kw,
                                cudnnDataType_t type) {
  static VendorCorrelateDescriptors d;
  static std::map<std::tuple<int, int, int, int, int>, cudnnConvolutionFwdAlgoPerf_t> chosen;
  VENDOR_CUDNN(cudnnSetTensor4dDescriptor(d.x, CUDNN_TENSOR_NCHW, type, 1, 1, H, W));
  VENDOR_CUDNN(cudnnSetFilter4dDescriptor(d.w, type, CUDNN_TENSOR_NCHW, 1, 1, kh, kw));
  VENDOR_CUDNN(cudnnSetTensor4dDescriptor(d.y, CUDNN_TENSOR_NCHW, type, 1, 1, H - kh + 1, W - kw + 1));
  auto key = std::make_tuple(int(type), H, W, kh, kw);
  auto it = chosen.find(key);
  if (it == chosen.end()) it = chosen.emplace(key, vendor_correlate_choose(d, type)).first;
  const cudnnConvolutionFwdAlgoPerf_t& algo = it->second;
  VENDOR_CUDNN(cudnnSetConvolutionMathType(d.conv, algo.mathType));
  const float one = 1.0f, zero = 0.0f;
  VENDOR_CUDNN(cudnnConvolutionForward(vendor_cudnn(), &one, d.x, x, d.w, w, d.conv, algo.algo,
                                       vendor_workspace(algo.memory), algo.memory, &zero, d.y, y));
}
