// MSKB softmax_attention, BF16 vendor reference. Head dims up to 4096 exceed cuDNN SDPA / flash-attention limits,
// so it runs unfused: cuBLAS GemmEx S = Q·Kᵀ/√dim_qk (BF16 in, FP32 compute and FP32 S), cuDNN
// cudnnSoftmaxForward over each row of S (a q×kv×1×1 FP32 tensor, channel mode) into P, and cuBLAS GemmEx Y = P·V
// (BF16 in and out, FP32 compute). Glue: one kernel rounds P to BF16 for the second GEMM (cuBLAS cannot mix FP32 P
// with BF16 V; MSKB's baseline stores P in BF16 too). S, P and the BF16 P live in the shared vendor workspace.
#include <cmath>
#include <cstdint>

#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <cudnn.h>

#include "vendor_util.h"

__global__ void softmax_attention_bf16_vendor_round_kernel(const float* in, __nv_bfloat16* out, int64_t n) {
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += int64_t(blockDim.x) * gridDim.x)
    out[i] = __float2bfloat16(in[i]);
}

extern "C" void softmax_attention_bf16_vendor(__nv_bfloat16* Y, const __nv_bfloat16* Q, const __nv_bfloat16* K,
                                              const __nv_bfloat16* V, int q_seq_len, int kv_seq_len, int dim_qk,
                                              int dim_v) {
  static cudnnTensorDescriptor_t rows = [] {
    cudnnTensorDescriptor_t made = nullptr;
    VENDOR_CUDNN(cudnnCreateTensorDescriptor(&made));
    return made;
  }();
  size_t scores = size_t(q_seq_len) * kv_seq_len;
  float* S = static_cast<float*>(vendor_workspace(scores * (2 * sizeof(float) + sizeof(__nv_bfloat16))));
  float* P = S + scores;
  auto* P16 = reinterpret_cast<__nv_bfloat16*>(P + scores);
  const float scale = 1.0f / std::sqrt(float(dim_qk)), one = 1.0f, zero = 0.0f;
  // Row-major S (q×kv) is column-major kv×q = Kᵀ·Q with K, Q column-major dim_qk×kv and dim_qk×q.
  VENDOR_CUBLAS(cublasGemmEx(vendor_cublas(), CUBLAS_OP_T, CUBLAS_OP_N, kv_seq_len, q_seq_len, dim_qk, &scale, K,
                             CUDA_R_16BF, dim_qk, Q, CUDA_R_16BF, dim_qk, &zero, S, CUDA_R_32F, kv_seq_len,
                             CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
  VENDOR_CUDNN(cudnnSetTensor4dDescriptor(rows, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, q_seq_len, kv_seq_len, 1, 1));
  VENDOR_CUDNN(cudnnSoftmaxForward(vendor_cudnn(), CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_CHANNEL, &one, rows, S,
                                   &zero, rows, P));
  softmax_attention_bf16_vendor_round_kernel<<<1024, 256>>>(P, P16, int64_t(scores));
  // Row-major Y (q×dim_v) is column-major dim_v×q = V·P with V, P column-major dim_v×kv and kv×q.
  VENDOR_CUBLAS(cublasGemmEx(vendor_cublas(), CUBLAS_OP_N, CUBLAS_OP_N, dim_v, q_seq_len, kv_seq_len, &one, V,
                             CUDA_R_16BF, dim_v, P16, CUDA_R_16BF, kv_seq_len, &zero, Y, CUDA_R_16BF, dim_v,
                             CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
  cudaDeviceSynchronize();
}
