// suite/problem.h — one problem of a suite (docs/suites.md): its inputs, the chain of operations whose result is
// the reference, its precision, tolerance and provenance. Parsed from TOML by suite/parse.cpp; shapes, FLOPs and
// minimum bytes follow from the chain (suite/analyze.h).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "support/source.h"

namespace ucut::suite {

enum class OpKind {
#define SUITE_OP(name, form) name,
#include "suite/ops.def"
#undef SUITE_OP
};

/// What an op does to the shape of the running value, and which keys it takes (suite/ops.def).
enum class OpForm {
  matmul, linear, conv, conv_transpose, binary, scalar_bound, clamp, unary, reduce, softmax,
  batch_norm, group_norm, instance_norm, layer_norm, pool, adaptive_pool, flatten, reshape
};

OpForm op_form(OpKind k);
const char* op_name(OpKind k);
std::optional<OpKind> find_op(std::string_view name);
std::vector<std::string_view> op_names();

using Shape = std::vector<int64_t>;

/// A key's value as the file gives it: a number, a bool, a string or a list of integers.
struct Attr {
  std::optional<double> number;
  std::optional<bool> flag;
  std::optional<std::string> text;
  std::optional<Shape> ints;
  Span span;
};

struct Op {
  OpKind kind;
  Span span;                           // the `[[op]]` table
  std::map<std::string, Attr> attrs;   // every key but `op`, validated against the op's form
  std::optional<std::string> save;     // names this op's result for later `other`

  const Attr* get(const std::string& key) const;
  double number_or(const std::string& key, double fallback) const;
  bool flag_or(const std::string& key, bool fallback) const;
  /// A list key, or `fallback` repeated `rank` times; a single integer stands for all spatial dims.
  Shape ints_or(const std::string& key, size_t rank, int64_t fallback) const;
};

enum class InputInit { rand, randn, rand_triu, rand_tril, rand_symmetric };

struct Input {
  std::string name;
  Shape shape;
  InputInit init = InputInit::rand;
  Span span;
};

/// Where a problem comes from and what the audit measured (facts/kernelbench_h200_audit.csv).
struct KernelBenchRef {
  int level = 0, id = 0;
  std::string file;
  std::optional<double> gflop;
  std::optional<double> min_bytes;
  std::optional<double> eager_ms_h200_audit;
  Span gflop_span, bytes_span;
};

struct Problem {
  std::string path;
  std::string stem;  // file name without .toml: the problem's id in reports
  std::string title;
  std::string family;
  std::string precision = "f32";
  double tolerance = 1e-4;
  std::vector<std::string> weak_check;
  std::string note;
  std::optional<KernelBenchRef> kernelbench;
  std::vector<Input> inputs;
  std::vector<Op> ops;

  int element_bytes() const { return precision == "f32" ? 4 : 2; }
};

}  // namespace ucut::suite
