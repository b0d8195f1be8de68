// suite/lower_pipeline.h — a suite problem whose chain holds several GEMMs or convolutions (an MLP's linear
// layers, a depthwise-separable convolution) as a pipeline problem (docs/problems.md, `op = "pipeline"`): each
// main op starts a stage, the elementwise ops after it are that stage's epilogue (suite/lower_chain.h), and each
// stage reads the one before. Both files are generated: the pipeline spec that is the problem's semantics (every
// extent a number, the problem's one size; filters and channel counts as the chain gives them) and the problem
// file that names it, with the convolution stages' geometry in its shape. The problem is read back through the
// problem reader (problem/read.h) with the spec held in memory, so it is exactly what `ucutlass run` would read
// from the two files.
#pragma once

#include <map>
#include <string>
#include <variant>
#include <vector>

#include "problem/problem.h"
#include "suite/lower_chain.h"
#include "suite/report.h"

namespace ucut::suite {

/// Whether the chain of `p` needs more than one kernel (a pipeline, whether or not it lowers): an op after the main
/// one that is not elementwise, or a value saved after the main op and read back through a fold that reads a tensor
/// (a parameter: a map stage after the GEMM or convolution folds it).
bool is_pipeline_chain(const Problem& p);

/// The pipeline problem of `c` (its syntax holds both generated texts), or why there is none: "op 4 (sum): ...".
std::variant<ucut::Problem, std::string> lower_pipeline_problem(const Checked& c);

/// A tensor of the problem's framework that a family stage of the generated pipeline reads from the caller.
struct FamilyOperand {
  enum class Kind {
    input,   // the problem's input `index`
    param,   // op `index`'s `param`
    weight,  // op `index`'s module weight (a norm's gamma)
    bias,    // op `index`'s module bias (a norm's beta)
  };
  Kind kind = Kind::input;
  size_t index = 0;
  /// The tensor's PyTorch dims in the order its declaration's extents read them (those of size 1 last): its
  /// elements in that order, packed, are what the stage reads.
  std::vector<size_t> order;
};

/// What one stage of the generated pipeline reads from the problem's framework, as export --kernelbench
/// passes it.
struct StageFeed {
  size_t op = 0;  // the op the stage computes (a map stage's first chain op; a group norm's transposing map:
                  // the norm)
  std::vector<StageSource> epilogue;              // a GEMM or convolution stage: each epilogue stage's tensor
  std::map<std::string, FamilyOperand> operands;  // a family stage: each tensor it declares, by name
};

/// The generated pipeline's feeds, one per stage of its spec in order, and how its output maps back to
/// PyTorch's.
struct PipelineFeeds {
  std::vector<StageFeed> stages;
  std::vector<std::string> stored;             // the output's extents in memory order, as declared
  std::vector<std::vector<std::string>> dims;  // the output's PyTorch dims: the stored extents each is (none
                                               // for a dim of 1 that is not stored); empty when its dims are
                                               // unnamed (a GEMM over flattened batch dims)
};

struct PipelineLowering {
  ucut::Problem problem;
  PipelineFeeds feeds;
};

/// lower_pipeline_problem with the feeds of each stage.
std::variant<PipelineLowering, std::string> lower_pipeline_with_feeds(const Checked& c);

}  // namespace ucut::suite
