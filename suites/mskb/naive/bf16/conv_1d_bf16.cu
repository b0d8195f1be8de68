// MSKB conv_1d, BF16 naive baseline: one thread per output of the valid cross-correlation, a serial FP32 sum over the
// kernel taps.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void conv_1d_bf16_kernel(const __nv_bfloat16* input, const __nv_bfloat16* kernel, __nv_bfloat16* output,
                                    int input_size, int kernel_size) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= input_size - kernel_size + 1) return;
  float sum = 0.0f;
  for (int m = 0; m < kernel_size; ++m) sum += __bfloat162float(input[i + m]) * __bfloat162float(kernel[m]);
  output[i] = __float2bfloat16(sum);
}

extern "C" void conv_1d_bf16(const __nv_bfloat16* input, const __nv_bfloat16* kernel, __nv_bfloat16* output,
                             int input_size, int kernel_size) {
  int outputs = input_size - kernel_size + 1;
  int threads = 256;
  conv_1d_bf16_kernel<<<(outputs + threads - 1) / threads, threads>>>(input, kernel, output, input_size, kernel_size);
  cudaDeviceSynchronize();
}
