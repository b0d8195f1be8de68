// MSKB top_k, FP32 naive baseline: MSKB's full merge sort of (value, index) pairs, descending with the lower index
// first on ties — a kernel builds the pairs, then per run width two merge kernels (pairs → scratch → pairs, the
// second re-merging runs already merged) with a sync after each, and a last kernel copies out the first k. The pair
// buffers are allocated once (grown) instead of on every call.
#include <cuda_runtime.h>

struct TopKPair {
  float value;
  int index;
};

__global__ void top_k_init_kernel(TopKPair* pairs, const float* input, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) pairs[i] = {input[i], i};
}

__device__ bool top_k_before(const TopKPair& a, const TopKPair& b) {
  return a.value > b.value || (a.value == b.value && a.index < b.index);
}

__global__ void top_k_merge_kernel(const TopKPair* src, TopKPair* dst, int N, int width) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int start = t * 2 * width;
  if (start >= N) return;
  int mid = min(start + width, N), end = min(start + 2 * width, N);
  if (mid >= end) return;  // a lone run stays in `pairs`, which neither merge of its width moves it out of
  int i = start, j = mid, k = start;
  while (i < mid && j < end) dst[k++] = top_k_before(src[j], src[i]) ? src[j++] : src[i++];
  while (i < mid) dst[k++] = src[i++];
  while (j < end) dst[k++] = src[j++];
}

__global__ void top_k_extract_kernel(const TopKPair* sorted, float* values, int* indices, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= k) return;
  values[i] = sorted[i].value;
  indices[i] = sorted[i].index;
}

// Two pair arrays of N, kept between calls and grown when N grows.
static TopKPair* top_k_pairs(int N) {
  static TopKPair* pairs = nullptr;
  static int capacity = 0;
  if (N > capacity) {
    cudaFree(pairs);
    cudaMalloc(&pairs, 2 * size_t(N) * sizeof(TopKPair));
    capacity = N;
  }
  return pairs;
}

extern "C" void top_k(float* top_k_values, int* top_k_indices, const float* input, const int N, const int k) {
  TopKPair* pairs = top_k_pairs(N);
  TopKPair* scratch = pairs + N;
  int threads = 256;
  top_k_init_kernel<<<(N + threads - 1) / threads, threads>>>(pairs, input, N);
  cudaDeviceSynchronize();
  for (int width = 1; width < N; width *= 2) {
    int runs = (N + 2 * width - 1) / (2 * width);
    int blocks = (runs + threads - 1) / threads;
    top_k_merge_kernel<<<blocks, threads>>>(pairs, scratch, N, width);
    cudaDeviceSynchronize();
    top_k_merge_kernel<<<blocks, threads>>>(scratch, pairs, N, width);
    cudaDeviceSynchronize();
  }
  top_k_extract_kernel<<<(k + threads - 1) / threads, threads>>>(pairs, top_k_values, top_k_indices, k);
  cudaDeviceSynchronize();
}
