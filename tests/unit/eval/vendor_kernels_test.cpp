// tests/unit/eval/vendor_kernels_test.cpp — eval/vendor_kernels.def on kernel names as profilers and CUPTI
// report them: cuBLAS's, cuDNN's, cuFFT's, cuSPARSE's and PyTorch's are found (mangled and demangled); our
// own CUTLASS kernels, the harness's and a candidate's are not.
#include "eval/vendor_kernels.h"

#include <gtest/gtest.h>

namespace ucut {
namespace {

void expect_library(const char* name, MathLibrary library) {
  std::optional<MathLibrary> got = library_of_kernel(name);
  ASSERT_TRUE(got) << name;
  EXPECT_EQ(*got, library) << name;
}

TEST(VendorKernels, CublasKernels) {
  expect_library("nvjet_sm90_hss_320x128_64x3_2x1_v_bz_coopB_TNN", MathLibrary::cublas);
  expect_library("nvjet_tst_128x64_64x8_1x2_h_bz_coopA_TNT", MathLibrary::cublas);
  expect_library(
      "sm90_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_"
      "kernel__5x_"
      "cublas",
      MathLibrary::cublas);
  expect_library(
      "sm80_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x32_stage4_warpsize2x2x1_tensor16x8x16_kernel",
      MathLibrary::cublas);
  expect_library("cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4", MathLibrary::cublas);
  expect_library(
      "cutlass3x_sm90_tensorop_s64x128x16gemm_bf16_bf16_f32_bf16_bf16_128x128x64_1x1x1_0_tnn_align8_"
      "warpspecialized",
      MathLibrary::cublas);
  expect_library("ampere_sgemm_128x64_nn", MathLibrary::cublas);
  expect_library(
      "_Z16gemv2T_kernel_"
      "valIiiffffLi128ELi16ELi4ELi4ELb0ELb0E18cublasGemvParamsExIi30cublasGemvTensorStridedBatchedIKfES3_S1_"
      "IfEfEEvT11_T4_S7_",
      MathLibrary::cublas);
  expect_library(
      "void splitKreduce_kernel<32, 16, int, float, float, float, float, true, false, "
      "false>(cublasSplitKParams<float>, float const*, float const*, float*, float const*, float const*, "
      "float const*, float const*, float*, void*, long, float*, int*)",
      MathLibrary::cublas);
  expect_library(
      "_Z16gemmSN_TN_kernelIfLi128ELi16ELi2ELi4ELi4ELi4ELb1E30cublasGemvTensorStridedBatchedIKfES2_S0_IfEEvv",
      MathLibrary::cublas);
}

TEST(VendorKernels, CublasLtIsFoundAsCublas) {
  // cuBLASLt launches the same kernel families; the kernel name cannot tell the two apart, and need not.
  expect_library("nvjet_sm90_tst_256x128_64x4_2x1_v_bz_coopA_bias_TNT", MathLibrary::cublas);
}

TEST(VendorKernels, CudnnKernels) {
  expect_library(
      "void cudnn::detail::implicit_convolve_sgemm<float, float, 512, 6, 8, 3, 3, 5, 1, true, false, "
      "true>(int, int, "
      "int, float const*, int, float*, float const*, kernel_conv_params, unsigned long long, int, float, "
      "float, int, "
      "float const*, float const*, bool, int, int)",
      MathLibrary::cudnn);
  expect_library(
      "_ZN5cudnn6detail23implicit_convolve_sgemmIffLi512ELi6ELi8ELi3ELi3ELi5ELi1ELb1ELb0ELb1EEEviiiPKT_iPT0_",
      MathLibrary::cudnn);
  expect_library("volta_scudnn_128x128_stridedB_splitK_xregs_large_nn_v1", MathLibrary::cudnn);
  expect_library(
      "sm80_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize128x128x16_stage4_"
      "warpsize2x2x1_g1_tensor16x8x8_kernel",
      MathLibrary::cudnn);
  expect_library("sm90_xmma_dgrad_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_nhwc_tilesize128x128x64",
                 MathLibrary::cudnn);
}

TEST(VendorKernels, CufftCusparseAndPytorchKernels) {
  expect_library(
      "void regular_fft_r2c<512u, EPT<8u>, 1u, 64u, 1u, (padding_t)1, (twiddle_t)0>(float*, float const*)",
      MathLibrary::cufft);
  expect_library(
      "void DSE::vector_fft<0, 1, 256, 16, 16, 1, __half, float, float2>(float2*, float2, int, int3, "
      "float2*)",
      MathLibrary::cufft);
  expect_library("_ZN8cusparse15csrmv_v3_kernelILi128EiifffEEvNS_18KernelCoeffsExtP2IT3_EEPKT1_PKT0_S8_",
                 MathLibrary::cusparse);
  expect_library(
      "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
      "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, at::detail::Array<char*, 1>)",
      MathLibrary::torch);
  expect_library(
      "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctorIfEENS_6detail5ArrayIPcLi1EEEEEviT0_"
      "T1_",
      MathLibrary::torch);
}

TEST(VendorKernels, OurOwnAndTheHarnessKernelsAreNot) {
  for (const char* name :
       {// our emitted CUTLASS kernels, mangled as CUPTI records them and demangled
        "_ZN7cutlass13device_kernelIN49_GLOBAL__N__a1b2c3d4_15_kernel_cu_7b7a1d7e17GemmKernelEEEvNT_6ParamsE",
        "void cutlass::device_kernel<cutlass::gemm::kernel::GemmUniversal<cute::tuple<int, int, int, int>, "
        "cutlass::gemm::collective::CollectiveMma<cutlass::gemm::MainloopSm90TmaGmmaWarpSpecialized<4, "
        "cute::tuple<cute::C<2>, cute::C<1>, cute::C<1> >, "
        "cutlass::gemm::KernelTmaWarpSpecializedCooperative> > > "
        ">(cutlass::gemm::kernel::GemmUniversal::Params)",
        "_ZN7cutlass6KernelINS_4gemm6kernel13GemmUniversalEEEvNT_6ParamsE",
        // the harness's (eval/worker/device_ops.cu) and a planted fixture's
        "_ZN4ucut6worker12_GLOBAL__N_112empty_kernelEv", "fill_value_kernel", "planted_naive_gemm",
        "_Z18planted_naive_gemmPK13__nv_bfloat16S1_PS_lllll",
        // a candidate's own kernels, named after what they do
        "gemm_bf16_tn_kernel", "my_fft_butterfly", "sgemm_tiled"})
    EXPECT_FALSE(library_of_kernel(name)) << name;
}

TEST(VendorKernels, NotedOnceEachUpToTheLimit) {
  std::vector<std::string> found;
  note_vendor_kernel("nvjet_sm90_tst_128x256_64x4_2x1_v_bz_coopA_NNT", found, 2);
  note_vendor_kernel("nvjet_sm90_tst_128x256_64x4_2x1_v_bz_coopA_NNT", found, 2);  // again: not repeated
  note_vendor_kernel("void cutlass::device_kernel<Gemm>(Gemm::Params)", found, 2);  // ours: never noted
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].rfind("cuBLAS: nvjet_", 0), 0u) << found[0];
  note_vendor_kernel("sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n_tilesize128x128x32", found, 2);
  note_vendor_kernel("regular_fft_factor_kernel", found, 2);  // over the limit
  EXPECT_EQ(found.size(), 2u);
}

}  // namespace
}  // namespace ucut
