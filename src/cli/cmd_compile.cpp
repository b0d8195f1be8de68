// cli/cmd_compile.cpp — `ucutlass compile SPEC [-o out.cu]`: check and emit CUTLASS C++.
#include <iostream>

#include "cli/commands.h"
#include "cli/io.h"

namespace ucut::cli {

Command compile_command() {
  return {"compile", "check a spec and emit its CUTLASS C++ (.cu)", [](CLI::App& sub) {
            auto path = std::make_shared<std::string>();
            auto out = std::make_shared<std::string>("-");
            auto json = std::make_shared<bool>(false);
            sub.add_option("spec", *path, "the .ucut spec, or - for stdin")->required();
            sub.add_option("-o,--output", *out, "where to write the .cu (default: stdout)");
            sub.add_flag("--json", *json,
                         "answer {ok, diagnostics, more_errors, namespace, config_hash, code} as JSON on stdout");
            return [path, out, json]() -> int {
              auto src = read_spec(*path);
              if (!src) return kIoError;
              Compilation c = compile_spec(*src, StopAfter::emit);
              if (*json) {
                if (c.kernel && *out != "-" && !write_text(*out, c.kernel->code)) return kIoError;
                std::cout << json_text(compilation_json(*src, c, *out == "-"));
                return c.ok() ? kOk : kSpecErrors;
              }
              print_diagnostics(*src, c);
              if (!c.ok()) return kSpecErrors;
              return write_text(*out, c.kernel->code) ? kOk : kIoError;
            };
          }};
}

}  // namespace ucut::cli
