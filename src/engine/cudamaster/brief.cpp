// engine/cudamaster/brief.cpp — see brief.h.
#include "engine/cudamaster/brief.h"

#include <fmt/format.h>

#include "mskb/signature.h"

namespace ucut::engine::cudamaster {
namespace {

/// The parameter of `p`'s signature at the position `fp32_name` has in the FP32 one (BF16 names may differ).
std::string param_name(const mskb::Task& t, mskb::Precision p, const std::string& fp32_name) {
  mskb::Signature fp32 = mskb::task_signature(t, mskb::Precision::fp32), own = mskb::task_signature(t, p);
  for (size_t i = 0; i < fp32.params.size() && i < own.params.size(); ++i)
    if (fp32.params[i].name == fp32_name) return own.params[i].name;
  return fp32_name;
}

std::string names(const mskb::Task& t, mskb::Precision p, const std::vector<std::string>& fp32_names) {
  std::string out;
  for (const std::string& n : fp32_names) out += (out.empty() ? "`" : ", `") + param_name(t, p, n) + "`";
  return out;
}

}  // namespace

std::string candidate_symbol(const mskb::Task& t, mskb::Precision p) {
  return mskb::launcher_name(t, p) + "_optimized";
}

std::string candidate_signature(const mskb::Task& t, mskb::Precision p) {
  return mskb::task_signature(t, p).declaration(candidate_symbol(t, p));
}

std::string task_text(const mskb::Task& t, mskb::Precision p) {
  std::string out = fmt::format(
      "MSKB task `{}` ({}), {}: the launcher `{}` in the naive implementation below computes it.\n"
      "- Declaration: `{}`\n- Outputs it writes: {}\n",
      t.name, t.category, p == mskb::Precision::fp32 ? "FP32" : "BF16 (__nv_bfloat16 arrays)",
      mskb::launcher_name(t, p), mskb::task_signature(t, p).declaration(mskb::launcher_name(t, p)),
      names(t, p, t.outputs));
  if (t.zeroed_outputs.empty())
    out +=
        "- Every output element must be written by every call (the harness fills outputs with NaN first).\n";
  else
    out += fmt::format(
        "- The harness zeroes {} before every call (MSKB's calling convention), so the launcher may "
        "accumulate into {}; every other output element must be written by every call.\n",
        names(t, p, t.zeroed_outputs), t.zeroed_outputs.size() == 1 ? "it" : "them");
  out += fmt::format("- Correct when |x - ref| {} for every element, against an FP64 reference.\n",
                     t.tolerance.kind == mskb::Tolerance::Kind::absolute
                         ? fmt::format("<= {:g} (plus the output type's rounding)", t.tolerance.value)
                         : fmt::format("<= {:g}·|ref| (plus the output type's rounding)", t.tolerance.value));
  out +=
      "- Size cases (each timed; the score weighs case i by its complexity T(N_i), so the largest count "
      "most):\n";
  for (const mskb::Case& c : t.cases) out += fmt::format("  - {} (T = {:.3g})\n", c.label(), t.complexity(c));
  return out;
}

}  // namespace ucut::engine::cudamaster
