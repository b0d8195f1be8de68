// tests/unit/support/suggest_test.cpp — support/suggest.h: the distance counts an adjacent swap as one edit, the
// nearest names come all at once (case ignored), and nothing is suggested past a third of the word.
#include "support/suggest.h"

#include <gtest/gtest.h>

namespace ucut {
namespace {

TEST(Suggest, AnAdjacentSwapIsOneEdit) {
  EXPECT_EQ(edit_distance("bais", "bias", 3), 1);
  EXPECT_EQ(edit_distance("tf23", "tf32", 3), 1);
  EXPECT_EQ(edit_distance("gemn", "gemm", 3), 1);
  EXPECT_EQ(edit_distance("", "abc", 5), 3);
  EXPECT_EQ(edit_distance("abc", "abc", 0), 0);
  EXPECT_EQ(edit_distance("ca", "abc", 5), 3);  // optimal string alignment: no edit of a swapped pair
}

TEST(Suggest, TheDistanceIsCapped) {
  EXPECT_EQ(edit_distance("kernel", "pipeline", 2), 3);
  EXPECT_EQ(edit_distance("abcdef", "badcfe", 2), 3);  // three swaps; each row alone stays under the cap a while
  EXPECT_EQ(edit_distance("a", "abcdefgh", 3), 4);     // the lengths alone exceed it
}

TEST(Suggest, TheNearestNamesComeTogether) {
  std::vector<std::string_view> stages = {"scale", "bias", "relu", "gelu", "silu", "sigmoid"};
  EXPECT_EQ(closest_names("selu", stages), (std::vector<std::string>{"relu", "gelu", "silu"}));
  EXPECT_EQ(closest_names("selu", stages, 2), (std::vector<std::string>{"relu", "gelu"}));
  EXPECT_EQ(closest_names("bais", stages), (std::vector<std::string>{"bias"}));
  EXPECT_EQ(closest_name("RELU", stages), "relu");  // case ignored
  EXPECT_TRUE(closest_names("zzzzzz", stages).empty());
  EXPECT_EQ(did_you_mean("selu", {"relu", "silu"}), "did you mean `relu` or `silu`?");
  EXPECT_EQ(did_you_mean("zzz", {"relu"}), std::nullopt);
}

TEST(Suggest, ShortWordsAllowOneEditLongOnesAThird) {
  EXPECT_EQ(closest_name("ab", {"abc"}), "abc");
  EXPECT_EQ(closest_name("ab", {"abcd"}), std::nullopt);
  EXPECT_EQ(closest_name("with_threadblokshape", {"with_threadblockshape", "with_warpshape"}),
            "with_threadblockshape");
}

}  // namespace
}  // namespace ucut
