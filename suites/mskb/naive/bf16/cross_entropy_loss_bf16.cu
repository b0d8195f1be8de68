// MSKB cross_entropy_loss, BF16 naive baseline as MSKB's (FP32 math, FP32 loss): up to 1024 blocks of 256 threads,
// each thread summing -Y·ln(max(X, 1e-8)) over the Y ≠ 0 classes of its grid stride and adding a nonzero sum to
// *loss atomically. *loss is zeroed first (MSKB's test zeroes it before every call).
#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void cross_entropy_loss_bf16_kernel(float* loss, const __nv_bfloat16* X, const __nv_bfloat16* Y, int C) {
  float sum = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < C; i += blockDim.x * gridDim.x) {
    float y = __bfloat162float(Y[i]);
    if (y != 0.0f) sum -= y * logf(fmaxf(__bfloat162float(X[i]), 1e-8f));
  }
  if (sum != 0.0f) atomicAdd(loss, sum);
}

extern "C" void cross_entropy_loss_bf16(float* loss, const __nv_bfloat16* X, const __nv_bfloat16* Y, const int C) {
  int threads = 256, blocks = (C + threads - 1) / threads;
  cudaMemsetAsync(loss, 0, sizeof(float));
  cross_entropy_loss_bf16_kernel<<<blocks < 1024 ? blocks : 1024, threads>>>(loss, X, Y, C);
  cudaDeviceSynchronize();
}
