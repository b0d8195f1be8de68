// eval/worker/operand_set.cpp — see operand_set.h.
#include "eval/worker/operand_set.h"

#include <algorithm>
#include <cmath>

#include "eval/worker/device_ops.h"

namespace ucut::worker {
namespace {

/// fill_random's distribution and scale for one role's draw; `signed_dist` is what a signed role uses.
struct Fill {
  int distribution;
  float scale;
};
Fill fill_of(InputDraw d, int signed_dist, int64_t k) {
  switch (d) {
    case InputDraw::rand: return {3, 1.f};
    case InputDraw::randn: return {1, 1.f};
    case InputDraw::param: return {0, static_cast<float>(1.0 / std::sqrt(static_cast<double>(std::max<int64_t>(k, 1))))};
    case InputDraw::signed_mix: break;
  }
  return {signed_dist, 1.f};
}

}  // namespace

OperandSet make_operand_set(const ProblemDesc& p, const OperandGeometry& g, std::optional<DType> a,
                            std::optional<DType> b, const InputSeed& seed, cudaStream_t s) {
  OperandSet set;
  // PyTorch's fan_in of a layer's weight is its GEMM's reduction length (a grouped GEMM: its first problem's).
  int64_t k = g.is_grouped() ? g.parts.front().e.k : g.e.k;
  auto fill = [&](void* ptr, DType t, int64_t n, uint64_t offset, InputDraw draw, int signed_dist) {
    Fill f = fill_of(draw, signed_dist, k);
    fill_random(ptr, t, n, seed.seed + offset, f.distribution, s, f.scale);
  };
  if (a) {
    set.a = DeviceBuffer(bytes_of(*a, g.a.elements()));
    fill(set.a.get(), *a, g.a.elements(), 1, seed.draws.a, seed.rotation);
  }
  if (b) {
    set.b = DeviceBuffer(bytes_of(*b, g.b.elements()));
    fill(set.b.get(), *b, g.b.elements(), 2, seed.draws.b, seed.rotation);
  }
  if (p.has_residual) {
    set.c = DeviceBuffer(bytes_of(p.c.dtype, g.d_elements));
    fill(set.c.get(), p.c.dtype, g.d_elements, 3, seed.draws.c, seed.rotation);
  }
  for (size_t j = 0; j < p.vectors.size(); ++j) {
    int64_t len = g.vector_len(p.vectors[j]);
    set.vectors.emplace_back(bytes_of(p.vectors[j].dtype, len));
    fill(set.vectors.back().get(), p.vectors[j].dtype, len, 4 + j, seed.draws.vectors, 0);
  }
  return set;
}

std::vector<const DeviceBuffer*> operand_buffers(const OperandSet& set) {
  std::vector<const DeviceBuffer*> out;
  for (const DeviceBuffer* buf : {&set.a, &set.b, &set.c})
    if (buf->get()) out.push_back(buf);
  for (const DeviceBuffer& v : set.vectors) out.push_back(&v);
  return out;
}

void set_gemm_tensors(ucut_gemm_args& args, const ProblemDesc& p, const OperandGeometry& g, const OperandSet& set,
                      void* d) {
  args.m = g.e.m;
  args.n = g.e.n;
  args.k = g.e.k;
  args.batch = g.e.batch;
  int64_t output_stride = g.d_elements / g.e.batch;
  args.a = {set.a.get(), g.lda, g.a.batch_stride()};
  args.b = {set.b.get(), g.ldb, g.b.batch_stride()};
  args.c = {set.c.get(), g.output_ld(p.d.layout), output_stride};
  args.d = {d, g.output_ld(p.d.layout), output_stride};
}

void set_epilogue_params(ucut_gemm_args& args, const ProblemDesc& p, const OperandSet& set) {
  for (size_t j = 0; j < set.vectors.size(); ++j) args.vectors[j] = set.vectors[j].get();
  for (size_t j = 0; j < p.scalars.size(); ++j) args.scalars[j] = p.scalars[j];
}

BaselineOperands baseline_operands(const CublasBaseline& bl, const OperandSet& set, const void* a, const void* b,
                                   void* d) {
  BaselineOperands o;
  o.a = a;
  o.b = b;
  o.c = set.c.get();
  o.d = d;
  o.bias = bl.fuses_bias() ? set.vectors[static_cast<size_t>(bl.bias_slot())].get() : nullptr;
  return o;
}

}  // namespace ucut::worker
