// eval/library_calls.h — the static integrity check for raw-code candidates (DESIGN.md §5): does the source do
// its own work, or hand the main operation to PyTorch, cuBLAS/cuBLASLt, cuDNN, cuSPARSE or cuFFT? A candidate with
// no device code of its own that calls such a library is `library_only`; one with kernels of its own that still
// calls a library for a GEMM, convolution, sparse product or FFT is `library_main_op`. Both disqualify. CUTLASS/CuTe
// templates, CUB and Thrust are device code the candidate compiles itself and count as its own.
//
// A scan of the text, not a compiler: comments are skipped, and in C++/CUDA string literals too (a name in a message
// is not a call); in Python, code inside strings is scanned as code (load_inline sources live there).
#pragma once

#include <string>
#include <vector>

#include "eval/integrity.h"

namespace ucut {

enum class SourceLanguage { cpp, python };

struct LibraryCall {
  std::string library;   // an id of eval/math_libraries.def: torch, cublas, cublasLt, cudnn, cusparse, cufft
  std::string function;  // as written: cublasSgemm, at::matmul, torch.nn.functional.conv2d, nn.Linear, ...
  int line = 0;
};

struct SourceScan {
  std::vector<std::string> own_device_code;  // what counts: "__global__ relu_kernel (line 4)", "CUTLASS (line 9)"
  std::vector<LibraryCall> main_op_calls;    // library calls that compute a GEMM, convolution, sparse product or FFT
};

SourceScan scan_source(const std::string& text, SourceLanguage language);

/// SourceLanguage::python for .py files, cpp otherwise.
SourceLanguage language_of(const std::string& path);

/// library_only / library_main_op, each naming the calls and their lines; empty for a candidate doing its own work.
std::vector<IntegrityFlag> library_call_flags(const SourceScan& scan);

}  // namespace ucut
