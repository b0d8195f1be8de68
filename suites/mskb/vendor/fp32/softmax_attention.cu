// MSKB softmax_attention, FP32 vendor reference. Head dims up to 4096 exceed cuDNN SDPA / flash-attention limits,
// so it runs unfused: cuBLAS GemmEx S = Q·Kᵀ/√dim_qk (FP32 compute, no TF32), cuDNN cudnnSoftmaxForward over each
// row of S (a q×kv×1×1 tensor, channel mode) into P, and cuBLAS GemmEx Y = P·V. S and P live in the shared vendor
// workspace. No glue kernels.
#include <cmath>

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cudnn.h>

#include "vendor_util.h"

extern "C" void softmax_attention_vendor(float* Y, const float* Q, const float* K, const float* V, int q_seq_len,
                                         int kv_seq_len, int dim_qk, int dim_v) {
  static cudnnTensorDescriptor_t rows = [] {
    cudnnTensorDescriptor_t made = nullptr;
    VENDOR_CUDNN(cudnnCreateTensorDescriptor(&made));
    return made;
  }();
  size_t scores = size_t(q_seq_len) * kv_seq_len;
  float* S = static_cast<float*>(vendor_workspace(2 * scores * sizeof(float)));
  float* P = S + scores;
  const float scale = 1.0f / std::sqrt(float(dim_qk)), one = 1.0f, zero = 0.0f;
  // Row-major S (q×kv) is column-major kv×q = Kᵀ·Q with K, Q column-major dim_qk×kv and dim_qk×q.
  VENDOR_CUBLAS(cublasGemmEx(vendor_cublas(), CUBLAS_OP_T, CUBLAS_OP_N, kv_seq_len, q_seq_len, dim_qk, &scale, K,
                             CUDA_R_32F, dim_qk, Q, CUDA_R_32F, dim_qk, &zero, S, CUDA_R_32F, kv_seq_len,
                             CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
  VENDOR_CUDNN(cudnnSetTensor4dDescriptor(rows, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, q_seq_len, kv_seq_len, 1, 1));
  VENDOR_CUDNN(cudnnSoftmaxForward(vendor_cudnn(), CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_CHANNEL, &one, rows, S,
                                   &zero, rows, P));
  // Row-major Y (q×dim_v) is column-major dim_v×q = V·P with V, P column-major dim_v×kv and kv×q.
  VENDOR_CUBLAS(cublasGemmEx(vendor_cublas(), CUBLAS_OP_N, CUBLAS_OP_N, dim_v, q_seq_len, kv_seq_len, &one, V,
                             CUDA_R_32F, dim_v, P, CUDA_R_32F, kv_seq_len, &zero, Y, CUDA_R_32F, dim_v,
                             CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
  cudaDeviceSynchronize();
}
