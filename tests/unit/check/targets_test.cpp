// tests/unit/check/targets_test.cpp — the support matrix (check/targets.h) is what `check` accepts: every listed
// (arch, operand type, accumulator) compiles through check without an error, and what it leaves out is rejected.
#include "check/targets.h"

#include <gtest/gtest.h>

#include <algorithm>

#include <fmt/format.h>

#include "compiler/pipeline.h"

namespace ucut {
namespace {

const TargetSupport& row(Arch a) {
  static const std::vector<TargetSupport> m = support_matrix();
  for (const TargetSupport& t : m)
    if (t.arch == a) return t;
  throw std::runtime_error("no row");
}

bool lists(const TargetSupport& t, std::string_view operands) {
  for (const OperandSupport& o : t.operands)
    if (o.operands == operands) return true;
  return false;
}

/// A minimal spec for one matrix entry: operand type(s) and math from the label, D of a type the epilogue takes.
std::string spec_for(const TargetSupport& t, const OperandSupport& o, DType acc) {
  std::string label = o.operands;
  std::string a = label.substr(0, label.find_first_of(" /"));
  std::string b = label.find('/') != std::string::npos ? label.substr(label.find('/') + 1) : a;
  std::string math = label.find("math = ") != std::string::npos
                         ? ", math = " + label.substr(label.find("math = ") + 7, label.find(')') - label.find("math = ") - 7)
                         : "";
  std::string scaled = a == "e4m3" ? " scaled" : "";
  std::string d = acc == DType::i32 ? "i32" : acc == DType::f64 ? "f64" : (a == "e4m3" ? "bf16" : a);
  bool multistage = t.backend == BackendKind::sm90 && o.mma.find("multistage") != std::string::npos;
  bool simt_or_f64 = o.mma.find("SIMT") != std::string::npos || a == "f64";
  std::string align = simt_or_f64 ? " align(1)" : "";
  std::string tile = a == "f32" && math == ", math = native" ? "\n    .with_threadblockshape(128, 128, 8)" : "";
  return fmt::format("kernel k : {}\n  gemm(A: {}[M,K] row{}{}, B: {}[K,N] col{}{}, acc: {}{}){}{}\n  >> store(D: {}[M,N] row{})\n",
                     arch_info(t.arch).name, a, align, scaled, b, align, scaled, dtype_name(acc), math,
                     multistage ? "\n    .with_scheduler(multistage)" : "", tile, d,
                     a == "f32" && math == ", math = native" ? " align(1)" : "");
}

TEST(Targets, EveryListedCombinationPassesCheck) {
  int checked = 0;
  for (const TargetSupport& t : support_matrix()) {
    for (const OperandSupport& o : t.operands) {
      for (DType acc : o.accumulators) {
        std::string text = spec_for(t, o, acc);
        SourceFile src("targets.ucut", text);
        Compilation c = compile_spec(src, StopAfter::check);
        std::string errors;
        for (const Diagnostic& d : c.diags.diagnostics())
          if (d.severity == Severity::error) errors += fmt::format("\n  {}: {}", rule_info(d.rule).code, d.message);
        EXPECT_TRUE(errors.empty()) << text << errors;
        ++checked;
      }
    }
  }
  EXPECT_GE(checked, 38);  // 38 (arch, operands, accumulator) rows today; fewer means the tables lost one
}

TEST(Targets, TheMatrixFollowsTheCapabilityTables) {
  EXPECT_TRUE(row(Arch::sm70).operands.empty());
  EXPECT_TRUE(row(Arch::sm100a).operands.empty());
  EXPECT_TRUE(lists(row(Arch::sm75), "f16"));
  EXPECT_FALSE(lists(row(Arch::sm75), "bf16"));  // bf16 tensor cores arrived with Ampere
  EXPECT_FALSE(lists(row(Arch::sm80), "e4m3/e5m2"));
  EXPECT_TRUE(lists(row(Arch::sm89), "e4m3/e5m2"));
  EXPECT_TRUE(lists(row(Arch::sm90a), "f32 (math = tf32x3)"));  // through the 2.x kernel
  EXPECT_EQ(row(Arch::sm90a).backend, BackendKind::sm90);
  // [batched_,grouped_]gemm, conv{1,2,3}d[_wgrad], conv_transpose{1,2,3}d, grouped_conv2d, depthwise_conv2d,
  // map, reduce, rownorm, scan, window, sort, topk, fft, attention, sparse
  EXPECT_EQ(row(Arch::sm90a).operators.size(), 24u);
  EXPECT_EQ(row(Arch::sm80).operators.size(), 24u);
  EXPECT_EQ(row(Arch::sm75).operators.size(),
            12u);  // no depthwise_conv2d (cp.async), conv_transpose3d, or a memory-bound family
}

TEST(Targets, MapIsListedWhereItChecks) {
  for (const TargetSupport& t : support_matrix()) {
    bool listed = std::any_of(t.operators.begin(), t.operators.end(),
                              [](const std::string& o) { return o.rfind("map ", 0) == 0; });
    std::string text =
        fmt::format("kernel k : {}\n  map(input: f16[N])\n  >> relu\n  >> store(output: f16[N])\n",
                    arch_info(t.arch).name);
    SourceFile src("targets.ucut", text);
    Compilation c = compile_spec(src, StopAfter::check);
    EXPECT_EQ(listed, c.ok()) << text;
  }
}

TEST(Targets, ListedConvolutionsPassCheckAndUnlistedOnesDoNot) {
  for (const TargetSupport& t : support_matrix()) {
    for (std::string_view spelling : op_names()) {
      OpKind op = *find_op(spelling);
      if (op_family(op) != OpFamily::conv) continue;
      std::string name(spelling);
      bool listed = std::any_of(t.operators.begin(), t.operators.end(),
                                [&](const std::string& o) { return o.rfind(name + " ", 0) == 0; });
      OperandNames n = operand_names(op);
      // The depthwise direct convolution takes f32 and compiles its filter size in (C103, C423).
      bool depthwise = op_conv_grouping(op) == ConvGrouping::depthwise;
      std::string_view type = depthwise ? "f32" : "f16";  // f16: Turing has no bf16 tensor cores
      std::string_view filter = depthwise ? "C,3,3,1" : conv_extent_names(op, 'b');
      std::string text = fmt::format("kernel k : {}\n  {}({}: {}[{}], {}: {}[{}], acc: f32)\n  >> store({}: {}[{}])\n",
                                     arch_info(t.arch).name, name, n.a, type, conv_extent_names(op, 'a'), n.b, type,
                                     filter, n.d, type, conv_extent_names(op, 'd'));
      SourceFile src("targets.ucut", text);
      Compilation c = compile_spec(src, StopAfter::check);
      EXPECT_EQ(c.ok(), listed) << text;
    }
  }
}

TEST(Targets, ToolkitRanges) {
  EXPECT_FALSE(toolkit_targets(row(Arch::sm70), 130));  // nvcc 13 dropped Volta
  EXPECT_TRUE(toolkit_targets(row(Arch::sm70), 129));
  EXPECT_FALSE(toolkit_targets(row(Arch::sm90a), 118));
  EXPECT_TRUE(toolkit_targets(row(Arch::sm90a), 130));
}

}  // namespace
}  // namespace ucut
