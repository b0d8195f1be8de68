// eval/worker/operand_geometry.h — the sizes measure_shape needs of a problem's tensors, so that one flow serves
// GEMMs and convolutions: how many elements A and B have and how to read them as row-major float matrices, the
// leading dimensions the kernel ABI gets, and a convolution's geometry. The output side is the same for both:
// D, C and aux outputs are [L, M, N] matrices (a convolution's output is its implicit GEMM's row-major [M, N]
// matrix: fprop Y as [pixels, K], dgrad DX as [pixels, C], wgrad DW as [K, taps C]).
#pragma once

#include "emit/templates/kernel_abi.h"
#include "eval/protocol.h"
#include "eval/worker/problem_desc.h"
#include "eval/worker/reference.h"

namespace ucut::worker {

/// An operand as to_float_row_major reads it: [batch, rows, cols] stored `layout`.
struct MatrixView {
  int64_t batch = 1, rows = 0, cols = 0;
  Layout layout = Layout::row;
  int64_t elements() const { return batch * rows * cols; }
  int64_t batch_stride() const { return rows * cols; }
};

struct OperandGeometry {
  Extents e;       // the GEMM, or a convolution's implicit GEMM
  ConvShape conv;  // dims 0: a GEMM
  /// GEMM: A[L,M,K], B[L,K,N]. Convolution: its operands as [pixels, channels] matrices, channels-last (X as
  /// [N in pixels, C], W as [K taps, C], DY as [N out pixels, K]): fprop X and W, dgrad DY and W, wgrad DY and X.
  MatrixView a, b;
  int64_t lda = 0, ldb = 0;
  bool is_conv() const { return conv.dims > 0; }
  int64_t vector_len(const VectorSlot& v) const { return v.axis == Axis::row ? e.m : e.n; }
  /// The leading dimension of an [M, N] output (D, C, aux) stored `layout` (channels-last: row-major).
  int64_t output_ld(Layout layout) const { return layout == Layout::col ? e.m : e.n; }
};

/// Throws std::runtime_error when a convolution shape is not the problem's kind or its m, n, k are not the
/// implicit GEMM of its geometry.
OperandGeometry operand_geometry(const ProblemDesc& p, const GemmShape& s);

/// The kernel ABI's view of a convolution's geometry.
ucut_conv_args conv_args(const ConvShape& s);

}  // namespace ucut::worker
