// MSKB FFT, BF16 vendor reference: cuFFT cufftExecC2C in FP32 (forward, unnormalized, in place) with a plan made once
// per N, rather than cuFFT's BF16 transforms (cufftXt with CUDA_C_16BF), so the result keeps FP32 accuracy up to
// its final rounding to BF16. Glue: one kernel widens the separate BF16 real and imaginary inputs into
// interleaved FP32 complex numbers in the shared vendor workspace, another rounds the transform into the two outputs.
#include <cufft.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <map>

#include "vendor_util.h"

__global__ void FFT_bf16_vendor_interleave_kernel(const __nv_bfloat16* re, const __nv_bfloat16* im, cufftComplex* z,
                                                  int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) z[i] = make_cuComplex(__bfloat162float(re[i]), __bfloat162float(im[i]));
}

__global__ void FFT_bf16_vendor_split_kernel(const cufftComplex* z, __nv_bfloat16* re, __nv_bfloat16* im, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  re[i] = __float2bfloat16(z[i].x);
  im[i] = __float2bfloat16(z[i].y);
}

static cufftHandle FFT_bf16_vendor_plan(int N) {
  static std::map<int, cufftHandle> plans;
  auto it = plans.find(N);
  if (it == plans.end()) {
    cufftHandle plan;
    VENDOR_CUFFT(cufftPlan1d(&plan, N, CUFFT_C2C, 1));
    it = plans.emplace(N, plan).first;
  }
  return it->second;
}

extern "C" void FFT_bf16_vendor(const __nv_bfloat16* input_real, const __nv_bfloat16* input_img,
                                __nv_bfloat16* output_real, __nv_bfloat16* output_img, int N) {
  cufftHandle plan = FFT_bf16_vendor_plan(N);
  auto* z = static_cast<cufftComplex*>(vendor_workspace(size_t(N) * sizeof(cufftComplex)));
  int threads = 256, blocks = (N + threads - 1) / threads;
  FFT_bf16_vendor_interleave_kernel<<<blocks, threads>>>(input_real, input_img, z, N);
  VENDOR_CUFFT(cufftExecC2C(plan, z, z, CUFFT_FORWARD));
  FFT_bf16_vendor_split_kernel<<<blocks, threads>>>(z, output_real, output_img, N);
  cudaDeviceSynchronize();
}
