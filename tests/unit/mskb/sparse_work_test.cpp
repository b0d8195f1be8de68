// tests/unit/mskb/sparse_work_test.cpp — the Work of MSKB's Sparse tasks (src/mskb/tasks/sparse.cpp) pinned,
// for each task's largest case in BF16, to a hand count typed in here: nnz as MSKB's test computes it (1% of
// rows·cols in float, truncated), values 2 bytes and indices 4 read once, the offsets of csr (rows + 1) and
// csc (cols + 1), every row of x / X that some entry's column names (all of them for csc, whose every column
// has entries; for the others the expected count of distinct uniform columns, cols·(1 − (1 − 1/cols)^nnz)),
// and y / Y written once; 2·nnz·K FLOPs. ELL counts only its entries: the padding column a kernel reads to
// find a short row's end (at most 4 bytes a row) is left out, so its figure stays a lower bound.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "mskb/task.h"

namespace ucut::mskb {
namespace {

double distinct_columns(double cols, double nnz) { return cols * (1 - std::pow(1 - 1 / cols, nnz)); }

struct HandCount {
  const char* task;
  const char* largest_case;
  double nnz, bytes, k;
};

TEST(MskbSparseWork, LargestCaseInBf16MatchesTheHandCount) {
  // nnz: float(rows·cols · 0.01f) truncated: 67108864 → 671088, 536870912 → 5368709, 134217728 → 1342177,
  // 33554432 → 335544.
  const HandCount rows[] = {
      {"spmv_csr", "rows=32768 cols=2048", 671088,
       671088 * 6.0 + 32769 * 4.0 + (distinct_columns(2048, 671088) + 32768) * 2, 1},
      {"spmv_coo", "rows=32768 cols=2048", 671088,
       671088 * 10.0 + (distinct_columns(2048, 671088) + 32768) * 2, 1},
      {"spmv_csc", "rows=2048 columns=32768", 671088, 671088 * 6.0 + 32769 * 4.0 + (32768 + 2048) * 2.0, 1},
      {"spmv_ell", "rows=2048 cols=32768", 671088,
       671088 * 6.0 + (distinct_columns(32768, 671088) + 2048) * 2, 1},
      {"spmm_csr", "rows=262144 cols=2048 K=4096", 5368709,
       5368709 * 6.0 + 262145 * 4.0 + (distinct_columns(2048, 5368709) + 262144) * 4096 * 2, 4096},
      {"spmm_coo", "row=65536 cols=2048 K=4096", 1342177,
       1342177 * 10.0 + (distinct_columns(2048, 1342177) + 65536) * 4096 * 2, 4096},
      {"spmm_csc", "rows=2048 columns=16384 K=4096", 335544,
       335544 * 6.0 + 16385 * 4.0 + (16384 + 2048) * 4096 * 2.0, 4096},
      {"spmm_ell", "rows=2048 cols=16384 K=4096", 335544,
       335544 * 6.0 + (distinct_columns(16384, 335544) + 2048) * 4096 * 2, 4096},
  };
  for (const HandCount& row : rows) {
    SCOPED_TRACE(row.task);
    const Task* t = find_task(row.task);
    ASSERT_NE(t, nullptr);
    const Case& largest = t->cases.back();
    EXPECT_EQ(largest.label(), row.largest_case);
    const Work w = t->work(largest, 2);
    EXPECT_NEAR(w.bytes / row.bytes, 1.0, 1e-12);
    EXPECT_EQ(w.flops, 2 * row.nnz * row.k);
  }
}

}  // namespace
}  // namespace ucut::mskb
