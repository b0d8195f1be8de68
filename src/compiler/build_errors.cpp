// compiler/build_errors.cpp — maps known nvcc failures back to spec locations.
#include "compiler/build_errors.h"

#include <fmt/format.h>

namespace ucut {

std::string render_build_failure(const SourceFile& src, const Compilation& c, const BuildResult& r) {
  // Our own static_assert on shared memory traces back to the tile and stage choice; anything else to the kernel.
  bool smem = c.config && r.error.find("shared memory") != std::string::npos;
  Span header = c.config ? c.config->header : c.memop ? c.memop->header : c.pipeline->header;
  Span at = !smem ? header : c.config->stages.span.implied ? c.config->tile.span : c.config->stages.span;
  if (at.implied) at = header;
  auto [line, col] = src.line_col(at.begin);
  return fmt::format("{}:{}:{}: error: nvcc could not build this kernel{}\n{:>4} | {}\n{}full nvcc log: {}\n", src.name(),
                     line, col, smem ? " (its shared memory, set by this tile and stage count)" : "", line,
                     src.line_text(line), r.error, r.log_path);
}

}  // namespace ucut
