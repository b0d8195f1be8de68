// emit/memory/scan.cpp — the `scan` family: the running sum, product, max or min along each row (the last extent)
// of the first input (memop_scan.inc: deterministic, on cub::BlockReduce and cub::BlockScan, no library call), each
// element's value `of` the inputs there, each scanned value through the chain and stored in the output's place of
// that element. The inputs are read as a map reads them (memop_code.h), over the output's extents.
#include <fmt/format.h>

#include <string>
#include <vector>

#include "emit/abi_wrapper.h"
#include "emit/cpp_writer.h"
#include "emit/memory/memop_code.h"
#include "emit/memory/registry.h"
#include "support/error.h"

namespace ucut::memory {
namespace {

/// The partials' array: the most (row, segment) pairs of a launch that cut rows into several segments.
constexpr int kMaxSegments = 4096;

std::string_view op_functor(ScanOp op) {
  switch (op) {
    case ScanOp::sum:
      return "ucut_scan_sum";
    case ScanOp::prod:
      return "ucut_scan_prod";
    case ScanOp::max:
      return "ucut_scan_max";
    case ScanOp::min:
      return "ucut_scan_min";
  }
  UC_UNREACHABLE() << "ScanOp " << static_cast<int>(op);
}

/// "inclusive sum of input, reversed -> relu -> output": the scan in words, for the comment above it.
std::string description(const MemOpConfig& m) {
  const ScanSpec& s = *m.scan;
  std::string out = fmt::format("{} {} of {}", s.exclusive.value ? "exclusive" : "inclusive",
                                scan_op_name(s.op.value), s.of ? s.of->text : m.input().name.value);
  if (s.reverse.value) out += ", from each row's end";
  return out + chain_text(m);
}

/// The Body: the inputs' readers, the scalars, the value of one element and of a vector, and the chain on a
/// scanned value.
void write_body(CppWriter& w, const MemOpConfig& m, const std::vector<InputRead>& reads) {
  const ScanSpec& s = *m.scan;
  w.comment(fmt::format("The {}, in f32.", description(m)));
  w.open("struct Body");
  write_body_members(w, m, reads);
  std::string params, values, elements;
  for (const TensorDecl& in : m.inputs) {
    params += fmt::format("{}float {}", params.empty() ? "" : ", ", value_id(in.name.value));
    values += fmt::format("{}{}[j]", values.empty() ? "" : ", ", value_id(in.name.value));
    elements += fmt::format("{}{}.element(i)", elements.empty() ? "" : ", ", tensor_id(in.name.value));
  }
  w.line();
  w.comment("The value of an element, from each input's value there.");
  w.open(fmt::format("CUTLASS_DEVICE float value({}) const", params));
  w.line(fmt::format("const float x = {};", value_id(m.input().name.value)));
  w.line(fmt::format("return {};", s.of ? expr_code(m, *s.of) : "x"));
  w.close();
  write_vector_and_element(w, m, fmt::format("value({})", values), fmt::format("value({})", elements));
  w.comment("A scanned value through the chain.");
  w.open("CUTLASS_DEVICE float finish(float x) const");
  for (const EpiOp& op : m.chain)
    if (op.kind != EpiKind::store) w.line(stage_code(m, op));
  w.line("return x;");
  w.close();
  write_misaligned(w, m);
  w.close("};");
}

/// run_scan(caller's inputs, output, scalars, extents, stream, err, err_len): fills the Body and launches.
void write_run(CppWriter& w, const MemOpConfig& m, const std::vector<InputRead>& reads) {
  const TensorDecl& out = m.output();
  const TensorDecl& domain = m.domain();  // the first input, whose extents the output has (C708)
  std::string rows;
  for (size_t d = 0; d + 1 < domain.dims.size(); ++d)
    rows += (rows.empty() ? "" : " * ") + extent_id(domain.dims[d]);
  if (rows.empty()) rows = "1";
  const std::string n = extent_id(domain.dims.back());
  w.comment(
      fmt::format("`{}` = the scan of {} rows of {} elements, on `stream`; 0, or nonzero (why: `err`).\n"
                  "One launch at a time per process: the launches share `workspace`.",
                  out.name.value, rows, n));
  w.open(fmt::format("int run_scan({}cudaStream_t stream, char* err, size_t err_len)", run_params(m)));
  w.line("Body body;");
  write_fill(w, m, reads, "body");
  w.line("ucut_scan_workspace<kMaxSegments>* work = nullptr;");
  w.open(
      "if (cudaError_t e = cudaGetSymbolAddress(reinterpret_cast<void**>(&work), workspace); e != "
      "cudaSuccess)");
  w.line("ucut_set_error(err, err_len, \"scan: no workspace\", cudaGetErrorString(e));");
  w.line("return 1;");
  w.close();
  w.line(fmt::format(
      "return ucut_scan_launch<ElementOut, kVector, kThreads, kItems, kPersistent, kMaxSegments, kExclusive, "
      "kReverse, ScanOp, Body>(body, work, {}, {}, {}, stream, err, err_len);",
      tensor_id(out.name.value), rows, n));
  w.close();
}

}  // namespace

EmittedKernel emit_scan(const SourceFile& src, const MemOpConfig& m) {
  UC_ASSERT(m.scan) << "emit_scan on a `" << op_name(m.op.value) << "`";
  const std::string ns = memop_namespace(m), hash = memop_hash(m), gencode = gencode_for(m.arch.value);
  std::vector<InputRead> reads;
  for (size_t i = 0; i < m.inputs.size(); ++i) reads.push_back(input_read(m, i));
  CppWriter w;
  write_family_opening(w, src, m,
                       {"<algorithm>", "<cmath>", "<cstdint>", "<cstdio>", "<cstring>", "<type_traits>",
                        "<cuda_runtime.h>", "<cub/block/block_reduce.cuh>", "<cub/block/block_scan.cuh>",
                        "<cutlass/cutlass.h>", "<cutlass/array.h>", "<cutlass/numeric_conversion.h>",
                        "<cutlass/epilogue/thread/activation.h>", "<cute/tensor.hpp>"},
                       {"memop_scan.inc"});
  w.alias("ScanOp", op_functor(m.scan->op.value));
  const MemTunables& t = m.tune;
  const TensorDecl& out = m.output();
  w.line(fmt::format("constexpr int kVector = {};  // elements per access: {} bytes of `{}`", t.vector.value,
                     t.vector.value * dtype_bits(out.dtype.value) / 8, out.name.value));
  w.line(fmt::format("constexpr int kThreads = {};  // threads per block", t.block.value));
  w.line(fmt::format("constexpr int kItems = {};  // vectors per thread and chunk", t.items.value));
  w.line(fmt::format("constexpr bool kPersistent = {};  // {}", t.grid.value == GridPolicy::persistent,
                     t.grid.value == GridPolicy::persistent ? "at most the blocks the GPU holds at once"
                                                            : "one block per row segment"));
  w.line(fmt::format("constexpr bool kExclusive = {};  // {}", m.scan->exclusive.value,
                     m.scan->exclusive.value ? "element j combines the values before it"
                                             : "element j combines the values up to itself"));
  w.line(fmt::format("constexpr bool kReverse = {};  // {}", m.scan->reverse.value,
                     m.scan->reverse.value ? "from each row's end" : "from each row's start"));
  w.line(fmt::format("constexpr int kMaxSegments = {};  // the partials' array: the most row segments of a launch",
                     kMaxSegments));
  w.line();
  write_body(w, m, reads);
  w.line();
  w.comment("The partials of this kernel's row segments (see memop_scan.inc).");
  w.line("__device__ ucut_scan_workspace<kMaxSegments> workspace;");
  w.line();
  write_run(w, m, reads);
  w.close(fmt::format("}}  // namespace {}", ns));
  return EmittedKernel{w.str(), ns, hash, gencode, {}, {}};
}

}  // namespace ucut::memory
