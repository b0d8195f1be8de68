// cli/cmd_emit.cpp — `ucutlass emit --stage=tokens|ast|ir|cpp SPEC`: dump any stage (MLIR Toy's -emit=).
#include <fmt/format.h>

#include <map>

#include "cli/commands.h"
#include "cli/io.h"
#include "dsl/lexer.h"
#include "ir/canonical.h"
#include "ir/memop.h"
#include "ir/pipeline.h"

namespace ucut::cli {
namespace {

std::string dump_tokens(const SourceFile& src) {
  DiagEngine diags;
  std::string out;
  for (const Token& t : lex(src, diags)) {
    auto [l, c] = src.line_col(t.span.begin);
    out += fmt::format("{}:{} {} '{}'\n", l, c, tok_name(t.kind), t.text);
  }
  return out;
}

std::string dump_lowered(const SourceFile& src, const Compilation& c) {
  if (c.config) return dump_ir(src, *c.config);
  if (c.memop) return dump_memop_ir(src, *c.memop);
  return dump_pipeline_ir(src, *c.pipeline);
}

nlohmann::json canonical_json(const Compilation& c) {
  if (c.config) return canonical_config(*c.config);
  if (c.memop) return canonical_memop(*c.memop);
  return canonical_pipeline(*c.pipeline);
}

}  // namespace

Command emit_command() {
  return {"emit", "print one compiler stage: tokens, ast, ir (with source locations), json (canonical config) or cpp",
          [](CLI::App& sub) {
            auto path = std::make_shared<std::string>();
            auto stage = std::make_shared<std::string>("cpp");
            auto out = std::make_shared<std::string>("-");
            sub.add_option("spec", *path, "the .ucut spec, or - for stdin")->required();
            sub.add_option("--stage", *stage, "tokens | ast | ir | json | cpp")
                ->check(CLI::IsMember({"tokens", "ast", "ir", "json", "cpp"}));
            sub.add_option("-o,--output", *out, "output file (default: stdout)");
            return [path, stage, out]() -> int {
              auto src = read_spec(*path);
              if (!src) return kIoError;
              if (*stage == "tokens") return write_text(*out, dump_tokens(*src)) ? kOk : kIoError;
              StopAfter stop = *stage == "ast" ? StopAfter::parse : *stage == "cpp" ? StopAfter::emit : StopAfter::lower;
              Compilation c = compile_spec(*src, stop);
              print_diagnostics(*src, c);
              if (!c.ok()) return kSpecErrors;
              std::string text = *stage == "ast"    ? dump_ast(*src, *c.ast)
                                 : *stage == "ir"   ? dump_lowered(*src, c)
                                 : *stage == "json" ? canonical_json(c).dump(2) + "\n"
                                                    : c.kernel->code;
              return write_text(*out, text) ? kOk : kIoError;
            };
          }};
}

}  // namespace ucut::cli
