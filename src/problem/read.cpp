// problem/read.cpp — see read.h. The kernel problem's own keys are read here; its shapes by read_shape.h, a
// pipeline problem's semantics and shapes by read_pipeline.h.
#include "problem/read.h"

#include <fmt/format.h>

#include <filesystem>

#include "dsl/parser.h"
#include "problem/read_pipeline.h"
#include "problem/read_shape.h"
#include "problem/semantics.h"
#include "support/diag_render.h"
#include "support/files.h"
#include "support/toml_reader.h"

namespace ucut {
namespace {

const std::vector<std::string_view> kKernelKeys = {"name",      "op",        "a",       "b",
                                                   "d",         "math",      "epilogue", "reference",
                                                   "tolerance", "framework_inputs", "shapes"};
const std::vector<std::string_view> kPipelineKeys = {"name",      "op",               "semantics", "reference",
                                                     "tolerance", "framework_inputs", "shapes"};

class Reader {
 public:
  Reader(const SourceFile& src, DiagEngine& diags, const SourceFile* semantics)
      : toml_(src, diags, {RuleId::H001, RuleId::H002, RuleId::H003, RuleId::H004, RuleId::H005}),
        src_(src),
        diags_(diags),
        semantics_(semantics) {}

  std::optional<Problem> run() {
    std::optional<toml::table> parsed = toml_.parse();
    if (!parsed) return std::nullopt;
    const toml::table& root = *parsed;
    const Span file{0, 0};
    const bool pipeline = root["op"].value_or<std::string>("") == "pipeline";
    toml_.check_keys(root, pipeline ? kPipelineKeys : kKernelKeys, pipeline ? "a pipeline problem" : "a problem");
    Problem p;
    p.path = src_.name();
    p.name = toml_.string_key(root, "name", file, true).value_or("");
    read_reference(root, p);
    read_framework_inputs(root, p);
    if (diags_.has_errors()) return std::nullopt;
    if (pipeline) {
      if (!read_pipeline_problem(toml_, root, p, semantics_)) return std::nullopt;
    } else if (!read_kernel(root, p)) {
      return std::nullopt;
    }
    read_tolerance(root, p);
    if (diags_.has_errors()) return std::nullopt;
    return p;
  }

 private:
  TomlReader toml_;
  const SourceFile& src_;
  DiagEngine& diags_;
  const SourceFile* semantics_;

  void read_reference(const toml::table& root, Problem& p) {
    auto name = toml_.string_key(root, "reference", Span{}, false);
    if (!name) return;
    if (auto r = parse_enum<Reference>(*name)) p.reference = *r;
    else toml_.unknown_name(*root.get("reference"), "reference", *name, enum_name_views<Reference>());
  }

  /// `framework_inputs = { a = "rand", b = "param", c = "rand", vectors = "param" }`: how the problem's framework
  /// draws each operand (problem/input_draw.h); a role left out is signed.
  void read_framework_inputs(const toml::table& root, Problem& p) {
    const toml::node* node = root.get("framework_inputs");
    if (!node) return;
    const toml::table* roles = node->as_table();
    if (!roles) {
      diags_.report(RuleId::H004, toml_.span_of(*node), "`framework_inputs` is a table",
                    "write e.g. `framework_inputs = { a = \"rand\", b = \"param\" }`");
      return;
    }
    toml_.check_keys(*roles, {"a", "b", "c", "vectors"}, "`framework_inputs`");
    for (auto [key, slot] : {std::pair{"a", &p.framework_inputs.a}, std::pair{"b", &p.framework_inputs.b},
                             std::pair{"c", &p.framework_inputs.c}, std::pair{"vectors", &p.framework_inputs.vectors}}) {
      const toml::node* v = roles->get(key);
      if (!v) continue;
      std::string name = v->value_or<std::string>("");
      if (auto draw = parse_enum<InputDraw>(name)) *slot = *draw;
      else toml_.unknown_name(*v, fmt::format("input draw for `framework_inputs.{}`", key), name, enum_name_views<InputDraw>());
    }
  }

  /// A spec fragment in string `key` (an operand type, the chain): the span of its text in the file, or nullopt
  /// after reporting why there is none.
  std::optional<Span> fragment(const toml::table& root, std::string_view key) {
    const toml::node* n = root.get(key);
    auto body = n ? toml_.string_body(*n) : std::nullopt;
    if (!body && n && n->is_string())
      diags_.report(RuleId::H004, toml_.span_of(*n), fmt::format("`{}` is spec syntax written with escape sequences",
                                                                 key),
                    "write the value as plain text: spec syntax needs no quotes or backslashes");
    return body;
  }

  bool read_kernel(const toml::table& root, Problem& p) {
    const Span file{0, 0};
    DeclarationSite site;
    site.name = p.name;
    site.header = file;
    site.op = {OpKind::gemm, file};
    if (auto op = toml_.string_key(root, "op", file, false)) {
      auto kind = find_op(*op);
      if (!kind) {
        toml_.unknown_name(*root.get("op"), "operator", *op, op_names());
        return false;
      }
      site.op = {*kind, toml_.span_of(*root.get("op"))};
      if (memory_family(op_family(*kind))) {
        diags_.report(
            RuleId::H005, site.op.span,
            fmt::format(
                "problem files describe GEMMs, convolutions and pipelines; `{}` kernels have none yet", *op),
            "measure a map kernel as an MSKB launcher: `ucutlass export --mskb TASK SPEC`, then "
            "`ucutlass bench mskb --impl DIR`");
        return false;
      }
      site.header = site.op.span;
    }
    auto syntax = std::make_shared<ProblemSyntax>();
    for (auto [key, slot] : {std::pair{"a", &syntax->a}, std::pair{"b", &syntax->b}, std::pair{"d", &syntax->d}}) {
      if (!toml_.string_key(root, key, file, true)) continue;
      if (auto at = fragment(root, key))
        if (auto type = parse_operand_type(src_, *at, diags_)) *slot = std::move(*type);
    }
    site.math = {"native", site.header};
    if (toml_.string_key(root, "math", file, false))
      if (auto at = fragment(root, "math")) site.math = {std::string(src_.text().substr(at->begin, at->end - at->begin)), *at};
    if (toml_.string_key(root, "epilogue", file, false))
      if (auto at = fragment(root, "epilogue"))
        if (auto chain = parse_chain(src_, *at, diags_)) syntax->epilogue = std::move(*chain);
    if (diags_.has_errors()) return false;
    auto semantics = lower_semantics(src_, site, *syntax, diags_);
    if (!semantics) return false;
    p.semantics = std::move(*semantics);
    p.syntax = std::move(syntax);
    return read_shapes(root, site.op.value, p);
  }

  bool read_shapes(const toml::table& root, OpKind op, Problem& p) {
    const toml::node* node = root.get("shapes");
    const toml::array* shapes = node ? node->as_array() : nullptr;
    if (!shapes || shapes->empty()) {
      diags_.report(node ? RuleId::H004 : RuleId::H003, node ? toml_.span_of(*node) : Span{},
                    "`shapes` must list at least one shape", "write e.g. `shapes = [ { m = 4096, n = 4096, k = 4096 } ]`");
      return false;
    }
    for (const toml::node& n : *shapes) {
      std::string where = fmt::format("shape {} of `{}`", p.shapes.size() + 1, op_name(op));
      const toml::table* s = n.as_table();
      if (!s) {
        diags_.report(RuleId::H004, toml_.span_of(n), fmt::format("{} is not a table", where),
                      "each entry of `shapes` is a table like `{ m = 4096, n = 4096, k = 4096 }`");
        return false;
      }
      auto shape = read_shape(toml_, *s, op, where);
      if (!shape) return false;
      p.shapes.push_back(std::move(*shape));
    }
    return true;
  }

  /// `tolerance = { atol, rtol }`, or the default for the problem's types (a pipeline's: its last stage's).
  void read_tolerance(const toml::table& root, Problem& p) {
    const toml::node* node = root.get("tolerance");
    if (!node) {
      p.tolerance =
          default_tolerance(p.semantics.a.dtype.value, p.semantics.math.value, p.semantics.output().dtype.value);
      return;
    }
    const toml::table* tol = node->as_table();
    double atol = tol ? (*tol)["atol"].value_or(-1.0) : -1.0, rtol = tol ? (*tol)["rtol"].value_or(-1.0) : -1.0;
    if (tol) toml_.check_keys(*tol, {"atol", "rtol"}, "`tolerance`");
    if (atol < 0 || rtol < 0) {
      diags_.report(RuleId::H004, toml_.span_of(*node), "`tolerance` needs non-negative `atol` and `rtol`",
                    "write e.g. `tolerance = { atol = 1e-2, rtol = 1e-2 }`");
      return;
    }
    p.tolerance.atol = atol;
    p.tolerance.rtol = rtol;
    p.tolerance_given = true;
  }
};

}  // namespace

std::optional<Problem> read_problem(const SourceFile& src, DiagEngine& diags, const SourceFile* semantics) {
  return Reader(src, diags, semantics).run();
}

std::optional<Problem> load_problem(const std::string& path, std::string* error) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    *error = fmt::format("'{}' is a directory, not a problem file", path);
    return std::nullopt;
  }
  auto text = read_file(path);
  if (!text) {
    *error = fmt::format("cannot read problem '{}'", path);
    return std::nullopt;
  }
  SourceFile src(path, *text);
  DiagEngine diags;
  auto p = read_problem(src, diags);
  if (!p) *error = render_text(src, diags.diagnostics());
  return p;
}

}  // namespace ucut
