// MSKB FFT, FP32 naive baseline: radix-2 decimation in time like MSKB's — a bit-reversal kernel copies the input into
// the outputs, then log2(N) butterfly kernels (one thread per butterfly, a sync after each) work in place there.
// Unlike MSKB's, it takes device pointers and computes the bit reversal and twiddles on the device instead of
// allocating and uploading tables on every call.
#include <cuda_runtime.h>

__global__ void fft_bit_reverse_kernel(const float* in_re, const float* in_im, float* out_re, float* out_im, int N,
                                       int log_n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  int src = log_n ? int(__brev(unsigned(i)) >> (32 - log_n)) : 0;
  out_re[i] = in_re[src];
  out_im[i] = in_im[src];
}

// Stage s merges pairs of 2^(s-1)-point transforms: x1 ± w·x2 with w = e^(−2πi·pair/2^s).
__global__ void fft_butterfly_kernel(float* re, float* im, int N, int stage) {
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

extern "C" void FFT(const float* input_real, const float* input_img, float* output_real, float* output_img, int N) {
  int log_n = 0;
  while ((1 << log_n) < N) ++log_n;
  int threads = 256;
  fft_bit_reverse_kernel<<<(N + threads - 1) / threads, threads>>>(input_real, input_img, output_real, output_img, N,
                                                                    log_n);
  cudaDeviceSynchronize();
  for (int stage = 1; stage <= log_n; ++stage) {
    fft_butterfly_kernel<<<(N / 2 + threads - 1) / threads, threads>>>(output_real, output_img, N, stage);
    cudaDeviceSynchronize();
  }
}
