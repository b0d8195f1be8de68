// mskb/check.cpp
#include "mskb/check.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <mutex>

#include "mskb/gen.h"

namespace ucut::mskb {

namespace {

double rounding_slack(CType type) {
  switch (type) {
    case CType::bf16: return std::ldexp(1.0, -7);
    case CType::f32: return std::ldexp(1.0, -18);
    case CType::i32: return 0;
  }
  return 0;
}

double bound(const Tolerance& tol, double r, double ref) {
  double a = std::fabs(ref);
  return tol.kind == Tolerance::Kind::absolute ? tol.value + r * a : (tol.value + r) * a + tol.value * 1e-6;
}

}  // namespace

namespace {

struct Partial {
  OutputResult r;
  double worst_excess = -1;  // how far the worst element is beyond its bound
};

Partial compare_range(const std::vector<double>& got, const std::vector<double>& ref, size_t begin, size_t end,
                      const Tolerance& tol, double slack) {
  Partial p;
  for (size_t i = begin; i < end; ++i) {
    ++p.r.checked;
    double x = got[i], y = ref[i];
    double limit = bound(tol, slack, y), excess;
    if (!std::isfinite(x)) {
      if (!std::isfinite(y) && x == y) continue;  // the same Inf
      ++p.r.nonfinite;
      excess = INFINITY;
    } else {
      double err = std::fabs(x - y);
      p.r.max_abs_err = std::max(p.r.max_abs_err, err);
      p.r.max_rel_err = std::max(p.r.max_rel_err, err / std::max(std::fabs(y), 1e-30));
      if (err <= limit) continue;
      excess = err - limit;
    }
    ++p.r.mismatches;
    if (excess > p.worst_excess) {
      p.worst_excess = excess;
      p.r.worst_index = static_cast<int64_t>(i);
      p.r.worst_value = std::isfinite(x) ? x : 0;
      p.r.worst_reference = y;
    }
  }
  return p;
}

}  // namespace

OutputResult compare_output(const std::string& name, const std::vector<double>& got, const std::vector<double>& ref,
                            const Tolerance& tol, CType type) {
  OutputResult r;
  r.name = name;
  if (got.size() != ref.size()) {
    r.message = "the output has " + std::to_string(got.size()) + " elements, the reference " + std::to_string(ref.size());
    return r;
  }
  std::mutex m;
  double worst = -1;
  parallel_for(static_cast<int64_t>(got.size()), [&](int64_t b, int64_t e) {
    Partial p = compare_range(got, ref, static_cast<size_t>(b), static_cast<size_t>(e), tol, rounding_slack(type));
    std::lock_guard<std::mutex> lock(m);
    r.checked += p.r.checked;
    r.mismatches += p.r.mismatches;
    r.nonfinite += p.r.nonfinite;
    r.max_abs_err = std::max(r.max_abs_err, p.r.max_abs_err);
    r.max_rel_err = std::max(r.max_rel_err, p.r.max_rel_err);
    if (p.r.mismatches && (p.worst_excess > worst || (p.worst_excess == worst && p.r.worst_index < r.worst_index))) {
      worst = p.worst_excess;
      r.worst_index = p.r.worst_index;
      r.worst_value = p.r.worst_value;
      r.worst_reference = p.r.worst_reference;
    }
  });
  r.pass = r.mismatches == 0;
  return r;
}

bool zeroed_output_verifiable(const Task& task, const std::string& output, const std::vector<double>& ref) {
  const auto& z = task.zeroed_outputs;
  if (std::find(z.begin(), z.end(), output) == z.end()) return true;
  return std::any_of(ref.begin(), ref.end(), [](double v) { return v != 0; });
}

bool mskb_rule_holds(const std::vector<double>& got, const std::vector<double>& naive, const Tolerance& tol) {
  if (got.size() != naive.size()) return false;
  for (size_t i = 0; i < got.size(); ++i) {
    double d = std::fabs(got[i] - naive[i]);
    double limit = tol.kind == Tolerance::Kind::absolute ? tol.value : tol.value * std::fabs(naive[i]);
    if (!(d < limit)) return false;
  }
  return true;
}

double round_to(double v, CType type) {
  switch (type) {
    case CType::f32: return static_cast<double>(static_cast<float>(v));
    case CType::i32: return static_cast<double>(static_cast<int32_t>(v));
    case CType::bf16: {
      float f = static_cast<float>(v);
      uint32_t bits;
      std::memcpy(&bits, &f, 4);
      if ((bits & 0x7f800000u) != 0x7f800000u) bits += 0x7fffu + ((bits >> 16) & 1u);  // nearest even
      bits &= 0xffff0000u;
      std::memcpy(&f, &bits, 4);
      return f;
    }
  }
  return v;
}

void round_instance(Instance& in, const Signature& sig, const std::vector<std::string>& names) {
  for (size_t i = 0; i < sig.params.size() && i < names.size(); ++i) {
    const Param& p = sig.params[i];
    if (p.pointer) {
      auto it = in.arrays.find(names[i]);
      if (it != in.arrays.end())
        for (double& v : it->second) v = round_to(v, p.type);
    } else {
      auto it = in.scalars.find(names[i]);
      if (it != in.scalars.end()) it->second = round_to(it->second, p.type);
    }
  }
}

}  // namespace ucut::mskb
