// ir/kernel_config.cpp — small queries over the IR.
#include "ir/kernel_config.h"

namespace ucut {

const EpiOp* KernelConfig::source_stage() const {
  for (const EpiOp& op : epilogue)
    if (op.kind == EpiKind::residual) return &op;
  return nullptr;
}

std::vector<const TensorDecl*> KernelConfig::epilogue_tensors() const {
  std::vector<const TensorDecl*> out;
  for (const EpiOp& op : epilogue)
    if (op.tensor && !is_reduction(op.kind)) out.push_back(&*op.tensor);
  return out;
}

std::vector<TensorDecl*> KernelConfig::epilogue_tensors() {
  std::vector<TensorDecl*> out;
  for (EpiOp& op : epilogue)
    if (op.tensor && !is_reduction(op.kind)) out.push_back(&*op.tensor);
  return out;
}

std::vector<const EpiOp*> KernelConfig::reductions() const {
  std::vector<const EpiOp*> out;
  for (const EpiOp& op : epilogue)
    if (is_reduction(op.kind)) out.push_back(&op);
  return out;
}

bool KernelConfig::plain_epilogue() const {
  return epilogue.size() == 1 && !output().scaled.value && !a.scaled.value && !b.scaled.value;
}

const EpiOp* KernelConfig::first_fused_stage() const {
  if (epilogue.size() > 1) return &epilogue.front();
  if (!plain_epilogue()) return &epilogue.back();
  return nullptr;
}

int TensorDecl::kernel_align() const { return padded.value ? 128 / dtype_bits(dtype.value) : align.value; }

bool KernelConfig::conv_as_gemm() const {
  return conv() && backend() == BackendKind::sm90 && op_conv_kind(op.value) == ConvKind::fprop &&
         op_conv_grouping(op.value) == ConvGrouping::dense &&
         (kernel_schedule.value == KernelSchedule::tma_cooperative || kernel_schedule.value == KernelSchedule::tma_pingpong);
}

BackendKind KernelConfig::backend() const {
  BackendKind b = arch_info(arch.value).backend;
  if (b == BackendKind::sm90 && kernel_schedule.value == KernelSchedule::multistage) return BackendKind::sm80;
  return b;
}

}  // namespace ucut
