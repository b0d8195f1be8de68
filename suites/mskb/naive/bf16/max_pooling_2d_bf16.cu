// MSKB max_pooling_2d, BF16 naive baseline: one thread per NCHW output (16×16 blocks over the output plane, one
// grid z per (n, c)); the window is clipped to the input, so padding never wins.
#include <cfloat>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void max_pooling_2d_bf16_kernel(const __nv_bfloat16* input, __nv_bfloat16* output, int H, int W,
                                           int out_H, int out_W, int kernel_size, int stride, int padding) {
  int w_out = blockIdx.x * blockDim.x + threadIdx.x;
  int h_out = blockIdx.y * blockDim.y + threadIdx.y;
  if (h_out >= out_H || w_out >= out_W) return;
  const __nv_bfloat16* plane = input + size_t(blockIdx.z) * H * W;
  int h0 = h_out * stride - padding, w0 = w_out * stride - padding;
  float best = -FLT_MAX;
  for (int h = max(h0, 0); h < min(h0 + kernel_size, H); ++h)
    for (int w = max(w0, 0); w < min(w0 + kernel_size, W); ++w)
      best = fmaxf(best, __bfloat162float(plane[size_t(h) * W + w]));
  output[(size_t(blockIdx.z) * out_H + h_out) * out_W + w_out] = __float2bfloat16(best);
}

extern "C" void max_pooling_2d_bf16(const __nv_bfloat16* input, __nv_bfloat16* output, int N, int C, int H, int W,
                                    int kernel_size, int stride, int padding) {
  int out_H = (H + 2 * padding - kernel_size) / stride + 1;
  int out_W = (W + 2 * padding - kernel_size) / stride + 1;
  if (out_H <= 0 || out_W <= 0) return;
  dim3 block(16, 16);
  dim3 grid((out_W + block.x - 1) / block.x, (out_H + block.y - 1) / block.y, N * C);
  max_pooling_2d_bf16_kernel<<<grid, block>>>(input, output, H, W, out_H, out_W, kernel_size, stride, padding);
  cudaDeviceSynchronize();
}
