// tests/unit/eval/precision_test.cpp — eval/precision.h: the classifier fed with the errors of real
// roundings. FP32 operands drawn as the harness draws them (uniform, normal, mixed magnitudes; signed; the
// probe's tiny columns scaled by 2^-20) are rounded on the CPU to TF32, fp16 or bf16 (to nearest, and TF32
// and bf16 also truncated, as tensor cores reading fp32 registers do) and multiplied in double; an honest
// kernel keeps the operands and sums in float. Every case must be named right over several K and seeds. Then
// the decision of the label, the worker's plan (eval/worker/precision_plan.h) and the JSON of the measured
// fields.
#include "eval/precision.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "../problem/problem_text.h"
#include "eval/precision_probe.h"
#include "eval/protocol.h"
#include "eval/worker/precision_plan.h"
#include "ir/canonical.h"

namespace ucut {
namespace {

enum class Arith { fp32_sum, tf32_rn, tf32_trunc, fp16_rn, bf16_rn, bf16_trunc };

/// x with its mantissa cut to `bits` explicit bits: rounded to nearest even, or truncated toward zero.
float cut_mantissa(float x, int bits, bool nearest) {
  uint32_t u;
  std::memcpy(&u, &x, 4);
  int drop = 23 - bits;
  uint32_t mask = ~((1u << drop) - 1);
  if (nearest) u += ((1u << (drop - 1)) - 1) + ((u >> drop) & 1u);
  u &= mask;
  std::memcpy(&x, &u, 4);
  return x;
}

/// x rounded to fp16 (to nearest even, subnormals below 2^-14 on the 2^-24 grid).
float to_fp16(float x) {
  double a = std::fabs(static_cast<double>(x));
  if (a < std::ldexp(1.0, -14))
    return static_cast<float>(std::nearbyint(x * std::ldexp(1.0, 24)) * std::ldexp(1.0, -24));
  return cut_mantissa(x, 10, true);
}

float operand(Arith a, float x) {
  switch (a) {
    case Arith::fp32_sum:
      return x;
    case Arith::tf32_rn:
      return cut_mantissa(x, 10, true);
    case Arith::tf32_trunc:
      return cut_mantissa(x, 10, false);
    case Arith::fp16_rn:
      return to_fp16(x);
    case Arith::bf16_rn:
      return cut_mantissa(x, 7, true);
    case Arith::bf16_trunc:
      return cut_mantissa(x, 7, false);
  }
  return x;
}

/// The harness's signed draws (device_ops.h): set i uses distribution i % 3.
float draw(std::mt19937_64& rng, int dist) {
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  if (dist == 1) return std::normal_distribution<float>(0.f, 1.f)(rng);
  if (dist == 2) return u(rng) * std::ldexp(1.f, std::uniform_int_distribution<int>(-3, 3)(rng));
  return u(rng);
}

/// D[M,N] = A[M,K] · B[K,N] computed as `a` does it, tallied against the FP64 reference.
PrecisionTally tally(Arith arith, int64_t k, uint64_t seed) {
  const int64_t m = 8, n = 128;
  std::mt19937_64 rng(seed);
  int dist = static_cast<int>(seed % 3);
  std::vector<float> a(m * k), b(k * n);
  for (float& x : a) x = draw(rng, dist);
  for (int64_t r = 0; r < k; ++r)
    for (int64_t c = 0; c < n; ++c) b[r * n + c] = draw(rng, dist) * (probe_wide(seed, c) ? kWideScale : 1.f);
  PrecisionTally t;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double ref = 0, sq = 0, narrow = 0;
      float sum32 = 0;
      for (int64_t q = 0; q < k; ++q) {
        double p = static_cast<double>(a[i * k + q]) * b[q * n + j];
        ref += p;
        sq += p * p;
        narrow += static_cast<double>(operand(arith, a[i * k + q])) * operand(arith, b[q * n + j]);
        sum32 += a[i * k + q] * b[q * n + j];
      }
      float got = arith == Arith::fp32_sum ? sum32 : static_cast<float>(narrow);
      t.add(got, static_cast<float>(ref), std::sqrt(sq), probe_wide(seed, j));
    }
  return t;
}

struct Case {
  Arith arith;
  PrecisionClass want;
  const char* name;
};

TEST(Precision, ClassifiesRealRoundingsOverKAndSeeds) {
  const Case cases[] = {{Arith::fp32_sum, PrecisionClass::fp32, "honest fp32"},
                        {Arith::tf32_rn, PrecisionClass::tf32, "tf32 rounded"},
                        {Arith::tf32_trunc, PrecisionClass::tf32, "tf32 truncated"},
                        {Arith::fp16_rn, PrecisionClass::fp16, "fp16"},
                        {Arith::bf16_rn, PrecisionClass::bf16, "bf16 rounded"},
                        {Arith::bf16_trunc, PrecisionClass::bf16, "bf16 truncated"}};
  for (const Case& c : cases)
    for (int64_t k : {64, 1024, 8192})
      for (uint64_t seed : {1, 2, 3, 17}) {
        PrecisionTally t = tally(c.arith, k, seed);
        EXPECT_EQ(classify(t), c.want)
            << c.name << " K=" << k << " seed=" << seed << ": worst " << t.worst() << " rms " << t.rms()
            << " tiny-column rms " << t.wide_rms() << " (" << t.wide_count() << " outputs)";
      }
}

TEST(Precision, TallySkipsOutputsWithoutScaleAndCountsNonFiniteResults) {
  PrecisionTally t;
  t.add(1.0, 1.0, 0.0, false);
  EXPECT_EQ(t.count(), 0);
  EXPECT_EQ(classify(t), PrecisionClass::unmeasured);
  t.add(NAN, 1.0, 1.0, false);
  EXPECT_EQ(t.count(), 1);
  EXPECT_EQ(classify(t), PrecisionClass::bf16);  // a NaN where the reference is finite is the narrowest
}

TEST(Precision, OutputRoundingIsNotTheOperands) {
  PrecisionTally t;
  // One f32 ulp of a large output against a small scale: the output's own rounding, not a narrower multiply.
  t.add(1024.0 + std::ldexp(1.0, -13), 1024.0, std::ldexp(1.0, -4), false);
  EXPECT_EQ(classify(t), PrecisionClass::fp32) << t.worst();
}

TEST(Precision, StatedAndNarrower) {
  EXPECT_EQ(stated_precision(DType::f32, MathMode::native), PrecisionClass::fp32);
  EXPECT_EQ(stated_precision(DType::f32, MathMode::tf32), PrecisionClass::tf32);
  EXPECT_EQ(stated_precision(DType::bf16, MathMode::native), PrecisionClass::bf16);
  EXPECT_FALSE(stated_precision(DType::e4m3, MathMode::native));
  EXPECT_TRUE(narrower(PrecisionClass::tf32, PrecisionClass::fp32));
  EXPECT_TRUE(narrower(PrecisionClass::fp16, PrecisionClass::tf32));
  EXPECT_TRUE(narrower(PrecisionClass::bf16, PrecisionClass::fp16));
  EXPECT_FALSE(narrower(PrecisionClass::fp32, PrecisionClass::tf32));
  EXPECT_FALSE(narrower(PrecisionClass::tf32, PrecisionClass::tf32));
  EXPECT_FALSE(narrower(PrecisionClass::unmeasured, PrecisionClass::fp32));
}

TEST(Precision, DecisionFollowsTheMeasurement) {
  using P = PrecisionClass;
  // A library declaring fp32 that multiplies in fp16: labelled.
  PrecisionDecision d = decide_precision_change({P::fp32, P::fp16}, P::fp32, false, false);
  EXPECT_TRUE(d.label);
  EXPECT_EQ(d.narrowest, P::fp16);
  EXPECT_NE(d.reason.find("measured fp16"), std::string::npos) << d.reason;
  EXPECT_NE(d.reason.find("not declared"), std::string::npos) << d.reason;
  // A library declaring a conversion whose outputs are fp32: the measurement decides, no label.
  EXPECT_FALSE(decide_precision_change({P::fp32, P::fp32}, P::fp32, true, false).label);
  // Our compiler's label stays however the outputs look.
  EXPECT_TRUE(decide_precision_change({P::fp32}, P::fp32, true, true).label);
  // TF32 where the problem accepts TF32: no label.
  EXPECT_FALSE(decide_precision_change({P::tf32}, P::tf32, false, false).label);
  // Nothing measured: the declaration stands.
  EXPECT_TRUE(decide_precision_change({P::unmeasured}, P::bf16, true, false).label);
  // A library on an FP32 problem that nothing measured (unsigned draws): labelled, whatever it declares.
  PrecisionDecision unproven = decide_precision_change({P::unmeasured}, P::fp32, false, false);
  EXPECT_TRUE(unproven.label);
  EXPECT_NE(unproven.reason.find("not measured"), std::string::npos) << unproven.reason;
  EXPECT_TRUE(decide_precision_change({}, P::fp32, false, false).label);
  // Our own unmeasured spec keeps the compiler's answer.
  EXPECT_FALSE(decide_precision_change({P::unmeasured}, P::fp32, false, true).label);
}

worker::ProblemDesc desc(const std::string& types, const std::string& op = "gemm") {
  std::string err;
  auto p = parse_problem(
      "name = \"t\"\nop = \"" + op + "\"\n" + types + "shapes = [ { m = 64, n = 64, k = 64 } ]\n", "t.toml",
      &err);
  EXPECT_TRUE(p) << err;
  return worker::parse_problem_desc(canonical_config(p->semantics));
}

TEST(PrecisionPlan, MeasuresF32OperandsAndOutputsWithSignedInputs) {
  const std::string f32 = "a = \"f32 row\"\nb = \"f32 col\"\nd = \"f32 row\"\n";
  worker::PrecisionPlan plan = worker::precision_plan(desc(f32), false, {}, 96, {});
  EXPECT_TRUE(plan.measured) << plan.why_not;
  EXPECT_FALSE(plan.by_row);
  EXPECT_EQ(plan.period, 96);
  EXPECT_NE(worker::precision_plan(desc(f32), true, {}, 96, {}).why_not.find("grouped"), std::string::npos);
  InputDraws unsigned_a;
  unsigned_a.a = InputDraw::rand;
  EXPECT_NE(worker::precision_plan(desc(f32), false, {}, 96, unsigned_a).why_not.find("unsigned"),
            std::string::npos);
  std::string bf16 = worker::precision_plan(desc("a = \"bf16 row\"\nb = \"bf16 col\"\nd = \"bf16 row\"\n"),
                                            false, {}, 96, {})
                         .why_not;
  EXPECT_NE(bf16.find("bf16"), std::string::npos) << bf16;
  std::string narrow_d =
      worker::precision_plan(desc("a = \"f32 row\"\nb = \"f32 col\"\nd = \"bf16 row\"\n"), false, {}, 96, {})
          .why_not;
  EXPECT_NE(narrow_d.find("D is stored as bf16"), std::string::npos) << narrow_d;
}

TEST(PrecisionPlan, ConvolutionsScaleTheOperandThatReachesWholeOutputColumns) {
  worker::ProblemDesc p = desc("a = \"f32 row\"\nb = \"f32 col\"\nd = \"f32 row\"\n");
  ConvShape c;
  c.dims = 2;
  c.c = 64;
  c.k = 32;
  c.groups = 4;
  c.kind = ConvKind::fprop;
  worker::PrecisionPlan fprop = worker::precision_plan(p, false, c, 32, {});
  EXPECT_TRUE(fprop.by_row);
  EXPECT_EQ(fprop.period, 32);
  c.kind = ConvKind::dgrad;
  worker::PrecisionPlan dgrad = worker::precision_plan(p, false, c, 64, {});
  EXPECT_FALSE(dgrad.by_row);
  EXPECT_EQ(dgrad.period, 16);
}

TEST(Precision, MeasuredFieldsRoundTripThroughJson) {
  IntegrityResult x;
  x.measured_precision = PrecisionClass::fp16;
  x.precision_error = 0.03;
  x.precision_rms = 4e-4;
  x.precision_wide_rms = 2e-2;
  x.precision_note = "n";
  nlohmann::json j = x;
  EXPECT_EQ(j.at("measured_precision"), "fp16");
  IntegrityResult back = j.get<IntegrityResult>();
  EXPECT_EQ(back.measured_precision, PrecisionClass::fp16);
  EXPECT_DOUBLE_EQ(back.precision_error, 0.03);
  EXPECT_DOUBLE_EQ(back.precision_wide_rms, 2e-2);
  EXPECT_EQ(back.precision_note, "n");
}

}  // namespace
}  // namespace ucut
