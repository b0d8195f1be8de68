// eval/precision.h — the precision a candidate really multiplies in, decided from its verified outputs
// (docs/harness.md, "Measured precision"), whatever it declares: each output's error against an
// FP64-accumulated reference, normalized by the rounding error that operand precision would give it, sorted
// into fp32, a 10-bit mantissa with FP32's exponent range (TF32), one with fp16's range, or bf16's 7 bits (or
// fewer). CUDA-free: the classification is unit-tested on the CPU.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/types.h"
#include "support/enum_json.h"

namespace ucut {

/// An effective operand precision, widest first.
enum class PrecisionClass {
  unmeasured,  // the shape's outputs could not tell (see IntegrityResult::precision_note)
  fp32,        // 23-bit mantissa: the error is the accumulation's alone
  tf32,        // 10-bit mantissa, FP32's range (TF32, or any 10-bit rounding of wide-range operands)
  fp16,        // 10-bit mantissa, fp16's range: the probe's tiny columns lose their bits
  bf16,        // 7-bit mantissa (or fewer)
};

constexpr auto enum_names(PrecisionClass) {
  using P = PrecisionClass;
  return name_table<P>("precision class", {{P::unmeasured, "unmeasured"},
                                           {P::fp32, "fp32"},
                                           {P::tf32, "tf32"},
                                           {P::fp16, "fp16"},
                                           {P::bf16, "bf16"}});
}
UCUT_ENUM_JSON(PrecisionClass)

/// The thresholds, in one place. An output y = Σ_k a_k b_k whose operands are rounded to a p-bit mantissa
/// (unit roundoff u = 2^-(p+1), round to nearest) gets a_k b_k (1 + δ_k)(1 + ε_k), |δ|, |ε| ≤ u, so its error
/// is Σ_k a_k b_k (δ_k + ε_k): independent zero-mean rounding errors make its standard deviation c · u · S
/// with S = √(Σ_k (a_k b_k)²) and c ≤ √(2/3) (about 0.6 for values spread over their binade). So e = |error|
/// / S, the normalized error, has an RMS over many outputs that depends on p alone, not on K or the
/// magnitudes. Truncating instead of rounding (tensor cores reading fp32 registers as TF32) doubles u and
/// adds a bias Σ a_k b_k · (−u), about u · |y| / S ≈ u more for signed inputs. An honest fp32 kernel's only
/// error is its accumulation's: K roundings of partial sums up to √j · S / √K, an RMS of about 2^-24 ·
/// √(K/6), worst about 2^-24 · 2√K. Measured on the CPU (tests/unit/eval/precision_test.cpp, K 64 to 8192):
/// RMS TF32 rounded 2^-11.8, truncated 2^-10.4, bf16 rounded 2^-8.9, truncated 2^-7.5; worst honest fp32
/// 2^-16.5 at K = 8192, worst TF32 2^-10.
struct PrecisionThresholds {
  /// fp32 when the worst normalized error is at most this: honest fp32 sums stay below up to K ≈ 2^20; a
  /// 10-bit rounding of every operand cannot (its RMS alone is at 2^-11.8, its worst near 2^-10).
  static constexpr double fp32_worst = 1.0 / 8192;  // 2^-13
  /// A 10-bit mantissa when the RMS of the normal outputs is at most this, else bf16: between truncated TF32
  /// (2^-10.4) and rounded bf16 (2^-8.9).
  static constexpr double ten_bit_rms = 0.00138107;  // 2^-9.5
  /// fp16, not TF32, when the probe's tiny columns (precision_probe.h: 2^-20, subnormal in fp16 with about 4
  /// mantissa bits left: an RMS of 2^-5 to 2^-7 there) have an RMS above the same line.
  static constexpr double fp16_wide_rms = ten_bit_rms;
  /// Rounding the output itself to f32 (the kernel's store and the reference's) is not the operands' error:
  /// this much of |reference| is taken off every output's error first (two f32 unit roundoffs).
  static constexpr double output_rounding = 1.0 / 8388608;  // 2^-23
};

/// Normalized errors of a shape's outputs, over every verified read: the worst and the RMS of the normal
/// outputs and the RMS of those in the probe's tiny columns.
class PrecisionTally {
 public:
  /// One output: the candidate's value, the FP64-accumulated reference, S (√Σ(a b)² times the chain's gain)
  /// and whether it is in a tiny column. Outputs with S = 0 or non-finite values tell nothing and are
  /// skipped.
  void add(double got, double ref, double scale, bool wide);
  void merge(const PrecisionTally& other);

  int64_t count() const { return normal_.count + wide_.count; }
  double worst() const { return std::max(normal_.worst, wide_.worst); }
  double rms() const { return normal_.rms(); }
  double wide_rms() const { return wide_.rms(); }
  int64_t wide_count() const { return wide_.count; }

 private:
  struct Part {
    int64_t count = 0;
    double worst = 0, sum_sq = 0;
    double rms() const;
  };
  Part normal_, wide_;
};

/// The class the tally shows (PrecisionThresholds): fp32 by the worst error (so that no output may hide a
/// narrower multiply), else 10-bit or bf16 by the RMS (stable over outputs), 10-bit split by the tiny
/// columns. Without tiny columns a 10-bit result is called tf32 (the wider of the two it may be). unmeasured:
/// no outputs.
PrecisionClass classify(const PrecisionTally& tally);

/// The class a problem states for its operands: f32 exact fp32, f32 with TF32 accepted tf32, f16, bf16;
/// nothing for the others (FP8, integers: not measured).
std::optional<PrecisionClass> stated_precision(DType operand, MathMode math);

/// Whether `measured` is narrower than `stated` (fewer mantissa bits, or fp16's range where TF32's is
/// stated). An unmeasured class is never narrower.
bool narrower(PrecisionClass measured, PrecisionClass stated);

/// The precision_change label of a run (eval/flags.def) from its shapes' measured classes: narrower than the
/// problem's stated operand precision on any measured shape. Every shape unmeasured: the declared label
/// stands, except that a prebuilt library on an FP32 problem is labelled (its FP32 is a claim nothing checked). A measured class never lifts a declared narrowing of our own compiled specs (`keep_declared`: the
/// compiler's label is a fact about the code); a prebuilt library's declaration is only a claim and the
/// measurement decides.
struct PrecisionDecision {
  bool label = false;
  bool measured = false;                                  // some shape was measured
  PrecisionClass narrowest = PrecisionClass::unmeasured;  // the narrowest class measured
  std::string reason;                                     // for the flag: what was measured, against what
};
PrecisionDecision decide_precision_change(const std::vector<PrecisionClass>& measured,
                                          std::optional<PrecisionClass> stated, bool declared,
                                          bool keep_declared);

}  // namespace ucut
