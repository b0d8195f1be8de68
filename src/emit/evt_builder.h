// emit/evt_builder.h — lowers the `>>` chain to an Epilogue Visitor Tree. The walk over the chain (which stage
// becomes which leaf and compute nodes, argument nesting, the description) is shared; each backend supplies its
// node vocabulary: CUTLASS 3.x Sm90EVT nodes (emit/sm90/evt.cpp) or 2.x Sm80EVT visitors (emit/sm80/evt.cpp).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ir/abi_slots.h"
#include "ir/kernel_config.h"

namespace ucut {

struct EvtTree {
  /// Declarations a backend needs before the aliases (functor structs), verbatim.
  std::string preamble;
  /// `using EvtN = ...;` lines in dependency order; the last alias is the root (the FusionCallbacks).
  std::vector<std::pair<std::string, std::string>> aliases;
  std::string root;
  /// Brace initializer for the root's `Arguments`, reading from `const ucut_gemm_args* a`.
  std::string arguments;
  /// `acc -> ... -> D` in words, for the comment above the tree.
  std::string description;
  bool needs_epilogue_descriptor = false;  // SM90: an AuxStore uses EpilogueDescriptor / AuxStoreDescriptor
};

class EvtBuilder {
 public:
  explicit EvtBuilder(const KernelConfig& cfg) : cfg_(cfg), slots_(abi_slots(cfg)) {}
  virtual ~EvtBuilder() = default;
  EvtTree run();

  /// `{0.01f}`, `{-1.0f, 1.0f}`: activation parameters as float literals.
  static std::string float_args(const EpiOp& op);
  static std::string float_literal(double v);
  /// A reduction's identity as a value of C++ type `type`: -infinity for a max, 0 for a sum.
  static std::string reduction_identity(EpiKind kind, std::string_view type);

 protected:
  struct Node {
    std::string alias;
    std::string args;
    bool is_compute = false;
    std::string fn, out, own_args;  // compute nodes: to re-type the root
    std::vector<std::string> child_aliases;
  };

  // ---- the backend's vocabulary ----
  virtual std::string acc_fetch_type() const = 0;
  /// A scalar read from the ABI's scalars (the value) or from `count` device pointers (`ptrs`, multiplied).
  virtual std::string scalar_type(int pointer_count) const = 0;
  virtual Node source(const EpiOp& op) = 0;                   // the residual C, read per element
  virtual Node vector(const EpiOp& op, size_t slot) = 0;      // bias / channel_scale broadcast
  virtual std::string compute_type(const Node& n) const = 0;  // an EVT compute node over its children
  /// The functor and its argument initializer for an activation stage.
  virtual std::pair<std::string, std::string> activation(const EpiOp& op, size_t stage) = 0;
  virtual Node aux_store(const EpiOp& op, const Node& x, size_t slot) = 0;
  /// A reduction of x into the vector in aux slot `slot`; passes x on.
  virtual Node reduction(const EpiOp& op, const Node& x, size_t slot) = 0;
  /// The root: what writes ElementD (re-typing the last compute node, a conversion, or a store node).
  virtual Node store(const Node& x) = 0;

  // ---- helpers for the vocabularies ----
  Node leaf(std::string type, std::string args);
  Node compute(const std::string& fn, const std::string& out, const std::vector<Node>& children, std::string own);
  /// Adds a node whose type wraps `x` (an EVT over one child) with arguments `{x.args, own}`.
  Node wrap(std::string type, const Node& x, std::string own);
  const KernelConfig& cfg_;
  AbiSlots slots_;
  EvtTree tree_;

 private:
  Node scalar(size_t slot_index);
  Node expression(const EpiExpr& e, const Node& x);
  Node mul_by_scales(const Node& x);
};

}  // namespace ucut
