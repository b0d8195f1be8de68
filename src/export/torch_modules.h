// export/torch_modules.h — the nn.Module a suite op is in KernelBench's Model, as bench/kernelbench/chain.py
// maps it (and its cross-check verifies against KernelBench's sources): nn.Linear, nn.ConvNd,
// nn.ConvTransposeNd, nn.BatchNormNd, nn.GroupNorm, nn.InstanceNormNd, nn.LayerNorm. Every constructor
// argument is written out (keys the problem file leaves out take PyTorch's defaults, which are the suite's),
// so ModelNew creates the same parameters in the same order as the reference after KernelBench's seed.
#pragma once

#include <optional>
#include <string>

#include "suite/problem.h"

namespace ucut::interop {

/// `nn.Linear(8192, 8192, bias=True)`: the module op `op` is when it reads a value of PyTorch shape `in`, or
/// nullopt for an op that creates no module (an activation, a pooling, a view, a reduction, a `param`
/// operand).
std::optional<std::string> torch_module(const suite::Op& op, const suite::Shape& in);

}  // namespace ucut::interop
