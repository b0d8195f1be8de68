// mskb/gen.cpp
#include "mskb/gen.h"

namespace ucut::mskb {

std::vector<double> uniform(int64_t n, double lo, double hi, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> d(lo, hi);
  std::vector<double> v(static_cast<size_t>(n));
  for (double& x : v) x = d(rng);
  return v;
}

std::vector<double> uniform_int(int64_t n, int64_t lo, int64_t hi, std::mt19937_64& rng) {
  std::uniform_int_distribution<int64_t> d(lo, hi);
  std::vector<double> v(static_cast<size_t>(n));
  for (double& x : v) x = static_cast<double>(d(rng));
  return v;
}

Instance two_vectors_to_loss(const std::string& size_name, int64_t n, const std::function<std::vector<double>()>& draw) {
  Instance in;
  in.arrays["X"] = draw();
  in.arrays["Y"] = draw();
  in.arrays["loss"] = {0.0};
  in.scalars[size_name] = double(n);
  return in;
}

}  // namespace ucut::mskb
