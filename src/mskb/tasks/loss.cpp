// mskb/tasks/loss.cpp — MSKB's Loss tasks (peers.md §2.1, rows 33–35).
#include <algorithm>
#include <cmath>
#include <numeric>

#include "mskb/gen.h"
#include "mskb/task.h"

namespace ucut::mskb {

namespace {

// n values uniform in [0, 1), divided by their sum: one probability distribution as MSKB draws it.
std::vector<double> distribution(int64_t n, std::mt19937_64& rng) {
  std::vector<double> p = uniform(n, 0, 1, rng);
  double sum = std::accumulate(p.begin(), p.end(), 0.0);
  for (double& x : p) x /= sum;
  return p;
}

Task mse_loss() {
  Task t;
  t.name = "MSE_loss";
  t.category = "Loss";
  t.signature_fp32 = "void MSE_loss( float* loss, const float* X, const float* Y, int N)";
  t.signature_bf16 = "void MSE_loss_bf16( float* loss, const __nv_bfloat16* X, const __nv_bfloat16* Y, const int N)";
  t.cases = sweep({{"N", {1 << 10, 1 << 12, 1 << 14, 1 << 16, 1 << 18}}});
  t.complexity = [](const Case& c) { return double(c.at("N")); };
  t.tolerance = {Tolerance::Kind::absolute, 1e-3};
  t.outputs = {"loss"};
  t.vendor = "CUB DeviceReduce::TransformReduce";
  t.generate = [](const Case& c, std::mt19937_64& rng) {
    int64_t n = c.at("N");
    return two_vectors_to_loss("N", n, [&] { return uniform(n, -1, 1, rng); });
  };
  // loss = mean((X - Y)²), one FP32 value in both precisions.
  t.reference = [](const Instance& in) {
    const auto &x = in.array("X"), &y = in.array("Y");
    double sum = 0;
    for (size_t i = 0; i < x.size(); ++i) sum += (x[i] - y[i]) * (x[i] - y[i]);
    return Outputs{{"loss", {sum / double(x.size())}}};
  };
  t.work = [](const Case& c, int bytes) {
    double n = double(c.at("N"));
    return Work{3 * n, 2 * n * bytes + 4};
  };
  return t;
}

// MSKB clamps the probability at 1e-8f before the log.
const double kMinProbability = double(1e-8f);

Task cross_entropy_loss() {
  Task t;
  t.name = "cross_entropy_loss";
  t.category = "Loss";
  t.signature_fp32 = "void cross_entropy_loss( float* loss, const float* X, const float* Y, const int C)";
  t.signature_bf16 =
      "void cross_entropy_loss_bf16( float* loss, const __nv_bfloat16* X, const __nv_bfloat16* Y, const int C)";
  t.cases = sweep({{"C", {1 << 14, 1 << 16, 1 << 18, 1 << 20, 1 << 22}}});
  t.complexity = [](const Case& c) { return double(c.at("C")); };
  t.tolerance = {Tolerance::Kind::absolute, 1e-3};
  t.outputs = {"loss"};
  // MSKernelBenchDemo origin/bf16/test_cross_entropy_loss_bf16.cu memsets loss to 0 before every call.
  t.zeroed_outputs = {"loss"};
  t.vendor = "CUB DeviceReduce::TransformReduce";
  t.generate = [](const Case& c, std::mt19937_64& rng) {
    int64_t n = c.at("C");
    return two_vectors_to_loss("C", n, [&] { return distribution(n, rng); });
  };
  // X: predicted probabilities, Y: target distribution; loss = -Σ_{Y≠0} Y·ln(max(X, 1e-8)), a sum over one
  // distribution of C classes, one FP32 value in both precisions.
  t.reference = [](const Instance& in) {
    const auto &x = in.array("X"), &y = in.array("Y");
    double sum = 0;
    for (size_t i = 0; i < x.size(); ++i)
      if (y[i] != 0) sum -= y[i] * std::log(std::max(x[i], kMinProbability));
    return Outputs{{"loss", {sum}}};
  };
  t.work = [](const Case& c, int bytes) {
    double n = double(c.at("C"));
    return Work{3 * n, 2 * n * bytes + 4};
  };
  return t;
}

Task hinge_loss() {
  Task t;
  t.name = "hinge_loss";
  t.category = "Loss";
  t.signature_fp32 = "void hinge_loss( float* loss, const float* predictions, const int* targets, int N)";
  t.signature_bf16 =
      "void hinge_loss_bf16( __nv_bfloat16* loss, const __nv_bfloat16* predictions, const int* targets, int N)";
  t.cases = sweep({{"N", {1 << 10, 1 << 12, 1 << 14, 1 << 16, 1 << 18}}});
  t.complexity = [](const Case& c) { return double(c.at("N")); };
  t.tolerance = {Tolerance::Kind::absolute, 1e-2};
  t.outputs = {"loss"};
  t.generate = [](const Case& c, std::mt19937_64& rng) {
    int64_t n = c.at("N");
    Instance in;
    in.arrays["predictions"] = uniform(n, -2, 2, rng);
    in.arrays["targets"] = uniform_int(n, 0, 1, rng);
    in.arrays["loss"].assign(static_cast<size_t>(n), 0.0);
    in.scalars["N"] = double(n);
    return in;
  };
  // Per sample, as MSKB's FP32 baseline writes it: loss[i] = max(0, 1 - y·pred[i]) with y = +1 when targets[i] is 1,
  // else -1. No reduction.
  t.reference = [](const Instance& in) {
    const auto &p = in.array("predictions"), &tg = in.array("targets");
    std::vector<double> loss(p.size());
    for (size_t i = 0; i < p.size(); ++i) loss[i] = std::max(0.0, 1.0 - (tg[i] == 1 ? 1.0 : -1.0) * p[i]);
    return Outputs{{"loss", loss}};
  };
  t.work = [](const Case& c, int bytes) {
    double n = double(c.at("N"));
    return Work{2 * n, 2 * n * bytes + 4 * n};
  };
  return t;
}

}  // namespace

void add_loss_tasks(std::vector<Task>& out) {
  out.push_back(mse_loss());
  out.push_back(cross_entropy_loss());
  out.push_back(hinge_loss());
}

}  // namespace ucut::mskb
