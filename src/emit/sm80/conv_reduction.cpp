// emit/sm80/conv_reduction.cpp — see conv_reduction.h.
#include "emit/sm80/conv_reduction.h"

#include <fmt/format.h>

#include "emit/sm80/linear_epilogue.h"

namespace ucut::sm80 {

void write_reduction_epilogue(CppWriter& w, std::string_view count) {
  w.comment("CUTLASS's reduction epilogue: Y = alpha * acc + beta * C, each CTA summing its tile's columns of Y.");
  w.alias("EpilogueOutputOp", fmt::format("cutlass::epilogue::thread::LinearCombinationWithElementwise<ElementCompute, "
                                          "ElementAccumulator, ElementD, ElementD, {}>",
                                          count));
  w.alias("ReductionOp", "cutlass::plus<ElementCompute>");
}

void write_reduction_staging(CppWriter& w, const KernelConfig& cfg, const EpiOp& op) {
  size_t slot = aux_slot(cfg, op);
  w.comment(fmt::format("`{}`: each CTA writes the sums of its tile's columns as one row of a [CTA rows along the output "
                        "pixels,",
                        op.tensor->name.value));
  w.comment("K] buffer after the kernel's workspace (the kernel's aux pointer; every entry is written by every run, so");
  w.comment("there is nothing to zero). After each run ucut_sum_partials adds those rows in a fixed order into the");
  w.comment("caller's vector: the sums are the same from run to run.");
  w.line("using ElementPartial = typename ConvKernel::Epilogue::ElementVector;");
  w.open("int64_t partial_rows(const ucut_gemm_args* a)");
  w.line("int64_t pixels = int64_t(a->conv.n) * a->conv.p * a->conv.q;");
  w.line("return (pixels + ThreadblockShape::kM - 1) / ThreadblockShape::kM;");
  w.close();
  w.line("const char* staging_error(const ucut_gemm_args*) { return nullptr; }");
  w.open("size_t staging_bytes(const ucut_gemm_args* a)");
  w.line("return size_t(ucut_round_up(partial_rows(a) * a->conv.k * int64_t(sizeof(ElementPartial)), 256));");
  w.close();
  w.open("ucut_gemm_args staged_arguments(const ucut_gemm_args* a, char* scratch)");
  w.line("ucut_gemm_args k = *a;");
  w.line(fmt::format("k.aux[{}].ptr = scratch;  // the partial rows", slot));
  w.line("return k;");
  w.close();
  w.line("ucut_gemm_args checked_arguments(const ucut_gemm_args* k) { return *k; }");
  w.line("cudaError_t stage_in(const ucut_gemm_args*, const ucut_gemm_args*, cudaStream_t) { return cudaSuccess; }");
  w.comment("out[c] = the sum of partials[r][c] over the rows: 8 row groups of 32 columns per block, each summed in row");
  w.comment("order, then the groups in order.");
  w.open("__global__ void ucut_sum_partials(const ElementPartial* partials, int64_t rows, int64_t cols, float* out)");
  w.line("__shared__ float group[8][33];");
  w.line("int64_t col = int64_t(blockIdx.x) * 32 + threadIdx.x;");
  w.line("float s = 0.f;");
  w.line("if (col < cols)");
  w.line("  for (int64_t r = threadIdx.y; r < rows; r += 8) s += float(partials[r * cols + col]);");
  w.line("group[threadIdx.y][threadIdx.x] = s;");
  w.line("__syncthreads();");
  w.line("if (threadIdx.y != 0 || col >= cols) return;");
  w.line("float total = 0.f;");
  w.line("for (int g = 0; g < 8; ++g) total += group[g][threadIdx.x];");
  w.line("out[col] = total;");
  w.close();
  w.open("cudaError_t stage_out(const ucut_gemm_args* a, const ucut_gemm_args* k, cudaStream_t stream)");
  w.line("int64_t cols = a->conv.k;");
  w.line("unsigned blocks = unsigned((cols + 31) / 32);");
  w.line(fmt::format("ucut_sum_partials<<<blocks, dim3(32, 8), 0, stream>>>(static_cast<const ElementPartial*>(k->aux[{}].ptr),",
                     slot));
  w.line(fmt::format("    partial_rows(a), cols, static_cast<float*>(a->aux[{}].ptr));", slot));
  w.line("return cudaGetLastError();");
  w.close();
  w.line();
}

}  // namespace ucut::sm80
