// compiler/compilation_json.cpp — see compilation_json.h.
#include "compiler/compilation_json.h"

#include "ir/canonical.h"
#include "ir/memop.h"
#include "ir/pipeline.h"
#include "support/diag_render.h"

namespace ucut {

nlohmann::json compilation_json(const SourceFile& src, const Compilation& c, bool include_code) {
  nlohmann::json j = {{"ok", c.ok()},
                      {"diagnostics", to_json(src, c.diags.diagnostics())},
                      {"more_errors", c.diags.dropped()}};
  // The kernel's identity is known once the spec checks clean, emitted or not; without it the keys are left
  // out.
  if (c.ok() && c.config) {
    j["namespace"] = kernel_namespace(*c.config);
    j["config_hash"] = config_hash(*c.config);
  } else if (c.ok() && c.memop) {
    j["namespace"] = memop_namespace(*c.memop);
    j["config_hash"] = memop_hash(*c.memop);
  } else if (c.ok() && c.pipeline) {
    j["namespace"] = pipeline_namespace(*c.pipeline);
    j["config_hash"] = pipeline_hash(*c.pipeline);
  }
  if (include_code && c.kernel) j["code"] = c.kernel->code;
  return j;
}

}  // namespace ucut
