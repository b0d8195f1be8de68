// tests/unit/export/export_test.cpp — the writers of `ucutlass export`: the torch extension's files (the
// binding's signature, checks and ABI fill; the Python module's loader and function) for GEMMs, batched
// GEMMs, FP8, aux and reduction outputs and convolutions; the KernelBench ModelNew for suite problems
// (modules, glue, the problem's scalars, a negated parameter, an input as the residual); refusals with their
// rule ids; Python string literals; determinism. Refusal locations are the goldens' (golden_export_test.cpp).
#include <gtest/gtest.h>

#include "../suite/suite_text.h"
#include "engine/search/seed_spec.h"
#include "export/python_text.h"
#include "export_cases.h"
#include "suite/lower.h"

namespace ucut::golden {
namespace {

std::string file_text(const interop::ExportResult& r, const std::string& name) {
  for (const interop::ExportedFile& f : r.files)
    if (f.name == name) return f.text;
  ADD_FAILURE() << "no exported file " << name;
  return "";
}

std::string render_diagnostics(const interop::ExportResult& r) {
  std::string out;
  for (const Diagnostic& d : r.comp.diags.diagnostics())
    out += std::string(rule_info(d.rule).code) + " " + d.message + "\n";
  return out;
}

interop::ExportResult torch_export(const std::string& spec) {
  interop::ExportResult r = interop::export_torch(SourceFile("t.ucut", spec));
  EXPECT_TRUE(r.ok()) << render_diagnostics(r);
  return r;
}

void expect_contains(const std::string& text, const std::vector<std::string>& parts) {
  for (const std::string& p : parts) EXPECT_NE(text.find(p), std::string::npos) << "missing: " << p;
}

const char* kMlp = R"(kernel mlp : sm90a
  gemm(A: bf16[M,K] row, B: bf16[K,N] col, acc: f32)
  >> bias(col) >> scale(alpha = 0.5) >> gelu
  >> store(D: bf16[M,N] row)
)";

TEST(ExportTorch, GemmFilesAndSignature) {
  interop::ExportResult r = torch_export(kMlp);
  ASSERT_EQ(r.files.size(), 3u);
  EXPECT_EQ(r.files[0].name, "ucut_mlp_kernel.cu");
  EXPECT_EQ(r.files[0].text, r.comp.kernel->code);  // the kernel exactly as emitted
  std::string cpp = file_text(r, "ucut_mlp_binding.cpp");
  expect_contains(
      cpp, {
               "#include <torch/extension.h>",
               "#define UCUT_ABI_VERSION",  // the ABI header, pasted
               "extern \"C\" const ucut_kernel_api* " + r.comp.kernel->kernel_namespace + "_api(void);",
               "namespace ucut_torch {",  // the helpers
               "at::Tensor ucut_mlp(const at::Tensor& A, const at::Tensor& B, const at::Tensor& bias, double "
               "alpha)",
               "check_tensor(fn_, \"A\", A, at::kBFloat16, \"bf16\", 2, \"[M, K]\");",
               "check_tensor(fn_, \"B\", B, at::kBFloat16, \"bf16\", 2, \"[K, N]\");",
               "check_extent(fn_, \"B\", B, 0, \"K\", k_, \"A's K (dim 1)\");",
               "check_layout(fn_, \"A\", A, Layout::row, \"[M, K]\");",
               "check_layout(fn_, \"B\", B, Layout::col, \"[K, N]\");",
               "check_address(fn_, \"A\", A, 8);",
               "check_multiple(fn_, \"A\", \"K\", k_, 8);",
               "check_multiple(fn_, \"B\", \"K\", k_, 8);",
               "check_vector(fn_, \"bias\", bias, at::kBFloat16, \"bf16\", n_, \"N\", A);",
               "check_multiple(fn_, \"the output D\", \"N\", n_, 8);",
               "const c10::cuda::CUDAGuard guard_(A.device());",
               "at::Tensor D = new_tensor({m_, n_}, Layout::row, at::kBFloat16, A);",
               "args_.a = {A.data_ptr(), k_, m_ * k_};",
               "args_.b = {B.data_ptr(), k_, k_ * n_};",
               "args_.d = {D.data_ptr(), n_, m_ * n_};",
               "args_.vectors[0] = bias.data_ptr();",
               "args_.scalars[0] = static_cast<float>(alpha);",
               "run_kernel(fn_, api_, args_, A);",
               "PYBIND11_MODULE(TORCH_EXTENSION_NAME, module_)",
               "pybind11::kw_only()",
               "pybind11::arg(\"alpha\") = 0.5",
           });
  std::string py = file_text(r, "ucut_mlp.py");
  expect_contains(py, {
                          "def ucut_mlp(A, B, bias, *, alpha=0.5):",
                          "return _ucut_load().ucut_mlp(A, B, bias, alpha=alpha)",
                          "name=\"ucut_mlp_" + r.comp.kernel->config_hash.substr(0, 12) + "\"",
                          "\"ucut_mlp_binding.cpp\"",
                          "\"ucut_mlp_kernel.cu\"",
                          "os.environ.get(\"CUTLASS_DIR\")",
                          "set CUTLASS_DIR",
                          "\"-gencode=arch=compute_90a,code=sm_90a\"",
                          "\"-U__CUDA_NO_HALF_OPERATORS__\"",
                      });
  EXPECT_EQ(py.find("_ucut_ints"), std::string::npos);  // no convolution geometry
}

TEST(ExportTorch, IsDeterministic) {
  interop::ExportResult a = torch_export(kMlp), b = torch_export(kMlp);
  ASSERT_EQ(a.files.size(), b.files.size());
  for (size_t i = 0; i < a.files.size(); ++i) EXPECT_EQ(a.files[i].text, b.files[i].text) << a.files[i].name;
}

TEST(ExportTorch, BatchedResidualAuxAndReduction) {
  interop::ExportResult r = torch_export(R"(kernel blk : sm90a
  batched_gemm(A: f16[L,M,K] row, B: f16[L,K,N] row, acc: f32)
    .with_threadblockshape(128, 128, 64).with_scheduler(tma_cooperative)
  >> residual(C: f16[L,M,N] row, beta = 2) >> aux_store(Z: f16[L,M,N] row) >> relu >> row_sum(R: f32[L,M])
  >> store(D: f16[L,M,N] row)
)");
  std::string cpp = file_text(r, "ucut_blk_binding.cpp");
  expect_contains(
      cpp,
      {
          "std::tuple<at::Tensor, at::Tensor, at::Tensor> ucut_blk(\n    const at::Tensor& A,\n    const "
          "at::Tensor& B,\n    const at::Tensor& C,\n    double beta) {",
          "const int64_t l_ = A.size(0);",
          "const int64_t m_ = A.size(1), k_ = A.size(2), n_ = B.size(2);",
          "check_extent(fn_, \"B\", B, 0, \"L\", l_, \"A's L (dim 0)\");",
          "check_extent(fn_, \"C\", C, 1, \"M\", m_, \"A's M (dim 1)\");",
          "at::Tensor D = new_tensor({l_, m_, n_}, Layout::row, at::kHalf, A);",
          "at::Tensor Z = new_tensor({l_, m_, n_}, Layout::row, at::kHalf, A);",
          "at::Tensor R = new_tensor({l_, m_}, Layout::row, at::kFloat, A);",
          "args_.batch = l_;",
          "args_.c = {C.data_ptr(), n_, m_ * n_};",
          "args_.aux[0] = {Z.data_ptr(), n_, m_ * n_};",
          "args_.aux[1] = {R.data_ptr(), 0, args_.batch > 1 ? m_ : 0};",
          "return {D, Z, R};",
          "pybind11::arg(\"beta\") = 2.0",
      });
  expect_contains(file_text(r, "ucut_blk.py"), {"def ucut_blk(A, B, C, *, beta=2.0):", "Returns a tuple:"});
}

TEST(ExportTorch, Fp8ScalesAreDeviceTensors) {
  interop::ExportResult r = torch_export(R"(kernel f8 : sm90a
  gemm(A: e4m3[M,K] row scaled, B: e4m3[K,N] col scaled, acc: f32)
    .with_threadblockshape(128, 128, 128)
  >> store(D: e4m3[M,N] row scaled)
)");
  expect_contains(
      file_text(r, "ucut_f8_binding.cpp"),
      {
          "    const at::Tensor& scale_A,\n    const at::Tensor& scale_B,\n    const at::Tensor& scale_D) {",
          "check_tensor(fn_, \"A\", A, at::kFloat8_e4m3fn, \"e4m3\", 2, \"[M, K]\");",
          "check_scale(fn_, \"scale_A\", scale_A, A);",
          "args_.scale_d = static_cast<const float*>(scale_D.data_ptr());",
      });
}

TEST(ExportTorch, ConvolutionIsChannelsLastWithGeometry) {
  interop::ExportResult r = torch_export(R"(kernel cv : sm90a
  conv2d(X: f32[N,H,W,C], W: f32[K,R,S,C], acc: f32, math = tf32)
    .with_threadblockshape(128, 64, 32)
  >> bias(col) >> relu
  >> store(Y: f32[N,P,Q,K])
)");
  std::string cpp = file_text(r, "ucut_cv_binding.cpp");
  expect_contains(cpp,
                  {
                      "at::Tensor ucut_cv(\n    const at::Tensor& X,\n    const at::Tensor& W,\n    const "
                      "at::Tensor& bias,\n"
                      "    const std::vector<int64_t>& stride,\n    const std::vector<int64_t>& padding,\n"
                      "    const std::vector<int64_t>& dilation) {",
                      "check_tensor(fn_, \"X\", X, at::kFloat, \"f32\", 4, \"[N, C, H, W]\");",
                      "check_tensor(fn_, \"W\", W, at::kFloat, \"f32\", 4, \"[K, C, R, S]\");",
                      "check_layout(fn_, \"X\", X, Layout::channels_last, \"[N, C, H, W]\");",
                      "const Conv g_ = conv_geometry(fn_, ConvKind::fprop, Grouping::dense, 2, X, W, stride, "
                      "padding, dilation, {});",
                      "check_multiple(fn_, \"X\", \"C / groups\", g_.args.c / g_.args.groups, 4);",
                      "check_vector(fn_, \"bias\", bias, at::kFloat, \"f32\", g_.n, \"K\", X);",
                      "at::Tensor Y = new_tensor(g_.out_sizes, Layout::channels_last, at::kFloat, X);",
                      "args_.conv = g_.args;",
                      "pybind11::arg(\"stride\") = std::vector<int64_t>(2, 1)",
                      "pybind11::arg(\"padding\") = std::vector<int64_t>(2, 0)",
                  });
  expect_contains(file_text(r, "ucut_cv.py"),
                  {
                      "def ucut_cv(X, W, bias, *, stride=1, padding=0, dilation=1):",
                      "stride=_ucut_ints(stride, \"stride\")",
                      "def _ucut_ints(value, name):",
                  });
}

TEST(ExportTorch, TransposedGroupedAndDepthwiseConvolutions) {
  expect_contains(file_text(torch_export(R"(kernel ct : sm90a
  conv_transpose2d(X: f32[N,H,W,C], W: f32[C,R,S,K], acc: f32)
    .with_threadblockshape(128, 64, 32)
  >> store(Y: f32[N,P,Q,K])
)"),
                            "ucut_ct_binding.cpp"),
                  {"conv_geometry(fn_, ConvKind::dgrad, Grouping::dense, 2, X, W, stride, padding, dilation, "
                   "output_padding);",
                   "check_tensor(fn_, \"W\", W, at::kFloat, \"f32\", 4, \"[C, K, R, S]\");",
                   "pybind11::arg(\"output_padding\") = std::vector<int64_t>(2, 0)"});
  expect_contains(file_text(torch_export(R"(kernel gc : sm90a
  grouped_conv2d(X: bf16[N,H,W,C], W: bf16[K,R,S,CG], acc: f32)
    .with_threadblockshape(128, 64, 32)
  >> store(Y: bf16[N,P,Q,K])
)"),
                            "ucut_gc_binding.cpp"),
                  {"Grouping::grouped"});
  std::string dw = file_text(torch_export(R"(kernel dw : sm90a
  depthwise_conv2d(X: f32[N,H,W,C], W: f32[C,3,3,1], acc: f32)
    .with_threadblockshape(64, 64, 9)
  >> store(Y: f32[N,P,Q,C])
)"),
                             "ucut_dw_binding.cpp");
  expect_contains(
      dw, {"Grouping::depthwise", "check_extent(fn_, \"W\", W, 2, \"size\", 3, \"the spec's fixed extent\");",
           "check_extent(fn_, \"W\", W, 1, \"size\", 1, \"the spec's fixed extent\");"});
}

TEST(ExportTorch, PortableTargetsGetTwoGencodeFlags) {
  interop::ExportResult r = torch_export(R"(kernel am : sm80
  gemm(A: f16[M,K] row, B: f16[K,N] col, acc: f32)
  >> store(D: f16[M,N] row)
)");
  expect_contains(
      file_text(r, "ucut_am.py"),
      {"\"-gencode=arch=compute_80,code=sm_80\",\n    \"-gencode=arch=compute_80,code=compute_80\","});
}

TEST(ExportTorch, NamesThatCollideAreRenamed) {
  interop::ExportResult r = torch_export(R"(kernel nm : sm90a
  gemm(A: bf16[M,K] row, B: bf16[K,N] col, acc: f32)
  >> bias(col) >> bias(col) >> scale(in) >> store(D: bf16[M,N] row)
)");
  expect_contains(file_text(r, "ucut_nm.py"), {"def ucut_nm(A, B, bias, bias_2, *, in_=1.0):"});
}

TEST(ExportTorch, RefusalsCarryRuleIdAndHint) {
  interop::ExportResult r = interop::export_torch(SourceFile("g.ucut", R"(kernel g : sm90a
  grouped_gemm(A: bf16[G,M,K] row, B: bf16[G,K,N] col, acc: f32)
  >> store(D: bf16[G,M,N] row)
)"));
  EXPECT_FALSE(r.ok());
  EXPECT_TRUE(r.files.empty());
  ASSERT_EQ(r.comp.diags.diagnostics().size(), 1u);
  const Diagnostic& d = r.comp.diags.diagnostics()[0];
  EXPECT_EQ(rule_info(d.rule).code, "X001");
  EXPECT_NE(d.message.find("device memory"), std::string::npos);
  ASSERT_TRUE(d.hint.has_value());
  // A spec with check errors is refused by its own diagnostics, not X001.
  interop::ExportResult bad = interop::export_torch(SourceFile("b.ucut",
                                                               "kernel b : sm70\n  gemm(A: f16[M,K] row, "
                                                               "B: f16[K,N] col, acc: f32)\n  >> store(D: "
                                                               "f16[M,N] row)\n"));
  EXPECT_FALSE(bad.ok());
  for (const Diagnostic& x : bad.comp.diags.diagnostics()) EXPECT_NE(rule_info(x.rule).code.front(), 'X');
}

interop::ExportResult kb_export(const std::string& problem, const std::string& spec_file) {
  auto checked = load_suite_problem(problem);
  std::string spec = read_text(source_dir() / spec_file);
  if (!checked) return {};
  interop::ExportResult r = interop::export_kernelbench(SourceFile(spec_file, spec), *checked);
  EXPECT_TRUE(r.ok()) << render_diagnostics(r);
  EXPECT_EQ(r.files.size(), 1u);
  return r;
}

TEST(ExportKernelBench, LinearChainUsesTheProblemsScalars) {
  interop::ExportResult r = kb_export("suites/kernelbench/level2/L2_012_gemm_multiply_leakyrelu.toml",
                                      "bench/kernelbench/impl/L2_012_gemm_multiply_leakyrelu.ucut");
  ASSERT_EQ(r.files.size(), 1u);
  EXPECT_EQ(r.files[0].name, "L2_012_gemm_multiply_leakyrelu.py");
  const std::string& py = r.files[0].text;
  expect_contains(
      py, {
              "# Generated by ucutlass",
              "KernelBench level 2 problem 12 (12_Gemm_Multiply_LeakyReLU.py)",
              "from torch.utils.cpp_extension import load_inline",
              "_UCUT_CUDA_SOURCE = \"\"\"",
              "_UCUT_BINDING_SOURCE = \"\"\"",
              "_ucut_extension = load_inline(",
              "no_implicit_headers=True",
              "extra_include_paths=_ucut_cutlass_includes(\"ModelNew (L2_012_gemm_multiply_leakyrelu)\")",
              "class ModelNew(nn.Module):",
              "    def __init__(self, *init_inputs):",
              "        self.linear = nn.Linear(8192, 8192, bias=True)",
              "    def forward(self, x):",
              "        y = _ucut_extension.ucut_k_L2_012_gemm_multiply_leakyrelu(\n"
              "            x.contiguous(),\n"
              "            self.linear.weight.t(),\n"
              "            self.linear.bias,\n"
              "            scale0=2.0)\n"
              "        return y\n",
          });
  EXPECT_EQ(py.find("X005"), std::string::npos);  // 3xTF32 is no precision change
}

TEST(ExportKernelBench, ConvolutionChainCreatesItsParameterAndGlue) {
  interop::ExportResult r = kb_export("suites/kernelbench/level2/L2_001_conv2d_relu_biasadd.toml",
                                      "bench/kernelbench/impl/L2_001_conv2d_relu_biasadd.ucut");
  ASSERT_EQ(r.files.size(), 1u);
  expect_contains(r.files[0].text,
                  {
                      "        self.conv = nn.Conv2d(64, 128, (3, 3), stride=(1, 1), padding=(0, 0), "
                      "dilation=(1, 1), groups=1, "
                      "bias=True)",
                      "        self.param3 = nn.Parameter(torch.randn((128, 1, 1)))  # op 3 (add)",
                      "def _ucut_channels_last(t):",
                      "            _ucut_channels_last(x),\n"
                      "            _ucut_channels_last(self.conv.weight),\n"
                      "            self.conv.bias,\n"
                      "            self.param3.reshape(-1),\n"
                      "            stride=[1, 1],\n"
                      "            padding=[0, 0],\n"
                      "            dilation=[1, 1])\n",
                  });
}

TEST(ExportKernelBench, TransposedOperandIsAView) {
  interop::ExportResult r = kb_export("suites/kernelbench/level1/L1_017_matmul_transposed_b.toml",
                                      "bench/kernelbench/impl/L1_017_matmul_transposed_b.ucut");
  ASSERT_EQ(r.files.size(), 1u);
  expect_contains(r.files[0].text,
                  {"    def forward(self, A, B):", "            A.contiguous(),\n            B.t())\n"});
}

/// The exported source with its comment lines joined, so a sentence can be found wherever the lines wrap.
std::string comment_text(std::string text) {
  for (size_t at = text.find("\n# "); at != std::string::npos; at = text.find("\n# ", at))
    text.replace(at, 3, " ");
  return text;
}

/// `checked` exported with its generated seed spec (engine/search/seed_spec.h) as the kernel.
interop::ExportResult kb_export_seed(const std::optional<suite::Checked>& checked,
                                     const std::string& problem) {
  if (!checked) return {};
  auto lowered = suite::lower_to_problem(*checked);
  if (const auto* why = std::get_if<std::string>(&lowered)) {
    ADD_FAILURE() << problem << " does not lower: " << *why;
    return {};
  }
  auto seed = search::seed_spec(*checked, std::get<Problem>(lowered));
  if (const auto* why = std::get_if<std::string>(&seed)) {
    ADD_FAILURE() << problem << " has no seed: " << *why;
    return {};
  }
  interop::ExportResult r =
      interop::export_kernelbench(SourceFile("seed.ucut", std::get<search::SeedSpec>(seed).spec), *checked);
  EXPECT_TRUE(r.ok()) << render_diagnostics(r);
  EXPECT_EQ(r.files.size(), 1u);
  return r;
}

// A subtracted per-channel parameter is the kernel's bias vector negated; an added input is its residual C,
// channels-last like the convolution's input (suite/lower_chain.h).
TEST(ExportKernelBench, SubtractedParameterIsNegatedAndAddedInputIsTheResidual) {
  const std::string l2_005 = "suites/kernelbench/level2/L2_005_convtranspose2d_subtract_tanh.toml";
  interop::ExportResult sub = kb_export_seed(load_suite_problem(l2_005), l2_005);
  ASSERT_EQ(sub.files.size(), 1u);
  expect_contains(sub.files[0].text,
                  {"        self.param2 = nn.Parameter(torch.randn((64, 1, 1)))  # op 2 (sub)",
                   "            _ucut_channels_last(self.conv_transpose.weight),\n"
                   "            self.conv_transpose.bias,\n"
                   "            (-self.param2).reshape(-1),\n"});
  EXPECT_NE(comment_text(sub.files[0].text).find("(a subtracted one negated: a copy, as the kernel adds it)"),
            std::string::npos);
  const std::string l2_026 = "suites/kernelbench/level2/L2_026_convtranspose3d_add_hardswish.toml";
  interop::ExportResult add = kb_export_seed(load_suite_problem(l2_026), l2_026);
  ASSERT_EQ(add.files.size(), 1u);
  expect_contains(add.files[0].text, {"    def forward(self, x, add_input):",
                                      "            _ucut_channels_last(x),\n"
                                      "            _ucut_channels_last(self.conv_transpose.weight),\n"
                                      "            _ucut_channels_last(add_input),\n"
                                      "            self.conv_transpose.bias,\n"});
  EXPECT_NE(comment_text(add.files[0].text)
                .find("add_input is the residual C, made channels-last like the input (a copy)"),
            std::string::npos);
}

// A matmul by a learned parameter creates it first, as the reference's Model does, and passes it as B.
TEST(ExportKernelBench, MatmulParameterIsCreatedFirstAndIsB) {
  interop::ExportResult r = kb_export_seed(
      suite::test::checked(
          "[[input]]\nname = \"x\"\nshape = [64, 32]\n[[op]]\nop = \"matmul\"\nparam = [48, 32]\n"
          "transpose_other = true\n[[op]]\nop = \"add\"\nparam = [48]\n"),
      "t.toml");
  ASSERT_EQ(r.files.size(), 1u);
  expect_contains(r.files[0].text,
                  {"        self.param1 = nn.Parameter(torch.randn((48, 32)))  # op 1 (matmul)\n"
                   "        self.param2 = nn.Parameter(torch.randn((48,)))  # op 2 (add)\n",
                   "            x.contiguous(),\n"
                   "            self.param1.t(),\n"
                   "            self.param2.reshape(-1))\n"});
}

TEST(ExportKernelBench, PrecisionChangeWarnsAndStillExports) {
  auto checked = load_suite_problem("suites/kernelbench/level1/L1_017_matmul_transposed_b.toml");
  ASSERT_TRUE(checked);
  interop::ExportResult r = interop::export_kernelbench(SourceFile("t.ucut", R"(kernel t : sm90a
  gemm(A: f32[M,K] row, B: f32[K,N] col, acc: f32, math = tf32)
  >> store(D: f32[M,N] row)
)"),
                                                        *checked);
  EXPECT_TRUE(r.ok());
  ASSERT_EQ(r.comp.diags.diagnostics().size(), 1u);
  EXPECT_EQ(rule_info(r.comp.diags.diagnostics()[0].rule).code, "X005");
  EXPECT_NE(r.files[0].text.find("Precision: the kernel multiplies in tf32"), std::string::npos);
}

TEST(PythonText, StringLiteralsEscapeOnlyWhatTheyMust) {
  using interop::python_string_literal;
  EXPECT_EQ(python_string_literal("a\nb"), "\"\"\"a\nb\"\"\"");
  EXPECT_EQ(python_string_literal("x \\ y"), "\"\"\"x \\\\ y\"\"\"");
  EXPECT_EQ(python_string_literal("say \"\"\"hi\"\"\""), "\"\"\"say \\\"\\\"\"hi\\\"\\\"\\\"\"\"\"");
  EXPECT_EQ(python_string_literal("end\""), "\"\"\"end\\\"\"\"\"");
  EXPECT_EQ(python_string_literal("cr\r\x01"), "\"\"\"cr\\r\\x01\"\"\"");
}

TEST(PythonText, NamesAndFloats) {
  std::set<std::string> taken = {"A"};
  EXPECT_EQ(interop::python_name("A", taken), "A_2");
  EXPECT_EQ(interop::python_name("in", taken), "in_");
  EXPECT_EQ(interop::python_name("9x", taken), "_9x");
  EXPECT_EQ(interop::python_float(2), "2.0");
  EXPECT_EQ(interop::python_float(0.1), "0.1");
  EXPECT_EQ(interop::python_float(1e-5), "1e-05");
}

}  // namespace
}  // namespace ucut::golden
