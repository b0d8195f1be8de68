// emit/sm90/evt.cpp — the SM90 node vocabulary for the shared EVT walk (emit/evt_builder.cpp): Sm90AccFetch,
// Sm90ScalarBroadcast, Sm90SrcFetch, Sm90Row/ColBroadcast, Sm90Compute, Sm90AuxStore with its descriptor and
// Sm90Row/ColReduction.
#include "emit/sm90/evt.h"

#include <fmt/format.h>

namespace ucut::sm90 {
namespace {

constexpr const char* kFusion = "cutlass::epilogue::fusion::";

class Sm90Evt final : public EvtBuilder {
 public:
  using EvtBuilder::EvtBuilder;

 private:
  std::string acc_fetch_type() const override { return std::string(kFusion) + "Sm90AccFetch"; }

  std::string scalar_type(int pointer_count) const override {
    if (pointer_count == 0) return std::string(kFusion) + "Sm90ScalarBroadcast<ElementCompute>";
    return fmt::format("{}Sm90ScalarBroadcast<ElementCompute, cute::Stride<cute::_0, cute::_0, cute::_0>, {}>", kFusion,
                       pointer_count);
  }

  Node source(const EpiOp&) override { return leaf(std::string(kFusion) + "Sm90SrcFetch<ElementC>", "{}"); }

  Node vector(const EpiOp& op, size_t slot) override {
    std::string elem(cutlass_type(op.dtype.value));
    bool col = op.axis.value == Axis::col;  // one value per column n: broadcast along M (CUTLASS "row broadcast")
    std::string type = fmt::format(
        "{}{}<0, TileShape, {}, ElementCompute, cute::Stride<{}, {}, int64_t>, {}>", kFusion,
        col ? "Sm90RowBroadcast" : "Sm90ColBroadcast", elem, col ? "cute::_0" : "cute::_1", col ? "cute::_1" : "cute::_0",
        128 / dtype_bits(op.dtype.value));
    return leaf(type, fmt::format("{{static_cast<const {} *>(a->vectors[{}]), {}(0), {{}}}}", elem, slot, elem));
  }

  std::string compute_type(const Node& n) const override {
    std::string t = fmt::format("{}Sm90EVT<{}Sm90Compute<{}, {}, ElementCompute, RoundStyle>", kFusion, kFusion, n.fn, n.out);
    for (const std::string& c : n.child_aliases) t += ", " + c;
    return t + ">";
  }

  /// Sm90Compute passes the functor's Arguments at run time.
  std::pair<std::string, std::string> activation(const EpiOp& op, size_t) override {
    return {std::string(epi_info(op.kind).cutlass_functor), float_args(op)};
  }

  Node aux_store(const EpiOp& op, const Node& x, size_t slot) override {
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
    return wrap(fmt::format("{}Sm90EVT<{}, {}>", kFusion, type, x.alias), x,
                fmt::format("{{static_cast<{} *>(a->aux[{}].ptr), ucut_make_stride<typename {}::Stride>(a->aux[{}].ld, "
                            "a->aux[{}].batch_stride)}}",
                            cutlass_type(t.dtype.value), slot, desc_alias, slot, slot));
  }

  /// One value per row m is CUTLASS's column-vector reduction (it reduces along N), one per column n its row-vector
  /// one. Both reduce in registers, across the warps, then across the CTAs of a row (column) through the kernel's
  /// workspace, where the last CTA writes the vector: deterministic, no atomics, no caller-side initialization.
  Node reduction(const EpiOp& op, const Node& x, size_t slot) override {
    bool per_row = op.axis.value == Axis::row;
    std::string fn(epi_info(op.kind).cutlass_functor);
    std::string type = fmt::format(
        "{}Sm90EVT<{}{}<{}, {}, {}, 0, TileShape, {}, ElementCompute, RoundStyle, cute::Stride<{}, {}, int64_t>>, {}>",
        kFusion, kFusion, per_row ? "Sm90ColReduction" : "Sm90RowReduction", fn, fn, fn, cutlass_type(op.tensor->dtype.value),
        per_row ? "cute::_1" : "cute::_0", per_row ? "cute::_0" : "cute::_1", x.alias);
    std::string identity = reduction_identity(op.kind, "ElementCompute");
    return wrap(type, x,
                fmt::format("{{a->aux[{}].ptr, {}, {{{}, {}, int64_t(a->aux[{}].batch_stride)}}}}", slot, identity,
                            per_row ? "cute::_1{}" : "cute::_0{}", per_row ? "cute::_0{}" : "cute::_1{}", slot));
  }

  /// The collective epilogue stores the root's value: re-type the last compute node, or add a conversion node.
  Node store(const Node& x) override {
    if (cfg_.output().scaled.value) {
      Node s = leaf(scalar_type(1), "{{1.0f}, {a->scale_d}}");
      return compute("cutlass::multiplies", "ElementD", {s, x}, "{}");
    }
    if (x.is_compute && x.out == "ElementCompute") {
      Node root = x;
      root.out = "ElementD";
      tree_.aliases.back().second = compute_type(root);  // x is the most recent alias
      return root;
    }
    return compute("cutlass::epilogue::thread::Identity", "ElementD", {x}, "{}");
  }
};

}  // namespace

EvtTree build_evt(const KernelConfig& cfg) { return Sm90Evt(cfg).run(); }

}  // namespace ucut::sm90
