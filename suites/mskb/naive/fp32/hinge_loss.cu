// MSKB hinge_loss, FP32 naive baseline as MSKB's: one thread per sample (1024-thread blocks) writes its own loss,
// loss[i] = max(0, 1 - y·predictions[i]) with y = +1 when targets[i] == 1, else -1. No reduction.
#include <cuda_runtime.h>

__global__ void hinge_loss_kernel(float* loss, const float* predictions, const int* targets, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  float y = targets[i] == 1 ? 1.0f : -1.0f;
  loss[i] = fmaxf(0.0f, 1.0f - y * predictions[i]);
}

extern "C" void hinge_loss(float* loss, const float* predictions, const int* targets, int N) {
  int threads = 1024;
  hinge_loss_kernel<<<(N + threads - 1) / threads, threads>>>(loss, predictions, targets, N);
  cudaDeviceSynchronize();
}
