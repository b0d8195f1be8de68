// ir/kernel_config.h — the typed configuration IR: what lower.cpp produces from the AST, what check/
// validates and what emit/ prints. No Hopper assumptions live here; arch facts are in archs.def.
// Every field taken from (or defaulted for) the source has a Span; defaults carry Span::implied.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ir/epilogue_ops.h"
#include "ir/expr.h"
#include "ir/types.h"
#include "support/source.h"

namespace ucut {

/// One extent of a tensor: a symbol (`M`) or a fixed size.
struct Extent {
  std::string symbol;  // empty when fixed
  int64_t size = 0;
  Span span;
  bool fixed() const { return symbol.empty(); }
};

/// A tensor operand declared in the spec (`A: bf16[M,K] row align(8)`).
struct TensorDecl {
  Spanned<std::string> name;
  Spanned<DType> dtype;
  std::vector<Extent> dims;
  Spanned<Layout> layout;  // row-major or column-major over the last two extents
  Spanned<int> align;      // in elements; defaults to 16 bytes' worth
  Spanned<bool> scaled;    // FP8: a per-tensor scale read from device memory
  Spanned<bool> padded;    // `pad`: the kernel copies it through a buffer with 16-byte rows (any `align` accepted)
  /// `fold(n)` on a padded convolution's X: its copy unrolls the n innermost filter dimensions into channels (a
  /// partial im2col), so few input channels still fill the MMA's K; 0 when absent.
  Spanned<int> fold;
  /// `from(T)` on a kernel's A or B: the caller passes T, which the kernel converts to `dtype` before every run.
  std::optional<Spanned<DType>> from;
  /// `from(T, mainloop)`: the GEMM mainloop loads T and converts it in registers before each MMA (no workspace copy).
  Spanned<bool> converts_in_mainloop;
  Span span;
  /// The element type the caller passes: `from`'s, else the declared one.
  DType caller_dtype() const { return from ? from->value : dtype.value; }
  /// Whether `from` converts to fewer bits than the caller passes (f32 to bf16 or f16): a precision change.
  bool narrowed() const { return from && dtype_bits(dtype.value) < dtype_bits(from->value); }
  /// Whether the kernel converts `from(T)` in a copy before every run (not in its mainloop).
  bool copied_for_conversion() const { return from && !converts_in_mainloop.value; }
  /// The alignment the kernel itself works with: 16 bytes for a padded tensor, else `align`.
  int kernel_align() const;
};

/// One stage of the epilogue chain, in source order.
struct EpiOp {
  EpiKind kind;
  Span span;
  std::vector<double> params;       // activation parameters in epilogues.def order, defaults filled
  /// A family kernel's activation parameters that name its run-time scalars (`leaky_relu(alpha)`): per
  /// parameter the operand index it reads (ir/memop.h, as `load(i)`), or -1 for the number in `params`; empty
  /// when every parameter is a number (always on GEMM and convolution chains).
  std::vector<int> param_operands;
  Spanned<Axis> axis;               // vector stages
  Spanned<DType> dtype;             // vector element type; cast target
  std::optional<TensorDecl> tensor; // residual C, aux_store Z, a reduction's vector R, store D
  std::string scalar_name;          // scale: runtime scalar name; residual: "beta"
  double scalar_default = 1.0;
  std::shared_ptr<const EpiExpr> expr;  // `expr(...)` stages
};

struct KernelConfig {
  Spanned<std::string> name;
  Span header;  // `kernel NAME : ARCH`, where implied defaults point
  Spanned<Arch> arch;
  Spanned<OpKind> op;
  TensorDecl a, b;
  Spanned<DType> acc;
  Spanned<DType> compute;  // epilogue arithmetic
  Spanned<MathMode> math;
  Spanned<std::array<int, 3>> tile;
  Spanned<std::array<int, 3>> warp;  // the 2.x backend's warp tile; {0,0,0} on sm90
  Spanned<std::array<int, 3>> cluster;
  Spanned<KernelSchedule> kernel_schedule;
  Spanned<EpilogueSchedule> epilogue_schedule;
  Spanned<int> stages;  // 0: as many as fit (auto)
  Spanned<Raster> raster;
  Spanned<int> swizzle;
  Spanned<TileScheduler> tile_scheduler;
  Spanned<int> splits;  // split-K slices, 1 otherwise
  Spanned<bool> fp8_fast_accum;
  std::vector<EpiOp> epilogue;  // ends with the store stage when lowering succeeded

  /// The store stage's output tensor D.
  const TensorDecl& output() const { return *epilogue.back().tensor; }
  bool has_source() const { return source_stage() != nullptr; }
  const EpiOp* source_stage() const;  // the `residual(C: ...)` stage, or nullptr
  /// The epilogue's M x N tensors in chain order: residual C, aux outputs, the stored D.
  std::vector<const TensorDecl*> epilogue_tensors() const;
  std::vector<TensorDecl*> epilogue_tensors();
  /// The reduction stages (`row_sum(R: f32[M])`, ...): their output vectors are in `tensor`.
  std::vector<const EpiOp*> reductions() const;
  /// Only `store(D)` with no scales: no fusion, so any epilogue schedule can run it.
  bool plain_epilogue() const;
  /// The first stage that makes the epilogue a fusion, for diagnostics (nullptr when plain).
  const EpiOp* first_fused_stage() const;
  bool batched() const { return op.value == OpKind::batched_gemm; }
  /// A grouped GEMM: operands [G, M, K] · [G, K, N] -> [G, M, N] where G counts problems whose M, N, K differ.
  bool grouped() const { return op.value == OpKind::grouped_gemm; }
  /// 3 when the operands carry a leading batch or group extent, else 2 (GEMMs only).
  size_t matrix_rank() const { return batched() || grouped() ? 3 : 2; }
  /// A convolution: A is the activation X, B the filter W, the output Y (all channels-last).
  bool conv() const { return op_family(op.value) == OpFamily::conv; }
  /// A dense forward convolution that Hopper runs on its persistent GEMM kernels (`tma_cooperative` or
  /// `tma_pingpong`): pixels are the GEMM's M, channels its K, which needs a pointwise geometry at run time (a 1x1
  /// filter at stride 1 without padding, as X's copy is when `fold` unrolls every spatial dimension).
  bool conv_as_gemm() const;
  /// The emitter that serves this config: the arch's, except that `multistage` on Hopper runs the 2.x kernel.
  BackendKind backend() const;
  /// B is converted in the mainloop (`from(f32, mainloop)`), which CUTLASS's mixed-input mainloop only does to the
  /// operand it holds in registers, A: the kernel computes D^T = B^T A^T (ir/transpose.h), its tile in that frame.
  bool computes_transpose() const { return b.converts_in_mainloop.value; }
};

}  // namespace ucut
