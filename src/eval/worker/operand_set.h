// eval/worker/operand_set.h — the tensors a caller hands one GEMM-shaped kernel for one input set (A, B, the
// residual C, the epilogue vectors): their seeded fills, their content hash, and how the kernel ABI and the cuBLAS
// baseline get them.
#pragma once

#include <optional>
#include <vector>

#include "abi/kernel_abi.h"
#include "eval/worker/cublas_baseline.h"
#include "eval/worker/device_buffer.h"
#include "eval/worker/measure_common.h"
#include "eval/worker/operand_geometry.h"

namespace ucut::worker {

struct OperandSet {
  DeviceBuffer a, b, c;  // a, b: empty where the caller does not provide them (a pipeline's intermediates)
  std::vector<DeviceBuffer> vectors;
};

/// p's operands at g's sizes, filled from `seed`: A and B in the fill types given (fill_type; none: not the
/// caller's), the residual C and the vectors in p's types.
OperandSet make_operand_set(const ProblemDesc& p, const OperandGeometry& g, std::optional<DType> a,
                            std::optional<DType> b, const InputSeed& seed, cudaStream_t s);

/// Every buffer the set holds, in a fixed order (A, B, C where present, then the vectors).
std::vector<const DeviceBuffer*> operand_buffers(const OperandSet& set);

/// The kernel ABI's extents and tensors of a GEMM, batched GEMM or convolution's implicit GEMM: the set's A and B
/// (null where absent) as g lays them out, its C, and D at `d` (null: one the kernel owns).
void set_gemm_tensors(ucut_gemm_args& args, const ProblemDesc& p, const OperandGeometry& g, const OperandSet& set,
                      void* d);

/// The kernel ABI's epilogue parameters: the set's vectors and p's scalars.
void set_epilogue_params(ucut_gemm_args& args, const ProblemDesc& p, const OperandSet& set);

/// The cuBLAS baseline's operands: a, b and d as given, the set's C, and its vector that `bl` fuses as the bias.
BaselineOperands baseline_operands(const CublasBaseline& bl, const OperandSet& set, const void* a, const void* b,
                                   void* d);

}  // namespace ucut::worker
