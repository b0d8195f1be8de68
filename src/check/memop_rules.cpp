// check/memop_rules.cpp — what a kernel of a memory-bound family (ir/memop.h) needs to be emitted: a target
// and element types the family emits for (C701), vectors its tensors can move (C702), a launch it runs
// (C703), inputs whose extents broadcast to the output's (C704), a chain of stages its kernel applies and a
// store in the inputs' layout (C713), no more tensors, scalars and extents than the C entry carries (C409), and the tensor modifiers and stage values GEMM epilogues also refuse
// (C407, C411, C415, C425, and check_stage_values); a `reduce`'s own rule (C705) is memop_reduce_rules.cpp's,
// a `rownorm`'s (C707) memop_rownorm_rules.cpp's, a `scan`'s (C708) memop_scan_rules.cpp's, reversed inputs' and
// transposing maps' (C709) memop_view_rules.cpp's, a window's (C710–C712, C714) memop_window_rules.cpp's, a
// `sparse`'s (C717–C719) memop_sparse_rules.cpp's, a library call's (C720–C724) memop_library_rules.cpp's.
// Goldens: tests/golden/check/C701.ucut ... C713.ucut.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "abi/kernel_abi.h"
#include "check/check.h"
#include "support/error.h"

namespace ucut {

std::string rules::show_extent(const Extent& e) { return e.fixed() ? std::to_string(e.size) : e.symbol; }

bool rules::same_extent(const Extent& a, const Extent& b) { return a.symbol == b.symbol && a.size == b.size; }

std::string rules::show_dims(const TensorDecl& t) {
  std::string dims;
  for (const Extent& e : t.dims) dims += (dims.empty() ? "" : ",") + show_extent(e);
  return dims;
}

bool rules::same_extents(const TensorDecl& a, const TensorDecl& b) {
  if (a.dims.size() != b.dims.size()) return false;
  for (size_t d = 0; d < a.dims.size(); ++d)
    if (!same_extent(a.dims[d], b.dims[d])) return false;
  return true;
}

namespace {

bool family_type(DType t) { return t == DType::f16 || t == DType::bf16 || t == DType::f32; }

using rules::show_dims;

/// C701: the arch has an emitter for the families; every tensor is f16, bf16 or f32 (an input also i32, read
/// as f32 values), every scalar f16, bf16 or f32.
void check_target(const MemOpConfig& m, DiagEngine& diags) {
  if (!memop_emits_for(m.arch.value)) {
    bool hopper = m.arch.value == Arch::sm90;
    Diagnostic& d = diags.report(
        RuleId::C701, m.arch.span,
        fmt::format("`{}` kernels emit for sm80, sm86, sm89 and sm90a, not `{}`", op_name(m.op.value),
                    arch_info(m.arch.value).name),
        hopper ? "write `sm90a`: Hopper kernels are built for sm_90a" : "target sm80, sm86, sm89 or sm90a");
    if (hopper) {
      d.hint->edit = Edit{m.arch.span, "sm90a"};
      d.hint->applicability = Applicability::machine_applicable;
    }
  }
  for (const TensorDecl& t : m.inputs)
    if (!family_type(t.dtype.value) && t.dtype.value != DType::i32)
      diags.report(RuleId::C701, t.dtype.span,
                   fmt::format("`{}` is `{}`; `{}` kernels read f16, bf16, f32 or i32", t.name.value,
                               dtype_name(t.dtype.value), op_name(m.op.value)),
                   fmt::format("declare `{}` as f16, bf16, f32 or i32", t.name.value));
  const TensorDecl& out = m.output();
  const bool index_out = m.reduce && is_arg_op(m.reduce->op.value);  // argmax's i32 is C706's
  if (!family_type(out.dtype.value) && !index_out)
    diags.report(RuleId::C701, out.dtype.span,
                 fmt::format("`{}` is `{}`; `{}` kernels write f16, bf16 or f32", out.name.value,
                             dtype_name(out.dtype.value), op_name(m.op.value)),
                 fmt::format("declare `{}` as f16, bf16 or f32", out.name.value));
  for (const ScalarDecl& s : m.scalars)
    if (!family_type(s.dtype.value))
      diags.report(RuleId::C701, s.dtype.span,
                   fmt::format("the scalar `{}` is `{}`; a `{}` kernel's scalars are f16, bf16 or f32",
                               s.name.value, dtype_name(s.dtype.value), op_name(m.op.value)),
                   fmt::format("declare `{}: f32`", s.name.value));
}

/// C704: each input's extents broadcast to the output's, right-aligned: the same symbol, the same number,
/// or 1.
void check_broadcast(const MemOpConfig& m, DiagEngine& diags) {
  const TensorDecl& out = m.domain();
  const char* role = m.reduce || m.norm ? "the first input" : "the output";
  for (const TensorDecl& in : m.inputs) {
    auto report = [&](Span where, std::string why) {
      Diagnostic& d = diags.report(
          RuleId::C704, where,
          fmt::format("`{}` is [{}], which does not broadcast to {} `{}` [{}]: {}", in.name.value,
                      show_dims(in), role, out.name.value, show_dims(out), why),
          fmt::format("declare `{}` with {}'s extents, aligned on the right, or 1 where it repeats "
                      "(e.g. `{}: {}[{}]`)",
                      in.name.value, role, in.name.value, dtype_name(in.dtype.value), show_dims(out)));
      d.notes.push_back(Label{out.span, role});
    };
    if (in.dims.size() > out.dims.size()) {
      report(in.span, fmt::format("it has {} extents and {} {}", in.dims.size(), role, out.dims.size()));
      continue;
    }
    size_t lead = out.dims.size() - in.dims.size();
    for (size_t d = 0; d < in.dims.size(); ++d) {
      const Extent &e = in.dims[d], &o = out.dims[lead + d];
      bool same = e.symbol == o.symbol && e.size == o.size;
      if (same || (e.fixed() && e.size == 1)) continue;
      report(e.span, fmt::format("its extent `{}` meets the output's `{}`",
                                 e.fixed() ? std::to_string(e.size) : e.symbol,
                                 o.fixed() ? std::to_string(o.size) : o.symbol));
      break;
    }
  }
}

/// The tensors a vector moves whole: a map's output and every input read in whole vectors (a reduce stores
/// one value, not vectors).
std::vector<const TensorDecl*> vector_tensors(const MemOpConfig& m) {
  std::vector<const TensorDecl*> out;
  if (!m.reduce) out.push_back(&m.output());
  for (size_t i = 0; i < m.inputs.size(); ++i)
    if (m.vector_read(i)) out.push_back(&m.inputs[i]);
  return out;
}

/// Why `v` elements are no vector of `t`, or "" when they are one.
std::string vector_misfit(const TensorDecl& t, int v) {
  int bytes = v * dtype_bits(t.dtype.value) / 8;
  if (bytes != 2 && bytes != 4 && bytes != 8 && bytes != 16)
    return fmt::format("{} elements are {} bytes of `{}` ({}), and a vector is 2, 4, 8 or 16 bytes", v, bytes,
                       t.name.value, dtype_name(t.dtype.value));
  if (t.align.value < v)
    return fmt::format("`{}` is aligned to {} elements, fewer than a vector of {}", t.name.value,
                       t.align.value, v);
  return "";
}

/// C702: `.with_vector(v)` moves 2, 4, 8 or 16 bytes of each tensor it moves whole, within its `align`. The
/// fix is the legal width nearest to v (in powers of two; the narrower on a tie), machine-applicable.
void check_vector(const MemOpConfig& m, DiagEngine& diags) {
  const std::vector<const TensorDecl*> tensors = vector_tensors(m);
  auto misfit = [&](int v) {
    for (const TensorDecl* t : tensors)
      if (std::string why = vector_misfit(*t, v); !why.empty()) return why;
    return std::string();
  };
  const int v = m.tune.vector.value;
  std::string why = misfit(v);
  if (why.empty()) return;
  int best = 0;
  for (int c = 1; c <= 16; c *= 2) {
    if (!misfit(c).empty()) continue;
    if (!best || std::abs(std::log2(double(c) / v)) < std::abs(std::log2(double(best) / v))) best = c;
  }
  Diagnostic& d = diags.report(RuleId::C702, m.tune.vector.span, fmt::format("vectors of {}: {}", v, why),
                               best ? fmt::format("write `{}`: the nearest width every tensor moves", best)
                                    : std::string("raise the tensors' `align`"));
  if (best && !m.tune.vector.span.implied) {
    d.hint->edit = Edit{m.tune.vector.span, std::to_string(best)};
    d.hint->applicability = Applicability::machine_applicable;
  }
}

/// C703: a block of 64 to 1024 threads in whole warps, 1 to 32 vectors per thread and trip, and (a `reduce`
/// over its last extents) rows per block that divide its warps; each fix the nearest legal value,
/// machine-applicable.
void check_launch(const MemOpConfig& m, DiagEngine& diags) {
  auto report = [&](const Spanned<int>& knob, int fixed, std::string message) {
    Diagnostic& d =
        diags.report(RuleId::C703, knob.span, std::move(message), fmt::format("write `{}`", fixed));
    if (!knob.span.implied) {
      d.hint->edit = Edit{knob.span, std::to_string(fixed)};
      d.hint->applicability = Applicability::machine_applicable;
    }
  };
  const int b = m.tune.block.value;
  if (b < 64 || b > 1024 || b % 32 != 0)
    report(m.tune.block, std::clamp((b + 16) / 32 * 32, 64, 1024),
           fmt::format(
               "a block of {} threads; a block holds 64 to 1024 threads, a multiple of 32 (whole warps)", b));
  const int i = m.tune.items.value;
  if (i < 1 || i > 32)
    report(m.tune.items, std::clamp(i, 1, 32),
           fmt::format("{} vectors per thread; a thread takes 1 to 32 vectors per trip", i));
  const int r = m.tune.rows.value;
  // A rownorm's rows are C707's (memop_rownorm_rules.cpp), a sparse kernel's lanes per row C719's.
  if (m.norm || m.sparse || r == kMemAutoRows) return;
  if (!m.reduce || m.reduce->over.empty() || !reduce_axes(m).suffix()) {
    diags.report(RuleId::C703, m.tune.rows.span,
                 "`.with_rows` sets the rows per block of a `reduce` over its last extents (`over`), which "
                 "this kernel is not",
                 "remove `.with_rows`");
    return;
  }
  // Each row's threads are whole warps: the warps of a block split evenly among its rows.
  const int warps = std::max(b / 32, 1);
  if (warps % r != 0) {
    int fixed = 1;
    for (int c = 1; c <= warps; ++c)
      if (warps % c == 0 && std::abs(c - r) < std::abs(fixed - r)) fixed = c;
    report(m.tune.rows, fixed,
           fmt::format("{} rows per block of {} warps; the rows share the warps evenly, so they divide {}", r,
                       warps, warps));
  }
}

/// Why a map cannot apply a stage of this category, and what to write instead; empty when it can.
std::pair<std::string, std::string> refused_stage(const EpiOp& op) {
  std::string_view name = epi_info(op.kind).name;
  switch (epi_info(op.kind).category) {
    case EpiCategory::activation:
    case EpiCategory::expr:
    case EpiCategory::cast:
    case EpiCategory::store:
      return {};
    case EpiCategory::scalar:
      return {"`scale` declares a GEMM's run-time scalar; a `map` declares its scalars among its operands",
              "declare `alpha: f32` in `map(...)` and write `expr(x * alpha)`"};
    case EpiCategory::source:
      return {"`residual` reads a GEMM's source tensor; a `map` declares what it reads among its operands",
              "declare `C: f32[N]` in `map(...)` and write `expr(x + C)`"};
    case EpiCategory::vector:
      return {
          fmt::format("`{}` follows a GEMM's rows or columns; a `map` broadcasts the inputs it declares",
                      name),
          "declare the vector in `map(...)` with 1 where it repeats (`v: f32[M,1]`) and write `expr(x + v)`"};
    case EpiCategory::aux:
      return {"`aux_store` writes a second output, and a `map` writes one",
              "store the value in a kernel of its own"};
    case EpiCategory::reduce:
      return {fmt::format("`{}` reduces along a matrix axis, and a `map` writes one value per element", name),
              "reduce in a kernel of its own"};
  }
  UC_UNREACHABLE() << "EpiCategory " << static_cast<int>(epi_info(op.kind).category);
}

/// C713: the chain's stages, then its store: in the layout of every input with two extents or more (a map
/// keeps the layout; a vector has none).
void check_chain(const MemOpConfig& m, DiagEngine& diags) {
  for (const EpiOp& op : m.chain) {
    auto [why, instead] = refused_stage(op);
    if (!why.empty()) diags.report(RuleId::C713, op.span, why, instead);
    rules::check_stage_values(op, diags);
  }
  const TensorDecl& out = m.output();
  for (const TensorDecl& in : m.inputs) {
    if (in.dims.size() < 2 || out.dims.size() < 2 || in.layout.value == out.layout.value) continue;
    if (m.transposes() || m.sparse) break;  // a transposing map's layouts are C709's, a sparse kernel's C717/C718
    Diagnostic& d = diags.report(
        RuleId::C713, out.layout.span.implied ? out.span : out.layout.span,
        fmt::format("`{}` is `{}` but the input `{}` is `{}`: a map keeps the layout", out.name.value,
                    layout_name(out.layout.value), in.name.value, layout_name(in.layout.value)),
        fmt::format("declare both `{}`", layout_name(in.layout.value)));
    d.notes.push_back(Label{in.span, "the input"});
    break;
  }
  // The output's name differs from every name the caller passes.
  std::vector<std::pair<std::string, Span>> names;
  for (const CallerTensor& t : m.caller_inputs()) names.emplace_back(t.name, t.span);
  for (const ScalarDecl& sc : m.scalars) names.emplace_back(sc.name.value, sc.name.span);
  for (const auto& [name, first] : names) {
    if (name != out.name.value) continue;
    Diagnostic& d = diags.report(RuleId::C411, out.name.span,
                                 fmt::format("tensor name `{}` is already used", out.name.value),
                                 "give each tensor its own name");
    d.notes.push_back(Label{first, "first used here"});
  }
}

/// Modifiers for what GEMMs and convolutions do around their mainloop: a map reads and writes its tensors in
/// place.
void check_modifiers(const MemOpConfig& m, DiagEngine& diags) {
  std::vector<const TensorDecl*> tensors;
  for (const TensorDecl& t : m.inputs) tensors.push_back(&t);
  tensors.push_back(&m.output());
  for (const TensorDecl* t : tensors) {
    if (t->scaled.value)
      diags.report(RuleId::C407, t->scaled.span,
                   fmt::format("`{}` is `{}`; per-tensor scales dequantize FP8 operands only", t->name.value,
                               dtype_name(t->dtype.value)),
                   "remove `scaled`");
    if (t->padded.value)
      diags.report(
          RuleId::C415, t->padded.span,
          fmt::format("`pad` copies a GEMM's or a convolution's operands; a `{}` reads `{}` where it is",
                      op_name(m.op.value), t->name.value),
          "remove `pad`");
    if (t->fold.value)
      diags.report(RuleId::C425, t->fold.span,
                   fmt::format("`fold` unrolls a convolution's filter taps; `{}` has none", t->name.value),
                   "remove `fold(...)`");
  }
}

/// C409: the C entry (abi/kernel_abi.h's ucut_memop_args) carries at most UCUT_MAX_MEMOP_TENSORS caller tensors,
/// UCUT_MAX_SCALARS scalars and UCUT_MAX_MEMOP_EXTENTS extent symbols.
void check_abi_limits(const MemOpConfig& m, DiagEngine& diags) {
  const size_t tensors = m.caller_inputs().size(), extents = m.extent_symbols().size();
  if (tensors <= UCUT_MAX_MEMOP_TENSORS && m.scalars.size() <= UCUT_MAX_SCALARS && extents <= UCUT_MAX_MEMOP_EXTENTS)
    return;
  Span at = tensors > UCUT_MAX_MEMOP_TENSORS ? m.inputs[UCUT_MAX_MEMOP_TENSORS].span
            : m.scalars.size() > UCUT_MAX_SCALARS ? m.scalars[UCUT_MAX_SCALARS].span
                                                   : m.output().span;
  diags.report(RuleId::C409, at,
               fmt::format("`{}` has {} input tensors, {} scalars and {} extent symbols; the kernel ABI "
                           "(ucut_memop_args) carries at most {}, {} and {}",
                           m.name.value, tensors, m.scalars.size(), extents, UCUT_MAX_MEMOP_TENSORS,
                           UCUT_MAX_SCALARS, UCUT_MAX_MEMOP_EXTENTS),
               "split the kernel in two, or fold tensors together (one tensor of two extents for two vectors)");
}

}  // namespace

void check(const MemOpConfig& m, DiagEngine& diags) {
  check_abi_limits(m, diags);
  check_target(m, diags);
  check_modifiers(m, diags);
  if (m.library) return rules::check_library(m, diags);  // the library launches its own kernels
  if (m.sparse) {  // its operands' extents and its launch knobs are C717–C719's (memop_sparse_rules.cpp)
    check_chain(m, diags);
    check_launch(m, diags);
    if (rules::check_sparse(m, diags) && sparse_is_spmm(m)) check_vector(m, diags);
    return;
  }
  if (!m.window) check_broadcast(m, diags);  // a window's extents are C711's
  check_chain(m, diags);
  if (!m.window) check_vector(m, diags);  // a window moves no vectors (C714)
  check_launch(m, diags);
  if (m.reduce) rules::check_reduce(m, diags);
  if (m.norm) rules::check_rownorm(m, diags);
  if (m.scan) rules::check_scan(m, diags);
  if (m.window) rules::check_window(m, diags);
  rules::check_views(m, diags);
  if (m.rotary) rules::check_rotary(m, diags);
}

}  // namespace ucut
