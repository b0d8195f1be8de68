// tests/compile/library_templates.cu — the library-call runtimes (emit/memory/library.cpp): memop_library.inc
// with memop_library_sort.inc (CUB's radix sort: sort and topk), with memop_library_fft.inc (cuFFT) and with
// memop_library_attention.inc (CUTLASS's fused multi-head attention, examples/41's kernel_forward.h), compiled
// once where the emitter pastes them (each in its kernel's namespace after the prologue's error helper, stubbed
// here), so that an error in one names the template's own file and line. Every instantiation the emitter
// writes: sort ascending and descending, in place or not, and topk over f32 and bf16 keys; fft forward and
// inverse over f32 and bf16; attention over f32 (3xTF32) and bf16, for sm_90a (tests/compile/CMakeLists.txt).
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <cufft.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cub/device/device_radix_sort.cuh>
#include <map>

#include "cutlass/cutlass.h"
#include "cutlass/numeric_types.h"
#include "kernel_forward.h"

namespace library_sort {
inline void ucut_set_error(char*, size_t, const char*, const char*) {}

#include "emit/templates/memop_library.inc"
#include "emit/templates/memop_library_sort.inc"

template int ucut_library_sort<float, false>(const float*, float*, int64_t, ucut_scratch&, cudaStream_t,
                                             char*, size_t);
template int ucut_library_sort<__nv_bfloat16, true>(const __nv_bfloat16*, __nv_bfloat16*, int64_t,
                                                    ucut_scratch&, cudaStream_t, char*, size_t);
template int ucut_library_topk<float>(const float*, float*, int32_t*, int64_t, int64_t, ucut_scratch&,
                                      ucut_positions&, cudaStream_t, char*, size_t);
template int ucut_library_topk<__nv_bfloat16>(const __nv_bfloat16*, __nv_bfloat16*, int32_t*, int64_t,
                                              int64_t, ucut_scratch&, ucut_positions&, cudaStream_t, char*,
                                              size_t);
static_assert(std::is_same_v<ucut_native<cutlass::bfloat16_t>::type, __nv_bfloat16>);
}  // namespace library_sort

namespace library_fft {
inline void ucut_set_error(char*, size_t, const char*, const char*) {}

#include "emit/templates/memop_library.inc"
#include "emit/templates/memop_library_fft.inc"

template int ucut_library_fft<float, CUFFT_FORWARD>(const float*, const float*, float*, float*, int64_t,
                                                    ucut_scratch&, ucut_fft_plans&, cudaStream_t, char*,
                                                    size_t);
template int ucut_library_fft<cutlass::bfloat16_t, CUFFT_INVERSE>(const cutlass::bfloat16_t*,
                                                                  const cutlass::bfloat16_t*,
                                                                  cutlass::bfloat16_t*, cutlass::bfloat16_t*,
                                                                  int64_t, ucut_scratch&, ucut_fft_plans&,
                                                                  cudaStream_t, char*, size_t);
}  // namespace library_fft

namespace library_attention {
inline void ucut_set_error(char*, size_t, const char*, const char*) {}

#include "emit/templates/memop_library.inc"
#include "emit/templates/memop_library_attention.inc"

template int ucut_library_attention<float>(const float*, const float*, const float*, float*, int64_t, int64_t,
                                           int64_t, int64_t, int64_t, double, bool, ucut_scratch&, cudaStream_t,
                                           char*, size_t);
template int ucut_library_attention<cutlass::bfloat16_t>(const cutlass::bfloat16_t*, const cutlass::bfloat16_t*,
                                                         const cutlass::bfloat16_t*, cutlass::bfloat16_t*, int64_t,
                                                         int64_t, int64_t, int64_t, int64_t, double, bool,
                                                         ucut_scratch&, cudaStream_t, char*, size_t);
static_assert(!ucut_attention_kernel<float>::kNeedsOutputAccumulatorBuffer, "f32 accumulates in Y itself");
static_assert(ucut_attention_kernel<cutlass::bfloat16_t>::kNeedsOutputAccumulatorBuffer, "bf16 needs f32 scratch");
static_assert(!ucut_attention_kernel<float>::kSingleValueIteration, "value rows of any width, E walked in tiles");
}  // namespace library_attention
