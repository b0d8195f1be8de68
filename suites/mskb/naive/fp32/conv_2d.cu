// MSKB conv_2d, FP32 naive baseline: one thread per output of the valid 2D cross-correlation (16×16 blocks, x over
// columns), a serial loop over the kernel window.
#include <cuda_runtime.h>

__global__ void conv_2d_kernel(const float* input, const float* kernel, float* output, int input_rows, int input_cols,
                               int kernel_rows, int kernel_cols) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int out_rows = input_rows - kernel_rows + 1, out_cols = input_cols - kernel_cols + 1;
  if (row >= out_rows || col >= out_cols) return;
  float sum = 0.0f;
  for (int m = 0; m < kernel_rows; ++m)
    for (int n = 0; n < kernel_cols; ++n)
      sum += input[size_t(row + m) * input_cols + col + n] * kernel[m * kernel_cols + n];
  output[size_t(row) * out_cols + col] = sum;
}

extern "C" void conv_2d(const float* input, const float* kernel, float* output, int input_rows, int input_cols,
                        int kernel_rows, int kernel_cols) {
  int out_rows = input_rows - kernel_rows + 1, out_cols = input_cols - kernel_cols + 1;
  dim3 block(16, 16);
  dim3 grid((out_cols + block.x - 1) / block.x, (out_rows + block.y - 1) / block.y);
  conv_2d_kernel<<<grid, block>>>(input, kernel, output, input_rows, input_cols, kernel_rows, kernel_cols);
  cudaDeviceSynchronize();
}
