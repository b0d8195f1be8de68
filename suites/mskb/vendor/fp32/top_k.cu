// MSKB top_k, FP32 vendor reference: CUB DeviceRadixSort::SortPairsDescending of (value, index) over the whole input
// — a stable sort, so ties keep the lower index first as in MSKB's baseline — then device-to-device copies of the
// first k values and indices. Glue: a kernel fills the 0..N−1 index array, once per growth of N. Sorted keys, sorted
// indices and temporary storage share one request of the vendor workspace.
#include <cub/device/device_radix_sort.cuh>
#include <cuda_runtime.h>

#include "vendor_util.h"

__global__ void top_k_vendor_iota_kernel(int* index, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) index[i] = i;
}

// 0, 1, …, N−1 on the device, kept between calls and refilled only when N grows.
static const int* top_k_vendor_positions(int N) {
  static int* index = nullptr;
  static int have = 0;
  if (N > have) {
    if (index) VENDOR_CUDA(cudaFree(index));
    VENDOR_CUDA(cudaMalloc(&index, size_t(N) * sizeof(int)));
    top_k_vendor_iota_kernel<<<(N + 255) / 256, 256>>>(index, N);
    have = N;
  }
  return index;
}

static size_t top_k_vendor_aligned(size_t bytes) { return (bytes + 255) / 256 * 256; }

extern "C" void top_k_vendor(float* top_k_values, int* top_k_indices, const float* input, const int N, const int k) {
  const int* positions = top_k_vendor_positions(N);
  size_t keys = top_k_vendor_aligned(size_t(N) * sizeof(float)), values = top_k_vendor_aligned(size_t(N) * sizeof(int));
  size_t bytes = 0;
  VENDOR_CUDA(cub::DeviceRadixSort::SortPairsDescending(nullptr, bytes, input, static_cast<float*>(nullptr),
                                                        positions, static_cast<int*>(nullptr), N));
  char* workspace = static_cast<char*>(vendor_workspace(keys + values + bytes));
  auto* sorted = reinterpret_cast<float*>(workspace);
  auto* order = reinterpret_cast<int*>(workspace + keys);
  VENDOR_CUDA(cub::DeviceRadixSort::SortPairsDescending(workspace + keys + values, bytes, input, sorted, positions,
                                                        order, N));
  VENDOR_CUDA(cudaMemcpyAsync(top_k_values, sorted, size_t(k) * sizeof(float), cudaMemcpyDeviceToDevice, 0));
  VENDOR_CUDA(cudaMemcpyAsync(top_k_indices, order, size_t(k) * sizeof(int), cudaMemcpyDeviceToDevice, 0));
  cudaDeviceSynchronize();
}
