// MSKB matrix_power, BF16 naive baseline: B = A^P (N×N, row-major) by P-1 naive products B ← B·A, one thread per
// output element, FP32 accumulation and every product rounded to BF16. Like MSKB's baseline it allocates its
// scratch matrix on every call and copies each product back.
#include <cstdint>

#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void matrix_power_mul_bf16_kernel(const __nv_bfloat16* X, const __nv_bfloat16* Y, __nv_bfloat16* Z,
                                             int N) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= N || col >= N) return;
  const __nv_bfloat16* x = X + int64_t(row) * N;
  float sum = 0.0f;
  for (int k = 0; k < N; ++k) sum += __bfloat162float(x[k]) * __bfloat162float(Y[int64_t(k) * N + col]);
  Z[int64_t(row) * N + col] = __float2bfloat16(sum);
}

extern "C" void matrix_power_bf16(const __nv_bfloat16* A, __nv_bfloat16* B, int N, int P) {
  size_t bytes = size_t(N) * N * sizeof(__nv_bfloat16);
  if (P < 2) {
    cudaMemcpy(B, A, bytes, cudaMemcpyDeviceToDevice);
    cudaDeviceSynchronize();
    return;
  }
  __nv_bfloat16* temp = nullptr;
  cudaMalloc(&temp, bytes);
  dim3 block(16, 16);
  dim3 grid((N + block.x - 1) / block.x, (N + block.y - 1) / block.y);
  matrix_power_mul_bf16_kernel<<<grid, block>>>(A, A, B, N);
  for (int i = 2; i < P; ++i) {
    matrix_power_mul_bf16_kernel<<<grid, block>>>(B, A, temp, N);
    cudaMemcpy(B, temp, bytes, cudaMemcpyDeviceToDevice);
  }
  cudaFree(temp);
  cudaDeviceSynchronize();
}
