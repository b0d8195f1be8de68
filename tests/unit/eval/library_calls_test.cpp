// tests/unit/eval/library_calls_test.cpp — eval/library_calls.h: planted library-calling candidates are flagged;
// honest ones (our emitted kernels, exported ModelNew and MSKB launchers, the naive MSKB launchers) are not.
#include "eval/library_calls.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "../export/export_cases.h"
#include "emit/template_paste.h"
#include "support/files.h"


namespace ucut {
namespace {

namespace fs = std::filesystem;

std::string text_of(const fs::path& p) {
  std::optional<std::string> text = read_file(p.string());
  EXPECT_TRUE(text) << p;
  return text.value_or("");
}

std::vector<std::string> flag_ids(const std::string& text, SourceLanguage lang) {
  std::vector<std::string> ids;
  for (const IntegrityFlag& f : library_call_flags(scan_source(text, lang))) {
    EXPECT_TRUE(disqualifies(f.id));
    ids.push_back(std::string(enum_name(f.id)));
  }
  return ids;
}

using Ids = std::vector<std::string>;

TEST(LibraryCalls, CublasOnlyLauncherIsLibraryOnly) {
  const char* src = R"(#include <cublas_v2.h>
extern "C" void matrix_mul_optimized(const float* A, const float* B, float* C, int M, int N, int K) {
  static cublasHandle_t h; if (!h) cublasCreate(&h);
  const float one = 1, zero = 0;
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, B, N, A, K, &zero, C, N);
}
)";
  EXPECT_EQ(flag_ids(src, SourceLanguage::cpp), Ids{"library_only"});
  SourceScan scan = scan_source(src, SourceLanguage::cpp);
  ASSERT_EQ(scan.main_op_calls.size(), 1u);
  EXPECT_EQ(scan.main_op_calls[0].function, "cublasSgemm");
  EXPECT_EQ(scan.main_op_calls[0].line, 5);
  EXPECT_NE(library_call_flags(scan)[0].reason.find("cublasSgemm (line 5)"), std::string::npos);
}

TEST(LibraryCalls, OwnEpilogueKernelAroundALibraryGemmIsLibraryMainOp) {
  const char* src = R"(
__global__ void relu_kernel(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = fmaxf(x[i], 0.f); }
void run(cublasLtHandle_t lt, float* d, int n) {
  cublasLtMatmul(lt, desc, &alpha, a, la, b, lb, &beta, d, ld, d, ld, nullptr, nullptr, 0, 0);
  relu_kernel<<<(n + 255) / 256, 256>>>(d, n);
}
)";
  EXPECT_EQ(flag_ids(src, SourceLanguage::cpp), Ids{"library_main_op"});
  EXPECT_EQ(scan_source(src, SourceLanguage::cpp).own_device_code, Ids{"__global__ relu_kernel (line 2)"});
}

TEST(LibraryCalls, TorchCppAndCudnnAndCusparseAreLibraries) {
  EXPECT_EQ(flag_ids("torch::Tensor f(torch::Tensor a, torch::Tensor b) { return at::matmul(a, b).relu(); }\n",
                     SourceLanguage::cpp),
            Ids{"library_only"});
  EXPECT_EQ(flag_ids("torch::Tensor f(torch::Tensor a, torch::Tensor b) { return a.mm(b); }\n", SourceLanguage::cpp),
            Ids{"library_only"});
  EXPECT_EQ(flag_ids("void f() { cudnnConvolutionForward(h, &a, xd, x, wd, w, cd, algo, ws, n, &b, yd, y); }\n",
                     SourceLanguage::cpp),
            Ids{"library_only"});
  EXPECT_EQ(flag_ids("void f() { cusparseSpMV(h, op, &a, A, x, &b, y, CUDA_R_32F, alg, buf); }\n", SourceLanguage::cpp),
            Ids{"library_only"});
  EXPECT_EQ(flag_ids("void f() { cufftExecC2C(plan, in, out, CUFFT_FORWARD); }\n", SourceLanguage::cpp),
            Ids{"library_only"});
}

TEST(LibraryCalls, CommentsAndStringsAreNotCalls) {
  const char* src = R"(// Unlike cublasSgemm(...), this kernel does its own tiling.
/* at::matmul(a, b) would be the reference */
__global__ void k(float* y) { y[0] = 1; }
void f() { printf("compare with cublasSgemm( and cudnnConvolutionForward(\n"); k<<<1, 1>>>(nullptr); }
)";
  EXPECT_TRUE(flag_ids(src, SourceLanguage::cpp).empty());
}

TEST(LibraryCalls, PythonModelNewThatCallsTorchIsFlagged) {
  const char* only_torch = R"(import torch
import torch.nn as nn
class ModelNew(nn.Module):
    def forward(self, a, b):
        return torch.matmul(a, b).relu()  # "fused"
)";
  EXPECT_EQ(flag_ids(only_torch, SourceLanguage::python), Ids{"library_only"});
  const char* functional = R"(import torch.nn.functional as F
class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 16, 3)
        self.fc = nn.Linear(16, 4)
    def forward(self, x, w):
        return F.linear(self.conv(x), w)
)";
  SourceScan scan = scan_source(functional, SourceLanguage::python);
  ASSERT_EQ(scan.main_op_calls.size(), 2u);  // self.fc is never called: a parameter holder
  EXPECT_EQ(scan.main_op_calls[0].function, "F.linear");
  EXPECT_EQ(scan.main_op_calls[1].function, "self.conv (nn.Conv2d)");
  EXPECT_EQ(scan.main_op_calls[1].line, 8);
  // The kernel lives in a load_inline string: Python strings are scanned as code, so it counts as its own.
  const char* inline_cuda = R"(cuda_src = """
__global__ void relu(float* x) {}
torch::Tensor run(torch::Tensor x) { relu<<<1, 1>>>(x.data_ptr<float>()); return x; }
"""
class ModelNew(nn.Module):
    def forward(self, a, b):
        return ext.run(torch.matmul(a, b))
)";
  EXPECT_EQ(flag_ids(inline_cuda, SourceLanguage::python), Ids{"library_main_op"});
  EXPECT_EQ(language_of("x/ModelNew.py"), SourceLanguage::python);
  EXPECT_EQ(language_of("x/matrix_mul.cu"), SourceLanguage::cpp);
}

TEST(LibraryCalls, HonestSourcesAreNotFlagged) {
  // Every emitted golden kernel (CUTLASS 3.x, 2.x and pipelines), its pasted templates expanded: as emitted.
  int emitted = 0;
  for (const auto& e : fs::recursive_directory_iterator(golden::source_dir() / "tests/golden/emit"))
    if (e.path().extension() == ".cu") {
      TemplateText expanded = expand_templates(text_of(e.path()));
      ASSERT_EQ(expanded.error, "") << e.path();
      const std::string& text = expanded.text;
      SourceScan scan = scan_source(text, SourceLanguage::cpp);
      EXPECT_FALSE(scan.own_device_code.empty()) << e.path();
      // A library call that hands its FFT to cuFFT says so (emit/memory/library.cpp), and the scan flags it.
      if (text.find("// Library call, cufft:") != std::string::npos) {
        EXPECT_FALSE(library_call_flags(scan).empty()) << e.path();
        continue;
      }
      EXPECT_TRUE(library_call_flags(scan).empty()) << e.path() << ": " << library_call_flags(scan)[0].reason;
      ++emitted;
    }
  EXPECT_GT(emitted, 10);
  // The naive MSKB launchers do their own work; the vendor ones for GEMMs, convolutions, sparse products and FFTs call a library.
  int naive = 0;
  for (const char* precision : {"fp32", "bf16"}) {
    for (const auto& e : fs::directory_iterator(golden::source_dir() / "suites/mskb/naive" / precision)) {
      EXPECT_TRUE(flag_ids(text_of(e.path()), SourceLanguage::cpp).empty()) << e.path();
      ++naive;
    }
    for (const auto& e : fs::directory_iterator(golden::source_dir() / "suites/mskb/vendor" / precision)) {
      std::string text = text_of(e.path());
      // Vendor launchers reach the library through shared headers; the scan sees the file with them inlined.
      for (const char* header : {"vendor_util.h", "sparse_vendor.h", "cudnn_correlate.h"})
        if (text.find(std::string("#include \"") + header + "\"") != std::string::npos)
          text += text_of(golden::source_dir() / "suites/mskb/vendor" / header);
      std::string name = e.path().stem().string();
      bool flagged = !library_call_flags(scan_source(text, SourceLanguage::cpp)).empty();
      // GEMM, convolution, sparse and FFT launchers hand their work to a library; CUB-based ones (sorting,
      // scans) and cuBLAS level-1 / cuDNN elementwise ones are not main-operation calls.
      for (const char* main_op : {"matrix_mul", "matrix_power", "conv_2d", "spmv_csr", "spmm_coo", "FFT"})
        if (name.rfind(main_op, 0) == 0) {
          EXPECT_TRUE(flagged) << e.path();
        }
      for (const char* own : {"sorting", "prefix_sum", "RELU"})
        if (name.rfind(own, 0) == 0) {
          EXPECT_FALSE(flagged) << e.path();
        }
    }
  }
  EXPECT_EQ(naive, 100);
  // What we export: a KernelBench ModelNew and an MSKB launcher around an emitted kernel.
  auto problem = golden::load_suite_problem("suites/kernelbench/level2/L2_012_gemm_multiply_leakyrelu.toml");
  ASSERT_TRUE(problem);
  std::string spec = text_of(golden::source_dir() / "bench/kernelbench/impl/L2_012_gemm_multiply_leakyrelu.ucut");
  interop::ExportResult kb = interop::export_kernelbench(SourceFile("L2_012.ucut", spec), *problem);
  ASSERT_TRUE(kb.ok());
  EXPECT_TRUE(flag_ids(kb.files[0].text, SourceLanguage::python).empty());  // its nn.Linear only holds parameters
  std::string gemm = text_of(golden::source_dir() / "bench/mskb/specs/gemm_f32_3xtf32.ucut");
  interop::ExportResult mskb = interop::export_mskb(SourceFile("gemm.ucut", gemm), "matrix_mul");
  ASSERT_TRUE(mskb.ok());
  EXPECT_TRUE(flag_ids(mskb.files[0].text, SourceLanguage::cpp).empty());
  std::string map = text_of(golden::source_dir() / "examples/mskb/gelu_bf16.ucut");  // a map kernel's launcher
  interop::ExportResult map_launcher = interop::export_mskb(SourceFile("gelu_bf16.ucut", map), "gelu_bf16");
  ASSERT_TRUE(map_launcher.ok());
  EXPECT_TRUE(flag_ids(map_launcher.files[0].text, SourceLanguage::cpp).empty());
}

}  // namespace
}  // namespace ucut
