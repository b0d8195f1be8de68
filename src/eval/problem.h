// eval/problem.h — a problem: WHAT must be computed (operator, operand types, the epilogue's reference
// semantics, shapes, tolerance), independent of HOW (the spec). TOML format, documented in docs/problems.md:
//
//   name = "mlp_up"
//   op = "gemm"                        # gemm | batched_gemm | grouped_gemm (shapes: { groups = [[m, n, k], ...] })
//   a = "bf16 row"                     # A[M,K]: dtype and layout
//   b = "bf16 col"                     # B[K,N]
//   d = "bf16 row"                     # D[M,N]
//   math = "native"                    # native | tf32: the precision the problem accepts for f32 operands
//   epilogue = "bias(col) >> gelu_tanh"  # DSL chain syntax; "" for a plain GEMM
//   reference = "auto"                 # auto | gpu | cpu
//   tolerance = { atol = 1e-2, rtol = 1e-2 }   # optional; defaults by precision (eval/tolerance.h)
//   framework_inputs = { a = "rand", b = "param" }  # optional: how a framework draws them (eval/input_draw.h)
//   shapes = [ { m = 4096, n = 4096, k = 4096 }, { m = 8205, n = 5921, k = 2949, label = "odd" } ]
//
// Convolutions give each shape's geometry instead ({ n, h, w, c, k, r, s, pad, stride, dilation }); a
// grouped_conv2d shape adds `groups = G`, a depthwise_conv2d shape leaves out k (= c).
#pragma once

#include <optional>
#include <string>
#include <toml++/toml.h>
#include <vector>

#include "eval/protocol.h"
#include "ir/kernel_config.h"
#include "ir/pipeline.h"
#include "support/diag.h"

namespace ucut {

struct Problem {
  std::string name;
  std::string path;
  KernelConfig semantics;  // the reference semantics, lowered from a synthesized spec (no tuning fields); a
                           // pipeline's last stage (whose output is the problem's)
  std::string semantics_spec;  // that synthesized spec text; a pipeline's spec text
  std::optional<PipelineConfig> pipeline;  // `op = "pipeline"`: every stage (eval/pipeline_problem.h)
  std::vector<GemmShape> shapes;
  Tolerance tolerance;
  bool tolerance_given = false;
  std::string reference = "auto";
  InputDraws framework_inputs;  // how the problem's framework draws its operands (`--inputs framework`)
};

/// Loads a problem file; on failure returns nullopt with a message naming the file, field and fix.
std::optional<Problem> load_problem(const std::string& path, std::string* error);
std::optional<Problem> parse_problem(const std::string& text, const std::string& name, std::string* error);

/// Reads `{ n, (d, h,) w, c, k, (t, r,) s, pad, stride, dilation, groups }` for convolution operator `op`: pad,
/// stride, dilation (and a transposed convolution's output_padding) are arrays of one integer per spatial dimension
/// (default 0, 1, 1, 0). Forward convolutions and filter gradients name the forward geometry; a transposed
/// convolution names its own input (n, spatial, c channels) and k output channels; a depthwise convolution may
/// leave out k (= c). On failure returns nullopt and says why.
std::optional<ConvShape> parse_conv_shape(const toml::table& s, OpKind op, std::string* why);

/// Why `kernel` does not compute `problem` (operator, operand types/layouts, epilogue stages), or nullopt.
std::optional<std::string> semantic_mismatch(const Problem& problem, const KernelConfig& kernel);

/// Why `kernel` cannot run `shape`, or nullopt: a leading dimension breaks an operand's declared alignment (the
/// packed layouts the harness uses; for a grouped GEMM, any problem's, named by its index from 1; for a grouped
/// convolution, the channels per group), or a convolution's geometry is one the kernel's backend does not compute:
/// on SM90 a transposed convolution with stride > 1 or padding beyond the dilated filter, or geometry beyond TMA
/// im2col's limits; on the CUTLASS 2.x backend a transposed convolution with dilation > 1. The kernel rejects
/// these at run time; this says which operand and extent, before any GPU is involved.
std::optional<std::string> shape_violation(const KernelConfig& kernel, const GemmShape& shape);

/// Whether the kernel converts A or B (`from(T)`) to a type with fewer bits than the caller's.
bool narrows_operands(const KernelConfig& kernel);

/// What the kernel multiplies in, in words: "bf16 (operands converted from f32)", else its math mode ("tf32").
std::string multiply_precision(const KernelConfig& kernel);

/// True when the kernel multiplies in lower precision than the problem states (tf32 for an exact-f32
/// problem, or operands it converts to fewer bits): allowed, but reported as a precision change, never hidden in
/// a speedup.
bool precision_change(const Problem& problem, const KernelConfig& kernel);
/// The same for any stage of a pipeline.
bool precision_change(const Problem& problem, const PipelineConfig& kernel);

}  // namespace ucut
