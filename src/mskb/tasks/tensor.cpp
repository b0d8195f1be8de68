// mskb/tasks/tensor.cpp — MSKB's Tensor Process tasks (peers.md §2.1, rows 36–39).
#include <cstdint>
#include <tuple>

#include "mskb/gen.h"
#include "mskb/task.h"

namespace ucut::mskb {

namespace {

int64_t size_of(const Instance& in, const char* name) { return static_cast<int64_t>(in.scalar(name)); }

// B (N×M) = Aᵀ for A (M×N), both row-major.
Task matrix_transpose() {
  Task t;
  t.name = "matrix_transpose";
  t.category = "Tensor Process";
  t.signature_fp32 = "void matrix_transpose( const float* A, float* B, int M, int N)";
  t.signature_bf16 = "void matrix_transpose_bf16( const __nv_bfloat16* A, __nv_bfloat16* B, int M, int N)";
  std::vector<int64_t> sides = {1 << 10, 1 << 11, 1 << 12, 1 << 13, 1 << 14};
  t.cases = sweep({{"M", sides}, {"N", sides}});
  t.complexity = [](const Case& c) { return double(c.at("M")) * double(c.at("N")); };
  t.tolerance = {Tolerance::Kind::absolute, 1e-2};
  t.outputs = {"B"};
  t.vendor = "cuBLAS geam (FP32) / cuBLASLt MatrixTransform (BF16)";
  t.generate = [](const Case& c, std::mt19937_64& rng) {
    int64_t m = c.at("M"), n = c.at("N");
    Instance in;
    in.arrays["A"] = uniform(m * n, -1, 1, rng);
    in.arrays["B"].assign(static_cast<size_t>(m * n), 0.0);
    in.scalars["M"] = double(m);
    in.scalars["N"] = double(n);
    return in;
  };
  t.reference = [](const Instance& in) {
    int64_t m = size_of(in, "M"), n = size_of(in, "N");
    const auto& a = in.array("A");
    std::vector<double> b(a.size());
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) b[j * m + i] = a[i * n + j];
    return Outputs{{"B", b}};
  };
  t.work = [](const Case& c, int bytes) { return Work{0, 2 * double(c.at("M")) * double(c.at("N")) * bytes}; };
  return t;
}

Task matrix_copy() {
  Task t;
  t.name = "matrix_copy";
  t.category = "Tensor Process";
  t.signature_fp32 = "void matrix_copy(float* A, float* B, int M, int N)";
  t.signature_bf16 = "void matrix_copy_bf16(__nv_bfloat16* A, __nv_bfloat16* B, int M, int N)";
  t.cases = sweep({{"M", {1 << 8, 1 << 10, 1 << 12, 1 << 14, 1 << 16}}, {"N", {2048}}});
  t.complexity = [](const Case& c) { return double(c.at("M")) * double(c.at("N")); };
  t.tolerance = {Tolerance::Kind::absolute, 1e-2};
  t.outputs = {"B"};
  t.vendor = "CUDA runtime cudaMemcpy2D";
  t.generate = [](const Case& c, std::mt19937_64& rng) {
    int64_t m = c.at("M"), n = c.at("N");
    Instance in;
    in.arrays["A"] = uniform(m * n, -1, 1, rng);
    in.arrays["B"].assign(static_cast<size_t>(m * n), 0.0);
    in.scalars["M"] = double(m);
    in.scalars["N"] = double(n);
    return in;
  };
  t.reference = [](const Instance& in) { return Outputs{{"B", in.array("A")}}; };
  t.work = [](const Case& c, int bytes) { return Work{0, 2 * double(c.at("M")) * double(c.at("N")) * bytes}; };
  return t;
}

// output[i] = input[N-1-i].
Task reverse_array() {
  Task t;
  t.name = "reverse_array";
  t.category = "Tensor Process";
  t.signature_fp32 = "void reverse_array(float* output, float* input, int N)";
  t.signature_bf16 = "void reverse_array_bf16(__nv_bfloat16* output, __nv_bfloat16* input, int N)";
  t.cases = sweep({{"N", {1 << 10, 1 << 12, 1 << 14, 1 << 16, 1 << 18}}});
  t.complexity = [](const Case& c) { return double(c.at("N")); };
  t.tolerance = {Tolerance::Kind::absolute, 1e-2};
  t.outputs = {"output"};
  t.vendor = "Thrust reverse_copy";
  t.generate = [](const Case& c, std::mt19937_64& rng) {
    int64_t n = c.at("N");
    Instance in;
    in.arrays["input"] = uniform(n, -1, 1, rng);
    in.arrays["output"].assign(static_cast<size_t>(n), 0.0);
    in.scalars["N"] = double(n);
    return in;
  };
  t.reference = [](const Instance& in) {
    const auto& x = in.array("input");
    return Outputs{{"output", std::vector<double>(x.rbegin(), x.rend())}};
  };
  t.work = [](const Case& c, int bytes) { return Work{0, 2 * double(c.at("N")) * bytes}; };
  return t;
}

// C[a][b][c] = Σ_{x,y} A[a][x][b][y] · B[x][c][y], every tensor dense row-major in the index order shown.
Task high_order_contraction() {
  Task t;
  t.name = "high_order_contraction";
  t.category = "Tensor Process";
  t.signature_fp32 = "void high_order_contraction( const float* A, const float* B, float* C, int a_dim, int b_dim, "
                     "int c_dim, int x_dim, int y_dim)";
  t.signature_bf16 = "void high_order_contraction_bf16( const __nv_bfloat16* A, const __nv_bfloat16* B, "
                     "__nv_bfloat16* C, int a_dim, int b_dim, int c_dim, int x_dim, int y_dim)";
  const std::tuple<int, int, int> abc[] = {{32, 32, 32}, {64, 32, 48}, {128, 128, 64}, {256, 256, 128}};
  for (auto [a, b, c] : abc)
    for (int xy : {8, 16})
      t.cases.push_back(Case{{{"a_dim", a}, {"b_dim", b}, {"c_dim", c}, {"x_dim", xy}, {"y_dim", xy}}});
  t.complexity = [](const Case& c) {
    return double(c.at("a_dim")) * double(c.at("b_dim")) * double(c.at("c_dim")) * double(c.at("x_dim")) *
           double(c.at("y_dim"));
  };
  t.tolerance = {Tolerance::Kind::absolute, 1e-2};
  t.outputs = {"C"};
  t.vendor = "cuBLAS strided-batched GEMM (one per x)";
  t.generate = [](const Case& c, std::mt19937_64& rng) {
    int64_t a = c.at("a_dim"), b = c.at("b_dim"), cc = c.at("c_dim"), x = c.at("x_dim"), y = c.at("y_dim");
    Instance in;
    in.arrays["A"] = uniform(a * b * x * y, -1, 1, rng);
    in.arrays["B"] = uniform(x * y * cc, -1, 1, rng);
    in.arrays["C"].assign(static_cast<size_t>(a * b * cc), 0.0);
    for (const auto& [name, v] : c.sizes) in.scalars[name] = double(v);
    return in;
  };
  t.reference = [](const Instance& in) {
    int64_t na = size_of(in, "a_dim"), nb = size_of(in, "b_dim"), nc = size_of(in, "c_dim"),
            nx = size_of(in, "x_dim"), ny = size_of(in, "y_dim");
    const auto &a = in.array("A"), &b = in.array("B");
    std::vector<double> c(static_cast<size_t>(na * nb * nc), 0.0);
    parallel_for(na, [&](int64_t begin, int64_t end) {
      for (int64_t ia = begin; ia < end; ++ia)
        for (int64_t ix = 0; ix < nx; ++ix)
          for (int64_t ib = 0; ib < nb; ++ib) {
            const double* arow = a.data() + ((ia * nx + ix) * nb + ib) * ny;
            double* crow = c.data() + (ia * nb + ib) * nc;
            for (int64_t ic = 0; ic < nc; ++ic) {
              const double* brow = b.data() + (ix * nc + ic) * ny;
              double sum = 0;
              for (int64_t iy = 0; iy < ny; ++iy) sum += arow[iy] * brow[iy];
              crow[ic] += sum;
            }
          }
    });
    return Outputs{{"C", c}};
  };
  t.work = [](const Case& c, int bytes) {
    double a = double(c.at("a_dim")), b = double(c.at("b_dim")), cc = double(c.at("c_dim")),
           xy = double(c.at("x_dim")) * double(c.at("y_dim"));
    return Work{2 * a * b * cc * xy, (a * b * xy + xy * cc + a * b * cc) * bytes};
  };
  return t;
}

}  // namespace

void add_tensor_tasks(std::vector<Task>& out) {
  out.push_back(matrix_transpose());
  out.push_back(matrix_copy());
  out.push_back(reverse_array());
  out.push_back(high_order_contraction());
}

}  // namespace ucut::mskb
