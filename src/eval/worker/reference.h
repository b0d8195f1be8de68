// eval/worker/reference.h — the independent reference: the GEMM in FP32 on cuBLAS (pedantic math, no
// TF32) or in FP64 on the CPU, then the problem's epilogue chain (ref_chain.h). Never the candidate's code.
#pragma once

#include "eval/worker/cuda_check.h"
#include "eval/worker/ref_chain.h"

namespace ucut::worker {

struct Extents {
  int64_t batch = 1, m = 0, n = 0, k = 0;
  __host__ __device__ int64_t mn() const { return batch * m * n; }
};

/// acc[L,M,N] = A[L,M,K] · B[L,K,N], all row-major float, on the GPU in FP32.
void gemm_reference_gpu(cublasHandle_t h, const float* a, const float* b, float* acc, const Extents& e, cudaStream_t s);

/// The same in FP64 on the GPU (cuBLAS DGEMM on double copies), rounded once to float: the precision probe's
/// reference where the verification's is FP32 (eval/precision.h).
void gemm_reference_gpu_f64(cublasHandle_t h, const float* a, const float* b, float* acc, const Extents& e,
                            cudaStream_t s);

/// The same in FP64 on the CPU (host arrays), on all cores; also Σ|a||b| into `abs_acc` (the error bound's scale).
/// `acc` and `abs_acc` hold e.mn() elements each.
void gemm_reference_cpu(const float* a, const float* b, double* acc, float* abs_acc, const Extents& e);

/// out[i] = eval_chain(acc[i]) on the GPU; `in` holds device pointers.
void apply_chain_gpu(const RefChain& chain, const RefInputs& in, const float* acc, float* out, const Extents& e,
                     cudaStream_t s);

/// The same on the CPU; `in` holds host pointers.
void apply_chain_cpu(const RefChain& chain, const RefInputs& in, const double* acc, float* out, const Extents& e);

}  // namespace ucut::worker
