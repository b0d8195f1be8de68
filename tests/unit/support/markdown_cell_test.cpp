// support/markdown_cell.h: a value cannot split its table row, nor end its code span.
#include <gtest/gtest.h>

#include "support/markdown_cell.h"

namespace ucut {
namespace {

TEST(MarkdownCell, EscapesPipesAndJoinsLines) {
  EXPECT_EQ(markdown_cell("a|b\nc"), "a\\|b c");
  EXPECT_EQ(markdown_cell("`x`"), "`x`");
}

TEST(MarkdownCell, CodeSpanLosesItsBackticks) {
  EXPECT_EQ(markdown_code_cell("error: `f` | g\n"), "error: 'f' \\| g ");
}

}  // namespace
}  // namespace ucut
