// tests/unit/export/torch_family_export_test.cpp — `export --torch` of memory-bound family kernels
// (export/torch_family_binding.h): the function's arguments (the tensors the caller passes, then required keyword
// scalars), the extents read off the tensors and checked against the first tensor that gives them, a slice's
// caller tensor, the output's layout, the call through ucut_memop_api, the Python module; the refusal of an output
// extent no input gives; and the C entry every family kernel now carries (emit/memory/memop_api.h).
#include <gtest/gtest.h>

#include "compiler/pipeline.h"
#include "export/export.h"

namespace ucut {
namespace {

std::string file_named(const interop::ExportResult& r, const std::string& name) {
  for (const interop::ExportedFile& f : r.files)
    if (f.name == name) return f.text;
  ADD_FAILURE() << "no exported file " << name;
  return "";
}

void expect_contains(const std::string& text, const std::vector<std::string>& parts) {
  for (const std::string& p : parts) EXPECT_NE(text.find(p), std::string::npos) << "missing: " << p;
}

interop::ExportResult family_export(const std::string& spec) {
  interop::ExportResult r = interop::export_torch(SourceFile("t.ucut", spec));
  EXPECT_TRUE(r.ok());
  for (const Diagnostic& d : r.comp.diags.diagnostics()) ADD_FAILURE() << d.message;
  return r;
}

TEST(ExportTorchFamily, RownormTakesItsTensorsAndRequiredScalars) {
  interop::ExportResult r = family_export(R"(kernel bn : sm90a
  rownorm(input: bf16[N,C], gamma: bf16[C], beta: bf16[C], epsilon: f32, norm = layer, eps = epsilon, over = N)
  >> expr(x * gamma + beta)
  >> store(output: bf16[N,C])
)");
  ASSERT_EQ(r.files.size(), 3u);
  std::string cpp = file_named(r, "ucut_bn_binding.cpp"), py = file_named(r, "ucut_bn.py");
  expect_contains(cpp, {"ucut_bn(input, gamma, beta, *, epsilon)",
                        "check_tensor(fn_, \"input\", input, at::kBFloat16, \"bf16\", 2, \"[N, C]\");",
                        "const int64_t e_N = input.size(0);", "const int64_t e_C = input.size(1);",
                        "check_extent(fn_, \"gamma\", gamma, 0, \"C\", e_C, \"input's C (dim 1)\");",
                        "check_device(fn_, \"beta\", beta, input);",
                        "at::Tensor output = new_tensor({e_N, e_C}, Layout::row, at::kBFloat16, input);",
                        "args_.inputs[2] = beta.data_ptr();", "args_.scalars[0] = static_cast<float>(epsilon);",
                        "args_.extents[1] = e_C;", "run_memop(fn_, api_, args_, input);",
                        "pybind11::kw_only(),\n      pybind11::arg(\"epsilon\"));"});
  EXPECT_EQ(cpp.find("pybind11::arg(\"epsilon\") ="), std::string::npos) << "a family scalar has no default";
  expect_contains(py, {"def ucut_bn(input, gamma, beta, *, epsilon):", "return _ucut_load().ucut_bn("});
  std::string cu = file_named(r, "ucut_bn_kernel.cu");
  expect_contains(cu, {"int memop_launch(const ucut_memop_args* a, void* stream, char* err, size_t err_len)",
                       "return run_rownorm(static_cast<const ElementIn0*>(a->inputs[0]),",
                       "const char* const kMemopInputs[] = {\"input\", \"gamma\", \"beta\"};",
                       "const char* const kMemopExtents[] = {\"N\", \"C\"};",
                       "extern \"C\" __attribute__((visibility(\"default\"))) const ucut_memop_api* "
                       "ucut_memop_entry(void)"});
}

TEST(ExportTorchFamily, SliceCallerTensorHoldsTheBlocks) {
  interop::ExportResult r = family_export(R"(kernel sm : sm90a
  map(x: f32[B,D] slice(in, 0, 2), g: f32[B,D] slice(in, 1, 2))
  >> silu
  >> expr(x * g)
  >> store(out: f32[B,D])
)");
  std::string cpp = file_named(r, "ucut_sm_binding.cpp");
  // `in` is a Python keyword: the argument is renamed, and passed once for both slices.
  expect_contains(cpp, {"ucut_sm(in_)", "in_.size(1) % 2 == 0", "const int64_t e_D = in_.size(1) / 2;",
                        "args_.inputs[0] = in_.data_ptr();", "at::Tensor out = new_tensor({e_B, e_D}"});
  EXPECT_EQ(cpp.find("args_.inputs[1]"), std::string::npos);
}

TEST(ExportTorchFamily, TransposeReturnsAColumnMajorTensorAndReductionsTheirShape) {
  std::string t = file_named(family_export(R"(kernel tr : sm90a
  map(A: f32[M,N])
  >> store(B: f32[M,N] col)
)"),
                             "ucut_tr_binding.cpp");
  expect_contains(t, {"new_tensor({e_M, e_N}, Layout::col, at::kFloat, A);"});
  std::string mv = file_named(family_export(R"(kernel mv : sm90a
  reduce(A: f32[M,N], x: f32[N], of = A * x, op = sum, over = N, acc: f32)
  >> store(y: f32[M])
)"),
                              "ucut_mv_binding.cpp");
  expect_contains(mv, {"check_extent(fn_, \"x\", x, 0, \"N\", e_N, \"A's N (dim 1)\");",
                       "new_tensor({e_M}, Layout::row, at::kFloat, A);"});
  std::string dot = file_named(family_export(R"(kernel dot : sm90a
  reduce(X: f32[N], Y: f32[N], of = X * Y, op = sum, acc: f32)
  >> store(loss: f32[1])
)"),
                               "ucut_dot_binding.cpp");
  expect_contains(dot, {"new_tensor({1}, Layout::row, at::kFloat, X);"});
}

TEST(ExportTorchFamily, RefusesAnOutputExtentNoInputGives) {
  SourceFile src("b.ucut", R"(kernel bc : sm90a
  map(bias: f32[N])
  >> store(out: f32[M,N])
)");
  interop::ExportResult r = interop::export_torch(src);
  EXPECT_FALSE(r.ok());
  EXPECT_TRUE(r.files.empty());
  ASSERT_EQ(r.comp.diags.diagnostics().size(), 1u);
  const Diagnostic& d = r.comp.diags.diagnostics()[0];
  EXPECT_EQ(rule_info(d.rule).code, "X001");
  EXPECT_NE(d.message.find("`M`"), std::string::npos) << d.message;
  EXPECT_EQ(src.line_col(d.primary.begin).first, 3);
  ASSERT_TRUE(d.hint.has_value());
}

TEST(ExportTorchFamily, IsDeterministic) {
  const char* spec = R"(kernel sc : sm90a
  scan(input: f32[N], op = sum, acc: f32)
  >> store(output: f32[N])
)";
  interop::ExportResult a = family_export(spec), b = family_export(spec);
  ASSERT_EQ(a.files.size(), b.files.size());
  for (size_t i = 0; i < a.files.size(); ++i) EXPECT_EQ(a.files[i].text, b.files[i].text) << a.files[i].name;
}

}  // namespace
}  // namespace ucut
