// cli/cmd_check.cpp — `ucutlass check SPEC`: parse, lower and validate; no code is written.
#include <fmt/format.h>

#include <iostream>

#include "cli/commands.h"
#include "cli/io.h"

namespace ucut::cli {

Command check_command() {
  return {"check", "validate a spec and explain every problem (rule id, line:col, hint)", [](CLI::App& sub) {
            auto path = std::make_shared<std::string>();
            auto json = std::make_shared<bool>(false);
            sub.add_option("spec", *path, "the .ucut spec, or - for stdin")->required();
            sub.add_flag("--json", *json,
                         "answer {ok, diagnostics, more_errors, namespace, config_hash} as JSON on stdout");
            return [path, json]() -> int {
              auto src = read_spec(*path);
              if (!src) return kIoError;
              Compilation c = compile_spec(*src, StopAfter::check);
              if (*json) {
                std::cout << json_text(compilation_json(*src, c, false));
              } else {
                print_diagnostics(*src, c);
                if (c.ok())
                  std::cout << src->name() << ": ok ("
                            << (c.config  ? c.config->name.value
                                : c.memop ? c.memop->name.value
                                          : fmt::format("pipeline {}, {} stages", c.pipeline->name.value,
                                                        c.pipeline->stages.size()))
                            << ")\n";
              }
              return c.ok() ? kOk : kSpecErrors;
            };
          }};
}

}  // namespace ucut::cli
