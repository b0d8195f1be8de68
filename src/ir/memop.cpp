// ir/memop.cpp — see memop.h: the targets, canonical form, hash and IR dump of a memory-bound kernel.
#include "ir/memop.h"

#include <fmt/format.h>

#include <algorithm>

#include "ir/canonical.h"
#include "ir/enum_table.h"
#include "support/error.h"
#include "support/sha256.h"

namespace ucut {

bool memop_emits_for(Arch a) {
  const ArchInfo& info = arch_info(a);
  return info.sm >= 80 && (info.backend == BackendKind::sm80 || info.backend == BackendKind::sm90);
}

namespace {
constexpr std::pair<ReduceOp, std::string_view> kReduceOps[] = {
    {ReduceOp::sum, "sum"}, {ReduceOp::mean, "mean"},     {ReduceOp::max, "max"},
    {ReduceOp::min, "min"}, {ReduceOp::argmax, "argmax"}, {ReduceOp::argmin, "argmin"},
    {ReduceOp::logsumexp, "logsumexp"}};
constexpr std::pair<ScanOp, std::string_view> kScanOps[] = {
    {ScanOp::sum, "sum"}, {ScanOp::prod, "prod"}, {ScanOp::max, "max"}, {ScanOp::min, "min"}};
constexpr std::pair<ReduceWeights, std::string_view> kReduceWeights[] = {{ReduceWeights::none, "none"},
                                                                         {ReduceWeights::simpson, "simpson"}};
constexpr std::pair<NormKind, std::string_view> kNormKinds[] = {
    {NormKind::softmax, "softmax"}, {NormKind::log_softmax, "log_softmax"}, {NormKind::layer, "layer"},
    {NormKind::rms, "rms"},         {NormKind::l1, "l1"},                   {NormKind::l2, "l2"}};

}  // namespace

std::string_view reduce_op_name(ReduceOp op) { return name_of(kReduceOps, op); }
std::optional<ReduceOp> find_reduce_op(std::string_view name) { return find_in(kReduceOps, name); }
std::string_view reduce_weights_name(ReduceWeights w) { return name_of(kReduceWeights, w); }
std::optional<ReduceWeights> find_reduce_weights(std::string_view name) {
  return find_in(kReduceWeights, name);
}

std::string_view norm_kind_name(NormKind k) { return name_of(kNormKinds, k); }
std::optional<NormKind> find_norm_kind(std::string_view name) { return find_in(kNormKinds, name); }
std::vector<std::string_view> norm_kind_names() {
  std::vector<std::string_view> out;
  for (const auto& [kind, name] : kNormKinds) out.push_back(name);
  return out;
}
bool norm_takes_eps(NormKind k) { return k == NormKind::layer || k == NormKind::rms; }
ReduceAxes reduce_axes(const MemOpConfig& m) {
  ReduceAxes axes;
  const std::vector<Extent>& dims = m.input().dims;
  const std::vector<Spanned<std::string>>& over = m.reduce->over;
  for (size_t d = 0; d < dims.size(); ++d) {
    bool named = std::any_of(over.begin(), over.end(),
                             [&](const Spanned<std::string>& s) { return s.value == dims[d].symbol; });
    (over.empty() || (!dims[d].fixed() && named) ? axes.reduced : axes.kept).push_back(d);
  }
  return axes;
}

std::string_view scan_op_name(ScanOp op) { return name_of(kScanOps, op); }
std::optional<ScanOp> find_scan_op(std::string_view name) { return find_in(kScanOps, name); }

bool MemOpConfig::transposes() const {
  if (op.value != OpKind::map || inputs.empty()) return false;
  const TensorDecl& out = output();
  return out.dims.size() >= 2 && input().dims.size() == out.dims.size() &&
         input().layout.value != out.layout.value;
}

const ReversedView* MemOpConfig::reversed_of(size_t i) const {
  for (const ReversedView& r : reversed)
    if (r.input == i) return &r;
  return nullptr;
}

const std::string& MemOpConfig::caller_name(size_t i) const {
  if (const ColumnSlice* s = slice_of(i)) return s->of.value;
  if (const ReversedView* r = reversed_of(i)) return r->of.value;
  return inputs[i].name.value;
}

std::vector<const TensorDecl*> MemOpConfig::outputs() const {
  if (!library) return {&output()};
  std::vector<const TensorDecl*> out;
  for (const TensorDecl& t : library->outputs) out.push_back(&t);
  return out;
}

const ColumnSlice* MemOpConfig::slice_of(size_t i) const {
  for (const ColumnSlice& s : slices)
    if (s.input == i) return &s;
  return nullptr;
}

std::vector<std::string> MemOpConfig::operand_names() const {
  std::vector<std::string> names;
  for (const TensorDecl& t : inputs) names.push_back(t.name.value);
  for (const ScalarDecl& s : scalars) names.push_back(s.name.value);
  if (reduce)  // the inputs' extent symbols, in order (chain_operands in lower_memop.cpp reads the same)
    for (const TensorDecl& t : inputs)
      for (const Extent& e : t.dims)
        if (!e.fixed() &&
            std::find(names.begin() + inputs.size() + scalars.size(), names.end(), e.symbol) == names.end())
          names.push_back(e.symbol);
  return names;
}

std::vector<CallerTensor> MemOpConfig::caller_inputs() const {
  std::vector<CallerTensor> out;
  if (sparse) return sparse_caller_inputs(*this);
  for (size_t i = 0; i < inputs.size(); ++i) {
    const ColumnSlice* s = slice_of(i);
    const ReversedView* r = reversed_of(i);
    const std::string& name = caller_name(i);
    if (std::none_of(out.begin(), out.end(), [&](const CallerTensor& t) { return t.name == name; }))
      out.push_back({name, inputs[i].dtype, s ? s->span : r ? r->span : inputs[i].span});
  }
  return out;
}

std::vector<std::string> MemOpConfig::extent_symbols() const {
  if (window) return window_extent_symbols(*this);
  if (sparse) return sparse_extent_symbols(*this);
  std::vector<std::string> out;
  auto add = [&](const TensorDecl& t) {
    for (const Extent& e : t.dims)
      if (!e.fixed() && std::find(out.begin(), out.end(), e.symbol) == out.end()) out.push_back(e.symbol);
  };
  add(output());
  for (const TensorDecl& t : inputs) add(t);
  return out;
}

bool MemOpConfig::vector_read(size_t i) const {
  const TensorDecl& in = inputs[i];
  const TensorDecl& out = domain();
  size_t rank = out.dims.size();
  size_t fastest = rank >= 2 && out.layout.value == Layout::col ? rank - 2 : rank - 1;
  size_t lead = rank - std::min(rank, in.dims.size());
  if (fastest < lead) return false;
  const Extent& e = in.dims[fastest - lead];
  const Extent& o = out.dims[fastest];
  return !(e.fixed() && e.size == 1) || (o.fixed() && o.size == 1);
}

std::vector<size_t> memory_order(size_t rank, Layout layout) {
  std::vector<size_t> order(rank);
  for (size_t d = 0; d < rank; ++d) order[d] = d;
  if (rank >= 2 && layout == Layout::col) std::swap(order[rank - 1], order[rank - 2]);
  return order;
}

NormAxes norm_axes(const MemOpConfig& m) {
  UC_ASSERT(m.norm) << "norm_axes of a `" << op_name(m.op.value) << "`";
  const TensorDecl& in = m.input();
  const std::vector<size_t> order = memory_order(in.dims.size(), in.layout.value);
  std::vector<bool> normalized(in.dims.size(), false);
  for (const Spanned<std::string>& sym : m.norm->over) {
    auto d = std::find_if(in.dims.begin(), in.dims.end(), [&](const Extent& e) { return e.symbol == sym.value; });
    if (d == in.dims.end() || normalized[static_cast<size_t>(d - in.dims.begin())]) return {};
    normalized[static_cast<size_t>(d - in.dims.begin())] = true;
  }
  NormAxes a;
  for (size_t d : order) {
    if (normalized[d])
      a.over.push_back(d);
    else
      (a.over.empty() ? a.outer : a.inner).push_back(d);
  }
  // Adjacent: the normalized dimensions are one run of the memory order, right after the outer ones.
  for (size_t k = 0; k < a.over.size(); ++k)
    if (order[a.outer.size() + k] != a.over[k]) return {};
  a.adjacent = true;
  return a;
}

int memop_default_vector(const MemOpConfig& m) {
  const TensorDecl& out = m.domain();
  int widest = dtype_bits(out.dtype.value) / 8, v = out.align.value;
  if (m.transposes()) {  // its output moves in vectors of its own rows
    widest = std::max(widest, dtype_bits(m.output().dtype.value) / 8);
    v = std::min(v, m.output().align.value);
  }
  for (size_t i = 0; i < m.inputs.size(); ++i) {
    widest = std::max(widest, dtype_bits(m.inputs[i].dtype.value) / 8);
    if (m.vector_read(i)) v = std::min(v, m.inputs[i].align.value);
  }
  return std::min(16 / widest, v);
}

const char* grid_policy_name(GridPolicy g) { return g == GridPolicy::persistent ? "persistent" : "auto"; }

nlohmann::json canonical_memop(const MemOpConfig& m) {
  nlohmann::json inputs = nlohmann::json::array(), chain = nlohmann::json::array();
  for (const TensorDecl& t : m.inputs) inputs.push_back(tensor_json(t));
  for (const EpiOp& op : m.chain) chain.push_back(stage_json(op));
  nlohmann::json j = {{"ucut_memop", 1},
                      {"arch", arch_info(m.arch.value).name},
                      {"op", op_name(m.op.value)},
                      {"inputs", inputs},
                      {"chain", chain}};
  // Scalars and slices only when there are any, so the kernels without keep their hashes.
  for (const ScalarDecl& s : m.scalars)
    j["scalars"].push_back({{"name", s.name.value}, {"dtype", dtype_name(s.dtype.value)}});
  for (const ColumnSlice& s : m.slices)
    j["slices"].push_back(
        {{"input", s.input}, {"of", s.of.value}, {"block", s.block.value}, {"blocks", s.blocks.value}});
  for (const ReversedView& r : m.reversed) j["reversed"].push_back({{"input", r.input}, {"of", r.of.value}});
  // Launch knobs only where they differ from the default (itself a function of the fields above), so a kernel
  // keeps its hash whether its defaults are written out or not.
  if (m.tune.vector.value != memop_default_vector(m)) j["tune"]["vector"] = m.tune.vector.value;
  if (m.tune.block.value != kMemDefaultBlock) j["tune"]["block"] = m.tune.block.value;
  if (m.tune.items.value != kMemDefaultItems) j["tune"]["items"] = m.tune.items.value;
  if (m.tune.grid.value != GridPolicy::persistent) j["tune"]["grid"] = grid_policy_name(m.tune.grid.value);
  if (m.tune.rows.value != memop_default_rows(m)) j["tune"]["rows"] = m.tune.rows.value;
  if (m.reduce) {
    j["reduce"] = {{"op", reduce_op_name(m.reduce->op.value)},
                   {"of", m.reduce->of ? expr_program_json(*m.reduce->of) : nlohmann::json()},
                   {"weights", reduce_weights_name(m.reduce->weights.value)},
                   {"acc", dtype_name(m.reduce->acc.value)}};
    for (const Spanned<std::string>& s : m.reduce->over) j["reduce"]["over"].push_back(s.value);
  }
  auto value_json = [](const ScalarOrNumber& v) {
    return v.scalar.empty() ? nlohmann::json(v.value) : nlohmann::json(v.scalar);
  };
  if (m.rotary) j["rotary"] = value_json(*m.rotary);
  if (const auto& n = m.norm) {
    nlohmann::json over = nlohmann::json::array(), eps;
    for (const Spanned<std::string>& sym : n->over) over.push_back(sym.value);
    if (n->eps) eps = value_json(*n->eps);
    j["rownorm"] = {{"norm", norm_kind_name(n->norm.value)}, {"eps", eps}, {"over", over}};
  }
  if (m.scan)
    j["scan"] = {{"op", scan_op_name(m.scan->op.value)},
                 {"of", m.scan->of ? expr_program_json(*m.scan->of) : nlohmann::json()},
                 {"exclusive", m.scan->exclusive.value},
                 {"reverse", m.scan->reverse.value},
                 {"acc", dtype_name(m.scan->acc.value)}};
  if (m.window) j["window"] = canonical_window(*m.window);
  if (m.library) j["library"] = canonical_library(m);
  if (m.sparse) j["sparse"] = canonical_sparse(m);
  return j;
}

int memop_default_rows(const MemOpConfig& m) { return m.norm ? kMemDefaultRows : kMemAutoRows; }

std::string memop_hash(const MemOpConfig& m) { return sha256_hex(canonical_memop(m).dump()); }

std::string memop_namespace(const MemOpConfig& m) { return "ucut_mem_" + memop_hash(m).substr(0, 16); }

std::string dump_memop_ir(const SourceFile& src, const MemOpConfig& m) {
  std::string o = fmt::format("MemOpConfig '{}' {}\n", m.name.value, span_text(src, m.header));
  o += fmt::format("  arch {} {}\n", arch_info(m.arch.value).name, span_text(src, m.arch.span));
  o += fmt::format("  op {} {}\n", op_name(m.op.value), span_text(src, m.op.span));
  for (size_t i = 0; i < m.inputs.size(); ++i) {
    o += fmt::format("  input {}\n", tensor_text(src, m.inputs[i]));
    if (const ColumnSlice* s = m.slice_of(i))
      o += fmt::format("    slice of {} block {} of {} {}\n", s->of.value, s->block.value, s->blocks.value,
                       span_text(src, s->span));
    if (const ReversedView* r = m.reversed_of(i))
      o += fmt::format("    reversed view of {} {}\n", r->of.value, span_text(src, r->span));
  }
  for (const ScalarDecl& s : m.scalars)
    o += fmt::format("  scalar {}: {} {}\n", s.name.value, dtype_name(s.dtype.value), span_text(src, s.span));
  if (const auto& r = m.reduce) {
    o += fmt::format("  reduce {} {}\n", reduce_op_name(r->op.value), span_text(src, r->op.span));
    o +=
        fmt::format("    of {} {}\n", r->of ? r->of->text : m.input().name.value, span_text(src, r->of_span));
    o += fmt::format("    weights {} {}\n", reduce_weights_name(r->weights.value),
                     span_text(src, r->weights.span));
    o += fmt::format("    acc {} {}\n", dtype_name(r->acc.value), span_text(src, r->acc.span));
    if (!r->over.empty()) {
      std::string over;
      for (const Spanned<std::string>& s : r->over) over += (over.empty() ? "" : ", ") + s.value;
      o += fmt::format("    over {} {}\n", over, span_text(src, r->over_span));
    }
  }
  auto value_text = [](const ScalarOrNumber& v) { return v.scalar.empty() ? fmt::format("{}", v.value) : v.scalar; };
  if (m.rotary) o += fmt::format("  rotary base {} {}\n", value_text(*m.rotary), span_text(src, m.rotary->span));
  if (const auto& n = m.norm) {
    o += fmt::format("  rownorm {} {}\n", norm_kind_name(n->norm.value), span_text(src, n->norm.span));
    std::string over;
    for (const Spanned<std::string>& sym : n->over) over += (over.empty() ? "" : ", ") + sym.value;
    o += fmt::format("    over ({}) {}\n", over, span_text(src, n->over_span));
    if (n->eps)
      o += fmt::format("    eps {} {}\n", value_text(*n->eps), span_text(src, n->eps->span));
  }
  if (const auto& s = m.scan) {
    o += fmt::format("  scan {} {}\n", scan_op_name(s->op.value), span_text(src, s->op.span));
    o +=
        fmt::format("    of {} {}\n", s->of ? s->of->text : m.input().name.value, span_text(src, s->of_span));
    o += fmt::format("    exclusive {} {}\n", s->exclusive.value, span_text(src, s->exclusive.span));
    o += fmt::format("    reverse {} {}\n", s->reverse.value, span_text(src, s->reverse.span));
    o += fmt::format("    acc {} {}\n", dtype_name(s->acc.value), span_text(src, s->acc.span));
  }
  if (m.window) o += dump_window_ir(src, m);
  if (m.sparse) o += dump_sparse_ir(src, m);
  if (m.library) o += dump_library_ir(src, m);  // the library picks its own launch
  if (!m.library) {
    o += fmt::format("  vector {} {}\n", m.tune.vector.value, span_text(src, m.tune.vector.span));
    o += fmt::format("  block {} {}\n", m.tune.block.value, span_text(src, m.tune.block.span));
    o += fmt::format("  items {} {}\n", m.tune.items.value, span_text(src, m.tune.items.span));
    o += fmt::format("  grid {} {}\n", grid_policy_name(m.tune.grid.value), span_text(src, m.tune.grid.span));
  }
  if (m.norm || m.tune.rows.value != kMemAutoRows || (m.reduce && !m.reduce->over.empty()))
    o += fmt::format("  rows {} {}\n",
                     m.tune.rows.value == kMemAutoRows ? "auto" : std::to_string(m.tune.rows.value),
                     span_text(src, m.tune.rows.span));
  for (const EpiOp& op : m.chain)
    o += fmt::format("  stage {} {} {}\n", epi_info(op.kind).name, stage_json(op).dump(),
                     span_text(src, op.span));
  return o;
}

}  // namespace ucut
