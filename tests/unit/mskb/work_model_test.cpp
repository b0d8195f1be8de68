// tests/unit/mskb/work_model_test.cpp — the bytes model behind `bench mskb`'s SOL (Task::work) pinned, for
// every non-sparse task's largest case in BF16, to a hand count typed in here from the task's C signature and
// semantics: every array read once and every output written once, bf16 elements 2 bytes, int and float
// arrays 4. The second number of each row is the plan's own hand count (issue 36, Appendix A.2: 4 significant
// digits), a cross-check of the expression typed here. A task added, removed or resized fails until its row
// is.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "mskb/task.h"

namespace ucut::mskb {
namespace {

struct HandCount {
  std::string largest_case;  // the case's label
  double bytes;              // typed from the signature: every term named
  double appendix;           // Appendix A.2's figure
};

// clang-format off
const std::map<std::string, HandCount>& hand_counts() {
  static const std::map<std::string, HandCount> rows = {
    // Dense LA
    {"matrix_mul", {"M=16384 K=4096 N=2048", (16384.0 * 4096 + 4096.0 * 2048 + 16384.0 * 2048) * 2, 2.181e8}},  // A, B, C
    {"square_matrix_mul", {"M=4096", 3 * 4096.0 * 4096 * 2, 1.007e8}},  // A, B, C
    {"matrix_vector_mul", {"M=2048 N=65536", (2048.0 * 65536 + 65536 + 2048) * 2, 2.686e8}},  // A[M,N], x[N], y[M]
    {"matrix_power", {"N=1024 P=16", 2 * 1024.0 * 1024 * 2, 4.194e6}},  // A read, B written; the P-1 products stay on chip
    {"dot_product", {"N=1048576", 2 * 1048576.0 * 2 + 4, 4.194e6}},  // X, Y, the f32 loss
    {"vector_add", {"N=262144", 3 * 262144.0 * 2, 1.573e6}},  // A, B, C
    {"matrix_scalar_mul", {"M=65536 N=2048", 2 * 65536.0 * 2048 * 2, 5.369e8}},  // A, B
    // Normalization
    {"batch_norm", {"N=1024 C=1024", (2 * 1024.0 * 1024 + 2 * 1024) * 2, 4.198e6}},  // input, output [N,C]; gamma, beta [C]
    {"layer_norm", {"N=1024", 4 * 1024.0 * 2, 8192}},  // input, weight, bias, output
    {"rms_norm", {"N=1024", 4 * 1024.0 * 2, 8192}},  // input, weight, bias, output
    {"softmax", {"N=128 C=16384", 2 * 128.0 * 16384 * 2, 8.389e6}},  // input, out
    // Activation: input, output
    {"RELU", {"N=262144", 2 * 262144.0 * 2, 1.049e6}},
    {"leaky_RELU", {"N=262144", 2 * 262144.0 * 2, 1.049e6}},
    {"elu", {"N=262144", 2 * 262144.0 * 2, 1.049e6}},
    {"selu", {"N=262144", 2 * 262144.0 * 2, 1.049e6}},
    {"gelu", {"N=262144", 2 * 262144.0 * 2, 1.049e6}},
    {"sigmoid", {"N=262144", 2 * 262144.0 * 2, 1.049e6}},
    {"row_tanh", {"N=262144", 2 * 262144.0 * 2, 1.049e6}},
    // LLM Operator
    {"SwiGLU", {"N=262144", 3 * 262144.0 * 2, 1.573e6}},  // gate_input, value_input, output
    {"silu_and_mul", {"B=64 D=12288", (64.0 * 2 * 12288 + 64.0 * 12288) * 2, 4.719e6}},  // in[B,2D], out[B,D]
    {"merge_attn_states", {"num_tokens=1024 num_heads=64 head_size=256",  // V_a, V_b, V_out [T,H,D]; lse_a, lse_b, LSE_out [H,T]
                           (3 * 1024.0 * 64 * 256 + 3 * 64.0 * 1024) * 2, 1.011e8}},
    {"rope", {"M=128 D=16384", 2 * 128.0 * 16384 * 2, 8.389e6}},  // input, output
    {"softmax_attention", {"q_seq_len=128 kv_seq_len=2048 dim_qk=512 dim_v=4096",  // Q, K, V, Y
                           (128.0 * 512 + 2048.0 * 512 + 2048.0 * 4096 + 128.0 * 4096) * 2, 2.005e7}},
    {"triangle_attention", {"batch_size=8 head_num=16 seq_length=512 head_dim=128",  // query, key, value, output; f32 mask [B,S,S]
                            4 * 8.0 * 16 * 512 * 128 * 2 + 8.0 * 512 * 512 * 4, 7.55e7}},
    // Loss
    {"MSE_loss", {"N=262144", 2 * 262144.0 * 2 + 4, 1.049e6}},  // X, Y, the f32 loss
    {"cross_entropy_loss", {"C=4194304", 2 * 4194304.0 * 2 + 4, 1.678e7}},  // X, Y, the f32 loss
    {"hinge_loss", {"N=262144", 2 * 262144.0 * 2 + 262144.0 * 4, 2.097e6}},  // predictions, loss per sample; i32 targets
    // Tensor Process
    {"matrix_transpose", {"M=16384 N=16384", 2 * 16384.0 * 16384 * 2, 1.074e9}},  // A, B
    {"matrix_copy", {"M=65536 N=2048", 2 * 65536.0 * 2048 * 2, 5.369e8}},  // A, B
    {"reverse_array", {"N=262144", 2 * 262144.0 * 2, 1.049e6}},  // input, output
    {"high_order_contraction", {"a_dim=256 b_dim=256 c_dim=128 x_dim=16 y_dim=16",  // A[a,b,x,y], B[x,y,c], C[a,b,c]
                                (256.0 * 256 * 16 * 16 + 16.0 * 16 * 128 + 256.0 * 256 * 128) * 2, 5.04e7}},
    // Stencil
    {"stencil_2d", {"nx=16384 ny=16384", 2 * 16384.0 * 16384 * 2, 1.074e9}},  // u_old, u_new
    {"stencil_3d", {"nx=256 ny=256 nz=256", 2 * 256.0 * 256 * 256 * 2, 6.711e7}},  // u_old, u_new
    {"conv_1d", {"input_size=262144 kernel_size=256", (262144.0 + 256 + (262144 - 256 + 1)) * 2, 1.049e6}},  // valid outputs
    {"conv_2d", {"input_rows=4096 input_cols=4096 kernel_rows=32 kernel_cols=32",  // input, kernel, valid outputs
                 (4096.0 * 4096 + 32 * 32 + (4096.0 - 32 + 1) * (4096 - 32 + 1)) * 2, 6.66e7}},
    {"max_pooling_2d", {"N=4 C=1 H=2048 W=196 kernel_size=4 stride=2 padding=1",  // input; output 1024 x 98
                        (4.0 * 2048 * 196 + 4.0 * 1024 * 98) * 2, 4.014e6}},
    // Math & Alg
    {"FFT", {"N=16384", 4 * 16384.0 * 2, 1.311e5}},  // input_real, input_img, output_real, output_img
    {"prefix_sum", {"N=262144", 2 * 262144.0 * 2, 1.049e6}},  // input, output
    {"sorting", {"N=65536", 2 * 65536.0 * 2, 2.621e5}},  // data read and written in place
    {"top_k", {"N=65536 k=128", 65536.0 * 2 + 128 * 2 + 128 * 4, 1.318e5}},  // input, top_k_values, i32 top_k_indices
    {"monte_carlo_int", {"N=4194304", 4194304.0 * 2 + 2, 8.389e6}},  // y_samples, the bf16 result
    {"simpson_int", {"N=4194304", 4194304.0 * 2 + 2, 8.389e6}},  // y_samples, the bf16 result
  };
  return rows;
}
// clang-format on

TEST(MskbWorkModel, HandCountsAgreeWithTheAppendix) {
  for (const auto& [task, row] : hand_counts()) EXPECT_NEAR(row.bytes / row.appendix, 1.0, 5e-4) << task;
}

TEST(MskbWorkModel, EveryNonSparseTaskHasAHandCount) {
  int non_sparse = 0;
  for (const Task& t : all_tasks()) {
    if (t.category == "Sparse") continue;
    ++non_sparse;
    EXPECT_TRUE(hand_counts().count(t.name)) << t.name << " has no hand count";
  }
  EXPECT_EQ(non_sparse, 42);
  EXPECT_EQ(hand_counts().size(), 42u);
}

TEST(MskbWorkModel, LargestCaseBytesInBf16MatchTheHandCount) {
  for (const auto& [name, row] : hand_counts()) {
    SCOPED_TRACE(name);
    const Task* t = find_task(name);
    ASSERT_NE(t, nullptr);
    const Case& largest = t->cases.back();
    EXPECT_EQ(largest.label(), row.largest_case);
    EXPECT_EQ(t->work(largest, 2).bytes, row.bytes);
  }
}

}  // namespace
}  // namespace ucut::mskb
