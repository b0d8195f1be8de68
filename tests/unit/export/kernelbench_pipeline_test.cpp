// tests/unit/export/kernelbench_pipeline_test.cpp — `export --kernelbench` of pipeline problems
// (export/kernelbench_pipeline.h), each with the pipeline `ucutlass suite lower` generates for it as the
// spec: the file is produced; its __init__ creates Model's modules and parameters in chain order; forward
// passes each stage's tensors in the layouts the stage reads and reshapes (or permutes back) the output; the
// binding fills each stage's ucut_gemm_args or ucut_memop_args (null where the pipeline binds an earlier
// stage's output). Refusals: a spec that computes something else (X003, at the stage, operator or epilogue
// stage that differs), a pipeline spec for a single kernel's problem (X003).
#include <gtest/gtest.h>

#include "../suite/suite_text.h"
#include "export_cases.h"
#include "suite/lower_pipeline.h"

namespace ucut::golden {
namespace {

/// The generated pipeline spec of suite problem `path` (suite lower's semantics).
std::string generated_spec(const suite::Checked& c) {
  auto lowered = suite::lower_pipeline_problem(c);
  if (const auto* why = std::get_if<std::string>(&lowered)) {
    ADD_FAILURE() << c.problem.stem << " does not lower: " << *why;
    return "";
  }
  return std::get<Problem>(lowered).syntax->pipeline_source;
}

std::string codes(const interop::ExportResult& r) {
  std::string out;
  for (const Diagnostic& d : r.comp.diags.diagnostics())
    out += std::string(rule_info(d.rule).code) + " " + d.message + "\n";
  return out;
}

/// The generated spec for suite problem `path` exported for it; `edit` (old, new) rewrites the spec first,
/// which `spec_out` (when given) receives.
interop::ExportResult pipeline_export(const std::string& path, std::pair<std::string, std::string> edit = {},
                                      std::string* spec_out = nullptr) {
  auto checked = load_suite_problem(path);
  if (!checked) return {};
  std::string spec = generated_spec(*checked);
  if (!edit.first.empty()) {
    size_t at = spec.find(edit.first);
    EXPECT_NE(at, std::string::npos) << edit.first;
    if (at != std::string::npos) spec.replace(at, edit.first.size(), edit.second);
  }
  if (spec_out) *spec_out = spec;
  return interop::export_kernelbench(SourceFile(checked->problem.stem + ".ucut", spec), *checked);
}

/// The ModelNew source of the generated pipeline for `path`, expected to export.
std::string model_new(const std::string& path) {
  interop::ExportResult r = pipeline_export(path);
  EXPECT_TRUE(r.ok()) << codes(r);
  if (r.files.size() != 1) return "";
  std::string stem = fs::path(path).stem().string();
  EXPECT_EQ(r.files[0].name, stem + ".py");
  return r.files[0].text;
}

void expect_contains(const std::string& text, const std::vector<std::string>& parts) {
  for (const std::string& p : parts) EXPECT_NE(text.find(p), std::string::npos) << "missing: " << p;
}

/// Where each of `parts` first appears, in order: they must appear in that order.
void expect_in_order(const std::string& text, const std::vector<std::string>& parts) {
  size_t at = 0;
  for (const std::string& p : parts) {
    size_t found = text.find(p, at);
    EXPECT_NE(found, std::string::npos) << "missing after offset " << at << ": " << p;
    if (found != std::string::npos) at = found + p.size();
  }
}

TEST(ExportKernelBenchPipeline, GemmThenSoftmax) {
  std::string py = model_new("suites/kernelbench/level2/L2_099_matmul_gelu_softmax.toml");
  expect_contains(py,
                  {
                      "KernelBench level 2 problem 99 (99_Matmul_GELU_Softmax.py)",
                      "The pipeline: 2 stages (s1 gemm, s2 rownorm)",
                      "_ucut_extension = load_inline(",
                      "extern \"C\" const ucut_pipeline_api* ucut_pipe_",
                      "begin template ucut_torch_pipeline.inc",
                      "        self.linear1 = nn.Linear(8192, 8192, bias=True)\n\n",
                      "        out = _ucut_extension.ucut_L2_099_matmul_gelu_softmax(\n"
                      "            x.contiguous(),\n"
                      "            self.linear1.weight.t(),\n"
                      "            self.linear1.bias)\n"
                      "        return out.reshape((1024, 8192))\n",
                      // the binding: the GEMM stage's extents, operands and bias; the rownorm reads H1 (bound
                      // by the pipeline), its extents, and writes the output
                      "check_operand(fn_, \"s1_A\", s1_A, at::kFloat, \"f32\", {1024, 8192}, Layout::row,",
                      "check_operand(fn_, \"s1_B\", s1_B, at::kFloat, \"f32\", {8192, 8192}, Layout::col,",
                      "at::Tensor y_ = at::empty({1024, 8192}, s1_A.options().dtype(at::kFloat));",
                      "args_.count = 2;",
                      "args_.stage[0].m = 1024, args_.stage[0].n = 8192, args_.stage[0].k = 8192, "
                      "args_.stage[0].batch = 1;",
                      "args_.stage[0].a = {s1_A.data_ptr(), 8192, 8388608};",
                      "args_.stage[0].b = {s1_B.data_ptr(), 8192, 67108864};",
                      "args_.stage[0].vectors[0] = s1_bias.data_ptr();",
                      "args_.memop[1].inputs[0] = nullptr;",
                      "args_.memop[1].extents[0] = 1024;  // M",
                      "args_.memop[1].extents[1] = 8192;  // N1",
                      "args_.memop[1].outputs[0] = y_.data_ptr();",
                      "run_pipeline(fn_, api_, args_, s1_A);",
                  });
  EXPECT_EQ(py.find("args_.stage[0].d ="), std::string::npos);  // an intermediate: the pipeline's workspace
  EXPECT_EQ(py.find("Training mode"), std::string::npos);
}

TEST(ExportKernelBenchPipeline, GemmScaleBatchNorm) {
  std::string py = model_new("suites/kernelbench/level2/L2_033_gemm_scale_batchnorm.toml");
  expect_in_order(py, {
                          "        self.linear1 = nn.Linear(8192, 8192, bias=True)\n",
                          "        self.param2 = nn.Parameter(torch.randn((8192,)))  # op 2 (mul)\n",
                          "        self.batch_norm3 = nn.BatchNorm1d(8192, eps=1e-05, momentum=0.1)\n",
                      });
  expect_contains(py,
                  {
                      "            self.linear1.bias,\n"
                      "            self.param2.reshape(-1),\n"
                      "            self.batch_norm3.weight.reshape(8192),\n"
                      "            self.batch_norm3.bias.reshape(8192))\n",
                      "args_.stage[0].vectors[1] = s1_channel_scale.data_ptr();",
                      "args_.memop[1].inputs[1] = s2_gamma3.data_ptr();",
                      "args_.memop[1].inputs[2] = s2_beta3.data_ptr();",
                      "Training mode, as KernelBench calls Model: the batch norm normalizes with the batch's",
                  });
}

TEST(ExportKernelBenchPipeline, ConvInstanceNormPermutesTheOutputBack) {
  std::string py = model_new("suites/kernelbench/level2/L2_017_conv2d_instancenorm_divide.toml");
  expect_in_order(py, {
                          "        self.conv1 = nn.Conv2d(64, 128, (3, 3), stride=(1, 1), padding=(0, 0), "
                          "dilation=(1, 1), groups=1, bias=True)\n",
                          "        self.instance_norm2 = nn.InstanceNorm2d(128, eps=1e-05, affine=False)\n",
                      });
  expect_contains(
      py,
      {
          "def _ucut_channels_last(t):",
          "            _ucut_channels_last(x),\n"
          "            _ucut_channels_last(self.conv1.weight),\n"
          "            self.conv1.bias)\n"
          "        return out.permute(0, 3, 1, 2).contiguous().reshape((128, 128, 126, 126))\n",
          "check_operand(fn_, \"s1_X\", s1_X, at::kFloat, \"f32\", {128, 64, 128, 128}, "
          "Layout::channels_last,",
          "check_operand(fn_, \"s1_W\", s1_W, at::kFloat, \"f32\", {128, 64, 3, 3}, Layout::channels_last,",
          "at::Tensor y_ = at::empty({128, 126, 126, 128}, s1_X.options().dtype(at::kFloat));",
          "args_.stage[0].m = 2032128, args_.stage[0].n = 128, args_.stage[0].k = 576,",
          "args_.stage[0].a = {s1_X.data_ptr(), 64, 0};",
          "args_.stage[0].conv = ucut_conv_args{2, 128, 1, 128, 128, 64, 128, 1, 3, 3, 1, 126, 126, {0, 0, "
          "0}, "
          "{1, 1, 1}, {1, 1, 1}, 1};",
      });
}

TEST(ExportKernelBenchPipeline, ConvTransposeBatchNormGlobalMean) {
  std::string py =
      model_new("suites/kernelbench/level2/L2_077_convtranspose3d_scale_batchnorm_globalavgpool.toml");
  expect_in_order(
      py, {
              "        self.conv_transpose1 = nn.ConvTranspose3d(64, 128, (5, 5, 5), stride=(1, 1, 1), "
              "padding=(0, 0, 0), output_padding=(0, 0, 0), dilation=(1, 1, 1), groups=1, bias=True)\n",
              "        self.batch_norm3 = nn.BatchNorm3d(128, eps=1e-05, momentum=0.1)\n",
          });
  expect_contains(py, {
                          "The pipeline: 3 stages (s1 conv_transpose3d, s2 rownorm, s3 reduce)",
                          "            self.batch_norm3.weight.reshape(128),\n"
                          "            self.batch_norm3.bias.reshape(128))\n"
                          "        return out.reshape((16, 128, 1, 1, 1))\n",
                          "check_operand(fn_, \"s1_W\", s1_W, at::kFloat, \"f32\", {64, 128, 5, 5, 5}, "
                          "Layout::channels_last,",
                          "args_.stage[0].scalars[0] = 2.0f;",  // the problem's scale factor
                          "args_.memop[1].inputs[0] = nullptr;",
                          "args_.memop[2].inputs[0] = nullptr;",
                          "args_.memop[2].outputs[0] = y_.data_ptr();",
                          "at::Tensor y_ = at::empty({16, 128}, ",
                      });
}

TEST(ExportKernelBenchPipeline, MlpOfGemmStagesOnly) {
  std::string py = model_new("suites/kernelbench/level3/L3_001_mlp.toml");
  expect_in_order(py, {
                          "        self.linear1 = nn.Linear(16384, 16384, bias=True)\n",
                          "        self.linear3 = nn.Linear(16384, 16384, bias=True)\n",
                          "        self.linear5 = nn.Linear(16384, 8192, bias=True)\n",
                      });
  expect_contains(py, {
                          "            x.contiguous(),\n"
                          "            self.linear1.weight.t(),\n"
                          "            self.linear1.bias,\n"
                          "            self.linear3.weight.t(),\n"
                          "            self.linear3.bias,\n"
                          "            self.linear5.weight.t(),\n"
                          "            self.linear5.bias)\n",
                          "args_.count = 3;",
                          "args_.stage[1].m = 128, args_.stage[1].n = 16384, args_.stage[1].k = 16384,",
                          "args_.stage[1].b = {s2_B.data_ptr(), 16384, 268435456};",
                          "args_.stage[2].d = {y_.data_ptr(), 8192, 1048576};",
                      });
  EXPECT_EQ(py.find("s2_A"), std::string::npos);  // stage 2 reads stage 1's output
  EXPECT_EQ(py.find("args_.stage[1].a ="), std::string::npos);
}

TEST(ExportKernelBenchPipeline, GroupNormReadsItsAffineAsGroups) {
  std::string py = model_new("suites/kernelbench/level2/L2_088_gemm_groupnorm_swish_multiply_swish.toml");
  expect_in_order(py, {
                          "        self.linear1 = nn.Linear(8192, 8192, bias=True)\n",
                          "        self.group_norm2 = nn.GroupNorm(256, 8192, eps=1e-05)\n",
                          "        self.param4 = nn.Parameter(torch.randn((8192,)))  # op 4 (mul)\n",
                      });
  expect_contains(py, {
                          "            self.group_norm2.weight.reshape(256, 32),\n"
                          "            self.group_norm2.bias.reshape(256, 32),\n"
                          "            self.param4.reshape(256, 32))\n"
                          "        return out.reshape((1024, 8192))\n",
                          "check_operand(fn_, \"s2_p4\", s2_p4, at::kFloat, \"f32\", {256, 32}, Layout::row,",
                          "args_.memop[1].inputs[3] = s2_p4.data_ptr();",
                          "args_.memop[1].extents[0] = 1024;  // M",
                      });
}

TEST(ExportKernelBenchPipeline, AnOperandInAnotherDimOrderIsPackedInTheOrderItIsRead) {
  // A [C, H, W] parameter after a channels-last softmax: the stage reads it as [P, Q, K].
  suite::Checked c = suite::test::checked(
      "[[input]]\nname = \"x\"\nshape = [2, 4, 10, 10]\n[[op]]\nop = \"conv\"\nout_channels = 8\nkernel = "
      "[3, "
      "3]\n[[op]]\nop = \"softmax\"\ndim = 1\n[[op]]\nop = \"add\"\nparam = [8, 8, 8]\n");
  interop::ExportResult r = interop::export_kernelbench(SourceFile("t.ucut", generated_spec(c)), c);
  ASSERT_TRUE(r.ok()) << codes(r);
  expect_contains(r.files[0].text,
                  {
                      "            self.param3.permute(1, 2, 0).contiguous().reshape(8, 8, 8))\n"
                      "        return out.permute(0, 3, 1, 2).contiguous().reshape((2, 8, 8, 8))\n",
                      "packed in that order (a copy)",
                  });
}

TEST(ExportKernelBenchPipeline, IsDeterministic) {
  const std::string path = "suites/kernelbench/level2/L2_088_gemm_groupnorm_swish_multiply_swish.toml";
  EXPECT_EQ(model_new(path), model_new(path));
}

TEST(ExportKernelBenchPipeline, SpecComputingSomethingElseIsX003) {
  const std::string path = "suites/kernelbench/level2/L2_099_matmul_gelu_softmax.toml";
  // Another activation in the GEMM stage's chain, another norm in the family stage, one stage fewer.
  struct Case {
    std::pair<std::string, std::string> edit;
    std::string stage, at;  // the stage the message names, the text the diagnostic points at
  };
  for (const Case& c : {Case{{">> gelu >>", ">> relu >>"}, "stage 1", "relu"},
                        Case{{"norm = softmax", "norm = log_softmax"}, "stage 2", "rownorm"}}) {
    std::string spec;
    interop::ExportResult r = pipeline_export(path, c.edit, &spec);
    EXPECT_FALSE(r.ok());
    EXPECT_TRUE(r.files.empty());
    ASSERT_EQ(r.comp.diags.diagnostics().size(), 1u) << codes(r);
    const Diagnostic& d = r.comp.diags.diagnostics()[0];
    EXPECT_EQ(rule_info(d.rule).code, "X003") << d.message;
    EXPECT_NE(d.message.find(c.stage), std::string::npos) << d.message;
    EXPECT_TRUE(d.hint.has_value());
    EXPECT_EQ(spec.substr(d.primary.begin, c.at.size()), c.at);  // at the part of the stage that differs
  }
  // One stage fewer (the MLP without its last layer): at the pipeline's header.
  auto checked = load_suite_problem("suites/kernelbench/level3/L3_001_mlp.toml");
  ASSERT_TRUE(checked);
  std::string spec = generated_spec(*checked);
  spec = spec.substr(0, spec.find("  stage s3"));
  spec.replace(spec.find("store(H2:"), 9, "store(Y:");
  interop::ExportResult r = interop::export_kernelbench(SourceFile("s.ucut", spec), *checked);
  ASSERT_EQ(r.comp.diags.diagnostics().size(), 1u) << codes(r);
  EXPECT_EQ(rule_info(r.comp.diags.diagnostics()[0].rule).code, "X003");
  EXPECT_NE(r.comp.diags.diagnostics()[0].message.find("3 stages and the spec 2"), std::string::npos);
  EXPECT_EQ(spec.substr(r.comp.diags.diagnostics()[0].primary.begin, 9), "pipeline ");
}

TEST(ExportKernelBenchPipeline, PipelineSpecForASingleKernelProblemIsX003) {
  auto checked = load_suite_problem("suites/kernelbench/level2/L2_012_gemm_multiply_leakyrelu.toml");
  ASSERT_TRUE(checked);
  auto pipeline = load_suite_problem("suites/kernelbench/level2/L2_099_matmul_gelu_softmax.toml");
  ASSERT_TRUE(pipeline);
  interop::ExportResult r =
      interop::export_kernelbench(SourceFile("p.ucut", generated_spec(*pipeline)), *checked);
  ASSERT_EQ(r.comp.diags.diagnostics().size(), 1u) << codes(r);
  EXPECT_EQ(rule_info(r.comp.diags.diagnostics()[0].rule).code, "X003");
  EXPECT_NE(r.comp.diags.diagnostics()[0].message.find("a single kernel's"), std::string::npos);
}

}  // namespace
}  // namespace ucut::golden
