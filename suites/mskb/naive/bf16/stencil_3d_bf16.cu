// MSKB stencil_3d, BF16 naive baseline: one thread per point for the 7-point heat step on the interior (FP32 math),
// then a second kernel copies the boundary from u_old; 4×4×4 blocks with x over i, as MSKB's baseline has them.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void stencil_3d_bf16_interior_kernel(__nv_bfloat16* u_new, const __nv_bfloat16* u_old, float r, int nx,
                                                int ny, int nz) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  int k = blockIdx.z * blockDim.z + threadIdx.z;
  if (i < 1 || i >= nx - 1 || j < 1 || j >= ny - 1 || k < 1 || k >= nz - 1) return;
  size_t plane = size_t(ny) * nz;
  size_t idx = i * plane + size_t(j) * nz + k;
  float center = __bfloat162float(u_old[idx]);
  float around = __bfloat162float(u_old[idx - plane]) + __bfloat162float(u_old[idx + plane]) +
                 __bfloat162float(u_old[idx + nz]) + __bfloat162float(u_old[idx - nz]) +
                 __bfloat162float(u_old[idx + 1]) + __bfloat162float(u_old[idx - 1]);
  u_new[idx] = __float2bfloat16(center + r * (around - 6.0f * center));
}

__global__ void stencil_3d_bf16_boundary_kernel(__nv_bfloat16* u_new, const __nv_bfloat16* u_old, int nx, int ny,
                                                int nz) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  int k = blockIdx.z * blockDim.z + threadIdx.z;
  if (i >= nx || j >= ny || k >= nz) return;
  if (i == 0 || i == nx - 1 || j == 0 || j == ny - 1 || k == 0 || k == nz - 1) {
    size_t idx = (size_t(i) * ny + j) * nz + k;
    u_new[idx] = u_old[idx];
  }
}

extern "C" void stencil_3d_bf16(__nv_bfloat16* u_new, const __nv_bfloat16* u_old, float r, int nx, int ny, int nz) {
  dim3 block(4, 4, 4);
  dim3 grid((nx + block.x - 1) / block.x, (ny + block.y - 1) / block.y, (nz + block.z - 1) / block.z);
  stencil_3d_bf16_interior_kernel<<<grid, block>>>(u_new, u_old, r, nx, ny, nz);
  stencil_3d_bf16_boundary_kernel<<<grid, block>>>(u_new, u_old, nx, ny, nz);
  cudaDeviceSynchronize();
}
