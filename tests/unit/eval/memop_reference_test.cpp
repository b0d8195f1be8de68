// tests/unit/eval/memop_reference_test.cpp — eval/memop_reference.h on small hand-computed cases: each family and
// op, the input views (broadcast, slice, reverse, transpose), the chain's stages and scalars, rounding to the
// output's type, and the errors for what it does not cover or arguments that do not fit.
#include "eval/memop_reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "compiler/pipeline.h"
#include "problem/tolerance.h"

namespace ucut {
namespace {

MemOpConfig lowered(const std::string& text) {
  SourceFile src("t.ucut", text);
  Compilation c = compile_spec(src, StopAfter::lower);
  EXPECT_TRUE(c.memop) << text;
  return c.memop ? *c.memop : MemOpConfig{};
}

/// The first output of `spec` on `inputs` (caller order), `scalars` and `extents` (extent_symbols order).
std::vector<double> run(const std::string& spec, const std::vector<std::vector<double>>& inputs,
                        std::vector<double> scalars, std::vector<int64_t> extents,
                        OutputRounding rounding = OutputRounding::declared_type) {
  MemOpConfig m = lowered(spec);
  MemOpHostArgs args;
  for (const std::vector<double>& in : inputs) args.inputs.push_back(in);
  args.scalars = std::move(scalars);
  args.extents = std::move(extents);
  MemOpReference r = memop_reference(m, args, rounding);
  EXPECT_TRUE(r.ok()) << r.error;
  return r.ok() ? r.outputs.at(0) : std::vector<double>{};
}

void expect_near(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    if (std::isinf(want[i]))
      EXPECT_EQ(got[i], want[i]) << i;
    else
      EXPECT_NEAR(got[i], want[i], 1e-12 * (1 + std::fabs(want[i]))) << i;
  }
}

const double kNaN = std::nan("");

TEST(MemopReference, MapBroadcastsRowAndColumnInputsAndReadsScalars) {
  // y[m][n] = leaky_relu(a·s[m] + v[n], alpha)
  auto y = run(R"(kernel k : sm90a
  map(A: f32[M,N], s: f32[M,1], v: f32[N], alpha: f32)
  >> expr(x * s + v)
  >> leaky_relu(alpha)
  >> store(B: f32[M,N]))",
               {{1, 2, 3, -4, 5, 6}, {2, -1}, {0, 1, -10}}, {0.5}, {2, 3});
  expect_near(y, {2, 5, -2, 4, -2, -8});
}

TEST(MemopReference, MapReadsColumnBlocksReversedViewsAndTransposes) {
  // silu_and_mul's layout: row b of `in` is [x | g].
  auto blocks = run(R"(kernel k : sm90a
  map(x: f32[B,D] slice(in, 0, 2), g: f32[B,D] slice(in, 1, 2))
  >> expr(x * g)
  >> store(out: f32[B,D]))",
                    {{1, 2, 10, 20, 3, 4, 30, 40}}, {}, {2, 2});
  expect_near(blocks, {10, 40, 90, 160});
  auto reversed = run(R"(kernel k : sm90a
  map(r: f32[N] reverse(input))
  >> store(output: f32[N]))",
                      {{1, 2, 3, 4, 5}}, {}, {5});
  expect_near(reversed, {5, 4, 3, 2, 1});
  auto transposed = run(R"(kernel k : sm90a
  map(A: f32[M,N])
  >> store(B: f32[M,N] col))",
                        {{1, 2, 3, 4, 5, 6}}, {}, {2, 3});
  expect_near(transposed, {1, 4, 2, 5, 3, 6});
}

TEST(MemopReference, RoundsOnceAtTheStoreAndWhereACastStands) {
  const char* spec = R"(kernel k : sm90a
  map(input: f32[N])
  >> expr(x / 3)
  >> store(output: bf16[N]))";
  expect_near(run(spec, {{1}}, {}, {1}), {0.333984375});  // 1/3 to bf16's nearest
  expect_near(run(spec, {{1}}, {}, {1}, OutputRounding::none), {1.0 / 3});
  auto cast = run(R"(kernel k : sm90a
  map(input: f32[N])
  >> expr(x / 3)
  >> cast(bf16)
  >> expr(x * 3)
  >> store(output: f32[N]))",
                  {{1}}, {}, {1}, OutputRounding::none);
  expect_near(cast, {0.333984375 * 3});
  auto half = run(R"(kernel k : sm90a
  map(input: f32[N])
  >> store(output: f16[N]))",
                  {{1.0 / 3, 70000, 1e-7}}, {}, {3});
  expect_near(half, {0.333251953125, INFINITY, 1.0 / (1 << 23)});  // f16: nearest, overflow, subnormal quantum
}

TEST(MemopReference, FullReductionsCombineEveryElement) {
  const std::vector<double> x = {3, -1, 4, 1, -5};
  auto with = [&](const char* op) {
    return run(std::string("kernel k : sm90a\n  reduce(X: f32[N], op = ") + op + ")\n  >> store(r: f32[1])", {x},
               {}, {5}, OutputRounding::none);
  };
  expect_near(with("sum"), {2});
  expect_near(with("mean"), {0.4});
  expect_near(with("max"), {4});
  expect_near(with("min"), {-5});
  auto dot = run(R"(kernel k : sm90a
  reduce(X: f32[N], Y: f32[N], of = X * Y, op = sum, acc: f32)
  >> store(loss: f32[1]))",
                 {{1, 2, 3}, {4, 5, 6}}, {}, {3});
  expect_near(dot, {32});
}

TEST(MemopReference, SimpsonWeightsAndSizesInTheChain) {
  const char* spec = R"(kernel k : sm90a
  reduce(y: f32[N], a: f32, b: f32, op = sum, weights = simpson, acc: f32)
  >> expr((b - a) / (N - 1) / 3 * x)
  >> store(result: f32[1]))";
  // x² on [0, 4] at 5 points: h/3·(0 + 4·1 + 2·4 + 4·9 + 16) = 64/3, exact for a quadratic
  expect_near(run(spec, {{0, 1, 4, 9, 16}}, {0, 4}, {5}, OutputRounding::none), {64.0 / 3});
  // 4 points: the last weighs 0 (Simpson over the first 3): 1·1 + 4·1 + 1·1, times h/3 = 1/3
  expect_near(run(spec, {{1, 1, 1, 100}}, {0, 3}, {4}, OutputRounding::none), {2});
}

TEST(MemopReference, PerAxisReductionsOverRowsAndColumns) {
  const std::vector<double> a = {1, 2, 3, 4, 5, 6};  // [2, 3]
  auto rows = run(R"(kernel k : sm90a
  reduce(A: f32[M,N], x: f32[N], of = A * x, op = sum, over = N, acc: f32)
  >> store(y: f32[M]))",
                  {a, {1, 0, -1}}, {}, {2, 3});
  expect_near(rows, {-2, -2});
  auto columns = run(R"(kernel k : sm90a
  reduce(A: f32[M,N], op = mean, over = M)
  >> store(y: f32[N]))",
                     {a}, {}, {3, 2});  // extent_symbols: the output's N, then M
  expect_near(columns, {2.5, 3.5, 4.5});
}

TEST(MemopReference, ArgReductionsKeepTheFirstAndCountNaNAsBoth) {
  const char* argmax = R"(kernel k : sm90a
  reduce(logits: f32[M,N], op = argmax, over = N)
  >> store(token: i32[M]))";
  expect_near(run(argmax, {{1, 7, 7, 2, 0, kNaN, 9, kNaN}}, {}, {2, 4}), {1, 1});
  const char* argmin = R"(kernel k : sm90a
  reduce(logits: f32[M,N], op = argmin, over = N)
  >> store(token: i32[M]))";
  expect_near(run(argmin, {{3, -1, 5, -1, 2, 2, 2, 2}}, {}, {2, 4}), {1, 0});
}

TEST(MemopReference, LogsumexpSubtractsTheMaxAndFollowsTorchOnInfAndNaN) {
  // Rows of [3, 3]: exp(1000) overflows a naive sum; 1 + 2 + 5 = 8; only -inf gives -inf.
  const double inf = INFINITY;
  auto rows = run(R"(kernel k : sm90a
  reduce(X: f32[M,N], op = logsumexp, over = N, acc: f32)
  >> store(y: f32[M]))",
                  {{1000, 1000, 1000, 0, std::log(2.0), std::log(5.0), -inf, -inf, -inf}}, {}, {3, 3},
                  OutputRounding::none);
  expect_near(rows, {1000 + std::log(3.0), std::log(8.0), -inf});
  // Columns of [2, 2] over M, `of` before it and the chain after it: log(e^0 + e^2·...) by hand.
  auto columns = run(R"(kernel k : sm90a
  reduce(X: f32[M,N], of = X * 2, op = logsumexp, over = M)
  >> expr(x - 1)
  >> store(y: f32[N]))",
                     {{0, -1, std::log(3.0) / 2, 5}}, {}, {2, 2}, OutputRounding::none);
  expect_near(columns, {std::log(4.0) - 1, 10 + std::log1p(std::exp(-12.0)) - 1});
  // A full reduction: +inf wins over finite values, NaN over everything; -inf adds nothing.
  const char* full = R"(kernel k : sm90a
  reduce(x: f32[N], op = logsumexp)
  >> store(y: f32[1]))";
  expect_near(run(full, {{-inf, 0, -inf}}, {}, {3}, OutputRounding::none), {0});
  expect_near(run(full, {{1, inf, 2}}, {}, {3}, OutputRounding::none), {inf});
  EXPECT_TRUE(std::isnan(run(full, {{1, kNaN, inf}}, {}, {3}, OutputRounding::none).at(0)));
  // More elements than one chunk of the threads (2^16): chunks combine their pairs, log(n·e^7) = 7 + log n.
  const int64_t n = 200000;
  std::vector<double> sevens(size_t(n), 7.0);
  sevens[123456] = 7.0 + std::log(2.0);  // one element twice as heavy: 7 + log(n + 1)
  expect_near(run(full, {sevens}, {}, {n}, OutputRounding::none), {7 + std::log(double(n + 1))});
}

/// The summation allowance of `spec` on `inputs` (MemOpReference::bounds of the first output).
std::vector<double> bounds(const std::string& spec, const std::vector<std::vector<double>>& inputs,
                           std::vector<int64_t> extents) {
  MemOpHostArgs args;
  for (const std::vector<double>& in : inputs) args.inputs.push_back(in);
  args.extents = std::move(extents);
  MemOpReference r = memop_reference(lowered(spec), args);
  EXPECT_TRUE(r.ok()) << r.error;
  return r.ok() && !r.bounds.empty() ? r.bounds.at(0) : std::vector<double>{};
}

TEST(MemopReference, SumsCarryTheirSummationAllowanceThroughTheChain) {
  // Rows [1, -2, 3] and [-4, 4, 0]: Σ|x| = 6 and 8; a sum's allowance accumulation_eps(3)·Σ|x|.
  const std::vector<double> x = {1, -2, 3, -4, 4, 0};
  const double eps3 = accumulation_eps(3);
  auto rows = [&](const std::string& op, const std::string& chain) {
    return bounds("kernel k : sm90a\n  reduce(X: f32[M,N], op = " + op + ", over = N, acc: f32)\n" + chain +
                      "  >> store(y: f32[M])",
                  {x}, {2, 3});
  };
  expect_near(rows("sum", ""), {eps3 * 6, eps3 * 8});
  expect_near(rows("mean", ""), {eps3 * 2, eps3 * 8 / 3});
  // Through the chain: x·3 triples it; a logsumexp's is the log of its sum's relative error, whatever its values.
  auto tripled = rows("sum", "  >> expr(x * 3)\n");
  ASSERT_EQ(tripled.size(), 2u);
  EXPECT_NEAR(tripled[0], 3 * eps3 * 6, 1e-12);
  expect_near(rows("logsumexp", ""), {eps3, eps3});
  // A max is exact: no allowance.
  EXPECT_TRUE(rows("max", "").empty());
  // A full reduction of 200000 values (chunks on several threads): Σ|x| over every chunk.
  const int64_t n = 200000;
  std::vector<double> ones(size_t(n), -1.0);
  auto full = bounds("kernel k : sm90a\n  reduce(x: f32[N], op = sum)\n  >> store(y: f32[1])", {ones}, {n});
  ASSERT_EQ(full.size(), 1u);
  EXPECT_NEAR(full[0], accumulation_eps(n) * double(n), 1e-9);
}

TEST(MemopReference, RotaryMapsTurnPairsAndBoundTheirF32Angle) {
  // Two rows of 4: row 0 (position 0) stays, row 1 turns pair 0 by 1 rad and pair 1 by 1·base^(−2/4) = 0.01 rad.
  const std::string spec = "kernel r : sm90a\n  map(x: f32[M, D], rotary = 10000)\n  >> store(y: f32[M, D])\n";
  const std::vector<double> x = {1, 2, 3, 4, 1, 0, 0, 1};
  const std::vector<double> y = run(spec, {x}, {}, {2, 4}, OutputRounding::none);
  expect_near(y, {1, 2, 3, 4, std::cos(1.0), std::sin(1.0), -std::sin(0.01), std::cos(0.01)});
  // MSKB's largest rows: positions up to 127, D = 16384. The kernel's f32 angle, computed as the emitted code does
  // (exp2f, sincosf), lands within the bound the reference gives it at every element.
  const int64_t m = 128, d = 16384;
  std::vector<double> in(size_t(m * d));
  for (size_t k = 0; k < in.size(); ++k) in[k] = std::sin(double(k) * 0.37);  // in [-1, 1]
  const std::vector<double> ref = run(spec, {in}, {}, {m, d}, OutputRounding::none);
  const std::vector<double> bound = bounds(spec, {in}, {m, d});
  ASSERT_EQ(bound.size(), ref.size());
  const float log2_base = std::log2(10000.0f);
  double worst = 0;
  for (int64_t r = 0; r < m; ++r)
    for (int64_t c = 0; c < d; c += 2) {
      const float angle = float(r) * exp2f(-float(c) / float(d) * log2_base);
      float s, co;
      sincosf(angle, &s, &co);
      const float a = float(in[size_t(r * d + c)]), b = float(in[size_t(r * d + c + 1)]);
      const float got[2] = {a * co - b * s, a * s + b * co};
      for (int j = 0; j < 2; ++j) {
        const size_t k = size_t(r * d + c + j);
        const double err = std::fabs(double(got[j]) - ref[k]);
        EXPECT_LE(err, bound[k] + std::ldexp(1.0, -24) * std::fabs(ref[k])) << r << ", " << c + j;
        worst = std::max(worst, err);
      }
    }
  EXPECT_GT(worst, 0);  // f32 does miss: the bound is not idle
  EXPECT_LT(*std::max_element(bound.begin(), bound.end()), 1e-3);  // and stays far below MSKB's 1e-2
}

TEST(MemopReference, RownormNormsAlongRowsAndColumns) {
  auto norm = [](const std::string& kind, const std::vector<double>& x, const std::string& eps = "") {
    return run("kernel k : sm90a\n  rownorm(input: f32[N,C], norm = " + kind + eps +
                   ", over = C)\n  >> store(out: f32[N,C])",
               {x}, {}, {1, int64_t(x.size())}, OutputRounding::none);
  };
  expect_near(norm("softmax", {0, std::log(3.0)}), {0.25, 0.75});
  expect_near(norm("log_softmax", {0, std::log(3.0)}), {std::log(0.25), std::log(0.75)});
  expect_near(norm("layer", {1, 3}, ", eps = 0"), {-1, 1});
  expect_near(norm("rms", {1, 7}, ", eps = 0"), {0.2, 1.4});
  expect_near(norm("l1", {1, -3}), {0.25, -0.75});
  expect_near(norm("l2", {3, 4}), {0.6, 0.8});
  // batch_norm: each column over N, the chain reading per-column gamma and beta and the eps scalar
  auto columns = run(R"(kernel k : sm90a
  rownorm(input: f32[N,C], gamma: f32[C], beta: f32[C], epsilon: f32, norm = layer, eps = epsilon, over = N)
  >> expr(x * gamma + beta)
  >> store(output: f32[N,C]))",
                     {{1, 10, 3, 30}, {2, 1}, {0, 5}}, {0}, {2, 2}, OutputRounding::none);
  expect_near(columns, {-2, 4, 2, 6});
}

TEST(MemopReference, ScansRunAlongEachRow) {
  auto scan = [](const std::string& args) {
    return run("kernel k : sm90a\n  scan(input: f32[B,N], " + args + ")\n  >> store(output: f32[B,N])",
               {{1, 2, 3, 4, -1, 2}}, {}, {2, 3});
  };
  expect_near(scan("op = sum"), {1, 3, 6, 4, 3, 5});
  expect_near(scan("op = sum, exclusive = true"), {0, 1, 3, 0, 4, 3});
  expect_near(scan("op = sum, reverse = true"), {6, 5, 3, 5, 1, 2});
  expect_near(scan("op = sum, exclusive = true, reverse = true"), {5, 3, 0, 1, 2, 0});
  expect_near(scan("op = prod"), {1, 2, 6, 4, -4, -8});
  expect_near(scan("op = max"), {1, 2, 3, 4, 4, 4});
  expect_near(scan("op = min, exclusive = true"), {INFINITY, 1, 1, INFINITY, 4, -1});
  auto masked = run(R"(kernel k : sm90a
  scan(x: f32[N], mask: f32[N], of = x * mask, op = sum)
  >> store(y: f32[N]))",
                    {{1, 2, 3}, {1, 0, 1}}, {}, {3});
  expect_near(masked, {1, 1, 4});
}

TEST(MemopReference, StarStencilsKeepTheirEdges) {
  // 3 x 4, r = 0.5: the two interior points get u + r·(Σ neighbours − 4u)
  auto y = run(R"(kernel k : sm90a
  window(u_old: f32[nx, ny], r: f32, op = sum, taps = star, edge = copy)
  >> expr(u_old + r * (x - 4 * u_old))
  >> store(u_new: f32[nx, ny]))",
               {{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}}, {0.5}, {3, 4});
  expect_near(y, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});  // a linear field is its own Laplacian's fixed point
  auto bump = run(R"(kernel k : sm90a
  window(u_old: f32[nx, ny], r: f32, op = sum, taps = star, edge = copy)
  >> expr(u_old + r * (x - 4 * u_old))
  >> store(u_new: f32[nx, ny]))",
                  {{0, 0, 0, 0, 8, 0, 0, 0, 0}}, {0.25}, {3, 3});
  expect_near(bump, {0, 0, 0, 0, 0, 0, 0, 0, 0});
}

TEST(MemopReference, BoxWindowsValidAndClipped) {
  auto conv = run(R"(kernel k : sm90a
  window(input: f32[input_size], kernel: f32[kernel_size], op = sum, weights = kernel, edge = valid)
  >> store(output: f32[outputs]))",
                  {{1, 2, 3, 4}, {1, 0, -1}}, {}, {4, 3});
  expect_near(conv, {-2, -2});
  const char* pool = R"(kernel k : sm90a
  window(input: f32[N, C, H, W], op = max, size = kernel_size, stride = stride, pad = padding, over = (H, W),
         edge = clip)
  >> store(output: f32[N, C, OH, OW]))";
  const std::vector<double> image = {1, 2, 3, 4, 5, 6, 7, 8, 9};  // [1, 1, 3, 3]
  expect_near(run(pool, {image}, {}, {1, 1, 3, 3, 2, 1, 0}), {5, 6, 8, 9});
  expect_near(run(pool, {image}, {}, {1, 1, 3, 3, 2, 2, 1}), {1, 3, 7, 9});  // padded taps never win
  auto sum = run(R"(kernel k : sm90a
  window(input: f32[H, W], op = sum, size = 2, stride = 2, pad = 1, edge = clip)
  >> expr(x / 4)
  >> store(output: f32[OH, OW]))",
                 {image}, {}, {3, 3});
  expect_near(sum, {0.25, 1.25, 2.75, 7});  // padding adds nothing: clipped windows
}

TEST(MemopReference, ChannelsLastPoolingKeepsTheChannels) {
  // [N=1, H=2, W=4, C=2]: channel 0 holds 0..7 in row-major (h, w) order, channel 1 holds ten times that.
  std::vector<double> image;
  for (int hw = 0; hw < 8; ++hw) image.insert(image.end(), {double(hw), 10.0 * hw});
  const char* max2 = R"(kernel k : sm90a
  window(input: f32[N, H, W, C], op = max, size = 2, stride = 2, over = (H, W), edge = clip)
  >> store(output: f32[N, OH, OW, C]))";
  // Windows {0, 1, 4, 5} and {2, 3, 6, 7}: [1, 1, 2, 2] = (5, 50), (7, 70).
  expect_near(run(max2, {image}, {}, {1, 2, 4, 2}), {5, 50, 7, 70});
  const char* avg2 = R"(kernel k : sm90a
  window(input: f32[N, H, W, C], op = avg, size = 2, stride = 2, over = (H, W), edge = clip)
  >> store(output: f32[N, OH, OW, C]))";
  expect_near(run(avg2, {image}, {}, {1, 2, 4, 2}), {2.5, 25, 4.5, 45});
  // A padded average counts the padding in its divisor (PyTorch's count_include_pad): [1, 1, 3, 1] of 1, 2, 3,
  // size 2, stride 2, pad 1 along W: windows {pad, 1}, {2, 3} → 0.5, 2.5.
  const char* avg_pad = R"(kernel k : sm90a
  window(input: f32[N, H, W, C], op = avg, size = (1, 2), stride = (1, 2), pad = (0, 1), over = (H, W),
         edge = clip)
  >> store(output: f32[N, OH, OW, C]))";
  expect_near(run(avg_pad, {{1, 2, 3}}, {}, {1, 1, 3, 1}), {0.5, 2.5});
}

TEST(MemopReference, ThreeDimensionalChannelsLastPooling) {
  // [N=1, D=2, H=2, W=2, C=1] of 1..8: one 2x2x2 window.
  const char* pool3 = R"(kernel k : sm90a
  window(input: f32[N, D, H, W, C], op = OP, size = 2, stride = 2, over = (D, H, W), edge = clip)
  >> store(output: f32[N, OD, OH, OW, C]))";
  std::string max3 = pool3, avg3 = pool3;
  max3.replace(max3.find("OP"), 2, "max");
  avg3.replace(avg3.find("OP"), 2, "avg");
  const std::vector<double> cube = {1, 2, 3, 4, 5, 6, 7, 8};
  expect_near(run(max3, {cube}, {}, {1, 2, 2, 2, 1}), {8});
  expect_near(run(avg3, {cube}, {}, {1, 2, 2, 2, 1}), {4.5});
  // Two channels, W = 3 (the last column is in no window): channel c of point (d, h, w) = 100·c + 4d + 2h + w.
  std::vector<double> two;
  for (int d = 0; d < 2; ++d)
    for (int h = 0; h < 2; ++h)
      for (int w = 0; w < 3; ++w)
        for (int c = 0; c < 2; ++c) two.push_back(100.0 * c + 4 * d + 2 * h + w);
  expect_near(run(max3, {two}, {}, {1, 2, 2, 3, 2}), {7, 107});
}

TEST(MemopReference, RefusesWhatItDoesNotCoverAndArgumentsThatDoNotFit) {
  MemOpConfig sort = lowered("kernel k : sm90a\n  sort(data: f32[N], order = ascending)\n");
  EXPECT_NE(memop_reference_unsupported(sort).find("library call"), std::string::npos);
  MemOpReference r = memop_reference(sort, {});
  EXPECT_FALSE(r.ok());
  MemOpConfig relu = lowered("kernel k : sm90a\n  map(input: f32[N])\n  >> relu\n  >> store(output: f32[N])\n");
  EXPECT_EQ(memop_reference_unsupported(relu), "");
  std::vector<double> three = {1, 2, 3};
  r = memop_reference(relu, MemOpHostArgs{{three}, {}, {}});
  EXPECT_NE(r.error.find("1 extents"), std::string::npos) << r.error;
  r = memop_reference(relu, MemOpHostArgs{{three}, {}, {4}});
  EXPECT_NE(r.error.find("holds 3 elements"), std::string::npos) << r.error;
  MemOpConfig mismatched =
      lowered("kernel k : sm90a\n  map(A: f32[M,N], v: f32[K])\n  >> expr(x + v)\n  >> store(B: f32[M,N])\n");
  std::vector<double> six(6, 1.0), two(2, 1.0);
  r = memop_reference(mismatched, MemOpHostArgs{{six, two}, {}, {2, 3, 2}});
  EXPECT_NE(r.error.find("neither equal nor 1"), std::string::npos) << r.error;
}

}  // namespace
}  // namespace ucut
