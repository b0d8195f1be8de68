// eval/worker/device_ops.h — elementwise device helpers over typed tensors: seeded random fills, NaN
// poison, hashing, conversion to row-major float and between element types, rounding onto an element type's
// grid, and an empty kernel and a one-CTA small read for launch and latency floors.
#pragma once

#include <cstdint>
#include <string_view>

#include "eval/worker/cuda_check.h"
#include "ir/types.h"

namespace ucut::worker {

/// Input distributions (the signed rotation is 0-2: input set i uses i % 3; problem/input_draw.h):
///   0: uniform(-1, 1)   1: normal(0, 1)   2: uniform(-1, 1) * 2^k, k uniform in [-3, 3] (mixed magnitudes)
///   3: uniform [0, 1)
/// each value times `scale`. Integer types draw integers in [-16, 16]. Values are rounded to the element type when
/// stored.
void fill_random(void* p, DType t, int64_t n, uint64_t seed, int distribution, cudaStream_t s, float scale = 1.f);
/// Every element set to `value` (rounded to the type).
void fill_value(void* p, DType t, int64_t n, float value, cudaStream_t s);
/// Every byte 0xFF: NaN for every floating type (f32, tf32, f16, bf16, e4m3, e5m2); -1 for integers.
void poison(void* p, size_t bytes, cudaStream_t s);
/// Order-sensitive 64-bit content hash of `bytes` bytes (blocks until done).
uint64_t hash_bytes(const void* p, size_t bytes, cudaStream_t s);
/// Converts an [L, rows, cols] tensor stored `layout` into row-major float: col has rows contiguous, row and
/// channels_last (a tensor as [pixels, channels]) cols contiguous.
void to_float_row_major(const void* src, DType t, Layout layout, int64_t batch, int64_t rows, int64_t cols,
                        float* dst, cudaStream_t s);
/// dst[i] = src[i] converted from type `from` to type `to` (rounded to nearest), e.g. a pipeline's `from(T)` operand.
void convert(const void* src, DType from, void* dst, DType to, int64_t n, cudaStream_t s);
/// p[i] = p[i] rounded to type `t` and read back as float (what storing it as `t` would keep).
void round_to(float* p, DType t, int64_t n, cudaStream_t s);
/// p[i] = |p[i]| (for the Σ|a||b| error bound of the reference).
void abs_inplace(float* p, int64_t n, cudaStream_t s);
/// p[i] = p[i]² (for the precision probe's scale √Σ(a b)²).
void square_inplace(float* p, int64_t n, cudaStream_t s);
/// The precision probe's tiny columns (eval/precision_probe.h): every entry of the [batch, rows, cols] tensor
/// p, stored `layout` as type t, whose column (its row when `by_row`) modulo `period` is probe_wide for
/// `seed` is multiplied by kWideScale (a power of two: the entry stays on t's grid).
void scale_probe_columns(void* p, DType t, Layout layout, int64_t batch, int64_t rows, int64_t cols,
                         bool by_row, int64_t period, uint64_t seed, cudaStream_t s);
/// An empty kernel: the floor under the wall-clock cross-check, and the marker after a candidate's launch that the
/// off-stream check finds in CUPTI's records.
void launch_empty_kernel(cudaStream_t s);
/// One CTA, one thread per 16-byte vector, reads `bytes` (16 to 16384, a multiple of 16) at `p`: the
/// calibration's cold small read. `p` must hold bytes of 1 (`sink`, one unsigned, is then never written).
void launch_small_read_kernel(const void* p, size_t bytes, unsigned* sink, cudaStream_t s);
/// Whether a kernel name as CUPTI reports it (mangled) is launch_empty_kernel's.
bool is_empty_kernel_name(std::string_view name);

}  // namespace ucut::worker
