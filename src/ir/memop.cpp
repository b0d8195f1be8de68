// ir/memop.cpp — see memop.h: the targets, canonical form, hash and IR dump of a memory-bound kernel.
#include "ir/memop.h"

#include <fmt/format.h>

#include "ir/canonical.h"
#include "support/sha256.h"

namespace ucut {

bool memop_emits_for(Arch a) {
  const ArchInfo& info = arch_info(a);
  return info.sm >= 80 && (info.backend == BackendKind::sm80 || info.backend == BackendKind::sm90);
}

nlohmann::json canonical_memop(const MemOpConfig& m) {
  nlohmann::json inputs = nlohmann::json::array(), chain = nlohmann::json::array();
  for (const TensorDecl& t : m.inputs) inputs.push_back(tensor_json(t));
  for (const EpiOp& op : m.chain) chain.push_back(stage_json(op));
  return {{"ucut_memop", 1},
          {"arch", arch_info(m.arch.value).name},
          {"op", op_name(m.op.value)},
          {"inputs", inputs},
          {"chain", chain}};
}

std::string memop_hash(const MemOpConfig& m) { return sha256_hex(canonical_memop(m).dump()); }

std::string memop_namespace(const MemOpConfig& m) { return "ucut_mem_" + memop_hash(m).substr(0, 16); }

std::string dump_memop_ir(const SourceFile& src, const MemOpConfig& m) {
  std::string o = fmt::format("MemOpConfig '{}' {}\n", m.name.value, span_text(src, m.header));
  o += fmt::format("  arch {} {}\n", arch_info(m.arch.value).name, span_text(src, m.arch.span));
  o += fmt::format("  op {} {}\n", op_name(m.op.value), span_text(src, m.op.span));
  for (const TensorDecl& t : m.inputs) o += fmt::format("  input {}\n", tensor_text(src, t));
  for (const EpiOp& op : m.chain)
    o += fmt::format("  stage {} {} {}\n", epi_info(op.kind).name, stage_json(op).dump(),
                     span_text(src, op.span));
  return o;
}

}  // namespace ucut
