// eval/worker/operand_set.cpp — see operand_set.h.
#include "eval/worker/operand_set.h"

#include "eval/worker/device_ops.h"

namespace ucut::worker {

OperandSet make_operand_set(const ProblemDesc& p, const OperandGeometry& g, std::optional<DType> a,
                            std::optional<DType> b, const InputSeed& seed, cudaStream_t s) {
  OperandSet set;
  int dist = seed.distribution;
  if (a) {
    set.a = DeviceBuffer(bytes_of(*a, g.a.elements()));
    fill_random(set.a.get(), *a, g.a.elements(), seed.seed + 1, dist, s);
  }
  if (b) {
    set.b = DeviceBuffer(bytes_of(*b, g.b.elements()));
    fill_random(set.b.get(), *b, g.b.elements(), seed.seed + 2, dist, s);
  }
  if (p.has_residual) {
    set.c = DeviceBuffer(bytes_of(p.c.dtype, g.d_elements));
    fill_random(set.c.get(), p.c.dtype, g.d_elements, seed.seed + 3, dist, s);
  }
  for (size_t j = 0; j < p.vectors.size(); ++j) {
    int64_t len = g.vector_len(p.vectors[j]);
    set.vectors.emplace_back(bytes_of(p.vectors[j].dtype, len));
    fill_random(set.vectors.back().get(), p.vectors[j].dtype, len, seed.seed + 4 + j, 0, s);
  }
  return set;
}

uint64_t hash_operands(const OperandSet& set, cudaStream_t s) {
  uint64_t h = 0;
  for (const DeviceBuffer* buf : {&set.a, &set.b, &set.c})
    if (buf->get()) h = h * 3 + hash_bytes(buf->get(), buf->bytes(), s);
  for (const DeviceBuffer& v : set.vectors) h = h * 3 + hash_bytes(v.get(), v.bytes(), s);
  return h;
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
