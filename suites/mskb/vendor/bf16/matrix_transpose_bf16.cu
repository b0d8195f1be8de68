// MSKB matrix_transpose, BF16 vendor reference: cuBLAS has no BF16 geam, so cublasLtMatrixTransform (FP32 scale,
// BF16 data) with op(A) = Aᵀ. Row-major A (M×N) is column-major N×M (ld N); row-major B (N×M) is column-major
// M×N (ld M). The transform descriptor is made once; the layouts, which depend on the size, on every call.
#include <cublasLt.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "vendor_util.h"

namespace {

cublasLtMatrixTransformDesc_t transpose_desc() {
  static cublasLtMatrixTransformDesc_t desc = [] {
    cublasLtMatrixTransformDesc_t made = nullptr;
    VENDOR_CUBLAS(cublasLtMatrixTransformDescCreate(&made, CUDA_R_32F));
    cublasOperation_t op = CUBLAS_OP_T;
    VENDOR_CUBLAS(
        cublasLtMatrixTransformDescSetAttribute(made, CUBLASLT_MATRIX_TRANSFORM_DESC_TRANSA, &op, sizeof(op)));
    return made;
  }();
  return desc;
}

}  // namespace

extern "C" void matrix_transpose_bf16_vendor(const __nv_bfloat16* A, __nv_bfloat16* B, int M, int N) {
  const float one = 1.0f, zero = 0.0f;
  cublasLtMatrixLayout_t a_layout = nullptr, b_layout = nullptr;
  VENDOR_CUBLAS(cublasLtMatrixLayoutCreate(&a_layout, CUDA_R_16BF, N, M, N));
  VENDOR_CUBLAS(cublasLtMatrixLayoutCreate(&b_layout, CUDA_R_16BF, M, N, M));
  VENDOR_CUBLAS(cublasLtMatrixTransform(vendor_cublaslt(), transpose_desc(), &one, A, a_layout, &zero, nullptr,
                                        nullptr, B, b_layout, 0));
  VENDOR_CUBLAS(cublasLtMatrixLayoutDestroy(a_layout));
  VENDOR_CUBLAS(cublasLtMatrixLayoutDestroy(b_layout));
  cudaDeviceSynchronize();
}
