// tests/unit/support/enum_names_test.cpp — support/enum_names.h over every name table: each lists every value
// once in enum order under a distinct name, names round-trip through parse_enum and JSON, and an unknown name
// is refused with a message naming the set and its names.
#include "support/enum_names.h"

#include <gtest/gtest.h>

#include <set>

#include "eval/flags.h"
#include "eval/protocol_enums.h"
#include "mskb/protocol_enums.h"
#include "problem/input_draw.h"
#include "problem/reference.h"
#include "sol/bottleneck.h"
#include "sol/roofline.h"
#include "store/records.h"
#include "workflow/profile_spec.h"
#include "workflow/suite_bench.h"

namespace ucut {
namespace {

template <class E>
class EnumNamesTest : public ::testing::Test {};

using Tables =
    ::testing::Types<FlagId, store::AttemptStatus, store::HypothesisStatus, store::Stage, sol::Bottleneck,
                     sol::BottleneckSource, sol::BoundKind, sol::TrafficRole, WorkerMode, ShapeStatus,
                     ReferenceKind, VendorLibrary, MeasureStep, MeasuredFrom, SuiteRowStatus, mskb::Role,
                     mskb::Status, mskb::ReferenceKind, mskb::GpuTimer, Reference, InputDraw>;
TYPED_TEST_SUITE(EnumNamesTest, Tables);

TYPED_TEST(EnumNamesTest, EveryValueOnceInOrderUnderADistinctName) {
  using E = TypeParam;
  constexpr auto table = enum_names(E{});
  EXPECT_FALSE(table.what.empty());
  std::set<std::string_view> names;
  for (size_t i = 0; i < table.names.size(); ++i) {
    EXPECT_EQ(static_cast<size_t>(table.names[i].value), i) << table.names[i].name;
    EXPECT_TRUE(names.insert(table.names[i].name).second) << "twice: '" << table.names[i].name << "'";
  }
}

TYPED_TEST(EnumNamesTest, NamesRoundTrip) {
  using E = TypeParam;
  for (const EnumName<E>& n : enum_names(E{}).names) {
    EXPECT_EQ(enum_name(n.value), n.name);
    EXPECT_EQ(parse_enum<E>(n.name), n.value);
    EXPECT_EQ(enum_value<E>(n.name), n.value);
    nlohmann::json j = n.value;
    EXPECT_EQ(j, std::string(n.name));
    EXPECT_EQ(j.get<E>(), n.value);
  }
}

TYPED_TEST(EnumNamesTest, AnUnknownNameIsRefusedNamingTheSet) {
  using E = TypeParam;
  const std::string what(enum_names(E{}).what);
  EXPECT_FALSE(parse_enum<E>("no such name"));
  try {
    enum_value<E>("no such name");
    FAIL() << "accepted an unknown name";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "unknown " + what + " 'no such name' (expected " + enum_name_list<E>() + ")");
  }
  try {
    nlohmann::json("no such name").get<E>();
    FAIL() << "accepted an unknown name";
  } catch (const nlohmann::json::type_error& e) {
    EXPECT_NE(std::string(e.what()).find("unknown " + what + " 'no such name'"), std::string::npos)
        << e.what();
  }
}

TEST(EnumNames, MessagesListTheNames) {
  EXPECT_EQ(enum_name_list<store::HypothesisStatus>(), "nominated, chosen, dropped or done");
  EXPECT_EQ(unknown_enum_message<VendorLibrary>("cutlass"),
            "unknown vendor library 'cutlass' (expected \"\", cublas or cudnn)");
  EXPECT_EQ(join_enum_names(std::vector<FlagId>{FlagId::off_stream, FlagId::precision_change}, ", "),
            "off_stream, precision_change");
}

}  // namespace
}  // namespace ucut
