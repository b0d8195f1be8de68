// suite/lower_chain.h — the ops after a suite problem's main op as a DSL epilogue chain (ir/epilogues.def),
// the half of suite/lower.h that does not depend on the main op. Each elementwise op is one stage, with three
// exact rewrites (docs/suites.md, "Lowering"):
//   - a value saved by `save` and read back by a later op's `other` (`h = gemm(x); return 0.5 * h + h`):
//     the ops from the save to the last read fold into one `expr(...)` whose x is the saved value;
//   - an input added elementwise (`add`, `other` = an input of the output's shape): `residual(C)`;
//   - a per-channel parameter subtracted (`sub`, `param`): `bias(col)` of its negation (x − c = x + (−c),
//     exactly).
// Each stage says which tensor of the problem's framework feeds it, for whoever passes them (export
// --kernelbench).
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "dsl/ast.h"
#include "suite/problem.h"

namespace ucut::suite {

/// The tensor a lowered stage reads, as the problem's framework holds it.
struct StageSource {
  enum class Kind {
    none,           // no tensor: a scalar, an activation, an `expr`
    layer_bias,     // the main op's own bias
    param,          // op `index`'s `param`, as is
    negated_param,  // op `index`'s `param`, negated
    input,          // the problem's input `index`, read as the residual C
  };
  Kind kind = Kind::none;
  size_t index = 0;
};

/// What the chain needs to know of the main op.
struct ChainContext {
  Shape out;  // the main op's output shape, PyTorch's (the chain's ops keep it)
  // The output dim a per-channel vector runs along: the last for GEMMs, 1 for convolutions.
  size_t channel_dim = 0;
  bool layer_bias = false;          // the main op adds its own bias: `bias(col)` comes first
  std::vector<size_t> main_inputs;  // the inputs the main op reads (their harness tensors are A and B)
  // How `residual` declares C, the output's twin: element type, extents (`M,N`, `N,P,Q,K`, ...), layout (""
  // for a convolution's channels-last tensors).
  std::string c_dtype;
  std::string_view c_extents;
  std::string_view c_layout;
  // The ops of the chain: [begin, end) of Problem::ops; a pipeline stage's main op is begin - 1
  // (suite/lower_pipeline.h), a single kernel's chain is every op after the first.
  size_t begin = 1;
  size_t end = SIZE_MAX;
  // A memory-bound family stage's chain (suite/lower_pipeline.h): a parameter or input the op reads is a named
  // operand of the stage, `p<op>` (a parameter of op <op>, counted from 1) or `in_<input>`, read in an
  // `expr(...)`; its source says which, and the caller declares it. No `bias(col)` or `residual`.
  bool family = false;
  std::set<size_t> skip;  // ops in the range that only change how the value is viewed (suite/lower_pipeline.cpp)
};

struct Chain {
  std::vector<Call> stages;
  std::vector<StageSource> sources;      // one per stage
  std::vector<std::string> notes;        // each representation change, a sentence for the provenance
  std::optional<size_t> residual_input;  // the input read as C
};

/// The name a family stage's chain reads a parameter or input by: `p<op index + 1>`, `in_<input name>`.
std::string operand_name(const StageSource& source, const Problem& p);

/// The chain of `p.ops[ctx.begin..ctx.end)` after the main op, or why it has none: "op 3 (sum): ..." naming
/// the first op that does not lower (a value saved in the range and read back after it is such an op).
std::variant<Chain, std::string> lower_chain(const Problem& p, const ChainContext& ctx);

}  // namespace ucut::suite
