// tests/unit/cudamaster/compiler_flags_test.cpp — engine/cudamaster/compiler_flags.h: the Compiler's options
// are taken only from the allowed set, spelled one way, and everything else is refused with who owns it.
#include "engine/cudamaster/compiler_flags.h"

#include <gtest/gtest.h>

namespace ucut::engine::cudamaster {
namespace {

const std::vector<std::string> kDefaults = {"-std=c++17", "-O3", "-gencode", "arch=compute_90a,code=sm_90a",
                                            "-lineinfo"};

TEST(CompilerFlags, AllowedOptionsAreTakenInOneSpellingEachOnce) {
  FlagChoice c = choose_compiler_flags({"--use_fast_math", "-maxrregcount 64", "-Xptxas", "-v,-dlcm=ca",
                                        "-ftz=true", "-use_fast_math", "--extra-device-vectorization"},
                                       kDefaults);
  EXPECT_EQ(c.accepted, (std::vector<std::string>{"-use_fast_math", "-maxrregcount=64", "-Xptxas=-v,-dlcm=ca",
                                                  "-ftz=true", "-extra-device-vectorization"}));
  EXPECT_TRUE(c.refused.empty());
  EXPECT_TRUE(c.redundant.empty());
}

TEST(CompilerFlags, TheHarnesssOwnOptionsAreRedundant) {
  FlagChoice c = choose_compiler_flags({"-O3", "-lineinfo"}, kDefaults);
  EXPECT_TRUE(c.accepted.empty());
  EXPECT_EQ(c.redundant, (std::vector<std::string>{"-O3", "-lineinfo"}));
}

TEST(CompilerFlags, EverythingElseIsRefusedSayingWhy) {
  FlagChoice c = choose_compiler_flags(
      {"fast", "-arch=sm_80", "-o out.so", "-G", "-maxrregcount=8", "-ftz=yes",
       "-Xptxas=-O3,--allow-expensive-optimizations", "--default-stream per-thread", "-O2"},
      kDefaults);
  EXPECT_TRUE(c.accepted.empty());
  ASSERT_EQ(c.refused.size(), 9u) << ::testing::PrintToString(c.refused);
  EXPECT_EQ(c.refused[0], "fast: not an option (options start with `-`)");
  EXPECT_EQ(c.refused[1], "-arch=sm_80: the target is the harness's (-gencode for this GPU)");
  EXPECT_EQ(c.refused[2],
            "-o out.so: the output, language standard, include paths and libraries are the harness's")
      << "a refused option takes its value along";
  EXPECT_EQ(c.refused[3], "-G: debug builds are not timed");
  EXPECT_EQ(c.refused[4], "-maxrregcount=8: -maxrregcount takes -maxrregcount=16..255");
  EXPECT_EQ(c.refused[5], "-ftz=yes: -ftz takes -ftz=true|false");
  EXPECT_EQ(
      c.refused[6],
      "-Xptxas=-O3,--allow-expensive-optimizations: ptxas option `--allow-expensive-optimizations` is not "
      "one the Compiler may pass (allowed: -v, -O0..-O3, -dlcm=ca|cg, -warn-spills, -warn-lmem-usage)");
  EXPECT_EQ(c.refused[7],
            "--default-stream per-thread: the launcher must work on the default stream as declared");
  EXPECT_EQ(c.refused[8].substr(0, 5), "-O2: ");
  EXPECT_NE(c.refused[8].find("allowed: -use_fast_math"), std::string::npos) << c.refused[8];
}

TEST(CompilerFlags, TheAllowedListNamesEveryOption) {
  std::string allowed = allowed_compiler_flags();
  for (const char* option :
       {"-use_fast_math", "-ftz=true|false", "-maxrregcount=16..255", "-Xptxas=", "-restrict"})
    EXPECT_NE(allowed.find(option), std::string::npos) << option;
}

}  // namespace
}  // namespace ucut::engine::cudamaster
