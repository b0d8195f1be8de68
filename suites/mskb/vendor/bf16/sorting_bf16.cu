// MSKB sorting, BF16 vendor reference: CUB DeviceRadixSort::SortKeys (BF16 keys) on a DoubleBuffer of the data and a
// scratch array; when the passes end in the scratch array, a device-to-device copy brings the keys back. Scratch and
// temporary storage share one request of the vendor workspace.
#include <cub/device/device_radix_sort.cuh>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "vendor_util.h"

extern "C" void sorting_bf16_vendor(__nv_bfloat16* data, int N) {
  size_t keys = (size_t(N) * sizeof(__nv_bfloat16) + 255) / 256 * 256;
  cub::DoubleBuffer<__nv_bfloat16> buffers(data, nullptr);
  size_t bytes = 0;
  VENDOR_CUDA(cub::DeviceRadixSort::SortKeys(nullptr, bytes, buffers, N));
  char* workspace = static_cast<char*>(vendor_workspace(keys + bytes));
  buffers = cub::DoubleBuffer<__nv_bfloat16>(data, reinterpret_cast<__nv_bfloat16*>(workspace));
  VENDOR_CUDA(cub::DeviceRadixSort::SortKeys(workspace + keys, bytes, buffers, N));
  if (buffers.Current() != data)
    VENDOR_CUDA(cudaMemcpyAsync(data, buffers.Current(), size_t(N) * sizeof(__nv_bfloat16), cudaMemcpyDeviceToDevice,
                                0));
  cudaDeviceSynchronize();
}
