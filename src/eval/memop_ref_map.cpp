// eval/memop_ref_map.cpp — the reference of a `map` (ir/memop.h): per element of the output, the chain applied to
// the first input there, reading every input (broadcast) and scalar. A transposing map's output has the first
// input's extents in the other layout, so its element at logical [i, j] is the input's at [i, j] too.
#include "eval/memop_ref_call.h"
#include "support/parallel_for.h"

namespace ucut::memref {

std::string map_reference(const RefCall& call, std::vector<std::vector<double>>& outputs) {
  const TensorDecl& out = call.m->output();
  const std::vector<int64_t> extents = call.domain;  // the output's, or a transpose's first input's
  std::vector<double>& y = outputs.emplace_back(size_t(element_count(extents)));
  parallel_for(int64_t(y.size()), [&](int64_t begin, int64_t end) {
    std::vector<int64_t> coord(extents.size());
    std::vector<double> operands;
    for (int64_t k = begin; k < end; ++k) {
      coordinates(k, extents, out.layout.value, coord.data());
      call.operands(coord.data(), operands);
      y[size_t(k)] = call.chain(operands[0], operands);
    }
  });
  return "";
}

}  // namespace ucut::memref
