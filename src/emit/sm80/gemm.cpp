// emit/sm80/gemm.cpp — the CUTLASS 2.x GEMM backend: DefaultGemmWithVisitor (multistage mma.sync mainloop fed by
// cp.async; Turing's two-stage pipelined loop on sm75) with the chain as one Sm80EVT (emit/sm80/evt.cpp), wrapped
// in the kernel ABI. Serves sm75, sm80, sm86, sm89 and `with_scheduler(multistage)` on sm90a (operands that TMA
// cannot load, 3xTF32, exact f32, f64).
#include <fmt/format.h>

#include "check/smem_model.h"
#include "emit/abi_wrapper.h"
#include "emit/backend.h"
#include "emit/cpp_writer.h"
#include "emit/sm80/conv.h"
#include "emit/sm80/evt.h"
#include "emit/sm80/linear_epilogue.h"
#include "ir/canonical.h"
#include "ir/linear_chain.h"
#include "ir/sm80_mma.h"

namespace ucut::sm80 {
namespace {

std::string gemm_shape(int m, int n, int k) { return fmt::format("cutlass::gemm::GemmShape<{}, {}, {}>", m, n, k); }

class GemmEmitter {
 public:
  GemmEmitter(const SourceFile& src, const KernelConfig& cfg)
      : src_(src), cfg_(cfg), ns_(kernel_namespace(cfg)), mma_(*sm80_mma(cfg)) {}

  EmittedKernel run() {
    std::string gencode = gencode_for(cfg_);
    std::vector<std::string_view> includes = {"<cstdint>", "<cstdio>", "<new>", "<cuda_runtime.h>", "<cutlass/cutlass.h>",
                                              "<cutlass/gemm/gemm.h>", "<cutlass/epilogue/thread/activation.h>"};
    if (cfg_.grouped())
      includes.insert(includes.end(), {"<cutlass/epilogue/thread/linear_combination.h>",
                                       "<cutlass/epilogue/thread/linear_combination_generic.h>",
                                       "<cutlass/gemm/device/gemm_grouped.h>", "<cutlass/gemm/kernel/default_gemm_grouped.h>"});
    else
      includes.insert(includes.end(), {"<cutlass/gemm/device/gemm_universal_adapter.h>",
                                       "<cutlass/gemm/kernel/default_gemm_universal_with_visitor.h>",
                                       "<cutlass/epilogue/threadblock/fusion/visitors.hpp>",
                                       "<cutlass/gemm/threadblock/threadblock_swizzle.h>"});
    open_kernel_file(w_, src_, cfg_, gencode, includes, ns_);
    element_types();
    kernel_types();
    make_arguments();
    // Stream-K peers count arrivals in the workspace; the reductions accumulate into their vectors with atomics.
    write_host_api(w_, src_, cfg_,
                   {.reinit_each_launch = cfg_.tile_scheduler.value == TileScheduler::stream_k,
                    .reset_reductions = !cfg_.reductions().empty()});
    close_kernel_file(w_, ns_);
    return EmittedKernel{w_.str(), ns_, config_hash(cfg_), gencode, {}, {}};
  }

 private:
  void element_types() {
    const TensorDecl& d = cfg_.output();
    const EpiOp* res = cfg_.source_stage();
    write_operand_types(w_, cfg_);
    w_.alias("ElementC", std::string(cutlass_type(res ? res->tensor->dtype.value : d.dtype.value)));
    w_.alias("ElementD", std::string(cutlass_type(d.dtype.value)));
    w_.line(fmt::format("constexpr int AlignmentD = {};", d.kernel_align()));
    w_.alias("ElementAccumulator", std::string(cutlass_type(cfg_.acc.value)));
    w_.alias("ElementCompute", std::string(cutlass_type(cfg_.compute.value)));
    w_.line("constexpr auto RoundStyle = cutlass::FloatRoundStyle::round_to_nearest;");
    w_.line();
  }

  std::string math_operator() const {
    if (cfg_.math.value == MathMode::tf32x3) return "cutlass::arch::OpMultiplyAddFastF32";
    if (mma_.cls == Sm80MmaClass::i8 && !is_fp8(cfg_.a.dtype.value)) return "cutlass::arch::OpMultiplyAddSaturate";
    return "cutlass::arch::OpMultiplyAdd";
  }

  void kernel_types() {
    auto [tm, tn, tk] = cfg_.tile.value;
    auto [wm, wn, wk] = cfg_.warp.value;
    auto [im, in, ik] = mma_.instruction;
    SmemBudget b = sm80_smem_budget(cfg_);
    bool simt = mma_.cls == Sm80MmaClass::simt;
    w_.alias("ThreadblockShape", gemm_shape(tm, tn, tk));
    w_.alias("WarpShape", gemm_shape(wm, wn, wk));
    w_.alias("InstructionShape", gemm_shape(im, in, ik));
    w_.alias("OperatorClass", simt ? "cutlass::arch::OpClassSimt" : "cutlass::arch::OpClassTensorOp");
    // FP8 mma.sync exists from SM89; Turing has its own (pipelined) kernels; everything else is tuned with the SM80
    // tag (CUTLASS has no Sm86 kernels).
    w_.alias("ArchTag", is_fp8(cfg_.a.dtype.value) ? "cutlass::arch::Sm89"
                        : sm80_pipelined(cfg_)     ? "cutlass::arch::Sm75"
                                                   : "cutlass::arch::Sm80");
    w_.alias("MathOperator", math_operator());
    w_.line(fmt::format("constexpr int Stages = {};{}", b.stages,
                        cfg_.stages.value == 0 ? "  // with_stages(auto): check/smem_model.cpp sm80_smem_budget" : ""));
    if (cfg_.grouped()) return grouped_kernel_types(b);
    w_.line("constexpr int EpilogueStages = 1;");
    w_.alias("OutputTileThreadMap",
             "cutlass::epilogue::threadblock::OutputTileThreadLayout<ThreadblockShape, WarpShape, ElementD, AlignmentD, "
             "EpilogueStages>");
    w_.line();
    EvtTree evt = build_evt(cfg_);
    if (!evt.preamble.empty()) w_.verbatim(evt.preamble);
    w_.comment("Epilogue visitor tree: " + evt.description);
    for (const auto& [name, type] : evt.aliases) w_.alias(name, type);
    w_.alias("FusionCallbacks", evt.root);
    callbacks_args_ = evt.arguments;
    w_.line();
    std::string swizzle = cfg_.tile_scheduler.value == TileScheduler::stream_k
                              ? "cutlass::gemm::threadblock::ThreadblockSwizzleStreamK"
                              : fmt::format("cutlass::gemm::threadblock::GemmIdentityThreadblockSwizzle<{}>", cfg_.swizzle.value);
    w_.line("using GemmKernel = typename cutlass::gemm::kernel::DefaultGemmWithVisitor<");
    w_.line("    ElementA, LayoutA, cutlass::ComplexTransform::kNone, AlignmentA,");
    w_.line("    ElementB, LayoutB, cutlass::ComplexTransform::kNone, AlignmentB,");
    w_.line("    ElementD, cutlass::layout::RowMajor, AlignmentD, ElementAccumulator, ElementCompute,");
    w_.line("    OperatorClass, ArchTag, ThreadblockShape, WarpShape, InstructionShape, FusionCallbacks,");
    w_.line(fmt::format("    {}, Stages, MathOperator, EpilogueStages>::GemmKernel;", swizzle));
    w_.alias("Gemm", "cutlass::gemm::device::GemmUniversalAdapter<GemmKernel>");
    w_.line(fmt::format("static_assert(sizeof(typename GemmKernel::SharedStorage) <= {},", b.capacity));
    w_.line(fmt::format("              \"shared memory over the CTA limit: ucutlass check's model predicted {} bytes\");",
                        b.total_bytes));
    w_.line();
  }

  /// CUTLASS 2.x's grouped kernel: a persistent grid walks the problem list in device memory; its epilogue is a
  /// thread-level functor, D = act(alpha * acc + beta * C) (check: C420 admits only chains of that form).
  void grouped_kernel_types(const SmemBudget& b) {
    write_linear_epilogue(w_, linear_chain(cfg_, /*allow_bias=*/false), "AlignmentD");  // D's vector width
    w_.line("using GemmKernel = typename cutlass::gemm::kernel::DefaultGemmGrouped<");
    w_.line("    ElementA, LayoutA, cutlass::ComplexTransform::kNone, AlignmentA,");
    w_.line("    ElementB, LayoutB, cutlass::ComplexTransform::kNone, AlignmentB,");
    w_.line(fmt::format("    ElementD, {}, ElementAccumulator,", layout_tag(cfg_, cfg_.output().layout.value)));
    w_.line("    OperatorClass, ArchTag, ThreadblockShape, WarpShape, InstructionShape, EpilogueOutputOp,");
    w_.line("    cutlass::gemm::threadblock::GemmBatchedIdentityThreadblockSwizzle, Stages,");
    w_.line("    cutlass::gemm::kernel::GroupScheduleMode::kDeviceOnly, MathOperator>::GemmKernel;");
    w_.alias("Gemm", "cutlass::gemm::device::GemmGrouped<GemmKernel>");
    w_.line(fmt::format("static_assert(sizeof(typename GemmKernel::SharedStorage) <= {},", b.capacity));
    w_.line(fmt::format("              \"shared memory over the CTA limit: ucutlass check's model predicted {} bytes\");",
                        b.total_bytes));
    w_.line("static_assert(sizeof(cutlass::gemm::GemmCoord) == 3 * sizeof(int32_t),");
    w_.line("              \"a problem is {m, n, k} as three int32 (ucut_group_args::problems)\");");
    w_.line();
  }

  void grouped_make_arguments() {
    LinearChain chain = linear_chain(cfg_, /*allow_bias=*/false);
    LinearScalars scalars = linear_scalars(cfg_, chain);
    w_.open("typename Gemm::Arguments make_arguments(const ucut_gemm_args* a, int device)");
    w_.line("(void)device;");
    w_.line("const ucut_group_args& g = a->group;");
    w_.line("auto* problems = reinterpret_cast<cutlass::gemm::GemmCoord*>(const_cast<int32_t*>(g.problems));");
    w_.line("auto* problems_host = reinterpret_cast<cutlass::gemm::GemmCoord*>(const_cast<int32_t*>(g.problems_host));");
    w_.comment("As many CTAs as stay resident on every SM: the kernel loops over the problems' tiles.");
    w_.line("int ctas = Gemm::sufficient(problems_host, int(g.count));");
    w_.line(fmt::format("typename EpilogueOutputOp::Params epilogue(ElementCompute({}), ElementCompute({}));",
                        scalars.alpha, scalars.beta));
    w_.comment(cfg_.has_source() ? "C is read per problem (the residual)."
                                 : "beta = 0: the epilogue never reads C; D's pointers keep the argument well-formed.");
    std::string c = cfg_.has_source() ? "c" : "d";
    w_.line("return typename Gemm::Arguments(problems, int(g.count), ctas, epilogue,");
    w_.line("    reinterpret_cast<ElementA**>(const_cast<void**>(g.a)), reinterpret_cast<ElementB**>(const_cast<void**>(g.b)),");
    w_.line(fmt::format("    reinterpret_cast<ElementD**>(const_cast<void**>(g.{})), reinterpret_cast<ElementD**>(const_cast<void**>(g.d)),", c));
    w_.line(fmt::format("    const_cast<int64_t*>(g.lda), const_cast<int64_t*>(g.ldb), const_cast<int64_t*>(g.ld{}),", c));
    w_.line("    const_cast<int64_t*>(g.ldd), problems_host);");
    w_.close();
    w_.line();
  }

  void make_arguments() {
    if (cfg_.grouped()) return grouped_make_arguments();
    w_.open("typename Gemm::Arguments make_arguments(const ucut_gemm_args* a, int device)");
    w_.line("(void)device;");
    w_.line(fmt::format("typename FusionCallbacks::Arguments callbacks = {};", callbacks_args_));
    w_.line("cutlass::gemm::GemmUniversalMode mode =");
    w_.line("    a->batch > 1 ? cutlass::gemm::GemmUniversalMode::kBatched : cutlass::gemm::GemmUniversalMode::kGemm;");
    w_.comment("C and D are written by the visitor tree; the kernel's own C/D pointers stay unused.");
    w_.line("return typename Gemm::Arguments(mode, cutlass::gemm::GemmCoord(int(a->m), int(a->n), int(a->k)), int(a->batch),");
    w_.line("                                callbacks, a->a.ptr, a->b.ptr, nullptr, nullptr, a->a.batch_stride,");
    w_.line("                                a->b.batch_stride, 0, 0, a->a.ld, a->b.ld, 0, 0);");
    w_.close();
    w_.line();
  }

  const SourceFile& src_;
  const KernelConfig& cfg_;
  std::string ns_;
  Sm80Mma mma_;
  CppWriter w_;
  std::string callbacks_args_;
};

}  // namespace

namespace {

class Sm80Backend final : public Backend {
 public:
  std::string_view name() const override { return "sm80"; }
  EmittedKernel emit(const SourceFile& src, const KernelConfig& cfg) const override {
    if (!cfg.conv()) return GemmEmitter(src, cfg).run();
    return op_conv_grouping(cfg.op.value) == ConvGrouping::depthwise ? emit_depthwise(src, cfg) : emit_conv(src, cfg);
  }
};

}  // namespace

const Backend& sm80_backend() {
  static const Sm80Backend backend;
  return backend;
}

}  // namespace ucut::sm80
