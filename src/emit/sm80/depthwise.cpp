// emit/sm80/depthwise.cpp — `depthwise_conv2d` as CUTLASS 4.2's direct convolution
// (conv/kernel/default_depthwise_fprop.h DefaultDepthwiseDirect2dConvFprop: SIMT f32 FMA, cp.async multistage,
// kOptimized iterators with stride and dilation at run time), wrapped in the kernel ABI. Geometry: ir/depthwise.h;
// what check lets through: check/depthwise_rules.cpp.
//   - Each CTA computes a P x Q patch of output pixels for N channels with the R x S filter compiled in; the grid is
//     (1, ceil(C / N), splits), and CTA z walks every splits-th patch of the batch. CUTLASS calls `splits`
//     split_k_slices, but nothing is reduced: make_arguments picks as many as fill the GPU once.
//   - Before every run CUTLASS reorders the filter [C, R*S] to [R*S, C] into a buffer it is given; the `Gemm` adapter
//     below takes that buffer from the ABI's workspace.
//   - The epilogue is one thread-level functor, Y = act(alpha * acc + beta * C) (ir/linear_chain.h): C is a residual
//     tensor, or the `bias(col)` vector read at every pixel (its pixel strides 0, beta = 1).
#include <fmt/format.h>

#include "emit/abi_wrapper.h"
#include "emit/cpp_writer.h"
#include "emit/sm80/conv.h"
#include "emit/sm80/linear_epilogue.h"
#include "ir/canonical.h"
#include "ir/depthwise.h"
#include "ir/linear_chain.h"

namespace ucut::sm80 {
namespace {

class DepthwiseEmitter {
 public:
  DepthwiseEmitter(const SourceFile& src, const KernelConfig& cfg)
      : src_(src),
        cfg_(cfg),
        ns_(kernel_namespace(cfg)),
        tile_(*depthwise_tile(cfg.tile.value[0])),
        filter_(*depthwise_filter(cfg)),
        chain_(linear_chain(cfg, /*allow_bias=*/true)) {}

  EmittedKernel run() {
    std::string gencode = gencode_for(cfg_);
    open_kernel_file(w_, src_, cfg_, gencode,
                     {"<algorithm>", "<cstdint>", "<cstdio>", "<new>", "<cuda_runtime.h>", "<cute/tensor.hpp>",
                      "<cutlass/cutlass.h>", "<cutlass/conv/conv2d_problem_size.h>",
                      "<cutlass/conv/device/direct_convolution.h>", "<cutlass/conv/kernel/default_depthwise_fprop.h>",
                      "<cutlass/epilogue/thread/activation.h>", "<cutlass/epilogue/thread/linear_combination.h>",
                      "<cutlass/epilogue/thread/linear_combination_generic.h>"},
                     ns_);
    kernel_types();
    adapter();
    make_arguments();
    write_host_api(w_, src_, cfg_, {.backend_staging = true});
    close_kernel_file(w_, ns_);
    return EmittedKernel{w_.str(), ns_, config_hash(cfg_), gencode, {}, {}};
  }

 private:
  /// "Y = relu(alpha * acc + bias[c])": the chain as the functor computes it, for the header comment.
  std::string formula() const {
    std::string x = chain_.scale ? "alpha * acc" : "acc";
    if (chain_.residual) x += " + beta * C";
    if (chain_.bias) x += " + bias[c]";
    if (chain_.activation) x = fmt::format("{}({})", epi_info(chain_.activation->kind).name, x);
    return fmt::format("{} = {}", cfg_.output().name.value, x);
  }

  void kernel_types() {
    auto [tm, tn, tk] = cfg_.tile.value;
    auto [wm, wn, wk] = cfg_.warp.value;
    auto [r, s] = filter_;
    int stages = depthwise_smem(cfg_, tile_, filter_).stages;
    w_.comment(fmt::format("What runs: CUTLASS's depthwise direct convolution (SIMT f32 FMA, {} stages of cp.async), "
                           "{}x{} output pixels",
                           stages, tile_.out_p, tile_.out_q));
    w_.comment(fmt::format("of {} channels per CTA with the {}x{} filter compiled in; stride, padding and dilation "
                           "come with each problem.",
                           tn, r, s));
    w_.comment(fmt::format("Epilogue: {}.", formula()));
    w_.line(fmt::format("using ElementA = {};  // X [n, h, w, c]", cutlass_type(cfg_.a.dtype.value)));
    w_.line(fmt::format("using ElementB = {};  // W [c, r, s, 1]", cutlass_type(cfg_.b.dtype.value)));
    w_.line(fmt::format("using ElementD = {};  // Y [n, p, q, c], and C", cutlass_type(cfg_.output().dtype.value)));
    w_.alias("ElementAccumulator", std::string(cutlass_type(cfg_.acc.value)));
    w_.alias("ElementCompute", std::string(cutlass_type(cfg_.compute.value)));
    w_.alias("Layout", "cutlass::layout::TensorNHWC");
    w_.line("constexpr int kVector = 128 / cutlass::sizeof_bits<ElementD>::value;  // channels per 16-byte access");
    w_.line();
    w_.alias("ThreadBlockOutputShape",
             fmt::format("cutlass::conv::TensorNHWCShape<1, {}, {}, {}>", tile_.out_p, tile_.out_q, tn));
    w_.alias("FilterShape", fmt::format("cutlass::MatrixShape<{}, {}>", r, s));
    w_.line(fmt::format("using ThreadblockShape = cutlass::gemm::GemmShape<{}, {}, {}>;  // pixels, channels, taps", tm,
                        tn, tk));
    w_.alias("WarpShape", fmt::format("cutlass::gemm::GemmShape<{}, {}, {}>", wm, wn, wk));
    w_.alias("InstructionShape", "cutlass::gemm::GemmShape<1, 1, 1>");
    w_.line(fmt::format("constexpr int Stages = {};{}", stages,
                        cfg_.stages.value == 0 ? "  // with_stages(auto): ir/depthwise.h depthwise_smem" : ""));
    write_linear_epilogue(w_, chain_, "kVector");
    w_.alias("ThreadblockSwizzle",
             fmt::format("cutlass::conv::threadblock::DepthwiseDirect2dConvIdentityThreadblockSwizzle<1, 1, {}, {}>",
                         tile_.out_p, tile_.out_q));
    w_.line("using ConvKernel = typename cutlass::conv::kernel::DefaultDepthwiseDirect2dConvFprop<");
    w_.line("    ElementA, Layout, ElementB, Layout, ElementD, Layout, ElementAccumulator, cutlass::arch::OpClassSimt,");
    w_.line("    cutlass::arch::Sm80, ThreadblockShape, ThreadBlockOutputShape, FilterShape, WarpShape, InstructionShape,");
    w_.line("    EpilogueOutputOp, ThreadblockSwizzle, Stages, cutlass::arch::OpMultiplyAdd,");
    w_.line("    cutlass::conv::IteratorAlgorithm::kOptimized, cutlass::conv::StrideSupport::kStrided>::Kernel;");
    w_.alias("DirectConv", "cutlass::conv::device::DirectConvolution<ConvKernel>");
    w_.line();
  }

  void adapter() {
    w_.comment("The device adapter the ABI wrapper drives under the name `Gemm`. CUTLASS's DirectConvolution reorders");
    w_.comment("the filter into a buffer its caller provides (ref_reordered_B) before every run, and its own");
    w_.comment("get_workspace_size is 0: this adapter sizes the ABI workspace for that buffer and points the reorder");
    w_.comment("there.");
    w_.open("struct Gemm");
    w_.alias("Arguments", "typename DirectConv::Arguments");
    w_.line();
    w_.open("static size_t get_workspace_size(Arguments const& args)");
    w_.line("return size_t(args.problem_size.filter_size()) * sizeof(ElementB);");
    w_.close();
    w_.line();
    w_.line("static cutlass::Status can_implement(Arguments const& args) { return DirectConv::can_implement(args); }");
    w_.line();
    w_.open("cutlass::Status initialize(Arguments const& args, void* workspace, cudaStream_t stream)");
    w_.line("Arguments reordered = args;");
    w_.line("reordered.ref_reordered_B =");
    w_.line("    typename ConvKernel::TensorRefB(static_cast<ElementB*>(workspace), args.ref_B.layout());");
    w_.line("return conv_.initialize(reordered, nullptr, stream);");
    w_.close();
    w_.line();
    w_.line("cutlass::Status run(cudaStream_t stream) { return conv_.run(stream); }");
    w_.line();
    w_.line("DirectConv conv_;");
    w_.close("};");
    w_.line();
  }

  void make_arguments() {
    w_.comment("CTAs per block of channels: CTA z of a grid (1, ceil(C / N), splits) computes the output patches z,");
    w_.comment("z + splits, ... of the batch (CUTLASS's split_k_slices; nothing is reduced across CTAs). As many as");
    w_.comment("stay resident on the GPU at once, and no more than there are patches.");
    w_.open("int pixel_splits(typename Gemm::Arguments const& args, int device)");
    w_.line("const cutlass::conv::Conv2dProblemSize& p = args.problem_size;");
    w_.line("int sms = 1, smem_per_sm = 0;");
    w_.line("cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);");
    w_.line("cudaDeviceGetAttribute(&smem_per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device);");
    w_.line("typename ConvKernel::Params params(args, nullptr);");
    w_.line("int64_t resident = std::min<int64_t>(2048 / ConvKernel::kThreadCount,");
    w_.line("                                     smem_per_sm / (int64_t(params.get_smem_size()) + 1024));");
    w_.line("int64_t patches = int64_t(p.N) * ((p.P + ThreadBlockOutputShape::kH - 1) / ThreadBlockOutputShape::kH) *");
    w_.line("                  ((p.Q + ThreadBlockOutputShape::kW - 1) / ThreadBlockOutputShape::kW);");
    w_.line("int64_t channel_blocks = (p.C + ThreadblockShape::kN - 1) / ThreadblockShape::kN;");
    w_.line("int64_t want = (std::max<int64_t>(1, sms * resident) + channel_blocks - 1) / channel_blocks;");
    w_.line("return int(std::max<int64_t>(1, std::min<int64_t>(std::min<int64_t>(want, patches), 65535)));");
    w_.close();
    w_.line();
    LinearScalars scalars = linear_scalars(cfg_, chain_);
    w_.comment("The convolution: ucut_conv_args in CUTLASS's order (spatial slots 1 = h, 2 = w), cross-correlation as in");
    w_.comment("PyTorch, all tensors packed channels-last.");
    w_.open("typename Gemm::Arguments make_arguments(const ucut_gemm_args* a, int device)");
    w_.line("const ucut_conv_args& c = a->conv;");
    w_.line("cutlass::conv::Conv2dProblemSize problem(c.n, c.h, c.w, c.c, c.k, c.r, c.s, c.p, c.q, c.pad[1], c.pad[2],");
    w_.line("                                         c.stride[1], c.stride[2], c.dilation[1], c.dilation[2],");
    w_.line("                                         cutlass::conv::Mode::kCrossCorrelation, 1, c.groups);");
    w_.line("Layout x = Layout::packed(cutlass::Tensor4DCoord(c.n, c.h, c.w, c.c));");
    w_.line("Layout w = Layout::packed(cutlass::Tensor4DCoord(c.k, c.r, c.s, 1));");
    w_.line("Layout y = Layout::packed(cutlass::Tensor4DCoord(c.n, c.p, c.q, c.k));");
    if (chain_.bias) {
      w_.comment("C is the bias vector, read at every pixel: its pixel strides are 0 and beta is 1.");
      w_.line(fmt::format("ElementD* source = const_cast<ElementD*>(static_cast<const ElementD*>(a->vectors[{}]));",
                          vector_slot(cfg_, *chain_.bias)));
      w_.line("Layout source_layout(0, 0, 0);");
    } else if (chain_.residual) {
      w_.comment("C is the residual tensor, shaped like Y.");
      w_.line("ElementD* source = static_cast<ElementD*>(a->c.ptr);");
      w_.line("Layout source_layout = y;");
    } else {
      w_.comment("beta = 0: the epilogue never reads C (a null C loads nothing).");
      w_.line("ElementD* source = nullptr;");
      w_.line("Layout source_layout = y;");
    }
    w_.line(fmt::format("typename EpilogueOutputOp::Params epilogue(ElementCompute({}), ElementCompute({}));",
                        scalars.alpha, scalars.beta));
    w_.line("typename Gemm::Arguments args(problem, typename ConvKernel::TensorRefA(static_cast<ElementA*>(a->a.ptr), x),");
    w_.line("                             typename ConvKernel::TensorRefB(static_cast<ElementB*>(a->b.ptr), w),");
    w_.line("                             typename ConvKernel::TensorRefC(source, source_layout),");
    w_.line("                             typename ConvKernel::TensorRefC(static_cast<ElementD*>(a->d.ptr), y), epilogue,");
    w_.line("                             typename ConvKernel::TensorRefB());  // the reorder buffer: Gemm::initialize");
    w_.line("args.problem_size.split_k_slices = pixel_splits(args, device);");
    w_.line("return args;");
    w_.close();
    w_.line();
    geometry_limits();
  }

  /// What CUTLASS leaves unchecked or reports without a reason, through the ABI wrapper's staging hooks
  /// (abi_wrapper.h), whose staging_error says why a geometry cannot run; nothing is staged.
  void geometry_limits() {
    auto [r, s] = filter_;
    w_.comment("The geometries this kernel cannot run, with the reason: the filter size is compiled in (CUTLASS compares");
    w_.comment("R * S only), every channel is its own group, and stride and dilation widen the input patch that each");
    w_.comment("pipeline stage holds in shared memory. Nothing is staged (the ABI wrapper's staging hooks carry the");
    w_.comment("reason); CUTLASS's run reorders the filter itself.");
    w_.open("const char* staging_error(const ucut_gemm_args* a)");
    w_.line("const ucut_conv_args& c = a->conv;");
    w_.line("if (c.r != FilterShape::kRow || c.s != FilterShape::kColumn)");
    w_.line(fmt::format("  return \"the filter is not {}x{}, the size this kernel is compiled for\";", r, s));
    w_.line("if (c.groups != c.c || c.k != c.c) return \"not depthwise: groups, input and output channels must be equal\";");
    w_.line("int device = 0, limit = 0;");
    w_.line("cudaGetDevice(&device);");
    w_.line("cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);");
    w_.line("typename Gemm::Arguments args = make_arguments(a, device);");
    w_.line("typename ConvKernel::Params params(args, nullptr);");
    w_.open("if (params.get_smem_size() > limit)");
    w_.line("static thread_local char why[256];");
    w_.line("snprintf(why, sizeof(why),");
    w_.line("         \"stride %dx%d and dilation %dx%d need %d bytes of shared memory per CTA (%d stages of the input \"");
    w_.line("         \"patch); the GPU gives %d: use fewer stages or channels per CTA\",");
    w_.line("         c.stride[1], c.stride[2], c.dilation[1], c.dilation[2], params.get_smem_size(), Stages, limit);");
    w_.line("return why;");
    w_.close();
    w_.line("return nullptr;");
    w_.close();
    w_.line("size_t staging_bytes(const ucut_gemm_args*) { return 0; }");
    w_.line("ucut_gemm_args staged_arguments(const ucut_gemm_args* a, char*) { return *a; }");
    w_.line("ucut_gemm_args checked_arguments(const ucut_gemm_args* k) { return *k; }");
    w_.line("cudaError_t stage_in(const ucut_gemm_args*, const ucut_gemm_args*, cudaStream_t) { return cudaSuccess; }");
    w_.line("cudaError_t stage_out(const ucut_gemm_args*, const ucut_gemm_args*, cudaStream_t) { return cudaSuccess; }");
    w_.line();
  }

  const SourceFile& src_;
  const KernelConfig& cfg_;
  std::string ns_;
  DepthwiseTile tile_;
  std::array<int, 2> filter_;
  LinearChain chain_;
  CppWriter w_;
};

}  // namespace

EmittedKernel emit_depthwise(const SourceFile& src, const KernelConfig& cfg) { return DepthwiseEmitter(src, cfg).run(); }

}  // namespace ucut::sm80
