// eval/worker/problem_desc.cpp — canonical config JSON → ProblemDesc.
#include "eval/worker/problem_desc.h"

#include <algorithm>
#include <stdexcept>

#include "ir/kernel_config.h"

namespace ucut::worker {
namespace {

[[noreturn]] void bad(const std::string& what) { throw std::runtime_error("problem config: " + what); }

DType dtype_of(const nlohmann::json& j, const char* field) {
  auto t = find_dtype(j.at(field).get<std::string>());
  if (!t) bad(std::string("unknown dtype in ") + field);
  return *t;
}

Layout layout_of(const nlohmann::json& t) {
  std::string name = t.at("layout").get<std::string>();
  for (Layout l : {Layout::row, Layout::col, Layout::channels_last})
    if (layout_name(l) == name) return l;
  bad("unknown layout \"" + name + "\" (row, col or channels_last)");
}

/// An operand as the caller passes it: a kernel's `from(T)` operand in T.
Operand operand_of(const nlohmann::json& t) { return {dtype_of(t, t.contains("from") ? "from" : "dtype"), layout_of(t)}; }

OpKind op_of(const nlohmann::json& cfg) {
  std::string name = cfg.at("op").get<std::string>();
  auto op = find_op(name);
  if (!op) bad("unknown op \"" + name + "\"");
  return *op;
}

}  // namespace

ProblemDesc parse_problem_desc(const nlohmann::json& cfg) {
  ProblemDesc p;
  try {
    p.op = op_of(cfg);
    p.a = operand_of(cfg.at("A"));
    p.b = operand_of(cfg.at("B"));
    for (const char* name : {"A", "B"})
      if (cfg.at(name).contains("from")) {
        DType t = dtype_of(cfg.at(name), "dtype");
        if (!p.converted || dtype_bits(t) < dtype_bits(*p.converted)) p.converted = t;
      }
    p.scale_a = cfg.at("A").value("scaled", false);
    p.scale_b = cfg.at("B").value("scaled", false);
    std::string math = cfg.value("math", "native");
    p.math = math == "tf32" ? MathMode::tf32 : math == "tf32x3" ? MathMode::tf32x3 : MathMode::native;
    for (const auto& st : cfg.at("epilogue")) {
      auto kind = find_epilogue(st.at("op").get<std::string>());
      if (!kind) bad("unknown epilogue stage " + st.at("op").dump());
      if (p.chain.count >= kMaxRefStages) bad("too many epilogue stages");
      RefStage& s = p.chain.stages[p.chain.count++];
      s.kind = *kind;
      if (st.contains("params")) {
        auto params = st.at("params").get<std::vector<double>>();
        if (params.size() > 0) s.p0 = params[0];
        if (params.size() > 1) s.p1 = params[1];
      }
      switch (epi_info(*kind).category) {
        case EpiCategory::scalar:
        case EpiCategory::source:
          s.slot = static_cast<int>(p.scalars.size());
          p.scalars.push_back(st.at("default").get<float>());
          if (*kind == EpiKind::residual) {
            p.has_residual = true;
            p.c = operand_of(st.at("tensor"));
          }
          break;
        case EpiCategory::vector:
          s.slot = static_cast<int>(p.vectors.size());
          s.per_row = st.at("axis").get<std::string>() == "row";
          p.vectors.push_back({s.per_row ? Axis::row : Axis::col, dtype_of(st, "dtype")});
          break;
        case EpiCategory::aux:
        case EpiCategory::reduce: {
          s.slot = static_cast<int>(p.aux.size());
          AuxSlot a;
          a.kind = *kind;
          a.name = st.at("tensor").value("name", "");
          a.stage = p.chain.count - 1;
          if (a.reduction()) {
            a.tensor = {dtype_of(st.at("tensor"), "dtype"), Layout::row};  // a vector: no layout of its own
            if (a.tensor.dtype != DType::f32)
              bad("reduction `" + std::string(epi_info(*kind).name) + "` writes " +
                  std::string(dtype_name(a.tensor.dtype)) + "; the harness reads f32 reduction vectors only");
          } else {
            a.tensor = operand_of(st.at("tensor"));
          }
          p.aux.push_back(a);
          break;
        }
        case EpiCategory::cast: s.dtype = dtype_of(st, "dtype"); break;
        case EpiCategory::store:
          p.d = operand_of(st.at("tensor"));
          p.d_name = st.at("tensor").value("name", "D");
          p.scale_d = st.at("tensor").value("scaled", false);
          break;
        case EpiCategory::activation: break;
        case EpiCategory::expr: {
          const auto& program = st.at("program");
          if (p.chain.program_len + static_cast<int>(program.size()) > kMaxRefExprOps) bad("expression too long");
          s.expr_begin = p.chain.program_len;
          for (const auto& step : program) {
            auto code = expr_code_of(step.at(0).get<std::string>());
            if (!code) bad("unknown expression step " + step.dump());
            p.chain.program[p.chain.program_len++] = {*code, step.size() > 1 ? step.at(1).get<double>() : 0.0};
          }
          s.expr_len = p.chain.program_len - s.expr_begin;
          break;
        }
      }
    }
  } catch (const nlohmann::json::exception& e) {
    bad(e.what());
  }
  if (p.vectors.size() > 8 || p.scalars.size() > 8 || p.aux.size() > static_cast<size_t>(kMaxRefAux))
    bad("more parameters than the reference carries");
  // Reductions run over the output as its implicit GEMM's [M, N] matrix: on GEMMs either way, on forward and
  // transposed convolutions per output channel (check's C421 admits no others).
  bool reduces = std::any_of(p.aux.begin(), p.aux.end(), [](const AuxSlot& a) { return a.reduction(); });
  bool per_row = std::any_of(p.aux.begin(), p.aux.end(),
                             [](const AuxSlot& a) { return a.reduction() && a.axis() == Axis::row; });
  bool conv_ok = op_family(p.op) == OpFamily::conv && op_conv_kind(p.op) != ConvKind::wgrad && !per_row;
  if (reduces && p.op != OpKind::gemm && p.op != OpKind::batched_gemm && !conv_ok)
    bad(std::string("reduction stages are measured on gemm and batched_gemm, and per output channel (col_sum, "
                    "col_max) on forward and transposed convolutions; not ") +
        (per_row && op_family(p.op) == OpFamily::conv ? "per output pixel " : "") + "on " +
        std::string(op_name(p.op)));
  p.chain.out = p.d.dtype;
  p.chain.round_output = dtype_kind(p.d.dtype) == DTypeKind::int_;
  return p;
}

std::string slot_mismatch(const ProblemDesc& problem, const ProblemDesc& kernel) {
  auto same = [](const Operand& x, const Operand& y) { return x.dtype == y.dtype && x.layout == y.layout; };
  if (problem.op != kernel.op || !same(problem.a, kernel.a) || !same(problem.b, kernel.b) || !same(problem.d, kernel.d))
    return "the kernel's operator or operand types/layouts (A, B, D) differ from the problem's";
  if (problem.vectors.size() != kernel.vectors.size() || problem.scalars.size() != kernel.scalars.size() ||
      problem.aux.size() != kernel.aux.size() || problem.has_residual != kernel.has_residual ||
      problem.scale_a != kernel.scale_a || problem.scale_b != kernel.scale_b || problem.scale_d != kernel.scale_d)
    return "the kernel's parameter slots (vectors, scalars, aux outputs, residual, scales) differ from the problem's";
  auto what = [](const AuxSlot& a) {
    return a.reduction() ? std::string(epi_info(a.kind).name) + " (a reduction vector)"
                         : "aux_store (an M x N tensor)";
  };
  for (size_t i = 0; i < problem.aux.size(); ++i) {
    const AuxSlot &p = problem.aux[i], &k = kernel.aux[i];
    if (p.kind != k.kind)
      return "aux slot " + std::to_string(i) + " is " + what(k) + " in the kernel but " + what(p) + " in the problem";
    if (p.tensor.dtype != k.tensor.dtype || (!p.reduction() && p.tensor.layout != k.tensor.layout))
      return "aux slot " + std::to_string(i) + " (" + std::string(epi_info(p.kind).name) +
             ") has a different element type or layout in the kernel than in the problem";
  }
  return "";
}

}  // namespace ucut::worker
