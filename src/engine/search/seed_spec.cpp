// engine/search/seed_spec.cpp — see seed_spec.h. Each operator has a short ordered list of default configs
// (plans); each is written as a spec with the harness problem's operands and chain, given the alignments the
// problem's shapes allow, and judged by the compiler's own check and the harness's own problem checks. The first
// that passes is the seed; when none does, every plan's first failure is the reason.
#include "engine/search/seed_spec.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>
#include <utility>
#include <vector>

#include "check/shape_rules.h"
#include "compiler/pipeline.h"
#include "dsl/ast_print.h"
#include "engine/search/model.h"
#include "engine/search/space.h"
#include "problem/conv_abi.h"
#include "problem/match.h"
#include "problem/problem.h"

namespace ucut::search {
namespace {

/// One default config to try.
struct Plan {
  std::string kernel;                         // what runs, for the note and for reasons
  std::optional<std::string_view> scheduler;  // `.with_scheduler(...)`; nullopt: the target's default
  std::optional<MathMode> math;               // stated for f32 operands
  std::array<int, 3> tile;
};

/// The SM90 kernel's tile N: 128, or for an implicit GEMM whose N (output channels) is at most 32 or 64 on every
/// shape, the smallest of those that covers it, so that no MMA column and epilogue lane works on padding.
int sm90_tile_n(const KernelConfig& sem, const std::vector<GemmShape>& shapes) {
  if (!sem.conv()) return 128;
  int64_t widest = 0;
  for (const GemmShape& s : shapes) widest = std::max(widest, s.n);
  return widest <= 32 ? 32 : widest <= 64 ? 64 : 128;
}

/// A dense forward convolution whose input channels break TMA's 16-byte rows on some shape: its seed pads X and W.
bool needs_channel_padding(const KernelConfig& sem, const std::vector<GemmShape>& shapes) {
  if (op_conv_kind(sem.op.value) != ConvKind::fprop || op_conv_grouping(sem.op.value) != ConvGrouping::dense ||
      !sem.conv())
    return false;
  int per16 = 128 / dtype_bits(sem.a.dtype.value);
  return std::any_of(shapes.begin(), shapes.end(), [&](const GemmShape& s) { return s.conv.c % per16 != 0; });
}

/// The SM90 kernel's tile K: 128 bytes of K, or for a forward convolution whose K steps cover fewer channels on
/// every shape (C, or what `fold` unrolls into it, rounded up to 16 bytes), the smallest power of two that holds
/// them and two wgmma K steps (64 bytes, the least tile K, C203): the rest of the tile would multiply zeros.
int sm90_tile_k(const KernelConfig& sem, const std::vector<GemmShape>& shapes, int fold) {
  int bits = dtype_bits(sem.a.dtype.value);
  int full = 1024 / bits, per16 = 128 / bits, mma_k = 512 / bits;
  if (!sem.conv() || op_conv_kind(sem.op.value) != ConvKind::fprop) return full;
  int64_t widest = 0;
  for (const GemmShape& s : shapes) widest = std::max(widest, copied_channels(s.conv, fold, per16));
  int k = mma_k;
  while (k < widest && k < full) k *= 2;
  return k;
}

/// The plans for `sem` (the harness problem's semantics) in order of preference. `taps` is a depthwise filter's
/// R·S; `tile_n` and `tile_k` the SM90 kernel's tile N and K. A forward convolution that is `pointwise` (as it
/// stands, or once its `fold` copy has unrolled every spatial dimension) first tries the persistent GEMM kernel
/// (KernelConfig::conv_as_gemm; on the H200 it beat the implicit-GEMM kernel on both such problems, docs/engine.md). f32 operands get TF32 only where the problem accepts
/// it (its `math`, or `tf32_tolerated`: its tolerance admits TF32, a labelled precision change); an exact-f32
/// problem gets 3xTF32 or SIMT f32, both FP32-accurate.
std::vector<Plan> plans(const KernelConfig& sem, bool hopper, int taps, int tile_n, int tile_k, bool tf32_tolerated,
                        bool pointwise) {
  DType t = sem.a.dtype.value;
  bool f32 = t == DType::f32, conv = sem.conv();
  ConvGrouping grouping = op_conv_grouping(sem.op.value);
  auto multistage = hopper ? std::optional<std::string_view>("multistage") : std::nullopt;
  if (grouping == ConvGrouping::depthwise)
    return {{"CUTLASS's direct convolution (exact f32 on CUDA cores)", std::nullopt, std::nullopt, {64, 64, taps}}};
  int bits = dtype_bits(t);
  int k_tma = 1024 / bits;         // 128 bytes of K per stage: 64 (16-bit), 32 (tf32), 128 (8-bit)
  int k_2x = bits == 8 ? 64 : 32;  // the 2.x tile table's K for 16-bit, tf32 and 8-bit operands
  std::optional<MathMode> tf32 = f32 ? std::optional<MathMode>(MathMode::tf32) : std::nullopt;
  std::array<int, 3> tile_2x = {128, conv ? 64 : 128, k_2x};
  std::vector<Plan> out;
  if (f32 && sem.math.value == MathMode::native && !tf32_tolerated) {
    out.push_back({"the CUTLASS 2.x multistage kernel with 3xTF32 (FP32-level accuracy; the problem is exact f32)",
                   multistage, MathMode::tf32x3, tile_2x});
  } else {
    if (hopper && grouping == ConvGrouping::dense) {
      if (conv && pointwise)
        out.push_back({"the SM90 persistent cooperative GEMM (the convolution is pointwise: pixels x channels)",
                       "tma_cooperative", tf32, {128, tile_n, tile_k}});
      out.push_back({"the SM90 TMA kernel with its default schedule", std::nullopt, tf32, {128, tile_n, tile_k}});
      if (!conv)
        out.push_back({"the SM90 wgmma kernel fed by cp.async (rows not 16-byte aligned)", "cp_async_cooperative",
                       tf32, {128, 128, k_tma}});
    }
    out.push_back({"the CUTLASS 2.x multistage kernel", multistage, tf32, tile_2x});
    if (grouping == ConvGrouping::grouped)
      out.push_back({"the CUTLASS 2.x multistage kernel (wider N for whole groups)", multistage, tf32,
                     {128, 128, k_2x}});
    if (f32 && sem.math.value == MathMode::native)
      out.push_back({"the CUTLASS 2.x multistage kernel with 3xTF32", multistage, MathMode::tf32x3, tile_2x});
  }
  if (f32)
    out.push_back({"the CUTLASS 2.x SIMT kernel (exact f32 on CUDA cores)", multistage, MathMode::native,
                   {128, 128, 8}});
  return out;
}

/// What every plan's spec shares: the kernel's name and target, the harness problem's semantics, its chain and each
/// operand's extents. Nothing names the problem itself: problems with the same semantics (and, for a convolution, the
/// same tile N) get the same text, so their candidates are the same kernels, built once (the build cache keys on the
/// emitted code, which embeds the text).
struct Seed {
  std::string name, arch;
  const KernelConfig* sem = nullptr;
  std::string chain;                          // the harness problem's epilogue, verbatim
  std::array<std::vector<std::string>, 3> dims;  // a, b, d
};

std::array<const TensorDecl*, 3> tensors(const KernelConfig& k) { return {&k.a, &k.b, &k.output()}; }
std::array<TensorDecl*, 3> tensors(KernelConfig& k) { return {&k.a, &k.b, &*k.epilogue.back().tensor}; }

/// `A: f32[M,K] row align(1)`: a GEMM operand states its layout; a convolution's is channels-last, the default.
std::string operand(const TensorDecl& t, bool conv, const std::vector<std::string>& dims, int align, bool pad,
                    int fold = 0) {
  std::string s = fmt::format("{}: {}[{}]", t.name.value, dtype_name(t.dtype.value), fmt::join(dims, ","));
  if (!conv) s += fmt::format(" {}", layout_name(t.layout.value));
  if (align) s += fmt::format(" align({})", align);
  if (pad) s += " pad";
  if (fold) s += fmt::format(" fold({})", fold);
  if (t.scaled.value) s += " scaled";
  return s;
}

/// The note: the plan's kernel, and the operands whose rows force a smaller alignment (and whether the kernel pads
/// them).
std::string note(const Seed& s, const Plan& p, const std::array<int, 3>& align, bool pad_channels, int fold) {
  std::vector<std::string> narrowed;
  auto decls = tensors(*s.sem);
  for (size_t i = 0; i < 3; ++i)
    if (align[i]) narrowed.push_back(fmt::format("{} align({})", decls[i]->name.value, align[i]));
  if (narrowed.empty()) return p.kernel;
  return fmt::format("{}; {}: the problem's extents are not multiples of 16 bytes there{}", p.kernel,
                     fmt::join(narrowed, ", "),
                     pad_channels ? fmt::format(" (`pad`: the kernel copies {} and {} with their channels padded{})",
                                                decls[0]->name.value, decls[1]->name.value,
                                                fold ? fmt::format(", {} filter dimension{} unrolled into them", fold,
                                                                   fold == 1 ? "" : "s")
                                                     : "")
                                  : "");
}

/// The spec of plan `p`; `align[i]` > 0 states tensor i's alignment (a, b, d); `pad_channels` pads a convolution's
/// X and W, `fold` unrolls that many filter dimensions into their channels.
std::string render(const Seed& s, const Plan& p, const std::array<int, 3>& align, bool pad_channels = false,
                   int fold = 0) {
  const KernelConfig& k = *s.sem;
  bool conv = k.conv();
  auto decls = tensors(k);
  std::string acc = dtype_kind(k.a.dtype.value) == DTypeKind::int_ ? "i32" : "f32";
  std::string math = p.math ? fmt::format(", math = {}", math_name(*p.math)) : "";
  std::string text = fmt::format("# Generated by ucutlass from the problem's semantics\n# Config: {}\nkernel {} : {}\n",
                                 note(s, p, align, pad_channels, fold), s.name, s.arch);
  text += fmt::format("  {}({}, {}, acc: {}{})\n", op_name(k.op.value),
                      operand(*decls[0], conv, s.dims[0], align[0], pad_channels, fold),
                      operand(*decls[1], conv, s.dims[1], align[1], pad_channels), acc, math);
  text += fmt::format("    .with_threadblockshape({}, {}, {})\n", p.tile[0], p.tile[1], p.tile[2]);
  if (p.scheduler) text += fmt::format("    .with_scheduler({})\n", *p.scheduler);
  if (!s.chain.empty()) text += fmt::format("  >> {}\n", s.chain);
  text += fmt::format("  >> store({})\n", operand(*decls[2], conv, s.dims[2], align[2], false));
  return text;
}

/// The spec's config lowered (and checked, unless `stop` is earlier), or its first error as `C204: message`.
std::variant<KernelConfig, std::string> compile(const std::string& text, const std::string& name, StopAfter stop) {
  Compilation c = compile_spec(SourceFile(name, text), stop);
  for (const Diagnostic& d : c.diags.diagnostics())
    if (d.severity == Severity::error) return fmt::format("{}: {}", rule_info(d.rule).code, d.message);
  if (!c.config) return std::string("the spec did not lower to one kernel");
  return *c.config;
}

/// Why `cfg` does not run harness problem `problem`, or nullopt; a TF32 precision change only when the tolerance
/// does not admit it.
std::optional<std::string> mismatch(const KernelConfig& cfg, const Problem& problem) {
  if (auto why = semantic_mismatch(problem, cfg)) return why;
  for (const GemmShape& shape : problem.shapes)
    if (auto why = shape_violation(cfg, shape)) return fmt::format("shape {}: {}", shape.label, why->message);
  if (!precision_admitted(problem, cfg))
    return fmt::format("it multiplies in {}, below the problem's precision", multiply_precision(cfg));
  return std::nullopt;
}

/// The largest alignment, at most what `cfg` declares, that tensor `i` (a, b, d) keeps on every shape, the other
/// two at 1; 0 when the declared one holds or none helps (a violation that is not about alignment).
int narrowed_align(KernelConfig cfg, size_t i, const std::vector<GemmShape>& shapes) {
  auto decls = tensors(cfg);
  int declared = decls[i]->align.value;
  for (TensorDecl* t : decls) t->align.value = 1;
  for (int a = declared; a >= 1; a /= 2) {
    decls[i]->align.value = a;
    bool holds = true;
    for (const GemmShape& shape : shapes) holds = holds && !shape_violation(cfg, shape);
    if (holds) return a == declared ? 0 : a;
  }
  return 0;
}

/// `seed_gemm_f32_rc`: the operator, A's element type and, for a GEMM, the layouts of A and B (r, c).
std::string identifier(const KernelConfig& sem) {
  std::string id = fmt::format("seed_{}_{}", op_name(sem.op.value), dtype_name(sem.a.dtype.value));
  if (!sem.conv())
    id += fmt::format("_{}{}", layout_name(sem.a.layout.value)[0], layout_name(sem.b.layout.value)[0]);
  for (char& ch : id)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return id;
}

/// Each operand's extents as the harness problem declares them; a depthwise filter's spatial extents become the
/// shapes' numbers (the direct convolution compiles its filter in), or nullopt when the shapes disagree.
std::optional<std::array<std::vector<std::string>, 3>> extents(const KernelConfig& sem, const Problem& problem) {
  std::array<std::vector<std::string>, 3> out;
  auto decls = tensors(sem);
  for (size_t i = 0; i < 3; ++i)
    for (const Extent& e : decls[i]->dims) out[i].push_back(e.fixed() ? std::to_string(e.size) : e.symbol);
  if (op_conv_grouping(sem.op.value) != ConvGrouping::depthwise) return out;
  const ConvShape& first = problem.shapes.front().conv;
  for (const GemmShape& s : problem.shapes)
    if (s.conv.filter != first.filter) return std::nullopt;
  for (int d = 0; d < first.dims; ++d) out[1][1 + d] = std::to_string(first.filter[3 - first.dims + d]);
  return out;
}

}  // namespace

// `fold(n)` for a padded convolution (seed_spec.h): unroll filter dimensions, innermost first, while a K step would cover fewer
/// than 64 bytes of channels (16 f32, the least tf32 tile K), so that the tile multiplies taps rather than zeros.
int seed_fold(const KernelConfig& sem, const std::vector<GemmShape>& shapes) {
  const ConvShape& c = shapes.front().conv;
  int bits = dtype_bits(sem.a.dtype.value), fold = 0;
  for (int64_t channels = c.group_c(); fold < c.dims && channels * bits < 512; ++fold) channels *= c.filter[2 - fold];
  return fold;
}

std::variant<SeedSpec, std::string> seed_spec(const suite::Checked& checked, const Problem& lowered,
                                              const std::string& arch) {
  const suite::Problem& sp = checked.problem;
  if (arch != "sm90a" && arch != "sm80") return fmt::format("seed specs target sm90a or sm80, not `{}`", arch);
  const Problem* problem = &lowered;
  if (problem->pipeline) return pipeline_seed_spec(*problem, arch);
  if (!problem->syntax) return std::string("the problem holds no spec syntax to start from");
  const KernelConfig& sem = problem->semantics;
  auto dims = extents(sem, *problem);
  if (!dims) return std::string("the shapes have different filter sizes, and the direct convolution compiles one in");
  Seed seed{identifier(sem), arch, &sem, print_chain(problem->syntax->epilogue), *dims};
  const ConvShape& conv = problem->shapes.front().conv;
  int taps = static_cast<int>(conv.filter_taps());
  std::string spec_name = seed.name + ".ucut";
  std::vector<std::pair<std::string, std::vector<std::string>>> failures;  // each reason, with the plans it stopped
  const bool pads_channels = needs_channel_padding(sem, problem->shapes);
  const int fold = pads_channels ? seed_fold(sem, problem->shapes) : 0;
  const bool pointwise = pointwise_after_fold(problem->shapes, fold);
  for (const Plan& p : plans(sem, arch == "sm90a", taps, sm90_tile_n(sem, problem->shapes),
                              sm90_tile_k(sem, problem->shapes, fold), tf32_allowed(*problem), pointwise)) {
    auto fail = [&](const std::string& why) {
      auto same = std::find_if(failures.begin(), failures.end(), [&](const auto& f) { return f.first == why; });
      if (same == failures.end()) failures.push_back({why, {p.kernel}});
      else same->second.push_back(p.kernel);
    };
    auto first = compile(render(seed, p, {0, 0, 0}), spec_name, StopAfter::lower);
    if (const auto* why = std::get_if<std::string>(&first)) {
      fail(*why);
      continue;
    }
    KernelConfig lowered_cfg = std::get<KernelConfig>(first);
    // The GEMM schedules read X and W through the same 16-byte TMA rows, but are pointwise only on the copy this
    // first render lacks: the rows are judged on the implicit-GEMM kernel.
    if (lowered_cfg.conv_as_gemm()) lowered_cfg.kernel_schedule.value = KernelSchedule::tma_warpspecialized;
    std::array<int, 3> align{};
    for (size_t i = 0; i < 3; ++i) align[i] = narrowed_align(lowered_cfg, i, problem->shapes);
    // Channels that break X's or W's 16-byte rows: a dense forward convolution first tries padding them (C415),
    // with `fold` filter dimensions unrolled into them (C425).
    bool paddable = pads_channels && (align[0] || align[1]);
    std::optional<std::string> why;
    for (bool pad : {true, false}) {
      if (pad && !paddable) continue;
      std::string text = render(seed, p, align, pad, pad ? fold : 0);
      auto cfg = compile(text, spec_name, StopAfter::check);
      if (const auto* error = std::get_if<std::string>(&cfg)) why = *error;
      else why = mismatch(std::get<KernelConfig>(cfg), *problem);
      if (!why) return SeedSpec{text, seed.name, note(seed, p, align, pad, pad ? fold : 0)};
    }
    fail(*why);
  }
  std::vector<std::string> reasons;
  for (const auto& [why, kernels] : failures) reasons.push_back(fmt::format("{}: {}", fmt::join(kernels, ", "), why));
  return fmt::format("no default config computes `{}` ({} on {}): {}", sp.stem, op_name(sem.op.value), arch,
                     fmt::join(reasons, "; "));
}

}  // namespace ucut::search
