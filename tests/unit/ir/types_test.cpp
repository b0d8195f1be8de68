// tests/unit/ir/types_test.cpp — ir/types.cpp's enum spellings: every enumerator has one, and a value outside the
// enumerators is a bug (InternalError), not a made-up spelling ("?" or "row" as these functions once returned).
#include "ir/types.h"

#include <gtest/gtest.h>

#include "support/error.h"

namespace ucut {
namespace {

TEST(EnumNames, EveryEnumeratorIsSpelled) {
  EXPECT_EQ(layout_name(Layout::channels_last), "channels_last");
  EXPECT_EQ(conv_kind_name(ConvKind::wgrad), "wgrad");
  EXPECT_EQ(math_name(MathMode::tf32x3), "tf32x3");
  EXPECT_EQ(backend_name(BackendKind::reserved), "reserved");
  EXPECT_EQ(conv_extent_names(OpKind::conv2d_wgrad, 'a'), "N,P,Q,K");
}

TEST(EnumNames, AValueOutsideTheEnumeratorsIsABug) {
  EXPECT_THROW(layout_name(static_cast<Layout>(9)), InternalError);
  EXPECT_THROW(conv_kind_name(static_cast<ConvKind>(9)), InternalError);
  EXPECT_THROW(math_name(static_cast<MathMode>(9)), InternalError);
  EXPECT_THROW(backend_name(static_cast<BackendKind>(9)), InternalError);
}

}  // namespace
}  // namespace ucut
