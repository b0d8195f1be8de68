// engine/search/seed_spec.h — a starting spec for a suite problem, generated from the problem itself: its lowered
// problem's operator, operands, math and epilogue chain, with a default config (kernel, math mode, tile,
// alignments) that passes check and runs every shape of the problem. The search starts from it.
#pragma once

#include <string>
#include <variant>

#include "problem/problem.h"
#include "suite/report.h"

namespace ucut::search {

struct SeedSpec {
  std::string spec;         // the spec's text: a header, then one kernel; nothing in it names the problem, so
                            // problems with the same semantics get the same text and share their builds
  std::string kernel_name;  // `seed_<op>_<A's type>[_<A and B layouts>]`, e.g. seed_gemm_f32_rc
  std::string note;         // why this config: the kernel, math mode and alignments it chose
};

/// A spec computing `lowered` (suite::lower_to_problem of `problem`) for `arch` ("sm90a" or "sm80"), with a default
/// config that parses, lowers and passes check, computes the problem (problem/match.h semantic_mismatch), runs each
/// of its shapes (check/shape_rules.h shape_violation) and multiplies at least as precisely as the
/// problem states (no precision_change) unless its tolerance admits TF32 (tf32_allowed: a labelled precision change,
/// preferred there for speed); or why no default config does. Same input, same text.
std::variant<SeedSpec, std::string> seed_spec(const suite::Checked& problem, const Problem& lowered,
                                              const std::string& arch = "sm90a");

}  // namespace ucut::search
