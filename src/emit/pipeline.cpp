// emit/pipeline.cpp — see pipeline.h.
#include "emit/pipeline.h"

#include <fmt/format.h>

#include <algorithm>
#include <regex>

#include "emit/abi_wrapper.h"
#include "emit/cpp_writer.h"
#include "emit/memory/registry.h"
#include "emit/template_paste.h"
#include "ir/canonical.h"
#include "support/error.h"
#include "support/version.h"

namespace ucut {
namespace {

std::string_view elem(std::optional<DType> t) {
  if (!t) return "ucut_elem_none";
  switch (*t) {
    case DType::f32: return "ucut_elem_f32";
    case DType::f16: return "ucut_elem_f16";
    case DType::bf16: return "ucut_elem_bf16";
    default: return "ucut_elem_none";  // check's C504 admits no other conversion
  }
}

int bytes(const TensorDecl& t) { return dtype_bits(t.dtype.value) / 8; }

std::string stage_namespace(const PipelineStage& s) {
  return s.is_family() ? memop_namespace(*s.family) : kernel_namespace(s.config);
}

/// The product of a family stage's tensor's extents in C++: a fixed size, or the caller's extent by its slot.
std::string elements_code(const MemOpConfig& m, const TensorDecl& t) {
  const std::vector<std::string> symbols = m.extent_symbols();
  std::string out;
  for (const Extent& e : t.dims) {
    std::string factor = std::to_string(e.size);
    if (!e.fixed()) {
      auto at = std::find(symbols.begin(), symbols.end(), e.symbol);
      UC_ASSERT(at != symbols.end()) << "extent `" << e.symbol << "` is no run-time extent (C506)";
      factor = fmt::format("a.extents[{}]", at - symbols.begin());
    }
    out += (out.empty() ? "int64_t(" + factor + ")" : " * " + factor);
  }
  return out.empty() ? "1" : out;
}

/// The elements of a window stage's output in C++: its windowed extents derived from the stage's extents and
/// run-time ints (window_out_extent_code, each `n_NAME` the caller's value by its slot), the others the input's.
std::string window_elements_code(const MemOpConfig& m) {
  const std::vector<std::string> symbols = m.extent_symbols();
  const std::regex name(R"(\bn_([A-Za-z_][A-Za-z0-9_]*))");
  auto slotted = [&](const std::string& code) {
    std::string out;
    auto at = code.cbegin();
    for (std::sregex_iterator it(code.begin(), code.end(), name), end; it != end; ++it) {
      auto slot = std::find(symbols.begin(), symbols.end(), (*it)[1].str());
      UC_ASSERT(slot != symbols.end()) << "window size `" << (*it)[1].str() << "` is no run-time extent";
      out.append(at, (*it)[0].first).append(fmt::format("a.extents[{}]", slot - symbols.begin()));
      at = (*it)[0].second;
    }
    return out.append(at, code.cend());
  };
  const std::vector<size_t> dims = window_dims(m);
  const bool derived = m.window->taps.value == WindowTaps::box && m.window->edge.value != WindowEdge::copy;
  std::string out;
  for (size_t d = 0; d < m.input().dims.size(); ++d) {
    const Extent& e = m.input().dims[d];
    auto k = std::find(dims.begin(), dims.end(), d);
    std::string factor = e.fixed() ? std::to_string(e.size) : slotted("n_" + e.symbol);
    if (derived && k != dims.end()) factor = "(" + slotted(window_out_extent_code(m, size_t(k - dims.begin()))) + ")";
    out += (out.empty() ? "int64_t(" + factor + ")" : " * " + factor);
  }
  return out.empty() ? "1" : out;
}

/// kLinks and the element counts of the family stages' outputs and linked inputs.
void write_family_tables(CppWriter& w, const PipelineConfig& p) {
  size_t links = 0;
  for (const PipelineStage& s : p.stages) links += s.links.size();
  w.line(fmt::format("constexpr int kLinkCount = {};", links));
  if (links == 0) {
    w.line("const ucut_family_link* const kLinks = nullptr;");
  } else {
    w.open("const ucut_family_link kLinks[] =");
    for (size_t i = 0; i < p.stages.size(); ++i)
      for (const FamilyLink& l : p.stages[i].links)
        w.line(fmt::format("{{{}, {}, {}, {}, {}}},", i, l.caller, l.producer, int(l.view),
                           cpp_string_literal(p.stages[i].family->inputs[l.input].name.value)));
    w.close("};");
  }
  w.line();
  w.comment("The elements of family stage s's output, from its extents (0 for a GEMM or convolution stage).");
  w.open("inline int64_t ucut_family_output_elements(int s, const ucut_memop_args& a)");
  w.line("(void)a;");
  w.line("switch (s) {");
  for (size_t i = 0; i < p.stages.size(); ++i)
    if (p.stages[i].is_family() && p.intermediate(i))
      w.line(fmt::format("  case {}: return {};", i,
                         p.stages[i].family->window ? window_elements_code(*p.stages[i].family)
                                                    : elements_code(*p.stages[i].family, p.stages[i].output())));
  w.line("  default: return 0;");
  w.line("}");
  w.close();
  w.comment("The elements linked input l reads, from its stage's extents.");
  w.open("inline int64_t ucut_link_elements(int l, const ucut_memop_args& a)");
  w.line("(void)a;");
  w.line("switch (l) {");
  size_t l = 0;
  for (const PipelineStage& s : p.stages)
    for (const FamilyLink& link : s.links)
      w.line(fmt::format("  case {}: return {};", l++, elements_code(*s.family, s.family->inputs[link.input])));
  w.line("  default: return 0;");
  w.line("}");
  w.close();
}

/// A family stage's row of kStages: its kernel, its output's type and size; no operands.
std::string family_desc(const PipelineConfig& p, size_t i) {
  const PipelineStage& s = p.stages[i];
  const TensorDecl& out = s.output();
  return fmt::format("{{nullptr, {}_api, {}, 0, {{-1, -1}}, {}, {{ucut_elem_none, ucut_elem_none}}, "
                     "{{ucut_elem_none, ucut_elem_none}}, {}, 1, 1, 1, {{0, 0, {}}}}},",
                     memop_namespace(*s.family), cpp_string_literal(s.name().value), int(p.intermediate(i)),
                     elem(out.dtype.value), bytes(out));
}

void write_tables(CppWriter& w, const PipelineConfig& p) {
  w.line(fmt::format("constexpr int kStageCount = {};", p.stages.size()));
  w.open("const ucut_stage_desc kStages[] =");
  for (size_t i = 0; i < p.stages.size(); ++i) {
    const PipelineStage& s = p.stages[i];
    if (s.is_family()) {
      w.line(family_desc(p, i));
      continue;
    }
    const KernelConfig& c = s.config;
    auto operand = [&](size_t which) { return elem((which == 0 ? c.a : c.b).dtype.value); };
    w.line(fmt::format("{{{}_api, nullptr, {}, {}, {{{}, {}}}, {}, {{{}, {}}}, {{{}, {}}}, {}, {}, {}, {}, {{{}, {}, {}}}}},",
                       kernel_namespace(c), cpp_string_literal(c.name.value), conv_abi_code(c.op.value),
                       s.inputs[0].producer,
                       s.inputs[1].producer, int(p.intermediate(i)), elem(s.inputs[0].caller_dtype),
                       elem(s.inputs[1].caller_dtype),
                       operand(0), operand(1), elem(c.output().dtype.value),
                       int(c.output().layout.value == Layout::row), int(c.a.layout.value == Layout::row),
                       int(c.b.layout.value == Layout::row), bytes(c.a), bytes(c.b), bytes(c.output())));
  }
  w.close("};");
  std::string names;
  for (const PipelineStage& s : p.stages) names += (names.empty() ? "" : ", ") + cpp_string_literal(s.output().name.value);
  w.line(fmt::format("const char* const kTensorName[] = {{{}}};", names));
  write_family_tables(w, p);
}

}  // namespace

EmittedKernel emit_pipeline(const SourceFile& src, const PipelineConfig& p) {
  EmittedKernel out;
  out.config_hash = pipeline_hash(p);
  out.kernel_namespace = pipeline_namespace(p);
  out.gencode = p.stages.front().is_family() ? gencode_for(p.arch.value) : gencode_for(p.stages.front().config);
  CppWriter w;
  w.comment(fmt::format("Generated by ucutlass {} from pipeline `{}`. Do not edit: change the spec and recompile.",
                        UCUTLASS_VERSION, p.name.value));
  w.comment(fmt::format("pipeline sha256 {}", out.config_hash));
  w.comment(fmt::format("build: nvcc -std=c++17 --expt-relaxed-constexpr -O3 -DNDEBUG -gencode {} "
                        "-I$CUTLASS/include -I$CUTLASS/tools/util/include",
                        out.gencode));
  w.comment("The stages' kernels follow, each as its own backend emits it; the pipeline, not they, exports the");
  w.comment("library's entry point.");
  w.line("#ifdef UCUT_DEFINE_ENTRY");
  w.line("#define UCUT_DEFINE_PIPELINE_ENTRY");
  w.line("#undef UCUT_DEFINE_ENTRY");
  w.line("#endif");
  w.line();
  std::string code = w.str();
  // Stages store differently named outputs (L018), so their configurations, and namespaces, differ.
  for (const PipelineStage& s : p.stages) {
    code += fmt::format("\n// ==== stage `{}`: {} ====\n", s.name().value, stage_namespace(s));
    code += s.is_family() ? emit_memop(src, *s.family).code : backend_for(s.config)->emit(src, s.config).code;
  }
  CppWriter tail;
  tail.line();
  tail.comment(fmt::format("==== pipeline `{}` ====", p.name.value));
  for (const char* inc : {"<cuda_bf16.h>", "<cuda_fp16.h>", "<new>", "<type_traits>"})
    tail.line(fmt::format("#include {}", inc));
  tail.line();
  tail.open(fmt::format("namespace {}", out.kernel_namespace));
  paste_template(tail, "convert_runtime.inc");
  tail.line();
  paste_template(tail, "pipeline_runtime.inc");
  tail.line();
  write_tables(tail, p);
  tail.line();
  paste_template(tail, "pipeline_api.inc");
  tail.line();
  std::string apis, memop_apis;
  for (const PipelineStage& s : p.stages) {
    apis += (apis.empty() ? "" : ", ") + (s.is_family() ? "nullptr" : fmt::format("&{}::kApi", stage_namespace(s)));
    memop_apis +=
        (memop_apis.empty() ? "" : ", ") + (s.is_family() ? fmt::format("&{}::kMemopApi", stage_namespace(s)) : "nullptr");
  }
  tail.line(fmt::format("const ucut_kernel_api* const kStageApis[] = {{{}}};", apis));
  tail.line(fmt::format("const ucut_memop_api* const kMemopStageApis[] = {{{}}};", memop_apis));
  tail.line(fmt::format("const char kName[] = {};", cpp_string_literal(p.name.value)));
  tail.line(fmt::format("const char kConfig[] = {};", cpp_string_literal(canonical_pipeline(p).dump())));
  tail.line(fmt::format("const char kSpec[] = {};", cpp_string_literal(src.text())));
  tail.line("const ucut_pipeline_api kPipelineApi = {UCUT_ABI_VERSION, kName, kConfig, kSpec, kStageCount, kStageApis,");
  tail.line("                                        kMemopStageApis,");
  tail.line("                                        can_implement, workspace_size, prepare, launch, release};");
  tail.close(fmt::format("}}  // namespace {}", out.kernel_namespace));
  tail.line();
  tail.line(fmt::format("extern \"C\" const ucut_pipeline_api* {}_api(void) {{ return &{}::kPipelineApi; }}",
                        out.kernel_namespace, out.kernel_namespace));
  tail.line("#ifdef UCUT_DEFINE_PIPELINE_ENTRY");
  tail.line(fmt::format("extern \"C\" __attribute__((visibility(\"default\"))) const ucut_pipeline_api* "
                        "ucut_pipeline_entry(void) {{ return {}_api(); }}",
                        out.kernel_namespace));
  tail.line("#endif");
  out.code = code + tail.str();
  return out;
}

}  // namespace ucut
