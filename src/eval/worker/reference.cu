// eval/worker/reference.cu — reference GEMMs and the reference epilogue.
#include <algorithm>
#include <cmath>
#include <thread>
#include <vector>

#include "eval/worker/device_buffer.h"
#include "eval/worker/device_ops.h"
#include "eval/worker/reference.h"

namespace ucut::worker {
namespace {

__global__ void chain_kernel(RefChain chain, RefInputs in, const float* acc, float* out, Extents e) {
  int64_t total = e.mn();
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < total; i += int64_t(gridDim.x) * blockDim.x) {
    int64_t m = (i / e.n) % e.m, n = i % e.n;
    out[i] = eval_chain(chain, in, acc[i], i, m, n);
  }
}

template <class Fn>
void parallel_rows(int64_t rows, Fn fn) {
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> pool;
  int64_t per = (rows + threads - 1) / threads;
  for (unsigned t = 0; t < threads; ++t) {
    int64_t lo = t * per, hi = std::min(rows, lo + per);
    if (lo >= hi) break;
    pool.emplace_back([=] { fn(lo, hi); });
  }
  for (std::thread& t : pool) t.join();
}

}  // namespace

void gemm_reference_gpu(cublasHandle_t h, const float* a, const float* b, float* acc, const Extents& e, cudaStream_t s) {
  // Row-major C[M,N] = A·B is column-major C^T[N,M] = B^T · A^T: B (row-major K x N) is column-major N x K.
  CUBLAS_OK(cublasSetStream(h, s));
  CUBLAS_OK(cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH));  // true FP32: no TF32, no reduced-precision reductions
  const float one = 1.f, zero = 0.f;
  CUBLAS_OK(cublasGemmStridedBatchedEx(h, CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(e.n), static_cast<int>(e.m),
                                       static_cast<int>(e.k), &one, b, CUDA_R_32F, static_cast<int>(e.n), e.k * e.n, a,
                                       CUDA_R_32F, static_cast<int>(e.k), e.m * e.k, &zero, acc, CUDA_R_32F,
                                       static_cast<int>(e.n), e.m * e.n, static_cast<int>(e.batch), CUBLAS_COMPUTE_32F,
                                       CUBLAS_GEMM_DEFAULT));
}

void gemm_reference_gpu_f64(cublasHandle_t h, const float* a, const float* b, float* acc, const Extents& e,
                            cudaStream_t s) {
  int64_t na = e.batch * e.m * e.k, nb = e.batch * e.k * e.n, nd = e.mn();
  DeviceBuffer a64(sizeof(double) * na), b64(sizeof(double) * nb), d64(sizeof(double) * nd);
  convert(a, DType::f32, a64.get(), DType::f64, na, s);
  convert(b, DType::f32, b64.get(), DType::f64, nb, s);
  CUBLAS_OK(cublasSetStream(h, s));
  CUBLAS_OK(cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH));
  const double one = 1.0, zero = 0.0;  // the same transposition as gemm_reference_gpu's
  CUBLAS_OK(cublasGemmStridedBatchedEx(
      h, CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(e.n), static_cast<int>(e.m), static_cast<int>(e.k), &one,
      b64.get(), CUDA_R_64F, static_cast<int>(e.n), e.k * e.n, a64.get(), CUDA_R_64F, static_cast<int>(e.k),
      e.m * e.k, &zero, d64.get(), CUDA_R_64F, static_cast<int>(e.n), e.m * e.n, static_cast<int>(e.batch),
      CUBLAS_COMPUTE_64F, CUBLAS_GEMM_DEFAULT));
  convert(d64.get(), DType::f64, acc, DType::f32, nd, s);
  CUDA_OK(cudaStreamSynchronize(s));  // the double copies are freed on return
}

void gemm_reference_cpu(const float* a, const float* b, double* acc, float* abs_acc, const Extents& e) {
  parallel_rows(e.batch * e.m, [&](int64_t lo, int64_t hi) {
    std::vector<double> row(static_cast<size_t>(e.n)), abs_row(static_cast<size_t>(e.n));
    for (int64_t r = lo; r < hi; ++r) {
      int64_t batch = r / e.m;
      const float* arow = a + r * e.k;
      const float* bmat = b + batch * e.k * e.n;
      std::fill(row.begin(), row.end(), 0.0);
      std::fill(abs_row.begin(), abs_row.end(), 0.0);
      for (int64_t kk = 0; kk < e.k; ++kk) {
        double av = arow[kk], aa = std::fabs(av);
        const float* brow = bmat + kk * e.n;
        for (int64_t n = 0; n < e.n; ++n) {
          row[n] += av * brow[n];
          abs_row[n] += aa * std::fabs(brow[n]);
        }
      }
      std::copy(row.begin(), row.end(), acc + r * e.n);
      for (int64_t n = 0; n < e.n; ++n) abs_acc[r * e.n + n] = static_cast<float>(abs_row[n]);
    }
  });
}

void apply_chain_gpu(const RefChain& chain, const RefInputs& in, const float* acc, float* out, const Extents& e,
                     cudaStream_t s) {
  int64_t total = e.mn();
  unsigned grid = static_cast<unsigned>(std::min<int64_t>((total + 255) / 256, 132 * 32));
  chain_kernel<<<grid, 256, 0, s>>>(chain, in, acc, out, e);
  CUDA_OK(cudaGetLastError());
}

void apply_chain_cpu(const RefChain& chain, const RefInputs& in, const double* acc, float* out, const Extents& e) {
  parallel_rows(e.batch * e.m, [&](int64_t lo, int64_t hi) {
    for (int64_t r = lo; r < hi; ++r)
      for (int64_t n = 0; n < e.n; ++n) {
        int64_t i = r * e.n + n;
        out[i] = eval_chain(chain, in, acc[i], i, r % e.m, n);
      }
  });
}

}  // namespace ucut::worker
