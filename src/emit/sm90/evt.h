// emit/sm90/evt.h — lowers the `>>` chain to one CUTLASS SM90 Epilogue Visitor Tree: the node type aliases
// and the matching argument initializer (children's arguments first, the node's own last).
#pragma once

#include <string>
#include <vector>

#include "emit/cpp_writer.h"
#include "ir/kernel_config.h"

namespace ucut::sm90 {

struct EvtTree {
  /// `using EvtN = ...;` lines in dependency order; the last alias is the root (the FusionCallbacks).
  std::vector<std::pair<std::string, std::string>> aliases;
  std::string root;
  /// Brace initializer for `typename FusionCallbacks::Arguments`, reading from `const ucut_gemm_args* a`.
  std::string arguments;
  /// `acc -> ... -> D` in words, for the comment above the tree.
  std::string description;
  bool needs_epilogue_descriptor = false;  // an AuxStore uses EpilogueDescriptor / AuxStoreDescriptor
};

EvtTree build_evt(const KernelConfig& cfg);

}  // namespace ucut::sm90
