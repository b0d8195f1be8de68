// mskb/tasks/math.cpp — MSKB's Math & Alg tasks (peers.md §2.1, rows 45–50): FFT, scan, sort, top-k and two
// quadratures of precomputed samples.
#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>
#include <numeric>
#include <set>

#include "mskb/gen.h"
#include "mskb/task.h"

namespace ucut::mskb {

namespace {

std::vector<double> zeros(int64_t n) { return std::vector<double>(static_cast<size_t>(n), 0.0); }

double n_log2_n(const Case& c) {
  double n = double(c.at("N"));
  return n * std::log2(n);
}

std::vector<Case> n_cases(std::vector<int64_t> ns) { return sweep({{"N", std::move(ns)}}); }

// In place, a.size() a power of two: X[k] = Σ_j a[j]·e^{−2πi·jk/n}, iterative radix-2 with exact-angle twiddles.
void forward_fft(std::vector<std::complex<double>>& a) {
  const size_t n = a.size();
  for (size_t i = 1, j = 0; i < n; ++i) {  // bit-reversal permutation
    size_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(a[i], a[j]);
  }
  std::vector<std::complex<double>> w(n / 2);
  for (size_t k = 0; k < n / 2; ++k) w[k] = std::polar(1.0, -2 * std::numbers::pi * double(k) / double(n));
  for (size_t len = 2; len <= n; len <<= 1)
    for (size_t i = 0; i < n; i += len)
      for (size_t k = 0; k < len / 2; ++k) {
        std::complex<double> u = a[i + k], v = a[i + k + len / 2] * w[k * (n / len)];
        a[i + k] = u + v;
        a[i + k + len / 2] = u - v;
      }
}

// Forward, unnormalized DFT of N complex points held as separate real and imaginary arrays.
Task fft() {
  Task t;
  t.name = "FFT";
  t.category = "Math & Alg";
  t.signature_fp32 = "void FFT( const float* input_real, const float* input_img, float* output_real, float* output_img, int N)";
  t.signature_bf16 =
      "void FFT_bf16( const __nv_bfloat16* input_real, const __nv_bfloat16* input_img, __nv_bfloat16* output_real, "
      "__nv_bfloat16* output_img, int N)";
  t.cases = n_cases({1 << 10, 1 << 11, 1 << 12, 1 << 13, 1 << 14});
  t.complexity = n_log2_n;
  t.tolerance = {Tolerance::Kind::relative, 1e-3};
  t.outputs = {"output_real", "output_img"};
  t.vendor = "cuFFT C2C forward (FP32)";
  t.generate = [](const Case& c, std::mt19937_64& rng) {
    int64_t n = c.at("N");
    Instance in;
    in.arrays["input_real"] = uniform(n, -1, 1, rng);
    in.arrays["input_img"] = uniform(n, -1, 1, rng);
    in.arrays["output_real"] = zeros(n);
    in.arrays["output_img"] = zeros(n);
    in.scalars["N"] = double(n);
    return in;
  };
  t.reference = [](const Instance& in) {
    const auto &re = in.array("input_real"), &im = in.array("input_img");
    std::vector<std::complex<double>> a(re.size());
    for (size_t i = 0; i < a.size(); ++i) a[i] = {re[i], im[i]};
    forward_fft(a);
    Outputs out{{"output_real", {}}, {"output_img", {}}};
    for (const auto& z : a) {
      out["output_real"].push_back(z.real());
      out["output_img"].push_back(z.imag());
    }
    return out;
  };
  t.work = [](const Case& c, int bytes) {
    double n = double(c.at("N"));
    return Work{5 * n_log2_n(c), 4 * n * bytes};
  };
  return t;
}

// Inclusive scan. MSKB's baseline re-sums the prefix in every thread, so it prints T = N².
Task prefix_sum() {
  Task t;
  t.name = "prefix_sum";
  t.category = "Math & Alg";
  t.signature_fp32 = "void prefix_sum( float* output, const float* input, const int N)";
  t.signature_bf16 = "void prefix_sum_bf16( __nv_bfloat16* output, const __nv_bfloat16* input, const int N)";
  t.cases = n_cases({1 << 10, 1 << 12, 1 << 14, 1 << 16, 1 << 18});
  t.complexity = [](const Case& c) { return double(c.at("N")) * double(c.at("N")); };
  t.reference_cost = [](const Case& c) { return double(c.at("N")); };
  t.tolerance = {Tolerance::Kind::absolute, 5e-2};
  t.outputs = {"output"};
  t.vendor = "CUB DeviceScan::InclusiveSum";
  t.generate = [](const Case& c, std::mt19937_64& rng) {
    int64_t n = c.at("N");
    Instance in;
    in.arrays["input"] = uniform(n, -1, 1, rng);
    in.arrays["output"] = zeros(n);
    in.scalars["N"] = double(n);
    return in;
  };
  t.reference = [](const Instance& in) {
    const auto& x = in.array("input");
    std::vector<double> y(x.size());
    std::partial_sum(x.begin(), x.end(), y.begin());
    return Outputs{{"output", y}};
  };
  t.work = [](const Case& c, int bytes) {
    double n = double(c.at("N"));
    return Work{n, 2 * n * bytes};
  };
  return t;
}

// Ascending sort in place: `data` is both the input and the output.
Task sorting() {
  Task t;
  t.name = "sorting";
  t.category = "Math & Alg";
  t.signature_fp32 = "void sorting(float* data, int N)";
  t.signature_bf16 = "void sorting_bf16(__nv_bfloat16* data, int N)";
  t.cases = n_cases({1 << 8, 1 << 10, 1 << 12, 1 << 14, 1 << 16});
  t.complexity = n_log2_n;
  t.tolerance = {Tolerance::Kind::absolute, 1e-2};
  t.outputs = {"data"};
  t.vendor = "CUB DeviceRadixSort::SortKeys";
  t.generate = [](const Case& c, std::mt19937_64& rng) {
    Instance in;
    in.arrays["data"] = uniform(c.at("N"), -1, 1, rng);
    in.scalars["N"] = double(c.at("N"));
    return in;
  };
  t.reference = [](const Instance& in) {
    std::vector<double> d = in.array("data");
    std::sort(d.begin(), d.end());
    return Outputs{{"data", d}};
  };
  t.work = [](const Case& c, int bytes) { return Work{0, 2 * double(c.at("N")) * bytes}; };
  return t;
}

constexpr double kTopKTolerance = 1e-2;

// The reference's values must match position by position; any index set is right that points at distinct input
// elements equal to the values it reports (MSKB's baseline breaks ties by the lower index, but that is one of many).
std::string check_top_k(const Instance& in, const Outputs& got, const Outputs& ref) {
  const auto& x = in.array("input");
  const auto &values = got.at("top_k_values"), &indices = got.at("top_k_indices");
  const auto& want = ref.at("top_k_values");
  if (values.size() != want.size() || indices.size() != want.size()) return "top_k outputs have the wrong size";
  std::set<int64_t> seen;
  for (size_t i = 0; i < want.size(); ++i) {
    const std::string at = "[" + std::to_string(i) + "]";
    if (!(std::abs(values[i] - want[i]) < kTopKTolerance))
      return "top_k_values" + at + " = " + std::to_string(values[i]) + ", expected " + std::to_string(want[i]);
    const double idx = indices[i];
    if (!(idx >= 0 && idx < double(x.size()) && idx == std::floor(idx)))
      return "top_k_indices" + at + " = " + std::to_string(idx) + " is not an index of input";
    if (x[size_t(idx)] != values[i])
      return "top_k_indices" + at + " = " + std::to_string(int64_t(idx)) + " points at " +
             std::to_string(x[size_t(idx)]) + ", not at its value " + std::to_string(values[i]);
    if (!seen.insert(int64_t(idx)).second) return "top_k_indices" + at + " repeats " + std::to_string(int64_t(idx));
  }
  return "";
}

// The k largest values in descending order and their input positions.
Task top_k() {
  Task t;
  t.name = "top_k";
  t.category = "Math & Alg";
  t.signature_fp32 = "void top_k( float* top_k_values, int* top_k_indices, const float* input, const int N, const int k)";
  t.signature_bf16 =
      "void top_k_bf16( __nv_bfloat16* top_k_values, int* top_k_indices, const __nv_bfloat16* input, const int N, "
      "const int k)";
  t.cases = sweep({{"N", {1 << 8, 1 << 10, 1 << 12, 1 << 14, 1 << 16}}, {"k", {32, 64, 128}}});
  t.complexity = n_log2_n;
  t.tolerance = {Tolerance::Kind::absolute, kTopKTolerance};
  t.outputs = {"top_k_values", "top_k_indices"};
  t.vendor = "CUB DeviceRadixSort::SortPairsDescending";
  t.generate = [](const Case& c, std::mt19937_64& rng) {
    Instance in;
    in.arrays["input"] = uniform(c.at("N"), -1, 1, rng);
    in.arrays["top_k_values"] = zeros(c.at("k"));
    in.arrays["top_k_indices"] = zeros(c.at("k"));
    in.scalars["N"] = double(c.at("N"));
    in.scalars["k"] = double(c.at("k"));
    return in;
  };
  t.reference = [](const Instance& in) {
    const auto& x = in.array("input");
    std::vector<int64_t> order(x.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return x[a] > x[b]; });
    Outputs out{{"top_k_values", {}}, {"top_k_indices", {}}};
    for (int64_t i = 0; i < int64_t(in.scalar("k")); ++i) {
      out["top_k_values"].push_back(x[order[i]]);
      out["top_k_indices"].push_back(double(order[i]));
    }
    return out;
  };
  t.work = [](const Case& c, int bytes) {
    double n = double(c.at("N")), k = double(c.at("k"));
    return Work{0, n * bytes + k * (bytes + 4)};
  };
  t.check = check_top_k;
  return t;
}

// The shared shape of the two quadratures: N samples y of a function on [a, b] (a < b drawn from ±1000, y from
// ±10, as MSKB's test draws them), one result.
Task quadrature(const std::string& name) {
  Task t;
  t.name = name;
  t.category = "Math & Alg";
  t.signature_fp32 = "void " + name + "( const float* y_samples, float* result, float a, float b, int N)";
  t.signature_bf16 =
      "void " + name + "_bf16( const __nv_bfloat16* y_samples, __nv_bfloat16* result, float a, float b, int N)";
  t.cases = n_cases({1 << 14, 1 << 16, 1 << 18, 1 << 20, 1 << 22});
  t.complexity = [](const Case& c) { return double(c.at("N")); };
  t.tolerance = {Tolerance::Kind::absolute, 1e-2};
  t.outputs = {"result"};
  t.vendor = "CUB DeviceReduce::TransformReduce";
  t.generate = [](const Case& c, std::mt19937_64& rng) {
    Instance in;
    std::vector<double> ends = uniform(2, -1000, 1000, rng);
    in.scalars["a"] = std::min(ends[0], ends[1]);
    in.scalars["b"] = std::max(ends[0], ends[1]);
    in.arrays["y_samples"] = uniform(c.at("N"), -10, 10, rng);
    in.arrays["result"] = zeros(1);
    in.scalars["N"] = double(c.at("N"));
    return in;
  };
  t.work = [](const Case& c, int bytes) {
    double n = double(c.at("N"));
    return Work{n, (n + 1) * bytes};
  };
  return t;
}

// (b − a) · mean(y_samples).
Task monte_carlo_int() {
  Task t = quadrature("monte_carlo_int");
  t.reference = [](const Instance& in) {
    const auto& y = in.array("y_samples");
    double sum = std::accumulate(y.begin(), y.end(), 0.0);
    return Outputs{{"result", {(in.scalar("b") - in.scalar("a")) * sum / double(y.size())}}};
  };
  return t;
}

// Composite Simpson on N points spaced h = (b − a)/(N − 1): h/3 · Σ (y[i] + 4y[i+1] + y[i+2]) over even i with
// i + 2 < N. With N even (every case) the last interval is left out, as in MSKB's baseline.
Task simpson_int() {
  Task t = quadrature("simpson_int");
  t.reference = [](const Instance& in) {
    const auto& y = in.array("y_samples");
    const int64_t n = int64_t(y.size());
    double sum = 0;
    for (int64_t i = 0; i + 2 < n; i += 2) sum += y[i] + 4 * y[i + 1] + y[i + 2];
    double h = (in.scalar("b") - in.scalar("a")) / double(n - 1);
    return Outputs{{"result", {h / 3 * sum}}};
  };
  t.work = [](const Case& c, int bytes) {  // a weight multiply and an add per sample
    double n = double(c.at("N"));
    return Work{2 * n, (n + 1) * bytes};
  };
  return t;
}

}  // namespace

void add_math_tasks(std::vector<Task>& out) {
  out.push_back(fft());
  out.push_back(prefix_sum());
  out.push_back(sorting());
  out.push_back(top_k());
  out.push_back(monte_carlo_int());
  out.push_back(simpson_int());
}

}  // namespace ucut::mskb
