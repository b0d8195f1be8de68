// engine/search/rewrite.h — applies a Move to a spec's text (replacing or appending `.with_*` calls and the
// operator's `math = ...`, every other byte kept) and judges the result as the harness would: parse, lower, check,
// then the problem's semantic and shape checks. Only specs with none of those errors are candidates.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "engine/search/space.h"
#include "problem/problem.h"

namespace ucut::search {

/// `move` applied to the kernel of `spec`, or, in a pipeline, to the stage named `kernel` (a pipeline needs one;
/// a single kernel ignores it). nullopt with `error` set when the spec does not parse or names no such stage.
std::optional<std::string> apply_move(const std::string& spec, const Move& move, std::string* error,
                                      const std::string& kernel = "");

/// What validate() found. `rule` is the first error's rule id (`C207`; `C601`-`C611` when a problem shape does not
/// fit the kernel, check/shape_rules.h), or `semantic_mismatch` when the spec computes something else.
struct Verdict {
  bool ok = false;
  std::string rule;
  std::string message;
  std::string config_hash;  // config_hash (a kernel) or pipeline_hash (a pipeline) when it lowered
  bool precision_change = false;
};

/// Judges a spec against `problem` (null: the compiler's checks only).
Verdict validate(const std::string& spec, const Problem* problem);

/// Specs that failed validation, counted by their first rule id.
struct Rejections {
  int count = 0;
  std::map<std::string, int> by_rule;
  void add(const std::string& rule);
  /// "12 rejected: C207 ×8, C302 ×4".
  std::string summary() const;
};

/// The kernel config of a single-kernel spec (lowered, checked or not), or nullopt with `error`: a pipeline, or
/// a spec that does not lower.
std::optional<KernelConfig> lower_kernel(const std::string& spec, std::string* error);

}  // namespace ucut::search
