// cli/cmd_mcp.cpp — `ucutlass mcp`: the MCP server over stdio (agent/mcp_server.h), for agents in other
// products. stdout carries only protocol messages: anything else the tools' code paths (or their child
// processes) write to stdout goes to stderr.
#include <unistd.h>

#include <cstdio>
#include <ext/stdio_filebuf.h>
#include <iostream>

#include "agent/mcp_server.h"
#include "cli/commands.h"

namespace ucut::cli {

Command mcp_command() {
  return {"mcp",
          "serve the tools (check, compile, sol, problem, run, profile, lessons) and the DSL docs to an agent over "
          "MCP on stdio",
          [](CLI::App& sub) {
            auto ctx = std::make_shared<agent::ToolContext>();
            sub.footer(
                "Speaks the Model Context Protocol (revision 2025-11-25; 2025-06-18 and 2025-03-26 too) over stdio:\n"
                "one JSON-RPC message a line on stdin and stdout, logs on stderr; exits when stdin closes.\n"
                "Register it with an agent as a stdio server, e.g. in its MCP settings:\n"
                "  {\"mcpServers\": {\"ucutlass\": {\"command\": \"ucutlass\", \"args\": [\"mcp\"]}}}\n"
                "with options after \"mcp\" in args, and env {\"CUDA_VISIBLE_DEVICES\": ...} where the agent passes\n"
                "no environment. Tools: check, compile, sol, problem, run, profile, lessons (run and profile need a\n"
                "GPU and say so without one); resources: ucutlass://docs/dsl-guide.md, ucutlass://docs/grammar.ebnf.\n"
                "See docs/cli.md, \"mcp\", and docs/agents.md.");
            sub.add_option(
                "--gpu", ctx->profile.measure.gpu,
                "the GPU for SOL bounds (sol, problem) and until the worker names one (default h200)");
            sub.add_option("--cache-dir", ctx->profile.measure.cache_dir, "the kernel build cache (run, profile)");
            sub.add_option("--cutlass", ctx->profile.measure.cutlass_dir,
                           "CUTLASS root (default: $CUTLASS_DIR or the installed one)");
            sub.add_option("--worker", ctx->profile.measure.worker,
                           "the ucutlass-worker binary (default: beside ucutlass)");
            sub.add_option("--timeout-per-shape", ctx->profile.measure.seconds_per_shape,
                           "seconds before a hung kernel is killed (run; default 240)");
            sub.add_option("--ncu", ctx->profile.ncu,
                           "the Nsight Compute CLI (profile; default: ncu on PATH, then CUDA's)");
            sub.add_option("--profile-timeout", ctx->profile.timeout_s,
                           "seconds before one profiling run is killed (default 600)");
            sub.add_option(
                "--suites", ctx->suites_dir,
                "the suites folder whose problems the tools name (default: $UCUT_SUITES_DIR, ./suites, "
                "then the installed or source tree's)");
            return [ctx]() -> int {
              // The protocol gets the real stdout; fd 1 becomes stderr for everything else.
              std::fflush(stdout);
              int proto = dup(STDOUT_FILENO);
              if (proto < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
                std::perror("ucutlass mcp: cannot set up stdout");
                return kIoError;
              }
              __gnu_cxx::stdio_filebuf<char> buf(proto, std::ios::out);
              std::ostream out(&buf);
              agent::McpServer server(*ctx);
              std::cerr << "ucutlass mcp: serving on stdio (MCP " << agent::kProtocolVersions[0] << ")\n";
              agent::serve(server, std::cin, out);
              return kOk;
            };
          }};
}

}  // namespace ucut::cli
