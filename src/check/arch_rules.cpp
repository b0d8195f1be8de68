// check/arch_rules.cpp — arch gating and operand/accumulator types (C101–C105, C209–C212).
#include <fmt/format.h>

#include "check/check.h"
#include "check/mma_table.h"
#include "support/suggest.h"

namespace ucut::rules {
namespace {

/// C209, C216: TF32 with A and B row-major (sm90_transposed_accumulators): CUTLASS swaps A and B, and its transposed
/// default epilogue stores D without fusion, from a warp-specialized TMA kernel, in place of any epilogue schedule.
void check_transposed_accumulators(const KernelConfig& cfg, DiagEngine& diags) {
  if (cfg.grouped()) {
    diags.report(RuleId::C209, cfg.b.layout.span,
                 "a grouped TF32 GEMM with A and B row-major has no CUTLASS 4.2 kernel: the pointer-array kernels have "
                 "no epilogue for the transposed accumulators of the swapped mainloop",
                 "declare B `col` (K-major): store each B transposed");
    return;
  }
  if (const EpiOp* fused = cfg.first_fused_stage())
    diags.report(RuleId::C216, fused->span,
                 fmt::format("TF32 with A and B row-major runs with A and B swapped, and the transposed epilogue that "
                             "stores the result cannot fuse `{}`",
                             epi_info(fused->kind).name),
                 "declare B `col` (K-major: store B transposed) to fuse, or store D plainly and apply the rest after");
  KernelSchedule k = cfg.kernel_schedule.value;
  if (k != KernelSchedule::auto_ && k != KernelSchedule::tma_warpspecialized && k != KernelSchedule::tma_cooperative &&
      k != KernelSchedule::tma_pingpong)
    diags.report(RuleId::C216, cfg.kernel_schedule.span,
                 fmt::format("TF32 with A and B row-major runs the register-sourced mainloop, which CUTLASS 4.2 builds "
                             "for the warp-specialized TMA kernels only, not `{}`",
                             kernel_schedule_name(k)),
                 "use `with_scheduler(tma_cooperative)` (tile M 128 or 256) or `with_scheduler(tma_warpspecialized)`");
  EpilogueSchedule e = cfg.epilogue_schedule.value;
  if (e != EpilogueSchedule::auto_ && !cfg.epilogue_schedule.span.implied)  // a kernel schedule's default is replaced
    diags.report(RuleId::C216, cfg.epilogue_schedule.span,
                 fmt::format("TF32 with A and B row-major stores through CUTLASS's transposed default epilogue; "
                             "`epilogue = {}` cannot run it",
                             epilogue_schedule_name(e)),
                 "leave the epilogue schedule automatic: remove `epilogue = ...`");
}

/// C209, C210: wgmma reads fp8/int8/tf32 operands K-major from shared memory; tf32 has transposing paths
/// (not for grouped GEMMs) with tile restrictions (cutlass_library/sm90_utils.py get_valid_schedules).
void check_major_modes(const KernelConfig& cfg, const MmaFacts& mma, DiagEngine& diags) {
  bool a_k_major = cfg.a.layout.value == Layout::row;
  bool b_k_major = cfg.b.layout.value == Layout::col;
  DType t = mma_input_type(cfg);
  if (t != DType::tf32 && mma.needs_k_major) {
    for (const TensorDecl* op : {&cfg.a, &cfg.b}) {
      bool k_major = op == &cfg.a ? a_k_major : b_k_major;
      if (k_major) continue;
      Layout want = op == &cfg.a ? Layout::row : Layout::col;
      Diagnostic& d = diags.report(
          RuleId::C209, op->layout.span,
          fmt::format("`{}` operands must be K-major: `{}` is `{}` but must be `{}`", dtype_name(t), op->name.value,
                      layout_name(op->layout.value), layout_name(want)),
          fmt::format("store {} {}-major (transpose it once outside the kernel) and declare it `{}`", op->name.value,
                      op == &cfg.a ? "row" : "column", layout_name(want)));
      if (!op->layout.span.implied) {
        d.hint->edit = Edit{op->layout.span, std::string(layout_name(want))};
        d.hint->applicability = Applicability::maybe_incorrect;
      }
    }
    return;
  }
  if (t != DType::tf32) return;
  if (cfg.grouped() && !a_k_major) {
    // sm90_gmma_builder.inl: the pointer-array kernels take the register-sourced-A mainloop for mixed widths only.
    Diagnostic& d = diags.report(
        RuleId::C209, cfg.a.layout.span,
        "a grouped TF32 GEMM needs A `row` (K-major): CUTLASS 4.2's pointer-array kernel has no transposing "
        "(register-sourced A) mainloop for f32 operands",
        "store every A row-major and declare it `row`, or use bf16/f16 operands, which may be column-major");
    if (!cfg.a.layout.span.implied) {
      d.hint->edit = Edit{cfg.a.layout.span, "row"};
      d.hint->applicability = Applicability::maybe_incorrect;
    }
    return;
  }
  int tn = cfg.tile.value[1], tk = cfg.tile.value[2];
  if (!(a_k_major && b_k_major) && cfg.stages.value > 0) {
    // is_use_rmem_A (sm90_common.inl): the RS builder reads StageCountType::bytes, which StageCount<N> lacks.
    Diagnostic& d = diags.report(
        RuleId::C210, cfg.stages.span,
        "TF32 without K-major A and B runs the register-sourced-A mainloop, whose CUTLASS 4.2 builder sizes its "
        "stages itself: `with_stages(N)` does not compile",
        "use `with_stages(auto)`, or declare A `row` and B `col`");
    d.hint->edit = Edit{cfg.stages.span, "with_stages(auto)"};
    d.hint->applicability = Applicability::machine_applicable;
  }
  if (a_k_major && !b_k_major) check_transposed_accumulators(cfg, diags);
  if (!a_k_major && !b_k_major) {
    if (tk != 32 || tn % tk != 0)
      diags.report(RuleId::C210, cfg.tile.span,
                   fmt::format("TF32 with column-major A and row-major B needs tile K = 32 and N % K == 0; got {}x{}x{}",
                               cfg.tile.value[0], tn, tk),
                   fmt::format("use `with_threadblockshape({}, {}, 32)`", cfg.tile.value[0], tn % 32 == 0 ? tn : 128));
  } else if (!(a_k_major && b_k_major) && tk <= 16) {
    // sm90_mma_tma_gmma_rs_warpspecialized.hpp asserts more than two MMA k-steps (tf32 wgmma K is 8) per tile.
    diags.report(RuleId::C210, cfg.tile.span,
                 fmt::format("TF32 with {} runs the register-sourced mainloop, which needs more than two MMA K steps "
                             "of 8 per tile; tile K {} has {}",
                             a_k_major ? "row-major B" : "column-major A", tk, tk / 8),
                 tn % 32 == 0 ? fmt::format("use tile K 32: `with_threadblockshape({}, {}, 32)`", cfg.tile.value[0], tn)
                              : fmt::format("use tile K 32 and a tile N that is a multiple of it: "
                                            "`with_threadblockshape({}, {}, 32)`",
                                            cfg.tile.value[0], (tn + 31) / 32 * 32));
  } else if (tn % tk != 0) {
    // Tile K is a multiple of 8 and at least 16 for tf32 (C203); 32 or 16 divides every N that is a multiple of 16.
    int k = tn % 32 == 0 ? 32 : tn % 16 == 0 ? 16 : 0;
    diags.report(RuleId::C210, cfg.tile.span,
                 fmt::format("TF32 needs tile N to be a multiple of tile K; {} is not a multiple of {}", tn, tk),
                 k ? fmt::format("use tile K {}: `with_threadblockshape({}, {}, {})`", k, cfg.tile.value[0], tn, k)
                   : fmt::format("use a tile N that is a multiple of 32: `with_threadblockshape({}, {}, 32)`",
                                 cfg.tile.value[0], (tn + 31) / 32 * 32));
  }
}

}  // namespace

void check_arch(const KernelConfig& cfg, DiagEngine& diags) {
  const ArchInfo& arch = arch_info(cfg.arch.value);
  if (cfg.arch.value == Arch::sm90) {
    Diagnostic& d = diags.report(RuleId::C102, cfg.arch.span,
                                 "`sm90` cannot use wgmma, TMA multicast or setmaxnreg; CUTLASS 3.x Hopper kernels "
                                 "compile to no-ops for it",
                                 "target `sm90a`, the arch-specific Hopper feature set");
    d.hint->edit = Edit{cfg.arch.span, "sm90a"};
    d.hint->applicability = Applicability::machine_applicable;
    return;
  }
  if (arch.backend == BackendKind::reserved) {
    diags.report(RuleId::C104, cfg.arch.span,
                 fmt::format("`{}` is reserved for a future backend; CUTLASS 4.2 Blackwell kernels are not emitted yet",
                             arch.name),
                 "target `sm90a`");
    return;
  }
  if (arch.backend == BackendKind::none) {
    diags.report(RuleId::C101, cfg.arch.span,
                 fmt::format("no backend emits `{}` for `{}` yet; μCUTLASS emits CUTLASS 3.x kernels for `sm90a` "
                             "and CUTLASS 2.x kernels for `sm80`, `sm86` and `sm89`{}",
                             op_name(cfg.op.value), arch.name,
                             arch.max_cuda ? fmt::format(" (`{}` also needs CUDA {}.{} or older: nvcc 13 dropped it)",
                                                         arch.name, arch.max_cuda / 10, arch.max_cuda % 10)
                                           : ""),
                 "target `sm80` (A100), `sm86`, `sm89` (L40S, RTX 4090) or `sm90a` (H100, H200)");
    return;
  }
  if (cfg.backend() == BackendKind::sm80) return;  // sm80_rules.cpp checks the 2.x backend's types
  DType ta = cfg.a.dtype.value, tb = cfg.b.dtype.value;
  if (cfg.math.value == MathMode::tf32x3) {
    diags.report(RuleId::C105, cfg.math.span,
                 "3xTF32 emulation exists in CUTLASS 4.2 only for 2.x SM80 kernels (OpMultiplyAddFastF32), "
                 "not for the Hopper collective builders",
                 "run the 2.x kernel: `with_scheduler(multistage)`, or use `math = tf32` (about 1e-3 relative error)");
    return;
  }
  auto mma = sm90_mma(ta == DType::f32 ? DType::tf32 : ta);
  if (!mma) {
    diags.report(RuleId::C103, cfg.a.dtype.span,
                 fmt::format("`{}` has no wgmma tensor-core instruction on `{}`", dtype_name(ta), arch.name),
                 "use bf16, f16, f32 (as tf32), e4m3, e5m2 or i8 operands");
    return;
  }
  bool both_fp8 = is_fp8(ta) && is_fp8(tb);
  if (ta != tb && !both_fp8) {
    diags.report(RuleId::C212, cfg.b.dtype.span,
                 fmt::format("A is `{}` but B is `{}`; wgmma multiplies equal types (FP8 may mix e4m3 and e5m2)",
                             dtype_name(ta), dtype_name(tb)),
                 fmt::format("declare B as `{}` too", dtype_name(ta)));
    return;
  }
  // Math modes are checked after the type mix: with A f32 and B bf16 the mix is the error, not the implied mode.
  if (cfg.math.value == MathMode::tf32 && (ta != DType::f32 || tb != DType::f32)) {
    diags.report(RuleId::C105, cfg.math.span,
                 fmt::format("`math = tf32` applies to f32 operands, not `{}`", dtype_name(ta)),
                 "remove `math = tf32`");
    return;
  }
  if (cfg.math.value == MathMode::native && ta == DType::f32) {
    diags.report(RuleId::C105, cfg.math.span,
                 "exact f32 (`math = native`) has no tensor-core kernel on `sm90a`; Hopper multiplies f32 as tf32",
                 "use `math = tf32` (the default for f32 operands), or the 2.x SIMT kernel: `with_scheduler(multistage)`");
    return;
  }
  DType acc = cfg.acc.value;
  if (std::find(mma->accumulators.begin(), mma->accumulators.end(), acc) == mma->accumulators.end()) {
    std::vector<std::string_view> legal;
    for (DType t : mma->accumulators) legal.push_back(dtype_name(t));
    Diagnostic& d = diags.report(RuleId::C211, cfg.acc.span,
                                 fmt::format("`{}` operands cannot accumulate in `{}`", dtype_name(ta), dtype_name(acc)),
                                 fmt::format("accumulate in {}", quoted_list(legal)));
    if (!cfg.acc.span.implied) {
      d.hint->edit = Edit{cfg.acc.span, std::string(dtype_name(mma->accumulators.front()))};
      d.hint->applicability = Applicability::machine_applicable;
    }
    return;
  }
  if (cfg.compute.value != DType::f32 && cfg.compute.value != DType::f16) {
    diags.report(RuleId::C211, cfg.compute.span,
                 fmt::format("epilogue compute type `{}` is not supported", dtype_name(cfg.compute.value)),
                 "use `compute: f32`");
    return;
  }
  if (!cfg.conv()) check_major_modes(cfg, *mma, diags);  // fprop reads X and W channels-innermost: K-major
}

}  // namespace ucut::rules
