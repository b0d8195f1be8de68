// export/mskb_launcher.cpp
#include "export/mskb_launcher.h"

#include <fmt/format.h>

#include <algorithm>

#include "mskb/signature.h"

namespace ucut::interop {

const std::vector<std::string>& mskb_exportable_tasks() {
  static const std::vector<std::string> tasks = {"matrix_mul", "square_matrix_mul", "matrix_power"};
  return tasks;
}

namespace {

/// Reports X006 at the first part of `cfg` that does not fit an MSKB GEMM launcher in `want`; false if one did.
bool fits(const KernelConfig& cfg, DType want, DiagEngine& diags) {
  const char* hint = "MSKB's GEMM launchers pass row-major f32 (FP32) or bf16 (BF16) matrices and compute A·B: "
                     "declare A, B and D row-major in one of those types, with a plain store";
  if (cfg.op.value != OpKind::gemm) {
    diags.report(RuleId::X006, cfg.op.span,
                 fmt::format("`{}` is not a plain `gemm`: MSKB's GEMM tasks multiply one pair of matrices",
                             op_name(cfg.op.value)),
                 hint);
    return false;
  }
  for (const TensorDecl* t : {&cfg.a, &cfg.b, &cfg.output()}) {
    if (t->caller_dtype() != want) {  // a `from(T)` operand is passed in T
      diags.report(RuleId::X006, t->dtype.span,
                   fmt::format("{} is {}, but the {} launcher passes {}", t->name.value, dtype_name(t->caller_dtype()),
                               want == DType::f32 ? "FP32" : "BF16", dtype_name(want)),
                   hint);
      return false;
    }
    if (t->layout.value != Layout::row) {
      diags.report(RuleId::X006, t->layout.span,
                   fmt::format("{} is {}, but MSKB's launchers pass row-major matrices", t->name.value,
                               layout_name(t->layout.value)),
                   hint);
      return false;
    }
  }
  if (const EpiOp* fused = cfg.first_fused_stage()) {
    diags.report(RuleId::X006, fused->span, "MSKB's GEMM tasks compute A·B only; this stage changes the result", hint);
    return false;
  }
  return true;
}

/// The shared host code: run the emitted kernel on row-major operands, growing one workspace as needed.
constexpr const char* kRunGemm = R"(
namespace ucut_mskb_export {
inline void fail(const char* launcher, const char* what) {
  std::fprintf(stderr, "%s: %s\n", launcher, what);
  std::abort();
}
/// D (M×N) = A (M×K) · B (K×N), all row-major, on the default stream.
inline void run_gemm(const char* launcher, const void* A, const void* B, void* D, int M, int N, int K) {
  static void* workspace = nullptr;
  static size_t workspace_bytes = 0;
  const ucut_kernel_api* api = ucut_entry();
  ucut_gemm_args args = {};
  args.m = M;
  args.n = N;
  args.k = K;
  args.batch = 1;
  args.a = {const_cast<void*>(A), K, 0};
  args.b = {const_cast<void*>(B), N, 0};
  args.c = {D, N, 0};
  args.d = {D, N, 0};
  char err[512] = {0};
  if (api->can_implement(&args, err, sizeof err) != 0) fail(launcher, err);
  size_t need = api->workspace_size(&args);
  if (need > workspace_bytes) {
    if (workspace) cudaFree(workspace);
    if (cudaMalloc(&workspace, need) != cudaSuccess) fail(launcher, "cannot allocate the kernel's workspace");
    workspace_bytes = need;
  }
  void* prepared = api->prepare(&args, workspace, nullptr, err, sizeof err);
  if (!prepared) fail(launcher, err);
  int rc = api->launch(prepared, nullptr, err, sizeof err);
  api->release(prepared);
  if (rc != 0) fail(launcher, err);
}
}  // namespace ucut_mskb_export
)";

std::string launcher_body(const std::string& task, const std::string& symbol, const std::string& elem) {
  if (task == "matrix_mul")
    return "  ucut_mskb_export::run_gemm(\"" + symbol + "\", A, B, C, M, N, K);\n  cudaDeviceSynchronize();\n";
  if (task == "square_matrix_mul")
    return "  ucut_mskb_export::run_gemm(\"" + symbol + "\", A, B, C, M, M, M);\n  cudaDeviceSynchronize();\n";
  // matrix_power: B = A^P. P - 1 products alternate between B and a workspace so the last lands in B.
  return fmt::format(R"(  static {0}* scratch = nullptr;
  static size_t scratch_elems = 0;
  size_t elems = size_t(N) * size_t(N);
  if (P <= 1) {{
    cudaMemcpy(B, A, elems * sizeof({0}), cudaMemcpyDeviceToDevice);
    cudaDeviceSynchronize();
    return;
  }}
  if (elems > scratch_elems) {{
    if (scratch) cudaFree(scratch);
    if (cudaMalloc(&scratch, elems * sizeof({0})) != cudaSuccess) ucut_mskb_export::fail("{1}", "cannot allocate");
    scratch_elems = elems;
  }}
  // After product i (1-based) the result is in B when (P - 1 - i) is even, so the last one lands in B.
  const {0}* prev = A;
  for (int i = 1; i < P; ++i) {{
    {0}* out = ((P - 1 - i) % 2 == 0) ? B : scratch;
    ucut_mskb_export::run_gemm("{1}", prev, A, out, N, N, N);
    prev = out;
  }}
  cudaDeviceSynchronize();
)",
                     elem, symbol);
}

}  // namespace

std::optional<MskbLauncher> mskb_launcher(const std::string& task_name, const KernelConfig& cfg,
                                          const EmittedKernel& kernel, DiagEngine& diags) {
  const mskb::Task* task = mskb::find_task(task_name);
  const auto& served = mskb_exportable_tasks();
  if (!task || std::find(served.begin(), served.end(), task->name) == served.end()) {
    diags.report(RuleId::X006, cfg.header,
                 task ? fmt::format("MSKB's `{}` is not a GEMM task", task->name)
                      : fmt::format("there is no MSKB task called `{}`", task_name),
                 fmt::format("export --mskb serves {} ('ucutlass mskb list' prints every task)", fmt::join(served, ", ")));
    return std::nullopt;
  }
  mskb::Precision precision = cfg.a.caller_dtype() == DType::bf16 ? mskb::Precision::bf16 : mskb::Precision::fp32;
  if (!fits(cfg, precision == mskb::Precision::bf16 ? DType::bf16 : DType::f32, diags)) return std::nullopt;
  mskb::Signature sig = mskb::task_signature(*task, precision);
  std::string name = mskb::launcher_name(*task, precision), symbol = name + "_optimized";
  std::string elem = precision == mskb::Precision::bf16 ? "__nv_bfloat16" : "float";
  MskbLauncher out;
  out.file = name + ".cu";
  out.source = fmt::format(
      "// MSKB launcher {} (ucutlass export --mskb {}): the emitted kernel `{}`, then the launcher with MSKB's\n"
      "// signature. Build it alone (nvcc -DUCUT_DEFINE_ENTRY, CUTLASS include paths) or drop it into an MSKB test.\n",
      symbol, task->name, cfg.name.value);
  out.source += "#ifndef UCUT_DEFINE_ENTRY\n#define UCUT_DEFINE_ENTRY\n#endif\n" + kernel.code +
                "\n#include <cuda_bf16.h>\n#include <cstdio>\n#include <cstdlib>\n" + kRunGemm + "\nextern \"C\" " +
                sig.declaration(symbol) + " {\n" + launcher_body(task->name, symbol, elem) + "}\n";
  return out;
}

}  // namespace ucut::interop
