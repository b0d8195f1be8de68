// eval/worker/grouped_operands.cpp — see grouped_operands.h.
#include "eval/worker/grouped_operands.h"

namespace ucut::worker {
namespace {

/// Copies `host` into a new device buffer (synchronized: `host` may go out of scope on return).
template <class T>
DeviceBuffer upload(const std::vector<T>& host, cudaStream_t s) {
  DeviceBuffer d(host.size() * sizeof(T));
  if (!host.empty()) {
    CUDA_OK(cudaMemcpyAsync(d.get(), host.data(), d.bytes(), cudaMemcpyHostToDevice, s));
    CUDA_OK(cudaStreamSynchronize(s));
  }
  return d;
}

/// The device array of problem i's pointer into `base` at offset(problem i); empty when base is null.
template <class Offset>
DeviceBuffer pointer_array(const PackedGroup& g, const void* base, DType t, Offset offset, cudaStream_t s) {
  if (!base) return DeviceBuffer();
  std::vector<const void*> ptrs;
  for (const PackedProblem& q : g.problems) ptrs.push_back(packed_at(base, t, offset(q)));
  return upload(ptrs, s);
}

}  // namespace

const void* packed_at(const void* base, DType t, int64_t offset) {
  return static_cast<const char*>(base) + offset * dtype_bits(t) / 8;
}

void* packed_at(void* base, DType t, int64_t offset) { return static_cast<char*>(base) + offset * dtype_bits(t) / 8; }

GroupPointers group_pointers(const PackedGroup& g, const ProblemDesc& p, const void* a, const void* b, const void* c,
                             void* d, cudaStream_t s) {
  auto a_off = [](const PackedProblem& q) { return q.a_offset; };
  auto b_off = [](const PackedProblem& q) { return q.b_offset; };
  auto d_off = [](const PackedProblem& q) { return q.d_offset; };
  GroupPointers r;
  r.a = pointer_array(g, a, p.a.dtype, a_off, s);
  r.b = pointer_array(g, b, p.b.dtype, b_off, s);
  r.c = pointer_array(g, c, p.c.dtype, d_off, s);
  r.d = pointer_array(g, d, p.d.dtype, d_off, s);
  return r;
}

GroupedOperands::GroupedOperands(const PackedGroup& g, const ProblemDesc& p, cudaStream_t s) : g_(g), p_(p), s_(s) {
  std::vector<int64_t> lds(4 * g.problems.size());
  size_t count = g.problems.size();
  for (size_t i = 0; i < count; ++i) {
    const PackedProblem& q = g.problems[i];
    for (int64_t v : {q.m, q.n, q.k}) problems_host_.push_back(static_cast<int32_t>(v));
    lds[i] = q.lda;
    lds[count + i] = q.ldb;
    lds[2 * count + i] = q.ldc;
    lds[3 * count + i] = q.ldd;
  }
  problems_ = upload(problems_host_, s);
  lds_ = upload(lds, s);
}

void GroupedOperands::add_set(const void* a, const void* b, const void* c, void* d) {
  sets_.push_back(group_pointers(g_, p_, a, b, c, d, s_));
}

ucut_group_args GroupedOperands::args(size_t set) const {
  const GroupPointers& ptrs = sets_.at(set);
  const int64_t* lds = lds_.as<const int64_t>();
  size_t count = g_.problems.size();
  ucut_group_args a{};
  a.count = static_cast<int32_t>(count);
  a.problems = problems_.as<const int32_t>();
  a.problems_host = problems_host_.data();
  a.a = ptrs.a.as<const void* const>();
  a.b = ptrs.b.as<const void* const>();
  a.c = ptrs.c.get() ? ptrs.c.as<const void* const>() : nullptr;
  a.d = ptrs.d.as<void* const>();
  a.lda = lds;
  a.ldb = lds + count;
  a.ldc = lds + 2 * count;
  a.ldd = lds + 3 * count;
  return a;
}

}  // namespace ucut::worker
