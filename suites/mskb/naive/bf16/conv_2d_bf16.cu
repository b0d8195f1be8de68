// MSKB conv_2d, BF16 naive baseline: one thread per output of the valid 2D cross-correlation (16×16 blocks, x over
// columns), a serial FP32 sum over the kernel window.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void conv_2d_bf16_kernel(const __nv_bfloat16* input, const __nv_bfloat16* kernel, __nv_bfloat16* output,
                                    int input_rows, int input_cols, int kernel_rows, int kernel_cols) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int out_rows = input_rows - kernel_rows + 1, out_cols = input_cols - kernel_cols + 1;
  if (row >= out_rows || col >= out_cols) return;
  float sum = 0.0f;
  for (int m = 0; m < kernel_rows; ++m)
    for (int n = 0; n < kernel_cols; ++n)
      sum += __bfloat162float(input[size_t(row + m) * input_cols + col + n]) *
             __bfloat162float(kernel[m * kernel_cols + n]);
  output[size_t(row) * out_cols + col] = __float2bfloat16(sum);
}

extern "C" void conv_2d_bf16(const __nv_bfloat16* input, const __nv_bfloat16* kernel, __nv_bfloat16* output,
                             int input_rows, int input_cols, int kernel_rows, int kernel_cols) {
  int out_rows = input_rows - kernel_rows + 1, out_cols = input_cols - kernel_cols + 1;
  dim3 block(16, 16);
  dim3 grid((out_cols + block.x - 1) / block.x, (out_rows + block.y - 1) / block.y);
  conv_2d_bf16_kernel<<<grid, block>>>(input, kernel, output, input_rows, input_cols, kernel_rows, kernel_cols);
  cudaDeviceSynchronize();
}
