// tests/unit/support/error_test.cpp — support/error.h: UC_ASSERT and UC_UNREACHABLE throw an InternalError
// that names the file, line, condition and message, build their message only when they fail, and do so under
// NDEBUG (which every build of these tests defines: assert() would be silent here).
#include "support/error.h"

#include <gtest/gtest.h>

#include <string>
#include <type_traits>

namespace ucut {
namespace {

constexpr int kAssertLine = __LINE__ + 2;  // the UC_ASSERT's
int checked_half(int even) {
  UC_ASSERT(even % 2 == 0) << "half of " << even << " is not whole";
  return even / 2;
}

enum class Colour { red, green };

std::string_view colour_name(Colour c) {
  switch (c) {
    case Colour::red: return "red";
    case Colour::green: return "green";
  }
  UC_UNREACHABLE() << "Colour " << static_cast<int>(c);  // no dummy return after it: the compiler knows
}

TEST(UcAssert, PassesWhenTheConditionHolds) { EXPECT_EQ(checked_half(8), 4); }

TEST(UcAssert, ThrowsTheLocationConditionAndMessage) {
  const std::string line = std::to_string(kAssertLine);
  try {
    checked_half(7);
    FAIL() << "no InternalError";
  } catch (const InternalError& e) {
    EXPECT_EQ(e.file(), "error_test.cpp");  // this file is not under src/: its name alone
    EXPECT_EQ(e.line(), kAssertLine);
    EXPECT_EQ(e.condition(), "even % 2 == 0");
    EXPECT_EQ(e.message(), "half of 7 is not whole");
    EXPECT_EQ(std::string(e.what()), "internal error at error_test.cpp:" + line +
                                         ": `even % 2 == 0` does not hold: half of 7 is not whole");
  }
}

TEST(UcAssert, BuildsItsMessageOnlyWhenItFails) {
  int built = 0;
  auto part = [&] { return ++built; };
  UC_ASSERT(true) << "never built " << part();
  EXPECT_EQ(built, 0);
  EXPECT_THROW(UC_ASSERT(false) << "built " << part(), InternalError);
  EXPECT_EQ(built, 1);
}

TEST(UcAssert, IsOneStatementUnderIfAndElse) {
  bool reached_else = false;
  if (false)
    UC_ASSERT(false) << "the if branch";
  else
    reached_else = true;
  EXPECT_TRUE(reached_else);
}

TEST(UcUnreachable, ThrowsWithoutACondition) {
  EXPECT_EQ(colour_name(Colour::green), "green");
  try {
    colour_name(static_cast<Colour>(7));
    FAIL() << "no InternalError";
  } catch (const InternalError& e) {
    EXPECT_TRUE(e.condition().empty());
    EXPECT_EQ(e.message(), "Colour 7");
    EXPECT_NE(std::string(e.what()).find(": unreachable: Colour 7"), std::string::npos) << e.what();
  }
}

TEST(InternalError, NamesItsFileUnderSrc) {
  InternalError e("/home/me/src/ucutlass/src/emit/sm90/gemm.cpp", 45, "", "");
  EXPECT_EQ(e.file(), "emit/sm90/gemm.cpp");  // the last /src/: a checkout may itself lie under a src/
  EXPECT_EQ(std::string(e.what()), "internal error at emit/sm90/gemm.cpp:45: unreachable");
}

// A bug in the program's logic: what catches std::runtime_error (a command's own failures,
// store::WorkspaceError) does not take it for one of those.
static_assert(std::is_base_of_v<std::logic_error, InternalError>);
static_assert(!std::is_base_of_v<std::runtime_error, InternalError>);

}  // namespace
}  // namespace ucut
