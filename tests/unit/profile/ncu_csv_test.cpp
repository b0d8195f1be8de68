// tests/unit/profile/ncu_csv_test.cpp — engine/profile/ncu_csv.h on the raw-page fixture (preamble, header,
// units row, two kernels) and on the odd values ncu prints.
#include "engine/profile/ncu_csv.h"

#include <gtest/gtest.h>

#include "engine/profile/metrics.h"
#include "fixture.h"

namespace ucut::profile {
namespace {

using testing::read_fixture;

TEST(NcuCsv, ParsesTheFixtureSkippingThePreamble) {
  NcuCsv csv = parse_ncu_csv(read_fixture("fixture_ncu_raw_2kernels.csv"));
  ASSERT_EQ(csv.kernels.size(), 2u);
  EXPECT_EQ(csv.skipped_rows, 0);
  const KernelProfile& gemm = csv.kernels[0];
  const KernelProfile& copy = csv.kernels[1];
  EXPECT_EQ(gemm.id, 0);
  EXPECT_EQ(copy.id, 1);
  // Commas inside quoted kernel names stay in the name.
  EXPECT_EQ(
      gemm.kernel,
      "void fixture_gemm_kernel<128, 128>(const __nv_bfloat16 *, const __nv_bfloat16 *, float *, int, int, "
      "int)");
  EXPECT_EQ(copy.kernel, "fixture_copy_kernel(const float *, float *, int)");
  // Every metric of the table, plus the one numeric extra column (c2clink__present).
  EXPECT_EQ(gemm.metrics.size(), metric_table().size() + 1);
  EXPECT_DOUBLE_EQ(*gemm.get(metric::sm_throughput), 82.5);
  EXPECT_DOUBLE_EQ(*gemm.get(metric::duration), 1234567);  // "1,234,567"
  EXPECT_DOUBLE_EQ(*copy.get("dram__bytes.sum.per_second"), 4.1e12);
  EXPECT_DOUBLE_EQ(*copy.get(metric::global_load_sectors), 4194304);
  // "n/a" and "" are left out, never read as 0.
  EXPECT_FALSE(copy.get("sm__inst_executed_pipe_tensor_op_gmma.avg.pct_of_peak_sustained_elapsed"));
  EXPECT_FALSE(copy.get("l1tex__t_sector_hit_rate.pct"));
  EXPECT_EQ(copy.metrics.size(), metric_table().size() + 1 - 2);
  // Launch columns are not metrics; text-valued raw columns are dropped.
  EXPECT_FALSE(gemm.get("Block Size"));
  EXPECT_FALSE(gemm.get("CC"));
  EXPECT_FALSE(gemm.get("device__attribute_display_name"));
  EXPECT_DOUBLE_EQ(*gemm.get("c2clink__present"), 0);
}

TEST(NcuCsv, ReadsTheUnitsRow) {
  NcuCsv csv = parse_ncu_csv(read_fixture("fixture_ncu_raw_2kernels.csv"));
  EXPECT_EQ(csv.units.at(std::string(metric::duration)), "ns");
  EXPECT_EQ(csv.units.at(std::string(metric::sm_throughput)), "%");
  EXPECT_EQ(csv.units.at("dram__bytes.sum.per_second"), "byte/s");
  // Printed without a unit.
  EXPECT_FALSE(csv.units.count("launch__waves_per_multiprocessor"));
  EXPECT_FALSE(csv.units.count(std::string(metric::global_load_requests)));
}

TEST(NcuCsv, NoTableMeansNoKernels) {
  NcuCsv csv = parse_ncu_csv("==PROF== Connected to process 1\n==WARNING== No kernels were profiled.\n");
  EXPECT_TRUE(csv.kernels.empty());
  EXPECT_TRUE(parse_ncu_csv("").kernels.empty());
}

TEST(NcuCsv, SkipsRowsThatDoNotFitTheHeader) {
  std::string text =
      "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\"\r\n"
      "\"\",\"\",\"nsecond\"\r\n"
      "\"0\",\"k\",\"100\"\r\n"
      "\"oops\"\r\n"
      "\"1\",\"k\",\"200\",\"extra\"\r\n"
      "\"2\",\"k2\",\"300\"\r\n";
  NcuCsv csv = parse_ncu_csv(text);
  ASSERT_EQ(csv.kernels.size(), 2u);
  EXPECT_EQ(csv.kernels[1].kernel, "k2");
  EXPECT_DOUBLE_EQ(*csv.kernels[1].get(metric::duration), 300);
  EXPECT_EQ(csv.skipped_rows, 2);
}

TEST(NcuCsv, ARepeatedHeaderStartsANewTable) {
  std::string text =
      "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\"\n"
      "\"0\",\"a\",\"1\"\n"
      "\"ID\",\"Kernel Name\",\"sm__throughput.avg.pct_of_peak_sustained_elapsed\"\n"
      "\"0\",\"b\",\"50\"\n";
  NcuCsv csv = parse_ncu_csv(text);
  ASSERT_EQ(csv.kernels.size(), 2u);
  EXPECT_TRUE(csv.kernels[0].get(metric::duration));
  EXPECT_FALSE(csv.kernels[1].get(metric::duration));
  EXPECT_DOUBLE_EQ(*csv.kernels[1].get(metric::sm_throughput), 50);
}

TEST(NcuCsv, SplitsQuotedAndUnquotedFields) {
  auto f = split_csv_line(R"("a, b",c,"say ""hi""",)");
  ASSERT_TRUE(f);
  ASSERT_EQ(f->size(), 4u);
  EXPECT_EQ((*f)[0], "a, b");
  EXPECT_EQ((*f)[1], "c");
  EXPECT_EQ((*f)[2], "say \"hi\"");
  EXPECT_EQ((*f)[3], "");
  EXPECT_FALSE(split_csv_line("\"open"));
}

TEST(NcuCsv, MetricValues) {
  EXPECT_DOUBLE_EQ(*parse_metric_value("1,215,000,000.50"), 1215000000.5);
  EXPECT_DOUBLE_EQ(*parse_metric_value(" 42 "), 42);
  EXPECT_DOUBLE_EQ(*parse_metric_value("4.0e-05"), 4e-5);
  EXPECT_FALSE(parse_metric_value("n/a"));
  EXPECT_FALSE(parse_metric_value(""));
  EXPECT_FALSE(parse_metric_value("(128, 1, 1)"));
  EXPECT_FALSE(parse_metric_value("12 %"));
  EXPECT_FALSE(parse_metric_value("nan"));
}

}  // namespace
}  // namespace ucut::profile
