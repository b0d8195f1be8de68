// The Sparse tasks' FP64 references against hand-computed products (unsorted and repeated indices, ELL
// padding), and the structures their generators draw: MSKB's nonzero counts, offsets and padding.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "mskb/task.h"

namespace ucut::mskb {
namespace {

const Task& task(const std::string& name) {
  const Task* t = find_task(name);
  if (!t) throw std::runtime_error("no task " + name);
  return *t;
}

void expect_near(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-12) << "element " << i;
}

/// The reference's output (y or Y) for `in`, whose output array is sized here.
std::vector<double> run(const std::string& name, Instance in, size_t out_size) {
  const Task& t = task(name);
  in.arrays[t.outputs.front()].assign(out_size, 0.0);
  return t.reference(in).at(t.outputs.front());
}

// The 3 × 2 matrix A = [[2, 3], [0, 0], [5, 4]] with row 0's 3 stored as 1 + 2 (a repeated index), x = (10,
// 100) and X = [[1, 10], [2, 20]]: A·x = (320, 0, 450), A·X = [[8, 80], [0, 0], [13, 130]].
const std::vector<double> kX = {10, 100}, kXm = {1, 10, 2, 20};
const std::vector<double> kAx = {320, 0, 450}, kAX = {8, 80, 0, 0, 13, 130};

Instance csr() {
  Instance in;
  in.arrays["row_offsets"] = {0, 3, 3, 5};
  in.arrays["col_indices"] = {1, 0, 1, 1, 0};
  in.arrays["values"] = {1, 2, 2, 4, 5};
  in.scalars["rows"] = 3;
  return in;
}

Instance coo(const std::string& rows_param) {  // unsorted rows
  Instance in;
  in.arrays["row_indices"] = {2, 0, 0, 2, 0};
  in.arrays["col_indices"] = {1, 1, 0, 0, 1};
  in.arrays["values"] = {4, 1, 2, 5, 2};
  in.scalars[rows_param] = 3;
  in.scalars["nnz"] = 5;
  return in;
}

Instance csc() {  // unsorted row indices within a column
  Instance in;
  in.arrays["col_offsets"] = {0, 2, 5};
  in.arrays["row_indices"] = {2, 0, 0, 2, 0};
  in.arrays["values"] = {5, 2, 1, 4, 2};
  in.scalars["rows"] = 3;
  in.scalars["columns"] = 2;
  return in;
}

Instance ell() {  // width 3; rows padded with column -1 (value 0, and one stray value the -1 must hide)
  Instance in;
  in.arrays["col_ids"] = {1, 0, 1, -1, -1, -1, 1, 0, -1};
  in.arrays["values"] = {1, 2, 2, 0, 9, 0, 4, 5, 0};
  in.scalars["rows"] = 3;
  in.scalars["max_nnz_per_row"] = 3;
  return in;
}

Instance with(Instance in, const std::string& name, const std::vector<double>& v) {
  in.arrays[name] = v;
  return in;
}

Instance spmm_input(Instance in) {
  in.arrays["X"] = kXm;
  in.scalars["K"] = 2;
  return in;
}

TEST(SpmvCsr, SumsEachRowsEntriesIncludingRepeatedColumns) {
  expect_near(run("spmv_csr", with(csr(), "x", kX), 3), kAx);
}
TEST(SpmvCoo, ScattersUnsortedEntriesIntoTheirRows) {
  expect_near(run("spmv_coo", with(coo("rows"), "x", kX), 3), kAx);
}
TEST(SpmvCsc, ScattersEachColumnTimesItsXIntoTheRows) {
  expect_near(run("spmv_csc", with(csc(), "x", kX), 3), kAx);
}
TEST(SpmvEll, SkipsPaddingColumns) { expect_near(run("spmv_ell", with(ell(), "x", kX), 3), kAx); }

TEST(SpmmCsr, MultipliesRowMajorXWithKColumns) { expect_near(run("spmm_csr", spmm_input(csr()), 6), kAX); }
TEST(SpmmCoo, ReadsItsRowCountFromTheParameterNamedRow) {
  expect_near(run("spmm_coo", spmm_input(coo("row")), 6), kAX);
}
TEST(SpmmCsc, MultipliesRowMajorXWithKColumns) { expect_near(run("spmm_csc", spmm_input(csc()), 6), kAX); }
TEST(SpmmEll, SkipsPaddingColumns) { expect_near(run("spmm_ell", spmm_input(ell()), 6), kAX); }

TEST(SparseTasks, SweepMskbSizesAndCountNonzerosAsMskbDoesInFloat) {
  const Task& csr_v = task("spmv_csr");
  ASSERT_EQ(csr_v.cases.size(), 6u);
  EXPECT_EQ(csr_v.cases.front().label(), "rows=1024 cols=2048");
  EXPECT_EQ(csr_v.cases.back().at("rows"), 1 << 15);
  EXPECT_EQ(csr_v.complexity(csr_v.cases.front()), 20971);  // int(float(2^21) · 0.01f)
  EXPECT_EQ(csr_v.complexity(csr_v.cases.back()), 671088);
  EXPECT_EQ(task("spmv_csc").cases.back().label(), "rows=2048 columns=32768");
  EXPECT_EQ(task("spmv_ell").cases.back().label(), "rows=2048 cols=32768");
  const Task& csr_m = task("spmm_csr");
  ASSERT_EQ(csr_m.cases.size(), 5u);
  EXPECT_EQ(csr_m.cases.back().label(), "rows=262144 cols=2048 K=4096");
  // nnz·K ≈ 2.2e10: no int overflow, unlike MSKB's print
  EXPECT_DOUBLE_EQ(csr_m.complexity(csr_m.cases.back()), 5368709.0 * 4096);
  EXPECT_EQ(csr_m.reference_cost(csr_m.cases.back()), csr_m.complexity(csr_m.cases.back()));
  EXPECT_EQ(task("spmm_coo").cases.front().label(), "row=256 cols=2048 K=4096");
  EXPECT_EQ(task("spmm_coo").cases.size(), 5u);
  EXPECT_EQ(task("spmm_csc").cases.back().label(), "rows=2048 columns=16384 K=4096");
  EXPECT_EQ(task("spmm_ell").cases.size(), 5u);
  for (const char* name :
       {"spmv_csr", "spmv_coo", "spmv_csc", "spmv_ell", "spmm_csr", "spmm_coo", "spmm_csc", "spmm_ell"}) {
    const Task& t = task(name);
    EXPECT_EQ(t.category, "Sparse");
    EXPECT_EQ(t.tolerance.kind, Tolerance::Kind::absolute);
    EXPECT_EQ(t.tolerance.value, 1e-1);
    EXPECT_NE(t.vendor.find("cuSPARSE"), std::string::npos) << name;
  }
}

void expect_unit_values(const std::vector<double>& v) {
  for (double x : v) {
    EXPECT_GE(x, -1);
    EXPECT_LT(x, 1);
  }
}

void expect_indices_below(const std::vector<double>& v, double bound) {
  for (double i : v) {
    EXPECT_GE(i, 0);
    EXPECT_LT(i, bound);
    EXPECT_EQ(i, double(int64_t(i)));
  }
}

TEST(SpmvCsr, GeneratesEvenRowsOfUniformColumns) {
  const Task& t = task("spmv_csr");
  std::mt19937_64 rng(1);
  Instance in = t.generate(t.cases.front(), rng);
  const auto& off = in.array("row_offsets");
  ASSERT_EQ(off.size(), 1025u);
  EXPECT_EQ(off.front(), 0);
  EXPECT_EQ(off.back(), 20971);
  for (size_t r = 0; r + 1 < off.size(); ++r) EXPECT_EQ(off[r + 1] - off[r], r < 20971 % 1024 ? 21 : 20) << r;
  EXPECT_EQ(in.array("col_indices").size(), 20971u);
  expect_indices_below(in.array("col_indices"), 2048);
  expect_unit_values(in.array("values"));
  EXPECT_EQ(in.array("x").size(), 2048u);
  EXPECT_EQ(in.array("y"), std::vector<double>(1024, 0.0));
  EXPECT_EQ(in.scalars, (std::map<std::string, double>{{"rows", 1024}}));
}

TEST(SpmvCoo, GeneratesOneEntryPerRowFirstThenUniformRows) {
  const Task& t = task("spmv_coo");
  std::mt19937_64 rng(2);
  Instance in = t.generate(t.cases.front(), rng);
  const auto& rows = in.array("row_indices");
  ASSERT_EQ(rows.size(), 20971u);
  for (int r = 0; r < 1024; ++r) EXPECT_EQ(rows[r], r);
  expect_indices_below(rows, 1024);
  EXPECT_FALSE(std::is_sorted(rows.begin(), rows.end()));
  expect_indices_below(in.array("col_indices"), 2048);
  EXPECT_EQ(in.scalar("nnz"), 20971);
  EXPECT_EQ(in.scalar("rows"), 1024);
}

TEST(SpmvCsc, GeneratesEvenColumnsOfUniformRows) {
  const Task& t = task("spmv_csc");
  std::mt19937_64 rng(3);
  Instance in = t.generate(t.cases.front(), rng);  // rows 2048, columns 1024
  const auto& off = in.array("col_offsets");
  ASSERT_EQ(off.size(), 1025u);
  EXPECT_EQ(off.back(), 20971);
  EXPECT_TRUE(std::is_sorted(off.begin(), off.end()));
  expect_indices_below(in.array("row_indices"), 2048);
  EXPECT_EQ(in.array("x").size(), 1024u);
  EXPECT_EQ(in.array("y").size(), 2048u);
  EXPECT_EQ(in.scalar("columns"), 1024);
}

TEST(SpmvEll, GeneratesRowsPaddedToTheLongestWithMinusOne) {
  const Task& t = task("spmv_ell");
  std::mt19937_64 rng(4);
  Instance in = t.generate(t.cases.front(), rng);  // rows 2048, cols 1024: 20971 entries
  auto width = static_cast<size_t>(in.scalar("max_nnz_per_row"));
  const auto &ids = in.array("col_ids"), &vals = in.array("values");
  ASSERT_EQ(ids.size(), 2048 * width);
  size_t entries = 0, longest = 0;
  for (size_t r = 0; r < 2048; ++r) {
    size_t n = 0;
    while (n < width && ids[r * width + n] != -1) ++n;
    EXPECT_GE(n, 1u) << r;
    for (size_t e = n; e < width; ++e) {
      EXPECT_EQ(ids[r * width + e], -1);
      EXPECT_EQ(vals[r * width + e], 0);
    }
    for (size_t e = 0; e < n; ++e) EXPECT_LT(ids[r * width + e], 1024);
    entries += n;
    longest = std::max(longest, n);
  }
  EXPECT_EQ(entries, 20971u);
  EXPECT_EQ(longest, width);
  EXPECT_EQ(in.array("x").size(), 1024u);
}

TEST(SpmmCoo, GeneratesXAndYWithKColumns) {
  const Task& t = task("spmm_coo");
  std::mt19937_64 rng(5);
  Instance in = t.generate(t.cases.front(), rng);  // row 256, cols 2048, K 4096
  EXPECT_EQ(in.scalar("row"), 256);
  EXPECT_EQ(in.scalar("K"), 4096);
  EXPECT_EQ(in.scalar("nnz"), 5242);
  EXPECT_EQ(in.array("X").size(), 2048u * 4096);
  EXPECT_EQ(in.array("Y").size(), 256u * 4096);
  expect_unit_values(in.array("X"));
}

TEST(SparseTasks, ReferenceOnGeneratedInputsSumsToTheTotalOverStoredEntries) {
  for (const char* name : {"spmv_csr", "spmv_coo", "spmv_csc", "spmv_ell"}) {
    const Task& t = task(name);
    std::mt19937_64 rng(6);
    Instance in = t.generate(t.cases.front(), rng);
    std::vector<double> y = t.reference(in).at("y");
    // Σ y equals Σ over the stored entries of value·x[column], which needs no grouping by row.
    double total = 0;
    for (double v : y) total += v;
    double want = 0;
    const auto &vals = in.array("values"), &x = in.array("x");
    if (t.name == "spmv_csr" || t.name == "spmv_coo") {
      const auto& cols = in.array("col_indices");
      for (size_t i = 0; i < vals.size(); ++i) want += vals[i] * x[size_t(cols[i])];
    } else if (t.name == "spmv_ell") {
      const auto& ids = in.array("col_ids");
      for (size_t i = 0; i < vals.size(); ++i)
        if (ids[i] != -1) want += vals[i] * x[size_t(ids[i])];
    } else {
      const auto& off = in.array("col_offsets");
      for (size_t c = 0; c + 1 < off.size(); ++c)
        for (auto j = size_t(off[c]); j < size_t(off[c + 1]); ++j) want += vals[j] * x[c];
    }
    EXPECT_NEAR(total, want, 1e-9) << name;
  }
}

TEST(SparseTasks, WorkCountsTwoFlopsPerMultiplyAddAndEveryArrayOnce) {
  const Task& t = task("spmv_csc");
  Work w = t.work(t.cases.front(), 4);  // rows 2048, columns 1024, nnz 20971
  EXPECT_DOUBLE_EQ(w.flops, 2 * 20971.0);
  EXPECT_DOUBLE_EQ(w.bytes, 20971.0 * 8 + 1025 * 4 + (1024 + 2048) * 4);
  const Task& m = task("spmm_csr");
  Work big = m.work(m.cases.back(), 2);  // every one of the 2048 X rows is read: 5368709 draws
  EXPECT_NEAR(big.bytes, 5368709.0 * 6 + 262145 * 4 + (2048.0 + 262144) * 4096 * 2, 1);
}

}  // namespace
}  // namespace ucut::mskb
