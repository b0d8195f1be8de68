// build/nvcc.h first_build_error, on logs nvcc 13.0 wrote (tests/unit/build/testdata/nvcc_logs, made by compiling a
// broken file in /tmp/logs/x): the front end's, ptxas's and the linker's first error, a warning skipped.
#include <gtest/gtest.h>

#include "../test_paths.h"
#include "build/nvcc.h"
#include "support/files.h"

namespace ucut {
namespace {

std::string log_named(const std::string& name) {
  return read_file(ucut::test_paths::source_dir() + "/tests/unit/build/testdata/nvcc_logs/" + name).value();
}

TEST(FirstBuildError, FrontEndErrorWithItsFileNameAndLine) {
  EXPECT_EQ(first_build_error(log_named("frontend.log")), "kernel.cu(1): error: identifier \"undeclared_thing\" is undefined");
}

TEST(FirstBuildError, AWarningThatSaysErrorIsSkipped) {
  EXPECT_EQ(first_build_error(log_named("warning_then_error.log")),
            "kernel.cu(3): error: a value of type \"const char *\" cannot be used to initialize an entity of type \"int\"");
}

TEST(FirstBuildError, PtxasAndLinkerErrors) {
  EXPECT_EQ(first_build_error(log_named("ptxas.log")),
            "ptxas /tmp/tmpxft_00001da0_00000000-6_kernel.ptx, line 27; error   : Unknown modifier '.instr'");
  EXPECT_EQ(first_build_error(log_named("linker.log")), "ld: cannot find -lnosuchlibrary: No such file or directory");
}

TEST(FirstBuildError, NoneInACleanLog) {
  EXPECT_EQ(first_build_error("$ nvcc ... (exit code 0)\n"), "");
}

}  // namespace
}  // namespace ucut
