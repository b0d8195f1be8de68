// tests/unit/ir/abi_slots_test.cpp — ir/abi_slots.cpp: runtime parameters get ABI slots in `>>` chain order, one
// list per kind (vectors, scalars, aux outputs), as abi/kernel_abi.h documents and the harness relies on.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <string>
#include <string_view>

#include "compiler/pipeline.h"
#include "ir/abi_slots.h"
#include "support/error.h"

namespace ucut {
namespace {

KernelConfig lowered(std::string_view chain) {
  std::string text = fmt::format(
      "kernel k : sm90a\n  gemm(A: bf16[M,K] row, B: bf16[K,N] col, acc: f32)\n  {}\n", chain);
  SourceFile src("slots.ucut", text);
  Compilation c = compile_spec(src, StopAfter::lower);
  EXPECT_TRUE(c.ok() && c.config) << text;
  return c.config ? *c.config : KernelConfig{};
}

TEST(AbiSlots, PlainStoreHasNoSlots) {
  AbiSlots s = abi_slots(lowered(">> store(D: bf16[M,N] row)"));
  EXPECT_TRUE(s.vectors.empty());
  EXPECT_TRUE(s.scalars.empty());
  EXPECT_TRUE(s.aux.empty());
}

TEST(AbiSlots, EachKindIsNumberedInChainOrder) {
  // stage:  0            1          2                          3                     4
  //         scale(alpha) bias(col)  residual(C, beta = 0.25)   aux_store(Z)          channel_scale(row, f32)
  // stage:  5              6     7                    8
  //         scale(0.5)     relu  aux_store(Y)         store(D)
  KernelConfig cfg = lowered(
      ">> scale(alpha) >> bias(col) >> residual(C: bf16[M,N] row, beta = 0.25) >> aux_store(Z: bf16[M,N] row) >> "
      "channel_scale(row, f32) >> scale(0.5) >> relu >> aux_store(Y: f16[M,N] row) >> store(D: bf16[M,N] row)");
  ASSERT_EQ(cfg.epilogue.size(), 9u);
  AbiSlots s = abi_slots(cfg);

  ASSERT_EQ(s.vectors.size(), 2u);
  EXPECT_EQ(s.vectors[0].stage, 1u);
  EXPECT_EQ(s.vectors[0].axis, Axis::col);
  EXPECT_EQ(s.vectors[0].dtype, DType::bf16);  // no type given: the output's type
  EXPECT_EQ(s.vectors[1].stage, 4u);
  EXPECT_EQ(s.vectors[1].axis, Axis::row);
  EXPECT_EQ(s.vectors[1].dtype, DType::f32);

  // Scalars: `scale` and the residual's beta share one list, in chain order.
  ASSERT_EQ(s.scalars.size(), 3u);
  EXPECT_EQ(s.scalars[0].stage, 0u);
  EXPECT_EQ(s.scalars[0].name, "alpha");
  EXPECT_EQ(s.scalars[0].default_value, 1.0);
  EXPECT_EQ(s.scalars[1].stage, 2u);
  EXPECT_EQ(s.scalars[1].name, "beta");
  EXPECT_EQ(s.scalars[1].default_value, 0.25);
  EXPECT_EQ(s.scalars[2].stage, 5u);
  EXPECT_EQ(s.scalars[2].name, "scale1");  // an unnamed scale is named by its index among the `scale` stages
  EXPECT_EQ(s.scalars[2].default_value, 0.5);

  ASSERT_EQ(s.aux.size(), 2u);
  EXPECT_EQ(s.aux[0].stage, 3u);
  EXPECT_EQ(s.aux[1].stage, 7u);
}

TEST(AbiSlots, ScaleSpellingsNameTheScalar) {
  auto only = [](std::string_view chain) {
    AbiSlots s = abi_slots(lowered(chain));
    EXPECT_EQ(s.scalars.size(), 1u) << chain;
    return s.scalars.empty() ? AbiSlots::Scalar{} : s.scalars[0];
  };
  AbiSlots::Scalar bare = only(">> scale >> store(D: bf16[M,N] row)");
  EXPECT_EQ(bare.name, "alpha");
  EXPECT_EQ(bare.default_value, 1.0);
  AbiSlots::Scalar named = only(">> scale(gamma) >> store(D: bf16[M,N] row)");
  EXPECT_EQ(named.name, "gamma");
  EXPECT_EQ(named.default_value, 1.0);
  AbiSlots::Scalar kw = only(">> scale(alpha = 0.125) >> store(D: bf16[M,N] row)");
  EXPECT_EQ(kw.name, "alpha");
  EXPECT_EQ(kw.default_value, 0.125);
  AbiSlots::Scalar num = only(">> scale(2) >> store(D: bf16[M,N] row)");
  EXPECT_EQ(num.name, "scale0");
  EXPECT_EQ(num.default_value, 2.0);
  AbiSlots::Scalar res = only(">> residual(C: bf16[M,N] row) >> store(D: bf16[M,N] row)");
  EXPECT_EQ(res.name, "beta");
  EXPECT_EQ(res.default_value, 1.0);
}

TEST(AbiSlots, ActivationsCastsAndStoreTakeNoSlot) {
  AbiSlots s = abi_slots(lowered(">> relu >> leaky_relu(0.2) >> clamp(-1, 1) >> cast(f16) >> store(D: bf16[M,N] row)"));
  EXPECT_TRUE(s.vectors.empty());
  EXPECT_TRUE(s.scalars.empty());
  EXPECT_TRUE(s.aux.empty());
}

TEST(AbiSlots, SlotIndexFindsAStageOrCallsItABug) {
  std::vector<AbiSlots::Aux> aux = {{1}, {4}};
  EXPECT_EQ(slot_index(aux, 4), 1u);
  EXPECT_THROW(slot_index(aux, 2), InternalError);  // the emitters' invariant: abi_slots gave stage 2 none
}

}  // namespace
}  // namespace ucut
