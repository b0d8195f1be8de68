// MSKB matrix_vector_mul, BF16 naive baseline: one thread per row, y = A (M×N, row-major) · x; FP32 accumulation.
#include <cstdint>

#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void matrix_vector_mul_bf16_kernel(const __nv_bfloat16* A, const __nv_bfloat16* x, __nv_bfloat16* y,
                                              int M, int N) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M) return;
  const __nv_bfloat16* a = A + int64_t(row) * N;
  float sum = 0.0f;
  for (int col = 0; col < N; ++col) sum += __bfloat162float(a[col]) * __bfloat162float(x[col]);
  y[row] = __float2bfloat16(sum);
}

extern "C" void matrix_vector_mul_bf16(const __nv_bfloat16* A, const __nv_bfloat16* x, __nv_bfloat16* y, int M,
                                       int N) {
  int threads = 256;
  matrix_vector_mul_bf16_kernel<<<(M + threads - 1) / threads, threads>>>(A, x, y, M, N);
  cudaDeviceSynchronize();
}
