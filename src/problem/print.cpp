// problem/print.cpp — see print.h.
#include "problem/print.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <filesystem>

#include "dsl/ast_print.h"
#include "problem/grouped_layout.h"
#include "support/error.h"
#include "support/files.h"

namespace ucut {
namespace {

/// A TOML basic string: quotes, backslashes and control bytes escaped.
std::string toml_string(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      out += fmt::format("\\u{:04x}", static_cast<unsigned char>(c));
      continue;
    }
    out += c;
  }
  return out + "\"";
}

std::string ints(const std::array<int64_t, 3>& a, int dims) {
  return fmt::format("[{}]", fmt::join(a.begin() + (3 - dims), a.end(), ", "));
}

/// A convolution's geometry as its problem file names it: a transposed convolution (held as the data gradient of
/// its forward convolution, problem/read_shape.h) by its own input, channels and output padding.
std::string conv_text(const ConvShape& f, OpKind op) {
  static const char* const act[] = {"d", "h", "w"};
  static const char* const filt[] = {"t", "r", "s"};
  const bool transposed = f.kind == ConvKind::dgrad;
  const bool depthwise = op_conv_grouping(op) == ConvGrouping::depthwise;
  std::array<int64_t, 3> in = f.in, output_padding{0, 0, 0};
  int64_t c = f.c, k = f.k;
  if (transposed) {
    c = f.k;
    k = f.c;
    for (int i = 0; i < 3; ++i) {
      in[i] = f.out(i);
      output_padding[i] =
          f.in[i] - ((in[i] - 1) * f.stride[i] - 2 * f.pad[i] + f.dilation[i] * (f.filter[i] - 1) + 1);
    }
  }
  std::string s = fmt::format("n = {}", f.n);
  for (int i = 3 - f.dims; i < 3; ++i) s += fmt::format(", {} = {}", act[i], in[i]);
  s += fmt::format(", c = {}", c);
  if (!depthwise) s += fmt::format(", k = {}", k);
  if (f.groups > 1 && !depthwise) s += fmt::format(", groups = {}", f.groups);
  for (int i = 3 - f.dims; i < 3; ++i) s += fmt::format(", {} = {}", filt[i], f.filter[i]);
  s += fmt::format(", pad = {}, stride = {}, dilation = {}", ints(f.pad, f.dims), ints(f.stride, f.dims),
                   ints(f.dilation, f.dims));
  if (transposed) s += fmt::format(", output_padding = {}", ints(output_padding, f.dims));
  return s;
}

std::string shape_text(const GemmShape& g, OpKind op) {
  std::string s;
  if (g.is_conv()) {
    s = conv_text(g.conv, op);
  } else if (g.is_grouped()) {
    std::vector<std::string> problems;
    for (const GroupProblem& p : g.groups) problems.push_back(fmt::format("[{}, {}, {}]", p.m, p.n, p.k));
    s = fmt::format("groups = [{}]", fmt::join(problems, ", "));
  } else {
    s = fmt::format("m = {}, n = {}, k = {}", g.m, g.n, g.k);
    if (op == OpKind::batched_gemm) s += fmt::format(", batch = {}", g.batch);
  }
  if (!g.label.empty()) s += fmt::format(", label = {}", toml_string(g.label));
  return fmt::format("  {{ {} }},\n", s);
}

}  // namespace

std::string print_problem(const Problem& p) {
  UC_ASSERT(p.syntax && (!p.pipeline || !p.syntax->pipeline_problem.empty()))
      << "problem `" << p.name << "`: a pipeline problem read from a file is printed by no one: its file is its own";
  const ProblemSyntax& s = *p.syntax;
  if (p.pipeline) return s.provenance + s.pipeline_problem;
  const OpKind op = p.semantics.op.value;
  std::string out = s.provenance;
  out += fmt::format("name = {}\nop = {}\n", toml_string(p.name), toml_string(op_name(op)));
  out += fmt::format("a = {}\nb = {}\nd = {}\n", toml_string(print_tensor_type(s.a)), toml_string(print_tensor_type(s.b)),
                     toml_string(print_tensor_type(s.d)));
  out += fmt::format("math = {}\nepilogue = {}\n", toml_string(math_name(p.semantics.math.value)),
                     toml_string(print_chain(s.epilogue)));
  if (p.reference != Reference::automatic) out += fmt::format("reference = {}\n", toml_string(enum_name(p.reference)));
  if (p.tolerance_given)
    out += fmt::format("tolerance = {{ atol = {}, rtol = {} }}\n", p.tolerance.atol, p.tolerance.rtol);
  const InputDraws& d = p.framework_inputs;
  if (!d.all_signed())
    out += fmt::format("framework_inputs = {{ a = {}, b = {}, c = {}, vectors = {} }}\n", toml_string(enum_name(d.a)),
                       toml_string(enum_name(d.b)), toml_string(enum_name(d.c)),
                       toml_string(enum_name(d.vectors)));
  out += "shapes = [\n";
  for (const GemmShape& g : p.shapes) out += shape_text(g, op);
  return out + "]\n";
}

bool write_problem_files(const Problem& p, const std::string& path) {
  if (!write_file(path, print_problem(p))) return false;
  if (!p.pipeline) return true;
  auto spec = std::filesystem::path(path).parent_path() / p.syntax->pipeline_spec;
  return write_file(spec.string(), p.syntax->pipeline_source);
}

}  // namespace ucut
