// engine/cudamaster/compiler_flags.h — which of the Compiler role's nvcc options a candidate is built with.
// The build is the harness's (its flags, the target's -gencode, the output, the libraries: build/nvcc.h); the
// Compiler may add only options that change code generation, from a fixed set, each checked and spelled one
// way so that the same choice always keys the same build.
#pragma once

#include <string>
#include <vector>

namespace ucut::engine::cudamaster {

/// The options the Compiler may add, for its prompt and for people: "-use_fast_math, -ftz=true|false, ...".
std::string allowed_compiler_flags();

struct FlagChoice {
  std::vector<std::string> accepted;   // canonical spellings, in the order given, each once
  std::vector<std::string> refused;    // "OPTION: why", one per option the build does not take
  std::vector<std::string> redundant;  // already on the harness's line (e.g. -O3)
};

/// Sorts `proposed` (the Compiler's list; an entry may hold an option and its value, "-Xptxas -v") against
/// the allowed set; `defaults` is the harness's own line (build/nvcc.h nvcc_flags).
FlagChoice choose_compiler_flags(const std::vector<std::string>& proposed,
                                 const std::vector<std::string>& defaults);

}  // namespace ucut::engine::cudamaster
