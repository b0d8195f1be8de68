// emit/sm80/evt.cpp — the 2.x node vocabulary for the shared EVT walk (emit/evt_builder.cpp): VisitorAccFetch,
// VisitorScalarBroadcast, VisitorAuxLoad (residual C), VisitorRow/ColBroadcast, VisitorCompute, VisitorAuxStore and
// VisitorCol/RowReduction.
// 2.x compute nodes take no run-time functor arguments, so parameterized activations become functors with the
// spec's constants baked in (the tree's preamble).
#include "emit/sm80/evt.h"

#include <fmt/format.h>

namespace ucut::sm80 {
namespace {

constexpr const char* kTb = "cutlass::epilogue::threadblock::";

/// A row-major M x N stride (ld, 1, batch) for a tensor of the ABI.
std::string mn_stride(const std::string& t) {
  return fmt::format("{{int64_t({}.ld), cute::_1{{}}, int64_t({}.batch_stride)}}", t, t);
}

class Sm80Evt final : public EvtBuilder {
 public:
  using EvtBuilder::EvtBuilder;

 private:
  std::string acc_fetch_type() const override { return std::string(kTb) + "VisitorAccFetch"; }

  std::string scalar_type(int pointer_count) const override {
    if (pointer_count == 0) return std::string(kTb) + "VisitorScalarBroadcast<ElementCompute>";
    return fmt::format("{}VisitorScalarBroadcast<ElementCompute, cute::Stride<cute::_0, cute::_0, cute::_0>, {}>", kTb,
                       pointer_count);
  }

  Node source(const EpiOp&) override {
    return leaf(fmt::format("{}VisitorAuxLoad<OutputTileThreadMap, ElementC, cute::Stride<int64_t, cute::_1, int64_t>>", kTb),
                fmt::format("{{static_cast<ElementC *>(a->c.ptr), ElementC(0), {}}}", mn_stride("a->c")));
  }

  Node vector(const EpiOp& op, size_t slot) override {
    std::string elem(cutlass_type(op.dtype.value));
    bool col = op.axis.value == Axis::col;  // one value per column n: the same row for every m ("row broadcast")
    std::string type = fmt::format("{}{}<OutputTileThreadMap, {}, cute::Stride<{}, {}, int64_t>>", kTb,
                                   col ? "VisitorRowBroadcast" : "VisitorColBroadcast", elem,
                                   col ? "cute::_0" : "cute::_1", col ? "cute::_1" : "cute::_0");
    return leaf(type, fmt::format("{{static_cast<const {} *>(a->vectors[{}]), {}(0), {{{}, {}, int64_t(0)}}}}", elem,
                                  slot, elem, col ? "cute::_0{}" : "cute::_1{}", col ? "cute::_1{}" : "cute::_0{}"));
  }

  std::string compute_type(const Node& n) const override {
    std::string t = fmt::format("{}Sm80EVT<{}VisitorCompute<{}, {}, ElementCompute, RoundStyle>", kTb, kTb, n.fn, n.out);
    for (const std::string& c : n.child_aliases) t += ", " + c;
    return t + ">";
  }

  std::pair<std::string, std::string> activation(const EpiOp& op, size_t stage) override {
    auto [functor, definition] = activation_functor(op, stage);
    tree_.preamble += definition;
    return {functor, "{}"};
  }

  Node aux_store(const EpiOp& op, const Node& x, size_t slot) override {
    std::string elem(cutlass_type(op.tensor->dtype.value));
    return wrap(fmt::format("{}Sm80EVT<{}VisitorAuxStore<OutputTileThreadMap, {}, RoundStyle, cute::Stride<int64_t, "
                            "cute::_1, int64_t>>, {}>",
                            kTb, kTb, elem, x.alias),
                x,
                fmt::format("{{static_cast<{} *>(a->aux[{}].ptr), {}}}", elem, slot,
                            mn_stride(fmt::format("a->aux[{}]", slot))));
  }

  /// One value per row m is CUTLASS's column-vector reduction (it reduces along N), one per column n its row-vector
  /// one. Each CTA reduces its tile in registers (and, per column, through shared memory), then adds (maxes) its
  /// partial into the vector with atomics: the vector must hold the identity before every launch (the host API's
  /// reset_reductions, emit/abi_wrapper.cpp), and sums are not bit-deterministic across runs.
  Node reduction(const EpiOp& op, const Node& x, size_t slot) override {
    bool per_row = op.axis.value == Axis::row;
    bool max = reduction_is_max(op.kind);
    std::string elem(cutlass_type(op.tensor->dtype.value));
    std::string type = fmt::format(
        "{}Sm80EVT<{}{}<{}, {}, OutputTileThreadMap, {}, ElementCompute, RoundStyle, cute::Stride<{}, {}, int64_t>>, {}>",
        kTb, kTb, per_row ? "VisitorColReduction" : "VisitorRowReduction", epi_info(op.kind).cutlass_functor,
        max ? "cutlass::atomic_maximum" : "cutlass::atomic_add", elem, per_row ? "cute::_1" : "cute::_0",
        per_row ? "cute::_0" : "cute::_1", x.alias);
    return wrap(type, x,
                fmt::format("{{static_cast<{} *>(a->aux[{}].ptr), {}, {{{}, {}, int64_t(a->aux[{}].batch_stride)}}}}",
                            elem, slot, reduction_identity(op.kind, "ElementCompute"), per_row ? "cute::_1{}" : "cute::_0{}",
                            per_row ? "cute::_0{}" : "cute::_1{}", slot));
  }

  /// The 2.x kernel writes only what the tree stores: the root is an AuxStore of D (it rounds to ElementD).
  Node store(const Node& x) override {
    Node v = x;
    if (cfg_.output().scaled.value) {
      Node s = leaf(scalar_type(1), "{{1.0f}, {a->scale_d}}");
      v = compute("cutlass::multiplies", "ElementCompute", {s, x}, "{}");
    }
    return wrap(fmt::format("{}Sm80EVT<{}VisitorAuxStore<OutputTileThreadMap, ElementD, RoundStyle, cute::Stride<int64_t, "
                            "cute::_1, int64_t>>, {}>",
                            kTb, kTb, v.alias),
                v, fmt::format("{{static_cast<ElementD *>(a->d.ptr), {}}}", mn_stride("a->d")));
  }
};

}  // namespace

EvtTree build_evt(const KernelConfig& cfg) { return Sm80Evt(cfg).run(); }

std::pair<std::string, std::string> activation_functor(const EpiOp& op, size_t stage) {
  const EpiOpInfo& info = epi_info(op.kind);
  if (op.params.empty()) return {std::string(info.cutlass_functor), ""};
  std::string name = fmt::format("ucut_stage{}_{}", stage, info.name);
  std::string params;
  for (double p : op.params) params += (params.empty() ? "" : ", ") + EvtBuilder::float_literal(p);
  return {name, fmt::format("/// `{}` with its parameters ({}) baked in: 2.x epilogues pass no functor arguments.\n"
                            "template <class T>\n"
                            "struct {} {{\n"
                            "  CUTLASS_HOST_DEVICE T operator()(T const& x) const {{\n"
                            "    using Fn = {}<T>;\n"
                            "    typename Fn::Arguments args{{{}}};\n"
                            "    return Fn{{}}(x, args);\n"
                            "  }}\n"
                            "}};\n",
                            info.name, params, name, info.cutlass_functor, params)};
}

}  // namespace ucut::sm80
