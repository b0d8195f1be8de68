// driver/build_errors.cpp — maps known nvcc failures back to spec locations.
#include "driver/build_errors.h"

#include <fmt/format.h>

namespace ucut {

std::string render_build_failure(const SourceFile& src, const KernelConfig& cfg, const BuildResult& r) {
  // Our own static_assert on shared memory traces back to the tile and stage choice; anything else to the kernel.
  bool smem = r.error.find("shared memory") != std::string::npos;
  Span at = smem ? (cfg.stages.span.implied ? cfg.tile.span : cfg.stages.span) : cfg.header;
  if (at.implied) at = cfg.header;
  auto [line, col] = src.line_col(at.begin);
  return fmt::format("{}:{}:{}: error: nvcc could not build this kernel{}\n{:>4} | {}\n{}full nvcc log: {}\n", src.name(),
                     line, col, smem ? " (its shared memory, set by this tile and stage count)" : "", line,
                     src.line_text(line), r.error, r.log_path);
}

}  // namespace ucut
