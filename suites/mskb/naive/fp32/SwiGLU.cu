// MSKB SwiGLU, FP32 naive baseline: output = swish_β(gate)·value, one thread per element. (MSKB's own baseline
// launches ceil(N/256) blocks that each loop over all N elements, repeating the work ~N/256 times; we do not copy
// that, so speedups over our naive are not inflated by it.)
#include <cuda_runtime.h>

__global__ void SwiGLU_kernel(float* output, const float* gate_input, const float* value_input, float beta, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    float g = gate_input[i];
    output[i] = g * (1.0f / (1.0f + expf(-beta * g))) * value_input[i];
  }
}

extern "C" void SwiGLU(float* output, const float* gate_input, const float* value_input, float beta, int N) {
  int threads = 256;
  SwiGLU_kernel<<<(N + threads - 1) / threads, threads>>>(output, gate_input, value_input, beta, N);
  cudaDeviceSynchronize();
}
