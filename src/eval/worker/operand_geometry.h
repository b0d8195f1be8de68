// eval/worker/operand_geometry.h — the sizes measure_shape needs of a problem's tensors, so that one flow serves
// GEMMs and convolutions: how many elements A and B have and how to read them as row-major float matrices, the
// leading dimensions the kernel ABI gets, and a convolution's geometry. The output side is the same for both:
// D, C and aux outputs are [L, M, N] matrices (a convolution's output is its implicit GEMM's row-major [M, N]
// matrix: fprop Y as [pixels, K], dgrad DX as [pixels, C], wgrad DW as [K, taps C]). A grouped GEMM is a list of
// such GEMMs (`parts`), one per problem, at offsets into packed operands (problem/grouped_layout.h).
#pragma once

#include "abi/kernel_abi.h"
#include "problem/conv_abi.h"
#include "problem/grouped_layout.h"
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

/// One GEMM the reference computes and the comparison checks: the whole (batched) GEMM or convolution, or one
/// problem of a grouped GEMM. Offsets are in elements into the packed operands, and the same into their
/// row-major float copies (A, B) and into every output-shaped tensor (C, D, aux and their float copies).
struct GemmPart {
  Extents e;
  MatrixView a, b;  // how to read this part's A and B, starting at their offsets
  int64_t a_offset = 0, b_offset = 0, d_offset = 0;
};

struct OperandGeometry {
  Extents e;       // the GEMM, or a convolution's implicit GEMM; a grouped GEMM's are in `parts` (e unused)
  ConvShape conv;  // dims 0: a GEMM
  /// GEMM: A[L,M,K], B[L,K,N]. Convolution: its operands as [pixels, channels] matrices, channels-last (X as
  /// [N in pixels, C], W as [K taps, C / groups], DY as [N out pixels, K]): fprop X and W, dgrad DY and W, wgrad
  /// DY and X.
  MatrixView a, b;
  int64_t lda = 0, ldb = 0;
  std::vector<GemmPart> parts;  // one, or a grouped GEMM's problems in order
  PackedGroup group;            // a grouped GEMM's problems (empty otherwise)
  int64_t d_elements = 0;       // elements of each output-shaped tensor (C, D, aux): Σ over the parts
  bool is_conv() const { return conv.dims > 0; }
  bool is_grouped() const { return !group.problems.empty(); }
  int64_t vector_len(const VectorSlot& v) const { return v.axis == Axis::row ? e.m : e.n; }
  /// The leading dimension of an [M, N] output (D, C, aux) stored `layout` (channels-last: row-major).
  int64_t output_ld(Layout layout) const { return layout == Layout::col ? e.m : e.n; }
};

/// Throws std::runtime_error when a convolution shape is not the problem's kind or its m, n, k are not the
/// implicit GEMM of its geometry, or when a shape is grouped and the problem is not (or the other way round).
OperandGeometry operand_geometry(const ProblemDesc& p, const GemmShape& s);

}  // namespace ucut::worker
