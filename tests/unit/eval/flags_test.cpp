// tests/unit/eval/flags_test.cpp — eval/flags.def: every integrity flag has a meaning, its wire name
// round-trips, and only the labels (precision, a reviewing model's suspicion) let a result count.
#include "eval/flags.h"

#include <gtest/gtest.h>

namespace ucut {
namespace {

TEST(IntegrityFlags, EveryFlagHasAMeaningAndAWireName) {
  for (const EnumName<FlagId>& f : enum_names(FlagId{}).names) {
    EXPECT_FALSE(flag_meaning(f.value).empty()) << f.name;
    EXPECT_EQ(parse_enum<FlagId>(f.name), f.value);
    EXPECT_EQ(nlohmann::json(f.value), std::string(f.name));
  }
  // The wire names committed results and workspaces hold.
  for (const char* name :
       {"not_verified", "reverify_failed", "faster_than_sol", "input_mutated", "output_constant",
        "output_input_independent", "off_stream", "l2_persistence", "precision_change", "library_only",
        "library_main_op", "library_kernels", "model_shortcut", "model_suspicious"})
    EXPECT_TRUE(parse_enum<FlagId>(name)) << name;
  EXPECT_EQ(enum_names(FlagId{}).names.size(), 14u);
}

TEST(IntegrityFlags, OnlyTheLabelsDoNotDisqualify) {
  for (const EnumName<FlagId>& f : enum_names(FlagId{}).names)
    EXPECT_EQ(disqualifies(f.value),
              f.value != FlagId::precision_change && f.value != FlagId::model_suspicious)
        << f.name;
  EXPECT_TRUE(none_disqualifies({}));
  EXPECT_TRUE(none_disqualifies({FlagId::precision_change}));
  EXPECT_FALSE(none_disqualifies({FlagId::precision_change, FlagId::library_only}));
}

}  // namespace
}  // namespace ucut
