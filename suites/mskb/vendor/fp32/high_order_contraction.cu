// MSKB high_order_contraction, FP32 vendor reference: C[a][b][c] = Σ_x Σ_y A[a][x][b][y] · B[x][c][y] as x_dim
// cuBLAS strided-batched SGEMMs (FP32, no TF32), one per x, batched over a and accumulating into C (beta = 0 for
// the first x, then 1). Per batch, column-major: C[a]ᵀ (c×b) = B[x] (c×y; stored y×c, op T) · A[a][x]ᵀ (y×b); B[x]
// is shared by every batch (stride 0).
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "vendor_util.h"

extern "C" void high_order_contraction_vendor(const float* A, const float* B, float* C, int a_dim, int b_dim,
                                              int c_dim, int x_dim, int y_dim) {
  const float one = 1.0f, zero = 0.0f;
  long long a_stride = (long long)x_dim * b_dim * y_dim, c_stride = (long long)b_dim * c_dim;
  for (int x = 0; x < x_dim; ++x) {
    const float* a = A + (long long)x * b_dim * y_dim;
    const float* b = B + (long long)x * c_dim * y_dim;
    VENDOR_CUBLAS(cublasSgemmStridedBatched(vendor_cublas(), CUBLAS_OP_T, CUBLAS_OP_N, c_dim, b_dim, y_dim, &one, b,
                                            y_dim, 0, a, y_dim, a_stride, x == 0 ? &zero : &one, C, c_dim, c_stride,
                                            a_dim));
  }
  cudaDeviceSynchronize();
}
