// eval/memop_ref_scan.cpp — the reference of a `scan` (ir/memop.h ScanSpec): along each row (the last extent) of
// the first input, on its own, the running `op` of the values `of` its elements (from the row's end with
// `reverse`; without the element itself with `exclusive`, the op's identity first), the chain applied to each.
// A running sum is compensated; max and min skip NaN (fmax).
#include <cmath>

#include "eval/memop_ref_call.h"
#include "support/parallel_for.h"

namespace ucut::memref {
namespace {

/// The running value of one row.
struct Running {
  ScanOp op;
  CompensatedSum sum;
  double value;  // prod, max, min
  explicit Running(ScanOp op) : op(op), value(op == ScanOp::prod ? 1.0 : op == ScanOp::max ? -INFINITY : INFINITY) {}
  void add(double v) {
    switch (op) {
      case ScanOp::sum: sum.add(v); break;
      case ScanOp::prod: value *= v; break;
      case ScanOp::max: value = std::fmax(value, v); break;
      case ScanOp::min: value = std::fmin(value, v); break;
    }
  }
  double get() const { return op == ScanOp::sum ? sum.value() : value; }
};

}  // namespace

std::string scan_reference(const RefCall& call, std::vector<std::vector<double>>& outputs) {
  const MemOpConfig& m = *call.m;
  const ScanSpec& spec = *m.scan;
  const std::vector<int64_t>& extents = call.domain;
  if (extents.empty()) return "a scan's first input has no extent to scan along";
  const int64_t n = extents.back(), rows = n > 0 ? element_count(extents) / n : 0;
  const std::vector<int64_t> out_stride = memory_strides(extents, m.output().layout.value);
  std::vector<int64_t> leading(extents.begin(), extents.end() - 1);
  std::vector<double>& y = outputs.emplace_back(size_t(element_count(extents)));
  parallel_for(rows, [&](int64_t begin, int64_t end) {
    std::vector<int64_t> coord(extents.size());
    std::vector<double> operands, chain_operands;
    call.operands(nullptr, chain_operands);
    for (int64_t r = begin; r < end; ++r) {
      coordinates(r, leading, Layout::row, coord.data());
      Running run(spec.op.value);
      for (int64_t step = 0; step < n; ++step) {
        coord.back() = spec.reverse.value ? n - 1 - step : step;
        call.operands(coord.data(), operands);
        const double v = call.of(spec.of.get(), operands);
        if (!spec.exclusive.value) run.add(v);
        int64_t k = 0;
        for (size_t d = 0; d < coord.size(); ++d) k += coord[d] * out_stride[d];
        y[size_t(k)] = call.chain(run.get(), chain_operands);
        if (spec.exclusive.value) run.add(v);
      }
    }
  });
  return "";
}

}  // namespace ucut::memref
