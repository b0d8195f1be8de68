// emit/sm90/evt.cpp — builds the EVT for a chain. Each stage becomes leaf and compute nodes
// (see facts/cutlass.md §2); intermediate values stay in ElementCompute and the root converts to ElementD.
#include "emit/sm90/evt.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "ir/abi_slots.h"

namespace ucut::sm90 {
namespace {

constexpr const char* kFusion = "cutlass::epilogue::fusion::";

class Builder {
 public:
  explicit Builder(const KernelConfig& cfg) : cfg_(cfg), slots_(abi_slots(cfg)) {}

  EvtTree run() {
    Node x = leaf(std::string(kFusion) + "Sm90AccFetch", "{}");
    std::string desc = "acc";
    if (cfg_.a.scaled.value || cfg_.b.scaled.value) {
      x = mul_by_scales(x);
      desc = "scale_a*scale_b*acc";
    }
    for (size_t i = 0; i < cfg_.epilogue.size(); ++i) {
      const EpiOp& op = cfg_.epilogue[i];
      const EpiOpInfo& info = epi_info(op.kind);
      switch (info.category) {
        case EpiCategory::scalar: {
          Node s = leaf(scalar_type(), fmt::format("{{{{a->scalars[{}]}}}}", slot(slots_.scalars, i)));
          x = compute("cutlass::multiplies", "ElementCompute", {s, x}, "{}");
          desc = fmt::format("{}*({})", op.scalar_name, desc);
          break;
        }
        case EpiCategory::source: {
          Node beta = leaf(scalar_type(), fmt::format("{{{{a->scalars[{}]}}}}", slot(slots_.scalars, i)));
          Node c = leaf(std::string(kFusion) + "Sm90SrcFetch<ElementC>", "{}");
          x = compute("cutlass::homogeneous_multiply_add", "ElementCompute", {beta, c, x}, "{}");
          desc = fmt::format("{} + beta*{}", desc, op.tensor->name.value);
          break;
        }
        case EpiCategory::vector: {
          Node v = vector_leaf(op, slot(slots_.vectors, i));
          bool add = op.kind == EpiKind::bias;
          x = compute(add ? "cutlass::plus" : "cutlass::multiplies", "ElementCompute", {x, v}, "{}");
          desc = fmt::format("{} {} {}[{}]", desc, add ? "+" : "*", info.name, op.axis.value == Axis::col ? "n" : "m");
          break;
        }
        case EpiCategory::activation:
          x = compute(activation_functor(op), "ElementCompute", {x}, activation_args(op));
          desc = fmt::format("{}({})", info.name, desc);
          break;
        case EpiCategory::aux:
          x = aux_store(op, x, slot(slots_.aux, i));
          desc = fmt::format("{} -> {}", desc, op.tensor->name.value);
          break;
        case EpiCategory::cast:
          x = compute("cutlass::epilogue::thread::Identity", std::string(cutlass_type(op.dtype.value)), {x}, "{}");
          desc = fmt::format("{}({})", dtype_name(op.dtype.value), desc);
          break;
        case EpiCategory::store:
          x = to_output(x);
          desc = fmt::format("{}{} -> {}", op.tensor->scaled.value ? "scale_d*" : "", desc, op.tensor->name.value);
          break;
      }
    }
    tree_.root = x.alias;
    tree_.arguments = x.args;
    tree_.description = desc;
    return tree_;
  }

 private:
  struct Node {
    std::string alias;
    std::string args;
    bool is_compute = false;
    std::string fn, out, children_args, own_args;  // to re-type the root (compute nodes only)
    std::vector<std::string> child_aliases;
  };

  /// The ABI slot that ir/abi_slots.cpp gave to stage `stage`.
  template <class Slots>
  static size_t slot(const Slots& slots, size_t stage) {
    for (size_t j = 0; j < slots.size(); ++j)
      if (slots[j].stage == stage) return j;
    return slots.size();  // unreachable for a lowered config: every slotted stage has a slot
  }

  Node leaf(std::string type, std::string args) {
    Node n;
    n.alias = fmt::format("Evt{}", tree_.aliases.size());
    n.args = std::move(args);
    tree_.aliases.emplace_back(n.alias, std::move(type));
    return n;
  }

  Node compute(const std::string& fn, const std::string& out, const std::vector<Node>& children, std::string own) {
    Node n;
    n.alias = fmt::format("Evt{}", tree_.aliases.size());
    n.is_compute = true;
    n.fn = fn;
    n.out = out;
    n.own_args = std::move(own);
    for (const Node& c : children) {
      n.child_aliases.push_back(c.alias);
      n.children_args += c.args + ", ";
    }
    n.args = "{" + n.children_args + n.own_args + "}";
    tree_.aliases.emplace_back(n.alias, evt_type(n));
    return n;
  }

  std::string evt_type(const Node& n) const {
    std::string t = fmt::format("{}Sm90EVT<{}Sm90Compute<{}, {}, ElementCompute, RoundStyle>", kFusion, kFusion, n.fn, n.out);
    for (const std::string& c : n.child_aliases) t += ", " + c;
    return t + ">";
  }

  std::string scalar_type() const { return std::string(kFusion) + "Sm90ScalarBroadcast<ElementCompute>"; }

  Node mul_by_scales(const Node& x) {
    std::vector<std::string> ptrs;
    if (cfg_.a.scaled.value) ptrs.push_back("a->scale_a");
    if (cfg_.b.scaled.value) ptrs.push_back("a->scale_b");
    std::string values = ptrs.size() == 2 ? "{1.0f, 1.0f}" : "{1.0f}";
    Node s = leaf(fmt::format("{}Sm90ScalarBroadcast<ElementCompute, cute::Stride<cute::_0, cute::_0, cute::_0>, {}>",
                              kFusion, ptrs.size()),
                  fmt::format("{{{}, {{{}}}}}", values, fmt::join(ptrs, ", ")));
    return compute("cutlass::multiplies", "ElementCompute", {s, x}, "{}");
  }

  Node vector_leaf(const EpiOp& op, size_t slot) {
    std::string elem(cutlass_type(op.dtype.value));
    bool col = op.axis.value == Axis::col;  // one value per column n: broadcast along M (CUTLASS "row broadcast")
    std::string type = fmt::format(
        "{}{}<0, TileShape, {}, ElementCompute, cute::Stride<{}, {}, int64_t>, {}>", kFusion,
        col ? "Sm90RowBroadcast" : "Sm90ColBroadcast", elem, col ? "cute::_0" : "cute::_1", col ? "cute::_1" : "cute::_0",
        128 / dtype_bits(op.dtype.value));
    std::string args = fmt::format("{{static_cast<const {} *>(a->vectors[{}]), {}(0), {{}}}}", elem, slot, elem);
    return leaf(type, args);
  }

  std::string activation_functor(const EpiOp& op) const { return std::string(epi_info(op.kind).cutlass_functor); }

  /// `{0.01f}`, `{-1.0f, 1.0f}`: parameters as float literals (`.9g` round-trips a float).
  static std::string activation_args(const EpiOp& op) {
    if (op.params.empty()) return "{}";
    std::string inner;
    for (double p : op.params) {
      std::string lit = fmt::format("{:.9g}", p);
      if (lit.find_first_of(".e") == std::string::npos) lit += ".0";
      inner += (inner.empty() ? "" : ", ") + lit + "f";
    }
    return "{" + inner + "}";
  }

  Node aux_store(const EpiOp& op, const Node& x, size_t slot) {
    tree_.needs_epilogue_descriptor = true;
    const TensorDecl& t = *op.tensor;
    std::string desc_alias = fmt::format("AuxDesc{}", slot);
    std::string layout = t.layout.value == Layout::row ? "cutlass::layout::RowMajor" : "cutlass::layout::ColumnMajor";
    tree_.aliases.emplace_back(desc_alias, fmt::format("cutlass::epilogue::collective::detail::AuxStoreDescriptor<"
                                                       "EpiDesc, {}, {}>",
                                                       layout, cutlass_type(t.dtype.value)));
    std::string type = fmt::format(
        "{}Sm90AuxStore<{}::Stages, typename EpiDesc::EpilogueTile, {}, RoundStyle, typename {}::Stride, "
        "typename {}::SmemLayoutAtom, typename {}::CopyOpR2S, {}>",
        kFusion, desc_alias, cutlass_type(t.dtype.value), desc_alias, desc_alias, desc_alias, t.align.value);
    std::string node_alias = fmt::format("Evt{}", tree_.aliases.size());
    tree_.aliases.emplace_back(node_alias, fmt::format("{}Sm90EVT<{}, {}>", kFusion, type, x.alias));
    Node n;
    n.alias = node_alias;
    n.args = fmt::format("{{{}, {{static_cast<{} *>(a->aux[{}].ptr), ucut_make_stride<typename {}::Stride>(a->aux[{}].ld, "
                         "a->aux[{}].batch_stride)}}}}",
                         x.args, cutlass_type(t.dtype.value), slot, desc_alias, slot, slot);
    return n;
  }

  /// The root must produce ElementD: re-type the last compute node, or add a conversion node.
  Node to_output(const Node& x) {
    if (cfg_.output().scaled.value) {
      Node s = leaf(fmt::format("{}Sm90ScalarBroadcast<ElementCompute, cute::Stride<cute::_0, cute::_0, cute::_0>, 1>",
                                kFusion),
                    "{{1.0f}, {a->scale_d}}");
      return compute("cutlass::multiplies", "ElementD", {s, x}, "{}");
    }
    if (x.is_compute && x.out == "ElementCompute") {
      Node root = x;
      root.out = "ElementD";
      tree_.aliases.back().second = evt_type(root);  // x is the most recent alias
      return root;
    }
    return compute("cutlass::epilogue::thread::Identity", "ElementD", {x}, "{}");
  }

  const KernelConfig& cfg_;
  AbiSlots slots_;
  EvtTree tree_;
};

}  // namespace

EvtTree build_evt(const KernelConfig& cfg) { return Builder(cfg).run(); }

}  // namespace ucut::sm90
