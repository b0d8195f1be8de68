// engine/search/seed_pipeline.cpp — seed_spec.h's pipeline_seed_spec: the pipeline problem's own spec (suite/
// lower_pipeline.h writes it with every stage at its defaults), edited in place — the GEMM stages' call made exact
// FP32, the first convolution's X and W padded — then compiled and matched against the problem like any candidate.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "compiler/pipeline.h"
#include "engine/search/seed_spec.h"
#include "problem/match.h"

namespace ucut::search {
namespace {

/// A GEMM stage at exact FP32: 3xTF32 (each f32 operand split into TF32 high and low parts, three products) in the
/// call, on the CUTLASS 2.x multistage kernel with its default 2.x tile and stages after it.
constexpr std::string_view kExactMath = ", math = tf32x3";
constexpr std::string_view kExactKernel =
    "\n      .with_threadblockshape(64, 128, 32).with_scheduler(multistage).with_stages(3)";

/// Text to insert at byte offsets of the spec: applied from the last offset back, so earlier offsets stay valid.
using Inserts = std::map<uint32_t, std::string>;

std::string with_inserts(std::string text, const Inserts& at) {
  for (auto it = at.rbegin(); it != at.rend(); ++it) text.insert(it->first, it->second);
  return text;
}

/// The f32 GEMM stages: the exact math before the call's closing parenthesis (after its accumulator), the kernel
/// after it. Whether any was edited.
bool exact_gemm_stages(const PipelineConfig& p, const std::string& text, Inserts& at) {
  bool any = false;
  for (const PipelineStage& st : p.stages) {
    const KernelConfig& k = st.config;
    if (st.is_family() || k.conv() || k.a.dtype.value != DType::f32 || k.b.dtype.value != DType::f32) continue;
    const size_t close = text.find(')', k.acc.span.end);
    if (close == std::string::npos) continue;
    at[uint32_t(close)] = kExactMath;
    at[uint32_t(close) + 1] = kExactKernel;
    any = true;
  }
  return any;
}

/// The first stage, when it is a dense convolution whose input channels (a forward one's C, a transposed one's X
/// channels) break 16-byte rows on some shape: `align(1) pad` on X and W, a forward one's X with `fold` (C415,
/// C425). Whether it was padded.
bool pad_first_convolution(const Problem& problem, const PipelineConfig& p, Inserts& at) {
  const KernelConfig& k = p.stages.front().config;
  if (p.stages.front().is_family() || !k.conv() || op_conv_grouping(k.op.value) != ConvGrouping::dense) return false;
  const ConvKind kind = op_conv_kind(k.op.value);
  if (kind != ConvKind::fprop && kind != ConvKind::dgrad) return false;
  std::vector<GemmShape> shapes;
  for (const GemmShape& s : problem.shapes) shapes.push_back(s.stages.front());
  const int per16 = 128 / dtype_bits(k.a.dtype.value);
  auto breaks_rows = [&](const GemmShape& s) { return (kind == ConvKind::fprop ? s.conv.c : s.conv.k) % per16 != 0; };
  if (std::none_of(shapes.begin(), shapes.end(), breaks_rows)) return false;
  const int fold = kind == ConvKind::fprop ? seed_fold(k, shapes) : 0;
  at[k.a.span.end] = fold ? fmt::format(" align(1) pad fold({})", fold) : " align(1) pad";
  at[k.b.span.end] = " align(1) pad";
  return true;
}

/// `seed_pipeline_<stage ops>`, e.g. seed_pipeline_gemm_rownorm: nothing in the seed names its problem, so problems
/// with the same pipeline get the same text and share their builds.
std::string seed_pipeline_name(const PipelineConfig& p) {
  std::string name = "seed_pipeline";
  for (const PipelineStage& st : p.stages)
    name += "_" + std::string(op_name(st.is_family() ? st.family->op.value : st.config.op.value));
  return name;
}

}  // namespace

std::variant<SeedSpec, std::string> pipeline_seed_spec(const Problem& lowered, const std::string& arch) {
  if (!lowered.pipeline || lowered.pipeline_text.empty()) return std::string("not a pipeline problem");
  const PipelineConfig& p = *lowered.pipeline;
  const std::string target(arch_info(p.arch.value).name);
  if (target != arch) return fmt::format("the pipeline problem's spec targets `{}`, not `{}`", target, arch);
  Inserts at;
  const bool exact = exact_gemm_stages(p, lowered.pipeline_text, at);
  const bool padded = pad_first_convolution(lowered, p, at);
  // The lowering's header comment names the problem file's path: the seed says what it is instead, so problems with
  // the same pipeline get the same text (and share their builds) wherever they were lowered.
  std::string body = with_inserts(lowered.pipeline_text, at);  // every insert lies after the name
  const std::string name = seed_pipeline_name(p);
  body.replace(p.name.span.begin, p.name.span.end - p.name.span.begin, name);
  while (body.starts_with("#")) body.erase(0, std::min(body.size(), body.find('\n') + 1));
  SeedSpec seed{"", name,
                fmt::format("the problem's pipeline of {} stages{}{}, every other stage at its defaults",
                            p.stages.size(),
                            exact ? ", its f32 GEMM stages exact (3xTF32 on the CUTLASS 2.x multistage kernel)" : "",
                            padded ? ", the first convolution's input channels padded" : "")};
  seed.spec = "# Generated by ucutlass: a pipeline problem's starting spec (engine/search/seed_spec.h), " + seed.note +
              ".\n" + body;
  Compilation c = compile_spec(SourceFile("seed.ucut", seed.spec), StopAfter::check);
  for (const Diagnostic& d : c.diags.diagnostics())
    if (d.severity == Severity::error)
      return fmt::format("the pipeline seed does not check: {}: {}", rule_info(d.rule).code, d.message);
  if (!c.pipeline) return std::string("the pipeline seed did not lower to a pipeline");
  if (auto why = pipeline_mismatch(lowered, *c.pipeline)) return "the pipeline seed computes something else: " + *why;
  return seed;
}

}  // namespace ucut::search
