// MSKB sorting, BF16 naive baseline: MSKB's bottom-up merge sort — per run width, one thread serially merges each
// pair of runs. As in MSKB's baseline every width runs two merge kernels (scratch → data, then data → scratch, the
// second re-merging runs already merged) with a sync after each, and the result is copied back from the scratch
// buffer; the scratch buffer is allocated once (grown) instead of on every call.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void sorting_bf16_merge_kernel(const __nv_bfloat16* src, __nv_bfloat16* dst, int N, int width) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int start = t * 2 * width;
  if (start >= N) return;
  int mid = min(start + width, N), end = min(start + 2 * width, N);
  if (mid >= end) return;  // a lone run, as MSKB leaves it: the other buffer already holds it
  int i = start, j = mid, k = start;
  while (i < mid && j < end)
    dst[k++] = __bfloat162float(src[i]) <= __bfloat162float(src[j]) ? src[i++] : src[j++];
  while (i < mid) dst[k++] = src[i++];
  while (j < end) dst[k++] = src[j++];
}

static __nv_bfloat16* sorting_bf16_scratch(int N) {
  static __nv_bfloat16* scratch = nullptr;
  static int capacity = 0;
  if (N > capacity) {
    cudaFree(scratch);
    cudaMalloc(&scratch, size_t(N) * sizeof(__nv_bfloat16));
    capacity = N;
  }
  return scratch;
}

extern "C" void sorting_bf16(__nv_bfloat16* data, int N) {
  __nv_bfloat16* scratch = sorting_bf16_scratch(N);
  size_t bytes = size_t(N) * sizeof(__nv_bfloat16);
  cudaMemcpy(scratch, data, bytes, cudaMemcpyDeviceToDevice);
  int threads = 256;
  for (int width = 1; width < N; width *= 2) {
    int pairs = (N + 2 * width - 1) / (2 * width);
    int blocks = (pairs + threads - 1) / threads;
    sorting_bf16_merge_kernel<<<blocks, threads>>>(scratch, data, N, width);
    cudaDeviceSynchronize();
    sorting_bf16_merge_kernel<<<blocks, threads>>>(data, scratch, N, width);
    cudaDeviceSynchronize();
  }
  cudaMemcpy(data, scratch, bytes, cudaMemcpyDeviceToDevice);
  cudaDeviceSynchronize();
}
