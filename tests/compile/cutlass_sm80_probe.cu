// tests/compile/cutlass_sm80_probe.cu — proves the pinned CUTLASS (nvidia-cutlass 4.2.0.0) compiles with this
// nvcc for sm_80 through its 2.x device API, the path the SM70–SM89 backends will emit. Compile only.
#include <cutlass/epilogue/thread/linear_combination_relu.h>
#include <cutlass/gemm/device/gemm.h>

using Gemm = cutlass::gemm::device::Gemm<
    cutlass::bfloat16_t, cutlass::layout::RowMajor, cutlass::bfloat16_t, cutlass::layout::ColumnMajor,
    cutlass::bfloat16_t, cutlass::layout::RowMajor, float, cutlass::arch::OpClassTensorOp, cutlass::arch::Sm80,
    cutlass::gemm::GemmShape<128, 128, 32>, cutlass::gemm::GemmShape<64, 64, 32>, cutlass::gemm::GemmShape<16, 8, 16>,
    cutlass::epilogue::thread::LinearCombinationRelu<cutlass::bfloat16_t, 8, float, float>,
    cutlass::gemm::threadblock::GemmIdentityThreadblockSwizzle<>, 3>;

cutlass::Status run_probe(int m, int n, int k, const cutlass::bfloat16_t* a, const cutlass::bfloat16_t* b,
                          cutlass::bfloat16_t* d, cudaStream_t stream) {
  Gemm gemm;
  typename Gemm::Arguments args({m, n, k}, {a, k}, {b, k}, {d, n}, {d, n}, {1.f, 0.f});
  cutlass::Status s = gemm.can_implement(args);
  return s == cutlass::Status::kSuccess ? gemm(args, nullptr, stream) : s;
}
