// emit/memory/library.cpp — the `library` family (ir/memop_library.h): one library call on the whole input.
// `sort` and `topk` call CUB's device radix sort (memop_library_sort.inc), `fft` cuFFT (memop_library_fft.inc),
// `attention` CUTLASS's fused multi-head attention kernel (memop_library_attention.inc); they keep their temporary
// storage, buffers and plans for the process
// (memop_library.inc). The file says it is a library call, and which, in the comment above its run function,
// and links the library it calls (EmittedKernel::libraries).
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

/// An output's parameter: `o_` + its name (a sort in place passes its input as both `t_data` and `o_data`).
std::string output_id(const std::string& name) { return "o_" + name; }

/// The element type alias of output o: ElementOut, ElementOut1, ...
std::string output_type(size_t o) { return o == 0 ? "ElementOut" : fmt::format("ElementOut{}", o); }

/// "cub::DeviceRadixSort::SortKeys (CUB): data sorted ascending, in place": the call in words.
std::string description(const MemOpConfig& m) {
  const LibrarySpec& l = *m.library;
  const std::string& in = m.input().name.value;
  switch (m.op.value) {
    case OpKind::sort:
      return fmt::format("cub::DeviceRadixSort::SortKeys{} (CUB): `{}` sorted {}{}",
                         l.order.value == SortOrder::descending ? "Descending" : "", in,
                         sort_order_name(l.order.value),
                         l.in_place ? ", in place" : fmt::format(" into `{}`", l.outputs[0].name.value));
    case OpKind::topk:
      return fmt::format(
          "cub::DeviceRadixSort::SortPairsDescending (CUB): the `{}` largest of `{}`, largest first, ties by "
          "the "
          "smaller index, into `{}` and their indices into `{}`",
          l.k.value, in, l.outputs[0].name.value, l.outputs[1].name.value);
    case OpKind::attention:
      return fmt::format(
          "AttentionKernel (CUTLASS's fused multi-head attention, examples/41): `{}` = softmax({} · `{}`·`{}`ᵀ{})·`{}` "
          "in one kernel, f32 accumulation",
          l.outputs[0].name.value,
          l.scale.span.implied ? std::string("1/sqrt(D)") : fmt::format("{}", l.scale.value), in,
          m.inputs[1].name.value, l.causal.value ? ", causal" : "", m.inputs[2].name.value);
    default:
      return fmt::format(
          "cufftExecC2C (cuFFT): the {} DFT of `{}` + i * `{}`, unnormalized, in f32, into `{}` + i * `{}`",
          fft_direction_name(l.direction.value), in, m.inputs[1].name.value, l.outputs[0].name.value,
          l.outputs[1].name.value);
  }
}

/// The call in the run function's body.
std::string call(const MemOpConfig& m) {
  const LibrarySpec& l = *m.library;
  auto in = [&](size_t i) { return tensor_id(m.inputs[i].name.value); };
  auto out = [&](size_t o) { return output_id(l.outputs[o].name.value); };
  auto extent = [](const TensorDecl& t) { return extent_id(t.dims.front()); };
  switch (m.op.value) {
    case OpKind::attention: {
      const AttentionExtents a = attention_extents(m);
      std::string batches = "1";
      for (const Extent& e : a.lead) batches += " * " + extent_id(e);
      return fmt::format(
          "ucut_library_attention<ElementOut>({}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, scratch, stream, err, "
          "err_len)",
          in(0), in(1), in(2), out(0), batches, extent_id(a.m), extent_id(a.n), extent_id(a.d), extent_id(a.e),
          l.scale.span.implied ? std::string("0.0") : fmt::format("{}", l.scale.value),
          l.causal.value ? "true" : "false");
    }
    case OpKind::sort:
      return fmt::format(
          "ucut_library_sort<Key, {}>(reinterpret_cast<const Key*>({}), reinterpret_cast<Key*>({}), {}, "
          "scratch, "
          "stream, err, err_len)",
          l.order.value == SortOrder::descending, in(0), out(0), extent(m.input()));
    case OpKind::topk:
      return fmt::format(
          "ucut_library_topk<Key>(reinterpret_cast<const Key*>({}), reinterpret_cast<Key*>({}), {}, {}, {}, "
          "scratch, "
          "positions, stream, err, err_len)",
          in(0), out(0), out(1), extent(m.input()), extent(l.outputs[0]));
    default:
      return fmt::format(
          "ucut_library_fft<ElementOut, {}>({}, {}, {}, {}, {}, scratch, plans, stream, err, err_len)",
          l.direction.value == FftDirection::forward ? "CUFFT_FORWARD" : "CUFFT_INVERSE", in(0), in(1),
          out(0), out(1), extent(m.input()));
  }
}

/// run_library(inputs, outputs, extents, stream, err, err_len): the call, its scratch (and a topk's index
/// array, an fft's plans) kept for the process.
void write_run(CppWriter& w, const MemOpConfig& m) {
  std::string params;
  const std::vector<CallerTensor> callers = m.caller_inputs();
  for (size_t c = 0; c < callers.size(); ++c)
    params += fmt::format("const ElementIn{}* {}, ", c, tensor_id(callers[c].name));
  const std::vector<const TensorDecl*> outs = m.outputs();
  for (size_t o = 0; o < outs.size(); ++o)
    params += fmt::format("{}* {}, ", output_type(o), output_id(outs[o]->name.value));
  for (const std::string& sym : m.extent_symbols()) params += fmt::format("int64_t n_{}, ", sym);
  w.comment(
      fmt::format("Library call, {}: {}.\n0, or nonzero (why: `err`). One call at a time per process: the "
                  "calls share `scratch`.{}",
                  library_name(m), description(m),
                  m.op.value == OpKind::attention
                      ? fmt::format("\nBuilt with -I$CUTLASS/{} beside the include paths above (kernel_forward.h).",
                                    kCutlassAttentionDir)
                      : ""));
  w.open(fmt::format("int run_library({}cudaStream_t stream, char* err, size_t err_len)", params));
  w.line("static ucut_scratch scratch;");
  if (m.op.value == OpKind::topk) w.line("static ucut_positions positions;");
  if (m.op.value == OpKind::fft) w.line("static ucut_fft_plans plans;");
  if (m.op.value == OpKind::sort || m.op.value == OpKind::topk)
    w.line("using Key = typename ucut_native<ElementOut>::type;");
  w.line(fmt::format("return {};", call(m)));
  w.close();
}

}  // namespace

EmittedKernel emit_library(const SourceFile& src, const MemOpConfig& m) {
  UC_ASSERT(m.library) << "emit_library on a `" << op_name(m.op.value) << "`";
  const bool fft = m.op.value == OpKind::fft;
  CppWriter w;
  if (m.op.value == OpKind::attention)
    write_family_opening(
        w, src, m,
        {"<algorithm>", "<cmath>", "<cstdint>", "<cstdio>", "<cstring>", "<type_traits>", "<cuda_runtime.h>",
         "<cutlass/cutlass.h>", "<cutlass/array.h>", "<cutlass/numeric_conversion.h>",
         "<cutlass/epilogue/thread/activation.h>", "<cute/tensor.hpp>", "\"kernel_forward.h\""},
        {"memop_library.inc", "memop_library_attention.inc"});
  else if (fft)
    write_family_opening(
        w, src, m,
        {"<algorithm>", "<cmath>", "<cstdint>", "<cstdio>", "<cstring>", "<map>", "<type_traits>",
         "<cuda_runtime.h>", "<cufft.h>", "<cutlass/cutlass.h>", "<cutlass/array.h>",
         "<cutlass/numeric_conversion.h>", "<cutlass/epilogue/thread/activation.h>", "<cute/tensor.hpp>"},
        {"memop_library.inc", "memop_library_fft.inc"});
  else
    write_family_opening(
        w, src, m,
        {"<algorithm>", "<cmath>", "<cstdint>", "<cstdio>", "<cstring>", "<type_traits>", "<cuda_bf16.h>",
         "<cuda_runtime.h>", "<cub/device/device_radix_sort.cuh>", "<cutlass/cutlass.h>", "<cutlass/array.h>",
         "<cutlass/numeric_conversion.h>", "<cutlass/epilogue/thread/activation.h>", "<cute/tensor.hpp>"},
        {"memop_library.inc", "memop_library_sort.inc"});
  const std::vector<const TensorDecl*> outs = m.outputs();
  for (size_t o = 1; o < outs.size(); ++o) w.alias(output_type(o), cutlass_type(outs[o]->dtype.value));
  w.line();
  write_run(w, m);
  w.close(fmt::format("}}  // namespace {}", memop_namespace(m)));
  std::vector<std::string> libraries;
  if (fft) libraries.push_back("cufft");
  return EmittedKernel{w.str(), memop_namespace(m), memop_hash(m), gencode_for(m.arch.value), libraries, {}};
}

}  // namespace ucut::memory
