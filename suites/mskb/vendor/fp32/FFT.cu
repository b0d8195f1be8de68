// MSKB FFT, FP32 vendor reference: cuFFT cufftExecC2C (forward, unnormalized, in place) with a plan made once per N.
// Glue: cuFFT wants interleaved complex numbers, so one kernel interleaves the separate real and imaginary inputs into
// the shared vendor workspace and another splits the transform back into the two outputs.
#include <cufft.h>
#include <cuda_runtime.h>

#include <map>

#include "vendor_util.h"

__global__ void FFT_vendor_interleave_kernel(const float* re, const float* im, cufftComplex* z, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) z[i] = make_cuComplex(re[i], im[i]);
}

__global__ void FFT_vendor_split_kernel(const cufftComplex* z, float* re, float* im, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  re[i] = z[i].x;
  im[i] = z[i].y;
}

static cufftHandle FFT_vendor_plan(int N) {
  static std::map<int, cufftHandle> plans;
  auto it = plans.find(N);
  if (it == plans.end()) {
    cufftHandle plan;
    VENDOR_CUFFT(cufftPlan1d(&plan, N, CUFFT_C2C, 1));
    it = plans.emplace(N, plan).first;
  }
  return it->second;
}

extern "C" void FFT_vendor(const float* input_real, const float* input_img, float* output_real, float* output_img,
                           int N) {
  cufftHandle plan = FFT_vendor_plan(N);
  auto* z = static_cast<cufftComplex*>(vendor_workspace(size_t(N) * sizeof(cufftComplex)));
  int threads = 256, blocks = (N + threads - 1) / threads;
  FFT_vendor_interleave_kernel<<<blocks, threads>>>(input_real, input_img, z, N);
  VENDOR_CUFFT(cufftExecC2C(plan, z, z, CUFFT_FORWARD));
  FFT_vendor_split_kernel<<<blocks, threads>>>(z, output_real, output_img, N);
  cudaDeviceSynchronize();
}
