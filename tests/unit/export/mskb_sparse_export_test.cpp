// tests/unit/export/mskb_sparse_export_test.cpp — `export --mskb` of the `sparse` specs of examples/mskb/
// (export/mskb_map_launcher.cpp): each of the 16 launchers (spmv/spmm × csr/coo/csc/ell × FP32/BF16) has
// MSKB's declaration and calls the kernel's run_sparse with A's arrays, the dense operand, the output and the
// extents its format needs, bound by name; a spec whose array names are not the launcher's is refused with
// X007.
#include <gtest/gtest.h>

#include "export_cases.h"

namespace ucut::golden {
namespace {

interop::ExportResult export_sparse(const std::string& task, const std::string& text = "") {
  const fs::path spec = source_dir() / "examples" / "mskb" / (task + ".ucut");
  return interop::export_mskb(SourceFile(spec.filename().string(), text.empty() ? read_text(spec) : text),
                              task);
}

std::string errors_of(const interop::ExportResult& r) {
  std::string errors;
  for (const Diagnostic& d : r.comp.diags.diagnostics())
    errors += std::string(rule_info(d.rule).code) + " " + d.message + "\n";
  return errors;
}

TEST(MskbSparseExport, EverySparseLauncherBinds) {
  struct Expected {
    const char* task;
    const char* declaration;
    const char* call;
  };
  const Expected rows[] = {
      {"spmv_csr",
       "void spmv_csr_optimized(int rows, const float* values, const int* col_indices, const int* "
       "row_offsets, "
       "const float* x, float* y) {",
       "run_sparse(reinterpret_cast<const kernel::ElementIn0*>(values), "
       "reinterpret_cast<const kernel::ElementIn1*>(col_indices), "
       "reinterpret_cast<const kernel::ElementIn2*>(row_offsets), reinterpret_cast<const "
       "kernel::ElementIn3*>(x), "
       "reinterpret_cast<kernel::ElementOut*>(y), int64_t(rows), nullptr"},
      {"spmv_csr_bf16", "void spmv_csr_bf16_optimized(int rows, const __nv_bfloat16* values,",
       "reinterpret_cast<kernel::ElementOut*>(y), int64_t(rows), nullptr"},
      {"spmv_coo", "void spmv_coo_optimized(int rows, int nnz, const float* values,",
       "reinterpret_cast<kernel::ElementOut*>(y), int64_t(rows), int64_t(nnz), nullptr"},
      {"spmv_coo_bf16", "void spmv_coo_bf16_optimized(int rows, int nnz,",
       "reinterpret_cast<kernel::ElementOut*>(y), int64_t(rows), int64_t(nnz), nullptr"},
      {"spmv_csc", "void spmv_csc_optimized(int rows, int columns, const float* values,",
       "reinterpret_cast<kernel::ElementOut*>(y), int64_t(rows), int64_t(columns), nullptr"},
      {"spmv_csc_bf16", "void spmv_csc_bf16_optimized(int rows, int columns,",
       "reinterpret_cast<kernel::ElementOut*>(y), int64_t(rows), int64_t(columns), nullptr"},
      {"spmv_ell",
       "void spmv_ell_optimized(int rows, int max_nnz_per_row, const float* values, const int* col_ids,",
       "reinterpret_cast<const kernel::ElementIn1*>(col_ids), reinterpret_cast<const "
       "kernel::ElementIn2*>(x), "
       "reinterpret_cast<kernel::ElementOut*>(y), int64_t(rows), int64_t(max_nnz_per_row), nullptr"},
      {"spmv_ell_bf16", "void spmv_ell_bf16_optimized(int rows, int max_nnz_per_row,",
       "reinterpret_cast<kernel::ElementOut*>(y), int64_t(rows), int64_t(max_nnz_per_row), nullptr"},
      {"spmm_csr", "void spmm_csr_optimized(int rows, int K, const float* values,",
       "reinterpret_cast<kernel::ElementOut*>(Y), int64_t(rows), int64_t(K), nullptr"},
      {"spmm_csr_bf16", "void spmm_csr_bf16_optimized(int rows, int K,",
       "reinterpret_cast<kernel::ElementOut*>(Y), int64_t(rows), int64_t(K), nullptr"},
      {"spmm_coo", "void spmm_coo_optimized(int row, int nnz, int K, const float* values,",
       "reinterpret_cast<kernel::ElementOut*>(Y), int64_t(row), int64_t(K), int64_t(nnz), nullptr"},
      {"spmm_coo_bf16", "void spmm_coo_bf16_optimized(int rows, int nnz, int K,",
       "reinterpret_cast<kernel::ElementOut*>(Y), int64_t(rows), int64_t(K), int64_t(nnz), nullptr"},
      {"spmm_csc", "void spmm_csc_optimized(int rows, int columns, int K, const float* values,",
       "reinterpret_cast<kernel::ElementOut*>(Y), int64_t(rows), int64_t(K), int64_t(columns), nullptr"},
      {"spmm_csc_bf16", "void spmm_csc_bf16_optimized(int rows, int columns, int K,",
       "reinterpret_cast<kernel::ElementOut*>(Y), int64_t(rows), int64_t(K), int64_t(columns), nullptr"},
      {"spmm_ell", "void spmm_ell_optimized(int rows, int max_nnz_per_row, int K, const float* values,",
       "reinterpret_cast<kernel::ElementOut*>(Y), int64_t(rows), int64_t(K), int64_t(max_nnz_per_row), "
       "nullptr"},
      {"spmm_ell_bf16", "void spmm_ell_bf16_optimized(int rows, int max_nnz_per_row, int K,",
       "reinterpret_cast<kernel::ElementOut*>(Y), int64_t(rows), int64_t(K), int64_t(max_nnz_per_row), "
       "nullptr"},
  };
  for (const Expected& e : rows) {
    SCOPED_TRACE(e.task);
    interop::ExportResult r = export_sparse(e.task);
    ASSERT_TRUE(r.ok()) << errors_of(r);
    ASSERT_EQ(r.files.size(), 1u);
    const std::string& src = r.files[0].text;
    EXPECT_NE(src.find(e.declaration), std::string::npos) << src.substr(src.rfind("extern \"C\""));
    EXPECT_NE(src.find(e.call), std::string::npos) << src.substr(src.rfind("extern \"C\""));
    EXPECT_NE(src.find("int run_sparse("), std::string::npos);
  }
}

TEST(MskbSparseExport, ArraysNamedOtherwiseAreRefused) {
  const std::string spec =
      "kernel spmv_csr : sm90a\n"
      "  sparse(A: f32[rows, cols] csr(vals, col_indices, row_offsets), x: f32[cols])\n"
      "  >> store(y: f32[rows])\n";
  interop::ExportResult r = export_sparse("spmv_csr", spec);
  EXPECT_FALSE(r.ok());
  const std::string errors = errors_of(r);
  EXPECT_NE(errors.find("X007 `spmv_csr`'s parameter `values`"), std::string::npos) << errors;
  EXPECT_NE(errors.find("X007 the input `vals` is no parameter of `spmv_csr`"), std::string::npos) << errors;
}

}  // namespace
}  // namespace ucut::golden
