// tests/unit/cli/uncaught_test.cpp — what `ucutlass` says and exits with when a subcommand lets an exception
// out (cli/uncaught.cpp, linked into this test): an InternalError, or any exception no one expected, is a bug
// (exit 70, "please report it"); a workspace that cannot be used, the OS's refusals and running out of memory
// are not (exit 3, "ucutlass: error:"). Run as the binary, user errors keep their own exit codes and never
// say "please report".
#include "cli/uncaught.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <new>
#include <sstream>
#include <stdexcept>

#include "../temp_dir.h"
#include "../test_paths.h"
#include "cli/exit_codes.h"
#include "store/error.h"
#include "support/error.h"
#include "support/subprocess.h"

namespace ucut::cli {
namespace {

constexpr const char* kPleaseReport =
    "This is a bug in ucutlass; please report it (with the command and input).";

struct Said {
  int code;
  std::string text;
};

template <class Throw>
Said uncaught(Throw&& throw_it) {
  std::ostringstream err;
  try {
    throw_it();
  } catch (...) {
    int code = report_uncaught(std::current_exception(), err);
    return {code, err.str()};
  }
  ADD_FAILURE() << "nothing was thrown";
  return {kOk, ""};
}

TEST(Uncaught, AnInternalErrorIsABugWithItsPlace) {
  Said s = uncaught([] { UC_ASSERT(1 + 1 == 3) << "arithmetic " << 2; });
  EXPECT_EQ(s.code, kInternal);
  EXPECT_EQ(s.code, 70);
  EXPECT_EQ(s.text.rfind("ucutlass: internal error at uncaught_test.cpp:", 0), 0u) << s.text;
  EXPECT_NE(s.text.find("`1 + 1 == 3` does not hold: arithmetic 2\n"), std::string::npos) << s.text;
  EXPECT_NE(s.text.find(kPleaseReport), std::string::npos) << s.text;
}

TEST(Uncaught, AnExceptionNoOneExpectedIsABugToo) {
  Said s = uncaught([] { throw std::out_of_range("map::at"); });
  EXPECT_EQ(s.code, kInternal);
  EXPECT_EQ(s.text.rfind("ucutlass: internal error: map::at\nThis is a bug", 0), 0u) << s.text;
  EXPECT_NE(s.text.find(kPleaseReport), std::string::npos) << s.text;
  Said other = uncaught([] { throw 42; });
  EXPECT_EQ(other.code, kInternal);
  EXPECT_NE(other.text.find(kPleaseReport), std::string::npos) << other.text;
}

TEST(Uncaught, AnUnusableWorkspaceIsNotABug) {
  Said s = uncaught([] { throw store::WorkspaceError("workspace 'w.db': file is not a database"); });
  EXPECT_EQ(s.code, kIoError);
  EXPECT_EQ(s.text, "ucutlass: error: workspace 'w.db': file is not a database\n");
}

TEST(Uncaught, TheFileSystemsRefusalIsNotABug) {
  Said s = uncaught([] { std::filesystem::create_directories("/dev/null/below"); });
  EXPECT_EQ(s.code, kIoError);
  EXPECT_EQ(s.text.rfind("ucutlass: error: ", 0), 0u) << s.text;
  EXPECT_EQ(s.text.find("please report"), std::string::npos) << s.text;
}

TEST(Uncaught, RunningOutOfMemoryIsNotABug) {
  Said s = uncaught([] { throw std::bad_alloc(); });
  EXPECT_EQ(s.code, kIoError);
  EXPECT_EQ(s.text, "ucutlass: error: out of memory\n");
}

// ---- the binary ----

ProcessResult ucutlass(std::vector<std::string> args) {
  args.insert(args.begin(), ucut::test_paths::cli_path());
  return run_process(args, ProcessOptions::with_timeout(60));
}

TEST(UncaughtCli, AFileThatIsNoWorkspaceExits3) {
  // search-compare opens the workspace itself and lets store::WorkspaceError out to main.
  ucut::testing::TempDir dir("ucut-uncaught");
  std::ofstream(dir.file("notes.db"))
      << "not an SQLite file, but longer than its 100-byte header would be ......."
         "..............................................................\n";
  ProcessResult r = ucutlass({"search-compare", dir.file("notes.db"), "--workdir", dir.file("replay")});
  EXPECT_EQ(r.exit_code, kIoError) << r.err;
  EXPECT_EQ(r.err.rfind("ucutlass: error: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("notes.db"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("please report"), std::string::npos) << r.err;
}

TEST(UncaughtCli, UserErrorsKeepTheirCodes) {
  ucut::testing::TempDir dir("ucut-uncaught");
  std::ofstream(dir.file("bad.ucut"))
      << "kernel k : sm90a\n  gemm(A: bf16[M,K] row, B: bf16[K,N] col, acc: f32)\n"
         "    .with_threadblockshape(96, 128, 64)\n  >> store(D: bf16[M,N] row)\n";
  for (const auto& [args, code] : std::vector<std::pair<std::vector<std::string>, int>>{
           {{"check", dir.file("bad.ucut")}, kSpecErrors},
           {{"frobnicate"}, kUsage},
           {{"explain", "C999"}, kUsage},
           {{"check", dir.file("missing.ucut")}, kIoError},
       }) {
    ProcessResult r = ucutlass(args);
    EXPECT_EQ(r.exit_code, code) << args.front() << ": " << r.err;
    EXPECT_EQ(r.err.find("please report"), std::string::npos) << r.err;
  }
}

TEST(UncaughtCli, ExplainFindsEveryPageItAsserts) {
  ProcessResult r = ucutlass({"explain", "C304"});  // cmd_rules: UC_ASSERT(page)
  EXPECT_EQ(r.exit_code, kOk) << r.err;
  EXPECT_NE(r.out.find("C304"), std::string::npos);
}

}  // namespace
}  // namespace ucut::cli
