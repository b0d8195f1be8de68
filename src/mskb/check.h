// mskb/check.h — what "correct" means for an MSKB launcher. MSKB compares a candidate with its own naive kernel
// under an absolute (or, for a few tasks, relative) tolerance; we compare with an exact FP64 reference (or the
// vendor launcher's output above the CPU's cost limit), so the bound adds the output type's rounding:
//   absolute: |x - ref| <= value + r·|ref|       relative: |x - ref| <= (value + r)·|ref| + value·1e-6
// with r = 2^-7 for BF16 outputs (a BF16 ulp is at most 2^-7 relative), 2^-18 for FP32 ones (summation order over
// long reductions), 0 for integers. A NaN or Inf where the reference is finite is always wrong.
#pragma once

#include <string>
#include <vector>

#include "mskb/protocol.h"
#include "mskb/signature.h"
#include "mskb/task.h"

namespace ucut::mskb {

/// Our rule: the reference comparison above.
OutputResult compare_output(const std::string& name, const std::vector<double>& got, const std::vector<double>& ref,
                            const Tolerance& tol, CType type);

/// False when `output` is one the task's convention zeroes before every call (Task::zeroed_outputs) and its
/// reference `ref` is 0 everywhere: the harness's zeroing alone would pass, so the draw verifies nothing.
bool zeroed_output_verifiable(const Task& task, const std::string& output, const std::vector<double>& ref);

/// MSKB's own rule, `|x - naive| < value` (or relative), for the compatibility verdict.
bool mskb_rule_holds(const std::vector<double>& got, const std::vector<double>& naive, const Tolerance& tol);

/// `v` rounded to what a `type` holds (BF16 round-to-nearest-even, FP32, int truncation toward zero as a C cast).
double round_to(double v, CType type);

/// Rounds every array and scalar of `in` to its launcher parameter's type in `sig` (matched by position to the
/// task's FP32 names `names`).
void round_instance(Instance& in, const Signature& sig, const std::vector<std::string>& names);

}  // namespace ucut::mskb
