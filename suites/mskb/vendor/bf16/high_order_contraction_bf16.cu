// MSKB high_order_contraction, BF16 vendor reference: C[a][b][c] = Σ_x Σ_y A[a][x][b][y] · B[x][c][y] as x_dim
// cublasGemmStridedBatchedEx calls (BF16 A/B, FP32 compute and output), one per x, batched over a and
// accumulating into an FP32 scratch tensor from the shared workspace (beta = 0 for the first x, then 1); a glue
// kernel rounds the sums to BF16 into C. Per batch, column-major: C[a]ᵀ (c×b) = B[x] (c×y; stored y×c, op T) ·
// A[a][x]ᵀ (y×b); B[x] is shared by every batch (stride 0).
#include <cstdint>

#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "vendor_util.h"

__global__ void high_order_contraction_round_kernel(const float* sums, __nv_bfloat16* C, int64_t n) {
  int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) C[i] = __float2bfloat16(sums[i]);
}

extern "C" void high_order_contraction_bf16_vendor(const __nv_bfloat16* A, const __nv_bfloat16* B, __nv_bfloat16* C,
                                                   int a_dim, int b_dim, int c_dim, int x_dim, int y_dim) {
  const float one = 1.0f, zero = 0.0f;
  int64_t n = int64_t(a_dim) * b_dim * c_dim;
  auto* sums = static_cast<float*>(vendor_workspace(size_t(n) * sizeof(float)));
  long long a_stride = (long long)x_dim * b_dim * y_dim, c_stride = (long long)b_dim * c_dim;
  for (int x = 0; x < x_dim; ++x) {
    const __nv_bfloat16* a = A + (long long)x * b_dim * y_dim;
    const __nv_bfloat16* b = B + (long long)x * c_dim * y_dim;
    VENDOR_CUBLAS(cublasGemmStridedBatchedEx(vendor_cublas(), CUBLAS_OP_T, CUBLAS_OP_N, c_dim, b_dim, y_dim, &one, b,
                                             CUDA_R_16BF, y_dim, 0, a, CUDA_R_16BF, y_dim, a_stride,
                                             x == 0 ? &zero : &one, sums, CUDA_R_32F, c_dim, c_stride, a_dim,
                                             CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
  }
  int threads = 256;
  high_order_contraction_round_kernel<<<unsigned((n + threads - 1) / threads), threads>>>(sums, C, n);
  cudaDeviceSynchronize();
}
