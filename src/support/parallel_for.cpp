// support/parallel_for.cpp — see parallel_for.h.
#include "support/parallel_for.h"

#include <algorithm>
#include <thread>
#include <vector>

namespace ucut {

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

}  // namespace ucut
