// MSKB sorting, FP32 vendor reference: CUB DeviceRadixSort::SortKeys on a DoubleBuffer of the data and a scratch
// array; when the passes end in the scratch array, a device-to-device copy brings the keys back. Scratch and
// temporary storage share one request of the vendor workspace.
#include <cub/device/device_radix_sort.cuh>
#include <cuda_runtime.h>

#include "vendor_util.h"

extern "C" void sorting_vendor(float* data, int N) {
  size_t keys = (size_t(N) * sizeof(float) + 255) / 256 * 256;
  cub::DoubleBuffer<float> buffers(data, nullptr);
  size_t bytes = 0;
  VENDOR_CUDA(cub::DeviceRadixSort::SortKeys(nullptr, bytes, buffers, N));
  char* workspace = static_cast<char*>(vendor_workspace(keys + bytes));
  buffers = cub::DoubleBuffer<float>(data, reinterpret_cast<float*>(workspace));
  VENDOR_CUDA(cub::DeviceRadixSort::SortKeys(workspace + keys, bytes, buffers, N));
  if (buffers.Current() != data)
    VENDOR_CUDA(cudaMemcpyAsync(data, buffers.Current(), size_t(N) * sizeof(float), cudaMemcpyDeviceToDevice, 0));
  cudaDeviceSynchronize();
}
