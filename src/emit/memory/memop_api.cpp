// emit/memory/memop_api.cpp — see memop_api.h.
#include "emit/memory/memop_api.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "emit/cpp_writer.h"
#include "emit/template_paste.h"

namespace ucut {
namespace {

/// `const char* const NAME[] = {...};`, or a null pointer constant for an empty list (C++ has no empty arrays).
void write_names(CppWriter& w, const std::string& name, const std::vector<std::string>& items) {
  if (items.empty()) {
    w.line(fmt::format("const char* const* const {} = nullptr;", name));
    return;
  }
  std::vector<std::string> quoted;
  for (const std::string& s : items) quoted.push_back(cpp_string_literal(s));
  w.line(fmt::format("const char* const {}[] = {{{}}};", name, fmt::join(quoted, ", ")));
}

}  // namespace

const char* memop_run_function(const MemOpConfig& m) {
  return m.reduce    ? "run_reduce"
         : m.norm    ? "run_rownorm"
         : m.scan    ? "run_scan"
         : m.window  ? "run_window"
         : m.library ? "run_library"
         : m.sparse  ? "run_sparse"
                     : "run_map";
}

std::string memop_api_block(const SourceFile& src, const MemOpConfig& m, const std::string& ns) {
  const std::vector<CallerTensor> callers = m.caller_inputs();
  const std::vector<std::string> extents = m.extent_symbols();
  CppWriter w;
  w.line();
  w.comment(fmt::format("---- C entry: abi/kernel_abi.h's ucut_memop_api over {} ----", memop_run_function(m)));
  paste_template(w, "kernel_abi.h");
  w.line();
  w.open(fmt::format("namespace {}", ns));
  w.open("int memop_launch(const ucut_memop_args* a, void* stream, char* err, size_t err_len)");
  std::vector<std::string> args;
  for (size_t c = 0; c < callers.size(); ++c)
    args.push_back(fmt::format("static_cast<const ElementIn{}*>(a->inputs[{}])", c, c));
  const std::vector<const TensorDecl*> outs = m.outputs();
  for (size_t o = 0; o < outs.size(); ++o)
    args.push_back(fmt::format("static_cast<ElementOut{}*>(a->outputs[{}])", o == 0 ? "" : std::to_string(o), o));
  for (size_t s = 0; s < m.scalars.size(); ++s) args.push_back(fmt::format("a->scalars[{}]", s));
  for (size_t e = 0; e < extents.size(); ++e) args.push_back(fmt::format("a->extents[{}]", e));
  args.push_back("static_cast<cudaStream_t>(stream)");
  args.push_back("err");
  args.push_back("err_len");
  w.line(fmt::format("return {}({});", memop_run_function(m), fmt::join(args, ", ")));
  w.close();
  std::vector<std::string> inputs, scalars;
  for (const CallerTensor& c : callers) inputs.push_back(c.name);
  for (const ScalarDecl& s : m.scalars) scalars.push_back(s.name.value);
  write_names(w, "kMemopInputs", inputs);
  write_names(w, "kMemopScalars", scalars);
  write_names(w, "kMemopExtents", extents);
  w.line(fmt::format("const char kMemopName[] = {};", cpp_string_literal(m.name.value)));
  w.line(fmt::format("const char kMemopConfig[] = {};", cpp_string_literal(canonical_memop(m).dump())));
  w.line(fmt::format("const char kMemopSpec[] = {};", cpp_string_literal(src.text())));
  std::vector<std::string> outputs;
  for (const TensorDecl* t : outs) outputs.push_back(t->name.value);
  write_names(w, "kMemopOutputs", outputs);
  w.line(fmt::format("const ucut_memop_api kMemopApi = {{UCUT_ABI_VERSION, kMemopName, kMemopConfig, kMemopSpec, {}, "
                     "{}, {}, {},",
                     callers.size(), outs.size(), m.scalars.size(), extents.size()));
  w.line("                                    kMemopInputs, kMemopOutputs, kMemopScalars, kMemopExtents, "
         "memop_launch};");
  w.close(fmt::format("}}  // namespace {}", ns));
  w.line();
  w.line(fmt::format("extern \"C\" const ucut_memop_api* {0}_api(void) {{ return &{0}::kMemopApi; }}", ns));
  w.line("#ifdef UCUT_DEFINE_ENTRY");
  w.line(fmt::format("extern \"C\" __attribute__((visibility(\"default\"))) const ucut_memop_api* "
                     "ucut_memop_entry(void) {{ return {}_api(); }}",
                     ns));
  w.line("#endif");
  return w.str();
}

}  // namespace ucut
