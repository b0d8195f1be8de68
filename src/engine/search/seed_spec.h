// engine/search/seed_spec.h — a starting spec for a suite problem, generated from the problem itself: its lowered
// problem's operator, operands, math and epilogue chain, with a default config (kernel, math mode, tile,
// alignments) that passes check and runs every shape of the problem. The search starts from it.
#pragma once

#include <string>
#include <variant>
#include <vector>

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

/// A pipeline problem's starting spec (engine/search/seed_pipeline.cpp; seed_spec calls it): the problem's own
/// pipeline spec with every f32 GEMM stage exact (3xTF32 on the CUTLASS 2.x multistage kernel: on sm90a the TF32
/// wgmma is no exact-FP32 path) and a first convolution whose input channels break 16-byte rows on some shape padded
/// (`align(1) pad`, a forward one with `fold`), as single-kernel seeds pad; every other stage at its defaults; named
/// `seed_pipeline_<stage ops>`. It must pass check and match the problem (pipeline_mismatch), else why not.
std::variant<SeedSpec, std::string> pipeline_seed_spec(const Problem& lowered, const std::string& arch = "sm90a");

/// `fold(n)` for a padded forward convolution `sem` over `shapes`: unroll filter dimensions, innermost first, while a
/// K step would cover fewer than 64 bytes of channels (16 f32, the least tf32 tile K).
int seed_fold(const KernelConfig& sem, const std::vector<GemmShape>& shapes);

}  // namespace ucut::search
