// The MSKB interface check (mskb/launcher_build.h interface_check), compiled by nvcc after candidate launchers
// that differ from RELU_bf16's declaration only where the C ABI does not look (accepted) or really (refused with
// the rule id in the log's first error line). Label `compile`: each case is one nvcc front-end run.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "build/nvcc.h"
#include "mskb/launcher_build.h"
#include "support/files.h"
#include "support/subprocess.h"

namespace ucut::mskb {
namespace {

namespace fs = std::filesystem;

struct Compiled {
  bool ok = false;
  std::string first_error, log;
};

/// `launcher` (the candidate's text) with the check and adapter for RELU_bf16_optimized appended, compiled.
Compiled compile(const std::string& name, const std::string& launcher) {
  const Task& relu = *find_task("RELU");
  fs::path dir = fs::temp_directory_path() / "ucut_mskb_abi_test";
  fs::create_directories(dir);
  fs::path cu = dir / (name + ".cu");
  std::ofstream(cu) << "#include <cuda_bf16.h>\n" << launcher << "\n"
                    << call_adapter(task_signature(relu, Precision::bf16), "RELU_bf16_optimized");
  ProcessResult p = run_process({UCUT_NVCC, "-std=c++17", "-c", "-o", (dir / (name + ".o")).string(), cu.string()});
  return {p.ok(), first_build_error(p.out + p.err), p.out + p.err};
}

const char* kBody = " { }";

TEST(MskbLauncherAbi, AcceptsWhatTheCAbiIgnores) {
  for (auto [name, decl] : std::vector<std::pair<std::string, std::string>>{
           {"as_declared", "extern \"C\" void RELU_bf16_optimized(__nv_bfloat16* output, const __nv_bfloat16* input, int N)"},
           {"const_pointee", "extern \"C\" void RELU_bf16_optimized(const __nv_bfloat16* o, const __nv_bfloat16* i, int n)"},
           {"top_level_const", "extern \"C\" void RELU_bf16_optimized(__nv_bfloat16* const o, const __nv_bfloat16* const i, const int n)"},
           {"no_names_default", "extern \"C\" void RELU_bf16_optimized(__nv_bfloat16*, const __nv_bfloat16*, int = 1024)"},
           {"restrict_pointers", "extern \"C\" void RELU_bf16_optimized(__nv_bfloat16* __restrict__ o, const __nv_bfloat16* __restrict__ i, int n)"},
           {"cpp_linkage", "void RELU_bf16_optimized(__nv_bfloat16* o, const __nv_bfloat16* i, int n)"}}) {
    Compiled c = compile(name, decl + kBody);
    EXPECT_TRUE(c.ok) << name << ":\n" << c.log;
  }
}

TEST(MskbLauncherAbi, RefusesARealInterfaceChangeWithItsRuleId) {
  for (auto [name, decl, rule] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"float_for_bf16", "extern \"C\" void RELU_bf16_optimized(float* o, const __nv_bfloat16* i, int n)", kRuleLauncherSignature},
           {"int_for_bf16", "extern \"C\" void RELU_bf16_optimized(int* o, const __nv_bfloat16* i, int n)", kRuleLauncherSignature},
           {"missing_param", "extern \"C\" void RELU_bf16_optimized(__nv_bfloat16* o, const __nv_bfloat16* i)", kRuleLauncherSignature},
           {"value_for_pointer", "extern \"C\" void RELU_bf16_optimized(__nv_bfloat16* o, __nv_bfloat16 i, int n)", kRuleLauncherSignature},
           {"long_for_int", "extern \"C\" void RELU_bf16_optimized(__nv_bfloat16* o, const __nv_bfloat16* i, long n)", kRuleLauncherSignature},
           {"wrong_name", "extern \"C\" void RELU_bf16(__nv_bfloat16* o, const __nv_bfloat16* i, int n)", kRuleLauncherMissing}}) {
    Compiled c = compile(name, decl + kBody);
    EXPECT_FALSE(c.ok) << name;
    EXPECT_NE(c.first_error.find("[" + rule + "]"), std::string::npos) << name << ": " << c.first_error << "\n" << c.log;
    EXPECT_NE(c.first_error.find("ucutlass_mskb_interface_check("), std::string::npos) << c.first_error;
  }
}

TEST(MskbLauncherAbi, TheRefusalNamesWhatWasFound) {
  Compiled c = compile("found", std::string("extern \"C\" void RELU_bf16_optimized(float* o, const float* i, int n)") + kBody);
  EXPECT_NE(c.first_error.find("void RELU_bf16_optimized(__nv_bfloat16*, const __nv_bfloat16*, int)"), std::string::npos)
      << c.first_error;
  EXPECT_NE(c.log.find("Found=ucut_mskb_abi::launcher<float *, float *, int>"), std::string::npos) << c.log;
}

}  // namespace
}  // namespace ucut::mskb
