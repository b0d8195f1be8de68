// mskb/tasks/sparse.cpp — MSKB's Sparse tasks (peers.md §2.1, rows 8–15): SpMV and SpMM with the sparse
// matrix in CSR, COO, CSC or ELL at 1% density; the dense X and Y of SpMM are row-major with K columns.
#include <algorithm>
#include <cmath>

#include "mskb/gen.h"
#include "mskb/task.h"

namespace ucut::mskb {

namespace {

enum class Format { csr, coo, csc, ell };

/// A case's matrix: `rows` × `cols` sparse A times a dense operand with `k` columns (1 for SpMV).
struct Dims {
  int64_t rows = 0, cols = 0, k = 1;
};

/// How one task differs from the others: its format, operand names and sizes.
struct Spec {
  std::string name, fp32, bf16, vendor;
  Format format = Format::csr;
  std::vector<Case> cases;
  std::function<Dims(const Case&)> dims;
  std::string rows_param =
      "rows";           // the launcher's row-count parameter (spmm_coo's FP32 launcher says "row")
  bool matrix = false;  // SpMM: X, Y and the scalar K; SpMV: x and y
};

/// MSKB's nonzero count: 1% of rows·cols, computed in float and truncated as its test does, and at least one
/// entry per row (per column for CSC).
int64_t mskb_nnz(const Dims& d, Format f) {
  auto n = static_cast<int64_t>(static_cast<float>(d.rows * d.cols) * 0.01f);
  return std::max(n, f == Format::csc ? d.cols : d.rows);
}

/// Offsets that give each of `n` lines total/n entries, the first total%n lines one more (MSKB's CSR and
/// CSC).
std::vector<double> even_offsets(int64_t n, int64_t total) {
  std::vector<double> off(static_cast<size_t>(n + 1));
  for (int64_t i = 0; i <= n; ++i) off[i] = double(i * (total / n) + std::min(i, total % n));
  return off;
}

/// MSKB's ELL: every row gets one entry, the other nnz − rows go to uniform rows; rows are padded to the
/// longest (max_nnz_per_row) with column −1 and value 0 after their entries.
void fill_ell(const Dims& d, int64_t nnz, std::mt19937_64& rng, Instance& in) {
  std::vector<double> extra_rows = uniform_int(nnz - d.rows, 0, d.rows - 1, rng);
  std::vector<double> cols = uniform_int(nnz, 0, d.cols - 1, rng), vals = uniform(nnz, -1, 1, rng);
  std::vector<std::vector<int64_t>> entries(static_cast<size_t>(d.rows));
  for (int64_t i = 0; i < nnz; ++i) entries[i < d.rows ? i : int64_t(extra_rows[i - d.rows])].push_back(i);
  size_t width = 0;
  for (const auto& e : entries) width = std::max(width, e.size());
  std::vector<double> values(d.rows * width, 0.0), col_ids(d.rows * width, -1.0);
  for (int64_t r = 0; r < d.rows; ++r)
    for (size_t e = 0; e < entries[r].size(); ++e) {
      values[r * width + e] = vals[entries[r][e]];
      col_ids[r * width + e] = cols[entries[r][e]];
    }
  in.arrays["values"] = std::move(values);
  in.arrays["col_ids"] = std::move(col_ids);
  in.scalars["max_nnz_per_row"] = double(width);
}

/// The sparse operand as MSKB's test draws it: values uniform in [−1, 1), indices uniform (unsorted, repeats
/// allowed), and the format's scalars.
void fill_sparse(const Spec& s, const Dims& d, std::mt19937_64& rng, Instance& in) {
  int64_t nnz = mskb_nnz(d, s.format);
  switch (s.format) {
    case Format::csr:
      in.arrays["row_offsets"] = even_offsets(d.rows, nnz);
      in.arrays["col_indices"] = uniform_int(nnz, 0, d.cols - 1, rng);
      in.arrays["values"] = uniform(nnz, -1, 1, rng);
      break;
    case Format::coo: {  // entry i < rows is in row i, the rest in uniform rows
      std::vector<double> rows(static_cast<size_t>(d.rows)),
          rest = uniform_int(nnz - d.rows, 0, d.rows - 1, rng);
      for (int64_t i = 0; i < d.rows; ++i) rows[i] = double(i);
      rows.insert(rows.end(), rest.begin(), rest.end());
      in.arrays["row_indices"] = std::move(rows);
      in.arrays["col_indices"] = uniform_int(nnz, 0, d.cols - 1, rng);
      in.arrays["values"] = uniform(nnz, -1, 1, rng);
      in.scalars["nnz"] = double(nnz);
      break;
    }
    case Format::csc:
      in.arrays["col_offsets"] = even_offsets(d.cols, nnz);
      in.arrays["row_indices"] = uniform_int(nnz, 0, d.rows - 1, rng);
      in.arrays["values"] = uniform(nnz, -1, 1, rng);
      in.scalars["columns"] = double(d.cols);
      break;
    case Format::ell:
      fill_ell(d, nnz, rng, in);
      break;
  }
  in.scalars[s.rows_param] = double(d.rows);
}

/// A sparse matrix as its entries grouped by row: row r holds entries start[r] .. start[r+1] − 1.
struct RowEntries {
  std::vector<int64_t> start, col;
  std::vector<double> val;
};

/// Groups entries given as (row, column, value) lists by row, keeping their order within a row.
RowEntries group_by_row(int64_t rows, const std::vector<int64_t>& row, const std::vector<int64_t>& col,
                        const std::vector<double>& val) {
  RowEntries a;
  a.start.assign(static_cast<size_t>(rows + 1), 0);
  for (int64_t r : row) ++a.start[r + 1];
  for (int64_t r = 0; r < rows; ++r) a.start[r + 1] += a.start[r];
  a.col.resize(col.size());
  a.val.resize(val.size());
  std::vector<int64_t> next(a.start.begin(), a.start.end() - 1);
  for (size_t i = 0; i < row.size(); ++i) {
    int64_t at = next[row[i]]++;
    a.col[at] = col[i];
    a.val[at] = val[i];
  }
  return a;
}

std::vector<int64_t> as_indices(const std::vector<double>& v) {
  return std::vector<int64_t>(v.begin(), v.end());
}

/// The instance's sparse operand, whatever its format, as row-grouped entries (ELL padding dropped).
RowEntries read_sparse(const Spec& s, const Instance& in) {
  auto rows = static_cast<int64_t>(in.scalar(s.rows_param));
  const std::vector<double>& values = in.array("values");
  std::vector<int64_t> row, col;
  std::vector<double> val;
  switch (s.format) {
    case Format::csr:
      return {as_indices(in.array("row_offsets")), as_indices(in.array("col_indices")), values};
    case Format::coo:
      return group_by_row(rows, as_indices(in.array("row_indices")), as_indices(in.array("col_indices")),
                          values);
    case Format::csc: {
      std::vector<int64_t> off = as_indices(in.array("col_offsets"));
      row = as_indices(in.array("row_indices"));
      val = values;
      for (size_t c = 0; c + 1 < off.size(); ++c) col.insert(col.end(), off[c + 1] - off[c], int64_t(c));
      break;
    }
    case Format::ell: {
      auto width = static_cast<int64_t>(in.scalar("max_nnz_per_row"));
      const std::vector<double>& ids = in.array("col_ids");
      for (int64_t i = 0; i < rows * width; ++i)
        if (ids[i] != -1) {
          row.push_back(i / width);
          col.push_back(int64_t(ids[i]));
          val.push_back(values[i]);
        }
      break;
    }
  }
  return group_by_row(rows, row, col, val);
}

/// Y = A·X with X (cols × k) and Y (rows × k) row-major, in FP64; rows in parallel when the work is large.
std::vector<double> multiply(const RowEntries& a, const std::vector<double>& x, int64_t k) {
  auto rows = int64_t(a.start.size()) - 1;
  std::vector<double> y(static_cast<size_t>(rows * k), 0.0);
  auto body = [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r)
      for (int64_t j = a.start[r]; j < a.start[r + 1]; ++j) {
        const double v = a.val[j];
        const double* xr = &x[a.col[j] * k];
        double* yr = &y[r * k];
        for (int64_t c = 0; c < k; ++c) yr[c] += v * xr[c];
      }
  };
  if (double(a.col.size()) * double(k) > 1e7)
    parallel_for(rows, body);
  else
    body(0, rows);
  return y;
}

/// Bytes of the sparse arrays with `nnz` entries (values `eb` wide, indices 4); ELL counts only its entries,
/// as a kernel may stop at a row's first padding column.
double sparse_bytes(Format f, const Dims& d, double nnz, int eb) {
  switch (f) {
    case Format::csr:
      return nnz * (eb + 4) + double(d.rows + 1) * 4;
    case Format::coo:
      return nnz * (eb + 8);
    case Format::csc:
      return nnz * (eb + 4) + double(d.cols + 1) * 4;
    case Format::ell:
      return nnz * (eb + 4);
  }
  return 0;
}

Task sparse_task(const Spec& s) {
  Task t;
  t.name = s.name;
  t.category = "Sparse";
  t.signature_fp32 = s.fp32;
  t.signature_bf16 = s.bf16;
  t.cases = s.cases;
  const std::string x = s.matrix ? "X" : "x", y = s.matrix ? "Y" : "y";
  t.complexity = [s](const Case& c) {
    Dims d = s.dims(c);
    return double(mskb_nnz(d, s.format)) * double(d.k);
  };
  t.reference_cost = t.complexity;  // nnz·K multiply-adds: the large SpMM cases are judged against cuSPARSE
  t.tolerance = {Tolerance::Kind::absolute, 1e-1};
  t.outputs = {y};
  // MSKernelBenchDemo origin/bf16/test_sp{mv,mm}_{coo,csc,ell}_bf16.cu memset y to 0 before every call (their naive
  // kernels add into it); the CSR ones do not (a thread writes its row).
  if (s.format != Format::csr) t.zeroed_outputs = {y};
  t.vendor = s.vendor;
  t.generate = [s, x, y](const Case& c, std::mt19937_64& rng) {
    Dims d = s.dims(c);
    Instance in;
    fill_sparse(s, d, rng, in);
    in.arrays[x] = uniform(d.cols * d.k, -1, 1, rng);
    in.arrays[y].assign(static_cast<size_t>(d.rows * d.k), 0.0);
    if (s.matrix) in.scalars["K"] = double(d.k);
    return in;
  };
  t.reference = [s, x, y](const Instance& in) {
    int64_t k = s.matrix ? static_cast<int64_t>(in.scalar("K")) : 1;
    return Outputs{{y, multiply(read_sparse(s, in), in.array(x), k)}};
  };
  t.work = [s](const Case& c, int eb) {
    Dims d = s.dims(c);
    double nnz = double(mskb_nnz(d, s.format)), cols = double(d.cols);
    // CSC has entries in every column; elsewhere columns are drawn uniformly and some rows of X go unread.
    double x_rows = s.format == Format::csc ? cols : cols * (1 - std::pow(1 - 1 / cols, nnz));
    double dense = (x_rows + double(d.rows)) * double(d.k) * eb;
    return Work{2 * nnz * double(d.k), sparse_bytes(s.format, d, nnz, eb) + dense};
  };
  return t;
}

constexpr int64_t kFixed = 2048;  // the dimension MSKB holds fixed: cols of CSR/COO/ELL, rows of CSC
constexpr int64_t kK = 4096;      // SpMM's dense width

std::vector<int64_t> powers_of_two(int from, int to, int step = 1) {
  std::vector<int64_t> v;
  for (int e = from; e <= to; e += step) v.push_back(int64_t(1) << e);
  return v;
}

const char* format_name(Format f) {
  switch (f) {
    case Format::csr:
      return "CSR";
    case Format::coo:
      return "COO";
    case Format::csc:
      return "CSC";
    case Format::ell:
      return "CSR (after ELL-to-CSR glue)";  // cuSPARSE has no plain ELL
  }
  return "";
}

/// The Spec of an SpMV (matrix false) or SpMM task whose cases name A's rows and columns `rows_name`,
/// `cols_name`.
Spec spec(const std::string& name, Format f, bool matrix, const std::string& fp32, const std::string& bf16,
          std::vector<Case> cases, const std::string& rows_name, const std::string& cols_name) {
  std::string vendor = std::string(matrix ? "cuSPARSE SpMM " : "cuSPARSE SpMV ") + format_name(f);
  auto dims = [=](const Case& c) { return Dims{c.at(rows_name), c.at(cols_name), matrix ? c.at("K") : 1}; };
  return Spec{name, fp32, bf16, vendor, f, std::move(cases), dims, rows_name, matrix};
}

Task spmv_csr() {
  return sparse_task(
      spec("spmv_csr", Format::csr, false,
           "void spmv_csr( int rows, const float* values, const int* col_indices, const int* "
           "row_offsets, const float* x, float* y)",
           "void spmv_csr_bf16( int rows, const __nv_bfloat16* values, const int* col_indices, const "
           "int* row_offsets, const __nv_bfloat16* x, __nv_bfloat16* y)",
           sweep({{"rows", powers_of_two(10, 15)}, {"cols", {kFixed}}}), "rows", "cols"));
}

Task spmv_coo() {
  return sparse_task(
      spec("spmv_coo", Format::coo, false,
           "void spmv_coo( int rows, int nnz, const float* values, const int* row_indices, const int* "
           "col_indices, const float* x, float* y)",
           "void spmv_coo_bf16( int rows, int nnz, const __nv_bfloat16* values, const int* "
           "row_indices, const int* col_indices, const __nv_bfloat16* x, __nv_bfloat16* y)",
           sweep({{"rows", powers_of_two(10, 15)}, {"cols", {kFixed}}}), "rows", "cols"));
}

Task spmv_csc() {
  return sparse_task(
      spec("spmv_csc", Format::csc, false,
           "void spmv_csc( int rows, int columns, const float* values, const int* row_indices, const "
           "int* col_offsets, const float* x, float* y)",
           "void spmv_csc_bf16( int rows, int columns, const __nv_bfloat16* values, const int* "
           "row_indices, const int* col_offsets, const __nv_bfloat16* x, __nv_bfloat16* y)",
           sweep({{"rows", {kFixed}}, {"columns", powers_of_two(10, 15)}}), "rows", "columns"));
}

Task spmv_ell() {
  return sparse_task(
      spec("spmv_ell", Format::ell, false,
           "void spmv_ell( int rows, int max_nnz_per_row, const float *values, const int *col_ids, "
           "const float *x, float *y)",
           "void spmv_ell_bf16( int rows, int max_nnz_per_row, const __nv_bfloat16 *values, const int "
           "*col_ids, const __nv_bfloat16 *x, __nv_bfloat16 *y)",
           sweep({{"rows", {kFixed}}, {"cols", powers_of_two(10, 15)}}), "rows", "cols"));
}

Task spmm_csr() {
  return sparse_task(
      spec("spmm_csr", Format::csr, true,
           "void spmm_csr( int rows, int K, const float* values, const int* col_indices, const int* "
           "row_offsets, const float* X, float* Y)",
           "void spmm_csr_bf16( int rows, int K, const __nv_bfloat16* values, const int* col_indices, "
           "const int* row_offsets, const __nv_bfloat16* X, __nv_bfloat16* Y)",
           sweep({{"rows", powers_of_two(10, 18, 2)}, {"cols", {kFixed}}, {"K", {kK}}}), "rows", "cols"));
}

Task spmm_coo() {
  return sparse_task(
      spec("spmm_coo", Format::coo, true,
           "void spmm_coo( int row, int nnz, int K, const float* values, const int* row_indices, const "
           "int* col_indices, const float* X, float* Y)",
           "void spmm_coo_bf16( int rows, int nnz, int K, const __nv_bfloat16* values, const int* "
           "row_indices, const int* col_indices, const __nv_bfloat16* X, __nv_bfloat16* Y)",
           sweep({{"row", powers_of_two(8, 16, 2)}, {"cols", {kFixed}}, {"K", {kK}}}), "row", "cols"));
}

Task spmm_csc() {
  return sparse_task(
      spec("spmm_csc", Format::csc, true,
           "void spmm_csc( int rows, int columns, int K, const float* values, const int* row_indices, "
           "const int* col_offsets, const float* X, float* Y)",
           "void spmm_csc_bf16( int rows, int columns, int K, const __nv_bfloat16* values, const int* "
           "row_indices, const int* col_offsets, const __nv_bfloat16* X, __nv_bfloat16* Y)",
           sweep({{"rows", {kFixed}}, {"columns", powers_of_two(10, 14)}, {"K", {kK}}}), "rows", "columns"));
}

Task spmm_ell() {
  return sparse_task(
      spec("spmm_ell", Format::ell, true,
           "void spmm_ell( int rows, int max_nnz_per_row, int K, const float *values, const int "
           "*col_ids, const float *X, float *Y)",
           "void spmm_ell_bf16( int rows, int max_nnz_per_row, int K, const __nv_bfloat16 *values, "
           "const int *col_ids, const __nv_bfloat16 *X, __nv_bfloat16 *Y)",
           sweep({{"rows", {kFixed}}, {"cols", powers_of_two(10, 14)}, {"K", {kK}}}), "rows", "cols"));
}

}  // namespace

void add_sparse_tasks(std::vector<Task>& out) {
  out.push_back(spmv_csr());
  out.push_back(spmv_coo());
  out.push_back(spmv_csc());
  out.push_back(spmv_ell());
  out.push_back(spmm_csr());
  out.push_back(spmm_coo());
  out.push_back(spmm_csc());
  out.push_back(spmm_ell());
}

}  // namespace ucut::mskb
