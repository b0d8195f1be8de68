// MSKB reverse_array, BF16 vendor reference: thrust::reverse_copy on the legacy default stream.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <thrust/execution_policy.h>
#include <thrust/reverse.h>

extern "C" void reverse_array_bf16_vendor(__nv_bfloat16* output, __nv_bfloat16* input, int N) {
  thrust::reverse_copy(thrust::cuda::par_nosync.on(0), input, input + N, output);
  cudaDeviceSynchronize();
}
