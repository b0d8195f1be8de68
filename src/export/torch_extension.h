// export/torch_extension.h — `ucutlass export --torch`: a PyTorch C++/CUDA extension around an emitted
// kernel, as files for torch.utils.cpp_extension.load: the kernel as emitted (`ucut_<kernel>_kernel.cu`), its
// binding
// (`ucut_<kernel>_binding.cpp`, export/torch_binding.h) and a Python module (`ucut_<kernel>.py`) whose
// function `ucut_<kernel>(...)` builds the extension on first use (CUTLASS's headers from $CUTLASS_DIR) and
// calls it.
#pragma once

#include <string>
#include <vector>

#include "emit/backend.h"
#include "export/torch_binding.h"
#include "ir/kernel_config.h"

namespace ucut::interop {

struct ExportedFile {
  std::string name;  // file name, no folder
  std::string text;
};

/// The three files of a checked, exportable kernel (export/exportable.h) named `kernel_name`, for `arch`, with its
/// binding `b` (export/torch_binding.h for a GEMM or convolution, export/torch_family_binding.h for a family).
std::vector<ExportedFile> torch_extension(const std::string& kernel_name, Arch arch, const EmittedKernel& kernel,
                                          const Binding& b);

/// The torch extension's name: `ucut_<kernel>_` and 12 hex digits of the config hash (one build per config).
std::string extension_name(const std::string& kernel_name, const EmittedKernel& kernel);

/// Python that both exports share: `_ucut_cutlass_includes(who)` (CUTLASS's include folders from
/// $CUTLASS_DIR, a RuntimeError saying what to set when it is unset or wrong) and `_UCUT_CUDA_FLAGS` (nvcc
/// flags for the spec's target, as `ucutlass build` compiles it).
std::string python_build_settings(Arch arch, const EmittedKernel& kernel);

/// The head of a KernelBench ModelNew source (both `--kernelbench` exports, one kernel or a pipeline): the imports,
/// python_build_settings, the emitted CUDA and the binding as string literals, the load_inline call that builds them
/// as extension `extension` (`who` names the model in its errors), and with `channels_last` the
/// `_ucut_channels_last` helper that forward's glue calls.
std::string kernelbench_prelude(Arch arch, const EmittedKernel& kernel, const std::string& binding_cpp,
                                const std::string& extension, const std::string& who, bool channels_last);

}  // namespace ucut::interop
