// cli/cmd_targets.cpp — `ucutlass targets`: which operator × operand type × architecture × toolkit combinations
// `check` accepts, and whether the nvcc found here can build each architecture.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "build/toolchain.h"
#include "check/targets.h"
#include "cli/commands.h"

namespace ucut::cli {
namespace {

std::string cuda_range(const TargetSupport& t) {
  auto v = [](int c) { return fmt::format("{}.{}", c / 10, c % 10); };
  if (t.max_cuda) return fmt::format("CUDA {} to {}", v(t.min_cuda), v(t.max_cuda));
  return fmt::format("CUDA {}+", v(t.min_cuda));
}

/// Why an architecture has no kernels, with the rule that says so.
std::string no_kernels(const TargetSupport& t) {
  const ArchInfo& a = arch_info(t.arch);
  if (t.backend == BackendKind::reserved) return "reserved for a future backend (`ucutlass explain C104`)";
  if (a.sm == 90 && !a.arch_specific) return "Hopper kernels need the arch-specific target `sm90a` (`ucutlass explain C102`)";
  return "no kernels are emitted for this target (`ucutlass explain C101`)";
}

}  // namespace

Command targets_command() {
  return {"targets", "list the supported architecture x operator x operand-type x toolkit combinations", [](CLI::App& sub) {
            auto json = std::make_shared<bool>(false);
            sub.add_flag("--json", *json, "as a JSON array");
            return [json]() -> int {
              std::string err;
              auto tc = find_toolchain("", &err);
              int cuda = tc ? tc->cuda_version : 0;
              nlohmann::json arr = nlohmann::json::array();
              for (const TargetSupport& t : support_matrix()) {
                const ArchInfo& a = arch_info(t.arch);
                std::string here = !tc ? "no nvcc here" : toolkit_targets(t, cuda) ? fmt::format("nvcc {} can build it", tc->nvcc_version)
                                                                                   : fmt::format("nvcc {} cannot target it", tc->nvcc_version);
                if (*json) {
                  nlohmann::json ops = nlohmann::json::array();
                  for (const OperandSupport& o : t.operands) {
                    std::vector<std::string_view> acc;
                    for (DType d : o.accumulators) acc.push_back(dtype_name(d));
                    ops.push_back({{"operands", o.operands}, {"mma", o.mma}, {"accumulators", acc}});
                  }
                  arr.push_back({{"arch", a.name}, {"backend", backend_name(t.backend)}, {"min_cuda", t.min_cuda},
                                 {"max_cuda", t.max_cuda}, {"local_nvcc_can_build", tc && toolkit_targets(t, cuda)},
                                 {"operators", t.operators}, {"kernel_schedules", t.kernel_schedules}, {"operands", ops}});
                  continue;
                }
                std::cout << fmt::format("{:<7} {} · {} · {}\n", a.name, backend_name(t.backend), cuda_range(t), here);
                if (t.operators.empty()) {
                  std::cout << "        " << no_kernels(t) << "\n";
                  continue;
                }
                std::cout << fmt::format("        operators: {}; kernel schedules: {}\n", fmt::join(t.operators, ", "),
                                         fmt::join(t.kernel_schedules, ", "));
                for (const OperandSupport& o : t.operands) {
                  std::vector<std::string_view> acc;
                  for (DType d : o.accumulators) acc.push_back(dtype_name(d));
                  std::cout << fmt::format("        {:<22} {:<34} acc {}\n", o.operands, o.mma, fmt::join(acc, " | "));
                }
              }
              if (*json) std::cout << arr.dump(2) << "\n";
              return kOk;
            };
          }};
}

}  // namespace ucut::cli
