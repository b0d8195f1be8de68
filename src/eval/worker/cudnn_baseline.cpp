// eval/worker/cudnn_baseline.cpp — cuDNN descriptors, the benchmark that picks the algorithm, and the launch. The
// three kinds share the descriptors (always the forward convolution's X, W and Y) and every step; they differ only
// in which tensors are operands and output, and in the cuDNN calls that rank and run their algorithms.
#include "eval/worker/cudnn_baseline.h"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <optional>

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

/// The cuDNN calls of one kind: the one that ranks its algorithms and the one that runs it.
struct KindCalls {
  const char *rank, *run;
};

KindCalls calls(ConvKind kind) {
  switch (kind) {
    case ConvKind::fprop: return {"cudnnFindConvolutionForwardAlgorithmEx", "cudnnConvolutionForward"};
    case ConvKind::dgrad: return {"cudnnFindConvolutionBackwardDataAlgorithmEx", "cudnnConvolutionBackwardData"};
    case ConvKind::wgrad: return {"cudnnFindConvolutionBackwardFilterAlgorithmEx", "cudnnConvolutionBackwardFilter"};
  }
  return {"?", "?"};
}

const char* fprop_algo_name(cudnnConvolutionFwdAlgo_t a) {
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

const char* dgrad_algo_name(cudnnConvolutionBwdDataAlgo_t a) {
  switch (a) {
    case CUDNN_CONVOLUTION_BWD_DATA_ALGO_0: return "ALGO_0";
    case CUDNN_CONVOLUTION_BWD_DATA_ALGO_1: return "ALGO_1";
    case CUDNN_CONVOLUTION_BWD_DATA_ALGO_FFT: return "FFT";
    case CUDNN_CONVOLUTION_BWD_DATA_ALGO_FFT_TILING: return "FFT_TILING";
    case CUDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD: return "WINOGRAD";
    case CUDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD_NONFUSED: return "WINOGRAD_NONFUSED";
    default: return "algorithm ?";
  }
}

const char* wgrad_algo_name(cudnnConvolutionBwdFilterAlgo_t a) {
  switch (a) {
    case CUDNN_CONVOLUTION_BWD_FILTER_ALGO_0: return "ALGO_0";
    case CUDNN_CONVOLUTION_BWD_FILTER_ALGO_1: return "ALGO_1";
    case CUDNN_CONVOLUTION_BWD_FILTER_ALGO_FFT: return "FFT";
    case CUDNN_CONVOLUTION_BWD_FILTER_ALGO_3: return "ALGO_3";
    case CUDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD_NONFUSED: return "WINOGRAD_NONFUSED";
    case CUDNN_CONVOLUTION_BWD_FILTER_ALGO_FFT_TILING: return "FFT_TILING";
    default: return "algorithm ?";
  }
}

const char* algo_name(ConvKind kind, int algo) {
  switch (kind) {
    case ConvKind::fprop: return fprop_algo_name(static_cast<cudnnConvolutionFwdAlgo_t>(algo));
    case ConvKind::dgrad: return dgrad_algo_name(static_cast<cudnnConvolutionBwdDataAlgo_t>(algo));
    case ConvKind::wgrad: return wgrad_algo_name(static_cast<cudnnConvolutionBwdFilterAlgo_t>(algo));
  }
  return "algorithm ?";
}

/// "tf32" or "fma" for f32 data; the cuDNN math type otherwise.
std::string math_word(cudnnDataType_t data, cudnnMathType_t m) {
  if (m == CUDNN_FMA_MATH) return "fma";
  if (data == CUDNN_DATA_FLOAT) return "tf32";
  return m == CUDNN_DEFAULT_MATH ? "default-math" : "tensor-op";
}

/// Images per cuDNN call. cuDNN's tensors hold at most 2^31 - 1 elements; past that PyTorch splits the batch into
/// parts of max(2^28 / (elements per image), 1) images. Here the part is rounded down to a divisor of n, so every
/// launch has the same shape and one algorithm. Every kind splits X and Y (or their gradients) the same way.
int64_t images_per_launch(const ConvShape& s) {
  int64_t x_image = s.x_elements() / s.n, y_image = s.y_elements() / s.n;
  if (s.x_elements() <= INT_MAX && s.y_elements() <= INT_MAX) return s.n;
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

/// Runs one kind's ranking call (`find(count, &found, perf)`, its perf struct `Perf`) with room for every algorithm
/// (`max_count(&count)`), and converts what it found.
template <class Perf, class MaxCount, class Find>
cudnnStatus_t rank_with(MaxCount max_count, Find find, std::vector<CudnnConvBaseline::Ranked>& ranked) {
  int count = 0, found = 0;
  if (cudnnStatus_t st = max_count(&count); st != CUDNN_STATUS_SUCCESS) return st;
  std::vector<Perf> perf(static_cast<size_t>(std::max(count, 1)));
  if (cudnnStatus_t st = find(static_cast<int>(perf.size()), &found, perf.data()); st != CUDNN_STATUS_SUCCESS)
    return st;
  ranked.clear();
  for (int i = 0; i < found; ++i)
    ranked.push_back({static_cast<int>(perf[i].algo), perf[i].status, perf[i].memory, perf[i].mathType,
                      perf[i].determinism});
  return CUDNN_STATUS_SUCCESS;
}

}  // namespace

CudnnConvBaseline::CudnnConvBaseline(cudnnHandle_t handle, const ProblemDesc& p, MathMode math,
                                     const ConvShape& shape, const void* a, const void* b)
    : handle_(handle), kind_(shape.kind) {
  supported_ = plan(p, math, shape, a, b);
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

/// The descriptors of X and Y (`images` images each), W and the convolution; the kind's output tensor takes cuDNN's
/// output type, its operands the data type. Also sizes the output buffer and the per-launch steps.
bool CudnnConvBaseline::describe(const ProblemDesc& p, const ConvShape& s, int64_t images,
                                 cudnnMathType_t search_math) {
  CudnnTypes types = *cudnn_types(p.a.dtype);
  bool x_out = kind_ == ConvKind::dgrad, w_out = kind_ == ConvKind::wgrad, y_out = kind_ == ConvKind::fprop;
  auto type_of = [&](bool is_output) { return is_output ? types.out : types.data; };
  auto bytes_of = [&](bool is_output, int64_t elements) {
    return static_cast<size_t>(elements) * dtype_bits(is_output ? types.out_dtype : p.a.dtype) / 8;
  };
  size_t x_part = bytes_of(x_out, s.x_elements() / launches_), y_part = bytes_of(y_out, s.y_elements() / launches_);
  switch (kind_) {
    case ConvKind::fprop: a_step_ = x_part, d_step_ = y_part; break;
    case ConvKind::dgrad: a_step_ = y_part, d_step_ = x_part; break;
    case ConvKind::wgrad: a_step_ = y_part, b_step_ = x_part; break;
  }
  d_ = DeviceBuffer(w_out ? bytes_of(true, s.w_elements()) : d_step_ * static_cast<size_t>(launches_));

  std::array<int64_t, 3> out{s.out(0), s.out(1), s.out(2)};
  // Grouped: cuDNN's filter holds c / groups channels, with the group count on the convolution descriptor.
  std::vector<int> x_dims = cudnn_dims(images, s.c, s.in, s.dims),
                   w_dims = cudnn_dims(s.k, s.group_c(), s.filter, s.dims),
                   y_dims = cudnn_dims(images, s.k, out, s.dims), pad = spatial_of(s.pad, s.dims),
                   stride = spatial_of(s.stride, s.dims), dilation = spatial_of(s.dilation, s.dims);
  int nb = static_cast<int>(x_dims.size());
  if (!ok(cudnnCreateTensorDescriptor(&x_desc_), "cudnnCreateTensorDescriptor") ||
      !ok(cudnnCreateTensorDescriptor(&y_desc_), "cudnnCreateTensorDescriptor") ||
      !ok(cudnnCreateFilterDescriptor(&w_desc_), "cudnnCreateFilterDescriptor") ||
      !ok(cudnnCreateConvolutionDescriptor(&conv_desc_), "cudnnCreateConvolutionDescriptor") ||
      !ok(cudnnSetTensorNdDescriptorEx(x_desc_, CUDNN_TENSOR_NHWC, type_of(x_out), nb, x_dims.data()),
          "the activation descriptor") ||
      !ok(cudnnSetFilterNdDescriptor(w_desc_, type_of(w_out), CUDNN_TENSOR_NHWC, nb, w_dims.data()),
          "the filter descriptor") ||
      !ok(cudnnSetConvolutionNdDescriptor(conv_desc_, nb - 2, pad.data(), stride.data(), dilation.data(),
                                          CUDNN_CROSS_CORRELATION, types.compute),
          "the convolution descriptor") ||
      !ok(cudnnSetConvolutionGroupCount(conv_desc_, static_cast<int>(s.groups)), "the group count") ||
      !ok(cudnnSetConvolutionMathType(conv_desc_, search_math), "the math type"))
    return false;
  std::vector<int> cudnn_out(x_dims.size());
  if (!ok(cudnnGetConvolutionNdForwardOutputDim(conv_desc_, x_desc_, w_desc_, nb, cudnn_out.data()),
          "the output shape"))
    return false;
  if (cudnn_out != y_dims) {
    why_not_ = "cuDNN computes another output shape than the problem's";
    return false;
  }
  return ok(cudnnSetTensorNdDescriptorEx(y_desc_, CUDNN_TENSOR_NHWC, type_of(y_out), nb, y_dims.data()),
            "the output descriptor");
}

cudnnStatus_t CudnnConvBaseline::rank(const void* a, const void* b, const DeviceBuffer& ws,
                                      std::vector<Ranked>& ranked) {
  void* d = d_.get();
  switch (kind_) {
    case ConvKind::fprop:
      return rank_with<cudnnConvolutionFwdAlgoPerf_t>(
          [&](int* n) { return cudnnGetConvolutionForwardAlgorithmMaxCount(handle_, n); },
          [&](int n, int* found, cudnnConvolutionFwdAlgoPerf_t* perf) {
            return cudnnFindConvolutionForwardAlgorithmEx(handle_, x_desc_, a, w_desc_, b, conv_desc_, y_desc_, d, n,
                                                          found, perf, ws.get(), ws.bytes());
          },
          ranked);
    case ConvKind::dgrad:
      return rank_with<cudnnConvolutionBwdDataAlgoPerf_t>(
          [&](int* n) { return cudnnGetConvolutionBackwardDataAlgorithmMaxCount(handle_, n); },
          [&](int n, int* found, cudnnConvolutionBwdDataAlgoPerf_t* perf) {
            return cudnnFindConvolutionBackwardDataAlgorithmEx(handle_, w_desc_, b, y_desc_, a, conv_desc_, x_desc_, d,
                                                               n, found, perf, ws.get(), ws.bytes());
          },
          ranked);
    case ConvKind::wgrad:
      return rank_with<cudnnConvolutionBwdFilterAlgoPerf_t>(
          [&](int* n) { return cudnnGetConvolutionBackwardFilterAlgorithmMaxCount(handle_, n); },
          [&](int n, int* found, cudnnConvolutionBwdFilterAlgoPerf_t* perf) {
            return cudnnFindConvolutionBackwardFilterAlgorithmEx(handle_, x_desc_, b, y_desc_, a, conv_desc_, w_desc_,
                                                                 d, n, found, perf, ws.get(), ws.bytes());
          },
          ranked);
  }
  return CUDNN_STATUS_BAD_PARAM;
}

bool CudnnConvBaseline::plan(const ProblemDesc& p, MathMode math, const ConvShape& s, const void* a, const void* b) {
  std::optional<CudnnTypes> types = cudnn_types(p.a.dtype);
  if (!types || p.b.dtype != p.a.dtype) {
    why_not_ = fmt::format("cuDNN's convolution has no {} x {} operands", dtype_name(p.a.dtype), dtype_name(p.b.dtype));
    return false;
  }
  if (kind_ != ConvKind::fprop && types->out != types->data) {
    why_not_ = fmt::format("cuDNN's {} has no {} operands (its output would be {})", conv_kind_name(kind_),
                           dtype_name(p.a.dtype), dtype_name(types->out_dtype));
    return false;
  }
  double_scaling_ = types->data == CUDNN_DATA_DOUBLE;
  out_dtype_ = types->out_dtype;
  Precision prec = precision(p.a.dtype, math);
  int64_t images = images_per_launch(s);
  launches_ = s.n / images;
  if (!describe(p, s, images, prec.search)) return false;

  // The benchmark, with as much workspace as PyTorch's default allows itself: a quarter of free memory, at most 4 GiB.
  size_t free_bytes = 0, total_bytes = 0;
  CUDA_OK(cudaMemGetInfo(&free_bytes, &total_bytes));
  DeviceBuffer search_ws;
  try {
    search_ws = DeviceBuffer(std::min<size_t>(free_bytes / 4, size_t(4) << 30));
  } catch (const CudaError&) {
    (void)cudaGetLastError();  // a refused allocation must not surface at a later launch check; search without
  }
  // Twice, keeping the second ranking: the first run of each kernel in the process also loads its module (CUDA
  // loads modules lazily), which can make the first benchmark rank a 10x slower algorithm first.
  std::vector<Ranked> ranked;
  for (int pass = 0; pass < 2; ++pass)
    if (!ok(rank(a, b, search_ws, ranked), calls(kind_).rank)) return false;
  auto fastest = std::find_if(ranked.begin(), ranked.end(), [&](const Ranked& r) {
    return r.status == CUDNN_STATUS_SUCCESS && prec.keeps(r.math_type) && r.memory <= search_ws.bytes();
  });
  if (fastest == ranked.end()) {
    why_not_ = fmt::format("cuDNN has no {} algorithm for {} at {} precision ({} tried)", conv_kind_name(kind_),
                           dtype_name(p.a.dtype), prec.exact_f32 ? "exact f32" : "tensor-op", ranked.size());
    return false;
  }
  search_ws = DeviceBuffer();
  algo_ = fastest->algo;
  workspace_ = DeviceBuffer(fastest->memory);
  // The math type travels with the algorithm: cuDNN reads both to pick its kernel (as PyTorch sets it).
  if (!ok(cudnnSetConvolutionMathType(conv_desc_, fastest->math_type), "the algorithm's math type")) return false;

  size_t version = cudnnGetVersion();
  fused_ = p.chain.count <= 1;  // the store alone
  description_ = fmt::format("cuDNN {}.{} {} {} {} {} {} {}, ws {} MiB", version / 10000, version % 10000 / 100,
                             op_name(p.op), conv_kind_name(kind_),
                             s.dims == 3 ? "NDHWC" : s.dims == 1 ? "NHWC (h=1)" : "NHWC", dtype_name(p.a.dtype),
                             math_word(types->data, fastest->math_type), algo_name(kind_, algo_),
                             (fastest->memory + (1u << 20) - 1) >> 20);
  if (s.groups > 1) description_ += fmt::format(", groups {}", s.groups);
  if (fastest->determinism == CUDNN_NON_DETERMINISTIC) description_ += ", non-deterministic";
  if (math == MathMode::tf32x3 && prec.exact_f32) description_ += " (cuDNN has no 3xTF32: exact f32)";
  if (launches_ > 1)
    description_ += fmt::format(", batch in {} launches of {} (tensors over 2^31 elements, as PyTorch){}", launches_,
                                images, kind_ == ConvKind::wgrad ? ", the filter gradient summed with beta = 1" : "");
  if (types->out_dtype != p.d.dtype)
    description_ +=
        fmt::format("; writes {}, the problem stores {}", dtype_name(types->out_dtype), dtype_name(p.d.dtype));
  if (!fused_) description_ += "; epilogue not fused";
  return true;
}

cudnnStatus_t CudnnConvBaseline::run(const void* a, const void* b, void* d, const void* beta) {
  const float alpha_f = 1.f;
  const double alpha_d = 1.0;
  const void* alpha = double_scaling_ ? static_cast<const void*>(&alpha_d) : &alpha_f;
  void* ws = workspace_.get();
  size_t ws_bytes = workspace_.bytes();
  switch (kind_) {
    case ConvKind::fprop:
      return cudnnConvolutionForward(handle_, alpha, x_desc_, a, w_desc_, b, conv_desc_,
                                     static_cast<cudnnConvolutionFwdAlgo_t>(algo_), ws, ws_bytes, beta, y_desc_, d);
    case ConvKind::dgrad:
      return cudnnConvolutionBackwardData(handle_, alpha, w_desc_, b, y_desc_, a, conv_desc_,
                                          static_cast<cudnnConvolutionBwdDataAlgo_t>(algo_), ws, ws_bytes, beta,
                                          x_desc_, d);
    case ConvKind::wgrad:
      return cudnnConvolutionBackwardFilter(handle_, alpha, x_desc_, b, y_desc_, a, conv_desc_,
                                            static_cast<cudnnConvolutionBwdFilterAlgo_t>(algo_), ws, ws_bytes, beta,
                                            w_desc_, d);
  }
  return CUDNN_STATUS_BAD_PARAM;
}

void CudnnConvBaseline::launch(const void* a, const void* b) {
  const float zero_f = 0.f, one_f = 1.f;
  const double zero_d = 0.0, one_d = 1.0;
  const void* zero = double_scaling_ ? static_cast<const void*>(&zero_d) : &zero_f;
  const void* one = double_scaling_ ? static_cast<const void*>(&one_d) : &one_f;
  for (int64_t i = 0; i < launches_; ++i) {
    size_t part = static_cast<size_t>(i);
    const char* ai = static_cast<const char*>(a) + part * a_step_;
    const char* bi = static_cast<const char*>(b) + part * b_step_;
    char* di = d_.as<char>() + part * d_step_;
    // A filter gradient is the sum over every image: each later part adds to the earlier ones' sum.
    const void* beta = kind_ == ConvKind::wgrad && i > 0 ? one : zero;
    if (cudnnStatus_t st = run(ai, bi, di, beta); st != CUDNN_STATUS_SUCCESS)
      cuda_fail(calls(kind_).run, __FILE__, __LINE__, status_text(st));
  }
}

}  // namespace ucut::worker
