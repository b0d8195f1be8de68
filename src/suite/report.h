// suite/report.h — what `ucutlass suite check` prints per problem: output shape, FLOPs, minimum bytes, and the
// speed-of-light time at the FP32 (SIMT), TF32 and FP16 tensor-core peaks of a GPU, as text or JSON.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sol/gpu_table.h"
#include "suite/analyze.h"
#include "suite/problem.h"

namespace ucut::suite {

struct Checked {
  Problem problem;
  Analysis analysis;
};

/// t_SOL = max(FLOPs / peak, minimum bytes / bandwidth) in seconds, at precision `p` of `gpu`.
double sol_seconds(const Checked& c, const sol::GpuSpec& gpu, sol::Precision p);

std::string render_table(const std::vector<Checked>& problems, const sol::GpuSpec& gpu);
nlohmann::json to_json(const std::vector<Checked>& problems, const sol::GpuSpec& gpu);

}  // namespace ucut::suite
