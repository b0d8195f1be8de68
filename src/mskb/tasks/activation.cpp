// mskb/tasks/activation.cpp — MSKB's Activation tasks (peers.md §2.1, rows 20–26): one-input element-wise
// maps of N values drawn uniform in [-1, 1).
#include <cmath>
#include <functional>
#include <map>
#include <string>

#include "mskb/gen.h"
#include "mskb/task.h"

namespace ucut::mskb {

namespace {

/// The element-wise map of one instance, its float parameters (alpha, lambda) already bound.
using Elementwise = std::function<double(double)>;
using Bind = std::function<Elementwise(const Instance&)>;

struct Pointwise {
  std::string name, signature_fp32, signature_bf16;
  std::string output;  // the output pointer's FP32 name ("output" or "out")
  // Float parameters with the value MSKB's test passes (the launcher's defaults).
  std::map<std::string, double> params = {};
  std::string vendor;
  Bind bind;
};

Task pointwise(const Pointwise& p) {
  Task t;
  t.name = p.name;
  t.category = "Activation";
  t.signature_fp32 = p.signature_fp32;
  t.signature_bf16 = p.signature_bf16;
  t.cases = sweep({{"N", {1 << 10, 1 << 12, 1 << 14, 1 << 16, 1 << 18}}});
  t.complexity = [](const Case& c) { return double(c.at("N")); };
  t.tolerance = {Tolerance::Kind::absolute, 1e-2};
  t.outputs = {p.output};
  t.vendor = p.vendor;
  t.generate = [output = p.output, params = p.params](const Case& c, std::mt19937_64& rng) {
    int64_t n = c.at("N");
    Instance in;
    in.arrays["input"] = uniform(n, -1, 1, rng);
    in.arrays[output].assign(static_cast<size_t>(n), 0.0);
    in.scalars["N"] = double(n);
    for (const auto& [name, value] : params) in.scalars[name] = value;
    return in;
  };
  t.reference = [output = p.output, bind = p.bind](const Instance& in) {
    Elementwise f = bind(in);
    const auto& x = in.array("input");
    std::vector<double> y(x.size());
    for (size_t i = 0; i < x.size(); ++i) y[i] = f(x[i]);
    return Outputs{{output, y}};
  };
  // One operation per element (a transcendental counted once); the bound is the bytes.
  t.work = [](const Case& c, int bytes) {
    double n = double(c.at("N"));
    return Work{n, 2 * n * bytes};
  };
  return t;
}

Bind plain(double (*f)(double)) {
  return [f](const Instance&) { return Elementwise(f); };
}

double relu(double x) { return x > 0 ? x : 0.0; }
double sigmoid(double x) { return 1 / (1 + std::exp(-x)); }
double tanh_of(double x) { return std::tanh(x); }
double gelu(double x) { return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0))); }  // the exact (erf) form

Task relu_task() {
  return pointwise(
      {.name = "RELU",
       .signature_fp32 = "void RELU( float* output, const float* input, int N)",
       .signature_bf16 = "void RELU_bf16( __nv_bfloat16* output, const __nv_bfloat16* input, int N)",
       .output = "output",
       .vendor = "cuDNN ActivationForward RELU",
       .bind = plain(relu)});
}

Task leaky_relu_task() {
  return pointwise(
      {.name = "leaky_RELU",
       .signature_fp32 =
           "void leaky_RELU( float* output, const float* input, const int N, float alpha = 0.01)",
       .signature_bf16 =
           "void leaky_RELU_bf16( __nv_bfloat16* output, const __nv_bfloat16* input, const int N, "
           "float alpha = 0.01)",
       .output = "output",
       .params = {{"alpha", 0.01}},
       .vendor = "cuDNN OpTensor MAX(x, alpha·x)",
       .bind = [](const Instance& in) {
         double alpha = in.scalar("alpha");
         return Elementwise([alpha](double x) { return x < 0 ? alpha * x : x; });
       }});
}

Task elu_task() {
  return pointwise(
      {.name = "elu",
       .signature_fp32 = "void elu( float* output, const float* input, const int N, float alpha = 1.0)",
       .signature_bf16 =
           "void elu_bf16( __nv_bfloat16* out, const __nv_bfloat16* input, const int N, float alpha = 1.0)",
       .output = "output",
       .params = {{"alpha", 1.0}},
       .vendor = "cuDNN ActivationForward ELU",
       .bind = [](const Instance& in) {
         double alpha = in.scalar("alpha");
         return Elementwise([alpha](double x) { return x < 0 ? alpha * std::expm1(x) : x; });
       }});
}

// MSKB's selu takes alpha and lambda as parameters; its test passes the defaults 1.67 and 1.0 (not SELU's
// self-normalizing constants).
Task selu_task() {
  return pointwise({.name = "selu",
                    .signature_fp32 = "void selu( float* output, const float* input, const int N, float "
                                      "alpha = 1.67, float lambda = 1.0)",
                    .signature_bf16 =
                        "void selu_bf16( __nv_bfloat16* output, const __nv_bfloat16* input, const int N, "
                        "float alpha = 1.67, float lambda = 1.0)",
                    .output = "output",
                    .params = {{"alpha", 1.67}, {"lambda", 1.0}},
                    .vendor = "cuDNN ActivationForward ELU scaled by lambda",
                    .bind = [](const Instance& in) {
                      double alpha = in.scalar("alpha"), lambda = in.scalar("lambda");
                      return Elementwise([alpha, lambda](double x) {
                        return x < 0 ? lambda * alpha * std::expm1(x) : lambda * x;
                      });
                    }});
}

Task gelu_task() {
  return pointwise(
      {.name = "gelu",
       .signature_fp32 = "void gelu( float* output, const float* input, const int N)",
       .signature_bf16 = "void gelu_bf16( __nv_bfloat16* out, const __nv_bfloat16* input, const int N)",
       .output = "output",
       .vendor = "",  // cuDNN's legacy API has no GELU
       .bind = plain(gelu)});
}

Task sigmoid_task() {
  return pointwise(
      {.name = "sigmoid",
       .signature_fp32 = "void sigmoid( float* out, const float* input, const int N)",
       .signature_bf16 = "void sigmoid_bf16( __nv_bfloat16* out, const __nv_bfloat16* input, const int N)",
       .output = "out",
       .vendor = "cuDNN ActivationForward SIGMOID",
       .bind = plain(sigmoid)});
}

// Despite the name, MSKB's row_tanh is tanh of each of N elements (there are no rows).
Task row_tanh_task() {
  return pointwise(
      {.name = "row_tanh",
       .signature_fp32 = "void row_tanh( float* out, const float* input, const int N)",
       .signature_bf16 = "void row_tanh_bf16( __nv_bfloat16* out, const __nv_bfloat16* input, const int N)",
       .output = "out",
       .vendor = "cuDNN ActivationForward TANH",
       .bind = plain(tanh_of)});
}

}  // namespace

void add_activation_tasks(std::vector<Task>& out) {
  out.push_back(relu_task());
  out.push_back(leaky_relu_task());
  out.push_back(elu_task());
  out.push_back(selu_task());
  out.push_back(gelu_task());
  out.push_back(sigmoid_task());
  out.push_back(row_tanh_task());
}

}  // namespace ucut::mskb
