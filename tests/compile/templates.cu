// tests/compile/templates.cu — the templates emitted kernels paste that no other compile test builds on its
// own (pipeline_runtime.inc, pipeline_api.inc, transposed_runtime.inc, memop_runtime.inc, memop_reduce.inc,
// memop_rownorm.inc, memop_reduce_axes.inc, memop_scan.inc, memop_reverse.inc, memop_transpose.inc,
// memop_window.inc, memop_sparse.inc), compiled once
// where the emitters paste them, so that an error in one names the template's own file and line, not each kernel that
// pastes it (an emit golden shows a pasted template as its begin marker:
// tests/unit/emit/golden_emit_test.cpp). The others: kernel_abi.h and convert_runtime.inc in fold_copy.cu,
// transposed_phases.h in transposed_phases.cu, kernel_prologue.inc in prologue_functions.cu. Compile only: the
// tables, the device adapter and the family kernels' error helper are stubs.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <new>
#include <type_traits>
#include <vector>

#include <cub/block/block_reduce.cuh>
#include <cub/warp/warp_reduce.cuh>
#include <cub/block/block_scan.cuh>

#include "abi/kernel_abi.h"
#include "abi/transposed_phases.h"
#include "cutlass/array.h"
#include "cutlass/cutlass.h"
#include "cutlass/numeric_conversion.h"

// A pipeline's tail (emit/pipeline.cpp): the runtimes, the tables it emits for its stages, then the API.
namespace pipeline {
#include "emit/templates/convert_runtime.inc"

#include "emit/templates/pipeline_runtime.inc"

const ucut_kernel_api* stage_api(void) { return nullptr; }
const ucut_memop_api* family_api(void) { return nullptr; }
constexpr int kStageCount = 2;
const ucut_stage_desc kStages[] = {{stage_api, nullptr, "mm", 0, {-1, -1}, 1, {ucut_elem_f32, ucut_elem_none},
                                    {ucut_elem_f16, ucut_elem_f16}, ucut_elem_f16, 1, 1, 0, {2, 2, 2}},
                                   {nullptr, family_api, "norm", 0, {-1, -1}, 0, {ucut_elem_none, ucut_elem_none},
                                    {ucut_elem_none, ucut_elem_none}, ucut_elem_f32, 1, 1, 1, {0, 0, 4}}};
const char* const kTensorName[] = {"H", "Y"};
constexpr int kLinkCount = 1;
const ucut_family_link kLinks[] = {{1, 0, 0, 0, "input"}};
inline int64_t ucut_family_output_elements(int, const ucut_memop_args&) { return 0; }
inline int64_t ucut_link_elements(int, const ucut_memop_args& a) { return a.extents[0] * a.extents[1]; }

#include "emit/templates/pipeline_api.inc"
}  // namespace pipeline

// An SM90 transposed convolution's namespace (emit/sm90/conv.cpp): its phased adapter over a stub adapter.
namespace transposed {
#include "emit/templates/transposed_runtime.inc"

struct StubAdapter {
  struct Arguments {};
  static cutlass::Status can_implement(const Arguments&) { return cutlass::Status::kSuccess; }
  static size_t get_workspace_size(const Arguments&) { return 0; }
  cutlass::Status initialize(const Arguments&, void*, cudaStream_t) { return cutlass::Status::kSuccess; }
  cutlass::Status run(cudaStream_t) { return cutlass::Status::kSuccess; }
};

template struct ucut_phased<StubAdapter>;
template __global__ void ucut_phase_filters<float>(const float* __restrict__, float* __restrict__,
                                                   ucut_conv_args);
}  // namespace transposed

// A memory-bound kernel's namespace (emit/memory/map.cpp): the prologue's error helper (stubbed), the runtime, a Map
// over a dense input, a broadcast one (repeated along the rows), a strided one (contiguous along them) and a scalar,
// launched persistent with the default block and items, and covering the output with other ones.
namespace memop {
inline void ucut_set_error(char*, size_t, const char*, const char*) {}

#include "emit/templates/memop_runtime.inc"

struct Map {
  ucut_dense_input<cutlass::bfloat16_t, 4> t_a;
  ucut_strided_input<float, 4, 2, 0> t_row;
  ucut_strided_input<int32_t, 4, 2, 1> t_col;
  float s_alpha;
  __device__ float apply(float a, float row, float col) const { return a * row - s_alpha * col; }
  __device__ cutlass::Array<float, 4> vector(int64_t i) const {
    cutlass::Array<float, 4> a = t_a.vector(i), row = t_row.vector(i), col = t_col.vector(i), y;
    for (int j = 0; j < 4; ++j) y[j] = apply(a[j], row[j], col[j]);
    return y;
  }
  __device__ float element(int64_t i) const { return apply(t_a.element(i), t_row.element(i), t_col.element(i)); }
  const char* misaligned() const { return t_a.aligned() && t_row.aligned() && t_col.aligned() ? nullptr : "a"; }
};
template int ucut_map_launch<float, 4, 256, 1, true, Map>(const Map&, float*, int64_t, cudaStream_t, char*, size_t);
template int ucut_map_launch<float, 4, 512, 4, false, Map>(const Map&, float*, int64_t, cudaStream_t, char*, size_t);
}  // namespace memop

// A full reduce's namespace (emit/memory/reduce.cpp): memop_runtime.inc's readers, then memop_reduce.inc, over a
// body of one dense input, launched persistent with the default block and items, and covering the data with others;
// a logsumexp's (max, sum of exps) pair as the partials.
namespace memop_reduce {
inline void ucut_set_error(char*, size_t, const char*, const char*) {}

#include "emit/templates/memop_runtime.inc"

#include "emit/templates/memop_reduce.inc"

struct Body {
  ucut_dense_input<cutlass::bfloat16_t, 8> t_x;
  int64_t count;
  __device__ cutlass::Array<float, 8> vector(int64_t i) const { return t_x.vector(i); }
  __device__ float element(int64_t i) const { return t_x.element(i); }
  __device__ float finish(float x) const { return x / float(count); }
  const char* misaligned() const { return t_x.aligned() ? nullptr : "x"; }
};
template int ucut_reduce_launch<float, 8, 256, 1, true, 2048, ucut_reduce_value<ucut_reduce_sum>, Body>(
    const Body&, ucut_reduce_workspace<float, 2048>*, float*, int64_t, cudaStream_t, char*, size_t);
template int ucut_reduce_launch<cutlass::bfloat16_t, 8, 512, 4, false, 2048, ucut_reduce_value<ucut_reduce_max>, Body>(
    const Body&, ucut_reduce_workspace<float, 2048>*, cutlass::bfloat16_t*, int64_t, cudaStream_t, char*, size_t);
template int ucut_reduce_launch<float, 8, 256, 1, true, 2048, ucut_reduce_logsumexp, Body>(
    const Body&, ucut_reduce_workspace<ucut_reduce_logsumexp::Acc, 2048>*, float*, int64_t, cudaStream_t, char*,
    size_t);
}  // namespace memop_reduce

// A rownorm's namespace (emit/memory/rownorm.cpp): memop_runtime.inc's readers, then memop_rownorm.inc, over a body of
// one dense input: a layer norm a CTA per row, a softmax a logical warp of 8 per row, an rms norm with bf16 output.
namespace memop_rownorm {
inline void ucut_set_error(char*, size_t, const char*, const char*) {}

#include "emit/templates/memop_runtime.inc"

#include "emit/templates/memop_rownorm.inc"

struct Body {
  ucut_dense_input<float, 4> t_x;
  __device__ float eps() const { return 1e-5f; }
  __device__ cutlass::Array<float, 4> input(int64_t i) const { return t_x.vector(i); }
  __device__ cutlass::Array<float, 4> chain(const cutlass::Array<float, 4>& y, const cutlass::Array<float, 4>&,
                                            int64_t) const {
    return y;
  }
  const char* misaligned() const { return t_x.aligned() ? nullptr : "x"; }
};
template int ucut_rownorm_launch<ucut_norm_layer, float, 4, 256, 1, 1, true, Body>(
    const Body&, float*, int64_t, int64_t, int64_t, cudaStream_t, char*, size_t);
template int ucut_rownorm_launch<ucut_norm_softmax, float, 4, 256, 4, 32, false, Body>(
    const Body&, float*, int64_t, int64_t, int64_t, cudaStream_t, char*, size_t);
template int ucut_rownorm_launch<ucut_norm_rms, cutlass::bfloat16_t, 4, 128, 2, 1, true, Body>(
    const Body&, cutlass::bfloat16_t*, int64_t, int64_t, int64_t, cudaStream_t, char*, size_t);
}  // namespace memop_rownorm

// A per-axis reduce's namespace (emit/memory/reduce_axes.cpp): memop_runtime.inc's readers, memop_reduce.inc's
// functors, then memop_reduce_axes.inc, over a body of a dense matrix and a vector read along each row (y = A·x),
// launched as rows and as columns, accumulating values, (argmax, argmin) indices and (logsumexp) (max, sum of exps)
// pairs.
namespace memop_reduce_axes {
inline void ucut_set_error(char*, size_t, const char*, const char*) {}

#include "emit/templates/memop_runtime.inc"

#include "emit/templates/memop_reduce.inc"

#include "emit/templates/memop_reduce_axes.inc"

struct Body {
  ucut_dense_input<float, 4> t_A;
  ucut_strided_input<float, 4, 2, 1> t_x;
  int64_t count;
  struct Row {
    int64_t t_x;
  };
  __device__ float value(float a, float x, int64_t) const { return a * x; }
  __device__ cutlass::Array<float, 4> vector(int64_t i) const {
    const cutlass::Array<float, 4> a = t_A.vector(i), x = t_x.vector(i);
    cutlass::Array<float, 4> y;
    for (int k = 0; k < 4; ++k) y[k] = value(a[k], x[k], i + k);
    return y;
  }
  __device__ float element(int64_t i) const { return value(t_A.element(i), t_x.element(i), i); }
  __device__ Row row(int64_t first) const { return Row{t_x.offset(first)}; }
  __device__ cutlass::Array<float, 4> row_vector(const Row& row, int64_t first, int64_t j) const {
    const cutlass::Array<float, 4> a = t_A.vector(first + j), x = ucut_vector_at(t_x, row.t_x + j);
    cutlass::Array<float, 4> y;
    for (int k = 0; k < 4; ++k) y[k] = value(a[k], x[k], first + j + k);
    return y;
  }
  __device__ float row_element(const Row& row, int64_t first, int64_t j) const {
    return value(t_A.element(first + j), ucut_element_at(t_x, row.t_x + j), first + j);
  }
  __device__ float finish(float x) const { return x / float(count); }
  const char* misaligned() const { return t_A.aligned() && t_x.aligned() ? nullptr : "A"; }
};
template int ucut_reduce_rows_launch<float, 4, 256, 1, true, ucut_reduce_value<ucut_reduce_sum>, Body>(
    const Body&, float*, int64_t, int64_t, int, cudaStream_t, char*, size_t);
template int ucut_reduce_rows_launch<cutlass::bfloat16_t, 4, 512, 4, false, ucut_reduce_value<ucut_reduce_max>, Body>(
    const Body&, cutlass::bfloat16_t*, int64_t, int64_t, int, cudaStream_t, char*, size_t);
template int ucut_reduce_rows_launch<int32_t, 4, 256, 2, true, ucut_reduce_argmax, Body>(
    const Body&, int32_t*, int64_t, int64_t, int, cudaStream_t, char*, size_t);
template int ucut_reduce_columns_launch<float, 4, 256, true, ucut_reduce_value<ucut_reduce_min>, Body>(
    const Body&, float*, int64_t, int64_t, int64_t, cudaStream_t, char*, size_t);
template int ucut_reduce_columns_launch<int32_t, 4, 1024, false, ucut_reduce_argmin, Body>(
    const Body&, int32_t*, int64_t, int64_t, int64_t, cudaStream_t, char*, size_t);
template int ucut_reduce_rows_launch<float, 4, 256, 1, true, ucut_reduce_logsumexp, Body>(
    const Body&, float*, int64_t, int64_t, int, cudaStream_t, char*, size_t);
template int ucut_reduce_columns_launch<cutlass::bfloat16_t, 4, 256, false, ucut_reduce_logsumexp, Body>(
    const Body&, cutlass::bfloat16_t*, int64_t, int64_t, int64_t, cudaStream_t, char*, size_t);
}  // namespace memop_reduce_axes

// A scan's namespace (emit/memory/scan.cpp): memop_runtime.inc's readers, memop_reverse.inc's, then memop_scan.inc,
// over a body of a dense and a reversed input, inclusive from the start and exclusive from the end.
namespace memop_scan {
inline void ucut_set_error(char*, size_t, const char*, const char*) {}

#include "emit/templates/memop_runtime.inc"

#include "emit/templates/memop_reverse.inc"

#include "emit/templates/memop_scan.inc"

struct Body {
  ucut_dense_input<cutlass::bfloat16_t, 8> t_x;
  ucut_reversed_input<cutlass::bfloat16_t, 8> t_r;
  __device__ cutlass::Array<float, 8> vector(int64_t i) const {
    cutlass::Array<float, 8> x = t_x.vector(i), r = t_r.vector(i), y;
    for (int j = 0; j < 8; ++j) y[j] = x[j] * r[j];
    return y;
  }
  __device__ float element(int64_t i) const { return t_x.element(i) * t_r.element(i); }
  __device__ float finish(float x) const { return x; }
  const char* misaligned() const { return t_x.aligned() && t_r.aligned() ? nullptr : "x"; }
};
template int ucut_scan_launch<float, 8, 256, 1, true, 4096, false, false, ucut_scan_sum, Body>(
    const Body&, ucut_scan_workspace<4096>*, float*, int64_t, int64_t, cudaStream_t, char*, size_t);
template int ucut_scan_launch<cutlass::bfloat16_t, 8, 512, 2, false, 4096, true, true, ucut_scan_max, Body>(
    const Body&, ucut_scan_workspace<4096>*, cutlass::bfloat16_t*, int64_t, int64_t, cudaStream_t, char*, size_t);
}  // namespace memop_scan

// A transposing map's namespace (emit/memory/map.cpp): memop_runtime.inc's readers, then memop_transpose.inc, over a
// Map of one dense input, f32 (32 × 32 tiles) and bf16 (64 × 64).
namespace memop_transpose {
inline void ucut_set_error(char*, size_t, const char*, const char*) {}

#include "emit/templates/memop_runtime.inc"

#include "emit/templates/memop_transpose.inc"

template <class Element, int V>
struct Map {
  ucut_dense_input<Element, V> t_a;
  __device__ cutlass::Array<float, V> vector(int64_t i) const { return t_a.vector(i); }
  __device__ float element(int64_t i) const { return t_a.element(i); }
  const char* misaligned() const { return t_a.aligned() ? nullptr : "a"; }
};
template int ucut_transpose_launch<float, 4, 256, true, Map<float, 4>>(const Map<float, 4>&, float*, int64_t, int64_t,
                                                                         int64_t, cudaStream_t, char*, size_t);
template int ucut_transpose_launch<cutlass::bfloat16_t, 8, 256, false, Map<cutlass::bfloat16_t, 8>>(
    const Map<cutlass::bfloat16_t, 8>&, cutlass::bfloat16_t*, int64_t, int64_t, int64_t, cudaStream_t, char*, size_t);
}  // namespace memop_transpose

// A window's namespace (emit/memory/window.cpp): memop_runtime.inc, then memop_window.inc: a 2D and a 3D star (bf16,
// a Body reading the point), a weighted 1D box (f32 over bf16 weights) and an unweighted 2D max box.
namespace memop_window {
inline void ucut_set_error(char*, size_t, const char*, const char*) {}

#include "emit/templates/memop_runtime.inc"

#include "emit/templates/memop_window.inc"

struct StarBody {
  float s_r;
  __device__ float finish(float x, float v_u) const { return v_u + s_r * (x - 4.0f * v_u); }
};
struct BoxBody {
  __device__ float finish(float x) const { return x; }
};
template int ucut_window_star_launch<cutlass::bfloat16_t, cutlass::bfloat16_t, 256, 4, 64, 8, false, StarBody>(
    const cutlass::bfloat16_t*, cutlass::bfloat16_t*, ucut_window_star_shape, const StarBody&, cudaStream_t, char*,
    size_t);
template int ucut_window_star_launch<float, float, 256, 4, 64, 8, true, StarBody>(const float*, float*,
                                                                                 ucut_window_star_shape,
                                                                                 const StarBody&, cudaStream_t,
                                                                                 char*, size_t);
template int ucut_window_box_launch<float, cutlass::bfloat16_t, float, 256, 4, 1024, ucut_window_sum, true, BoxBody>(
    const float*, const cutlass::bfloat16_t*, float*, ucut_window_box_shape, const BoxBody&, cudaStream_t, char*,
    size_t);
template int ucut_window_box_launch<cutlass::bfloat16_t, float, cutlass::bfloat16_t, 128, 8, 32, ucut_window_max,
                                    false, BoxBody>(const cutlass::bfloat16_t*, const float*, cutlass::bfloat16_t*,
                                                    ucut_window_box_shape, const BoxBody&, cudaStream_t, char*,
                                                    size_t);
}  // namespace memop_window

// A sparse kernel's namespace (emit/memory/sparse.cpp): memop_runtime.inc's vector load, then memop_sparse.inc, over
// a Body with no stage: csr by rows (f32 SpMV and SpMM), ell (bf16), coo and csc scatters (direct f32, and bf16
// through the f32 sums).
namespace memop_sparse {
inline void ucut_set_error(char*, size_t, const char*, const char*) {}

#include "emit/templates/memop_runtime.inc"

#include "emit/templates/memop_sparse.inc"

struct Body {
  __device__ float finish(float x) const { return x; }
};
using ArgsF32 = ucut_sparse_args<float, float>;
using ArgsBf16 = ucut_sparse_args<cutlass::bfloat16_t, cutlass::bfloat16_t>;
template int ucut_sparse_launch<float, ucut_sparse_csr, 4, 256, 0, true, ArgsF32, Body>(
    const Body&, const ArgsF32&, float*, cudaStream_t, char*, size_t);
template int ucut_sparse_launch<cutlass::bfloat16_t, ucut_sparse_ell, 8, 128, 8, false, ArgsBf16, Body>(
    const Body&, const ArgsBf16&, cutlass::bfloat16_t*, cudaStream_t, char*, size_t);
template int ucut_sparse_launch<float, ucut_sparse_coo, 4, 256, 0, true, ArgsF32, Body>(
    const Body&, const ArgsF32&, float*, cudaStream_t, char*, size_t);
template int ucut_sparse_launch<cutlass::bfloat16_t, ucut_sparse_csc, 8, 256, 0, false, ArgsBf16, Body>(
    const Body&, const ArgsBf16&, cutlass::bfloat16_t*, cudaStream_t, char*, size_t);
}  // namespace memop_sparse
