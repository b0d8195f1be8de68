// emit/sm80/conv.cpp — see conv.h. CUTLASS 2.x implicit-GEMM convolutions (multistage cp.async mainloop; Turing's
// two-stage one on sm75) for sm75-sm89 and `multistage` on sm90a:
//   fprop       DefaultConv2dFprop / DefaultConv3dFprop, optimized iterators (conv1d runs as conv2d with H = 1).
//   dgrad       a transposed convolution is CUTLASS's dgrad as it stands: its dy is our X, its filter [k, r, s, c]
//               is our W[in, r, s, out] and its dx our Y. 2D uses the strided-dgrad kernel (any stride, dilation
//               1); 3D the analytic strided iterators.
//   wgrad       DefaultConv2dWgrad / DefaultConv3dWgrad, optimized iterators.
//   grouped     DefaultConv2dGroupFprop (analytic iterators, GroupMode::kMultipleGroup: a CTA's N tile spans whole
//               groups, so K / G must divide tile N).
// The epilogue is CUTLASS's thread-level functor D = act(alpha * acc + beta * C) (ir/linear_chain.h); a `bias(col)`
// is C read with zero pixel strides. A forward convolution whose chain needs more — an `aux_store`, a residual and a
// bias together, a bias of another type — runs the ...FpropWithBroadcast kernel instead: its broadcast epilogue
// computes T = alpha * acc + beta * C + bias[k], Y = act(T) and may store T (ir/broadcast_chain.h). A `col_sum`
// runs the ...FpropWithReduction kernel, whose epilogue sums Y = alpha * acc + beta * C per CTA, finished by a second
// kernel after each run (ir/conv_reduction.h, conv_reduction.h).
#include "emit/sm80/conv.h"

#include <fmt/format.h>

#include "check/smem_model.h"
#include "emit/abi_wrapper.h"
#include "emit/cpp_writer.h"
#include "emit/sm80/broadcast_epilogue.h"
#include "emit/sm80/conv_reduction.h"
#include "emit/sm80/linear_epilogue.h"
#include "ir/broadcast_chain.h"
#include "ir/canonical.h"
#include "ir/conv_reduction.h"
#include "ir/linear_chain.h"
#include "ir/sm80_mma.h"
#include "support/error.h"

namespace ucut::sm80 {
namespace {

std::string gemm_shape(std::array<int, 3> s) {
  return fmt::format("cutlass::gemm::GemmShape<{}, {}, {}>", s[0], s[1], s[2]);
}

class ConvEmitter {
 public:
  ConvEmitter(const SourceFile& src, const KernelConfig& cfg)
      : src_(src),
        cfg_(cfg),
        ns_(kernel_namespace(cfg)),
        mma_(*sm80_mma(cfg)),
        three_d_(op_spatial_dims(cfg.op.value) == 3),
        kind_(op_conv_kind(cfg.op.value)),
        grouped_(op_conv_grouping(cfg.op.value) == ConvGrouping::grouped),
        chain_(linear_chain(cfg, /*allow_bias=*/kind_ != ConvKind::wgrad)),
        broadcast_(conv_uses_broadcast(cfg)),
        broadcast_chain_(broadcast_chain(cfg)),
        reduction_(conv2x_reduction(cfg)) {}

  EmittedKernel run() {
    std::string gencode = gencode_for(cfg_);
    std::vector<std::string_view> includes = {
        "<cstdint>", "<cstdio>", "<new>", "<cuda_runtime.h>", "<cutlass/cutlass.h>",
        "<cutlass/conv/conv2d_problem_size.h>", "<cutlass/conv/conv3d_problem_size.h>",
        "<cutlass/conv/device/implicit_gemm_convolution.h>", default_kernel_header(),
        "<cutlass/epilogue/thread/activation.h>", "<cutlass/epilogue/thread/linear_combination.h>",
        "<cutlass/epilogue/thread/linear_combination_generic.h>",
        "<cutlass/conv/threadblock/threadblock_swizzle.h>", "<cutlass/gemm/threadblock/threadblock_swizzle.h>"};
    if (broadcast_) includes.push_back("<cutlass/epilogue/thread/linear_combination_bias_elementwise.h>");
    if (reduction_) includes.push_back("<cutlass/epilogue/thread/linear_combination_with_elementwise.h>");
    open_kernel_file(w_, src_, cfg_, gencode, includes, ns_);
    element_types();
    kernel_types();
    make_arguments();
    if (reduction_) write_reduction_staging(w_, cfg_, *reduction_);
    write_host_api(w_, src_, cfg_, {.backend_staging = reduction_ != nullptr});
    close_kernel_file(w_, ns_);
    return EmittedKernel{w_.str(), ns_, config_hash(cfg_), gencode, {}, {}};
  }

 private:
  const char* default_kernel_header() const {
    if (grouped_) return "<cutlass/conv/kernel/default_conv2d_group_fprop.h>";
    if (broadcast_)
      return three_d_ ? "<cutlass/conv/kernel/default_conv3d_fprop_with_broadcast.h>"
                      : "<cutlass/conv/kernel/default_conv2d_fprop_with_broadcast.h>";
    if (reduction_) return "<cutlass/conv/kernel/default_conv2d_fprop_with_reduction.h>";  // 1D and 2D only
    static const char* const headers[2][3] = {
        {"<cutlass/conv/kernel/default_conv2d_fprop.h>", "<cutlass/conv/kernel/default_conv2d_dgrad.h>",
         "<cutlass/conv/kernel/default_conv2d_wgrad.h>"},
        {"<cutlass/conv/kernel/default_conv3d_fprop.h>", "<cutlass/conv/kernel/default_conv3d_dgrad.h>",
         "<cutlass/conv/kernel/default_conv3d_wgrad.h>"}};
    return headers[three_d_][static_cast<int>(kind_)];
  }

  void element_types() {
    // Every tensor is channels-last; a conv1d is a conv2d of height 1, so 1D and 2D share CUTLASS's NHWC kernels.
    std::string layout = three_d_ ? "cutlass::layout::TensorNDHWC" : "cutlass::layout::TensorNHWC";
    for (const auto& [t, name] : {std::pair{&cfg_.a, "A"}, std::pair{&cfg_.b, "B"}}) {
      w_.alias(fmt::format("Element{}", name), std::string(cutlass_type(t->dtype.value)));
      w_.alias(fmt::format("Layout{}", name), layout);
      w_.line(fmt::format("constexpr int Alignment{} = {};", name, t->kernel_align()));
    }
    const TensorDecl& d = cfg_.output();
    w_.alias("ElementD", std::string(cutlass_type(d.dtype.value)));
    w_.alias("LayoutD", layout);
    w_.line(fmt::format("constexpr int AlignmentD = {};", d.kernel_align()));
    w_.alias("ElementAccumulator", std::string(cutlass_type(cfg_.acc.value)));
    w_.alias("ElementCompute", std::string(cutlass_type(cfg_.compute.value)));
    w_.line();
  }

  std::string math_operator() const {
    if (cfg_.math.value == MathMode::tf32x3) return "cutlass::arch::OpMultiplyAddFastF32";
    if (mma_.cls == Sm80MmaClass::i8) return "cutlass::arch::OpMultiplyAddSaturate";
    return "cutlass::arch::OpMultiplyAdd";
  }

  /// The CUTLASS kernel template and its trailing arguments for this operator.
  std::pair<std::string, std::string> default_kernel() const {
    std::string conv = three_d_ ? "Conv3d" : "Conv2d";
    std::string align = three_d_ ? "" : ", AlignmentA, AlignmentB";  // the 3D kernels load 128-bit vectors only
    if (grouped_)
      return {"DefaultConv2dGroupFprop",
              "cutlass::conv::GroupMode::kMultipleGroup, cutlass::conv::IteratorAlgorithm::kAnalytic, "
              "cutlass::conv::StrideSupport::kStrided, AlignmentA, AlignmentB"};
    switch (kind_) {
      case ConvKind::fprop:
        return {"Default" + conv + (broadcast_ ? "FpropWithBroadcast" : reduction_ ? "FpropWithReduction" : "Fprop"),
                "cutlass::conv::IteratorAlgorithm::kOptimized, "
                                            "cutlass::conv::StrideSupport::kStrided" + align};
      case ConvKind::dgrad:
        return {"Default" + conv + "Dgrad",
                fmt::format("cutlass::conv::IteratorAlgorithm::{}, cutlass::conv::StrideSupport::kStrided{}",
                            three_d_ ? "kAnalytic" : "kOptimized", align)};
      case ConvKind::wgrad:
        return {"Default" + conv + "Wgrad",
                fmt::format("cutlass::conv::IteratorAlgorithm::kOptimized{}",
                            three_d_ ? "" : ", cutlass::conv::StrideSupport::kStrided" + align)};
    }
    UC_UNREACHABLE() << "ConvKind " << static_cast<int>(kind_);
  }

  void kernel_types() {
    SmemBudget b = sm80_smem_budget(cfg_);
    w_.alias("ThreadblockShape", gemm_shape(cfg_.tile.value));
    w_.alias("WarpShape", gemm_shape(cfg_.warp.value));
    w_.alias("InstructionShape", gemm_shape(mma_.instruction));
    w_.alias("OperatorClass",
             mma_.cls == Sm80MmaClass::simt ? "cutlass::arch::OpClassSimt" : "cutlass::arch::OpClassTensorOp");
    w_.alias("ArchTag", sm80_pipelined(cfg_) ? "cutlass::arch::Sm75" : "cutlass::arch::Sm80");
    w_.alias("MathOperator", math_operator());
    w_.line(fmt::format("constexpr int Stages = {};{}", b.stages,
                        cfg_.stages.value == 0 ? "  // with_stages(auto): check/smem_model.cpp sm80_smem_budget" : ""));
    w_.line();
    if (broadcast_)
      write_broadcast_epilogue(w_, broadcast_chain_, "AlignmentD");  // T = alpha * acc + beta * C + V, Y = act(T)
    else if (reduction_)
      write_reduction_epilogue(w_, "AlignmentD");  // Y = alpha * acc + beta * C, summed per CTA
    else
      write_linear_epilogue(w_, chain_, "AlignmentD");  // D = act(alpha * acc + beta * C), D's vector width
    // The 2D strided dgrad kernel maps CTAs to the output's stride phases with its own swizzle.
    bool strided_dgrad = kind_ == ConvKind::dgrad && !three_d_;
    w_.alias("Swizzle", fmt::format("cutlass::{}<{}>",
                                    strided_dgrad ? "conv::threadblock::StridedDgradIdentityThreadblockSwizzle"
                                                  : "gemm::threadblock::GemmIdentityThreadblockSwizzle",
                                    cfg_.swizzle.value));
    auto [kernel, tail] = default_kernel();
    w_.line(fmt::format("using ConvKernel = typename cutlass::conv::kernel::{}<", kernel));
    w_.line("    ElementA, LayoutA, ElementB, LayoutB, ElementD, LayoutD, ElementAccumulator,");
    w_.line(fmt::format("    OperatorClass, ArchTag, ThreadblockShape, WarpShape, InstructionShape, EpilogueOutputOp,{}",
                        reduction_ ? " ReductionOp," : ""));
    w_.line(fmt::format("    Swizzle, Stages, MathOperator, {}>::Kernel;", tail));
    w_.comment("The ABI wrapper drives any CUTLASS device adapter under this name.");
    w_.alias("Gemm", "cutlass::conv::device::ImplicitGemmConvolution<ConvKernel>");
    w_.line(fmt::format("static_assert(sizeof(typename ConvKernel::SharedStorage) <= {},", b.capacity));
    w_.line(fmt::format("              \"shared memory over the CTA limit: ucutlass check's model predicted {} bytes\");",
                        b.total_bytes));
    w_.line();
  }

  void problem_size() {
    w_.comment("ucut_conv_args is the forward convolution's geometry, which is how CUTLASS states all three");
    w_.comment("operators (a transposed convolution: its output is the forward input, its input the forward output).");
    if (three_d_) {
      w_.open("cutlass::conv::Conv3dProblemSize problem_size(const ucut_conv_args& c)");
      w_.line("return cutlass::conv::Conv3dProblemSize(c.n, c.d, c.h, c.w, c.c, c.k, c.t, c.r, c.s, c.z, c.p, c.q,");
      w_.line("    c.pad[0], c.pad[1], c.pad[2], c.stride[0], c.stride[1], c.stride[2],");
      w_.line("    c.dilation[0], c.dilation[1], c.dilation[2], cutlass::conv::Mode::kCrossCorrelation, 1, c.groups);");
    } else {
      w_.open("cutlass::conv::Conv2dProblemSize problem_size(const ucut_conv_args& c)");
      w_.line("return cutlass::conv::Conv2dProblemSize(c.n, c.h, c.w, c.c, c.k, c.r, c.s, c.p, c.q, c.pad[1], c.pad[2],");
      w_.line("    c.stride[1], c.stride[2], c.dilation[1], c.dilation[2], cutlass::conv::Mode::kCrossCorrelation, 1,");
      w_.line("    c.groups);");
    }
    w_.close();
    w_.line();
  }

  void make_arguments() {
    problem_size();
    std::string op = kind_ == ConvKind::fprop   ? "cutlass::conv::Operator::kFprop"
                     : kind_ == ConvKind::dgrad ? "cutlass::conv::Operator::kDgrad"
                                                : "cutlass::conv::Operator::kWgrad";
    w_.open("typename Gemm::Arguments make_arguments(const ucut_gemm_args* a, int device)");
    w_.line("(void)device;");
    w_.line("auto problem = problem_size(a->conv);");
    w_.line(fmt::format("constexpr auto kOperator = {};", op));
    w_.line("cutlass::TensorRef<ElementA, LayoutA> ref_a(static_cast<ElementA*>(const_cast<void*>(a->a.ptr)),");
    w_.line("    LayoutA::packed(cutlass::conv::implicit_gemm_tensor_a_extent(kOperator, problem)));");
    w_.line("cutlass::TensorRef<ElementB, LayoutB> ref_b(static_cast<ElementB*>(const_cast<void*>(a->b.ptr)),");
    w_.line("    LayoutB::packed(cutlass::conv::implicit_gemm_tensor_b_extent(kOperator, problem)));");
    w_.line("LayoutD layout_d = LayoutD::packed(cutlass::conv::implicit_gemm_tensor_c_extent(kOperator, problem));");
    w_.line("cutlass::TensorRef<ElementD, LayoutD> ref_d(static_cast<ElementD*>(a->d.ptr), layout_d);");
    if (broadcast_)
      broadcast_epilogue_arguments();
    else
      linear_epilogue_arguments();
    w_.close();
    w_.line();
  }

  /// `ref_c`: the residual, or — beta = 0, never read — D.
  void source_reference(bool residual) {
    if (residual) {
      w_.comment("C: the residual, Y-shaped.");
      w_.line("cutlass::TensorRef<ElementD, LayoutD> ref_c(static_cast<ElementD*>(const_cast<void*>(a->c.ptr)), layout_d);");
    } else {
      w_.comment("beta = 0: the epilogue never reads C; D keeps the reference well-formed.");
      w_.line("cutlass::TensorRef<ElementD, LayoutD> ref_c = ref_d;");
    }
  }

  /// C (a residual, the bias read with zero pixel strides, or unused), alpha and beta of act(alpha * acc + beta * C);
  /// with a reduction also the partial sums' buffer.
  void linear_epilogue_arguments() {
    LinearScalars scalars = linear_scalars(cfg_, chain_);
    if (chain_.bias) {
      w_.comment("C: the per-channel bias, read at every pixel (zero pixel strides), added with beta = 1.");
      w_.line(fmt::format("cutlass::TensorRef<ElementD, LayoutD> ref_c(static_cast<ElementD*>(const_cast<void*>("
                          "a->vectors[{}])),",
                          vector_slot(cfg_, *chain_.bias)));
      w_.line("    LayoutD(typename LayoutD::Stride(0)));");
    } else {
      source_reference(chain_.residual);
    }
    w_.line(fmt::format("typename EpilogueOutputOp::Params epilogue(ElementCompute({}), ElementCompute({}));",
                        scalars.alpha, scalars.beta));
    if (!reduction_) {
      w_.line("return typename Gemm::Arguments(problem, ref_a, ref_b, ref_c, ref_d, epilogue);");
      return;
    }
    w_.comment("The partial sums: one row of K per CTA row of tiles (staged_arguments points the aux slot at them).");
    w_.line("return typename Gemm::Arguments(problem, ref_a, ref_b, ref_c, ref_d, epilogue,");
    w_.line(fmt::format("    cutlass::conv::SplitKMode::kSerial, a->aux[{}].ptr, nullptr, problem.K, 0);",
                        aux_slot(cfg_, *reduction_)));
  }

  /// The broadcast epilogue's C (a residual or unused), alpha and beta, bias vector V and aux tensor T.
  void broadcast_epilogue_arguments() {
    BroadcastArguments args = broadcast_arguments(cfg_, broadcast_chain_);
    source_reference(broadcast_chain_.residual);
    w_.line(fmt::format("typename EpilogueOutputOp::Params epilogue(ElementCompute({}), ElementCompute({}));",
                        args.alpha, args.beta));
    w_.comment("V (nullptr: zeros) with row stride 0, the same for every pixel; T (nullptr: not stored), Y-shaped, its");
    w_.comment("pixels K elements apart.");
    w_.line("return typename Gemm::Arguments(problem, ref_a, ref_b, ref_c, ref_d, epilogue,");
    w_.line(fmt::format("    cutlass::conv::SplitKMode::kSerial, {}, {}, 0, problem.K);", args.vector, args.tensor));
  }

  const SourceFile& src_;
  const KernelConfig& cfg_;
  std::string ns_;
  Sm80Mma mma_;
  bool three_d_;
  ConvKind kind_;
  bool grouped_;
  LinearChain chain_;
  bool broadcast_;                  // the ...FpropWithBroadcast kernel (conv_uses_broadcast)
  BroadcastChain broadcast_chain_;  // its epilogue's parts, when broadcast_
  const EpiOp* reduction_;          // the `col_sum` of the ...FpropWithReduction kernel, or nullptr
  CppWriter w_;
};

}  // namespace

EmittedKernel emit_conv(const SourceFile& src, const KernelConfig& cfg) { return ConvEmitter(src, cfg).run(); }

}  // namespace ucut::sm80
