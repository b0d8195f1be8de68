// MSKB stencil_2d, BF16 naive baseline: one thread per point for the 5-point heat step on the interior (FP32 math),
// then a second kernel copies the boundary from u_old. As in MSKB's baseline, threadIdx.x runs over rows (i).
#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void stencil_2d_bf16_interior_kernel(__nv_bfloat16* u_new, const __nv_bfloat16* u_old, float r, int nx,
                                                int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 1 || i >= nx - 1 || j < 1 || j >= ny - 1) return;
  size_t idx = size_t(i) * ny + j;
  float center = __bfloat162float(u_old[idx]);
  float around = __bfloat162float(u_old[idx - 1]) + __bfloat162float(u_old[idx + 1]) +
                 __bfloat162float(u_old[idx + ny]) + __bfloat162float(u_old[idx - ny]);
  u_new[idx] = __float2bfloat16(center + r * (around - 4.0f * center));
}

__global__ void stencil_2d_bf16_boundary_kernel(__nv_bfloat16* u_new, const __nv_bfloat16* u_old, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= nx || j >= ny) return;
  if (i == 0 || i == nx - 1 || j == 0 || j == ny - 1) u_new[size_t(i) * ny + j] = u_old[size_t(i) * ny + j];
}

extern "C" void stencil_2d_bf16(__nv_bfloat16* u_new, const __nv_bfloat16* u_old, float r, int nx, int ny) {
  dim3 block(16, 16);
  dim3 grid((nx + block.x - 1) / block.x, (ny + block.y - 1) / block.y);
  stencil_2d_bf16_interior_kernel<<<grid, block>>>(u_new, u_old, r, nx, ny);
  stencil_2d_bf16_boundary_kernel<<<grid, block>>>(u_new, u_old, nx, ny);
  cudaDeviceSynchronize();
}
