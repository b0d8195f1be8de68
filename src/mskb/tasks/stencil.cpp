// mskb/tasks/stencil.cpp — MSKB's Stencil tasks (peers.md §2.1, rows 40–44): two heat-equation steps, two valid
// cross-correlations and max pooling.
#include <algorithm>
#include <limits>

#include "mskb/gen.h"
#include "mskb/task.h"

namespace ucut::mskb {

namespace {

constexpr double kHeatR = 0.25;  // the diffusion factor r MSKB's test passes to both stencils

std::vector<double> zeros(int64_t n) { return std::vector<double>(static_cast<size_t>(n), 0.0); }

// u_new = u_old + r·(sum of the 2·dims neighbours − 2·dims·u_old) on the interior; the boundary is copied.
Task stencil_2d() {
  Task t;
  t.name = "stencil_2d";
  t.category = "Stencil";
  t.signature_fp32 = "void stencil_2d( float* u_new, const float* u_old, float r, int nx, int ny)";
  t.signature_bf16 = "void stencil_2d_bf16( __nv_bfloat16* u_new, const __nv_bfloat16* u_old, float r, int nx, int ny)";
  t.cases = sweep({{"nx", {1 << 10, 1 << 12, 1 << 14}}, {"ny", {1 << 10, 1 << 12, 1 << 14}}});
  t.complexity = [](const Case& c) { return double(c.at("nx")) * double(c.at("ny")); };
  t.tolerance = {Tolerance::Kind::absolute, 1e-2};
  t.outputs = {"u_new"};
  t.generate = [](const Case& c, std::mt19937_64& rng) {
    int64_t n = c.at("nx") * c.at("ny");
    Instance in;
    in.arrays["u_old"] = uniform(n, -1, 1, rng);
    in.arrays["u_new"] = zeros(n);
    in.scalars["r"] = kHeatR;
    in.scalars["nx"] = double(c.at("nx"));
    in.scalars["ny"] = double(c.at("ny"));
    return in;
  };
  t.reference = [](const Instance& in) {
    const auto& u = in.array("u_old");
    const double r = in.scalar("r");
    const int64_t nx = int64_t(in.scalar("nx")), ny = int64_t(in.scalar("ny"));
    std::vector<double> out = u;  // the boundary keeps u_old
    parallel_for(nx, [&](int64_t begin, int64_t end) {
      for (int64_t i = std::max<int64_t>(begin, 1); i < std::min(end, nx - 1); ++i)
        for (int64_t j = 1; j < ny - 1; ++j) {
          int64_t k = i * ny + j;
          out[k] = u[k] + r * (u[k - 1] + u[k + 1] + u[k + ny] + u[k - ny] - 4 * u[k]);
        }
    });
    return Outputs{{"u_new", out}};
  };
  // 7 flops per interior point (3 adds of the neighbours, 4·u, −, r·, +); the boundary is copied, no flops.
  t.work = [](const Case& c, int bytes) {
    double n = double(c.at("nx")) * double(c.at("ny"));
    double interior = double(c.at("nx") - 2) * double(c.at("ny") - 2);
    return Work{7 * interior, 2 * n * bytes};
  };
  return t;
}

Task stencil_3d() {
  Task t;
  t.name = "stencil_3d";
  t.category = "Stencil";
  t.signature_fp32 = "void stencil_3d( float* u_new, const float* u_old, float r, int nx, int ny, int nz)";
  t.signature_bf16 =
      "void stencil_3d_bf16( __nv_bfloat16* u_new, const __nv_bfloat16* u_old, float r, int nx, int ny, int nz)";
  t.cases = sweep({{"nx", {64, 128, 256}}, {"ny", {64, 128, 256}}, {"nz", {64, 128, 256}}});
  t.complexity = [](const Case& c) { return double(c.at("nx")) * double(c.at("ny")) * double(c.at("nz")); };
  t.tolerance = {Tolerance::Kind::absolute, 1e-2};
  t.outputs = {"u_new"};
  t.generate = [](const Case& c, std::mt19937_64& rng) {
    int64_t n = c.at("nx") * c.at("ny") * c.at("nz");
    Instance in;
    in.arrays["u_old"] = uniform(n, -1, 1, rng);
    in.arrays["u_new"] = zeros(n);
    in.scalars["r"] = kHeatR;
    for (const char* d : {"nx", "ny", "nz"}) in.scalars[d] = double(c.at(d));
    return in;
  };
  t.reference = [](const Instance& in) {
    const auto& u = in.array("u_old");
    const double r = in.scalar("r");
    const int64_t nx = int64_t(in.scalar("nx")), ny = int64_t(in.scalar("ny")), nz = int64_t(in.scalar("nz"));
    const int64_t plane = ny * nz;
    std::vector<double> out = u;  // the boundary keeps u_old
    parallel_for(nx, [&](int64_t begin, int64_t end) {
      for (int64_t i = std::max<int64_t>(begin, 1); i < std::min(end, nx - 1); ++i)
        for (int64_t j = 1; j < ny - 1; ++j)
          for (int64_t k = 1; k < nz - 1; ++k) {
            int64_t p = i * plane + j * nz + k;
            double around = u[p - plane] + u[p + plane] + u[p + nz] + u[p - nz] + u[p + 1] + u[p - 1];
            out[p] = u[p] + r * (around - 6 * u[p]);
          }
    });
    return Outputs{{"u_new", out}};
  };
  // 9 flops per interior point (5 adds of the neighbours, 6·u, −, r·, +); the boundary is copied, no flops.
  t.work = [](const Case& c, int bytes) {
    double n = double(c.at("nx")) * double(c.at("ny")) * double(c.at("nz"));
    double interior = double(c.at("nx") - 2) * double(c.at("ny") - 2) * double(c.at("nz") - 2);
    return Work{9 * interior, 2 * n * bytes};
  };
  return t;
}

// output[i] = Σ_m input[i+m]·kernel[m] over the valid range: input_size − kernel_size + 1 outputs.
Task conv_1d() {
  Task t;
  t.name = "conv_1d";
  t.category = "Stencil";
  t.signature_fp32 = "void conv_1d(const float* input, const float* kernel, float* output, int input_size, int kernel_size)";
  t.signature_bf16 =
      "void conv_1d_bf16(const __nv_bfloat16* input, const __nv_bfloat16* kernel, __nv_bfloat16* output, "
      "int input_size, int kernel_size)";
  t.cases = sweep({{"input_size", {1 << 10, 1 << 12, 1 << 14, 1 << 16, 1 << 18}}, {"kernel_size", {32, 64, 128, 256}}});
  t.complexity = [](const Case& c) { return double(c.at("input_size")) * double(c.at("kernel_size")); };
  t.tolerance = {Tolerance::Kind::absolute, 1e-2};
  t.outputs = {"output"};
  t.vendor = "cuDNN ConvolutionForward (cross-correlation)";
  t.generate = [](const Case& c, std::mt19937_64& rng) {
    int64_t n = c.at("input_size"), k = c.at("kernel_size");
    Instance in;
    in.arrays["input"] = uniform(n, -1, 1, rng);
    in.arrays["kernel"] = uniform(k, -1, 1, rng);
    in.arrays["output"] = zeros(n - k + 1);
    in.scalars["input_size"] = double(n);
    in.scalars["kernel_size"] = double(k);
    return in;
  };
  t.reference = [](const Instance& in) {
    const auto &x = in.array("input"), &w = in.array("kernel");
    const int64_t k = int64_t(in.scalar("kernel_size")), outs = int64_t(in.scalar("input_size")) - k + 1;
    std::vector<double> y(static_cast<size_t>(outs));
    parallel_for(outs, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        double s = 0;
        for (int64_t m = 0; m < k; ++m) s += x[i + m] * w[m];
        y[i] = s;
      }
    });
    return Outputs{{"output", y}};
  };
  t.work = [](const Case& c, int bytes) {
    double n = double(c.at("input_size")), k = double(c.at("kernel_size")), outs = n - k + 1;
    return Work{2 * outs * k, (n + k + outs) * bytes};
  };
  return t;
}

// output[r][c] = Σ_{m,n} input[r+m][c+n]·kernel[m][n], row-major, (rows−kh+1)×(cols−kw+1) outputs.
Task conv_2d() {
  Task t;
  t.name = "conv_2d";
  t.category = "Stencil";
  t.signature_fp32 =
      "void conv_2d(const float* input, const float* kernel, float* output, int input_rows, int input_cols, "
      "int kernel_rows, int kernel_cols)";
  t.signature_bf16 =
      "void conv_2d_bf16(const __nv_bfloat16* input, const __nv_bfloat16* kernel, __nv_bfloat16* output, "
      "int input_rows, int input_cols, int kernel_rows, int kernel_cols)";
  for (int64_t hw : {256, 1024, 4096})
    for (int64_t k : {8, 16, 32})
      t.cases.push_back(Case{{{"input_rows", hw}, {"input_cols", hw}, {"kernel_rows", k}, {"kernel_cols", k}}});
  t.complexity = [](const Case& c) {
    return double(c.at("input_rows")) * double(c.at("input_cols")) * double(c.at("kernel_rows")) *
           double(c.at("kernel_cols"));
  };
  t.tolerance = {Tolerance::Kind::absolute, 1e-2};
  t.outputs = {"output"};
  t.vendor = "cuDNN ConvolutionForward (cross-correlation)";
  t.generate = [](const Case& c, std::mt19937_64& rng) {
    int64_t rows = c.at("input_rows"), cols = c.at("input_cols");
    int64_t kr = c.at("kernel_rows"), kc = c.at("kernel_cols");
    Instance in;
    in.arrays["input"] = uniform(rows * cols, -1, 1, rng);
    in.arrays["kernel"] = uniform(kr * kc, -1, 1, rng);
    in.arrays["output"] = zeros((rows - kr + 1) * (cols - kc + 1));
    for (const auto& [name, v] : c.sizes) in.scalars[name] = double(v);
    return in;
  };
  t.reference = [](const Instance& in) {
    const auto &x = in.array("input"), &w = in.array("kernel");
    const int64_t cols = int64_t(in.scalar("input_cols"));
    const int64_t kr = int64_t(in.scalar("kernel_rows")), kc = int64_t(in.scalar("kernel_cols"));
    const int64_t out_rows = int64_t(in.scalar("input_rows")) - kr + 1, out_cols = cols - kc + 1;
    std::vector<double> y(static_cast<size_t>(out_rows * out_cols));
    parallel_for(out_rows, [&](int64_t begin, int64_t end) {
      for (int64_t r = begin; r < end; ++r)
        for (int64_t c = 0; c < out_cols; ++c) {
          double s = 0;
          for (int64_t m = 0; m < kr; ++m) {
            const double* row = &x[(r + m) * cols + c];
            const double* wrow = &w[m * kc];
            for (int64_t n = 0; n < kc; ++n) s += row[n] * wrow[n];
          }
          y[r * out_cols + c] = s;
        }
    });
    return Outputs{{"output", y}};
  };
  t.work = [](const Case& c, int bytes) {
    double rows = double(c.at("input_rows")), cols = double(c.at("input_cols"));
    double kr = double(c.at("kernel_rows")), kc = double(c.at("kernel_cols"));
    double outs = (rows - kr + 1) * (cols - kc + 1);
    return Work{2 * outs * kr * kc, (rows * cols + kr * kc + outs) * bytes};
  };
  return t;
}

int64_t pooled(int64_t size, int64_t k, int64_t stride, int64_t pad) { return (size + 2 * pad - k) / stride + 1; }

// NCHW max over k×k windows at `stride`, shifted by `padding`; padded positions never win (as if −∞).
Task max_pooling_2d() {
  Task t;
  t.name = "max_pooling_2d";
  t.category = "Stencil";
  t.signature_fp32 =
      "void max_pooling_2d( const float* input, float* output, int N, int C, int H, int W, int kernel_size, "
      "int stride, int padding)";
  t.signature_bf16 =
      "void max_pooling_2d_bf16( const __nv_bfloat16* input, __nv_bfloat16* output, int N, int C, int H, int W, "
      "int kernel_size, int stride, int padding)";
  const int64_t shapes[][4] = {{8, 3, 512, 512}, {4, 3, 224, 224}, {16, 3, 608, 608}, {4, 1, 2048, 196}};
  const int64_t windows[][2] = {{2, 1}, {3, 1}, {4, 2}};
  for (const auto& s : shapes)
    for (const auto& w : windows)
      for (int64_t pad : {0, 1})
        t.cases.push_back(Case{{{"N", s[0]}, {"C", s[1]}, {"H", s[2]}, {"W", s[3]}, {"kernel_size", w[0]},
                                {"stride", w[1]}, {"padding", pad}}});
  auto outputs_of = [](const Case& c) {
    int64_t k = c.at("kernel_size"), s = c.at("stride"), p = c.at("padding");
    return double(c.at("N") * c.at("C")) * double(pooled(c.at("H"), k, s, p)) * double(pooled(c.at("W"), k, s, p));
  };
  t.complexity = [outputs_of](const Case& c) {
    return outputs_of(c) * double(c.at("kernel_size") * c.at("kernel_size"));
  };
  t.tolerance = {Tolerance::Kind::absolute, 1e-2};
  t.outputs = {"output"};
  t.vendor = "cuDNN PoolingForward (max)";
  t.generate = [outputs_of](const Case& c, std::mt19937_64& rng) {
    Instance in;
    in.arrays["input"] = uniform(c.at("N") * c.at("C") * c.at("H") * c.at("W"), -1, 1, rng);
    in.arrays["output"] = zeros(int64_t(outputs_of(c)));
    for (const auto& [name, v] : c.sizes) in.scalars[name] = double(v);
    return in;
  };
  t.reference = [](const Instance& in) {
    const auto& x = in.array("input");
    const int64_t planes = int64_t(in.scalar("N")) * int64_t(in.scalar("C"));
    const int64_t h = int64_t(in.scalar("H")), w = int64_t(in.scalar("W"));
    const int64_t k = int64_t(in.scalar("kernel_size")), s = int64_t(in.scalar("stride"));
    const int64_t p = int64_t(in.scalar("padding"));
    const int64_t oh = pooled(h, k, s, p), ow = pooled(w, k, s, p);
    std::vector<double> y(static_cast<size_t>(planes * oh * ow));
    parallel_for(planes * oh, [&](int64_t begin, int64_t end) {
      for (int64_t row = begin; row < end; ++row) {
        const double* plane = &x[(row / oh) * h * w];
        int64_t r0 = (row % oh) * s - p;
        for (int64_t oc = 0; oc < ow; ++oc) {
          int64_t c0 = oc * s - p;
          double m = -std::numeric_limits<double>::infinity();
          for (int64_t r = std::max<int64_t>(r0, 0); r < std::min(r0 + k, h); ++r)
            for (int64_t c = std::max<int64_t>(c0, 0); c < std::min(c0 + k, w); ++c) m = std::max(m, plane[r * w + c]);
          y[row * ow + oc] = m;
        }
      }
    });
    return Outputs{{"output", y}};
  };
  t.work = [outputs_of](const Case& c, int bytes) {
    double k2 = double(c.at("kernel_size") * c.at("kernel_size"));
    double inputs = double(c.at("N") * c.at("C") * c.at("H") * c.at("W"));
    return Work{outputs_of(c) * (k2 - 1), (inputs + outputs_of(c)) * bytes};
  };
  return t;
}

}  // namespace

void add_stencil_tasks(std::vector<Task>& out) {
  out.push_back(stencil_2d());
  out.push_back(stencil_3d());
  out.push_back(conv_1d());
  out.push_back(conv_2d());
  out.push_back(max_pooling_2d());
}

}  // namespace ucut::mskb
