// mskb/gen.cpp
#include "mskb/gen.h"

#include <algorithm>
#include <thread>

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

void parallel_for(int64_t n, const std::function<void(int64_t, int64_t)>& body) {
  int64_t threads = std::max<int64_t>(1, std::thread::hardware_concurrency());
  threads = std::min(threads, std::max<int64_t>(1, n));
  if (threads == 1) {
    body(0, n);
    return;
  }
  std::vector<std::thread> pool;
  int64_t chunk = (n + threads - 1) / threads;
  for (int64_t b = 0; b < n; b += chunk) pool.emplace_back(body, b, std::min(n, b + chunk));
  for (std::thread& t : pool) t.join();
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
