// suite/lower_pipeline.cpp — see lower_pipeline.h. The chain is cut into stages: a GEMM or a convolution
// starts one, and so does every op no epilogue computes (a reduction, a softmax, a norm); the elementwise ops
// after a stage's op are its chain. The running value is tracked as PyTorch sees it (its dims, in PyTorch's
// order) and as the last stage stored it (channels-last for a convolution, a GEMM's [M, N] row-major): an op
// over PyTorch dims becomes a family stage over the stored extents those dims are, when they are adjacent in
// memory.
#include "suite/lower_pipeline.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <numeric>
#include <set>

#include "abi/kernel_abi.h"
#include "dsl/ast_print.h"
#include "problem/read.h"
#include "suite/lower.h"
#include "suite/lower_chain.h"
#include "support/diag_render.h"
#include "support/error.h"

namespace ucut::suite {
namespace {

bool is_main_op(const Op& op) {
  switch (op_form(op.kind)) {
    case OpForm::matmul:
    case OpForm::linear:
    case OpForm::conv:
    case OpForm::conv_transpose:
      return true;
    default:
      return false;
  }
}

bool is_elementwise(const Op& op) {
  switch (op_form(op.kind)) {
    case OpForm::binary:
    case OpForm::scalar_bound:
    case OpForm::clamp:
    case OpForm::unary:
      return true;
    default:
      return false;
  }
}

/// One dim of the running value in PyTorch's order: its extent, and the stored extents it is, in memory order
/// (none for a dim of 1 that is not stored, a reduced dim kept by `keepdim`; two for a group norm's channels,
/// read as [groups, channels per group]).
struct Dim {
  int64_t size = 1;
  std::vector<std::string> symbols;
};

/// The running value: PyTorch's dims, and the tensor the last stage stored (its name, its declared extents).
struct Value {
  std::vector<Dim> dims;
  std::vector<std::string> stored;  // the stored declaration's extents, in memory order
  std::string name;
  bool conv = false;  // stored by a convolution stage (a GEMM stage reads a GEMM's output only)
};

/// A stage being built: its operator's op (or, for a map, its first chain op) and the range of its chain.
struct StagePlan {
  enum class Kind { main, family, map } kind;
  size_t op;  // the op the stage computes (a map's first op)
  size_t chain_begin, chain_end = 0;
  std::set<size_t> skip;  // ops in the range that change only the value's view (flatten, a reduction over 1s)
};

/// Why a stage does not lower: a stage builder gives its spec text or this.
struct Refusal {
  std::string why;
};
using StageText = std::variant<std::string, Refusal>;

std::string join(const std::vector<std::string>& v) { return fmt::format("{}", fmt::join(v, ", ")); }

/// Whether a later op reads back the value op i saves (`save`, read as `other`).
bool read_back_later(const Problem& p, size_t i) {
  if (!p.ops[i].save) return false;
  for (size_t j = i + 1; j < p.ops.size(); ++j)
    if (const Attr* other = p.ops[j].get("other"); other && other->text && *other->text == *p.ops[i].save) return true;
  return false;
}

/// Whether op i's saved value is read back through a fold that reads a tensor (a parameter, or another input)
/// between the save and the last read-back: what an epilogue's `expr(...)` (x and numbers) cannot compute, but a
/// map stage after it can.
bool fold_reads_tensor(const Problem& p, size_t i) {
  if (!read_back_later(p, i)) return false;
  size_t last = i;
  for (size_t j = i + 1; j < p.ops.size(); ++j)
    if (const Attr* other = p.ops[j].get("other"); other && other->text && *other->text == *p.ops[i].save) last = j;
  for (size_t j = i + 1; j < last; ++j) {
    const Attr* other = p.ops[j].get("other");
    if (p.ops[j].get("param") || (other && other->text && *other->text != *p.ops[i].save)) return true;
  }
  return false;
}

class PipelineWriter {
 public:
  explicit PipelineWriter(const Checked& c) : c_(c), p_(c.problem) {}

  std::variant<PipelineLowering, std::string> write() {
    if (p_.ops.empty() || !is_main_op(p_.ops.front()))
      return fmt::format("the chain starts with `{}`, not a GEMM or a convolution",
                         op_name(p_.ops.front().kind));
    auto plans = plan();
    if (const auto* why = std::get_if<std::string>(&plans)) return *why;
    const std::vector<StagePlan>& stages = std::get<std::vector<StagePlan>>(plans);
    if (stages.size() == 1)
      return std::string(
          "its ops after the main op only change how the result is viewed: a kernel, not a pipeline");
    if (stages.size() > kMaxStages)
      return fmt::format("{} stages: a pipeline chains at most {}", stages.size(), kMaxStages);
    std::string text, geometry;
    for (size_t s = 0; s < stages.size(); ++s) {
      out_name_ = s + 1 == stages.size() ? "Y" : fmt::format("H{}", s + 1);
      stage_ = s + 1;
      feed_ = {stages[s].op, {}, {}};
      auto st = stage_text(stages[s]);
      if (const auto* no = std::get_if<Refusal>(&st)) return no->why;
      text += std::get<std::string>(st);
      feeds_.stages.push_back(std::move(feed_));
      for (size_t i : stages[s].skip) view_op(i);
    }
    feeds_.stored = value_.stored;
    for (const Dim& d : value_.dims) feeds_.dims.push_back(d.symbols);
    size_t count = 0;
    for (size_t at = text.find("  stage "); at != std::string::npos; at = text.find("  stage ", at + 1))
      ++count;
    if (count > kMaxStages) return fmt::format("{} stages: a pipeline chains at most {}", count, kMaxStages);
    UC_ASSERT(count == feeds_.stages.size())
        << p_.path << ": " << count << " stages, " << feeds_.stages.size() << " feeds";
    for (const auto& [stage, g] : geometry_) geometry += fmt::format(", s{} = {}", stage, g);
    std::string symbols;
    for (const auto& [name, v] : symbols_) symbols += fmt::format(", {} = {}", name, v);
    std::string spec =
        fmt::format("# Generated by `ucutlass suite lower` from {}: {}\n#{}\npipeline {} : sm90a\n{}",
                    p_.path, p_.title, representation_, p_.stem, text);
    std::string label =
        p_.kernelbench ? fmt::format("L{}/{}", p_.kernelbench->level, p_.kernelbench->id) : p_.stem;
    std::string problem = fmt::format(
        "name = \"{}\"\nop = \"pipeline\"\nsemantics = \"{}.ucut\"\ntolerance = {{ atol = {}, rtol = {} }}\n"
        "shapes = [\n  {{ label = \"{}\"{}{} }},\n]\n",
        p_.stem, p_.stem, p_.tolerance, p_.tolerance, label, symbols, geometry);
    auto read = read_back(spec, problem);
    if (const auto* why = std::get_if<std::string>(&read)) return *why;
    return PipelineLowering{std::move(std::get<ucut::Problem>(read)), std::move(feeds_)};
  }

 private:
  static constexpr size_t kMaxStages = UCUT_MAX_STAGES;  // C501

  std::string where(size_t i) const { return fmt::format("op {} ({})", i + 1, op_name(p_.ops[i].kind)); }

  /// Whether op `i` changes only how the value is viewed: a flatten of dims of which at most one is stored,
  /// or a reduction over dims of 1 (the identity, `logsumexp` included: m + log(exp(x - m)) = x).
  /// Whether op `i` saves its value (`save`) and a later op reads it back (`other`).
  bool read_back_later(size_t i) const { return suite::read_back_later(p_, i); }

  bool transparent(size_t i) const {
    const Op& op = p_.ops[i];
    const Shape& before = c_.analysis.after_op[i - 1];
    if (op.kind == OpKind::flatten) {
      size_t start = static_cast<size_t>(op.number_or("start_dim", 1));
      size_t big = 0;
      for (size_t d = start; d < before.size(); ++d) big += before[d] > 1;
      return big <= 1;
    }
    if (op_form(op.kind) == OpForm::reduce) {
      for (size_t d : reduced_dims(op, before.size()))
        if (before[d] != 1) return false;
      return true;
    }
    return false;
  }

  /// The value after op `i`, a transparent op (a flatten, a reduction over dims of 1).
  void view_op(size_t i) {
    const Op& op = p_.ops[i];
    if (value_.dims.empty())
      return;  // a GEMM over flattened batch dims: nothing follows it (stage_text says so)
    if (op.kind == OpKind::flatten) {
      size_t start = static_cast<size_t>(op.number_or("start_dim", 1));
      Dim merged{1, {}};
      for (size_t d = start; d < value_.dims.size(); ++d)
        if (value_.dims[d].size > 1 || !value_.dims[d].symbols.empty())
          merged = {merged.size * value_.dims[d].size, value_.dims[d].symbols};
      value_.dims.resize(start);
      value_.dims.push_back(merged);
      return;
    }
    if (op.flag_or("keepdim", false)) return;
    std::vector<size_t> dims = reduced_dims(op, value_.dims.size());
    for (auto it = dims.rbegin(); it != dims.rend(); ++it)
      value_.dims.erase(value_.dims.begin() + static_cast<long>(*it));
  }

  static std::vector<size_t> reduced_dims(const Op& op, size_t rank) {
    std::vector<size_t> out;
    const Attr* dim = op.get("dim");
    if (dim && dim->number) {
      int64_t d = static_cast<int64_t>(*dim->number);
      return {static_cast<size_t>(d < 0 ? d + static_cast<int64_t>(rank) : d)};
    }
    if (!dim || !dim->ints) {
      for (size_t d = 0; d < rank; ++d) out.push_back(d);
      return out;
    }
    for (int64_t d : *dim->ints)
      out.push_back(static_cast<size_t>(d < 0 ? d + static_cast<int64_t>(rank) : d));
    std::sort(out.begin(), out.end());
    return out;
  }

  /// The stages: where each starts and which ops its chain holds.
  std::variant<std::vector<StagePlan>, std::string> plan() const {
    std::vector<StagePlan> out;
    out.push_back({StagePlan::Kind::main, 0, 1, 0, {}});
    for (size_t i = 1; i < p_.ops.size(); ++i) {
      const Op& op = p_.ops[i];
      StagePlan& cur = out.back();
      // A family op whose value a later op reads back (`save`), or a GEMM or convolution whose read-back folds
      // through a tensor (a parameter: an epilogue's `expr` reads x and numbers only): the ops after it start a
      // map stage whose x is that stored value, so the read-back folds there (suite/lower_chain.h), its views
      // skipped.
      const bool fold_in_map = cur.kind == StagePlan::Kind::family ||
                               (cur.kind == StagePlan::Kind::main && fold_reads_tensor(p_, cur.op));
      if (fold_in_map && i == cur.op + 1 && read_back_later(cur.op) && (is_elementwise(op) || transparent(i))) {
        cur.chain_end = i;
        out.push_back({StagePlan::Kind::map, i, i, 0, {}});
        if (transparent(i)) out.back().skip.insert(i);
        continue;
      }
      bool reads_tensor = op.get("param") || op.get("other");
      // A reduction's or a window's chain reads no tensor (C705): a parameter after one starts a map stage.
      const OpForm cur_form = op_form(p_.ops[cur.op].kind);
      bool chain_reads_no_tensor =
          cur.kind == StagePlan::Kind::family &&
          (cur_form == OpForm::reduce || cur_form == OpForm::pool || cur_form == OpForm::adaptive_pool);
      if (is_elementwise(op) && !(reads_tensor && chain_reads_no_tensor)) continue;
      cur.chain_end = i;
      if (is_elementwise(op)) {
        out.push_back({StagePlan::Kind::map, i, i, 0, {}});
      } else if (transparent(i)) {
        cur.skip.insert(i);
        cur.chain_end = 0;
      } else {
        out.push_back({is_main_op(op) ? StagePlan::Kind::main : StagePlan::Kind::family, i, i + 1, 0, {}});
      }
    }
    out.back().chain_end = p_.ops.size();
    for (size_t s = 0; s + 1 < out.size(); ++s)
      if (out[s].chain_end == 0) out[s].chain_end = out[s + 1].op;
    return out;
  }

  /// The chain of `st` in spec text (` >> a >> b`), its tensor operands declared into `decls`.
  StageText chain_text(const StagePlan& st, ChainContext ctx, std::string* decls) {
    ctx.begin = st.chain_begin;
    ctx.end = st.chain_end;
    ctx.skip = st.skip;
    auto chain = lower_chain(p_, ctx);
    if (const auto* why = std::get_if<std::string>(&chain)) return Refusal{*why};
    const Chain& ch = std::get<Chain>(chain);
    if (ch.residual_input && !ctx.family)
      return Refusal{fmt::format(
          "an op adds input `{}`: a pipeline's GEMM or convolution stage reads no caller tensor but "
          "vectors",
          p_.inputs[*ch.residual_input].name)};
    std::string tail;
    for (size_t k = 0; k < ch.stages.size(); ++k) {
      tail += " >> " + print_call(ch.stages[k]);
      const StageSource& src = ch.sources[k];
      if (!ctx.family || src.kind == StageSource::Kind::none) continue;
      auto decl = operand_decl(src);
      if (const auto* why = std::get_if<Refusal>(&decl)) return *why;
      feed_.operands[operand_name(src, p_)] = {
          src.kind == StageSource::Kind::input ? FamilyOperand::Kind::input : FamilyOperand::Kind::param,
          src.index, torch_order(operand_shape(src))};
      std::string text = ", " + std::get<std::string>(decl);
      if (decls->find(text) == std::string::npos) *decls += text;
    }
    for (const std::string& note : ch.notes) notes_ += fmt::format("# Stage s{}: {}\n", stage_, note);
    if (!ctx.family) feed_.epilogue = ch.sources;
    return StageText(tail);
  }

  /// The PyTorch shape of the parameter or input `src` names.
  Shape operand_shape(const StageSource& src) const {
    return src.kind == StageSource::Kind::input ? p_.inputs[src.index].shape
                                                : *p_.ops[src.index].get("param")->ints;
  }

  /// A family stage's declaration of the parameter or input `src` names (broadcast_decl).
  StageText operand_decl(const StageSource& src) const {
    return broadcast_decl(operand_name(src, p_), operand_shape(src));
  }

  /// The dims of a tensor of PyTorch shape `shape` that broadcast_decl declared, in the order its declaration
  /// reads them: by where their stored extents lie in the value's memory order, dims of 1 last.
  std::vector<size_t> torch_order(const Shape& shape) const {
    const size_t rank = value_.dims.size();
    auto position = [&](size_t k) {
      if (shape[k] == 1) return value_.stored.size();
      const std::string& first = value_.dims[rank - shape.size() + k].symbols.front();
      return static_cast<size_t>(std::find(value_.stored.begin(), value_.stored.end(), first) -
                                 value_.stored.begin());
    };
    std::vector<size_t> order(shape.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return position(a) < position(b); });
    // Dims of 1 move no element: when the others keep PyTorch's order, so does the memory.
    size_t moved =
        static_cast<size_t>(std::count_if(shape.begin(), shape.end(), [](int64_t e) { return e != 1; }));
    if (std::is_sorted(order.begin(), order.begin() + static_cast<long>(moved)))
      std::iota(order.begin(), order.end(), size_t{0});
    return order;
  }

  /// Op `op`'s norm module's weight and bias, declared as gamma<op+1> and beta<op+1> (one dim: its channels).
  void norm_affine_feed(size_t op, std::vector<size_t> order) {
    feed_.operands[fmt::format("gamma{}", op + 1)] = {FamilyOperand::Kind::weight, op, order};
    feed_.operands[fmt::format("beta{}", op + 1)] = {FamilyOperand::Kind::bias, op, order};
  }

  /// `name: T[extents]` for a tensor of PyTorch shape `shape` that broadcasts to the value (aligned on the
  /// right to its dims, each dim 1 or the value's), in the stored value's extents: the run of stored extents
  /// its dims span, then a 1 for each stored extent after it, so the family's right-aligned broadcast reads
  /// it as PyTorch does.
  StageText broadcast_decl(const std::string& name, const Shape& shape) const {
    size_t rank = value_.dims.size();
    if (shape.size() > rank) return fail(fmt::format("`{}` has more dims than the value it meets", name));
    std::set<std::string> spans;
    for (size_t k = 0; k < shape.size(); ++k) {
      const Dim& d = value_.dims[rank - shape.size() + k];
      if (shape[k] == 1) continue;
      if (shape[k] != d.size || d.symbols.empty())
        return fail(
            fmt::format("`{}` of shape [{}] does not broadcast to the value", name, fmt::join(shape, ", ")));
      spans.insert(d.symbols.begin(), d.symbols.end());
    }
    std::vector<std::string> extents;
    for (const std::string& e : value_.stored)
      if (spans.count(e) || !extents.empty()) extents.push_back(spans.count(e) ? e : "1");
    // The spanned extents come first, with no 1 among them: one run of the stored order.
    size_t spanned =
        std::count_if(extents.begin(), extents.end(), [&](const std::string& e) { return spans.count(e); });
    if (spanned != spans.size() || !std::all_of(extents.begin(), extents.begin() + static_cast<long>(spanned),
                                                [&](const std::string& e) { return spans.count(e); }))
      return fail(
          fmt::format("`{}` of shape [{}] spans stored extents that are not one run of the value's memory "
                      "order [{}]",
                      name, fmt::join(shape, ", "), join(value_.stored)));
    if (extents.empty()) extents.push_back("1");
    return StageText(fmt::format("{}: {}[{}]", name, p_.precision, join(extents)));
  }

  /// `name`, a symbol of the generated spec whose value the problem's shape gives.
  std::string symbol(const std::string& name, int64_t v) {
    symbols_[name] = v;
    return name;
  }

  /// The link to the running value: `H1`, or a view when the stage reads it with other extents.
  std::string link(const std::vector<std::string>& extents) const {
    return extents == value_.stored ? value_.name : fmt::format("{}[{}]", value_.name, join(extents));
  }

  /// The symbols of PyTorch dims `dims` in memory order, or "" when they are not one run of stored extents.
  std::string over(const std::vector<size_t>& dims, std::vector<std::string>* names) const {
    std::set<std::string> want;
    for (size_t d : dims) want.insert(value_.dims[d].symbols.begin(), value_.dims[d].symbols.end());
    names->clear();
    for (const std::string& e : value_.stored)
      if (want.count(e)) names->push_back(e);
    if (names->size() != want.size() || names->empty()) return "";
    auto first = std::find(value_.stored.begin(), value_.stored.end(), names->front());
    if (!std::equal(names->begin(), names->end(), first)) return "";
    return names->size() == 1 ? names->front() : fmt::format("({})", join(*names));
  }

  StageText fail(std::string why) const { return Refusal{std::move(why)}; }

  StageText stage_text(const StagePlan& st) {
    const Op& op = p_.ops[st.op];
    if (st.kind == StagePlan::Kind::main) return main_stage(st);
    if (st.kind == StagePlan::Kind::map) {
      std::string decls;
      ChainContext ctx;
      ctx.family = true;
      auto chain = chain_text(st, ctx, &decls);
      if (std::holds_alternative<Refusal>(chain)) return chain;
      std::string in = value_.name;
      std::string out =
          fmt::format("  stage s{} = map(x: {}{})\n   {} >> store({}: {}[{}])\n", stage_, in, decls,
                      std::get<std::string>(chain), out_name_, p_.precision, join(value_.stored));
      value_.name = out_name_;
      value_.conv = false;
      return StageText(out);
    }
    const Shape& before = c_.analysis.after_op[st.op - 1];
    if (value_.dims.empty())
      return fail(fmt::format(
          "{}: it follows a GEMM over flattened batch dims, whose dims a family stage cannot name",
          where(st.op)));
    UC_ASSERT(before.size() == value_.dims.size())
        << p_.path << ": " << where(st.op) << " meets a value of rank " << value_.dims.size()
        << ", PyTorch's is " << before.size();
    std::string family, inputs, rest, decls;
    std::vector<std::string> in_extents = value_.stored, out_extents;
    std::vector<Dim> after;  // the value's dims after the op
    switch (op_form(op.kind)) {
      case OpForm::reduce: {
        std::vector<size_t> dims = reduced_dims(op, before.size());
        std::vector<std::string> names;
        std::string ov = over(dims, &names);
        if (ov.empty())
          return fail(
              fmt::format("{}: it reduces dims [{}], which are not one run of extents in memory ([{}])",
                          where(st.op), fmt::join(dims, ", "), join(value_.stored)));
        const char* r = op.kind == OpKind::sum         ? "sum"
                        : op.kind == OpKind::mean      ? "mean"
                        : op.kind == OpKind::amax      ? "max"
                        : op.kind == OpKind::logsumexp ? "logsumexp"
                                                       : "min";
        bool full = names.size() == value_.stored.size();
        family = "reduce";
        inputs = "input: " + link(in_extents);
        rest = fmt::format(", op = {}{}, acc: f32", r, full ? "" : ", over = " + ov);
        bool keep = op.flag_or("keepdim", false);
        for (size_t d = 0; d < value_.dims.size(); ++d) {
          bool reduced = std::find(dims.begin(), dims.end(), d) != dims.end();
          if (!reduced)
            after.push_back(value_.dims[d]);
          else if (keep)
            after.push_back({1, {}});
        }
        for (const std::string& e : value_.stored)
          if (std::find(names.begin(), names.end(), e) == names.end()) out_extents.push_back(e);
        if (out_extents.empty()) out_extents.push_back("1");
        break;
      }
      case OpForm::pool: {
        // PyTorch pools the last `kernel`-many dims: of [N, C, spatial...] the spatial ones, of a GEMM's [M,
        // N] (an unbatched (C, L) sequence) its last.
        Shape kernel = *op.get("kernel")->ints;
        const size_t k = kernel.size();
        Shape stride = op.ints_or("stride", k, 0), pad = op.ints_or("padding", k, 0);
        for (size_t i = 0; i < k; ++i)
          if (stride[i] == 0) stride[i] = kernel[i];
        auto same = [](const Shape& v) {
          return std::all_of(v.begin(), v.end(), [&](int64_t x) { return x == v[0]; });
        };
        if (!same(kernel) || !same(stride) || !same(pad))
          return fail(
              fmt::format("{}: a window stage pools every extent alike; this one's kernel, stride or padding "
                          "differ by dim",
                          where(st.op)));
        std::vector<size_t> dims;
        for (size_t d = before.size() - k; d < before.size(); ++d) dims.push_back(d);
        std::vector<std::string> names;
        std::string ov = over(dims, &names);
        if (ov.empty() || names.size() != k)
          return fail(fmt::format("{}: its pooled dims are not one run of extents in memory ([{}])",
                                  where(st.op), join(value_.stored)));
        family = "window";
        inputs = "input: " + link(in_extents);
        rest = fmt::format(", op = {}, size = {}, stride = {}{}, over = {}, edge = clip",
                           op.kind == OpKind::max_pool ? "max" : "avg", kernel[0], stride[0],
                           pad[0] ? fmt::format(", pad = {}", pad[0]) : "", ov);
        after = value_.dims;
        std::map<std::string, std::string> renamed;
        for (size_t i = 0; i < k; ++i) {
          Dim& dd = after[dims[i]];
          int64_t out = (dd.size + 2 * pad[i] - kernel[i]) / stride[i] + 1;
          std::string sym = symbol(
              fmt::format("{}{}", names[i].substr(0, 1) == "N" ? "L" : names[i].substr(0, 1), stage_), out);
          renamed[names[i]] = sym;
          dd = {out, {sym}};
        }
        for (const std::string& e : value_.stored) out_extents.push_back(renamed.count(e) ? renamed[e] : e);
        break;
      }
      case OpForm::adaptive_pool: {
        const Attr* size = op.get("output_size");
        for (int64_t v : *size->ints)
          if (v != 1)
            return fail(
                fmt::format("{}: only a global pooling (output size 1) is a family op yet", where(st.op)));
        std::vector<size_t> dims;
        for (size_t d = 2; d < before.size(); ++d) dims.push_back(d);
        std::vector<std::string> names;
        std::string ov = over(dims, &names);
        if (ov.empty())
          return fail(fmt::format("{}: its spatial dims are not one run of extents in memory", where(st.op)));
        family = "reduce";
        inputs = "input: " + link(in_extents);
        rest = fmt::format(", op = mean, over = {}, acc: f32", ov);
        for (size_t d = 0; d < value_.dims.size(); ++d) after.push_back(d < 2 ? value_.dims[d] : Dim{1, {}});
        for (const std::string& e : value_.stored)
          if (std::find(names.begin(), names.end(), e) == names.end()) out_extents.push_back(e);
        break;
      }
      case OpForm::softmax: {
        std::vector<size_t> dims = reduced_dims(op, before.size());
        std::vector<std::string> names;
        std::string ov = over(dims, &names);
        if (ov.empty()) return fail(fmt::format("{}: its dim is not stored", where(st.op)));
        family = "rownorm";
        inputs = "input: " + link(in_extents);
        rest =
            fmt::format(", norm = {}, over = {}", op.kind == OpKind::softmax ? "softmax" : "log_softmax", ov);
        after = value_.dims;
        out_extents = in_extents;
        break;
      }
      case OpForm::batch_norm:
      case OpForm::instance_norm: {
        bool batch = op_form(op.kind) == OpForm::batch_norm;
        std::vector<size_t> dims;
        size_t rank = before.size();
        for (size_t d = 0; d < rank; ++d)
          if (batch ? d != 1 : (rank == 2 ? d == 1 : d >= 2)) dims.push_back(d);
        std::vector<std::string> names;
        std::string ov = over(dims, &names);
        if (ov.empty())
          return fail(
              fmt::format("{}: the dims it normalizes over are not one run of extents in memory ([{}])",
                          where(st.op), join(value_.stored)));
        std::string eps = fmt::format("{}", op.number_or("eps", 1e-5));
        if (batch) {
          const std::vector<std::string>& chs = value_.dims[1].symbols;
          if (chs.size() != 1 || value_.stored.back() != chs.front())
            return fail(fmt::format("{}: its channels are not the innermost extent in memory", where(st.op)));
          decls =
              fmt::format(", gamma{0}: {1}[{2}], beta{0}: {1}[{2}]", st.op + 1, p_.precision, chs.front());
          norm_affine_feed(st.op, {0});
          affine_ = fmt::format("expr(x * gamma{0} + beta{0})", st.op + 1);
          representation_ += fmt::format(
              " Stage s{}: the batch norm's weight and bias are gamma{} and beta{} (training "
              "statistics; the running averages are not outputs).",
              stage_, st.op + 1, st.op + 1);
        } else if (op.flag_or("affine", false)) {
          return fail(fmt::format("{}: an affine instance norm has no family stage yet", where(st.op)));
        }
        family = "rownorm";
        inputs = "input: " + link(in_extents) + decls;
        rest = fmt::format(", norm = layer, eps = {}, over = {}", eps, ov);
        after = value_.dims;
        out_extents = in_extents;
        break;
      }
      case OpForm::layer_norm: {
        // Over the last len(normalized_shape) dims, with a weight and a bias of that shape
        // (elementwise_affine).
        const Shape& normalized = *op.get("normalized_shape")->ints;
        std::vector<size_t> dims;
        for (size_t d = before.size() - normalized.size(); d < before.size(); ++d) dims.push_back(d);
        std::vector<std::string> names;
        std::string ov = over(dims, &names);
        if (ov.empty())
          return fail(
              fmt::format("{}: the dims it normalizes over are not one run of extents in memory ([{}])",
                          where(st.op), join(value_.stored)));
        auto gamma = broadcast_decl(fmt::format("gamma{}", st.op + 1), normalized);
        auto beta = broadcast_decl(fmt::format("beta{}", st.op + 1), normalized);
        if (std::holds_alternative<Refusal>(gamma)) return gamma;
        norm_affine_feed(st.op, torch_order(normalized));
        family = "rownorm";
        inputs = fmt::format("input: {}, {}, {}", link(in_extents), std::get<std::string>(gamma),
                             std::get<std::string>(beta));
        rest = fmt::format(", norm = layer, eps = {}, over = {}", op.number_or("eps", 1e-5), ov);
        affine_ = fmt::format("expr(x * gamma{0} + beta{0})", st.op + 1);
        representation_ += fmt::format(" Stage s{}: the layer norm's weight and bias are gamma{} and beta{}.",
                                       stage_, st.op + 1, st.op + 1);
        after = value_.dims;
        out_extents = in_extents;
        break;
      }
      case OpForm::group_norm: {
        const size_t rank = value_.dims.size();
        if (rank < 2 || value_.dims[1].symbols.size() != 1 ||
            value_.stored.back() != value_.dims[1].symbols.front())
          return fail(fmt::format("{}: its channels are not the innermost extent in memory", where(st.op)));
        int64_t groups = static_cast<int64_t>(op.number_or("num_groups", 1));
        int64_t channels = value_.dims[1].size;
        std::string g = symbol(fmt::format("G{}", stage_), groups),
                    d = symbol(fmt::format("D{}", stage_), channels / groups);
        std::vector<std::string> spatial(value_.stored.begin() + 1, value_.stored.end() - 1);
        if (!spatial.empty()) {
          // Channels-last: a group's channels are no run in memory, so a transposing map first stores the
          // value channels-first ([N, S, K] col is [N, K, S] in memory), which the norm reads as [N, G, D,
          // spatial...].
          int64_t pixels = 1;
          for (size_t dd = 2; dd < rank; ++dd) pixels *= value_.dims[dd].size;
          std::string sym = symbol(fmt::format("S{}", stage_), pixels), t = fmt::format("T{}", stage_);
          feeds_.stages.push_back({st.op, {}, {}});  // the transposing map, which reads no caller tensor
          pre_ += fmt::format("  stage s{}t = map(x: {})\n    >> store({}: {}[{}, {}, {}] col)\n", stage_,
                              link({value_.stored.front(), sym, value_.stored.back()}), t, p_.precision,
                              value_.stored.front(), sym, value_.stored.back());
          value_.name = t;
          value_.stored = {value_.stored.front(), sym, value_.stored.back()};
          representation_ += fmt::format(
              " Stage s{0}t transposes the channels-last value to channels-first ({1}) for "
              "stage s{0}'s group norm.",
              stage_, t);
        }
        in_extents = {value_.stored.front(), g, d};
        in_extents.insert(in_extents.end(), spatial.begin(), spatial.end());
        std::vector<std::string> norm_over = {d};
        norm_over.insert(norm_over.end(), spatial.begin(), spatial.end());
        std::string affine_extents = join([&] {
          std::vector<std::string> e = {g, d};
          for (size_t k = 0; k < spatial.size(); ++k) e.push_back("1");
          return e;
        }());
        std::string eps = fmt::format("{}", op.number_or("eps", 1e-5));
        family = "rownorm";
        norm_affine_feed(st.op, {0});
        inputs = fmt::format("input: {0}, gamma{1}: {2}[{3}], beta{1}: {2}[{3}]", link(in_extents), st.op + 1,
                             p_.precision, affine_extents);
        rest = fmt::format(", norm = layer, eps = {}, over = {}", eps,
                           norm_over.size() == 1 ? d : fmt::format("({})", join(norm_over)));
        affine_ = fmt::format("expr(x * gamma{0} + beta{0})", st.op + 1);
        representation_ += fmt::format(
            " Stage s{}: the group norm reads its input as [{}]; its weight and bias are "
            "gamma{} and beta{}.",
            stage_, join(in_extents), st.op + 1, st.op + 1);
        after = value_.dims;
        after[1].symbols = {g, d};
        out_extents = in_extents;
        break;
      }
      default:
        return fail(fmt::format("{}: `{}` has no family stage yet", where(st.op), op_name(op.kind)));
    }
    ChainContext ctx;
    ctx.family = true;
    std::string chain_decls;
    value_.dims = after;
    value_.stored = out_extents;
    auto chain = chain_text(st, ctx, &chain_decls);
    if (std::holds_alternative<Refusal>(chain)) return chain;
    if (!chain_decls.empty() && op_form(op.kind) != OpForm::softmax &&
        op_form(op.kind) != OpForm::batch_norm && op_form(op.kind) != OpForm::instance_norm &&
        op_form(op.kind) != OpForm::group_norm)
      return fail(fmt::format("{}: a reduction's chain reads no tensor", where(st.op)));
    // The operands a rownorm's chain reads are inputs of the stage, declared with its operator's.
    std::string head = fmt::format("{}({}{}{})", family, inputs, chain_decls, rest);
    std::string tail =
        affine_.empty() ? std::get<std::string>(chain) : " >> " + affine_ + std::get<std::string>(chain);
    affine_.clear();
    std::string out = pre_ + fmt::format("  stage s{} = {}\n   {} >> store({}: {}[{}])\n", stage_, head, tail,
                                         out_name_, p_.precision, join(out_extents));
    pre_.clear();
    value_.name = out_name_;
    value_.conv = false;
    return StageText(out);
  }

  /// A GEMM or convolution stage: the first reads the caller's input, a later one the value.
  StageText main_stage(const StagePlan& st) {
    const size_t at = st.op;
    const Op& op = p_.ops[at];
    const Shape& in = at == 0 ? p_.inputs.front().shape : c_.analysis.after_op[at - 1];
    const Shape& out = c_.analysis.after_op[at];
    const std::string& t = p_.precision;
    ChainContext ctx;
    ctx.out = out;
    ctx.c_dtype = t;
    ctx.main_inputs = {0};
    std::string call;
    std::vector<Dim> dims;
    std::vector<std::string> stored;
    if (op_form(op.kind) == OpForm::linear || op_form(op.kind) == OpForm::matmul) {
      Shape b;
      if (op_form(op.kind) == OpForm::linear) {
        b = {in.back(), out.back()};
      } else if (const Attr* param = op.get("param");
                 param && param->ints->size() == 2 && !op.flag_or("transpose_self", false)) {
        bool tb = op.flag_or("transpose_other", false);
        b = tb ? Shape{(*param->ints)[1], (*param->ints)[0]} : *param->ints;
        if (tb) representation_ += fmt::format(" Stage s{}'s parameter [N, K] is B column-major.", stage_);
      } else {
        return fail(
            fmt::format("{}: a pipeline stage multiplies by a learned matrix (a `linear`, or a `matmul` by a "
                        "2-D `param`)",
                        where(at)));
      }
      if (at > 0 && value_.conv)
        return fail(fmt::format("{}: a GEMM stage reads a GEMM's output, not a convolution's", where(at)));
      if (in.size() != 2 && at > 0) return fail(fmt::format("{}: a GEMM stage reads a matrix", where(at)));
      int64_t m = std::accumulate(in.begin(), in.end() - 1, int64_t{1}, std::multiplies<>());
      std::string a;
      if (at == 0) {
        a = fmt::format("{}[{}, {}] row", t, symbol("M", m), symbol("K", in.back()));
      } else {
        if (value_.stored.size() != 2) return fail(fmt::format("{}: a GEMM stage reads a matrix", where(at)));
        a = link(value_.stored);
      }
      std::string k = at == 0 ? "K" : value_.stored.back();
      std::string n = symbol(fmt::format("N{}", stage_), b[1]);
      bool b_col = op_form(op.kind) == OpForm::linear || op.flag_or("transpose_other", false);
      call = fmt::format("gemm(A: {}, B: {}[{}, {}] {}, acc: f32)", a, t, k, n, b_col ? "col" : "row");
      stored = {"M", n};
      dims = {{out[0], {"M"}}, {out.back(), {n}}};
      if (in.size() != 2) dims = {};  // batch dims flattened into M: no family stage may follow
      ctx.channel_dim = out.size() - 1;
      ctx.layer_bias = op_form(op.kind) == OpForm::linear && op.flag_or("bias", true);
      ctx.c_layout = "row";
    } else {
      if (at > 0 && !value_.conv)
        return fail(fmt::format("{}: a convolution stage reads a convolution's output", where(at)));
      auto conv = conv_of(op, in);
      if (const auto* why = std::get_if<std::string>(&conv))
        return fail(fmt::format("{}: {}", where(at), *why));
      const auto& [kind, d] = std::get<ConvOf>(conv);
      auto geometry = conv_shape(d, kind);
      if (const auto* bad = std::get_if<GeometryFault>(&geometry))
        return fail(fmt::format("{}: {}", where(at), bad->message));
      const ConvShape& g = std::get<ConvShape>(geometry);
      size_t rank = in.size() - 2;
      std::string xs;
      if (at == 0) {
        static const char* act[] = {"W", "H", "D"};  // spatial names, innermost first
        std::vector<std::string> x = {symbol("N", in[0])};
        for (size_t i = 0; i < rank; ++i) x.push_back(symbol(act[rank - 1 - i], in[2 + i]));
        x.push_back(symbol("C", in[1]));
        xs = fmt::format("{}[{}]", t, join(x));
      } else {
        xs = link(value_.stored);
      }
      std::vector<int64_t> y = g.output_activation();
      static const char* outn[] = {"Q", "P", "Z"};
      stored = {"N"};
      for (size_t i = 0; i < rank; ++i)
        stored.push_back(symbol(fmt::format("{}{}", outn[rank - 1 - i], stage_), y[1 + i]));
      // A depthwise convolution keeps its input's channels: its output declares the same symbol (C405).
      bool depthwise = op_conv_grouping(kind) == ConvGrouping::depthwise;
      stored.push_back(depthwise ? (at == 0 ? std::string("C") : value_.stored.back())
                                 : symbol(fmt::format("K{}", stage_), y.back()));
      dims = {{y[0], {"N"}}, {y.back(), {stored.back()}}};
      for (size_t i = 0; i < rank; ++i) dims.push_back({y[1 + i], {stored[1 + i]}});
      int64_t cin = in[1], groups = static_cast<int64_t>(op.number_or("groups", 1));
      Shape spatial(op.ints_or("kernel", rank, 1));
      // The filter: its channel extents by symbol (they must be the activation's and the output's), its taps
      // as numbers.
      const std::string c_in = at == 0 ? "C" : value_.stored.back(), k_out = stored.back();
      std::vector<std::string> w;
      switch (op_conv_grouping(kind)) {
        case ConvGrouping::depthwise:
          w = {c_in};
          break;
        case ConvGrouping::grouped:
          w = {k_out};
          break;
        default:
          w = {op_conv_kind(kind) == ConvKind::dgrad ? c_in : k_out};
      }
      for (int64_t tap : spatial) w.push_back(std::to_string(tap));
      switch (op_conv_grouping(kind)) {
        case ConvGrouping::depthwise:
          w.push_back("1");
          break;
        case ConvGrouping::grouped:
          w.push_back(std::to_string(cin / groups));
          break;
        default:
          w.push_back(op_conv_kind(kind) == ConvKind::dgrad ? k_out : c_in);
      }
      // PyTorch's f32 convolutions run on TF32 tensor cores (cudnn.allow_tf32 defaults to true); the
      // depthwise direct convolution has no tensor-core form (C105), so it keeps f32.
      bool tf32 = t == "f32" && op_conv_grouping(kind) != ConvGrouping::depthwise;
      call = fmt::format("{}(X: {}, W: {}[{}], acc: f32{})", ucut::op_name(kind), xs, t, join(w),
                         tf32 ? ", math = tf32" : "");
      ctx.channel_dim = 1;
      ctx.layer_bias = op.flag_or("bias", true);
      geometry_.emplace_back(stage_, geometry_text(op, rank, kind));
      if (at == 0)
        representation_ +=
            " Channels-last: the harness makes X [N, spatial, C] and each convolution's output [N, "
            "spatial, K]; PyTorch's modules take NCHW.";
    }
    std::string c_extents = fmt::format("{}", fmt::join(stored, ","));
    ctx.c_extents = c_extents;
    std::string decls;
    auto chain = chain_text(st, ctx, &decls);
    if (std::holds_alternative<Refusal>(chain)) return chain;
    value_.dims = dims;
    value_.stored = stored;
    value_.name = out_name_;
    value_.conv = op_form(op.kind) != OpForm::linear && op_form(op.kind) != OpForm::matmul;
    std::string layout = value_.conv ? "" : " row";
    return StageText(fmt::format("  stage s{} = {}\n   {} >> store({}: {}[{}]{})\n", stage_, call,
                                 std::get<std::string>(chain), out_name_, t, join(stored), layout));
  }

  /// The shape's table for a convolution stage: its padding, stride, dilation, groups, output padding.
  static std::string geometry_text(const Op& op, size_t rank, ucut::OpKind kind) {
    std::vector<std::string> kv = {
        fmt::format("pad = [{}]", fmt::join(op.ints_or("padding", rank, 0), ", ")),
        fmt::format("stride = [{}]", fmt::join(op.ints_or("stride", rank, 1), ", ")),
        fmt::format("dilation = [{}]", fmt::join(op.ints_or("dilation", rank, 1), ", "))};
    if (op_conv_grouping(kind) == ConvGrouping::grouped)
      kv.push_back(fmt::format("groups = {}", static_cast<int64_t>(op.number_or("groups", 1))));
    if (op_conv_kind(kind) == ConvKind::dgrad)
      kv.push_back(
          fmt::format("output_padding = [{}]", fmt::join(op.ints_or("output_padding", rank, 0), ", ")));
    return fmt::format("{{ {} }}", fmt::join(kv, ", "));
  }

  /// The problem the two texts describe, read as `ucutlass run` reads the files; a reading error is a bug
  /// here.
  std::variant<ucut::Problem, std::string> read_back(const std::string& spec, const std::string& problem) {
    std::string provenance = fmt::format("# Lowered by `ucutlass suite lower` from {}: {}\n#{}\n{}", p_.path,
                                         p_.title, representation_, notes_);
    std::filesystem::path dir = std::filesystem::path(p_.path).parent_path();
    SourceFile spec_src((dir / (p_.stem + ".ucut")).string(), spec);
    SourceFile problem_src((dir / (p_.stem + ".toml")).string(), problem);
    DiagEngine diags;
    auto read = read_problem(problem_src, diags, &spec_src);
    if (!read || diags.has_errors())
      return fmt::format("the generated pipeline does not read back:\n{}\n{}", spec,
                         render_text(problem_src, diags.diagnostics()));
    ucut::Problem out = std::move(*read);
    out.path = p_.path;
    auto syntax = std::make_shared<ProblemSyntax>();
    syntax->pipeline_spec = out.syntax->pipeline_spec;
    syntax->provenance = provenance;
    syntax->pipeline_source = spec;
    syntax->pipeline_problem = problem;
    out.syntax = std::move(syntax);
    out.tolerance_given = true;
    return out;
  }

  const Checked& c_;
  const Problem& p_;
  Value value_;
  size_t stage_ = 0;
  std::string out_name_, affine_;
  std::string pre_;  // a stage the next one needs first (a transpose before a channels-last group norm)
  std::map<std::string, int64_t> symbols_;
  std::vector<std::pair<size_t, std::string>> geometry_;
  std::string representation_ = " Extents are symbols with the problem's one size in its shape.";
  std::string notes_;
  StageFeed feed_;  // the stage being written
  PipelineFeeds feeds_;
};

}  // namespace

bool is_pipeline_chain(const Problem& p) {
  if (p.ops.empty() || !is_main_op(p.ops.front())) return false;
  return std::any_of(p.ops.begin() + 1, p.ops.end(), [](const Op& op) { return !is_elementwise(op); }) ||
         fold_reads_tensor(p, 0);
}

std::variant<ucut::Problem, std::string> lower_pipeline_problem(const Checked& c) {
  auto lowered = lower_pipeline_with_feeds(c);
  if (auto* l = std::get_if<PipelineLowering>(&lowered)) return std::move(l->problem);
  return std::get<std::string>(lowered);
}

std::variant<PipelineLowering, std::string> lower_pipeline_with_feeds(const Checked& c) {
  return PipelineWriter(c).write();
}

}  // namespace ucut::suite
