// tests/unit/problem/problem_test.cpp — eval/problem.h: TOML problem files (valid forms and errors that name
// the field), semantic_mismatch() against compiled specs, and precision_change().
#include "problem/problem.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "../test_paths.h"
#include "compiler/pipeline.h"
#include "problem/conv_abi.h"
#include "problem/match.h"
#include "problem/print.h"
#include "problem_text.h"
#include "support/error.h"

namespace ucut {
namespace {

std::optional<Problem> parse(const std::string& text, std::string* err) { return parse_problem(text, "p.toml", err); }

Problem parse_ok(const std::string& text) {
  std::string err;
  auto p = parse(text, &err);
  EXPECT_TRUE(p) << err;
  return p ? *p : Problem{};
}

constexpr const char* kOperands = "a = \"bf16 row\"\nb = \"bf16 col\"\nd = \"bf16 row\"\n";
constexpr const char* kShape = "shapes = [ { m = 128, n = 256, k = 64 } ]\n";

std::string problem_text(const std::string& extra, const std::string& operands = kOperands,
                         const std::string& shapes = kShape) {
  return "name = \"t\"\n" + operands + extra + shapes;
}

/// A spec with tuning choices (which semantic_mismatch must ignore) around the given operator and chain.
std::string spec(const std::string& op_args, const std::string& chain, const std::string& store,
                 const std::string& op = "gemm") {
  return "kernel k : sm90a\n  " + op + "(" + op_args + ", acc: f32)\n    .with_threadblockshape(128, 128, 64)\n" +
         "    .with_scheduler(tma_cooperative)\n" + chain + "  >> store(" + store + ")\n";
}

// ---- parse_problem: valid files ----

TEST(Problem, PlainGemm) {
  Problem p = parse_ok(
      "name = \"plain\"\nop = \"gemm\"\na = \"bf16 row\"\nb = \"bf16 col\"\nd = \"bf16 row\"\n"
      "shapes = [ { m = 4096, n = 4096, k = 4096 }, { m = 8205, n = 5921, k = 2949, label = \"odd\" } ]\n");
  EXPECT_EQ(p.name, "plain");
  EXPECT_EQ(p.path, "p.toml");
  EXPECT_EQ(p.reference, Reference::automatic);
  EXPECT_EQ(p.semantics.op.value, OpKind::gemm);
  EXPECT_EQ(p.semantics.a.dtype.value, DType::bf16);
  EXPECT_EQ(p.semantics.a.layout.value, Layout::row);
  EXPECT_EQ(p.semantics.b.dtype.value, DType::bf16);
  EXPECT_EQ(p.semantics.b.layout.value, Layout::col);
  EXPECT_EQ(p.semantics.output().dtype.value, DType::bf16);
  EXPECT_EQ(p.semantics.math.value, MathMode::native);
  ASSERT_EQ(p.shapes.size(), 2u);
  EXPECT_EQ(p.shapes[0].m, 4096);
  EXPECT_EQ(p.shapes[0].batch, 1);
  EXPECT_EQ(p.shapes[0].label, "");
  EXPECT_EQ(p.shapes[1].m, 8205);
  EXPECT_EQ(p.shapes[1].n, 5921);
  EXPECT_EQ(p.shapes[1].k, 2949);
  EXPECT_EQ(p.shapes[1].label, "odd");
  EXPECT_FALSE(p.tolerance_given);
  EXPECT_EQ(p.tolerance.atol, 1e-2);
  EXPECT_EQ(p.tolerance.rtol, 1e-2);
  EXPECT_NE(semantics_text(p).find("gemm(A: bf16[M,K] row, B: bf16[K,N] col"), std::string::npos) << semantics_text(p);
}

TEST(Problem, WithEpilogue) {
  Problem p = parse_ok(problem_text("epilogue = \"bias(col) >> gelu_tanh\"\n"));
  // bias, gelu_tanh, store
  ASSERT_EQ(p.semantics.epilogue.size(), 3u);
  EXPECT_NE(semantics_text(p).find(">> bias(col) >> gelu_tanh >> store(D: bf16[M,N] row)"), std::string::npos)
      << semantics_text(p);
}

TEST(Problem, Batched) {
  Problem p = parse_ok(
      problem_text("op = \"batched_gemm\"\n", "a = \"f16 row\"\nb = \"f16 col\"\nd = \"f16 row\"\n",
                   "shapes = [ { m = 128, n = 128, k = 64, batch = 12 }, { m = 64, n = 64, k = 64 } ]\n"));
  EXPECT_EQ(p.semantics.op.value, OpKind::batched_gemm);
  ASSERT_EQ(p.shapes.size(), 2u);
  EXPECT_EQ(p.shapes[0].batch, 12);
  EXPECT_EQ(p.shapes[1].batch, 1);  // the default
  EXPECT_NE(semantics_text(p).find("f16[L,M,K]"), std::string::npos) << semantics_text(p);
}

TEST(Problem, ReductionEpilogue) {
  Problem p = parse_ok(problem_text("epilogue = \"row_max(R: f32[M]) >> relu\"\n"));
  // row_max, relu, store
  ASSERT_EQ(p.semantics.epilogue.size(), 3u);
  EXPECT_EQ(p.semantics.epilogue[0].kind, EpiKind::row_max);
  ASSERT_EQ(p.semantics.reductions().size(), 1u);
  EXPECT_EQ(p.semantics.reductions()[0]->tensor->name.value, "R");
  EXPECT_EQ(p.semantics.epilogue_tensors().size(), 1u);  // D only: a reduction's vector is not an M x N tensor
  EXPECT_NE(semantics_text(p).find(">> row_max(R: f32[M]) >> relu >> store(D: bf16[M,N] row)"), std::string::npos)
      << semantics_text(p);
  Problem b = parse_ok(problem_text("op = \"batched_gemm\"\nepilogue = \"col_sum(S: f32[L,N]) >> relu\"\n",
                                    "a = \"f16 row\"\nb = \"f16 col\"\nd = \"f16 row\"\n"));
  ASSERT_EQ(b.semantics.reductions().size(), 1u);
  EXPECT_EQ(b.semantics.reductions()[0]->kind, EpiKind::col_sum);
}

TEST(Problem, ShippedReductionProblemsLoad) {
  for (auto [file, kind] : {std::pair{"gemm_row_max", EpiKind::row_max}, std::pair{"batched_col_sum", EpiKind::col_sum}}) {
    std::string err;
    auto p = load_problem(ucut::test_paths::source_dir() + "/problems/examples/" + file + ".toml", &err);
    ASSERT_TRUE(p) << file << ": " << err;
    ASSERT_EQ(p->semantics.reductions().size(), 1u) << file;
    EXPECT_EQ(p->semantics.reductions()[0]->kind, kind) << file;
    ASSERT_EQ(p->shapes.size(), 2u) << file;
    EXPECT_EQ(p->shapes[0].label, "small");
    EXPECT_EQ(p->shapes[1].label, "odd-m");
  }
}

TEST(Problem, F32ToleranceByMath) {
  Problem tf32 = parse_ok(problem_text("math = \"tf32\"\n", "a = \"f32 row\"\nb = \"f32 col\"\nd = \"f32 row\"\n"));
  EXPECT_EQ(tf32.semantics.math.value, MathMode::tf32);
  EXPECT_EQ(tf32.tolerance.atol, 1e-2);
  EXPECT_EQ(tf32.tolerance.rtol, 1e-2);
  Problem exact = parse_ok(problem_text("", "a = \"f32 row\"\nb = \"f32 col\"\nd = \"f32 row\"\n"));
  EXPECT_EQ(exact.semantics.math.value, MathMode::native);
  EXPECT_EQ(exact.tolerance.atol, 1e-4);
  EXPECT_EQ(exact.tolerance.rtol, 1e-4);
}

TEST(Problem, ExplicitTolerance) {
  Problem p = parse_ok(problem_text("tolerance = { atol = 3e-3, rtol = 5e-2 }\nreference = \"cpu\"\n"));
  EXPECT_TRUE(p.tolerance_given);
  EXPECT_EQ(p.tolerance.atol, 3e-3);
  EXPECT_EQ(p.tolerance.rtol, 5e-2);
  EXPECT_EQ(p.reference, Reference::cpu);
  // An explicit table in standard TOML form, with an integer zero.
  Problem q = parse_ok("name = \"t\"\n" + std::string(kOperands) + kShape + "[tolerance]\natol = 0\nrtol = 0.5\n");
  EXPECT_TRUE(q.tolerance_given);
  EXPECT_EQ(q.tolerance.atol, 0);
  EXPECT_EQ(q.tolerance.rtol, 0.5);
}

TEST(Problem, FrameworkInputs) {
  EXPECT_TRUE(parse_ok(problem_text("")).framework_inputs.all_signed());
  Problem p = parse_ok(problem_text("framework_inputs = { a = \"rand\", b = \"param\", vectors = \"param\" }\n"));
  EXPECT_EQ(p.framework_inputs.a, InputDraw::rand);
  EXPECT_EQ(p.framework_inputs.b, InputDraw::param);
  EXPECT_EQ(p.framework_inputs.c, InputDraw::signed_mix);  // left out: signed
  EXPECT_EQ(p.framework_inputs.vectors, InputDraw::param);
}

TEST(ProblemPrint, ShippedKernelProblemsPrintAFileThatReadsBackToThem) {
  int printed = 0;
  for (const auto& dir : {"problems", "problems/examples"})
    for (const auto& e :
         std::filesystem::directory_iterator(std::filesystem::path(ucut::test_paths::source_dir()) / dir)) {
      if (e.path().extension() != ".toml") continue;
      std::string error;
      auto p = load_problem(e.path().string(), &error);
      ASSERT_TRUE(p) << error;
      if (p->pipeline) {
        EXPECT_THROW(print_problem(*p), InternalError) << e.path();  // its file is its own
        continue;
      }
      std::string text = print_problem(*p);
      auto again = parse_problem(text, e.path().string(), &error);
      ASSERT_TRUE(again) << e.path() << ": " << error << "\n" << text;
      EXPECT_EQ(meaning(*again), meaning(*p)) << e.path() << "\n" << text;
      EXPECT_EQ(print_problem(*again), text);
      ++printed;
    }
  EXPECT_GE(printed, 40);
}

TEST(Problem, ShippedProblemFilesLoad) {
  for (const char* f : {"problems/gemm_fp32_4096.toml", "problems/mlp_up_bf16.toml"}) {
    std::string err;
    auto p = load_problem(ucut::test_paths::source_dir() + "/" + f, &err);
    EXPECT_TRUE(p) << f << ": " << err;
  }
  std::string err;
  EXPECT_FALSE(load_problem(ucut::test_paths::source_dir() + "/problems/no_such_problem.toml", &err));
  EXPECT_NE(err.find("no_such_problem.toml"), std::string::npos) << err;
}

// ---- parse_problem: errors name the field ----

TEST(ProblemErrors, MissingA) {
  std::string err = problem_error("name = \"t\"\nb = \"bf16 col\"\nd = \"bf16 row\"\n" + std::string(kShape));
  EXPECT_NE(err.find("`a`"), std::string::npos) << err;
  EXPECT_NE(err.find("p.toml"), std::string::npos) << err;
}

TEST(ProblemErrors, MissingName) {
  std::string err = problem_error(std::string(kOperands) + kShape);
  EXPECT_NE(err.find("`name`"), std::string::npos) << err;
}

TEST(ProblemErrors, NonStringField) {
  std::string err =
      problem_error("name = \"t\"\na = 3\nb = \"bf16 col\"\nd = \"bf16 row\"\n" + std::string(kShape));
  EXPECT_NE(err.find("`a` must be a string"), std::string::npos) << err;
}

TEST(ProblemErrors, EmptyShapes) {
  EXPECT_NE(problem_error(problem_text("", kOperands, "shapes = []\n")).find("`shapes`"), std::string::npos);
  EXPECT_NE(problem_error(problem_text("", kOperands, "")).find("`shapes`"), std::string::npos);
}

TEST(ProblemErrors, ShapeNotATable) {
  EXPECT_NE(problem_error(problem_text("", kOperands, "shapes = [ 4096 ]\n")).find("`shapes`"),
            std::string::npos);
}

TEST(ProblemErrors, BatchForPlainGemm) {
  std::string err = problem_error(
      problem_text("op = \"gemm\"\n", kOperands,
                   "shapes = [ { m = 1, n = 1, k = 1 }, { m = 8, n = 8, k = 8, batch = 4 } ]\n"));
  EXPECT_NE(err.find("batch"), std::string::npos) << err;
  EXPECT_NE(err.find("shape 2"), std::string::npos) << err;
}

TEST(ProblemErrors, NonPositiveExtent) {
  for (const char* s : {"{ m = 0, n = 8, k = 8 }", "{ m = -4, n = 8, k = 8 }", "{ m = 8, n = 8 }",
                        "{ m = 8, n = 0, k = 8 }", "{ m = 8, n = 8, k = \"8\" }"}) {
    std::string err = problem_error(problem_text("", kOperands, std::string("shapes = [ ") + s + " ]\n"));
    EXPECT_NE(err.find("shape 1"), std::string::npos) << err;
    EXPECT_NE(err.find("positive m, n, k"), std::string::npos) << err;
  }
  std::string err = problem_error(problem_text("op = \"batched_gemm\"\n", kOperands,
                                               "shapes = [ { m = 8, n = 8, k = 8, batch = 0 } ]\n"));
  EXPECT_NE(err.find("batch"), std::string::npos) << err;
}

TEST(ProblemErrors, BadEpilogueStage) {
  std::string err = problem_error(problem_text("epilogue = \"bias(col) >> gelu_tanhh\"\n"));
  EXPECT_NE(err.find("p.toml"), std::string::npos) << err;
  EXPECT_NE(err.find("epilogue"), std::string::npos) << err;
  EXPECT_NE(err.find("gelu_tanhh"), std::string::npos) << err;  // the rendered diagnostic quotes the stage
  EXPECT_NE(err.find("unknown epilogue stage"), std::string::npos) << err;
  EXPECT_NE(err.find("did you mean `gelu_tanh`"), std::string::npos) << err;
}

TEST(ProblemErrors, BadDtype) {
  std::string err = problem_error(problem_text("", "a = \"bf17 row\"\nb = \"bf16 col\"\nd = \"bf16 row\"\n"));
  EXPECT_NE(err.find("bf17"), std::string::npos) << err;
}

TEST(ProblemErrors, BadReference) {
  std::string err = problem_error(problem_text("reference = \"tpu\"\n"));
  EXPECT_NE(err.find("p.toml:5:13: error[H005]: unknown reference `tpu`"), std::string::npos) << err;
  EXPECT_NE(err.find("did you mean `gpu`?"), std::string::npos) << err;
}

TEST(ProblemErrors, BadTolerance) {
  EXPECT_NE(problem_error(problem_text("tolerance = { atol = 1e-2 }\n")).find("`tolerance`"),
            std::string::npos);
  EXPECT_NE(problem_error(problem_text("tolerance = { atol = -1.0, rtol = 1e-2 }\n")).find("`tolerance`"),
            std::string::npos);
}

TEST(ProblemErrors, BadFrameworkInputs) {
  std::string err = problem_error(problem_text("framework_inputs = { a = \"uniform\" }\n"));
  EXPECT_NE(err.find("`framework_inputs.a`"), std::string::npos) << err;
  EXPECT_NE(err.find("rand"), std::string::npos) << err;  // the fix: the names it takes
  err = problem_error(problem_text("framework_inputs = { x = \"rand\" }\n"));
  EXPECT_NE(err.find("x"), std::string::npos) << err;
  EXPECT_NE(problem_error(problem_text("framework_inputs = \"rand\"\n")).find("is a table"),
            std::string::npos);
}

TEST(ProblemErrors, TomlSyntaxErrorHasLineAndColumn) {
  std::string err = problem_error("name = \"t\"\na = \"bf16 row\"\nb = = \"bf16 col\"\n");
  EXPECT_EQ(err.rfind("p.toml:3:", 0), 0u) << err;
}

// ---- convolutions ----

TEST(Problem, Conv2dShapesCarryTheirGeometryAndImplicitGemm) {
  Problem p = parse_ok(
      "name = \"c\"\nop = \"conv2d\"\na = \"f32\"\nb = \"f32\"\nd = \"f32\"\nmath = \"tf32\"\n"
      "epilogue = \"bias(col) >> relu\"\n"
      "shapes = [ { n = 8, h = 512, w = 512, c = 32, k = 64, r = 5, s = 9, pad = [2, 4], dilation = [2, 3], "
      "label = \"L1/80\" } ]\n");
  EXPECT_EQ(p.semantics.op.value, OpKind::conv2d);
  EXPECT_EQ(p.semantics.a.layout.value, Layout::channels_last);
  EXPECT_EQ(p.semantics.output().layout.value, Layout::channels_last);
  ASSERT_EQ(p.shapes.size(), 1u);
  const ConvShape& c = p.shapes[0].conv;
  EXPECT_EQ(c.dims, 2);
  EXPECT_EQ(c.out(1), 508);  // (512 + 4 - 2*4 - 1) / 1 + 1
  EXPECT_EQ(c.out(2), 496);  // (512 + 8 - 3*8 - 1) / 1 + 1
  EXPECT_EQ(p.shapes[0].m, 8 * 508 * 496);
  EXPECT_EQ(p.shapes[0].n, 64);
  EXPECT_EQ(p.shapes[0].k, 5 * 9 * 32);
  EXPECT_EQ(p.shapes[0].label, "L1/80");
}

TEST(Problem, TransposedConvIsTheDataGradientOfItsForwardConvolution) {
  // KernelBench L1/75's geometry without groups: ConvT2d(32, 64, k=3x5, s=2x3, p=1x2, d=2x1) on 128 x 256.
  Problem p = parse_ok(
      "name = \"t\"\nop = \"conv_transpose2d\"\na = \"f32\"\nb = \"f32\"\nd = \"f32\"\nmath = \"tf32\"\n"
      "shapes = [ { n = 16, h = 128, w = 256, c = 32, k = 64, r = 3, s = 5, stride = [2, 3], pad = [1, 2], "
      "dilation = [2, 1], output_padding = [1, 0] } ]\n");
  const ConvShape& c = p.shapes[0].conv;
  EXPECT_EQ(c.kind, ConvKind::dgrad);
  EXPECT_EQ(c.c, 64);   // the forward convolution's input channels are the transposed output's
  EXPECT_EQ(c.k, 32);
  EXPECT_EQ(c.in[1], (128 - 1) * 2 - 2 * 1 + 2 * (3 - 1) + 1 + 1);  // PyTorch's output height: 258
  EXPECT_EQ(c.in[2], (256 - 1) * 3 - 2 * 2 + 1 * (5 - 1) + 0 + 1);  // 766
  EXPECT_EQ(c.out(1), 128);  // and the forward output is the transposed input
  EXPECT_EQ(c.out(2), 256);
  EXPECT_EQ(p.shapes[0].m, 16 * 258 * 766);  // m = output pixels, n = output channels, k = taps x input channels
  EXPECT_EQ(p.shapes[0].n, 64);
  EXPECT_EQ(p.shapes[0].k, 3 * 5 * 32);
  EXPECT_EQ(semantics_text(p).find("conv_transpose2d(X: f32[N,H,W,C], W: f32[C,R,S,K]") != std::string::npos, true)
      << semantics_text(p);
}

TEST(Problem, TransposedConvOutputPaddingMustBeBelowTheStride) {
  std::string head = "name = \"t\"\nop = \"conv_transpose1d\"\na = \"f16\"\nb = \"f16\"\nd = \"f16\"\n";
  EXPECT_NE(problem_error(head + "shapes = [ { n = 1, w = 8, c = 8, k = 8, s = 3, output_padding = [1] } ]\n")
                .find("`output_padding` values must be smaller than the stride"),
            std::string::npos);
  EXPECT_NE(
      problem_error(head + "shapes = [ { n = 1, w = 2, c = 8, k = 8, s = 3, pad = [3] } ]\n").find("empty"),
      std::string::npos);
  // `output_padding` belongs to transposed convolutions only.
  EXPECT_NE(problem_error("name = \"c\"\nop = \"conv1d\"\na = \"f16\"\nb = \"f16\"\nd = \"f16\"\n"
                          "shapes = [ { n = 1, w = 8, c = 8, k = 8, s = 3, output_padding = [0] } ]\n")
                .find("error[H002]: `output_padding` is not a key of shape 1 of `conv1d`"),
            std::string::npos);
}

TEST(Problem, FilterGradientNamesTheForwardGeometry) {
  Problem p = parse_ok(
      "name = \"g\"\nop = \"conv3d_wgrad\"\na = \"bf16\"\nb = \"bf16\"\nd = \"f32\"\n"
      "shapes = [ { n = 2, d = 8, h = 16, w = 16, c = 64, k = 32, t = 3, r = 3, s = 3, pad = [1, 1, 1] } ]\n");
  const GemmShape& g = p.shapes[0];
  EXPECT_EQ(g.conv.kind, ConvKind::wgrad);
  EXPECT_EQ(g.m, 32);               // K filters
  EXPECT_EQ(g.n, 27 * 64);          // taps x C
  EXPECT_EQ(g.k, 2 * 8 * 16 * 16);  // every output pixel
  EXPECT_EQ(g.conv.a_elements(), 2 * 8 * 16 * 16 * 32);
  EXPECT_EQ(g.conv.b_elements(), 2 * 8 * 16 * 16 * 64);
  EXPECT_EQ(g.conv.d_elements(), 32 * 27 * 64);
  EXPECT_NE(semantics_text(p).find("conv3d_wgrad(DY: bf16[N,Z,P,Q,K], X: bf16[N,D,H,W,C]"), std::string::npos)
      << semantics_text(p);
  EXPECT_NE(semantics_text(p).find("store(DW: f32[K,T,R,S,C]"), std::string::npos) << semantics_text(p);
}

TEST(Problem, UnknownKeysAreErrorsWithTheirPlaceAndTheNearestName) {
  // A misspelt key would otherwise be ignored and its default (no epilogue, batch 1, no padding) used silently.
  std::string err = problem_error(problem_text("epilog = \"relu\"\n"));
  EXPECT_NE(err.find("p.toml:5:1: error[H002]: `epilog` is not a key of a problem"), std::string::npos) << err;
  EXPECT_NE(err.find("did you mean `epilogue`?"), std::string::npos) << err;
  err = problem_error(problem_text("", kOperands, "shapes = [ { m = 64, n = 64, kk = 64 } ]\n"));
  EXPECT_NE(err.find("p.toml:5:30: error[H002]: `kk` is not a key of shape 1 of `gemm`"), std::string::npos) << err;
  err = problem_error(problem_text("", kOperands, "shapes = [ { m = 64, n = 64, k = 64, batch = 2 } ]\n"));
  EXPECT_NE(err.find("`batch` is not a key of shape 1 of `gemm`"), std::string::npos) << err;  // batched_gemm's
  err = problem_error(
      "name = \"c\"\nop = \"conv2d\"\na = \"f16\"\nb = \"f16\"\nd = \"f16\"\n"
      "shapes = [ { n = 1, h = 8, w = 8, c = 8, k = 8, r = 3, s = 3, padding = [1, 1] } ]\n");
  EXPECT_NE(err.find("`padding` is not a key of shape 1 of `conv2d`"), std::string::npos) << err;
  EXPECT_NE(err.find("shape 1 of `conv2d` takes `n`, `c`, `k`, `pad`"), std::string::npos) << err;
  err = problem_error(
      "name = \"c\"\nop = \"conv1d\"\na = \"f16\"\nb = \"f16\"\nd = \"f16\"\n"
      "shapes = [ { n = 1, h = 8, w = 8, c = 8, k = 8, s = 3 } ]\n");
  EXPECT_NE(err.find("`h` is not a key of shape 1 of `conv1d`"), std::string::npos) << err;
  err = problem_error(problem_text("tolerance = { atol = 1e-2, rtl = 1e-2 }\n"));
  EXPECT_NE(err.find("error[H002]: `rtl` is not a key of `tolerance`"), std::string::npos) << err;
  EXPECT_NE(err.find("did you mean `rtol`?"), std::string::npos) << err;
}

TEST(Problem, ConvShapeErrorsNameTheField) {
  std::string head = "name = \"c\"\nop = \"conv1d\"\na = \"f16\"\nb = \"f16\"\nd = \"f16\"\n";
  EXPECT_NE(problem_error(head + "shapes = [ { n = 1, w = 8, c = 8, k = 8 } ]\n")
                .find("needs positive n, w, c, k, s"),
            std::string::npos);
  EXPECT_NE(problem_error(head + "shapes = [ { n = 1, w = 4294967296, c = 8, k = 8, s = 3 } ]\n")
                .find("below 2^31"),
            std::string::npos);
  EXPECT_NE(problem_error(head + "shapes = [ { n = 1, w = 8, c = 8, k = 8, s = 3, pad = [1, 1] } ]\n")
                .find("`pad` is an array of 1 integer"),
            std::string::npos);
  EXPECT_NE(problem_error(head + "shapes = [ { n = 1, w = 4, c = 8, k = 8, s = 3, dilation = [3] } ]\n")
                .find("output would be empty"),
            std::string::npos);
  EXPECT_NE(problem_error("name = \"c\"\nop = \"conv4d\"\na = \"f16\"\nb = \"f16\"\nd = \"f16\"\n"
                          "shapes = [ { m = 1, n = 1, k = 1 } ]\n")
                .find("error[H005]: unknown operator `conv4d`"),
            std::string::npos);
}

TEST(AlignmentViolation, ConvChannelsMustHoldWholeVectors) {
  KernelConfig k = lowered_config(
      "kernel k : sm90a\n  conv2d(X: f16[N,H,W,C], W: f16[K,R,S,C], acc: f32)\n  >> store(Y: "
      "f16[N,P,Q,K])\n");
  ConvShape c;
  c.dims = 2;
  c.n = 1, c.in = {1, 16, 16}, c.c = 12, c.k = 64, c.filter = {1, 3, 3};
  auto v = violation_text(k, conv_gemm_shape(c));
  ASSERT_TRUE(v);
  EXPECT_NE(v->find("`X` has 12 channels"), std::string::npos) << *v;
  c.c = 16;
  EXPECT_FALSE(violation_text(k, conv_gemm_shape(c)));
  c.k = 60;
  v = violation_text(k, conv_gemm_shape(c));
  ASSERT_TRUE(v);
  EXPECT_NE(v->find("`Y` has 60 channels"), std::string::npos) << *v;
}

TEST(ShapeViolation, ConvolutionRunAsAGemmNeedsAPointwiseCopy) {
  KernelConfig k = lowered_config(
      "kernel k : sm90a\n  conv2d(X: bf16[N,H,W,C] align(1) pad fold(1), W: bf16[K,R,S,C] align(1) pad, acc: "
      "f32)\n"
      "    .with_scheduler(tma_cooperative)\n  >> store(Y: f32[N,P,Q,K])\n");
  ConvShape c;
  c.dims = 2;
  c.n = 2, c.in = {1, 16, 16}, c.c = 3, c.k = 64, c.filter = {1, 1, 7}, c.stride = {1, 1, 2}, c.pad = {0, 0, 3};
  EXPECT_FALSE(violation_text(k, conv_gemm_shape(c)));  // fold(1) absorbs S's taps, stride and padding
  EXPECT_TRUE(pointwise_after_fold(c, 1));
  c.filter = {1, 3, 7};  // R's 3 taps are left
  auto v = violation_text(k, conv_gemm_shape(c));
  ASSERT_TRUE(v);
  EXPECT_NE(v->find("runs the convolution as a GEMM"), std::string::npos) << *v;
  EXPECT_NE(v->find("`pad fold(2)`"), std::string::npos) << *v;
  EXPECT_TRUE(pointwise_after_fold(c, 2));
  c.filter = {1, 1, 7};
  c.pad = {0, 1, 3};  // padding along the unfolded H
  EXPECT_FALSE(pointwise_after_fold(c, 1));
  EXPECT_TRUE(violation_text(k, conv_gemm_shape(c)));
  c.kind = ConvKind::dgrad;  // only forward convolutions are GEMMs over their pixels
  EXPECT_FALSE(pointwise_after_fold(c, 2));
}

TEST(ShapeViolation, TransposedConvPhasesCropWhatPaddingCannotExpress) {
  KernelConfig k = lowered_config(
      "kernel k : sm90a\n  conv_transpose2d(X: f16[N,H,W,C], W: f16[C,R,S,K], acc: f32)\n"
      "  >> store(Y: f16[N,P,Q,K])\n");
  ConvShape c;
  c.dims = 2;
  c.kind = ConvKind::dgrad;
  c.n = 1, c.in = {1, 18, 18}, c.c = 16, c.k = 32, c.filter = {1, 3, 3};
  EXPECT_FALSE(violation_text(k, conv_gemm_shape(c)));
  c.pad = {0, 2, 2};  // dilation x (filter - 1) = 2: the flipped filter needs no padding
  EXPECT_FALSE(violation_text(k, conv_gemm_shape(c)));
  c.pad = {0, 3, 0};  // beyond it: the phase reads a cropped X instead of negative padding
  auto cropped = violation_text(k, conv_gemm_shape(c));
  EXPECT_FALSE(cropped) << *cropped;
  c.stride = {1, 2, 1};
  for (int pad : {3, 4, 5}) {
    c.pad = {0, pad, 0};
    auto strided = violation_text(k, conv_gemm_shape(c));
    EXPECT_FALSE(strided) << *strided;
  }
  c.stride = {1, 65, 65};  // 4225 phases, one launch each
  auto v = violation_text(k, conv_gemm_shape(c));
  ASSERT_TRUE(v);
  EXPECT_NE(v->find("more than 4096 output phases"), std::string::npos) << *v;
  EXPECT_NE(v->find("multistage"), std::string::npos) << *v;  // says which kernel runs it
  c.pad = {0, 0, 0};
  // Channels: X and the phases' filters are read with the transposed input's channels (the forward k) innermost.
  c.stride = {1, 1, 1};
  c.k = 12;
  v = violation_text(k, conv_gemm_shape(c));
  ASSERT_TRUE(v);
  EXPECT_NE(v->find("`X` has 12 channels"), std::string::npos) << *v;
}

TEST(ShapeViolation, FilterGradientChecksEachTensorsChannels) {
  KernelConfig k = lowered_config(
      "kernel k : sm90a\n  conv2d_wgrad(DY: bf16[N,P,Q,K], X: bf16[N,H,W,C], acc: f32)\n"
      "  >> store(DW: f32[K,R,S,C])\n");
  ConvShape c;
  c.dims = 2;
  c.kind = ConvKind::wgrad;
  c.n = 2, c.in = {1, 16, 16}, c.c = 16, c.k = 32, c.filter = {1, 3, 3};
  EXPECT_FALSE(violation_text(k, conv_gemm_shape(c)));
  c.c = 6;  // X's channels, and DW's innermost extent
  auto v = violation_text(k, conv_gemm_shape(c));
  ASSERT_TRUE(v);
  EXPECT_NE(v->find("`X` has 6 channels"), std::string::npos) << *v;
  c.c = 16, c.k = 20;
  v = violation_text(k, conv_gemm_shape(c));
  ASSERT_TRUE(v);
  EXPECT_NE(v->find("`DY` has 20 channels"), std::string::npos) << *v;
}

TEST(ShapeViolation, Im2colLimitsOfTheTmaLoads) {
  KernelConfig k = lowered_config(
      "kernel k : sm90a\n  conv3d(X: f16[N,D,H,W,C], W: f16[K,T,R,S,C], acc: f32)\n  >> store(Y: "
      "f16[N,Z,P,Q,K])\n");
  ConvShape c;
  c.dims = 3;
  c.n = 1, c.in = {40, 40, 40}, c.c = 16, c.k = 16, c.filter = {3, 3, 3};
  c.pad = {16, 1, 1};  // 3D: corners within [-16, 15]
  EXPECT_FALSE(violation_text(k, conv_gemm_shape(c)));
  c.pad = {17, 1, 1};
  auto v = violation_text(k, conv_gemm_shape(c));
  ASSERT_TRUE(v);
  EXPECT_NE(v->find("pads depth by 17"), std::string::npos) << *v;
  c.pad = {1, 1, 1};
  c.dilation = {1, 1, 16};  // reach 32 >= 31
  v = violation_text(k, conv_gemm_shape(c));
  ASSERT_TRUE(v);
  EXPECT_NE(v->find("spans 33 pixels along width"), std::string::npos) << *v;
  // A transposed convolution runs padded by dilation (filter - 1) - pad: filter 7, dilation 3 pads by 18 in 3D.
  KernelConfig t = lowered_config(
      "kernel k : sm90a\n  conv_transpose3d(X: f16[N,D,H,W,C], W: f16[C,T,R,S,K], acc: f32)\n"
      "  >> store(Y: f16[N,Z,P,Q,K])\n");
  ConvShape d;
  d.dims = 3;
  d.kind = ConvKind::dgrad;
  d.n = 1, d.in = {40, 40, 40}, d.c = 16, d.k = 16, d.filter = {1, 1, 7}, d.dilation = {1, 1, 3};
  v = violation_text(t, conv_gemm_shape(d));
  ASSERT_TRUE(v);
  EXPECT_NE(v->find("pads width by 18"), std::string::npos) << *v;
  d.pad = {0, 0, 2};  // 18 - 2 = 16: inside
  EXPECT_FALSE(violation_text(t, conv_gemm_shape(d)));
}

// ---- semantic_mismatch ----

Problem mlp_problem() {
  return parse_ok(problem_text("epilogue = \"bias(col) >> gelu_tanh\"\n"));
}

TEST(SemanticMismatch, SameSemanticsMatch) {
  Problem p = mlp_problem();
  KernelConfig k = lowered_config(
      spec("A: bf16[M,K] row, B: bf16[K,N] col", "  >> bias(col)\n  >> gelu_tanh\n", "D: bf16[M,N] row"));
  auto m = semantic_mismatch(p, k);
  EXPECT_FALSE(m) << *m;
  // The problem matches its own semantics, and the shipped example spec.
  EXPECT_FALSE(semantic_mismatch(p, p.semantics));
}

TEST(SemanticMismatch, AlignmentIsARequirementNotSemantics) {
  // A kernel that accepts 1-element rows (the 2.x SIMT kernel) computes a problem declared with 16-byte rows;
  // shape_violation checks each shape against what the kernel needs.
  Problem p = parse_ok(
      "name = \"f32\"\na = \"f32 row\"\nb = \"f32 col\"\nd = \"f32 row\"\nmath = \"native\"\n"
      "shapes = [ { m = 64, n = 64, k = 64 } ]\n");
  KernelConfig k = lowered_config(
      "kernel k : sm80\n  gemm(A: f32[M,K] row, B: f32[K,N] col, acc: f32, math = native)\n"
      "    .with_threadblockshape(128, 128, 8)\n  >> store(D: f32[M,N] row)\n");
  EXPECT_EQ(k.output().align.value, 1);
  auto m = semantic_mismatch(p, k);
  EXPECT_FALSE(m) << *m;
}

TEST(SemanticMismatch, ShippedExampleMatchesShippedProblem) {
  std::string err;
  auto p = load_problem(ucut::test_paths::source_dir() + "/problems/mlp_up_bf16.toml", &err);
  ASSERT_TRUE(p) << err;
  KernelConfig k = lowered_config(
      "kernel mlp_up : sm90a\n  gemm(A: bf16[M,K] row, B: bf16[K,N] col, acc: f32)\n"
      "    .with_threadblockshape(128, 256, 64)\n    .with_cluster(2, 1, 1)\n    "
      ".with_scheduler(tma_cooperative)\n"
      "  >> bias(col)\n  >> gelu_tanh\n  >> store(D: bf16[M,N] row)\n");
  auto m = semantic_mismatch(*p, k);
  EXPECT_FALSE(m) << *m;
}

TEST(SemanticMismatch, EveryExampleComputesItsSmokeProblem) {
  // bench/smoke runs examples/<name>.ucut against problems/examples/<name>.toml; a mismatch there is found here.
  const std::filesystem::path root(ucut::test_paths::source_dir());
  int examples = 0;
  for (const auto& entry : std::filesystem::directory_iterator(root / "examples")) {
    if (entry.path().extension() != ".ucut") continue;
    ++examples;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    SourceFile src(entry.path().string(), text.str());
    Compilation c = compile_spec(src, StopAfter::lower);
    ASSERT_TRUE(c.ok()) << entry.path();
    // A pipeline with a family stage has no problem file: the harness has no reference of family stages yet (H007).
    if (c.pipeline && has_family_stage(*c.pipeline)) continue;
    std::string err;
    auto p = load_problem((root / "problems" / "examples" / entry.path().stem()).string() + ".toml", &err);
    ASSERT_TRUE(p) << err;
    auto m = c.pipeline ? pipeline_mismatch(*p, *c.pipeline) : semantic_mismatch(*p, *c.config);
    EXPECT_FALSE(m) << entry.path() << ": " << *m;
  }
  EXPECT_GE(examples, 14);
}

TEST(SemanticMismatch, PaddingIsHowNotWhat) {
  Problem p = parse_ok(problem_text("epilogue = \"bias(col)\"\n"));
  KernelConfig k = lowered_config(spec("A: bf16[M,K] row align(1) pad, B: bf16[K,N] col align(1) pad",
                                       "  >> bias(col)\n", "D: bf16[M,N] row align(1) pad"));
  auto m = semantic_mismatch(p, k);
  EXPECT_FALSE(m) << *m;
}

TEST(SemanticMismatch, OperandDtypeNamesTheOperand) {
  Problem p = mlp_problem();
  KernelConfig k = lowered_config(
      spec("A: f16[M,K] row, B: bf16[K,N] col", "  >> bias(col)\n  >> gelu_tanh\n", "D: bf16[M,N] row"));
  auto m = semantic_mismatch(p, k);
  ASSERT_TRUE(m);
  EXPECT_NE(m->find("operand A"), std::string::npos) << *m;
  EXPECT_NE(m->find("f16 row"), std::string::npos) << *m;
}

TEST(SemanticMismatch, OperandLayoutNamesTheOperand) {
  Problem p = mlp_problem();
  KernelConfig k = lowered_config(
      spec("A: bf16[M,K] row, B: bf16[K,N] row", "  >> bias(col)\n  >> gelu_tanh\n", "D: bf16[M,N] row"));
  auto m = semantic_mismatch(p, k);
  ASSERT_TRUE(m);
  EXPECT_NE(m->find("operand B"), std::string::npos) << *m;
  EXPECT_NE(m->find("`bf16 col` in the problem"), std::string::npos) << *m;
  EXPECT_NE(m->find("`bf16 row` in the spec"), std::string::npos) << *m;
}

TEST(SemanticMismatch, OutputDtypeNamesTheOutput) {
  Problem p = mlp_problem();
  KernelConfig k = lowered_config(
      spec("A: bf16[M,K] row, B: bf16[K,N] col", "  >> bias(col)\n  >> gelu_tanh\n", "D: f32[M,N] row"));
  auto m = semantic_mismatch(p, k);
  ASSERT_TRUE(m);
  EXPECT_NE(m->find("operand D"), std::string::npos) << *m;
}

TEST(SemanticMismatch, DifferentEpilogueChain) {
  Problem p = mlp_problem();
  for (const char* chain : {"  >> bias(col)\n  >> gelu\n",          // another activation
                            "  >> bias(row)\n  >> gelu_tanh\n",      // bias over the other axis
                            "  >> gelu_tanh\n  >> bias(col)\n",      // the stages swapped
                            "  >> bias(col)\n",                      // a stage missing
                            ""}) {
    KernelConfig k = lowered_config(spec("A: bf16[M,K] row, B: bf16[K,N] col", chain, "D: bf16[M,N] row"));
    auto m = semantic_mismatch(p, k);
    ASSERT_TRUE(m) << chain;
    EXPECT_NE(m->find("epilogue"), std::string::npos) << *m;
  }
}

TEST(SemanticMismatch, Reductions) {
  Problem p = parse_ok(problem_text("epilogue = \"scale(alpha = 0.125) >> row_max(R: f32[M])\"\n"));
  const std::string ab = "A: bf16[M,K] row, B: bf16[K,N] col";
  // The vector's name is the spec's to choose.
  KernelConfig same =
      lowered_config(spec(ab, "  >> scale(alpha = 0.125)\n  >> row_max(Rmax: f32[M])\n", "D: bf16[M,N] row"));
  auto m = semantic_mismatch(p, same);
  EXPECT_FALSE(m) << *m;
  for (const char* chain : {"  >> scale(alpha = 0.125)\n  >> row_sum(R: f32[M])\n",  // sum for max
                            "  >> scale(alpha = 0.125)\n  >> col_max(R: f32[N])\n",  // the other axis
                            "  >> row_max(R: f32[M])\n  >> scale(alpha = 0.125)\n",  // reduced before the scale
                            "  >> scale(alpha = 0.125)\n"}) {                           // not reduced at all
    KernelConfig k = lowered_config(spec(ab, chain, "D: bf16[M,N] row"));
    auto why = semantic_mismatch(p, k);
    ASSERT_TRUE(why) << chain;
    EXPECT_NE(why->find("epilogue"), std::string::npos) << *why;
  }
}

TEST(SemanticMismatch, DifferentOperator) {
  Problem p = parse_ok(problem_text("op = \"batched_gemm\"\n", "a = \"f16 row\"\nb = \"f16 col\"\nd = \"f16 row\"\n"));
  KernelConfig k = lowered_config(spec("A: f16[M,K] row, B: f16[K,N] col", "", "D: f16[M,N] row"));
  auto m = semantic_mismatch(p, k);
  ASSERT_TRUE(m);
  EXPECT_NE(m->find("batched_gemm"), std::string::npos) << *m;
}

TEST(SemanticMismatch, ScalarDefaultsDoNotCount) {
  // The harness passes the problem's scalars at run time, so a differing default is not a mismatch.
  Problem p = parse_ok(problem_text("epilogue = \"scale(alpha = 0.125)\"\n"));
  KernelConfig k = lowered_config(
      spec("A: bf16[M,K] row, B: bf16[K,N] col", "  >> scale(alpha = 0.5)\n", "D: bf16[M,N] row"));
  auto m = semantic_mismatch(p, k);
  EXPECT_FALSE(m) << *m;
  // ... but dropping the stage does.
  KernelConfig none = lowered_config(spec("A: bf16[M,K] row, B: bf16[K,N] col", "", "D: bf16[M,N] row"));
  EXPECT_TRUE(semantic_mismatch(p, none));
}

TEST(SemanticMismatch, TuningChoicesDoNotCount) {
  Problem p = mlp_problem();
  KernelConfig k = lowered_config(
      "kernel other_name : sm90a\n  gemm(A: bf16[M,K] row, B: bf16[K,N] col, acc: f32)\n"
      "    .with_threadblockshape(64, 128, 64)\n    .with_scheduler(tma_pingpong)\n"
      "  >> bias(col)\n  >> gelu_tanh\n  >> store(D: bf16[M,N] row)\n");
  auto m = semantic_mismatch(p, k);
  EXPECT_FALSE(m) << *m;
}

// ---- precision_change ----

TEST(PrecisionChange, Tf32KernelForAnExactF32Problem) {
  const std::string f32 = "a = \"f32 row\"\nb = \"f32 col\"\nd = \"f32 row\"\n";
  Problem exact = parse_ok(problem_text("", f32));
  Problem tf32 = parse_ok(problem_text("math = \"tf32\"\n", f32));
  KernelConfig k_tf32 = lowered_config(
      "kernel k : sm90a\n  gemm(A: f32[M,K] row, B: f32[K,N] col, acc: f32, math = tf32)\n"
      "    .with_threadblockshape(128, 128, 32)\n    .with_scheduler(tma_cooperative)\n"
      "  >> store(D: f32[M,N] row)\n");
  ASSERT_EQ(k_tf32.math.value, MathMode::tf32);
  EXPECT_TRUE(precision_change(exact, k_tf32));
  EXPECT_FALSE(precision_change(tf32, k_tf32));
  EXPECT_FALSE(precision_change(exact, exact.semantics));
  // A bf16 problem has nothing to lose to tf32.
  EXPECT_FALSE(precision_change(
      mlp_problem(), lowered_config(spec("A: bf16[M,K] row, B: bf16[K,N] col", "", "D: bf16[M,N] row"))));
}

TEST(PrecisionChange, OperandsConvertedToSixteenBits) {
  const std::string f32 = "a = \"f32 row\"\nb = \"f32 col\"\nd = \"f32 row\"\n";
  Problem tf32 = parse_ok(problem_text("math = \"tf32\"\n", f32));
  KernelConfig converted = lowered_config(
      "kernel k : sm90a\n  gemm(A: bf16[M,K] row from(f32), B: bf16[K,N] col from(f32), acc: f32)\n"
      "    .with_threadblockshape(128, 128, 64)\n  >> store(D: f32[M,N] row)\n");
  EXPECT_TRUE(narrows_operands(converted));
  EXPECT_TRUE(precision_change(tf32, converted));  // below even TF32's 10 mantissa bits
  // The problem sees the operands as the caller passes them: f32.
  auto m = semantic_mismatch(tf32, converted);
  EXPECT_FALSE(m) << *m;
  KernelConfig widened = lowered_config(
      "kernel k : sm90a\n  gemm(A: f32[M,K] row from(bf16), B: f32[K,N] col from(bf16), acc: f32)\n"
      "    .with_threadblockshape(128, 128, 32)\n  >> store(D: f32[M,N] row)\n");
  EXPECT_FALSE(narrows_operands(widened));
}

}  // namespace
}  // namespace ucut
