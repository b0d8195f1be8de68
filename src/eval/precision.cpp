// eval/precision.cpp — see precision.h.
#include "eval/precision.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace ucut {

void PrecisionTally::add(double got, double ref, double scale, bool wide) {
  if (!(scale > 0) || !std::isfinite(scale) || !std::isfinite(ref)) return;
  // A non-finite result where the reference is finite is as wrong as can be: it counts, as infinity.
  double err = std::isfinite(got) ? std::fabs(got - ref) : HUGE_VAL;
  err = std::max(0.0, err - PrecisionThresholds::output_rounding * std::fabs(ref)) / scale;
  Part& p = wide ? wide_ : normal_;
  ++p.count;
  p.worst = std::max(p.worst, err);
  p.sum_sq += err * err;
}

void PrecisionTally::merge(const PrecisionTally& other) {
  for (auto [to, from] : {std::pair{&normal_, &other.normal_}, std::pair{&wide_, &other.wide_}}) {
    to->count += from->count;
    to->worst = std::max(to->worst, from->worst);
    to->sum_sq += from->sum_sq;
  }
}

double PrecisionTally::Part::rms() const {
  return count ? std::sqrt(sum_sq / static_cast<double>(count)) : 0;
}

PrecisionClass classify(const PrecisionTally& tally) {
  using T = PrecisionThresholds;
  if (tally.count() == 0) return PrecisionClass::unmeasured;
  if (tally.worst() <= T::fp32_worst) return PrecisionClass::fp32;
  if (tally.rms() > T::ten_bit_rms) return PrecisionClass::bf16;
  return tally.wide_count() > 0 && tally.wide_rms() > T::fp16_wide_rms ? PrecisionClass::fp16
                                                                       : PrecisionClass::tf32;
}

std::optional<PrecisionClass> stated_precision(DType operand, MathMode math) {
  switch (operand) {
    case DType::f32:
      return math == MathMode::tf32 ? PrecisionClass::tf32 : PrecisionClass::fp32;
    case DType::tf32:
      return PrecisionClass::tf32;
    case DType::f16:
      return PrecisionClass::fp16;
    case DType::bf16:
      return PrecisionClass::bf16;
    default:
      return std::nullopt;
  }
}

bool narrower(PrecisionClass measured, PrecisionClass stated) {
  if (measured == PrecisionClass::unmeasured || stated == PrecisionClass::unmeasured) return false;
  return static_cast<int>(measured) >
         static_cast<int>(stated);  // the enum runs from the widest to the narrowest
}

PrecisionDecision decide_precision_change(const std::vector<PrecisionClass>& measured,
                                          std::optional<PrecisionClass> stated, bool declared,
                                          bool keep_declared) {
  PrecisionDecision d;
  for (PrecisionClass c : measured) {
    if (c == PrecisionClass::unmeasured) continue;
    d.measured = true;
    if (static_cast<int>(c) > static_cast<int>(d.narrowest)) d.narrowest = c;
  }
  bool narrowed = d.measured && stated && narrower(d.narrowest, *stated);
  // A prebuilt library's FP32 is not taken on its word: unmeasured (unsigned draws, say), it is labelled.
  bool unproven = !d.measured && !keep_declared && stated == PrecisionClass::fp32;
  d.label = unproven || (!d.measured || !stated ? declared : narrowed || (keep_declared && declared));
  if (!d.label) return d;
  if (unproven && !declared) {
    d.reason = "not measured (the problem's draws are unsigned, or no shape ran): a prebuilt library's FP32 "
               "arithmetic is labelled until signed draws measure it";
    return d;
  }
  std::string stated_text = stated ? std::string(enum_name(*stated)) : "the problem's";
  if (narrowed)
    d.reason = fmt::format("measured {} arithmetic where the problem states {}{}", enum_name(d.narrowest),
                           stated_text, declared ? " (declared too)" : " (not declared)");
  else
    d.reason = d.measured ? fmt::format("declared (the outputs measured {}, problem {})",
                                        enum_name(d.narrowest), stated_text)
                          : "declared (not measured)";
  return d;
}

}  // namespace ucut
