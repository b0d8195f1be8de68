// emit/memory/sparse.cpp — the `sparse` family (ir/memop_sparse.h): y = A·x or Y = A·X over A's arrays as the
// caller passes them, products summed in f32, the chain applied to each output element (a Body with
// `finish`), on the kernels of memop_sparse.inc: csr and ell by rows (deterministic: cub::WarpReduce over
// each row's lanes for SpMV, a warp per row and 32·V columns of K for SpMM), coo and csc by an atomic scatter
// into f32 sums (not deterministic: the order of the float adds varies) and a pass applying the chain.
#include <fmt/format.h>

#include <string>

#include "emit/abi_wrapper.h"
#include "emit/cpp_writer.h"
#include "emit/memory/memop_code.h"
#include "emit/memory/registry.h"
#include "support/error.h"

namespace ucut::memory {
namespace {

std::string_view format_constant(SparseFormat f) {
  switch (f) {
    case SparseFormat::csr:
      return "ucut_sparse_csr";
    case SparseFormat::coo:
      return "ucut_sparse_coo";
    case SparseFormat::csc:
      return "ucut_sparse_csc";
    case SparseFormat::ell:
      return "ucut_sparse_ell";
  }
  UC_UNREACHABLE() << "SparseFormat " << static_cast<int>(f);
}

bool by_rows(SparseFormat f) { return f == SparseFormat::csr || f == SparseFormat::ell; }

/// Whether the chain has a stage before its store.
bool has_stages(const MemOpConfig& m) { return m.chain.size() > 1; }

/// "A (csr) · x -> relu -> y": the product in words, for the comment above the Body.
std::string description(const MemOpConfig& m) {
  const TensorDecl& a = m.inputs[m.sparse->matrix];
  std::string out = fmt::format("{} ({}) · {}", a.name.value, sparse_format_info(m.sparse->format.value).name,
                                m.inputs[sparse_dense_input(m)].name.value);
  return out + chain_text(m);
}

/// The Body: the run-time scalars and the chain on one summed element.
void write_body(CppWriter& w, const MemOpConfig& m) {
  w.comment(fmt::format("{}, each element summed in f32.", description(m)));
  w.open("struct Body");
  for (const ScalarDecl& sc : m.scalars) w.line(fmt::format("float {};", scalar_id(sc.name.value)));
  w.open("CUTLASS_DEVICE float finish(float x) const");
  for (const EpiOp& op : m.chain)
    if (op.kind != EpiKind::store) w.line(stage_code(m, op));
  w.line("return x;");
  w.close();
  w.close("};");
}

/// run_sparse(A's arrays, x, output, scalars, extents, stream, err, err_len): fills the Body and the
/// arguments and launches.
void write_run(CppWriter& w, const MemOpConfig& m) {
  const SparseSpec& s = *m.sparse;
  const TensorDecl& a = m.inputs[s.matrix];
  const TensorDecl& x = m.inputs[sparse_dense_input(m)];
  const std::string dense = tensor_id(x.name.value),
                    index1 = s.arrays.size() > 2 ? tensor_id(s.arrays[2].value) : "nullptr";
  // COLS only where the kernel walks the columns (csc); the others never read it, and the caller may not know
  // it.
  const std::string cols =
      s.format.value == SparseFormat::csc || a.dims[1].fixed() ? extent_id(a.dims[1]) : "0";
  const std::string count = s.count.value.empty() ? "0" : "n_" + s.count.value;
  const std::string k = x.dims.size() == 2 ? extent_id(x.dims[1]) : "1";
  w.comment(fmt::format("`{}` = {} on `stream`; 0, or nonzero (why: `err`).", m.output().name.value,
                        description(m)));
  w.open(fmt::format("int run_sparse({}cudaStream_t stream, char* err, size_t err_len)", run_params(m)));
  w.line("Body body;");
  for (const ScalarDecl& sc : m.scalars) w.line(fmt::format("body.{0} = {0};", scalar_id(sc.name.value)));
  w.line(fmt::format("const Args args{{{}, {}, {}, {}, {}, {}, {}, {}}};", tensor_id(s.arrays[0].value),
                     tensor_id(s.arrays[1].value), index1, dense, extent_id(a.dims[0]), cols, count, k));
  w.line(
      fmt::format("return ucut_sparse_launch<ElementOut, {}, kVector, kThreads, kLanes, kDirect>(body, args, "
                  "{}, stream, err, "
                  "err_len);",
                  format_constant(s.format.value), tensor_id(m.output().name.value)));
  w.close();
}

}  // namespace

EmittedKernel emit_sparse(const SourceFile& src, const MemOpConfig& m) {
  UC_ASSERT(m.sparse) << "emit_sparse on a `" << op_name(m.op.value) << "`";
  const std::string ns = memop_namespace(m), hash = memop_hash(m), gencode = gencode_for(m.arch.value);
  const SparseSpec& s = *m.sparse;
  CppWriter w;
  write_family_opening(
      w, src, m,
      {"<algorithm>", "<cmath>", "<cstdint>", "<cstdio>", "<cstring>", "<type_traits>", "<cuda_runtime.h>",
       "<cub/warp/warp_reduce.cuh>", "<cutlass/cutlass.h>", "<cutlass/array.h>",
       "<cutlass/numeric_conversion.h>", "<cutlass/epilogue/thread/activation.h>", "<cute/tensor.hpp>"},
      {"memop_sparse.inc"});
  const std::vector<CallerTensor> callers = m.caller_inputs();
  w.alias("Args", fmt::format("ucut_sparse_args<ElementIn0, ElementIn{}>", callers.size() - 1));
  const MemTunables& t = m.tune;
  const bool spmm = sparse_is_spmm(m), direct = !has_stages(m) && m.output().dtype.value == DType::f32;
  w.line(fmt::format(
      "constexpr int kVector = {};  // {}", t.vector.value,
      spmm ? fmt::format("elements of X's and Y's rows per lane and load ({} bytes of `{}`)",
                         t.vector.value * dtype_bits(m.output().dtype.value) / 8, m.output().name.value)
           : std::string("unused: an SpMV reads x one element at a time")));
  w.line(fmt::format("constexpr int kThreads = {};  // threads per block", t.block.value));
  w.line(fmt::format("constexpr int kLanes = {};  // {}", t.rows.value,
                     !by_rows(s.format.value) || spmm ? "unused: a warp per row (SpMM) or a scatter"
                     : t.rows.value == kMemAutoRows
                         ? "lanes per row: picked at run time from the entries per row"
                         : "lanes per row"));
  w.line(fmt::format("constexpr bool kDirect = {};  // {}", direct,
                     by_rows(s.format.value) ? "unused: each output element is written once"
                     : direct                ? "the scatter sums into the f32 output itself"
                              : "the scatter sums into f32 workspace, then the chain writes the output"));
  w.line();
  write_body(w, m);
  w.line();
  write_run(w, m);
  w.close(fmt::format("}}  // namespace {}", ns));
  return EmittedKernel{w.str(), ns, hash, gencode, {}, {}};
}

}  // namespace ucut::memory
