// mskb/tasks/llm.cpp — MSKB's LLM Operator tasks (peers.md §2.1, rows 27–32).
#include <algorithm>
#include <cfloat>
#include <cmath>

#include "mskb/gen.h"
#include "mskb/task.h"

namespace ucut::mskb {

namespace {

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

// One Case per size tuple, each tuple in the order of `names`.
std::vector<Case> listed(const std::vector<std::string>& names, const std::vector<std::vector<int64_t>>& tuples) {
  std::vector<Case> out;
  for (const auto& t : tuples) {
    Case c;
    for (size_t i = 0; i < names.size(); ++i) c.sizes.emplace_back(names[i], t[i]);
    out.push_back(c);
  }
  return out;
}

std::vector<double> zeros(int64_t n) { return std::vector<double>(static_cast<size_t>(n), 0.0); }

Task swiglu() {
  Task t;
  t.name = "SwiGLU";
  t.category = "LLM Operator";
  t.signature_fp32 = "void SwiGLU( float* output, const float* gate_input, const float* value_input, float beta, int N)";
  t.signature_bf16 =
      "void SwiGLU_bf16( __nv_bfloat16* output, const __nv_bfloat16* gate_input, const __nv_bfloat16* value_input, "
      "float beta, int N)";
  t.cases = sweep({{"N", {1 << 10, 1 << 12, 1 << 14, 1 << 16, 1 << 18}}});
  t.complexity = [](const Case& c) { return double(c.at("N")); };
  t.tolerance = {Tolerance::Kind::absolute, 1e-2};
  t.outputs = {"output"};
  t.generate = [](const Case& c, std::mt19937_64& rng) {
    int64_t n = c.at("N");
    Instance in;
    in.arrays["gate_input"] = uniform(n, -1, 1, rng);
    in.arrays["value_input"] = uniform(n, -1, 1, rng);
    in.arrays["output"] = zeros(n);
    in.scalars["beta"] = 1.0;
    in.scalars["N"] = double(n);
    return in;
  };
  // output = swish_beta(gate) · value, swish_beta(x) = x·sigmoid(beta·x).
  t.reference = [](const Instance& in) {
    const auto &g = in.array("gate_input"), &v = in.array("value_input");
    double beta = in.scalar("beta");
    std::vector<double> out(g.size());
    for (size_t i = 0; i < g.size(); ++i) out[i] = g[i] * sigmoid(beta * g[i]) * v[i];
    return Outputs{{"output", out}};
  };
  t.work = [](const Case& c, int bytes) {
    double n = double(c.at("N"));
    return Work{6 * n, 3 * n * bytes};
  };
  return t;
}

Task silu_and_mul() {
  Task t;
  t.name = "silu_and_mul";
  t.category = "LLM Operator";
  t.signature_fp32 = "void silu_and_mul( const float* in, float* out, int32_t B, int32_t D)";
  t.signature_bf16 = "void silu_and_mul_bf16( const __nv_bfloat16* in, __nv_bfloat16* out, int32_t B, int32_t D)";
  t.cases = sweep({{"B", {16, 32, 64}}, {"D", {4096, 5120, 8192, 12288}}});
  t.complexity = [](const Case& c) { return double(c.at("B") * c.at("D")); };
  t.tolerance = {Tolerance::Kind::absolute, 1e-2};
  t.outputs = {"out"};
  t.generate = [](const Case& c, std::mt19937_64& rng) {
    int64_t b = c.at("B"), d = c.at("D");
    Instance in;
    in.arrays["in"] = uniform(2 * b * d, -1, 1, rng);
    in.arrays["out"] = zeros(b * d);
    in.scalars["B"] = double(b);
    in.scalars["D"] = double(d);
    return in;
  };
  // Row b of `in` is [x | g] (2·D values); out[b][d] = silu(x[d]) · g[d].
  t.reference = [](const Instance& in) {
    const auto& x = in.array("in");
    auto b = int64_t(in.scalar("B")), d = int64_t(in.scalar("D"));
    std::vector<double> out(static_cast<size_t>(b * d));
    for (int64_t r = 0; r < b; ++r)
      for (int64_t j = 0; j < d; ++j) {
        double xv = x[r * 2 * d + j], gv = x[r * 2 * d + d + j];
        out[r * d + j] = xv * sigmoid(xv) * gv;
      }
    return Outputs{{"out", out}};
  };
  t.work = [](const Case& c, int bytes) {
    double n = double(c.at("B") * c.at("D"));
    return Work{5 * n, 3 * n * bytes};
  };
  return t;
}

// MSKB's merge turns an infinite LSE (either sign) into -FLT_MAX before the max-shifted log-sum-exp.
double finite_lse(double x) { return std::isinf(x) ? -double(FLT_MAX) : x; }

Task merge_attn_states() {
  Task t;
  t.name = "merge_attn_states";
  t.category = "LLM Operator";
  t.signature_fp32 =
      "void merge_attn_states( float* V_out, float* LSE_out, const float* V_a, const float* lse_a, const float* V_b, "
      "const float* lse_b, int num_tokens, int num_heads, int head_size)";
  t.signature_bf16 =
      "void merge_attn_states_bf16( __nv_bfloat16* V_out, __nv_bfloat16* LSE_out, const __nv_bfloat16* V_a, "
      "const __nv_bfloat16* lse_a, const __nv_bfloat16* V_b, const __nv_bfloat16* lse_b, int num_tokens, "
      "int num_heads, int head_size)";
  t.cases = sweep({{"num_tokens", {512, 768, 1024}}, {"num_heads", {32, 64}}, {"head_size", {128, 256}}});
  t.complexity = [](const Case& c) { return double(c.at("num_tokens") * c.at("num_heads") * c.at("head_size")); };
  t.tolerance = {Tolerance::Kind::absolute, 1e-2};
  t.outputs = {"V_out", "LSE_out"};
  t.generate = [](const Case& c, std::mt19937_64& rng) {
    int64_t tokens = c.at("num_tokens"), heads = c.at("num_heads"), size = c.at("head_size");
    int64_t nv = tokens * heads * size, nl = tokens * heads;
    Instance in;
    in.arrays["V_a"] = uniform(nv, -1, 1, rng);
    in.arrays["V_b"] = uniform(nv, -1, 1, rng);
    in.arrays["lse_a"] = uniform(nl, -1, 1, rng);
    in.arrays["lse_b"] = uniform(nl, -1, 1, rng);
    in.arrays["V_out"] = zeros(nv);
    in.arrays["LSE_out"] = zeros(nl);
    in.scalars["num_tokens"] = double(tokens);
    in.scalars["num_heads"] = double(heads);
    in.scalars["head_size"] = double(size);
    return in;
  };
  // V is [tokens, heads, head_size]; the LSEs are [heads, tokens]. V_out = wa·V_a + wb·V_b with wa, wb the softmax
  // of (lse_a, lse_b); LSE_out = log(e^lse_a + e^lse_b).
  t.reference = [](const Instance& in) {
    const auto &va = in.array("V_a"), &vb = in.array("V_b"), &la = in.array("lse_a"), &lb = in.array("lse_b");
    auto tokens = int64_t(in.scalar("num_tokens")), heads = int64_t(in.scalar("num_heads"));
    auto size = int64_t(in.scalar("head_size"));
    std::vector<double> v(va.size()), lse(la.size());
    for (int64_t h = 0; h < heads; ++h)
      for (int64_t tok = 0; tok < tokens; ++tok) {
        double a = finite_lse(la[h * tokens + tok]), b = finite_lse(lb[h * tokens + tok]);
        double m = std::max(a, b), ea = std::exp(a - m), eb = std::exp(b - m), sum = ea + eb;
        lse[h * tokens + tok] = std::log(sum) + m;
        for (int64_t e = 0, o = (tok * heads + h) * size; e < size; ++e)
          v[o + e] = va[o + e] * (ea / sum) + vb[o + e] * (eb / sum);
      }
    return Outputs{{"V_out", v}, {"LSE_out", lse}};
  };
  t.work = [](const Case& c, int bytes) {
    double nl = double(c.at("num_tokens") * c.at("num_heads")), nv = nl * double(c.at("head_size"));
    return Work{3 * nv + 8 * nl, (3 * nv + 3 * nl) * bytes};
  };
  return t;
}

Task rope() {
  Task t;
  t.name = "rope";
  t.category = "LLM Operator";
  t.signature_fp32 = "void rope( float* output, const float* input, int M, int D, float base )";
  t.signature_bf16 = "void rope_bf16( __nv_bfloat16* output, const __nv_bfloat16* input, int M, int D, float base )";
  t.cases = sweep({{"M", {16, 32, 64, 128}}, {"D", {1 << 8, 1 << 10, 1 << 12, 1 << 14}}});
  t.complexity = [](const Case& c) { return double(c.at("M") * c.at("D")); };
  t.tolerance = {Tolerance::Kind::absolute, 1e-2};
  t.outputs = {"output"};
  t.generate = [](const Case& c, std::mt19937_64& rng) {
    int64_t m = c.at("M"), d = c.at("D");
    Instance in;
    in.arrays["input"] = uniform(m * d, -1, 1, rng);
    in.arrays["output"] = zeros(m * d);
    in.scalars["M"] = double(m);
    in.scalars["D"] = double(d);
    in.scalars["base"] = 10000.0;
    return in;
  };
  // Row m is position m; adjacent pairs (2p, 2p+1) rotate by the angle m·base^(-2p/D).
  t.reference = [](const Instance& in) {
    const auto& x = in.array("input");
    auto m = int64_t(in.scalar("M")), d = int64_t(in.scalar("D"));
    double base = in.scalar("base");
    std::vector<double> out(x.size());
    for (int64_t r = 0; r < m; ++r)
      for (int64_t p = 0; p < d / 2; ++p) {
        double angle = double(r) * std::pow(base, -2.0 * double(p) / double(d));
        double c = std::cos(angle), s = std::sin(angle), q0 = x[r * d + 2 * p], q1 = x[r * d + 2 * p + 1];
        out[r * d + 2 * p] = q0 * c - q1 * s;
        out[r * d + 2 * p + 1] = q0 * s + q1 * c;
      }
    return Outputs{{"output", out}};
  };
  t.work = [](const Case& c, int bytes) {
    double n = double(c.at("M") * c.at("D"));
    return Work{3 * n, 2 * n * bytes};
  };
  return t;
}

// Y[i] = softmax_j(Q[i]·K[j] / sqrt(dim_qk)) · V, one query row of the FP64 reference.
void attention_row(const Instance& in, int64_t i, std::vector<double>& y) {
  const auto &q = in.array("Q"), &k = in.array("K"), &v = in.array("V");
  auto kv = int64_t(in.scalar("kv_seq_len")), dqk = int64_t(in.scalar("dim_qk")), dv = int64_t(in.scalar("dim_v"));
  std::vector<double> s(static_cast<size_t>(kv));
  const double* qi = q.data() + i * dqk;
  for (int64_t j = 0; j < kv; ++j) {
    const double* kj = k.data() + j * dqk;
    double acc = 0;
    for (int64_t e = 0; e < dqk; ++e) acc += qi[e] * kj[e];
    s[j] = acc / std::sqrt(double(dqk));
  }
  double m = *std::max_element(s.begin(), s.end()), sum = 0;
  for (double& x : s) sum += (x = std::exp(x - m));
  double* yi = y.data() + i * dv;
  for (int64_t j = 0; j < kv; ++j) {
    const double* vj = v.data() + j * dv;
    double p = s[j] / sum;
    for (int64_t e = 0; e < dv; ++e) yi[e] += p * vj[e];
  }
}

Task softmax_attention() {
  Task t;
  t.name = "softmax_attention";
  t.category = "LLM Operator";
  t.signature_fp32 =
      "void softmax_attention(float* Y, const float* Q, const float* K, const float* V, int q_seq_len, int kv_seq_len, "
      "int dim_qk, int dim_v)";
  t.signature_bf16 =
      "void softmax_attention_bf16(__nv_bfloat16* Y, const __nv_bfloat16* Q, const __nv_bfloat16* K, "
      "const __nv_bfloat16* V, int q_seq_len, int kv_seq_len, int dim_qk, int dim_v)";
  t.cases = listed({"q_seq_len", "kv_seq_len", "dim_qk", "dim_v"}, {{128, 256, 512, 512},
                                                                     {256, 512, 1024, 1024},
                                                                     {512, 1024, 2048, 2048},
                                                                     {1024, 2048, 4096, 4096},
                                                                     {256, 1024, 2048, 1024},
                                                                     {512, 512, 1024, 2048},
                                                                     {1024, 1024, 4096, 2048},
                                                                     {128, 2048, 512, 4096}});
  t.complexity = [](const Case& c) {
    double s = double(c.at("q_seq_len") * c.at("kv_seq_len"));
    return s * double(c.at("dim_qk")) + s * double(c.at("dim_v")) + s;
  };
  t.reference_cost = [](const Case& c) {
    return double(c.at("q_seq_len") * c.at("kv_seq_len")) * double(c.at("dim_qk") + c.at("dim_v"));
  };
  t.tolerance = {Tolerance::Kind::absolute, 1e-2};
  t.outputs = {"Y"};
  t.vendor = "cuBLAS GemmEx (S = Q·Kᵀ, Y = P·V, FP32 compute) + cuDNN softmax";
  t.generate = [](const Case& c, std::mt19937_64& rng) {
    int64_t q = c.at("q_seq_len"), kv = c.at("kv_seq_len"), dqk = c.at("dim_qk"), dv = c.at("dim_v");
    Instance in;
    in.arrays["Q"] = uniform(q * dqk, -1, 1, rng);
    in.arrays["K"] = uniform(kv * dqk, -1, 1, rng);
    in.arrays["V"] = uniform(kv * dv, -1, 1, rng);
    in.arrays["Y"] = zeros(q * dv);
    for (const auto& [name, value] : c.sizes) in.scalars[name] = double(value);
    return in;
  };
  // Q [q, dim_qk], K [kv, dim_qk], V [kv, dim_v], Y [q, dim_v], all row-major.
  t.reference = [](const Instance& in) {
    auto q = int64_t(in.scalar("q_seq_len")), dv = int64_t(in.scalar("dim_v"));
    std::vector<double> y(static_cast<size_t>(q * dv), 0.0);
    parallel_for(q, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) attention_row(in, i, y);
    });
    return Outputs{{"Y", y}};
  };
  t.work = [](const Case& c, int bytes) {
    double q = double(c.at("q_seq_len")), kv = double(c.at("kv_seq_len"));
    double dqk = double(c.at("dim_qk")), dv = double(c.at("dim_v"));
    return Work{2 * q * kv * (dqk + dv) + 3 * q * kv, (q * dqk + kv * dqk + kv * dv + q * dv) * bytes};
  };
  return t;
}

// Output of one (b, h, d) column of triangle attention: for every row i, a softmax over the scores
// q[i][d]·k[j][d] / sqrt(head_dim) of the rows j ≤ i that the mask keeps (mask[b][i][j] ≤ 0.5), weighting v[j][d];
// 0 when the mask keeps none.
void triangle_column(const Instance& in, int64_t b, int64_t h, int64_t d, std::vector<double>& out) {
  const auto &q = in.array("query"), &k = in.array("key"), &v = in.array("value");
  const auto& mask = in.array("attention_mask");
  auto heads = int64_t(in.scalar("head_num")), s = int64_t(in.scalar("seq_length"));
  auto dim = int64_t(in.scalar("head_dim"));
  int64_t base = (b * heads + h) * s * dim + d;  // element (b, h, 0, d); rows are `dim` apart
  std::vector<double> ks(static_cast<size_t>(s)), vc(static_cast<size_t>(s));  // k[j][d] / sqrt(head_dim), v[j][d]
  for (int64_t j = 0; j < s; ++j) ks[j] = k[base + j * dim] / std::sqrt(double(dim)), vc[j] = v[base + j * dim];
  for (int64_t i = 0; i < s; ++i) {
    const double* row_mask = mask.data() + (b * s + i) * s;
    double qi = q[base + i * dim], m = -INFINITY;
    for (int64_t j = 0; j <= i; ++j)
      if (row_mask[j] <= 0.5) m = std::max(m, qi * ks[j]);
    double sum = 0, acc = 0;
    for (int64_t j = 0; j <= i && m > -INFINITY; ++j)
      if (row_mask[j] <= 0.5) {
        double e = std::exp(qi * ks[j] - m);
        sum += e;
        acc += e * vc[j];
      }
    out[base + i * dim] = sum > 0 ? acc / sum : 0.0;
  }
}

Task triangle_attention() {
  Task t;
  t.name = "triangle_attention";
  t.category = "LLM Operator";
  t.signature_fp32 =
      "void triangle_attention( const float* query, const float* key, const float* value, const float* attention_mask, "
      "float* output, int batch_size, int head_num, int seq_length, int head_dim )";
  t.signature_bf16 =
      "void triangle_attention_bf16( const __nv_bfloat16* query, const __nv_bfloat16* key, const __nv_bfloat16* value, "
      "const float* attention_mask, __nv_bfloat16* output, int batch_size, int head_num, int seq_length, int head_dim )";
  t.cases = listed({"batch_size", "head_num", "seq_length", "head_dim"}, {{1, 32, 512, 128},
                                                                           {1, 96, 256, 128},
                                                                           {1, 48, 1024, 128},
                                                                           {2, 16, 256, 256},
                                                                           {2, 64, 512, 128},
                                                                           {4, 8, 32, 128},
                                                                           {4, 32, 512, 128},
                                                                           {8, 16, 512, 128}});
  t.complexity = [](const Case& c) {
    double s = double(c.at("seq_length"));
    return double(c.at("batch_size") * c.at("head_num")) * s * s * double(c.at("head_dim"));
  };
  // Per kept (i, j ≤ i, d) term: one multiply for the score and one multiply-add into the output (plus an exp).
  t.reference_cost = [](const Case& c) {
    double s = double(c.at("seq_length"));
    return double(c.at("batch_size") * c.at("head_num") * c.at("head_dim")) * s * (s + 1);
  };
  t.tolerance = {Tolerance::Kind::absolute, 1e-2};
  t.outputs = {"output"};
  t.generate = [](const Case& c, std::mt19937_64& rng) {
    int64_t b = c.at("batch_size"), s = c.at("seq_length");
    int64_t n = b * c.at("head_num") * s * c.at("head_dim");
    Instance in;
    in.arrays["query"] = uniform(n, -1, 1, rng);
    in.arrays["key"] = uniform(n, -1, 1, rng);
    in.arrays["value"] = uniform(n, -1, 1, rng);
    std::vector<double> mask = zeros(b * s * s);  // causal: 1 (masked) above the diagonal
    for (int64_t r = 0; r < b * s; ++r)
      for (int64_t j = r % s + 1; j < s; ++j) mask[r * s + j] = 1.0;
    in.arrays["attention_mask"] = std::move(mask);
    in.arrays["output"] = zeros(n);
    for (const auto& [name, value] : c.sizes) in.scalars[name] = double(value);
    return in;
  };
  // query/key/value/output are [batch, heads, seq, head_dim]; attention_mask is [batch, seq, seq].
  t.reference = [](const Instance& in) {
    auto b = int64_t(in.scalar("batch_size")), h = int64_t(in.scalar("head_num"));
    auto dim = int64_t(in.scalar("head_dim"));
    std::vector<double> out(in.array("query").size(), 0.0);
    parallel_for(b * h * dim, [&](int64_t lo, int64_t hi) {
      for (int64_t c = lo; c < hi; ++c) triangle_column(in, c / (h * dim), c / dim % h, c % dim, out);
    });
    return Outputs{{"output", out}};
  };
  t.work = [](const Case& c, int bytes) {
    double b = double(c.at("batch_size")), s = double(c.at("seq_length"));
    double n = b * double(c.at("head_num")) * s * double(c.at("head_dim"));
    return Work{5 * n * (s + 1) / 2, 4 * n * bytes + b * s * s * 4};
  };
  return t;
}

}  // namespace

void add_llm_tasks(std::vector<Task>& out) {
  out.push_back(swiglu());
  out.push_back(silu_and_mul());
  out.push_back(merge_attn_states());
  out.push_back(rope());
  out.push_back(softmax_attention());
  out.push_back(triangle_attention());
}

}  // namespace ucut::mskb
