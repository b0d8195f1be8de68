// export/mskb_launcher.h — `ucutlass export --mskb TASK SPEC`: an MSKB `<name>_optimized` launcher (MSKB's
// exact C signature, facts/mskb.md) around an emitted kernel, so it drops into an MSKB test program or
// `ucutlass bench mskb --impl`. The tasks a GEMM serves: matrix_mul (C = A·B), square_matrix_mul (M×M), and
// matrix_power (B = A^P as P − 1 GEMMs through a workspace). The spec must match the task: row-major operands
// and output, f32 (FP32 launcher) or bf16 (BF16 launcher) throughout, a plain store, a `gemm` op. A
// memory-bound kernel (`map`) serves any task whose launcher's parameters it binds by name
// (mskb_map_launcher.cpp): the activations, vector_add, matrix_scalar_mul, SwiGLU, silu_and_mul, hinge_loss,
// matrix_copy (examples/mskb/).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "emit/backend.h"
#include "ir/kernel_config.h"
#include "ir/memop.h"
#include "mskb/signature.h"
#include "mskb/task.h"
#include "support/diag.h"

namespace ucut::interop {

struct MskbLauncher {
  std::string file;    // "<name>.cu": MSKB's file name, as `ucutlass bench mskb --impl` finds it
  std::string source;  // the emitted kernel followed by the launcher
};

/// The tasks export --mskb serves.
const std::vector<std::string>& mskb_exportable_tasks();

/// The launcher for `task`, or nullopt with an X006 diagnostic at the spec's span that does not fit the task.
std::optional<MskbLauncher> mskb_launcher(const std::string& task, const KernelConfig& cfg, const EmittedKernel& kernel,
                                          DiagEngine& diags);

/// The launcher for `task` around a memory-bound kernel: `task` names the task (the launcher of the spec's
/// output type) or its BF16 launcher (`RELU_bf16`). Every parameter binds by name, its own or the FP32
/// signature's at the same place: a pointer to the spec's tensor of the launcher's type (an input, or the
/// tensor a slice views; the output not const), an int to an extent, a float or bf16 to a run-time scalar;
/// every tensor, scalar and extent of the spec is bound. Nullopt with X007 at what does not bind.
std::optional<MskbLauncher> mskb_launcher(const std::string& task, const MemOpConfig& m,
                                          const EmittedKernel& kernel, DiagEngine& diags);

/// That binding itself: per name of the spec (a caller tensor, an output, a scalar, an extent symbol), the index
/// of the parameter of `launcher` it binds to, matched by its own name or by `fp32`'s at the same place (the
/// task's FP32 signature); nullopt with X007 at what does not bind.
std::optional<std::map<std::string, size_t>> mskb_parameter_binding(const MemOpConfig& m,
                                                                    const mskb::Signature& launcher,
                                                                    const mskb::Signature& fp32, DiagEngine& diags);

}  // namespace ucut::interop
