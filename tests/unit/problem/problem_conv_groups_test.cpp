// tests/unit/problem/problem_conv_groups_test.cpp — eval/problem.h for grouped and depthwise convolutions: `groups` in
// problem files (grouped_conv2d needs it, depthwise_conv2d implies it, dense convolutions refuse it, grouped GEMMs
// keep their problem lists), the shipped problem files, semantic_mismatch between the conv families, and
// shape_violation's per-backend geometry (SM90's transposed-convolution limits, CUTLASS 2.x's dilation limit), its
// per-group channel alignment and the filter size a spec fixes.
#include <gtest/gtest.h>

#include <string>

#include "../test_paths.h"
#include "compiler/pipeline.h"
#include "problem/match.h"
#include "problem/problem.h"
#include "problem_text.h"

namespace ucut {
namespace {

std::string conv_problem(const std::string& op, const std::string& shapes, const std::string& dtype = "f32") {
  return "name = \"g\"\nop = \"" + op + "\"\na = \"" + dtype + "\"\nb = \"" + dtype + "\"\nd = \"" + dtype +
         "\"\nshapes = [\n" + shapes + "]\n";
}

Problem parse_ok(const std::string& text) {
  std::string err;
  auto p = parse_problem(text, "p.toml", &err);
  EXPECT_TRUE(p) << err;
  return p ? *p : Problem{};
}

constexpr const char* kGood = "  { n = 1, h = 8, w = 8, c = 8, k = 8, r = 3, s = 3, groups = 2 },\n";

// ---- parsing ----

TEST(ProblemGroups, GroupedConvCarriesItsGroupsAndPerGroupReduction) {
  Problem p = parse_ok(conv_problem(
      "grouped_conv2d",
      "  { n = 32, h = 56, w = 56, c = 256, k = 128, groups = 32, r = 3, s = 3, pad = [1, 1], label = \"x\" },\n"));
  EXPECT_EQ(p.semantics.op.value, OpKind::grouped_conv2d);
  ASSERT_EQ(p.shapes.size(), 1u);
  const GemmShape& g = p.shapes[0];
  EXPECT_EQ(g.conv.groups, 32);
  EXPECT_EQ(g.conv.group_c(), 8);
  EXPECT_EQ(g.m, 32 * 56 * 56);
  EXPECT_EQ(g.n, 128);
  EXPECT_EQ(g.k, 9 * 8);  // each output channel reduces over its group's 8 channels
  EXPECT_EQ(g.conv.w_elements(), 128 * 9 * 8);
  EXPECT_NE(semantics_text(p).find("grouped_conv2d(X: f32[N,H,W,C], W: f32[K,R,S,CG]"), std::string::npos)
      << semantics_text(p);
}

TEST(ProblemGroups, DepthwiseImpliesKAndGroups) {
  Problem p = parse_ok(conv_problem("depthwise_conv2d",
                                    "  { n = 2, h = 9, w = 9, c = 24, r = 3, s = 3 },\n"
                                    "  { n = 2, h = 9, w = 9, c = 24, k = 24, groups = 24, r = 3, s = 3 },\n"));
  ASSERT_EQ(p.shapes.size(), 2u);
  for (const GemmShape& g : p.shapes) {
    EXPECT_EQ(g.conv.k, 24);
    EXPECT_EQ(g.conv.groups, 24);
    EXPECT_EQ(g.n, 24);
    EXPECT_EQ(g.k, 9);  // one channel per output channel
    EXPECT_EQ(g.conv.w_elements(), 24 * 9);
  }
  EXPECT_NE(semantics_text(p).find("depthwise_conv2d(X: f32[N,H,W,C], W: f32[C,R,S,1]"), std::string::npos)
      << semantics_text(p);
  EXPECT_NE(semantics_text(p).find("store(Y: f32[N,P,Q,C])"), std::string::npos) << semantics_text(p);
}

TEST(ProblemGroups, DenseConvolutionsHaveOneGroup) {
  Problem p = parse_ok(conv_problem("conv2d", "  { n = 1, h = 8, w = 8, c = 8, k = 8, r = 3, s = 3 },\n"));
  EXPECT_EQ(p.shapes[0].conv.groups, 1);
}

TEST(ProblemGroupsErrors, GroupedConvNeedsGroups) {
  std::string err = problem_error(conv_problem(
      "grouped_conv2d", std::string(kGood) + "  { n = 1, h = 8, w = 8, c = 8, k = 8, r = 3, s = 3 },\n"));
  EXPECT_NE(err.find("shape 2 of `grouped_conv2d` needs `groups = G`"), std::string::npos) << err;
}

TEST(ProblemGroupsErrors, GroupsMustBeAPositiveInteger) {
  for (const char* g : {"0", "-2", "2.0", "\"2\"", "[[8, 8, 8]]", "4294967296"}) {
    std::string err = problem_error(conv_problem(
        "grouped_conv2d",
        std::string(kGood) + "  { n = 1, h = 8, w = 8, c = 8, k = 8, r = 3, s = 3, groups = " + g + " },\n"));
    EXPECT_NE(err.find("shape 2 of `grouped_conv2d`"), std::string::npos) << g << ": " << err;
    EXPECT_NE(err.find("`groups` must be an integer from 1"), std::string::npos) << g << ": " << err;
  }
}

TEST(ProblemGroupsErrors, GroupsMustDivideBothChannelCounts) {
  std::string err = problem_error(conv_problem(
      "grouped_conv2d",
      std::string(kGood) + "  { n = 1, h = 8, w = 8, c = 12, k = 18, r = 3, s = 3, groups = 4 },\n"));
  EXPECT_NE(err.find("shape 2 of `grouped_conv2d` has `groups` = 4, which does not divide both c = 12 and k = 18"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("divides 6"), std::string::npos) << err;  // gcd(12, 18)
  err = problem_error(conv_problem("grouped_conv2d",
                                   "  { n = 1, h = 8, w = 8, c = 16, k = 12, r = 3, s = 3, groups = 8 },\n"));
  EXPECT_NE(err.find("shape 1 of `grouped_conv2d` has `groups` = 8"), std::string::npos) << err;
}

TEST(ProblemGroupsErrors, DepthwiseKAndGroupsMustBeC) {
  std::string err = problem_error(
      conv_problem("depthwise_conv2d", "  { n = 1, h = 8, w = 8, c = 8, k = 16, r = 3, s = 3 },\n"));
  EXPECT_NE(err.find("shape 1 of `depthwise_conv2d` has k = 16 but c = 8"), std::string::npos) << err;
  EXPECT_NE(err.find("grouped_conv2d"), std::string::npos) << err;
  err = problem_error(conv_problem("depthwise_conv2d",
                                   "  { n = 1, h = 8, w = 8, c = 8, r = 3, s = 3 },\n"
                                   "  { n = 1, h = 8, w = 8, c = 8, r = 3, s = 3, groups = 4 },\n"));
  EXPECT_NE(err.find("shape 2 of `depthwise_conv2d` has `groups` = 4 but c = 8"), std::string::npos) << err;
  err = problem_error(conv_problem("depthwise_conv2d", "  { n = 1, h = 8, w = 8, r = 3, s = 3 },\n"));
  EXPECT_NE(err.find("needs positive n, h, w, c, r, s"), std::string::npos) << err;  // k is not asked for
}

TEST(ProblemGroupsErrors, DenseConvolutionsRefuseGroups) {
  for (const char* op : {"conv2d", "conv_transpose2d", "conv2d_wgrad"}) {
    std::string err = problem_error(
        conv_problem(op, "  { n = 1, h = 8, w = 8, c = 8, k = 8, r = 3, s = 3, groups = 2 },\n"));
    EXPECT_NE(err.find(std::string("shape 1 of `") + op + "` has `groups`, but `" + op + "` is a dense convolution"),
              std::string::npos)
        << err;
    EXPECT_NE(err.find("op = \"grouped_conv2d\""), std::string::npos) << err;
  }
}

TEST(ProblemGroups, GroupedGemmProblemListsStillParse) {
  Problem p = parse_ok(
      "name = \"g\"\nop = \"grouped_gemm\"\na = \"bf16 row\"\nb = \"bf16 col\"\nd = \"bf16 row\"\n"
      "shapes = [ { groups = [[64, 128, 32], [16, 128, 32]] } ]\n");
  ASSERT_EQ(p.shapes.size(), 1u);
  EXPECT_EQ(p.shapes[0].groups.size(), 2u);
  EXPECT_FALSE(p.shapes[0].is_conv());
}

TEST(ProblemGroups, ShippedProblemFilesLoad) {
  struct File {
    const char* path;
    OpKind op;
    size_t shapes;
  };
  for (File f : {File{"problems/kernelbench_depthwise_f32.toml", OpKind::depthwise_conv2d, 4},
                 File{"problems/kernelbench_grouped_conv2d.toml", OpKind::grouped_conv2d, 5},
                 File{"problems/kernelbench_grouped_conv2d_bf16.toml", OpKind::grouped_conv2d, 5},
                 File{"problems/examples/depthwise_conv2d_f32.toml", OpKind::depthwise_conv2d, 2},
                 File{"problems/examples/grouped_conv2d_bf16.toml", OpKind::grouped_conv2d, 2}}) {
    std::string err;
    auto p = load_problem(ucut::test_paths::source_dir() + "/" + f.path, &err);
    ASSERT_TRUE(p) << f.path << ": " << err;
    EXPECT_EQ(p->semantics.op.value, f.op) << f.path;
    EXPECT_EQ(p->shapes.size(), f.shapes) << f.path;
  }
  std::string err;
  auto kb = load_problem(ucut::test_paths::source_dir() + "/problems/kernelbench_depthwise_f32.toml", &err);
  ASSERT_TRUE(kb) << err;
  EXPECT_EQ(kb->semantics.math.value, MathMode::native);  // exact f32, as cuDNN runs these under PyTorch
  const ConvShape& l82 = kb->shapes[0].conv;
  EXPECT_EQ(kb->shapes[0].label, "L1/82");
  EXPECT_EQ(std::vector<int64_t>({l82.n, l82.c, l82.k, l82.groups, l82.out(1), l82.out(2)}),
            std::vector<int64_t>({16, 64, 64, 64, 510, 510}));
  EXPECT_EQ(kb->shapes[3].label, "L1/85");
  EXPECT_EQ(kb->shapes[3].conv.out(2), 250);
}

// ---- semantic_mismatch ----

TEST(ProblemGroups, SpecsOfTheSameFamilyMatchAndOthersDoNot) {
  Problem grouped = parse_ok("name = \"g\"\nop = \"grouped_conv2d\"\na = \"bf16\"\nb = \"bf16\"\nd = \"bf16\"\n"
                             "epilogue = \"relu\"\nshapes = [\n" + std::string(kGood) + "]\n");
  KernelConfig same = lowered_config(
      "kernel k : sm80\n  grouped_conv2d(X: bf16[N,H,W,C], W: bf16[K,R,S,CG], acc: f32)\n  >> relu\n"
      "  >> store(Y: bf16[N,P,Q,K])\n");
  auto m = semantic_mismatch(grouped, same);
  EXPECT_FALSE(m) << *m;
  KernelConfig dense = lowered_config(
      "kernel k : sm80\n  conv2d(X: bf16[N,H,W,C], W: bf16[K,R,S,C], acc: f32)\n  >> relu\n"
      "  >> store(Y: bf16[N,P,Q,K])\n");
  m = semantic_mismatch(grouped, dense);
  ASSERT_TRUE(m);
  EXPECT_NE(m->find("the problem is `grouped_conv2d` but the spec computes `conv2d`"), std::string::npos) << *m;
  Problem depthwise = parse_ok(conv_problem("depthwise_conv2d", "  { n = 1, h = 8, w = 8, c = 8, r = 3, s = 3 },\n"));
  KernelConfig dw = lowered_config(
      "kernel k : sm80\n  depthwise_conv2d(X: f32[N,H,W,C], W: f32[C,3,3,1], acc: f32)\n  >> store(Y: "
      "f32[N,P,Q,C])\n");
  m = semantic_mismatch(depthwise, dw);
  EXPECT_FALSE(m) << *m;
  EXPECT_TRUE(semantic_mismatch(grouped, dw));
}

// ---- shape_violation ----

ConvShape transposed2d() {
  ConvShape c;
  c.dims = 2;
  c.kind = ConvKind::dgrad;
  c.n = 1, c.in = {1, 18, 18}, c.c = 16, c.k = 32, c.filter = {1, 3, 3};
  return c;
}

std::string transposed_spec(const std::string& arch, const std::string& config = "") {
  return "kernel k : " + arch + "\n  conv_transpose2d(X: f16[N,H,W,C], W: f16[C,R,S,K], acc: f32)\n" + config +
         "  >> store(Y: f16[N,P,Q,K])\n";
}

TEST(ShapeViolationBackend, OverPaddedTransposedConvolutionsRunOnEveryBackend) {
  KernelConfig sm90 = lowered_config(transposed_spec("sm90a"));
  KernelConfig sm80 = lowered_config(transposed_spec("sm80"));
  KernelConfig multistage = lowered_config(transposed_spec("sm90a", "    .with_scheduler(multistage)\n"));
  ASSERT_EQ(sm90.backend(), BackendKind::sm90);
  ASSERT_EQ(sm80.backend(), BackendKind::sm80);
  ASSERT_EQ(multistage.backend(), BackendKind::sm80);
  ConvShape strided = transposed2d();
  strided.stride = {1, 2, 2};
  ConvShape beyond = strided;
  beyond.pad = {0, 4, 4};  // past the filter's reach: the SM90 kernel's phases crop X
  ConvShape padded = transposed2d();
  padded.pad = {0, 3, 3};  // beyond dilation x (filter - 1) = 2
  for (const KernelConfig* k : {&sm90, &sm80, &multistage}) {
    for (const ConvShape* c : {&strided, &beyond, &padded}) {
      auto s = violation_text(*k, conv_gemm_shape(*c));
      EXPECT_FALSE(s) << *s;
    }
  }
}

TEST(ShapeViolationBackend, Cutlass2xStridedDgradRefusesDilation) {
  KernelConfig sm80 = lowered_config(transposed_spec("sm80"));
  ConvShape dilated = transposed2d();
  dilated.dilation = {1, 1, 2};
  auto v = violation_text(sm80, conv_gemm_shape(dilated));
  ASSERT_TRUE(v);
  EXPECT_NE(v->find("dilation 2 along width"), std::string::npos) << *v;
  auto ok = violation_text(lowered_config(transposed_spec("sm90a")), conv_gemm_shape(dilated));
  EXPECT_FALSE(ok) << *ok;  // the SM90 kernel runs dilated stride-1 transposed convolutions
}

TEST(ShapeViolationBackend, Cutlass2xConvolutionsIndexTensorsBelow2GiB) {
  // KernelBench L2/2's upsampling layer: Y is 128 x 256 x 256 x 64 f16 = 1 GiB (fits); f32 would be 2 GiB.
  ConvShape c = transposed2d();
  c.n = 128, c.in = {1, 256, 256}, c.c = 64, c.k = 64, c.stride = {1, 2, 2}, c.pad = {0, 1, 1};
  auto fits = violation_text(lowered_config(transposed_spec("sm80")), conv_gemm_shape(c));
  EXPECT_FALSE(fits) << *fits;
  c.n = 256;  // Y (the forward input, the kernel's output) is now 2 GiB of f16
  auto v = violation_text(lowered_config(transposed_spec("sm80")), conv_gemm_shape(c));
  ASSERT_TRUE(v);
  EXPECT_NE(v->find("`Y` holds 2147483648 bytes (2.00 GiB)"), std::string::npos) << *v;
  auto sm90 = violation_text(lowered_config(transposed_spec("sm90a")), conv_gemm_shape(c));
  EXPECT_FALSE(sm90) << *sm90;  // TMA and the phases' offsets index in 64 bits
}

TEST(ShapeViolationBackend, Cutlass2xReadsTheTransposedFilterInPlace) {
  // 2.x dgrad reads W[k][taps][c] along c; the SM90 kernel's flipped copy along k.
  ConvShape c = transposed2d();
  c.c = 12;  // the transposed output's channels: W's innermost extent in place
  auto sm80 = violation_text(lowered_config(transposed_spec("sm80")), conv_gemm_shape(c));
  ASSERT_TRUE(sm80);
  EXPECT_NE(sm80->find("`W` has 12 channels"), std::string::npos) << *sm80;
  EXPECT_NE(sm80->find("8-element channel vectors"), std::string::npos) << *sm80;
  auto sm90 = violation_text(lowered_config(transposed_spec("sm90a")), conv_gemm_shape(c));
  ASSERT_TRUE(sm90);
  EXPECT_NE(sm90->find("`Y` has 12 channels"), std::string::npos) << *sm90;
}

TEST(ShapeViolationBackend, Im2colLimitsAreTheSm90Kernels) {
  std::string body = "  conv3d(X: f16[N,D,H,W,C], W: f16[K,T,R,S,C], acc: f32)\n  >> store(Y: f16[N,Z,P,Q,K])\n";
  ConvShape c;
  c.dims = 3;
  c.n = 1, c.in = {40, 40, 40}, c.c = 16, c.k = 16, c.filter = {3, 3, 3}, c.pad = {17, 1, 1};
  EXPECT_TRUE(violation_text(lowered_config("kernel k : sm90a\n" + body), conv_gemm_shape(c)));
  auto v = violation_text(lowered_config("kernel k : sm80\n" + body), conv_gemm_shape(c));
  EXPECT_FALSE(v) << *v;
}

TEST(ShapeViolationGroups, GroupedChannelsAlignPerGroup) {
  KernelConfig k = lowered_config(
      "kernel k : sm80\n  grouped_conv2d(X: bf16[N,H,W,C], W: bf16[K,R,S,CG], acc: f32)\n"
      "  >> store(Y: bf16[N,P,Q,K])\n");
  ConvShape c;
  c.dims = 2;
  c.n = 1, c.in = {1, 16, 16}, c.c = 64, c.k = 64, c.groups = 8, c.filter = {1, 3, 3};
  EXPECT_FALSE(violation_text(k, conv_gemm_shape(c)));  // 8 channels per group: one 16-byte bf16 vector
  c.groups = 16;  // 4 per group
  auto v = violation_text(k, conv_gemm_shape(c));
  ASSERT_TRUE(v);
  EXPECT_NE(v->find("`X` has 4 channels per group (c / groups), not a multiple of its alignment 8"),
            std::string::npos)
      << *v;
  EXPECT_NE(v->find("pad each group's channels to 8"), std::string::npos) << *v;
  c.c = 24, c.k = 12, c.groups = 3;  // 8 input channels per group, but Y's 12 break the alignment
  v = violation_text(k, conv_gemm_shape(c));
  ASSERT_TRUE(v);
  EXPECT_NE(v->find("`Y` has 12 channels,"), std::string::npos) << *v;
}

TEST(ShapeViolationGroups, AGroupsOutputChannelsMustDivideTheTileN) {
  KernelConfig k = lowered_config(
      "kernel k : sm80\n  grouped_conv2d(X: bf16[N,H,W,C], W: bf16[K,R,S,CG], acc: f32)\n"
      "    .with_threadblockshape(128, 64, 32)\n  >> store(Y: bf16[N,P,Q,K])\n");
  ConvShape c;
  c.dims = 2;
  c.n = 1, c.in = {1, 14, 14}, c.c = 480, c.k = 128, c.groups = 4, c.filter = {1, 1, 1};
  auto ok = violation_text(k, conv_gemm_shape(c));  // 32 output channels per group: two groups per 64-wide tile
  EXPECT_FALSE(ok) << *ok;
  c.k = 120, c.groups = 3;  // ShuffleNet's 40 per group
  auto v = violation_text(k, conv_gemm_shape(c));
  ASSERT_TRUE(v);
  EXPECT_NE(v->find("the 40 output channels per group (k / groups = 120 / 3) must divide the CTA tile's N = 64"),
            std::string::npos)
      << *v;
}

TEST(ShapeViolationGroups, DepthwiseChannelsAndTheFilterItIsBuiltFor) {
  KernelConfig k = lowered_config(
      "kernel k : sm80\n  depthwise_conv2d(X: f32[N,H,W,C], W: f32[C,3,3,1], acc: f32)\n"
      "  >> store(Y: f32[N,P,Q,C])\n");
  ConvShape c;
  c.dims = 2;
  c.n = 1, c.in = {1, 17, 17}, c.c = c.k = c.groups = 24, c.filter = {1, 3, 3};
  auto ok = violation_text(k, conv_gemm_shape(c));
  EXPECT_FALSE(ok) << *ok;  // W's innermost extent is 1, but the direct convolution reads it along C
  c.c = c.k = c.groups = 6;
  auto v = violation_text(k, conv_gemm_shape(c));
  ASSERT_TRUE(v);
  EXPECT_NE(v->find("`X` has 6 channels"), std::string::npos) << *v;
  c.c = c.k = c.groups = 24;
  c.filter = {1, 3, 7};
  v = violation_text(k, conv_gemm_shape(c));
  ASSERT_TRUE(v);
  EXPECT_NE(v->find("built for a 3x3 filter"), std::string::npos) << *v;
  EXPECT_NE(v->find("this shape's filter has r = 3, s = 7"), std::string::npos) << *v;
  EXPECT_NE(v->find("`W: f32[C,3,7,1]`"), std::string::npos) << *v;
}

}  // namespace
}  // namespace ucut
