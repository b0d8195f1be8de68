// eval/worker/element.cuh — reading and writing one element of any DType as float, host and device.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <cstdint>
#include <cstring>

#include "ir/types.h"

namespace ucut::worker {

__host__ __device__ inline float load_as_float(const void* p, DType t, int64_t i) {
  switch (t) {
    case DType::f64: return static_cast<float>(static_cast<const double*>(p)[i]);
    case DType::f32:
    case DType::tf32: return static_cast<const float*>(p)[i];
    case DType::f16: return __half2float(static_cast<const __half*>(p)[i]);
    case DType::bf16: return __bfloat162float(static_cast<const __nv_bfloat16*>(p)[i]);
    case DType::e4m3: return static_cast<float>(static_cast<const __nv_fp8_e4m3*>(p)[i]);
    case DType::e5m2: return static_cast<float>(static_cast<const __nv_fp8_e5m2*>(p)[i]);
    case DType::i8: return static_cast<float>(static_cast<const int8_t*>(p)[i]);
    case DType::i32: return static_cast<float>(static_cast<const int32_t*>(p)[i]);
  }
  return 0.f;
}

__host__ __device__ inline void store_from_float(void* p, DType t, int64_t i, float v) {
  switch (t) {
    case DType::f64: static_cast<double*>(p)[i] = v; break;
    case DType::f32: static_cast<float*>(p)[i] = v; break;
    case DType::tf32: {  // f32 storage on the TF32 grid: 10 explicit mantissa bits, round to nearest even
      uint32_t u;
      memcpy(&u, &v, 4);
      if ((u & 0x7F800000u) != 0x7F800000u) u = (u + 0x0FFFu + ((u >> 13) & 1u)) & 0xFFFFE000u;
      memcpy(static_cast<float*>(p) + i, &u, 4);
      break;
    }
    case DType::f16: static_cast<__half*>(p)[i] = __float2half_rn(v); break;
    case DType::bf16: static_cast<__nv_bfloat16*>(p)[i] = __float2bfloat16_rn(v); break;
    case DType::e4m3: static_cast<__nv_fp8_e4m3*>(p)[i] = __nv_fp8_e4m3(v); break;
    case DType::e5m2: static_cast<__nv_fp8_e5m2*>(p)[i] = __nv_fp8_e5m2(v); break;
    case DType::i8: {
      float r = rintf(v);
      static_cast<int8_t*>(p)[i] = static_cast<int8_t>(r > 127.f ? 127.f : (r < -128.f ? -128.f : r));
      break;
    }
    case DType::i32: static_cast<int32_t*>(p)[i] = static_cast<int32_t>(rintf(v)); break;
  }
}

/// `v` rounded to type `t` and read back (what storing it would keep).
__host__ __device__ inline float round_to(DType t, float v) {
  unsigned char tmp[8];
  store_from_float(tmp, t, 0, v);
  return load_as_float(tmp, t, 0);
}

}  // namespace ucut::worker
