// eval/worker/cudnn_baseline.cpp — cuDNN descriptors, the benchmark that picks the algorithm, and the launch.
#include "eval/worker/cudnn_baseline.h"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <optional>
#include <vector>

namespace ucut::worker {
namespace {

/// cuDNN's names for one operand type: the tensors' data, the convolution's compute type, and its output.
struct CudnnTypes {
  cudnnDataType_t data, compute, out;
  DType out_dtype;
};

std::optional<CudnnTypes> cudnn_types(DType t) {
  switch (t) {
    case DType::f32:
    case DType::tf32: return CudnnTypes{CUDNN_DATA_FLOAT, CUDNN_DATA_FLOAT, CUDNN_DATA_FLOAT, DType::f32};
    case DType::f16: return CudnnTypes{CUDNN_DATA_HALF, CUDNN_DATA_FLOAT, CUDNN_DATA_HALF, DType::f16};
    case DType::bf16: return CudnnTypes{CUDNN_DATA_BFLOAT16, CUDNN_DATA_FLOAT, CUDNN_DATA_BFLOAT16, DType::bf16};
    case DType::f64: return CudnnTypes{CUDNN_DATA_DOUBLE, CUDNN_DATA_DOUBLE, CUDNN_DATA_DOUBLE, DType::f64};
    case DType::i8: return CudnnTypes{CUDNN_DATA_INT8, CUDNN_DATA_INT32, CUDNN_DATA_FLOAT, DType::f32};
    default: return std::nullopt;
  }
}

/// The candidate's precision in cuDNN's terms: the math type the search starts from, and which results keep it.
/// f32 without TF32 must stay on FMA kernels (as PyTorch does with allow_tf32 off); a conversion of the inputs
/// to a narrower type is never taken.
struct Precision {
  cudnnMathType_t search;
  bool exact_f32;
  bool keeps(cudnnMathType_t m) const {
    if (exact_f32) return m == CUDNN_FMA_MATH;
    return m != CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION;
  }
};

Precision precision(DType t, MathMode math) {
  bool f32 = t == DType::f32 || t == DType::tf32;
  if (f32 && math != MathMode::tf32) return {CUDNN_FMA_MATH, true};
  return {t == DType::f64 ? CUDNN_DEFAULT_MATH : CUDNN_TENSOR_OP_MATH, false};
}

std::string status_text(cudnnStatus_t st) {
  char detail[512] = {0};
  cudnnGetLastErrorString(detail, sizeof detail);
  return detail[0] ? fmt::format("{} ({})", cudnnGetErrorString(st), detail) : cudnnGetErrorString(st);
}

const char* algo_name(cudnnConvolutionFwdAlgo_t a) {
  switch (a) {
    case CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM: return "IMPLICIT_GEMM";
    case CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM: return "IMPLICIT_PRECOMP_GEMM";
    case CUDNN_CONVOLUTION_FWD_ALGO_GEMM: return "GEMM";
    case CUDNN_CONVOLUTION_FWD_ALGO_DIRECT: return "DIRECT";
    case CUDNN_CONVOLUTION_FWD_ALGO_FFT: return "FFT";
    case CUDNN_CONVOLUTION_FWD_ALGO_FFT_TILING: return "FFT_TILING";
    case CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD: return "WINOGRAD";
    case CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED: return "WINOGRAD_NONFUSED";
    default: return "algorithm ?";
  }
}

/// "tf32" or "fma" for f32 data; the cuDNN math type otherwise.
std::string math_word(cudnnDataType_t data, cudnnMathType_t m) {
  if (m == CUDNN_FMA_MATH) return "fma";
  if (data == CUDNN_DATA_FLOAT) return "tf32";
  return m == CUDNN_DEFAULT_MATH ? "default-math" : "tensor-op";
}

/// Images per cudnnConvolutionForward. cuDNN's tensors hold at most 2^31 - 1 elements; past that PyTorch splits
/// the batch into parts of max(2^28 / (elements per image), 1) images. Here the part is rounded down to a divisor
/// of n, so every launch has the same shape and one algorithm.
int64_t images_per_launch(const ConvShape& s) {
  int64_t x_image = s.x_elements() / s.n, y_image = s.out_pixels() / s.n * s.k;
  if (s.x_elements() <= INT_MAX && s.out_pixels() * s.k <= INT_MAX) return s.n;
  int64_t part = std::max<int64_t>((int64_t(1) << 28) / std::max(x_image, y_image), 1);
  while (s.n % part != 0) --part;
  return part;
}

/// Dimensions in cuDNN's order [n, c, (d,) h, w]: 4 for conv1d (h = 1) and conv2d, 5 for conv3d.
std::vector<int> cudnn_dims(int64_t n, int64_t c, const std::array<int64_t, 3>& spatial, int dims) {
  std::vector<int> out{static_cast<int>(n), static_cast<int>(c)};
  for (int i = dims == 3 ? 0 : 1; i < 3; ++i) out.push_back(static_cast<int>(spatial[i]));
  return out;
}

std::vector<int> spatial_of(const std::array<int64_t, 3>& v, int dims) {
  return std::vector<int>(v.begin() + (dims == 3 ? 0 : 1), v.end());
}

}  // namespace

CudnnConvBaseline::CudnnConvBaseline(cudnnHandle_t handle, const ProblemDesc& p, MathMode math,
                                     const ConvShape& shape, const void* x, const void* w)
    : handle_(handle) {
  supported_ = plan(p, math, shape, x, w);
}

CudnnConvBaseline::~CudnnConvBaseline() {
  if (x_desc_) cudnnDestroyTensorDescriptor(x_desc_);
  if (y_desc_) cudnnDestroyTensorDescriptor(y_desc_);
  if (w_desc_) cudnnDestroyFilterDescriptor(w_desc_);
  if (conv_desc_) cudnnDestroyConvolutionDescriptor(conv_desc_);
}

bool CudnnConvBaseline::ok(cudnnStatus_t st, const char* call) {
  if (st == CUDNN_STATUS_SUCCESS) return true;
  why_not_ = fmt::format("cuDNN refused {}: {}", call, status_text(st));
  return false;
}

bool CudnnConvBaseline::plan(const ProblemDesc& p, MathMode math, const ConvShape& s, const void* x, const void* w) {
  std::optional<CudnnTypes> types = cudnn_types(p.a.dtype);
  if (!types || p.b.dtype != p.a.dtype) {
    why_not_ = fmt::format("cuDNN's convolution has no {} x {} operands", dtype_name(p.a.dtype), dtype_name(p.b.dtype));
    return false;
  }
  double_scaling_ = types->data == CUDNN_DATA_DOUBLE;
  Precision prec = precision(p.a.dtype, math);

  int64_t images = images_per_launch(s);
  launches_ = s.n / images;
  x_bytes_per_launch_ = static_cast<size_t>(s.x_elements() / launches_) * dtype_bits(p.a.dtype) / 8;
  y_bytes_per_launch_ = static_cast<size_t>(s.out_pixels() * s.k / launches_) * dtype_bits(types->out_dtype) / 8;
  std::array<int64_t, 3> out{s.out(0), s.out(1), s.out(2)};
  std::vector<int> x_dims = cudnn_dims(images, s.c, s.in, s.dims), w_dims = cudnn_dims(s.k, s.c, s.filter, s.dims),
                   y_dims = cudnn_dims(images, s.k, out, s.dims), pad = spatial_of(s.pad, s.dims),
                   stride = spatial_of(s.stride, s.dims), dilation = spatial_of(s.dilation, s.dims);
  int nb = static_cast<int>(x_dims.size());
  if (!ok(cudnnCreateTensorDescriptor(&x_desc_), "cudnnCreateTensorDescriptor") ||
      !ok(cudnnCreateTensorDescriptor(&y_desc_), "cudnnCreateTensorDescriptor") ||
      !ok(cudnnCreateFilterDescriptor(&w_desc_), "cudnnCreateFilterDescriptor") ||
      !ok(cudnnCreateConvolutionDescriptor(&conv_desc_), "cudnnCreateConvolutionDescriptor") ||
      !ok(cudnnSetTensorNdDescriptorEx(x_desc_, CUDNN_TENSOR_NHWC, types->data, nb, x_dims.data()),
          "the activation descriptor") ||
      !ok(cudnnSetFilterNdDescriptor(w_desc_, types->data, CUDNN_TENSOR_NHWC, nb, w_dims.data()),
          "the filter descriptor") ||
      !ok(cudnnSetConvolutionNdDescriptor(conv_desc_, nb - 2, pad.data(), stride.data(), dilation.data(),
                                          CUDNN_CROSS_CORRELATION, types->compute),
          "the convolution descriptor") ||
      !ok(cudnnSetConvolutionMathType(conv_desc_, prec.search), "the math type"))
    return false;
  std::vector<int> cudnn_out(x_dims.size());
  if (!ok(cudnnGetConvolutionNdForwardOutputDim(conv_desc_, x_desc_, w_desc_, nb, cudnn_out.data()),
          "the output shape"))
    return false;
  if (cudnn_out != y_dims) {
    why_not_ = "cuDNN computes another output shape than the problem's";
    return false;
  }
  if (!ok(cudnnSetTensorNdDescriptorEx(y_desc_, CUDNN_TENSOR_NHWC, types->out, nb, y_dims.data()),
          "the output descriptor"))
    return false;
  y_ = DeviceBuffer(y_bytes_per_launch_ * static_cast<size_t>(launches_));

  // The benchmark, with as much workspace as PyTorch's default allows itself: a quarter of free memory, at most 4 GiB.
  size_t free_bytes = 0, total_bytes = 0;
  CUDA_OK(cudaMemGetInfo(&free_bytes, &total_bytes));
  DeviceBuffer search_ws;
  try {
    search_ws = DeviceBuffer(std::min<size_t>(free_bytes / 4, size_t(4) << 30));
  } catch (const CudaError&) {
    (void)cudaGetLastError();  // a refused allocation must not surface at a later launch check; search without
  }
  int max_algos = 0, found = 0;
  if (!ok(cudnnGetConvolutionForwardAlgorithmMaxCount(handle_, &max_algos), "the algorithm count")) return false;
  std::vector<cudnnConvolutionFwdAlgoPerf_t> perf(static_cast<size_t>(std::max(max_algos, 1)));
  // Twice, keeping the second ranking: the first run of each kernel in the process also loads its module (CUDA
  // loads modules lazily), which can make the first benchmark rank a 10x slower algorithm first.
  for (int pass = 0; pass < 2; ++pass)
    if (!ok(cudnnFindConvolutionForwardAlgorithmEx(handle_, x_desc_, x, w_desc_, w, conv_desc_, y_desc_, y_.get(),
                                                   static_cast<int>(perf.size()), &found, perf.data(), search_ws.get(),
                                                   search_ws.bytes()),
            "cudnnFindConvolutionForwardAlgorithmEx"))
      return false;
  auto fastest = std::find_if(perf.begin(), perf.begin() + found, [&](const cudnnConvolutionFwdAlgoPerf_t& r) {
    return r.status == CUDNN_STATUS_SUCCESS && prec.keeps(r.mathType) && r.memory <= search_ws.bytes();
  });
  if (fastest == perf.begin() + found) {
    why_not_ = fmt::format("cuDNN has no forward algorithm for {} at {} precision ({} tried)", dtype_name(p.a.dtype),
                           prec.exact_f32 ? "exact f32" : "tensor-op", found);
    return false;
  }
  search_ws = DeviceBuffer();
  algo_ = fastest->algo;
  workspace_ = DeviceBuffer(fastest->memory);
  // The math type travels with the algorithm: cuDNN reads both to pick its kernel (as PyTorch sets it).
  if (!ok(cudnnSetConvolutionMathType(conv_desc_, fastest->mathType), "the algorithm's math type")) return false;

  size_t version = cudnnGetVersion();
  fused_ = p.chain.count <= 1;  // the store alone
  description_ = fmt::format("cuDNN {}.{} {} fprop {} {} {} {}, ws {} MiB", version / 10000, version % 10000 / 100,
                             op_name(p.op), s.dims == 3 ? "NDHWC" : s.dims == 1 ? "NHWC (h=1)" : "NHWC",
                             dtype_name(p.a.dtype), math_word(types->data, fastest->mathType), algo_name(algo_),
                             (fastest->memory + (1u << 20) - 1) >> 20);
  if (math == MathMode::tf32x3 && prec.exact_f32) description_ += " (cuDNN has no 3xTF32: exact f32)";
  if (launches_ > 1)
    description_ +=
        fmt::format(", batch in {} launches of {} (tensors over 2^31 elements, as PyTorch)", launches_, images);
  if (types->out_dtype != p.d.dtype)
    description_ +=
        fmt::format("; writes {}, the problem stores {}", dtype_name(types->out_dtype), dtype_name(p.d.dtype));
  if (!fused_) description_ += "; epilogue not fused";
  return true;
}

void CudnnConvBaseline::launch(const void* x, const void* w) {
  const float alpha_f = 1.f, beta_f = 0.f;
  const double alpha_d = 1.0, beta_d = 0.0;
  const void* alpha = double_scaling_ ? static_cast<const void*>(&alpha_d) : &alpha_f;
  const void* beta = double_scaling_ ? static_cast<const void*>(&beta_d) : &beta_f;
  for (int64_t i = 0; i < launches_; ++i) {
    const char* xi = static_cast<const char*>(x) + static_cast<size_t>(i) * x_bytes_per_launch_;
    char* yi = y_.as<char>() + static_cast<size_t>(i) * y_bytes_per_launch_;
    cudnnStatus_t st = cudnnConvolutionForward(handle_, alpha, x_desc_, xi, w_desc_, w, conv_desc_, algo_,
                                               workspace_.get(), workspace_.bytes(), beta, y_desc_, yi);
    if (st != CUDNN_STATUS_SUCCESS) cuda_fail("cudnnConvolutionForward", __FILE__, __LINE__, status_text(st));
  }
}

}  // namespace ucut::worker
