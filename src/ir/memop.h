// ir/memop.h — the typed IR of a memory-bound operator family (ops.def rows whose family is memory-bound):
// what lower_memop.cpp produces, check/memop_rules.cpp validates and emit/memory/ prints. One family so far,
// `map`: one pass over the elements of its input, the `>>` chain (ir/epilogues.def, the stages and formulas
// GEMM epilogues use) applied to each, the result stored. Spans follow kernel_config.h: every field from the
// source has one; defaults carry Span::implied.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ir/kernel_config.h"
#include "support/source.h"

namespace ucut {

struct MemOpConfig {
  Spanned<std::string> name;
  Span header;  // `kernel NAME : ARCH`
  Spanned<Arch> arch;
  Spanned<OpKind> op;
  /// The tensors the kernel reads, in declaration order; their names are the caller's (an MSKB launcher's
  /// parameters). `map` reads one.
  std::vector<TensorDecl> inputs;
  /// The `>>` stages in source order; ends with the store of the output.
  std::vector<EpiOp> chain;

  const TensorDecl& input() const { return inputs.front(); }
  const TensorDecl& output() const { return *chain.back().tensor; }
};

/// Whether the memory-bound families emit for `a` (check: C701): the targets with a backend from sm80 on,
/// where 16-byte vector loads, bf16 and cp.async all exist (sm80, sm86, sm89, sm90a).
bool memop_emits_for(Arch a);

/// {"ucut_memop", "arch", "op", "inputs", "chain"}: every semantic field, no spans, no kernel name.
nlohmann::json canonical_memop(const MemOpConfig& m);
/// sha256 of canonical_memop(m).dump(), and the namespace `ucut_mem_` + its first 16 hex digits.
std::string memop_hash(const MemOpConfig& m);
std::string memop_namespace(const MemOpConfig& m);
/// Human-readable IR with the line:col each field came from (`ucutlass emit --stage=ir`).
std::string dump_memop_ir(const SourceFile& src, const MemOpConfig& m);

}  // namespace ucut
