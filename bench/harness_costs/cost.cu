// bench/harness_costs/cost.cu — what the harness's per-call bookkeeping costs the next launch: the median host
// time of an empty launch + device synchronize after each candidate step (persisting-L2 reset, carve-out limit, CUPTI
// record switching, CUPTI flush). Build: nvcc -I$CUDA/extras/CUPTI/include -L$CUDA/extras/CUPTI/lib64 -o cost cost.cu -lcupti
#include <cstdio>
#include <chrono>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#include <cupti.h>
__global__ void empty() {}
static void CUPTIAPI req(uint8_t** b, size_t* s, size_t* m) { *s = 1 << 20; *b = (uint8_t*)aligned_alloc(8, *s); *m = 0; }
static void CUPTIAPI done(CUcontext, uint32_t, uint8_t* b, size_t, size_t) { free(b); }
template <class F> double med(F before) {
  std::vector<double> v;
  for (int i = 0; i < 60; ++i) {
    before(); cudaDeviceSynchronize();
    auto t0 = std::chrono::steady_clock::now();
    empty<<<1, 32>>>(); cudaDeviceSynchronize();
    v.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(v.begin(), v.end()); return v[v.size() / 2];
}
int main() {
  cudaFree(0);
  cuptiActivityRegisterCallbacks(req, done);
  printf("plain: %.1f us\n", med([] {}));
  printf("reset persisting L2 before: %.1f us\n", med([] { cudaCtxResetPersistingL2Cache(); }));
  printf("set limit 0 before: %.1f us\n", med([] { cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0); }));
  printf("get limit before: %.1f us\n", med([] { size_t v; cudaDeviceGetLimit(&v, cudaLimitPersistingL2CacheSize); }));
  CUpti_ActivityKind k[] = {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMSET};
  printf("cupti enable+disable before: %.1f us\n", med([&] { for (auto x : k) cuptiActivityEnable(x); cuptiActivityFlushAll(1); for (auto x : k) cuptiActivityDisable(x); }));
  for (auto x : k) cuptiActivityEnable(x);
  printf("cupti on, flush before: %.1f us\n", med([] { cuptiActivityFlushAll(1); }));
  printf("cupti on: %.1f us\n", med([] {}));
  for (auto x : k) cuptiActivityDisable(x);
  printf("cupti off again: %.1f us\n", med([] {}));
  return 0;
}
