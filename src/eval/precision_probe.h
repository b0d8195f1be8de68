// eval/precision_probe.h — which output columns the precision probe makes tiny (eval/precision.h): the same
// choice on the host (which outputs the tally counts as wide) and on the device (which operand entries the
// fill scales). No dependencies, so CUDA code can include it.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define UCUT_PROBE_HD __host__ __device__
#else
#define UCUT_PROBE_HD
#endif

namespace ucut {

/// One column in kWideEvery (on average) is scaled by kWideScale in every input set.
inline constexpr int kWideEvery = 16;
/// 2^-20: below fp16's smallest normal (2^-14), so fp16 keeps about 4 of its 10 mantissa bits there, while
/// TF32 and bf16 (FP32's 8 exponent bits) keep all theirs. A power of two: the fill's grid (f32, tf32) is
/// kept.
inline constexpr float kWideScale = 1.f / 1048576.f;

/// Whether column `col` (after the period reduction of the operand: precision.h) of input set `seed` is wide.
UCUT_PROBE_HD inline bool probe_wide(uint64_t seed, int64_t col) {
  uint64_t z = seed ^ (static_cast<uint64_t>(col) * 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return z % kWideEvery == 0;
}

}  // namespace ucut
