// eval/memop_ref_window.cpp — the reference of a `window` (ir/memop_window.h WindowSpec). A star: per point, the
// sum of its 2·rank axis neighbours, the chain applied (reading the point itself by the first input's name);
// points whose star leaves the tensor keep the input's value. A box: per output point, along each windowed
// extent k the taps start + t (start = o·stride − pad; t < size), those outside the input left out (`clip`),
// summed (times the weights' element at t), maxed (from -inf) or averaged (the sum over the window's size,
// padding included: PyTorch's count_include_pad), the chain applied. The windowed extents may sit anywhere in
// the input's (channels-last [N, H, W, C] over (H, W) as well as NCHW).
#include <fmt/format.h>

#include <cmath>

#include "eval/memop_ref_call.h"
#include "support/parallel_for.h"

namespace ucut::memref {
namespace {

/// A window's run-time int: its literal or the value its name has in the call.
int64_t window_int(const RefCall& call, const WindowInt& v) { return v.literal() ? v.value : call.sizes.at(v.name); }

/// The value for windowed dimension k of `list` (one for every dimension, or one each), or `fallback`.
int64_t nth_int(const RefCall& call, const std::vector<WindowInt>& list, size_t k, int64_t fallback) {
  if (list.empty()) return fallback;
  if (list.size() == 1) return window_int(call, list.front());
  return k < list.size() ? window_int(call, list[k]) : fallback;
}

std::string star_reference(const RefCall& call, std::vector<double>& y) {
  const MemOpConfig& m = *call.m;
  const std::vector<int64_t>& extents = call.domain;
  const std::vector<size_t> dims = window_dims(m);
  parallel_for(int64_t(y.size()), [&](int64_t begin, int64_t end) {
    std::vector<int64_t> coord(extents.size());
    std::vector<double> operands;
    for (int64_t k = begin; k < end; ++k) {
      coordinates(k, extents, m.output().layout.value, coord.data());
      const double centre = call.own[0].at(coord.data());
      bool inside = true;
      for (size_t d : dims) inside = inside && coord[d] > 0 && coord[d] + 1 < extents[d];
      if (!inside) {
        y[size_t(k)] = centre;
        continue;
      }
      double sum = 0;
      for (size_t d : dims)
        for (int64_t step : {-1, 1}) {
          coord[d] += step;
          sum += call.own[0].at(coord.data());
          coord[d] -= step;
        }
      call.operands(coord.data(), operands);
      y[size_t(k)] = call.chain(sum, operands);
    }
  });
  return "";
}

}  // namespace

std::string window_reference(const RefCall& call, std::vector<std::vector<double>>& outputs) {
  const MemOpConfig& m = *call.m;
  const WindowSpec& w = *m.window;
  const std::vector<size_t> dims = window_dims(m);
  const std::vector<int64_t>& in_extents = call.domain;
  if (w.taps.value == WindowTaps::star) {
    std::vector<double>& y = outputs.emplace_back(size_t(element_count(in_extents)));
    return star_reference(call, y);
  }
  const TensorDecl* weights = w.weights ? &m.inputs[*w.weights] : nullptr;
  if (weights && weights->dims.size() != dims.size())
    return fmt::format("the weights `{}` have {} extents; the window runs along {}", weights->name.value,
                       weights->dims.size(), dims.size());
  std::vector<int64_t> size, stride, pad, out_extents = in_extents;
  for (size_t k = 0; k < dims.size(); ++k) {
    const bool clip = w.edge.value == WindowEdge::clip;
    size.push_back(nth_int(call, w.size, k, weights ? call.size(weights->dims[k]) : 1));
    stride.push_back(clip ? nth_int(call, w.stride, k, 1) : 1);
    pad.push_back(clip ? nth_int(call, w.pad, k, 0) : 0);
    const int64_t n = in_extents[dims[k]];
    int64_t& o = out_extents[dims[k]];
    o = w.edge.value == WindowEdge::copy ? n
        : clip                           ? (stride[k] > 0 ? (n + 2 * pad[k] - size[k]) / stride[k] + 1 : 0)
                                         : n - size[k] + 1;
    if (size[k] < 1 || stride[k] < 1 || o < 1)
      return fmt::format("the window along extent {} (size {}, stride {}, pad {}) gives no output of {} elements",
                         dims[k], size[k], stride[k], pad[k], n);
  }
  const int64_t taps = element_count(size);
  std::vector<double>& y = outputs.emplace_back(size_t(element_count(out_extents)));
  const bool copy = w.edge.value == WindowEdge::copy;
  parallel_for(int64_t(y.size()), [&](int64_t begin, int64_t end) {
    std::vector<int64_t> out(out_extents.size()), at(in_extents.size()), tap(dims.size());
    std::vector<double> operands;
    for (int64_t k = begin; k < end; ++k) {
      coordinates(k, out_extents, m.output().layout.value, out.data());
      at = out;
      double acc = w.op.value == WindowOp::max ? -INFINITY : 0.0;
      for (int64_t t = 0; t < taps; ++t) {
        coordinates(t, size, Layout::row, tap.data());
        bool inside = true;
        for (size_t j = 0; j < dims.size(); ++j) {
          at[dims[j]] = out[dims[j]] * stride[j] - pad[j] + tap[j];
          inside = inside && at[dims[j]] >= 0 && at[dims[j]] < in_extents[dims[j]];
        }
        if (!inside) continue;
        const double v = call.own[0].at(at.data());
        if (w.op.value == WindowOp::max)
          acc = std::fmax(acc, v);
        else
          acc += weights ? v * call.own[*w.weights].at(tap.data()) : v;
      }
      if (w.op.value == WindowOp::avg) acc /= double(taps);  // the whole window, padding included
      call.operands(copy ? out.data() : nullptr, operands);
      y[size_t(k)] = call.chain(acc, operands);
    }
  });
  return "";
}

}  // namespace ucut::memref
