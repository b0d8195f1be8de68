// MSKB FFT, BF16 naive baseline: radix-2 decimation in time like MSKB's — a bit-reversal kernel widens the input into
// FP32 work arrays, log2(N) butterfly kernels (one thread per butterfly, a sync after each) work in place there in
// FP32, and a last kernel rounds to the BF16 outputs. Unlike MSKB's, which keeps every stage in BF16, allocates and
// uploads tables on every call and takes host pointers, it keeps FP32 between stages in work arrays allocated once
// (grown) and computes the bit reversal and twiddles on the device.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void fft_bf16_bit_reverse_kernel(const __nv_bfloat16* in_re, const __nv_bfloat16* in_im, float* re,
                                            float* im, int N, int log_n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  int src = log_n ? int(__brev(unsigned(i)) >> (32 - log_n)) : 0;
  re[i] = __bfloat162float(in_re[src]);
  im[i] = __bfloat162float(in_im[src]);
}

// Stage s merges pairs of 2^(s-1)-point transforms: x1 ± w·x2 with w = e^(−2πi·pair/2^s).
__global__ void fft_bf16_butterfly_kernel(float* re, float* im, int N, int stage) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= N / 2) return;
  int half = 1 << (stage - 1);
  int pair = t & (half - 1);
  int i1 = (t >> (stage - 1)) * 2 * half + pair, i2 = i1 + half;
  float w_im, w_re;
  sincospif(-float(pair) / float(half), &w_im, &w_re);
  float y_re = w_re * re[i2] - w_im * im[i2];
  float y_im = w_re * im[i2] + w_im * re[i2];
  float x_re = re[i1], x_im = im[i1];
  re[i1] = x_re + y_re;
  im[i1] = x_im + y_im;
  re[i2] = x_re - y_re;
  im[i2] = x_im - y_im;
}

__global__ void fft_bf16_store_kernel(const float* re, const float* im, __nv_bfloat16* out_re, __nv_bfloat16* out_im,
                                      int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  out_re[i] = __float2bfloat16(re[i]);
  out_im[i] = __float2bfloat16(im[i]);
}

// Two FP32 arrays of N, kept between calls and grown when N grows.
static float* fft_bf16_work(int N) {
  static float* work = nullptr;
  static int capacity = 0;
  if (N > capacity) {
    cudaFree(work);
    cudaMalloc(&work, 2 * size_t(N) * sizeof(float));
    capacity = N;
  }
  return work;
}

extern "C" void FFT_bf16(const __nv_bfloat16* input_real, const __nv_bfloat16* input_img, __nv_bfloat16* output_real,
                         __nv_bfloat16* output_img, int N) {
  float* re = fft_bf16_work(N);
  float* im = re + N;
  int log_n = 0;
  while ((1 << log_n) < N) ++log_n;
  int threads = 256, blocks = (N + threads - 1) / threads;
  fft_bf16_bit_reverse_kernel<<<blocks, threads>>>(input_real, input_img, re, im, N, log_n);
  cudaDeviceSynchronize();
  for (int stage = 1; stage <= log_n; ++stage) {
    fft_bf16_butterfly_kernel<<<(N / 2 + threads - 1) / threads, threads>>>(re, im, N, stage);
    cudaDeviceSynchronize();
  }
  fft_bf16_store_kernel<<<blocks, threads>>>(re, im, output_real, output_img, N);
  cudaDeviceSynchronize();
}
