// mskb/tasks/normalization.cpp — MSKB's Normalization tasks (peers.md §2.1, rows 16–19).
#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "mskb/gen.h"
#include "mskb/task.h"

namespace ucut::mskb {

namespace {

std::vector<double> zeros(int64_t n) { return std::vector<double>(static_cast<size_t>(n), 0.0); }

// Rows: N samples × C features, row-major. Each feature is normalized over the N samples with the batch mean
// and the biased (1/N) variance, then scaled and shifted by its gamma and beta.
Task batch_norm() {
  Task t;
  t.name = "batch_norm";
  t.category = "Normalization";
  t.signature_fp32 =
      "void batch_norm( float* output, const float* input, const float* gamma, const float* beta, "
      "const float epsilon, const int N, const int C)";
  t.signature_bf16 =
      "void batch_norm_bf16( __nv_bfloat16* output, const __nv_bfloat16* input, "
      "const __nv_bfloat16* gamma, const __nv_bfloat16* beta, const float epsilon, const int N, const int C)";
  t.cases = sweep({{"N", {1 << 4, 1 << 6, 1 << 8, 1 << 10}}, {"C", {1 << 4, 1 << 6, 1 << 8, 1 << 10}}});
  t.complexity = [](const Case& c) { return double(c.at("N") * c.at("C")); };
  t.tolerance = {Tolerance::Kind::absolute, 1e-2};
  t.outputs = {"output"};
  t.vendor = "cuDNN BatchNormalizationForwardTraining";
  t.generate = [](const Case& c, std::mt19937_64& rng) {
    int64_t n = c.at("N"), ch = c.at("C");
    Instance in;
    in.arrays["input"] = uniform(n * ch, -1, 1, rng);
    in.arrays["gamma"] = uniform(ch, -1, 1, rng);
    in.arrays["beta"] = uniform(ch, -1, 1, rng);
    in.arrays["output"] = zeros(n * ch);
    in.scalars["epsilon"] = 1e-5;
    in.scalars["N"] = double(n);
    in.scalars["C"] = double(ch);
    return in;
  };
  t.reference = [](const Instance& in) {
    const auto &x = in.array("input"), &gamma = in.array("gamma"), &beta = in.array("beta");
    double eps = in.scalar("epsilon");
    auto n = static_cast<size_t>(in.scalar("N")), ch = static_cast<size_t>(in.scalar("C"));
    std::vector<double> y(n * ch);
    for (size_t c = 0; c < ch; ++c) {
      double mean = 0, var = 0;
      for (size_t s = 0; s < n; ++s) mean += x[s * ch + c];
      mean /= double(n);
      for (size_t s = 0; s < n; ++s) var += (x[s * ch + c] - mean) * (x[s * ch + c] - mean);
      var /= double(n);
      double inv_std = 1 / std::sqrt(var + eps);
      for (size_t s = 0; s < n; ++s) y[s * ch + c] = gamma[c] * (x[s * ch + c] - mean) * inv_std + beta[c];
    }
    return Outputs{{"output", y}};
  };
  t.work = [](const Case& c, int bytes) {
    double n = double(c.at("N")), ch = double(c.at("C"));
    // Sum and sum of squares (3 flops), then (x - mean)·scale + shift (2 flops) per element.
    return Work{5 * n * ch, (2 * n * ch + 2 * ch) * bytes};
  };
  return t;
}

// MSKB's one-vector norms: output = weight·normalize(input) + bias over N elements, ε = 1e-5. `normalize` maps the
// input to its normalized values; `flops_per_element` counts its work plus the scale and shift.
Task vector_norm(const char* name, const char* args_fp32, const char* args_bf16,
                 std::function<std::vector<double>(const std::vector<double>&, double eps)> normalize,
                 double flops_per_element) {
  Task t;
  t.name = name;
  t.category = "Normalization";
  t.signature_fp32 = fmt::format("void {}( {})", name, args_fp32);
  t.signature_bf16 = fmt::format("void {}_bf16( {})", name, args_bf16);
  t.cases = sweep({{"N", {1 << 6, 1 << 7, 1 << 8, 1 << 9, 1 << 10}}});
  t.complexity = [](const Case& c) { return double(c.at("N")); };
  t.tolerance = {Tolerance::Kind::absolute, 1e-2};
  t.outputs = {"output"};
  t.vendor = "";  // cuDNN's legacy API has neither norm
  t.generate = [](const Case& c, std::mt19937_64& rng) {
    int64_t n = c.at("N");
    Instance in;
    in.arrays["input"] = uniform(n, -1, 1, rng);
    in.arrays["weight"] = uniform(n, -1, 1, rng);
    in.arrays["bias"] = uniform(n, -1, 1, rng);
    in.arrays["output"] = zeros(n);
    in.scalars["epsilon"] = 1e-5;
    in.scalars["N"] = double(n);
    return in;
  };
  t.reference = [normalize](const Instance& in) {
    const auto &w = in.array("weight"), &b = in.array("bias");
    std::vector<double> y = normalize(in.array("input"), in.scalar("epsilon"));
    for (size_t i = 0; i < y.size(); ++i) y[i] = w[i] * y[i] + b[i];
    return Outputs{{"output", y}};
  };
  t.work = [flops_per_element](const Case& c, int bytes) {
    double n = double(c.at("N"));
    return Work{flops_per_element * n, 4 * n * bytes};
  };
  return t;
}

constexpr const char* kNormArgsFp32 =
    "float* output, const float* input, const float* weight, const float* bias, const float epsilon, const int N";
constexpr const char* kNormArgsBf16 =
    "__nv_bfloat16* output, const __nv_bfloat16* input, const __nv_bfloat16* weight, const __nv_bfloat16* bias, "
    "const float epsilon, const int N";

// Normalized with the vector's mean and biased variance.
Task layer_norm() {
  return vector_norm(
      "layer_norm", kNormArgsFp32, kNormArgsBf16,
      [](const std::vector<double>& x, double eps) {
        double mean = 0, var = 0;
        for (double v : x) mean += v;
        mean /= double(x.size());
        for (double v : x) var += (v - mean) * (v - mean);
        var /= double(x.size());
        double inv_std = 1 / std::sqrt(var + eps);
        std::vector<double> y(x.size());
        for (size_t i = 0; i < x.size(); ++i) y[i] = (x[i] - mean) * inv_std;
        return y;
      },
      5);
}

// Divided by sqrt(mean(x²) + ε) (MSKB's RMS norm has a bias too).
Task rms_norm() {
  return vector_norm(
      "rms_norm", kNormArgsFp32, kNormArgsBf16,
      [](const std::vector<double>& x, double eps) {
        double squares = 0;
        for (double v : x) squares += v * v;
        double rms = std::sqrt(squares / double(x.size()) + eps);
        std::vector<double> y(x.size());
        for (size_t i = 0; i < x.size(); ++i) y[i] = x[i] / rms;
        return y;
      },
      4);
}

// N rows of C, row-major: each row's max-subtracted softmax.
Task softmax() {
  Task t;
  t.name = "softmax";
  t.category = "Normalization";
  t.signature_fp32 = "void softmax( float* out, const float* input, int N, int C)";
  t.signature_bf16 = "void softmax_bf16( __nv_bfloat16* out, const __nv_bfloat16* input, int N, int C)";
  t.cases = sweep({{"N", {16, 32, 64, 128}}, {"C", {1 << 8, 1 << 10, 1 << 12, 1 << 14}}});
  t.complexity = [](const Case& c) { return double(c.at("N") * c.at("C")); };
  t.tolerance = {Tolerance::Kind::absolute, 1e-2};
  t.outputs = {"out"};
  t.vendor = "cuDNN SoftmaxForward";
  t.generate = [](const Case& c, std::mt19937_64& rng) {
    int64_t n = c.at("N"), ch = c.at("C");
    Instance in;
    in.arrays["input"] = uniform(n * ch, -1, 1, rng);
    in.arrays["out"] = zeros(n * ch);
    in.scalars["N"] = double(n);
    in.scalars["C"] = double(ch);
    return in;
  };
  t.reference = [](const Instance& in) {
    const auto& x = in.array("input");
    auto n = static_cast<int64_t>(in.scalar("N"));
    auto ch = static_cast<size_t>(in.scalar("C"));
    std::vector<double> y(x.size());
    parallel_for(n, [&](int64_t begin, int64_t end) {
      for (auto r = static_cast<size_t>(begin); r < static_cast<size_t>(end); ++r) {
        const double* row = x.data() + r * ch;
        double* dst = y.data() + r * ch;
        double top = *std::max_element(row, row + ch), sum = 0;
        for (size_t j = 0; j < ch; ++j) sum += dst[j] = std::exp(row[j] - top);
        for (size_t j = 0; j < ch; ++j) dst[j] /= sum;
      }
    });
    return Outputs{{"out", y}};
  };
  t.work = [](const Case& c, int bytes) {
    double e = double(c.at("N") * c.at("C"));
    // Max, subtract, exp, sum, scale per element.
    return Work{5 * e, 2 * e * bytes};
  };
  return t;
}

}  // namespace

void add_normalization_tasks(std::vector<Task>& out) {
  out.push_back(batch_norm());
  out.push_back(layer_norm());
  out.push_back(rms_norm());
  out.push_back(softmax());
}

}  // namespace ucut::mskb
