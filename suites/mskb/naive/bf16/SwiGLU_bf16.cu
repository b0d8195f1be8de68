// MSKB SwiGLU, BF16 naive baseline: output = swish_β(gate)·value, one thread per element. (MSKB's own baseline
// launches ceil(N/256) blocks that each loop over all N elements, repeating the work ~N/256 times; we do not copy
// that, so speedups over our naive are not inflated by it.)
#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void SwiGLU_bf16_kernel(__nv_bfloat16* output, const __nv_bfloat16* gate_input,
                                   const __nv_bfloat16* value_input, float beta, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    float g = __bfloat162float(gate_input[i]);
    float swish = g * (1.0f / (1.0f + expf(-beta * g)));
    output[i] = __float2bfloat16(swish * __bfloat162float(value_input[i]));
  }
}

extern "C" void SwiGLU_bf16(__nv_bfloat16* output, const __nv_bfloat16* gate_input, const __nv_bfloat16* value_input,
                            float beta, int N) {
  int threads = 256;
  SwiGLU_bf16_kernel<<<(N + threads - 1) / threads, threads>>>(output, gate_input, value_input, beta, N);
  cudaDeviceSynchronize();
}
